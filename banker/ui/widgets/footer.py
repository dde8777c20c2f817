"""The footer: Textual's, without its leaks; and letting go of the lines removed widgets drew.

Textual 8.2.8's ``Footer`` recomposes its keys whenever the bindings change (each dialog
opened or closed, each change of focus) and data-binds every new key to its ``compact``
reactive. A data binding is a watcher kept on the footer, and Textual drops the watchers of
removed widgets only when the watched value changes, which ``compact`` never does: the table's
footer would keep every key it ever showed, some 36 dead widgets an action, and every garbage
collection would walk them (measured: over a second for a full collection after 300 actions).
Upstream: https://github.com/Textualize/textual/issues/6666 (open). The workaround uses public
API only: after each recompose, ``mutate_reactive`` re-announces ``compact`` (unchanged), which
makes Textual prune the watchers of the removed keys.

Textual 8.2.8 also memoises a method of each widget's style cache with ``functools.lru_cache``,
which keeps up to 1,024 caches of removed widgets alive, each with the lines it rendered
(https://github.com/Textualize/textual/issues/6665, open): with a dialog or two per action,
every garbage collection would walk some 50,000 dead objects. ``Widget.refresh()`` empties a
widget's cache, so the widgets a dialog or the footer removes are refreshed once they are gone
(a removed widget is never drawn again): what the cache keeps of them then is three small objects
each. ``bench/ui_memory.py`` measures both, with and without these workarounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from itertools import groupby

from rich.cells import cell_len
from textual import events
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Footer

#: seconds after widgets are removed when their rendered lines are let go: after the frame that
#: shows what the banker did, never in its way
RELEASE_DELAY = 0.3


def release_rendering(widgets: Iterable[Widget]) -> None:
    """Empty the rendered lines ``widgets`` (removed from the screen) keep (textual#6665)."""
    for widget in widgets:
        widget.refresh()


def release_when_removed(node: DOMNode, widgets: Iterable[Widget]) -> None:
    """Let go of the rendered lines of ``widgets``, which are being removed, a moment later."""
    node.app.set_timer(RELEASE_DELAY, partial(release_rendering, list(widgets)), name="release-rendering")


#: narrower than this, the footer's keys go without their padding (Textual's compact footer): at 80 columns the
#: table's keys, help, quit and the palette all fit in English, and at 100 in Russian and Ukrainian
COMPACT_BELOW = 120


class BankFooter(Footer):
    """Textual's footer, with the workarounds above; and when its keys and the palette's key do not fit in one line
    together, the keys (help and quit among them, the last ones) stay and the palette's key goes: at 80 columns the
    Russian and Ukrainian words cut "? Справка" in two and hid "^q Выход" behind the palette's key, which the help
    screen names anyway (ctrl+p)."""

    #: what the keys shown were made from (see :meth:`shown`), at the last recompose
    _shown: tuple[object, ...] | None = None

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW
        if self._palette_fits(event.size.width) != self.show_command_palette:
            self.call_after_refresh(self.recompose)

    def _palette_fits(self, width: int) -> bool:
        """Whether the palette's key has room beside the keys in ``width`` columns (always, when not compact)."""
        if not self.compact or not self.is_attached:
            return True
        return self.keys_width() + self.palette_width() <= width

    def keys_width(self) -> int:
        """The columns the compact footer's keys take as :meth:`Footer.compose` lays them out: each key's shown name,
        a space and its words, a space between keys; the keys of a group by their names alone, then its words once.
        The palette's key is not counted."""
        get = self.app.get_key_display
        by_action: dict[str, Binding] = {}
        for _node, binding, _enabled, _tooltip in self.screen.active_bindings.values():
            if binding.show:
                by_action.setdefault(binding.action, binding)
        parts: list[int] = []
        for group, grouped in groupby(by_action.values(), lambda b: b.group):
            keys = list(grouped)
            if group is not None and len(keys) > 1:
                parts.append(sum(cell_len(get(b)) for b in keys) + len(keys) - 1 + 1 + cell_len(group.description))
            else:
                parts.extend(cell_len(get(b)) + (1 + cell_len(b.description) if b.description else 0) for b in keys)
        return sum(parts) + max(len(parts) - 1, 0)

    def palette_width(self) -> int:
        """The columns the palette's key takes, its rule before it included (0: the screen has no such key)."""
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None:
            return 0
        binding = found[1]
        return 2 + cell_len(self.app.get_key_display(binding)) + 1 + cell_len(binding.description)

    def shown(self) -> tuple[object, ...]:
        """What the footer's keys are made from: the screen's bindings it shows (each with whether it is
        enabled and its tooltip), and its own look."""
        return (tuple((binding, enabled, tooltip) for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
                      if binding.show or binding.key == self.app.COMMAND_PALETTE_BINDING),
                self.compact, self.show_command_palette, self.app.ENABLE_COMMAND_PALETTE)

    async def recompose(self) -> None:
        # the same keys as shown already (a dialog closed over the table gives back the table's own bindings):
        # nothing to make again, so the frame after an action does not wait for some 15 keys to be remade
        if not self.is_attached or self._pruning:  # as Widget.recompose: nothing to do
            return
        self.set_reactive(Footer.show_command_palette, self._palette_fits(self.size.width))
        shown = self.shown()
        if shown == self._shown and self.children:
            return
        self._shown = shown
        removed = list(self.children)  # the keys about to be removed (#6665)
        await super().recompose()
        release_when_removed(self, removed)
        # the keys just removed are closed now; re-announcing the value drops their watchers (#6666)
        self.mutate_reactive(Footer.compact)
