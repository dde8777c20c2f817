"""The audit of a session log: is every entry what the rules give, and is nothing lost?

``audit(path)`` reads the log without opening it (so a damaged log can still be audited), then
walks it once (banker.ledger.check.Replay):

* the **engine** recomputes every command from the state the log records before it and
  compares its effects with the recorded ones (every balance, deed, building and debt the entry
  changed); the walk then follows the log, so each entry is judged on its own;
* the checkpoint's snapshot (the state the session opens from) is compared with the state the
  entries it covers give, attribute by attribute; one that failed its own checks on reading is
  listed too;
* after each entry, on the state the log records, the conservation laws are checked: the money
  in play (players' cash, the pot, the bank's account) adds up to nothing created or lost; the
  houses and hotels on the board plus the bank's stock are the edition's 32 and 12; no cash,
  stock or building count goes below zero or above what a lot can hold.

Every finding names the entry. Damage found on reading (an entry or the setup that is not what
its checksum was made over, a damaged last journal line) is listed after them. The findings are
data (:class:`Problem`); banker.report words them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from banker.rules import GameState

from .check import Finding, Replay, Unfollowable, damage_lines, game, snapshot_finding
from .reader import read_session

#: an audit stops listing after this many findings (the first ones are what to fix)
MAX_PROBLEMS = 50

#: what a :class:`Problem` is about: a rules finding (see :class:`banker.ledger.check.Finding`),
#: a conservation law broken on the recorded state, or damage found on reading
ProblemKind = Literal["refused", "error", "effects", "undoes", "broken", "snapshot", "money", "cash", "stock", "houses", "hotels",
                      "lot", "no-owner", "not-player", "damage"]


@dataclass(frozen=True)
class Problem:
    """One finding of the audit, as data.

    ``seq`` is the entry (None: about the session as a whole). ``finding`` carries a rules
    finding (kinds refused, error, effects, undoes, broken), or the snapshot's (kind snapshot:
    ``seq`` is the last entry it covers). ``params`` the figures of the other
    kinds: money (``delta``), cash (``player``, ``cash``), stock (``houses``, ``hotels``), houses
    and hotels (``out``, ``bank``, ``total``), lot (``space``: its name, ``houses``, ``hotel``),
    no-owner (``space``), not-player (``space``, ``owner``), damage (``text``: what is damaged, a
    :class:`~banker.ledger.format.Said` whose ``str()`` is English, ``path``: the session file).
    """

    seq: int | None
    kind: ProblemKind
    finding: Finding | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class AuditReport:
    path: str
    entries: int
    problems: list[Problem] = field(default_factory=list)
    recomputed: int = 0  # entries the engine recomputed and found identical

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def truncated(self) -> bool:
        """Whether the audit stopped listing (at :data:`MAX_PROBLEMS`)."""
        return len(self.problems) >= MAX_PROBLEMS


def conservation(state: GameState) -> list[tuple[ProblemKind, dict[str, Any]]]:
    """The conservation laws ``state`` breaks, as (kind, figures) (see :class:`Problem`)."""
    found: list[tuple[ProblemKind, dict[str, Any]]] = []
    ed = state.edition
    if state.money_total() != 0:
        found.append(("money", {"delta": state.money_total()}))
    for p, cash in state.cash.items():
        if cash < 0:
            found.append(("cash", {"player": p, "cash": cash}))
    if state.bank_houses < 0 or state.bank_hotels < 0:
        found.append(("stock", {"houses": state.bank_houses, "hotels": state.bank_hotels}))
    if state.bank_houses + state.houses_out() != ed.houses:
        found.append(("houses", {"out": state.houses_out(), "bank": state.bank_houses, "total": ed.houses}))
    if state.bank_hotels + state.hotels_out() != ed.hotels:
        found.append(("hotels", {"out": state.hotels_out(), "bank": state.bank_hotels, "total": ed.hotels}))
    most = state.houses_before_hotel
    for pos, lot in state.lots.items():
        name = ed.spaces[pos].name
        if lot.houses < 0 or lot.houses > most or (lot.hotel and lot.houses):
            found.append(("lot", {"space": name, "houses": lot.houses, "hotel": lot.hotel}))
        if (lot.houses or lot.hotel) and lot.owner is None:
            found.append(("no-owner", {"space": name}))
        if lot.owner is not None and lot.owner not in state.cash:
            found.append(("not-player", {"space": name, "owner": lot.owner}))
    return found


def audit(path: str | os.PathLike[str]) -> AuditReport:
    """Audit the session at ``path`` (read-only; raises :class:`SessionError` if it cannot be read)."""
    read = read_session(path)
    setup, entries = read.setup, read.entries
    report = AuditReport(path=str(path), entries=len(entries))
    replay = Replay(game(Path(path), setup))
    problems = report.problems
    if read.snapshot_problem is not None:  # a snapshot that failed its checks: not used, and said
        problems.append(Problem(read.file_seq, "snapshot", Finding(read.file_seq, "snapshot", error=read.snapshot_problem)))
    snap = read.snapshot
    standing: set[tuple[str, tuple[tuple[str, Any], ...]]] = set()
    for entry in entries:
        if len(problems) >= MAX_PROBLEMS:
            break
        try:
            finding, _parts = replay.step(entry)
        except Unfollowable as e:
            problems.append(Problem(entry.seq, "broken", Finding(entry.seq, "broken", error=e.said)))
            break
        if finding is not None:
            problems.append(Problem(entry.seq, finding.kind, finding))
        if snap is not None and entry.seq == snap.seq:  # the snapshot is what the entries give, or it is said
            wrong = snapshot_finding(replay.state, replay.standing, (snap.seq, snap.state, snap.standing))
            if wrong is not None:
                problems.append(Problem(entry.seq, "snapshot", wrong))
        found = conservation(replay.state)
        keys = [(kind, tuple(params.items())) for kind, params in found]
        # each once, where it starts
        problems.extend(Problem(entry.seq, kind, params=params) for (kind, params), key in zip(found, keys, strict=True)
                        if key not in standing)
        standing = set(keys)
    report.recomputed = replay.recomputed
    # damage found on reading (checksums, a damaged journal line): listed after the rules' findings
    for line in damage_lines(read.damage, setup, entries):
        problems.append(Problem(None, "damage", params={"text": line, "path": str(read.path)}))  # a Said: worded by the report
    del problems[MAX_PROBLEMS:]
    return report


__all__ = ["MAX_PROBLEMS", "AuditReport", "Problem", "ProblemKind", "audit", "conservation"]
