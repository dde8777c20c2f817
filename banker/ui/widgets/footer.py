"""The footer: Textual's, without its leak.

Textual 8.2.8's ``Footer`` recomposes its keys whenever the bindings change (each dialog
opened or closed, each change of focus) and data-binds every new key to its ``compact``
reactive. A data binding is a watcher kept on the footer, and Textual drops the watchers of
removed widgets only when the watched value changes, which ``compact`` never does: the table's
footer would keep every key it ever showed, some 36 dead widgets an action, and every garbage
collection would walk them (measured: over a second for a full collection after 300 actions).
Upstream: https://github.com/Textualize/textual/issues/6666 (open).

The workaround uses public API only: after each recompose, ``mutate_reactive`` re-announces
``compact`` (unchanged), which makes Textual prune the watchers of the removed keys.
"""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Footer


def release_rendering(widget: Widget) -> None:
    """Empty the rendered lines ``widget`` and its children keep, before they are removed.

    Textual 8.2.8 memoises a method of each widget's style cache with ``functools.lru_cache``,
    which keeps up to 1,024 caches of removed widgets alive, each with the lines it rendered
    (https://github.com/Textualize/textual/issues/6665, open): with a dialog or two per action,
    every garbage collection would walk some 70,000 dead objects. ``refresh()`` empties a
    widget's cache (a removed widget is not drawn again), so what stays behind is small.
    """
    for child in widget.walk_children(Widget):
        child.refresh()
    widget.refresh()


class BankFooter(Footer):
    async def recompose(self) -> None:
        release_rendering(self)  # the keys about to be removed (#6665)
        await super().recompose()
        # the keys just removed are closed now; re-announcing the value drops their watchers (#6666)
        self.mutate_reactive(Footer.compact)
