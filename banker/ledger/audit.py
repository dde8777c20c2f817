"""The audit of a session log: is every entry what the rules give, and is nothing lost?

``audit(path)`` reads the log without replaying it (so a damaged log can still be audited),
then walks it twice at once:

* the **engine** recomputes every command from the start and compares its effects with the
  logged ones (every balance, deed, building and debt the entry changed);
* the **log** is applied as written, and after each entry the conservation laws are checked:
  the money in play (players' cash, the pot, the bank's account) adds up to nothing created or
  lost; the houses and hotels on the board plus the bank's stock are the edition's 32 and 12;
  no cash, stock or building count goes below zero or above what a lot can hold.

Every finding names the entry. Damage found on reading (an entry or the setup that is not
what its checksum was made over, a damaged last journal line) is listed after them. Once
the engine refuses an entry, later entries are no longer recomputed (the engine's game has
left the log's), but the conservation checks go on.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from banker.boards import game_from_setup
from banker.rules import BoardError, GameState, Refused
from banker.rules.state import apply_effects

from . import _engine_shim
from .session import SessionError, damage_lines, read_session

#: an audit stops listing after this many findings (the first ones are what to fix)
MAX_PROBLEMS = 50


@dataclass
class Problem:
    seq: int | None  # None: about the session as a whole
    what: str

    def __str__(self) -> str:
        return f"entry {self.seq}: {self.what}" if self.seq is not None else self.what


@dataclass
class AuditReport:
    path: str
    entries: int
    problems: list[Problem] = field(default_factory=list)
    recomputed: int = 0  # entries the engine recomputed and found identical

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        if self.ok:
            return [f"{self.path}: {self.entries} entries, all consistent: every entry is what the rules give, "
                    "money and buildings are conserved"]
        more = " (the first ones)" if len(self.problems) >= MAX_PROBLEMS else ""
        return [f"{self.path}: {len(self.problems)} problems{more} in {self.entries} entries:",
                *(f"  {p}" for p in self.problems)]


def _describe(effect: dict[str, Any] | None) -> str:
    if effect is None:
        return "nothing"
    return "{" + ", ".join(f"{k}: {v}" for k, v in effect.items()) + "}"


def _first_difference(logged: list[dict[str, Any]], computed: list[dict[str, Any]]) -> str:
    for i in range(max(len(logged), len(computed))):
        a = logged[i] if i < len(logged) else None
        b = computed[i] if i < len(computed) else None
        if a != b:
            return f"effect {i + 1}: the log has {_describe(a)}, the rules give {_describe(b)}"
    return "the effects differ"  # pragma: no cover


def _conservation(state: GameState) -> list[str]:
    found = []
    ed = state.edition
    if state.money_total() != 0:
        found.append(f"money is not conserved: {state.money_total():+d} appeared in play")
    for p, cash in state.cash.items():
        if cash < 0:
            found.append(f"{p}'s cash is {cash}")
    if state.bank_houses < 0 or state.bank_hotels < 0:
        found.append(f"the bank's stock went below zero ({state.bank_houses} houses, {state.bank_hotels} hotels)")
    if state.bank_houses + state.houses_out() != ed.houses:
        found.append(f"houses are not conserved: {state.houses_out()} on the board + {state.bank_houses} in the bank "
                     f"≠ {ed.houses}")
    if state.bank_hotels + state.hotels_out() != ed.hotels:
        found.append(f"hotels are not conserved: {state.hotels_out()} on the board + {state.bank_hotels} in the bank "
                     f"≠ {ed.hotels}")
    most = state.houses_before_hotel
    for pos, lot in state.lots.items():
        name = ed.spaces[pos].name
        if lot.houses < 0 or lot.houses > most or (lot.hotel and lot.houses):
            found.append(f"{name} holds {lot.houses} houses{' and a hotel' if lot.hotel else ''}")
        if (lot.houses or lot.hotel) and lot.owner is None:
            found.append(f"{name} has buildings but no owner")
        if lot.owner is not None and lot.owner not in state.cash:
            found.append(f"{name} is owned by {lot.owner}, who is not a player")
    return found


def audit(path: str | os.PathLike[str]) -> AuditReport:
    """Audit the session at ``path`` (read-only; raises :class:`SessionError` if it cannot be read)."""
    read = read_session(path)
    setup, entries = read.setup, read.entries
    report = AuditReport(path=str(path), entries=len(entries))
    try:
        engine: GameState | None = game_from_setup(setup)
        logged = game_from_setup(setup)
    except (BoardError, Refused) as e:
        raise SessionError(f"{path}: cannot set up its game: {e}") from None
    problems = report.problems
    standing: set[str] = set()
    for entry in entries:
        if len(problems) >= MAX_PROBLEMS:
            break
        seq = entry["seq"]
        if engine is not None:
            try:
                move = _engine_shim.push(engine, entry["command"], replay=True, seq=seq)
            except Refused as e:
                problems.append(Problem(seq, f"the rules refuse it ({e}); later entries are not recomputed"))
                engine = None
            except Exception as e:  # a hand-edited command the engine chokes on
                problems.append(Problem(seq, f"the command cannot be run ({type(e).__name__}: {e}); "
                                             "later entries are not recomputed"))
                engine = None
            else:
                if move.undoes != entry.get("undoes"):
                    problems.append(Problem(seq, f"it says it undoes entry {entry.get('undoes')}, "
                                                 f"the rules undo entry {move.undoes}"))
                elif move.effects != entry["effects"]:
                    problems.append(Problem(seq, _first_difference(entry["effects"], move.effects)))
                else:
                    report.recomputed += 1
        try:
            apply_effects(logged, entry["effects"])
        except Exception as e:
            problems.append(Problem(seq, f"its effects cannot be applied ({type(e).__name__}: {e}); "
                                         "the audit stops here"))
            break
        found = _conservation(logged)
        problems.extend(Problem(seq, what) for what in found if what not in standing)  # each once, where it starts
        standing = set(found)
    # damage found on reading (checksums, a damaged journal line): listed after the rules' findings
    for line in damage_lines(read.path, read.damage, setup, entries):
        problems.append(Problem(None, f"{line} (`banker repair {read.path}` resolves it)"))
    del problems[MAX_PROBLEMS:]
    return report
