"""A game state as a plain structure (JSON objects, lists, strings, numbers) and back: what a
session's checkpoint stores, so that a long game opens without replaying every move.

Generic over :class:`~banker.rules.state.GameState`'s attributes: every attribute of a state is
stored, converted by the type ``GameState`` declares for it, except those the game is made of
(:data:`FROM_SETUP`: the setup, the edition, the variant, the house rules, the players, which a
fresh ``GameState`` of the same setup already has) and the stack of moves (``history``: the log
holds the moves; it stores the seqs that stand). An attribute added to ``GameState`` is stored
with nothing more to write once its type is declared on the class; one without a declared type is
stored only if it is plain JSON as it is (it reads back equal), else :func:`to_plain` refuses it,
naming it (the tests restore every edition's states this way and compare every attribute).

No I/O: the session log (banker.ledger) writes and checks the structure.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from .state import GameState, History, Move

#: the attributes made from the setup (a fresh GameState of the same setup has them): not stored
FROM_SETUP = frozenset({"setup", "edition", "variant", "house_rules", "players", "_groups"})
#: the stack of moves: the log holds the moves, and a snapshot the seqs that stand
STACK = "history"

_encoder = msgspec.json.Encoder(order="deterministic")


@functools.cache
def _declared() -> dict[str, Any]:
    return typing.get_type_hints(GameState)


def stored_attributes(state: GameState) -> list[str]:
    """The attributes of ``state`` a snapshot stores, in their order."""
    return [name for name in vars(state) if name not in FROM_SETUP and name != STACK]


def _plain(value: Any) -> Any:
    return msgspec.to_builtins(value, order="deterministic", str_keys=True)


def to_plain(state: GameState) -> dict[str, Any]:
    """Every stored attribute of ``state`` (see the module's docstring) as plain JSON data, in a
    deterministic order (sets and mappings sorted): equal states give equal structures.

    Raises TypeError for an attribute ``GameState`` does not declare whose value would not read
    back as it is (a set, a tuple, a mapping with numbers for keys...): declare its type."""
    declared = _declared()
    out: dict[str, Any] = {}
    for name in stored_attributes(state):
        value = getattr(state, name)
        plain = _plain(value)
        if name not in declared and (msgspec.json.decode(_encoder.encode(plain)) != value or type(plain) is not type(value)):
            raise TypeError(f"GameState.{name} ({type(value).__name__}) cannot be stored in a snapshot as it is: "
                            "declare its type on the GameState class")
        out[name] = plain
    return out


def restore(state: GameState, plain: Mapping[str, Any], moves: int, load: Callable[[int], Move]) -> None:
    """Make ``state`` (a fresh game of the same setup) the state ``plain`` describes, with a stack of
    ``moves`` moves made when read, by ``load(i)`` (the i-th from the bottom).

    Raises ValueError when ``plain`` lacks an attribute the state has, or holds one it has not, or
    a value of the wrong type: a snapshot that does not fit this engine's state is never half used."""
    declared = _declared()
    names = stored_attributes(state)
    missing = [n for n in names if n not in plain]
    unknown = [n for n in plain if n not in names]
    if missing or unknown:
        raise ValueError(f"the snapshot does not fit the state (missing {missing}, unknown {unknown})")
    values: dict[str, Any] = {}
    for name in names:
        try:
            if name in declared:
                values[name] = msgspec.convert(plain[name], declared[name], strict=False)
            else:
                values[name] = msgspec.json.decode(_encoder.encode(plain[name]))
        except (msgspec.ValidationError, TypeError) as e:
            raise ValueError(f"the snapshot's {name} is not a {declared.get(name, 'plain value')}: {e}") from None
    for name, value in values.items():
        fresh = getattr(state, name, None)
        if isinstance(value, dict) and isinstance(fresh, dict) and fresh:
            # the snapshot's mappings are sorted (as text: 11 before 3); a fresh state's keys come in their own order
            # (the board's positions, the seating order), as a state replayed from the start keeps them: the order
            # the engine walks a mapping in never depends on how the state was read (a bankruptcy's effects did)
            value = {**{k: value[k] for k in fresh if k in value}, **{k: v for k, v in value.items() if k not in fresh}}
        setattr(state, name, value)
    state.history = History(lazy=moves, load=load)


__all__ = ["FROM_SETUP", "STACK", "restore", "stored_attributes", "to_plain"]
