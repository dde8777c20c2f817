"""TEMPORARY SHIM (t10-core, issue #10) -- the lead drops this file at the merge with t10-ledger.

The rules engine of issue #10 is symmetric: ``GameState.push`` applies a command and ``pop`` takes the last
move back; it knows no ``{"op": "undo"}``, and a ``Move`` has no ``seq``/``undoes`` and typed effects. The
session log of this branch (session.py, audit.py, written for the engine of before) still pushes
``{"op": "undo", "reason": ...}`` and reads ``move.seq``, ``move.undoes`` and dict effects. Until t10-ledger's
session log (undo as a log operation) is merged, this module gives it the moves it expects, on the new engine:
one place, so that session.py and audit.py change only at their calls. Nothing else may use it.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from banker.rules import GameState, Move, Refused, encode
from banker.rules.effects import invert, to_json
from banker.rules.messages import Msg, render_parts
from banker.rules.parse import check_command

#: per game, the seq of each move standing on its stack (index = depth), beside the engine's history
_SEQS: weakref.WeakKeyDictionary[GameState, list[int | None]] = weakref.WeakKeyDictionary()


@dataclass
class LegacyMove:
    """A move as the session log of before reads it."""

    command: dict[str, Any]
    effects: list[dict[str, Any]]
    parts: list[dict[str, Any]]
    info: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None
    undoes: int | None = None
    popped: Move | None = None  # for a reversal: the engine's move it took off the stack

    @property
    def text(self) -> str:
        return render_parts(self.parts)


def _seqs(state: GameState) -> list[int | None]:
    seqs = _SEQS.setdefault(state, [])
    del seqs[len(state.history):]
    seqs.extend([None] * (len(state.history) - len(seqs)))
    return seqs


def push(state: GameState, command: Mapping[str, Any], *, replay: bool = False, seq: int | None = None) -> LegacyMove:
    """``state.push(command)`` as the log of before did it, the undo included."""
    if isinstance(command, Mapping) and command.get("op") == "undo":
        if not replay:
            check_command(state, command)
        reason = command.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise Refused("undo-reason", Msg("undo.reason"))
        seqs = _seqs(state)
        undone = state.pop()
        undone_seq = seqs.pop()
        return LegacyMove(command={"op": "undo", "reason": reason.strip()},
                          effects=to_json(invert(e) for e in reversed(undone.effects)),
                          parts=[Msg("log.undone", reason=reason.strip()).to_json(), *undone.parts],
                          info={"undone_command": encode(undone.command)}, undoes=undone_seq, popped=undone)
    move = state.push(command, replay=replay)
    _seqs(state)[-1] = seq
    return LegacyMove(command=dict(command), effects=to_json(move.effects), parts=move.parts, info=move.info, seq=seq)


def take_back(state: GameState, move: LegacyMove) -> None:
    """Undo ``move`` in memory only (its write failed)."""
    if move.popped is not None:  # a reversal: the undone move goes back on the stack as it was
        m = move.popped
        state.push_effects(m.command, m.effects, m.parts, m.info)
        _seqs(state)[-1] = move.undoes
    else:
        state.pop()


def restore(state: GameState, entry: Mapping[str, Any]) -> None:
    """Put a logged entry on the stack from its effects (an undo entry pops the move it undoes)."""
    if entry["command"].get("op") == "undo":
        seqs = _seqs(state)
        last = seqs[-1] if seqs else None
        if last != entry["undoes"]:
            raise ValueError(f"it undoes entry {entry['undoes']}, but the last standing one is {last}")
        state.pop()
        seqs.pop()
        return
    state.push_effects(entry["command"], entry["effects"], entry["parts"], entry.get("info") or {})
    _seqs(state)[-1] = entry["seq"]


def seq_of(state: GameState, depth: int) -> int | None:
    """The seq of the move at ``depth`` on the stack."""
    return _seqs(state)[depth]
