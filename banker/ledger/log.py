"""What a session reader and a session writer share: the setup, the entries and the state they give.

Both open from the log: the state is rebuilt from the recorded effects (fast, and exactly the
figures recorded); :meth:`SessionLog.replay_check` is the rules engine's check of them, which the
console runs in the background and ``banker audit`` runs in full (see banker.ledger.check).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Self

from banker.rules import GameState, Setup

from .check import Finding, damage_message, game, replay_check, restore
from .format import Damage, Entry, Loaded, no_gc


class SessionLog:
    """A session log open in this process: its setup, its entries and the state they give.

    Opened by :class:`~banker.ledger.reader.SessionReader` (read-only, no lock) or
    :class:`~banker.ledger.writer.SessionWriter` (the one writer); see ``Session.open``.
    """

    #: True for a reader: nothing can be recorded through it (the console asks this before any dialog)
    readonly: ClassVar[bool]

    path: Path
    setup: Setup
    state: GameState
    entries: list[Entry]

    def __init__(self, path: Path, loaded: Loaded) -> None:
        self.path = path
        self.info: dict[str, Any] = loaded.doc  # the setup document as stored
        self.setup = loaded.setup
        self.entries = []
        #: what was found damaged on open (a reader only: a writer is refused)
        self.damage: list[Damage] = loaded.damage
        #: what the last :meth:`replay_check` found: entries the rules give differently today
        self.findings: list[Finding] = []
        self.state = game(path, loaded.setup)
        self._standing: list[int] = []  # the seqs of the moves on the engine's stack, in order
        self._closed = False
        self._follow(loaded.entries)

    @no_gc
    def _follow(self, entries: list[Entry]) -> None:
        """Put ``entries`` on the state as recorded (see :func:`banker.ledger.check.follow`)."""
        restore(self.path, self.state, self._standing, entries, self.entries)

    # ------------------------------------------------------------------ the check
    @no_gc
    def replay_check(self, upto: int | None = None) -> list[Finding]:
        """Recompute the first ``upto`` entries (default: all) through the rules engine, on a state
        of its own, and return what it finds (also kept in :attr:`findings`). Reads only entries
        already recorded, so it may run in a thread while the session goes on; never changes the
        session's state: the table shows what was recorded."""
        entries = self.entries[:upto] if upto is not None else list(self.entries)
        findings, _state = replay_check(self.path, self.setup, entries)
        self.findings = findings
        return findings

    @property
    def divergent(self) -> list[int]:
        """The seqs of the entries the last :meth:`replay_check` found, in order."""
        return sorted({f.seq for f in self.findings})

    # ------------------------------------------------------------------ properties
    @property
    def name(self) -> str:
        """The session's name as given at creation, else the file name without suffix."""
        name = self.info.get("name")
        return name if isinstance(name, str) and name else self.path.stem

    @property
    def created(self) -> str | None:
        created = self.info.get("created")
        return created if isinstance(created, str) else None

    @property
    def last_entry(self) -> Entry | None:
        return self.entries[-1] if self.entries else None

    @property
    def standing(self) -> tuple[int, ...]:
        """The seqs of the entries that stand (not undone), oldest first: the next undo takes back the last."""
        return tuple(self._standing)

    @property
    def damage_message(self) -> str | None:
        """One line about :attr:`damage` (None when there is none)."""
        if not self.damage:
            return None
        return damage_message(self.path, self.damage, (self.setup, self.entries))

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {str(self.path)!r}, {len(self.entries)} entries>"


__all__ = ["SessionLog"]
