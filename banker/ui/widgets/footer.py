"""The footer: Textual's, without its leak.

Textual 8.2.8's ``Footer`` recomposes its keys whenever the bindings change (each dialog
opened or closed) and binds every new key to its ``compact`` reactive; the old keys'
watchers stay on the footer, so each recompose keeps about twenty dead widgets alive and
every later garbage collection walks them (measured: the collector's pauses grew by some
10 ms per ten actions). After each recompose the watchers of keys no longer mounted are
dropped, which lets them go.
"""

from __future__ import annotations

from textual.widgets import Footer


class BankFooter(Footer):
    async def recompose(self) -> None:
        await super().recompose()
        self.prune_watchers()

    def prune_watchers(self) -> None:
        watchers = getattr(self, "__watchers", None)  # where textual.reactive keeps them
        if not watchers:
            return
        for callbacks in watchers.values():
            callbacks[:] = [(node, callback) for node, callback in callbacks
                            if node is self or getattr(node, "is_attached", True)]


def release_dead_widget_caches() -> None:
    """Let dismissed dialogs' widgets go.

    Textual 8.2.8 memoises ``StylesCache.get_inner_outer`` with ``functools.lru_cache`` on an
    instance method, so the cache holds up to 1,024 widgets' style caches (each with its
    rendered lines) after the widgets are gone; a dialog per action fills it within a few dozen
    actions and every garbage collection then walks it. The cache only saves two ``Style``
    objects per call; clearing it when a dialog closes costs nothing measurable.
    """
    from textual._styles_cache import StylesCache

    clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if clear is not None:
        clear()
