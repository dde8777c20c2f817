"""What every screen of the console shares: the App typed as the banker's, and its keys in the
interface's language.

Key bindings are declared once, in ``BINDINGS``, with their descriptions in English (``"Close"``:
shown as the catalog's ``key.close``) or as a catalog key (``"action.salary"``, ``"help.title"``).
The footer and the keys panel read a screen's bindings through its public ``active_bindings``;
the screens here give them translated there, so nothing of Textual's is patched or copied.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import ActiveBinding, Binding
from textual.screen import Screen, ScreenResultType

if TYPE_CHECKING:  # pragma: no cover
    from textual import getters

    from banker.i18n import Translator

    from ..app import BankerApp

#: bindings already translated, by language and whose they are (a binding is a frozen dataclass: the same one each time)
_translated: dict[tuple[str, bool, Binding], Binding] = {}


def translated(binding: Binding, tr: Translator, textual: bool = False) -> Binding:
    """``binding`` with its description in ``tr``'s language (the same binding if there is nothing to say).
    ``textual``: a binding of one of Textual's own widgets, its English words said as the catalogs' ``[textual]``
    table says them (``"Dismiss menu"`` is ``textual.dismiss_menu``), or left as they are where it has none."""
    key = (tr.lang, textual, binding)
    found = _translated.get(key)
    if found is None:
        text = binding.description
        if text and textual:
            text = tr.get("textual." + "_".join(text.lower().split()), text)
        elif text:
            text = tr.get(text, text) if "." in text else tr.get(f"key.{text.lower()}", text)
        found = binding if text == binding.description else replace(binding, description=text)
        group = binding.group
        if group is not None and group.description and not textual:  # a group's words (the review's tabs) likewise
            found = replace(found, group=replace(group, description=tr.get(group.description, group.description)))
        _translated[key] = found
    return found


def localized(bindings: dict[str, ActiveBinding], tr: Translator) -> dict[str, ActiveBinding]:
    """The active bindings with their descriptions in the interface's language: the banker's own (the app's, its
    screens' and widgets'), and those of Textual's widgets the footer shows (the open list of a ``Select``: "Dismiss
    menu", found in a Russian review) from the catalogs' ``[textual]`` table."""
    return {key: ActiveBinding(active.node, translated(active.binding, tr, textual=not type(active.node).__module__
                                                       .startswith("banker.")), active.enabled, active.tooltip)
            for key, active in bindings.items()}


class BankerScreen(Screen[ScreenResultType]):
    """A full screen of the console."""

    if TYPE_CHECKING:
        app = getters.app(BankerApp)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return localized(super().active_bindings, self.app.tr)
