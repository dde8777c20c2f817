"""Reading what a command's fields name: players by name, spaces by position.

The shapes and types of the fields are :func:`banker.rules.ops.decode`'s; here a name is
matched to a player and a position to a space of the right kind. Every problem is a
:class:`Refused` saying what was expected, so a bad script line is reported, never half-applied.

:func:`check_command` holds the limits every *new* command meets before any handler reads it
(every whole number at most :func:`amount_limit`, text without control characters and at most
:data:`banker.rules.names.TEXT_LIMIT` characters, a small object): they keep what a table cannot hold out of the
log, and with it everything that would break the screens, the page or an export.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from msgspec import UnsetType

from .edition import Edition, Space
from .errors import Refused
from .messages import Msg, Named, quoted, shown
from .names import BANK, TEXT_LIMIT, check_text, forbidden_char, name_key
from .ops import FIELD_KEYS

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

#: one amount may be at most this many times a player's starting cash (a hundred times what a table
#: of eight starts with): 800 x 1,500 = 1,200,000 in every edition shipped. A real table never moves that much at once
#: (all the notes in a box are about 15,000-20,000); anything more is a typing slip, and kept out of
#: the log it can never overflow a screen, the page or an export.
AMOUNT_FACTOR = 800
#: how deeply a command's objects and lists may nest (the deepest real one, a trade, uses 3)
DEPTH_LIMIT = 8
#: how many values (keys, items) one command may hold in all (a trade of every deed uses about 40)
SIZE_LIMIT = 200


def amount_limit(edition: Edition) -> int:
    """The largest amount (or any other whole number) a command may carry at this edition's table."""
    return AMOUNT_FACTOR * edition.start_cash


def check_command(state: GameState, cmd: Mapping[str, Any]) -> None:
    """Refuse a new command that breaks an input limit (see the module docstring), naming the
    field (``give.cash``) and the limit. A flat command of the ops' own keys is checked in one pass; any
    other is walked whole, keys and values, without recursion."""
    if type(cmd) is dict and _plain_within_limits(state, cmd):
        return
    _walk(state, cmd)


#: the keys whose numbers are money, at any depth (a trade's ``give.cash``, a count's ``cash.Ann``); every other whole
#: number is a count, a position or an entry's number
MONEY_KEYS = frozenset({"amount", "bid", "cash", "debt_credit"})


def _is_money(path: str) -> bool:
    """Whether the number at ``path`` (``give.cash``, ``seq``) is an amount of money."""
    return any(part.split("[", 1)[0] in MONEY_KEYS for part in path.split("."))


def _walk(state: GameState, cmd: Mapping[str, Any]) -> None:
    """:func:`check_command` the whole way: every key and value, nested ones too."""
    op = cmd.get("op") if isinstance(cmd.get("op"), str) else None
    op_shown = op if op is not None and len(op) <= 30 and not forbidden_char(op) else "command"
    limit = amount_limit(state.edition)
    stack: list[tuple[str, Any, int]] = [("", cmd, 1)]
    count = 0
    while stack:
        path, value, depth = stack.pop()
        count += 1
        if count > SIZE_LIMIT:
            raise Refused("input", Msg("input.too-big", op=op_shown, limit=SIZE_LIMIT))
        kind = type(value)  # plain text and whole numbers go straight to their checks
        if kind is not str and kind is not int and (isinstance(value, bool) or value is None or isinstance(value, float)):
            continue
        if kind is int or (kind is not str and isinstance(value, int)):
            if not -limit <= value <= limit:
                money = _is_money(path)  # an entry's number or a position is no amount: "at most $1,200,000" misled
                raise Refused("input", Msg("input.too-large", op=op_shown, key=path,
                                           limit=state.edition.fmt(limit) if money else state.edition.money.number(limit)))
            continue
        if kind is str or isinstance(value, str):
            if value not in state.cash:  # a player's name as recorded at the start passes, whatever it holds
                check_text(op_shown, path, value)
            continue
        if kind is dict or isinstance(value, Mapping):
            items = list(value.items())
        elif isinstance(value, (list, tuple)):
            items = [(f"[{i}]", v) for i, v in enumerate(value)]
        else:
            continue  # not JSON: the handler reading the field refuses it
        if depth >= DEPTH_LIMIT and items:
            raise Refused("input", Msg("input.too-deep", op=op_shown, key=path or op_shown, limit=DEPTH_LIMIT))
        is_list = kind is not dict and not isinstance(value, Mapping)
        for key, item in reversed(items):
            if is_list:
                sub = f"{path}{key}"
            else:
                if not isinstance(key, str):
                    continue  # not JSON (JSON keys are text): recording the command refuses it
                sub = f"{path}.{key}" if path else key
                if len(key) > 30 or forbidden_char(key):  # an unknown key, stored with the command
                    shown_key = "".join(c if c.isprintable() else repr(c)[1:-1] for c in key[:20])
                    where = (f"{path}." if path else "") + shown_key + ("…" if len(key) > 20 else "")
                    check_text(op_shown, where, key)
                    if len(key) > 30:
                        raise Refused("input", Msg("input.too-long", op=op_shown, key=where, n=len(key), limit=30))
            stack.append((sub, item, depth + 1))


def _plain_within_limits(state: GameState, cmd: dict[Any, Any]) -> bool:
    """True for a flat command (nearly every one) that the walk below would let through: each key one of
    the ops' own, each value null, true/false, a whole number within the limit or text within
    :data:`TEXT_LIMIT` without a forbidden character (:func:`forbidden_char`, as :func:`check_text` reads
    it). False sends it the whole way, which says what is wrong, if anything."""
    limit = amount_limit(state.edition)
    for key, value in cmd.items():
        if key not in FIELD_KEYS:
            return False
        kind = type(value)
        if kind is int:
            if not -limit <= value <= limit:
                return False
        elif kind is str:
            if len(value) > TEXT_LIMIT or (not value.isprintable() and forbidden_char(value)):
                return False
        elif value is not None and kind is not bool:
            return False
    return True  # and it holds at most len(FIELD_KEYS) values, far fewer than SIZE_LIMIT


def player(state: GameState, name: str, op: str, key: str = "player", *, bank: bool = False,
           active: bool = True) -> str:
    """The player named ``name`` (the field ``key`` of ``op``): the exact name, or the same name in
    another case or typed another way; ``"bank"`` too where ``bank`` is true."""
    if bank and name.lower() == BANK:
        return BANK
    found = name if name in state.cash else None
    if found is None:
        matches = [p for p in state.players if p.casefold() == name.casefold()]
        if not matches:  # the same name typed another way (NFC/NFD, full-width letters, two spaces)
            key_ = name_key(name)
            matches = [p for p in state.players if name_key(p) == key_]
        found = matches[0] if matches else None
    if found is None:
        who = list(state.players) + (["bank"] if bank else [])
        raise Refused("input", Msg("input.unknown-player", name=quoted(name), players=who))
    if active and found in state.bankrupt:
        raise Refused("bankrupt", Msg("bankrupt.out", player=found))
    return found


def space(state: GameState, pos: int, op: str, key: str = "space") -> Space:
    """The space at board position ``pos``."""
    if not 0 <= pos < len(state.edition.spaces):
        raise Refused("input", Msg("input.space", op=op, key=key, value=shown(pos)))
    return state.edition.spaces[pos]


def prop(state: GameState, pos: int, op: str, key: str = "space") -> Space:
    """The property (a deed: street, railroad or utility) at ``pos``."""
    s = space(state, pos, op, key)
    if not s.is_property:
        raise Refused("not-a-deed", Msg("not-a-deed", space=s.name, pos=s.position))
    return s


def street(state: GameState, pos: int, op: str, key: str = "space") -> Space:
    """The street (a lot of a colour group) at ``pos``."""
    s = prop(state, pos, op, key)
    if s.kind != "street":
        raise Refused("not-a-street", Msg("not-a-street", space=s.name, kind=kind_word(state.edition, s.kind)))
    return s


def kind_word(edition: Edition, kind: str) -> Named:
    """A kind of space ("railroad") as a sentence names it: in the edition's own word where its board file gives
    one (Kyiv's "станція метро"), else the catalog's (``kind.railroad``)."""
    return Named(f"kind.{kind}", edition.kind_forms(kind))


def positions(state: GameState, values: list[int] | None | UnsetType, what: str) -> list[int]:
    """Deeds listed by position (a trade's spaces, a lift), each once."""
    out: list[int] = []
    for pos in values or ():
        s = prop(state, pos, what)
        if s.position in out:
            raise Refused("input", Msg("input.twice", what=what, space=s.name))
        out.append(s.position)
    return out
