"""Key bindings in the interface's language: the footer shows each screen's own keys."""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode

#: every action the banker can take: (op, key, palette/help label key)
ACTIONS: list[tuple[str, str]] = [
    ("salary", "s"), ("buy", "b"), ("auction", "a"), ("rent", "r"), ("tax", "t"), ("card", "c"),
    ("jail_fine", "f"), ("jail_card", "j"), ("transfer", "x"), ("build", "h"), ("sell_building", "e"),
    ("building_auction", "o"), ("mortgage", "m"), ("unmortgage", "l"), ("trade", "d"), ("debt", "w"),
    ("bankrupt", "k"), ("undo", "u"), ("end_game", "g"), ("deal", "n"), ("free_parking", "p"),
]


def localize_bindings(node: DOMNode) -> None:
    """Translate the descriptions of ``node``'s bindings (``key.<description>`` in the catalogs).

    Bindings are declared in English in ``BINDINGS``; each screen calls this once, so the
    footer and the command palette speak the banker's language.
    """
    tr = node.app.tr
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [replace(b, description=tr.get(f"key.{b.description.lower()}", b.description)) if b.description
                      else b for b in bindings]
