"""Accounts, names and texts: the words every command and setup is checked against.

The bank and the Free Parking pot are accounts beside the players; a player may not take
their names in any interface language. No name or text of a command may hold a control or
invisible character, and each is bounded in length. This module is at the bottom of the
engine (it imports nothing of it but the messages), so every other module may use it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from .emoji import joins_emoji
from .errors import Refused
from .messages import Msg, quoted, shown

BANK = "bank"
POT = "pot"  # the Free Parking pot (house rule)
RESERVED = {BANK, POT}
#: the longest player name a new game accepts, in characters: room for a first name and a
#: patronymic or surname ("Александра Владимировна" is 23), short enough for the console's and
#: the page's columns beside the cash
NAME_LIMIT = 32
#: what the bank and the pot are called in the log and on screen, in every interface language
#: (the engine catalogs' "the-bank"/"the-pot", the console's bank.name/bank.pot; a test keeps this
#: list in step with the catalogs): a new player may not take one of these names, compared as
#: :func:`name_key` compares names.
RESERVED_NAMES = frozenset({
    "bank", "the bank", "pot", "the pot", "free parking pot", "the free parking pot",
    "банк", "касса", "касса стоянки", "касса «бесплатная стоянка»", "каса", "каса «безкоштовне паркування»",
})
#: Unicode categories no name or text of a command may hold: controls (ESC, CR, LF, NUL, DEL, C1),
#: format characters (zero-width spaces and joiners, bidi overrides), lone surrogates (bytes that
#: were not UTF-8), and line / paragraph separators; but a zero-width joiner inside an emoji ZWJ
#: sequence ("👩‍🚀", "👨‍👩‍👧": one glyph on screen) is part of what the name shows (:func:`forbidden_at`)
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: the longest text a command or a setup may carry (a memo, an undo reason, a session's name...), in characters
TEXT_LIMIT = 200


def forbidden_at(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a character no name or memo may hold there: one of :data:`FORBIDDEN_CATEGORIES`, but
    not a zero-width joiner between two emoji (:func:`banker.rules.emoji.joins_emoji`). A joiner alone, between
    letters or beside a space, a zero-width space or non-joiner, and every bidi control stay forbidden."""
    return unicodedata.category(text[i]) in FORBIDDEN_CATEGORIES and not joins_emoji(text, i)


def forbidden_char(text: str) -> str | None:
    """The first character of ``text`` that no name or memo may hold (:func:`forbidden_at`), as ``U+XXXX``; else
    None."""
    if text.isprintable():  # every forbidden category is one ``str.isprintable`` refuses (Other, Separator)
        return None
    for i, ch in enumerate(text):
        if forbidden_at(text, i):
            return f"U+{ord(ch):04X}"
    return None


def escape_forbidden(text: str, keep: str = "") -> str:
    """``text`` with every character no name or memo may hold (:func:`forbidden_at`) written as ``\\uXXXX``, but those
    of ``keep``: what a file holds never drives the terminal, and an emoji ZWJ sequence stays one glyph."""
    if text.isprintable():
        return text
    return "".join(f"\\u{ord(ch):04x}" if ch not in keep and forbidden_at(text, i) else ch for i, ch in enumerate(text))


def text_fault(text: str) -> tuple[str, dict[str, Any]] | None:
    """What keeps ``text`` out of a command or a setup, the length first: ``("too_long", {"n", "limit"})`` past
    :data:`TEXT_LIMIT`, ``("control", {"char"})`` for a control or invisible character (see
    :data:`FORBIDDEN_CATEGORIES`); None when it may be recorded. Each caller says it in its own words (the
    engine names the script's key, the command line its option, a dialog its box)."""
    if len(text) > TEXT_LIMIT:
        return "too_long", {"n": len(text), "limit": TEXT_LIMIT}
    bad = forbidden_char(text)
    return ("control", {"char": bad}) if bad else None


def check_text(op: str, key: str, text: str) -> None:
    """Refuse ``text`` (the field ``key`` of ``op``) if it is longer than :data:`TEXT_LIMIT` or holds a
    control or invisible character (:func:`text_fault`)."""
    fault = text_fault(text)
    if fault is not None:
        kind, params = fault
        raise Refused("input", Msg("input.too-long" if kind == "too_long" else "input.control", op=op, key=key, **params))


#: the variation selectors (U+FE00-U+FE0F): they choose how a character is drawn (U+FE0F: as an emoji), never which
#: character it is, and after a letter they show nothing
_SELECTORS = dict.fromkeys(range(0xFE00, 0xFE10))


def name_key(name: str) -> str:
    """What two names are compared by: NFKC-normalised, case-folded, spaces collapsed, without variation selectors
    ("Zoë" typed two ways, "ＡＮＮ" and "ann", "Ann  Lee" and "Ann Lee", "Ann" and "Ann" with an invisible U+FE0F,
    "👍 Bo" and "👍️ Bo" are the same name)."""
    return " ".join(unicodedata.normalize("NFKC", name).translate(_SELECTORS).casefold().split())


def typed_players(text: str) -> tuple[str, ...] | None:
    """The players of a comma-separated list as typed (``Ann, Bob,``: a comma at the end leaves nobody out); None when a
    name is left out between two commas (``Ann,,Bob`` was a game of one player fewer, without a word). The names are
    checked by :func:`new_players`."""
    names = [p.strip() for p in text.split(",")]
    if names and not names[-1]:
        names.pop()
    return tuple(names) if all(names) else None


def check_name_shape(name: Any) -> str:
    """``name`` if it is a player's name in shape (text, not empty, no spaces around it); else :class:`Refused`. What
    a game's setup checks of every name, a recorded one too (:class:`GameState`) as a new one (:func:`new_players`)."""
    if not isinstance(name, str):  # a script's player list (JSON): said as the script wrote it
        raise Refused("players", Msg("setup.name-text", value=shown(name)))
    if not name.strip() or name != name.strip():
        raise Refused("players", Msg("setup.name", name=quoted(name)))
    return name


def new_players(names: Iterable[Any]) -> tuple[str, ...]:
    """The players of a new game by today's rules, NFC-normalised; :class:`Refused` says which
    name is refused and why. Sessions already recorded keep their names (see ``Setup.for_new_game``)."""
    players = list(names)  # how many: the edition's box decides (GameState checks it)
    out: list[str] = []
    seen: dict[str, str] = {}
    for name in map(check_name_shape, players):
        bad = forbidden_char(name)
        if bad:
            raise Refused("players", Msg("setup.name-char", name=quoted(name), char=bad))
        name = unicodedata.normalize("NFC", name)
        if len(name) > NAME_LIMIT:
            raise Refused("players", Msg("setup.name-long", name=quoted(name), n=len(name), limit=NAME_LIMIT))
        key = name_key(name)
        if key in RESERVED_NAMES or key.removeprefix("the ") in RESERVED_NAMES:
            raise Refused("players", Msg("setup.reserved", name=quoted(name)))
        if key in seen:
            if name.lower() == seen[key].lower():  # the same letters (once composed)
                raise Refused("players", Msg("setup.same", name=quoted(name)))
            raise Refused("players", Msg("setup.same-as", name=quoted(name), other=quoted(seen[key])))
        seen[key] = name
        out.append(name)
    return tuple(out)
