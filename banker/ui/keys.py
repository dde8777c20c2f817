"""The console's action keys, in the ops' order (the footer and the palette translate their labels)."""

from __future__ import annotations

import unicodedata

from textual.keys import key_to_character

from banker.rules.ops import OPS

#: the key of every action: each op (banker.rules.ops) and each of the console's own dialogs (a test keeps
#: this in step with the ops); the label is the catalogs' ``action.<op>``
KEYS: dict[str, str] = {
    "salary": "s", "buy": "b", "auction": "a", "rent": "r", "tax": "t", "card": "c", "jail_fine": "f",
    "jail_card": "j", "transfer": "x", "build": "h", "sell_building": "e", "building_auction": "o", "mortgage": "m",
    "unmortgage": "l", "trade": "d", "debt": "w", "bankrupt": "k", "undo": "u", "end_game": "g", "deal": "n",
    "free_parking": "p", "count": "i",
    # follow the board (issue #11): the roll is typed straight on the idle table (its first die starts it); the
    # rest are shifted letters, as every lowercase letter is an action already
    "roll": "1,2,3,4,5,6", "end_turn": "N", "place": "P", "follow": "F",
}
#: how a key is shown where it is not a single key (the help, the palette, the footer)
KEY_DISPLAY = {"roll": "1-6"}
#: the console's own dialogs that are not ops, each listed after an op
DIALOGS_AFTER = {"debt": "trade"}


def _actions() -> list[tuple[str, str]]:
    order = list(OPS)
    for dialog, after in DIALOGS_AFTER.items():
        order.insert(order.index(after) + 1, dialog)
    return [(op, KEYS[op]) for op in order if op in KEYS]


#: every action the banker can take, in the ops' order: (op, key)
ACTIONS: list[tuple[str, str]] = _actions()


def shown_key(op: str, key: str) -> str:
    """The key of ``op`` as the help, the palette and the footer show it (the roll: ``1-6``)."""
    return KEY_DISPLAY.get(op, key)


# ---------------------------------------------------------------- the Cyrillic layouts
#: the keys of a US keyboard, row by row, unshifted and shifted; below, what the ЙЦУКЕН layouts type on the
#: same keys (the Russian and the Ukrainian layouts differ on four: ы/і, ъ/ї, э/є, ё/', and \ types ґ in
#: Ukrainian). A Russian or Ukrainian banker presses the key where ``s`` is and Textual reports ``ы`` or
#: ``і``: each action is bound to those characters too (:func:`with_layouts`).
LATIN = ("`qwertyuiop[]\\asdfghjkl;'zxcvbnm,./", '~QWERTYUIOP{}|ASDFGHJKL:"ZXCVBNM<>?')
LAYOUTS: dict[str, tuple[str, str]] = {
    "ru": ("ёйцукенгшщзхъ\\фывапролджэячсмитьбю.", "ЁЙЦУКЕНГШЩЗХЪ/ФЫВАПРОЛДЖЭЯЧСМИТЬБЮ,"),
    "uk": ("'йцукенгшщзхїґфівапролджєячсмитьбю.", "ʼЙЦУКЕНГШЩЗХЇҐФІВАПРОЛДЖЄЯЧСМИТЬБЮ,"),
}


def _layout_map() -> dict[str, tuple[str, ...]]:
    """Each character of a US keyboard -> what the other layouts type on its key (derived once)."""
    out: dict[str, list[str]] = {}
    for rows in LAYOUTS.values():
        for latin, local in zip(LATIN, rows, strict=True):
            assert len(latin) == len(local)
            for a, b in zip(latin, local, strict=True):
                if b != a and b not in out.setdefault(a, []):
                    out[a].append(b)
    return {a: tuple(bs) for a, bs in out.items()}


#: a character of a US keyboard -> the characters the Russian and Ukrainian layouts type on that key
SAME_KEY: dict[str, tuple[str, ...]] = _layout_map()


def _key_name(character: str) -> str:
    """The name Textual gives the key that types ``character`` (``ы``, ``full_stop``, ``comma``)."""
    if character.isalnum():
        return character
    name = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    return {"solidus": "slash", "reverse_solidus": "backslash"}.get(name, name)


def with_layouts(keys: str) -> str:
    """A binding's comma-separated ``keys`` with, after each key that types a character, the keys typing
    that character's place in the ЙЦУКЕН layouts (``"s"`` -> ``"s,ы,і"``; ``"question_mark"`` -> also
    ``"comma"``). The footer shows a binding once, by its first key."""
    out: list[str] = []
    for key in (k.strip() for k in keys.split(",")):
        out.append(key)
        character = {"slash": "/", "backslash": "\\"}.get(key) or key_to_character(key)
        for other in SAME_KEY.get(character or "", ()):
            name = _key_name(other)
            if name not in out:
                out.append(name)
    return ",".join(out)
