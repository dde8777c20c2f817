"""Key bindings in the interface's language: the footer shows each screen's own keys."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from textual.dom import DOMNode

from banker.rules.ops import OPS

if TYPE_CHECKING:  # pragma: no cover
    from .app import BankerApp

#: the key of every action: each op (banker.rules.ops) and each of the console's own dialogs (a test keeps
#: this in step with the ops); the label is the catalogs' ``action.<op>``
KEYS: dict[str, str] = {
    "salary": "s", "buy": "b", "auction": "a", "rent": "r", "tax": "t", "card": "c", "jail_fine": "f",
    "jail_card": "j", "transfer": "x", "build": "h", "sell_building": "e", "building_auction": "o", "mortgage": "m",
    "unmortgage": "l", "trade": "d", "debt": "w", "bankrupt": "k", "undo": "u", "end_game": "g", "deal": "n",
    "free_parking": "p",
}
#: the console's own dialogs that are not ops, each listed after an op
DIALOGS_AFTER = {"debt": "trade"}


def _actions() -> list[tuple[str, str]]:
    order = list(OPS)
    for dialog, after in DIALOGS_AFTER.items():
        order.insert(order.index(after) + 1, dialog)
    return [(op, KEYS[op]) for op in order if op in KEYS]


#: every action the banker can take, in the ops' order: (op, key)
ACTIONS: list[tuple[str, str]] = _actions()


def localize_bindings(node: DOMNode) -> None:
    """Translate the descriptions of ``node``'s bindings (``key.<description>`` in the catalogs).

    Bindings are declared in English in ``BINDINGS``; each screen calls this once, so the
    footer and the command palette speak the banker's language.
    """
    tr = cast("BankerApp", node.app).tr
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [replace(b, description=tr.get(f"key.{b.description.lower()}", b.description)) if b.description
                      else b for b in bindings]
