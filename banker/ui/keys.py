"""The console's action keys, in the ops' order (the footer and the palette translate their labels)."""

from __future__ import annotations

from banker.rules.ops import OPS

#: the key of every action: each op (banker.rules.ops) and each of the console's own dialogs (a test keeps
#: this in step with the ops); the label is the catalogs' ``action.<op>``
KEYS: dict[str, str] = {
    "salary": "s", "buy": "b", "auction": "a", "rent": "r", "tax": "t", "card": "c", "jail_fine": "f",
    "jail_card": "j", "transfer": "x", "build": "h", "sell_building": "e", "building_auction": "o", "mortgage": "m",
    "unmortgage": "l", "trade": "d", "debt": "w", "bankrupt": "k", "undo": "u", "end_game": "g", "deal": "n",
    "free_parking": "p", "count": "i",
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
