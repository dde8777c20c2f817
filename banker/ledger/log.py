"""What a session reader and a session writer share: the setup, the entries and the state they give.

Both open from the log: the state is rebuilt from the recorded effects (fast, and exactly the
figures recorded); :meth:`SessionLog.replay_check` is the rules engine's check of them, which the
console runs in the background and ``banker audit`` runs in full (see banker.ledger.check).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, Self

from banker.rules import GameState, Move, Refused, Setup
from banker.rules.messages import Msg, shown
from banker.rules.snapshot import restore as restore_state

from .check import Finding, OpenedFrom, damage_message, game, replay_check, restore
from .format import Damage, Entries, Entry, FileTable, Loaded, Said, SessionError, no_gc


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
    entries: Entries

    def __init__(self, path: Path, loaded: Loaded) -> None:
        self.path = path
        self.info: dict[str, Any] = loaded.doc  # the setup document as stored
        self.setup = loaded.setup
        #: what was found damaged on open (a reader only: a writer is refused)
        self.damage: list[Damage] = loaded.damage
        #: what the last :meth:`replay_check` found: entries the rules give differently today
        self.findings: list[Finding] = []
        #: why the checkpoint's snapshot (of entries 1..seq) was not used: (seq, why), a finding of :meth:`replay_check`
        self.snapshot_problem = (loaded.file_seq, loaded.snapshot_problem) if loaded.snapshot_problem else None
        #: the snapshot the state was opened from: (its seq, its state as stored, its standing seqs)
        self.opened_from: OpenedFrom | None = None
        #: FILE's entries table as the checkpoint wrote it (or left on the disk) and its index, when read the quick way
        self._file_table = loaded.file_table
        self._closed = False
        try:
            self._open(loaded)
        except SessionError as e:
            if e.key != "cannot_restore" or not any(d.kind == "setup" for d in loaded.damage):
                raise
            # the setup changed by hand (a player renamed): the entry is not what is wrong, the setup is
            raise SessionError(f"{path}: its setup was changed after it was written, and entry {e.params['seq']} cannot be "
                               f"restored with it ({e.params['reason']}); the file was left untouched: restore a backup, or "
                               "put the setup back as it was (its players, edition and variant)", key="setup_unrestorable",
                               path=path, seq=e.params["seq"], reason=e.params["reason"]) from None

    def _open(self, loaded: Loaded) -> None:
        """The state: from the checkpoint's snapshot and the entries since, or from every entry."""
        snap = loaded.snapshot
        self.state = game(self.path, loaded.setup)
        self._standing: list[int] = []  # the seqs of the moves on the engine's stack, in order
        if snap is not None:
            try:
                restore_state(self.state, snap.state, len(snap.standing), self._move_at)
            except ValueError as e:  # a snapshot this engine cannot take: not used, and said
                # the engine's reason (English: which attribute of the state it cannot take) is said as it is
                self.snapshot_problem = (snap.seq, Said(f"the checkpoint's snapshot cannot be used ({e})", "snapshot_unusable",
                                                        reason=str(e)))
                self.state = game(self.path, loaded.setup)
            else:
                self._standing = list(snap.standing)
                self.opened_from = (snap.seq, snap.state, snap.standing)
                self.entries = loaded.entries.head(snap.seq)
                self._follow(loaded.entries.after(snap.seq))
                return
        self.entries = Entries()
        self._follow(loaded.entries)

    def _move_at(self, i: int) -> Move:
        """The i-th move of the engine's stack (from the bottom), made from its entry when first read."""
        entry = self.entries[self._standing[i] - 1]
        return Move.recorded(entry.command, entry.effects, entry.parts or [], entry.info)

    @no_gc
    def _follow(self, entries: Iterable[Entry]) -> None:
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
        findings, _state = replay_check(self.path, self.setup, entries, snapshot=self.opened_from,
                                        snapshot_problem=self.snapshot_problem)
        self.findings = findings
        return findings

    @property
    def divergent(self) -> list[int]:
        """The seqs of the entries the last :meth:`replay_check` found, in order (the snapshot's
        findings are :attr:`snapshot_findings`)."""
        return sorted({f.seq for f in self.findings if f.kind != "snapshot"})

    @property
    def snapshot_findings(self) -> list[Finding]:
        """What the last :meth:`replay_check` found wrong with the checkpoint's snapshot."""
        return [f for f in self.findings if f.kind == "snapshot"]

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

    def undo_index(self, seq: int | None = None) -> int:
        """Where, among the :attr:`standing` entries, the entry an undo of ``seq`` (None: the last that stands) takes
        back is; refused (:class:`Refused`) as :meth:`SessionWriter.undo` would refuse it: nothing left to undo, entry
        ``seq`` does not stand, or later entries depend on it (named). Nothing is recorded and the state is left as
        it was: the console asks this before its confirmation."""
        index = self._undo_slot(seq)
        self.state.check_take_out(index, self._standing)
        return index

    def _undo_slot(self, seq: int | None) -> int:
        """:meth:`undo_index` without asking the rules whether later entries depend on it."""
        if not self._standing:
            raise Refused("undo-empty", Msg("undo.empty"))
        if seq is None or seq == self._standing[-1]:
            return len(self._standing) - 1
        if isinstance(seq, bool) or not isinstance(seq, int) or seq not in self._standing:
            raise Refused("undo-not-standing", Msg("undo.not-standing", seq=shown(seq)))
        return self._standing.index(seq)

    @property
    def damage_message(self) -> Said | None:
        """One line about :attr:`damage` (None when there is none)."""
        if not self.damage:
            return None
        return damage_message(self.path, self.damage, (self.setup, self.entries))

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def _on_disk(self) -> FileTable | None:
        """FILE's entries table, when it was left on the disk as the session opened (a writer's ``defer_table``, a
        look's ``on_disk``)."""
        table = self._file_table[0] if self._file_table is not None else None
        return table if isinstance(table, FileTable) else None

    def close(self) -> None:
        """Close the session; a table left on the disk lets its file go (its entries not read by now cannot be)."""
        self._closed = True
        table = self._on_disk
        if table is not None:
            table.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {str(self.path)!r}, {len(self.entries)} entries>"


__all__ = ["SessionLog"]
