"""Reading a session: :class:`SessionReader` (read-only, no lock, follows a writer with
:meth:`~SessionReader.refresh`) and :func:`read_session` (the entries without a state)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import msgspec

from banker.rules import Setup

from .check import damage_message
from .format import (
    MAX_FILE_BYTES,
    Damage,
    Entry,
    Loaded,
    Said,
    SessionError,
    check_path,
    is_seq,
    journal_path,
    load_for_reader,
    no_gc,
    resolve,
    sig,
    to_entries,
    verify_entry,
)
from .journal import JournalCorrupt, scan
from .log import SessionLog
from .snapshot import Snapshot
from .storage import FileRefused, read_regular


class SessionReader(SessionLog):
    """A session open read-only: it takes no lock and never modifies a file, so it may look at a
    game in progress (the players' page, ``banker review``, ``banker state``). A damaged session
    opens this way only, with :attr:`damage` saying what is damaged."""

    readonly = True

    @classmethod
    @no_gc  # one pause for the whole load: no collection over the freshly read log half-way
    def open(cls, path: str | os.PathLike[str], *, on_disk: bool = False) -> SessionReader:
        """Open the session at ``path`` read-only: its state rebuilt from the recorded effects.

        ``on_disk``: for a look that reads a few entries at once and is closed (``banker state``): the
        checkpoint's entries table is checked against its CRC-32 as it opens, read through a piece at a
        time, and left on the disk, the entries read from the file kept open (:meth:`close` lets it go).
        Without it (a reader kept open: the players' page, the console), the table is held in memory, and
        what it shows never depends on the file after the look that opened it."""
        path = resolve(path)
        check_path(path)
        return cls(path, load_for_reader(path, on_disk=on_disk))

    def __init__(self, path: Path, loaded: Loaded) -> None:
        super().__init__(path, loaded)
        self._file_sig = loaded.file_sig
        self._jino = loaded.journal_ino
        self._anchor = loaded.anchor  # where to read the journal on from
        self._last_sum = loaded.last_sum  # the chained checksum after the last entry (None: version 1)

    def refresh(self) -> list[Entry]:
        """Load the entries committed since the last look, follow them, and return them."""
        if self._closed:
            return []
        new = self._read_journal_tail()
        if new is None:
            loaded = load_for_reader(self.path)
            known = len(self.entries)
            if len(loaded.entries) < known or (known and loaded.entries[known - 1].ts != self.entries[-1].ts):
                raise SessionError(f"{self.path} no longer holds the actions shown here (was it replaced?); open it again",
                                   key="replaced", path=self.path)
            new = loaded.entries[known:]
            self._file_sig = loaded.file_sig
            self._jino = loaded.journal_ino
            self._anchor = loaded.anchor
            self._last_sum = loaded.last_sum
            self.damage = loaded.damage
        self._follow(new)
        return new

    def _read_journal_tail(self) -> list[Entry] | None:
        """The entries appended to the journal since the last look, or None when the
        quick way cannot be trusted (FILE rewritten by a checkpoint, journal truncated or
        replaced, a line that fails a check); the caller then reloads both files.

        The journal line holding the last entry known (the anchor) must still be where
        it was, byte for byte; lines after it must carry the next seqs in order.
        """
        jpath = journal_path(self.path)
        offset, anchor = self._anchor
        try:
            if sig(os.stat(self.path)) != self._file_sig:
                return None
            data, st = read_regular(jpath, MAX_FILE_BYTES, nofollow=True, offset=offset - len(anchor))
            if st.st_ino != self._jino:
                return None
            if sig(os.stat(self.path)) != self._file_sig:
                return None  # a checkpoint ran while we read
        except (OSError, FileRefused):
            return None
        if not data.startswith(anchor):
            return None
        try:
            lines = scan(data, len(anchor))
        except JournalCorrupt:
            return None
        if lines.damaged is not None:
            return None
        known = len(self.entries)
        expected = known + 1
        new: list[Entry] = []
        start = len(anchor)
        last_sum = self._last_sum
        new_anchor = self._anchor
        for record, end in zip(lines.records, lines.ends, strict=True):
            line_start, start = start, end
            seq = record.get("seq")
            if is_seq(seq) and seq <= known and not new:
                continue  # lines a checkpoint has not truncated yet
            if seq != expected:
                return None
            try:
                new.extend(to_entries(str(jpath), [record], expected))
            except SessionError:
                return None
            if last_sum is not None:
                found: list[Damage] = []
                last_sum = verify_entry(record, last_sum, found)
                if found:
                    return None
            new_anchor = (offset + end - len(anchor), data[line_start:end])
            expected += 1
        self._anchor = new_anchor
        self._last_sum = last_sum
        return new


# --------------------------------------------------------------------------- reading without a state
class SessionRead(msgspec.Struct):
    """A read-only look at a session without rebuilding its state: see :func:`read_session`."""

    path: Path
    doc: dict[str, Any]
    setup: Setup
    entries: list[Entry]
    damage: list[Damage]
    #: the checkpoint's snapshot (None: none, or one not used: :attr:`snapshot_problem` says why)
    snapshot: Snapshot | None = None
    snapshot_problem: str | None = None
    file_seq: int = 0  # entries 1..file_seq were in FILE

    @property
    def damage_message(self) -> Said | None:
        return damage_message(self.path, self.damage, explain_with=(self.setup, self.entries)) if self.damage else None


def read_session(path: str | os.PathLike[str]) -> SessionRead:
    """The setup document, the setup, every committed entry and any damage found, read-only
    and without a state (an entry after a damaged journal line is not there to read)."""
    path = resolve(path)
    check_path(path)  # missing, a folder, a path that cannot be entered: said of the session file as SessionReader
    # says it (it named FILE.journal: "cannot read g.json/x.json.journal: Not a directory")
    loaded = load_for_reader(path)
    return SessionRead(path, loaded.doc, loaded.setup, loaded.entries.materialize(), loaded.damage, loaded.snapshot,
                       loaded.snapshot_problem, loaded.file_seq)


def read_entries(path: str | os.PathLike[str]) -> tuple[Setup, list[Entry]]:
    """The setup and every committed entry of a session, read-only and without a state."""
    loaded = load_for_reader(resolve(path))
    return loaded.setup, loaded.entries.materialize()


def read_session_doc(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[Entry]]:
    """The session's setup document (format, version, created, name, setup) and entries."""
    loaded = load_for_reader(resolve(path))
    return loaded.doc, loaded.entries.materialize()


__all__ = ["SessionRead", "SessionReader", "read_entries", "read_session", "read_session_doc"]
