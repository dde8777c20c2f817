"""Reading a command's fields: players by name, spaces by position, whole amounts.

Every problem is a :class:`Refused` with rule ``"input"`` and a sentence saying what
was expected, so a bad script line is reported, never half-applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .edition import Space
from .errors import Refused
from .messages import Msg
from .state import BANK

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState


def field(cmd: Mapping[str, Any], key: str) -> Any:
    if key not in cmd:
        raise Refused("input", Msg("input.missing", op=cmd.get("op"), key=key))
    return cmd[key]


def player(state: GameState, cmd: Mapping[str, Any], key: str = "player", *,
           bank: bool = False, active: bool = True) -> str:
    """The player named by ``cmd[key]`` (exact name, or the same name in another case)."""
    name = field(cmd, key)
    if bank and isinstance(name, str) and name.lower() == BANK:
        return BANK
    if not isinstance(name, str):
        raise Refused("input", Msg("input.player-type", op=cmd.get("op"), key=key, value=repr(name)))
    found = name if name in state.cash else None
    if found is None:
        matches = [p for p in state.players if p.casefold() == name.casefold()]
        found = matches[0] if matches else None
    if found is None:
        who = list(state.players) + (["bank"] if bank else [])
        raise Refused("input", Msg("input.unknown-player", name=repr(name), players=who))
    if active and found in state.bankrupt:
        raise Refused("bankrupt", Msg("bankrupt.out", player=found))
    return found


def space(state: GameState, cmd: Mapping[str, Any], key: str = "space") -> Space:
    pos = field(cmd, key)
    if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < len(state.edition.spaces):
        raise Refused("input", Msg("input.space", op=cmd.get("op"), key=key, value=repr(pos)))
    return state.edition.spaces[pos]


def prop(state: GameState, cmd: Mapping[str, Any], key: str = "space") -> Space:
    s = space(state, cmd, key)
    if not s.is_property:
        raise Refused("not-a-deed", Msg("not-a-deed", space=s.name, pos=s.position))
    return s


def street(state: GameState, cmd: Mapping[str, Any], key: str = "space") -> Space:
    s = prop(state, cmd, key)
    if s.kind != "street":
        raise Refused("not-a-street", Msg("not-a-street", space=s.name, kind=Msg(f"kind.{s.kind}")))
    return s


def amount(cmd: Mapping[str, Any], key: str, minimum: int = 1) -> int:
    value = field(cmd, key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused("input", Msg("input.whole", op=cmd.get("op"), key=key, value=repr(value)))
    if value < minimum:
        raise Refused("input", Msg("input.at-least", op=cmd.get("op"), key=key, minimum=minimum, value=value))
    return value


def optional_amount(cmd: Mapping[str, Any], key: str, default: int = 0) -> int:
    return amount(cmd, key, 0) if key in cmd else default


def text(cmd: Mapping[str, Any], key: str, default: str = "") -> str:
    value = cmd.get(key, default)
    if not isinstance(value, str):
        raise Refused("input", Msg("input.text", op=cmd.get("op"), key=key, value=repr(value)))
    return value.strip()


def flag(cmd: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = cmd.get(key, default)
    if not isinstance(value, bool):
        raise Refused("input", Msg("input.flag", op=cmd.get("op"), key=key, value=repr(value)))
    return value


def positions(state: GameState, value: Any, what: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Refused("input", Msg("input.positions", what=what, value=repr(value)))
    out: list[int] = []
    for pos in value:
        s = prop(state, {"op": what, "space": pos})
        if s.position in out:
            raise Refused("input", Msg("input.twice", what=what, space=s.name))
        out.append(s.position)
    return out
