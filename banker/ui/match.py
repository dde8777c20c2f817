"""What the banker types, matched against names: one matcher for every picker and the command line.

A name and what was typed are compared *folded*: case ignored, ``ё`` read as ``е``, apostrophes dropped
(``King's``, ``Мар’яна`` and ``Марʼяна`` are ``kings``, ``маряна``), every other punctuation mark read as
a space (``St. Charles Place`` is the words ``st charles place``, ``B. & O. Railroad`` is ``b o railroad``,
``Станція метро «Вокзальна»`` is ``станція метро вокзальна``). What was typed is a few words; a name
matches, best first (:data:`EXACT` ... :data:`INSIDE`):

- :data:`EXACT`: the whole name (``bob`` is Bob, never Bobby);
- :data:`START`: the name's first words begin with the typed words (``ve`` Vermont Avenue, ``st c``
  St. Charles Place, ``d`` Dee);
- :data:`WORD`: words further on begin with them, one after the other (``charles`` St. Charles Place,
  ``ар`` Улица Арбат, ``вокз`` Станція метро «Вокзальна»);
- :data:`WORDS`: each typed word begins a word of the name, in order, with words between (``st pl``);
- :data:`INSIDE`: the typed letters are inside the name (``ve`` in Mediterranean A-ve-nue, ``d`` in Cid).

Emoji and other symbols are not letters (``Борис 🎩`` is ``борис``), but a name of symbols alone (``🦄``) is
matched by them (:func:`tier`).

A match inside a word is never ranked ahead of a whole-word prefix: the pickers list the names in that
order (ties in their own order) and highlight the first; the command line takes only whole-word prefixes
(:func:`prefix_matches`), and an exact name wins. Pure functions, no Textual: the picker dialogs, the
command line (:mod:`banker.ui.quick`) and its completions share them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

EXACT, START, WORD, WORDS, INSIDE = range(5)
#: the best tier the command line takes a name by (whole-word prefixes; INSIDE only in the pickers)
PREFIX = WORDS
#: apostrophes (ASCII, typographic, the Ukrainian modifier letter, backtick, acute): dropped, not spaces
APOSTROPHES = frozenset("'’ʼ‘`´")


def fold(text: str) -> str:
    """``text`` as names are compared: NFKC, case-folded, ``ё`` as ``е``, apostrophes dropped, every other
    character that is neither a letter nor a digit read as a space, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    out = []
    for ch in text:
        if ch in APOSTROPHES:
            continue
        out.append(ch if ch.isalnum() else " ")
    return " ".join("".join(out).split())


def symbols(text: str) -> str:
    """``text``'s symbols (Unicode's "S" categories: emoji, ★, €), in order: what a name with no letter or digit
    (a player called ``🦄``) is matched by."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch)[0] == "S")


def tier(name: str, typed: str) -> int | None:
    """How well ``typed`` matches ``name`` (:data:`EXACT` best ... :data:`INSIDE`), None if not at all.

    Typed symbols alone (no letter or digit: ``🦄``) match by the name's symbols: the whole of a name that has
    nothing else (EXACT), or some of a name's (WORD: ``🎩`` in ``Борис 🎩``). Typed punctuation alone matches
    nothing."""
    query = fold(typed)
    if not query:
        marks = symbols(typed)
        have = symbols(name)
        if not marks or marks not in have:
            return None
        return EXACT if marks == have and not fold(name) else WORD
    folded = fold(name)
    if folded == query:
        return EXACT
    words, typed_words = folded.split(), query.split()
    k = len(typed_words)
    for start in range(len(words) - k + 1):
        if all(words[start + i].startswith(w) for i, w in enumerate(typed_words)):
            return START if start == 0 else WORD
    at = 0
    for w in typed_words:  # in order, with words between
        while at < len(words) and not words[at].startswith(w):
            at += 1
        if at == len(words):
            break
        at += 1
    else:
        return WORDS
    if query in folded or query.replace(" ", "") in folded.replace(" ", ""):
        return INSIDE
    return None


def ranked(typed: str, items: Iterable[T], name: Callable[[T], str], worst: int = INSIDE) -> list[tuple[int, T]]:
    """The items whose name ``typed`` matches (no worse than ``worst``), best first, ties in their order."""
    found = []
    for item in items:
        t = tier(name(item), typed)
        if t is not None and t <= worst:
            found.append((t, item))
    found.sort(key=lambda pair: pair[0])  # stable: ties keep the items' own order
    return found


def prefix_matches(typed: str, items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """What the command line takes ``typed`` for: the items an exact name names, else every item whose
    words ``typed`` begins (best first). One item: it is meant; more: ambiguous, say which."""
    found = ranked(typed, items, name, worst=PREFIX)
    exact = [item for t, item in found if t == EXACT]
    return exact or [item for _t, item in found]

