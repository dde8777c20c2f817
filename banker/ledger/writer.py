"""Writing a session: :class:`SessionWriter` (the one writer: lock, journal, apply, undo,
checkpoint) and :func:`repair` (resolving a damaged session the way the banker chose).

Every action goes through :meth:`SessionWriter.apply`: the rules engine applies it (or refuses
it, writing nothing), then one CRC-checked line is added to the write-ahead journal (into room
made ahead: :data:`JOURNAL_ROOM`) and synced before ``apply`` returns. Undo is an operation of the
log (:meth:`SessionWriter.undo`): the engine pops its last move and the log records the reversal as
an entry of its own.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import msgspec
from msgspec import UnsetType
from msgspec.structs import replace

from banker.boards import board_setup, game_from_setup
from banker.rules import BoardError, GameState, Refused, Setup
from banker.rules.messages import Msg
from banker.rules.ops import Undo, decode
from banker.rules.parse import check_command
from banker.rules.state import check_text

from . import checksum
from . import snapshot as snapshots
from .check import builtins, damage_message, follow_all, inverses, text_of, undo_parts
from .clock import check_stored
from .format import (
    FORMAT,
    VERSION,
    Entries,
    Entry,
    Loaded,
    Said,
    SessionDamaged,
    SessionError,
    TableChanged,
    check_path,
    checkpoint_document,
    closed_error,
    document,
    entries_table,
    journal_path,
    load,
    no_gc,
    now,
    resolve,
    seal_entries,
    sealed_doc,
    why,
)
from .journal import encode_payload, encode_stored, frame, header_line, json_copy
from .lock import LockBusy, LockUnsafe, WriterLock, describe_holder, guard_journal, holder_clause, lock_holder, lock_path
from .log import SessionLog
from .storage import fsync_dir, is_temp_of, write_all, write_at, write_durably

UNDO = "undo"

#: how much room the journal is given at a time past its last line: written as zeros and fsynced, once every few
#: hundred actions (a journal line is about 500 bytes), so that each action overwrites bytes already on the disk
#: and its sync (:func:`sync_data`) has only them to flush, not the file's new size too (bench/record.py,
#: docs/speed.md, "Ninth round": an action 0.18-0.20 ms against 0.23-0.25 appended and fsynced, on the development
#: VM's ext4)
JOURNAL_ROOM = 256 * 1024

#: errors that mean "no room on the disk for more": the room is then not made, and the line goes at the end as before
_NO_ROOM = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def sync_data(fd: int) -> None:
    """The sync of a recorded line: ``fdatasync`` flushes the data and what is needed to read it back (the size,
    when it grew), not the file's times; ``fsync`` where there is none (macOS)."""
    (getattr(os, "fdatasync", None) or os.fsync)(fd)


class SessionWriter(SessionLog):
    """A game's session log open for writing: the one writer, holding the lock.

    >>> s = SessionWriter.create("game.json", Setup("classic-us", "classic", ("Ann", "Bob")))  # doctest: +SKIP
    >>> s.apply({"op": "buy", "player": "Ann", "space": 39}).text                         # doctest: +SKIP
    'Ann buys Boardwalk for $400'
    """

    readonly = False

    def __init__(self, path: Path, loaded: Loaded, lock: WriterLock) -> None:
        super().__init__(path, loaded)
        self._lock: WriterLock | None = lock
        self._jfd: int | None = None
        self._jsize = 0  # journal bytes that hold good lines; the journal's fd stands there between actions
        self._jroom = 0  # the journal's size: past _jsize, zeros (the room made ahead, JOURNAL_ROOM)
        self._header_end = loaded.journal_header_end
        self._file_seq = loaded.file_seq
        self._last_sum = loaded.last_sum  # the chained checksum after the last entry (None: version 1)
        self._others = loaded.others  # FILE's tables that are not banker's: every checkpoint keeps them
        self._broken: Said | None = None
        #: why the fold on open could not be written (the session is open all the same: :meth:`_fold_on_open`)
        self.fold_problem: SessionError | None = None

    @property
    def lock_unnamed(self) -> Said | None:
        """Why this writer could not write its name in ``FILE.lock`` when it took the lock (a full disk), or None:
        the session is open all the same, but another opener is told only that some process holds it. For the
        console and ``banker apply`` to say once, on opening."""
        return unnamed(self._lock)

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(cls, path: str | os.PathLike[str], setup: Setup, name: str | None = None, *,
               created: str | None = None) -> SessionWriter:
        """Start a new session at ``path`` (which must not exist), open for writing.

        All or nothing: if any step fails (a full disk, a failed fsync), every file this call
        made is removed again, so the same name can be created once the cause is fixed.
        """
        path = Path(path)
        if os.path.islink(path) and not os.path.exists(path):  # "open it" could only fail: the link leads nowhere
            target = os.readlink(path)
            raise SessionError(f"{path} is a link to {target}, which leads nowhere (it is missing, or the links loop); "
                               "remove the link or choose another name", key="broken_link", path=path, target=target)
        if os.path.lexists(path):
            holder = lock_holder(path)
            if holder is not None:  # the game being played there: "`banker open` it" would only be refused
                who = holder_clause(resolve(path).name, holder)
                raise SessionError(f"{path} already exists and is open for writing by {who}; choose another name for "
                                   "the new game", key="exists_open", path=path, holder=who)
            raise SessionError(f"{path} already exists; choose another name or `banker open` it", key="exists", path=path)
        jpath = journal_path(path)
        if os.path.lexists(jpath):
            raise SessionError(f"{jpath} is left over from an earlier session; move it away or choose another name",
                               key="journal_left_over", journal=jpath)
        if not path.parent.is_dir():
            if os.path.lexists(path.parent):
                raise SessionError(f"cannot create {path}: {path.parent} is a file, not a folder", key="parent_file",
                                   path=path, folder=path.parent)
            raise SessionError(f"cannot create {path}: the folder {path.parent} does not exist", key="no_folder", path=path,
                               folder=path.parent)
        try:  # a setup the rules refuse raises Refused before any file is made
            setup = board_setup(setup.for_new_game())  # today's rules for new players' names (NFC, no control
            # characters...); a board file by its absolute path, and its fingerprint
            if setup.end_time is not None:  # the agreed end as a time with its offset (clock.parse_end makes it)
                setup = replace(setup, end_time=check_stored(setup.end_time))
            game_from_setup(setup).check_new()  # an agreed end exactly when the variant has a time limit
        except BoardError as e:
            raise SessionError(f"cannot create {path}: {e}", key="cannot_create", path=path, reason=e) from None
        lock = _acquire(path)
        doc = sealed_doc({"format": FORMAT, "version": VERSION, "created": created or now(), "id": os.urandom(16).hex(),
                          "name": name, **setup.to_mapping()}, [], None)
        try:  # from here on, whatever is at path or jpath was made by this call (we checked, and hold the lock)
            write_durably(path, document(doc, []), replace=False)
            loaded = load(path)
            session = cls(path, loaded, lock)
            session._start_journal(loaded)
        except FileExistsError:
            lock.release(discard=True)
            raise SessionError(f"{path} already exists; choose another name or `banker open` it", key="exists",
                               path=path) from None
        except BaseException as e:
            _remove_made(path, jpath)
            lock.release(discard=True)
            if isinstance(e, OSError):
                raise SessionError(f"cannot create {path} ({why(e)}); nothing was left behind: free some space or "
                                   "fix the folder, then create it again", key="create_failed", path=path,
                                   reason=why(e)) from None
            raise
        return session

    @classmethod
    @no_gc  # one pause for the whole load: no collection over the freshly read log half-way
    def open(cls, path: str | os.PathLike[str], *, defer_table: bool = False) -> SessionWriter:
        """Open an existing session for writing: take the lock, rebuild the state from the recorded
        effects, recover (cut a torn journal line) and checkpoint.

        A damaged session is refused with :class:`SessionDamaged`, whose message says what is
        damaged and how to resolve it (it still opens read-only). A command today's rules refuse
        or compute differently is no reason to refuse: :meth:`replay_check` reports it.

        With ``defer_table`` the checkpoint's entries stay on the disk until they are needed
        (:func:`load`); they are checked before anything is recorded (:meth:`check_table`).
        """
        path = resolve(path)
        check_path(path)
        _refuse_read_only(path)
        lock = _acquire(path)
        try:
            _refuse_other_names(path)  # under the lock: a link made before it is seen
            loaded = load(path, defer_table=defer_table)
            if loaded.damage:
                said = damage_message(path, loaded.damage, (loaded.setup, loaded.entries))
                raise SessionDamaged(said.text, loaded.damage, key=said.key, **said.params)
            session = cls(path, loaded, lock)
        except BaseException:
            lock.release(discard=True)
            raise
        try:
            session._remove_stale_temp_files()
            session._start_journal(loaded)
            if loaded.version < VERSION:  # a version 1 file: seal every entry, so changes are found from now on
                session._seal_all()
                session.checkpoint(force=True)
            else:
                session._fold_on_open(loaded)
        except OSError as e:
            session._release()
            raise SessionError(f"cannot open {path} for writing ({why(e)}); nothing was lost: every action is in "
                               f"{path.name} or {journal_path(path).name}; free some space or fix the "
                               "permissions (`banker review` shows it read-only meanwhile)", key="open_failed", path=path,
                               reason=why(e), file=path.name, journal=journal_path(path).name) from None
        except SessionError as e:
            session._release()
            raise SessionError(f"cannot open {path} for writing: {e}", key="open_refused", path=path, why=e) from None
        except BaseException:
            session._release()
            raise
        return session

    def _fold_on_open(self, loaded: Loaded) -> None:
        """Fold what the journal holds into FILE, so the next open is quick; and give a session from before the
        snapshots its snapshot. Only a saving: when the fold cannot be written (a full disk, a folder made read-only),
        the session opens all the same and the journal goes on taking the actions (it needs a line's room, the fold
        a whole copy of FILE); :attr:`fold_problem` says why, and a later checkpoint folds everything in."""
        try:
            if loaded.journal is not None and loaded.journal.records:
                self.checkpoint()
            elif (loaded.snapshot is None and loaded.snapshot_problem is None and loaded.entries
                  and _snapshot_of(self.state, self._standing, 0, 0, b"", []) is not None):
                self.checkpoint(force=True)  # a session from before the snapshots: the next open is quick
        except SessionError as e:
            if e.key != "fold_failed":
                raise
            self.fold_problem = e

    def _start_journal(self, loaded: Loaded) -> None:
        """Make sure the journal exists with its header, cut a torn tail, open it and lock it
        (on Linux and macOS: see :func:`banker.ledger.lock.guard_journal`)."""
        jpath = journal_path(self.path)
        if loaded.journal is None:
            header = header_line(self.info.get("id"))
            write_durably(jpath, header, replace=False)  # atomic, so the header is never torn; fsyncs the directory
            self._header_end = self._jsize = len(header)
        else:
            self._jsize = loaded.journal.end
        fd = os.open(jpath, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
        try:
            if not guard_journal(fd):
                raise SessionError(f"session {self.path.name} is open for writing by another process (its lock file "
                                   f"{self.path.name}.lock was removed or replaced while it ran); close it there "
                                   "first (`banker review` shows it read-only meanwhile)", key="lock_replaced",
                                   name=self.path.name)
            size = os.fstat(fd).st_size  # past the last line, the room made ahead (zeros: what load read)
            if loaded.journal is not None and loaded.journal.torn:
                os.ftruncate(fd, self._jsize)  # the action that was being written when it died, and the room
                os.fsync(fd)
                size = self._jsize
            os.lseek(fd, self._jsize, os.SEEK_SET)
        except BaseException:
            os.close(fd)
            raise
        self._jfd = fd
        self._jroom = max(size, self._jsize)

    def _seal_all(self) -> None:
        """Give every entry its chained checksum (upgrading a version 1 session)."""
        sealed, self._last_sum = seal_entries(self.info.get("id"), self.entries)
        self.entries = Entries(sealed)
        self._file_table = None

    def _remove_stale_temp_files(self) -> None:
        """Temp files of a checkpoint that died before its rename (we hold the lock)."""
        try:
            candidates = list(self.path.parent.iterdir())
        except OSError:  # pragma: no cover
            return
        for p in candidates:
            if is_temp_of(p, self.path):
                try:
                    p.unlink()
                except OSError:  # pragma: no cover
                    pass

    # ------------------------------------------------------------------ writing
    @property
    def can_record(self) -> bool:
        """Whether an action may still be recorded in this session: open, and not stopped (a write that may have
        left a partial line, an action interrupted half-way, the checkpoint's entries changed on the disk). After
        a failed write that left nothing behind (``record_failed``: a full disk, an I/O error) it may: the same
        action can be recorded again once the disk takes it."""
        return not self._closed and self._broken is None

    def _check_writable(self) -> None:
        if self._closed:
            raise closed_error(self.path)
        if self._broken:
            raise SessionError.of(self._broken)

    @property
    def table_unchecked(self) -> bool:
        """Whether FILE's entries were left on the disk when the session opened and are not checked yet."""
        table = self._on_disk
        return table is not None and not table.checked

    def check_table(self) -> None:
        """FILE's entries, left on the disk when the session opened (``defer_table``), read and checked against
        their checkpoint now, if they were not yet: :class:`TableChanged` if they are not the checkpoint's, and
        nothing is recorded in this session from then on (nor is a checkpoint written over them)."""
        table = self._on_disk
        if table is not None and not table.checked:
            try:
                table.whole()
            except TableChanged as e:
                self._broken = Said(str(e), e.key, **e.params)
                raise

    def apply(self, command: Mapping[str, Any] | Any, *, ts: str | None = None) -> Entry:
        """Apply ``command`` and record it durably; returns the new log entry.

        A command the rules refuse raises :class:`Refused` and writes nothing. When this
        returns, the entry is fsynced in the journal: it survives a crash at any later
        instant. A failed write or fsync raises :class:`SessionError` and records nothing.
        ``{"op": "undo", "reason": ...}`` is :meth:`undo`. ``ts`` stamps the entry (default: now;
        sample_sessions/generate.py replays an evening at its own times).
        """
        self._check_writable()
        self.check_table()
        try:  # exactly what will be stored and replayed
            cmd = json_copy(command)
        except (TypeError, ValueError) as e:
            raise Refused("input", f"the command cannot be recorded as JSON ({e})") from None
        except RecursionError:
            raise Refused("input", "the command cannot be recorded as JSON (it is nested too deeply)") from None
        if isinstance(cmd, dict) and cmd.get("op") == UNDO:
            check_command(self.state, cmd)  # today's input limits, on the whole command as on any other
            undo = decode(cmd)  # strict, as every new command: an unknown key is refused, naming it
            assert isinstance(undo, Undo)
            return self.undo(undo.reason, ts=ts, seq=None if isinstance(undo.seq, UnsetType) else undo.seq)
        seq = len(self.entries) + 1
        with self._all_or_stop():
            move = self.state.push(cmd)
            try:
                command, effects, parts, info = builtins((move.command, move.effects, move.parts, move.info))
                draft = _draft(seq=seq, ts=ts or now(), command=command, effects=effects, text=text_of(parts),
                               parts=parts, info=info, undoes=None)
            except (TypeError, ValueError, msgspec.ValidationError) as e:  # pragma: no cover - an engine bug
                self.state.pop()
                raise SessionError(f"the engine produced an entry that cannot be stored ({e}); nothing was recorded",
                                   key="unstorable", reason=str(e)) from None
            entry = self._record(draft, take_back=self.state.pop)
            self._standing.append(seq)
        return entry

    def _all_or_stop(self) -> _AllOrStop:
        """Around an action from its move made in memory to its entry recorded: a refusal (:class:`Refused`, before
        anything changes) or a :class:`SessionError` leaves both as they were (the move taken back, nothing
        recorded); anything else that stops it half-way (Ctrl+C, an exit, a bug) leaves the memory not what the
        file and its journal hold, so nothing more is recorded in this session, nor is a checkpoint (and its
        snapshot) written from that memory: the next open reads the file and the journal, which hold every action
        recorded, this one too once its line was written."""
        return _AllOrStop(self)

    def _interrupted(self) -> None:
        """What :meth:`_all_or_stop` does when an action is stopped half-way: nothing more is recorded."""
        self._broken = Said(f"session {self.path.name} was interrupted while recording an action (Ctrl+C, or a fault); "
                            "close and reopen it (every action recorded is read again from the file and its journal)",
                            "interrupted", name=self.path.name)

    def undo_index(self, seq: int | None = None) -> int:
        """:meth:`SessionLog.undo_index`, guarded as :meth:`undo` is: asking the rules whether later entries depend on
        entry ``seq`` takes them off the state in memory and puts them back; anything but a refusal that stops it
        half-way stops the session (:meth:`_all_or_stop`), the memory then not what the file holds."""
        with self._all_or_stop():
            return super().undo_index(seq)

    def undo(self, reason: Any, *, ts: str | None = None, seq: int | None = None) -> Entry:
        """Take back the last action that still stands (or entry ``seq``, an earlier one that still
        stands and that no later entry depends on: the engine decides, :meth:`GameState.take_out`),
        and record the reversal with ``reason`` (an entry of its own: the inverse effects in
        reverse order, ``undoes`` = the seq taken back). Refused (:class:`Refused`) without a
        reason, with nothing left to undo, for an entry that does not stand, or naming the later
        entries that depend on it."""
        self._check_writable()
        self.check_table()
        if isinstance(reason, str):
            check_text(UNDO, "reason", reason)  # today's input limits, as for every new command
        if not isinstance(reason, str) or not reason.strip():
            raise Refused("undo-reason", Msg("undo.reason"))
        index = self._undo_slot(seq)  # refused: nothing left to undo, or entry ``seq`` does not stand
        reason = reason.strip()
        with self._all_or_stop():
            undone = self._standing[index]
            if index == len(self._standing) - 1:
                move = self.state.pop()
            else:
                move = self.state.take_out(index, self._standing)  # refused when later entries depend on it
            return self._record_undo(reason, ts, seq, index, undone, move)

    def _record_undo(self, reason: str, ts: str | None, seq: int | None, index: int, undone: int, move: Any) -> Entry:
        """:meth:`undo`'s reversal of ``move`` (entry ``undone``, at ``index`` of the standing ones), recorded."""
        del self._standing[index]
        command = builtins(move.command)

        def put_back() -> None:  # the reversal could not be recorded: the move stands again, as it was
            self.state.put_back(index, move)
            self._standing.insert(index, undone)

        try:
            undo_said = undo_parts(reason, builtins(move.parts))
            given = {"op": UNDO, "reason": reason, **({"seq": seq} if seq is not None else {})}
            draft = _draft(seq=len(self.entries) + 1, ts=ts or now(), command=given,
                           effects=inverses(move.effects), text=text_of(undo_said), parts=undo_said,
                           info={"undone_command": command}, undoes=undone)
        except (TypeError, ValueError, msgspec.ValidationError) as e:  # pragma: no cover - an engine bug
            put_back()
            raise SessionError(f"the engine produced an entry that cannot be stored ({e}); nothing was recorded",
                               key="unstorable", reason=str(e)) from None
        return self._record(draft, take_back=put_back)

    def _record(self, draft: dict[str, Any], take_back: Callable[[], Any]) -> Entry:
        """Seal ``draft`` and append it to the journal, fsynced; on failure ``take_back()`` undoes
        it in memory and :class:`SessionError` says nothing was recorded."""
        last = self._last_sum
        assert last is not None  # a writer's file is sealed (a version 1 file is upgraded on open)
        try:
            # encoded once: the entry exactly as stored (tuples become lists), its sum then made over that
            # and put last, as ``encode_payload(stored)`` would write it (a dict keeps its keys in order)
            unsealed, stored, plain = encode_stored(draft)
            chained = checksum.stored_sum(stored, last, plain=plain)
            stored[checksum.SUM] = checksum.fmt(chained)
            entry = msgspec.convert(stored, Entry)
            body = sealed_body(unsealed, stored[checksum.SUM])
        except (TypeError, ValueError, RecursionError, msgspec.ValidationError) as e:  # pragma: no cover - an engine bug
            take_back()
            raise SessionError(f"the engine produced an entry that cannot be stored ({e}); nothing was recorded",
                               key="unstorable", reason=str(e)) from None
        line = frame(body)
        fd, room = self._jfd, self._jroom
        assert fd is not None
        try:
            if self._jsize + len(line) > room:
                self._make_room(fd, len(line))
            write_all(fd, line)  # the fd stands at _jsize
            sync_data(fd)
        except OSError as e:
            take_back()
            try:
                self._take_back_line(fd, room, len(line))
            except OSError:
                self._broken = Said(f"session {self.path.name} could not be written ({why(e)}) and may hold a partial "
                                    "line; close and reopen it (the partial line is dropped on open)", "broken",
                                    name=self.path.name, reason=why(e))
            raise SessionError(f"could not record the action in {self.path.name}.journal ({why(e)}); "
                               "nothing was recorded: free some space, or make the folder writable, and do it again",
                               key="record_failed", name=self.path.name, reason=why(e)) from None
        self._jsize += len(line)
        self._jroom = max(self._jroom, self._jsize)
        self._last_sum = chained
        self.entries.append(entry)
        return entry

    def _take_back_line(self, fd: int, room: int, size: int) -> None:
        """The journal as it was before a line of ``size`` bytes failed to be recorded: the room this action made
        given back (the file cut to ``room``, the size it had), zeros written again over the line, fsynced. Where
        even zeros cannot be written (a full copy-on-write disk, an I/O error), the file is cut where the lines end,
        room and all, which needs no space: the line is gone either way. Raises what the cut or the fsync raises."""
        os.ftruncate(fd, room)
        self._jroom = room
        if room > self._jsize:
            try:
                write_at(fd, bytes(min(size, room - self._jsize)), self._jsize)
            except OSError:
                os.ftruncate(fd, self._jsize)
                self._jroom = self._jsize
        os.lseek(fd, self._jsize, os.SEEK_SET)
        os.fsync(fd)

    def _make_room(self, fd: int, need: int) -> None:
        """Give the journal room for a line of ``need`` bytes and :data:`JOURNAL_ROOM` more past its last line:
        zeros written and fsynced. On a disk with no room for that much, none is made (the line then goes at the end
        of the file, its sync flushing the new size too, as long as the disk has room for the line itself)."""
        end = self._jsize + need + JOURNAL_ROOM
        try:
            os.lseek(fd, self._jroom, os.SEEK_SET)
            write_all(fd, bytes(end - self._jroom))
            os.fsync(fd)
        except OSError as e:
            if e.errno not in _NO_ROOM:
                raise
            os.ftruncate(fd, self._jroom)
        else:
            self._jroom = end
        finally:
            os.lseek(fd, self._jsize, os.SEEK_SET)

    @no_gc  # the whole document is built at once: many small containers, none of them cyclic garbage
    def checkpoint(self, force: bool = False) -> None:
        """Fold the journal into FILE (atomic rewrite) and empty the journal.

        A crash at any instant leaves FILE old or new, and the journal either still
        holding its lines (skipped on open when FILE already has them) or empty. A failed
        write or fsync (of the new FILE, of its folder, of the journal) stops the checkpoint
        where it is, with the journal as it was: :class:`SessionError` says so.
        """
        self._check_writable()
        assert self._jfd is not None
        try:
            if force or len(self.entries) > self._file_seq:
                doc = sealed_doc(self.info, self.entries, self._last_sum)
                # FILE's entries as written last time, extended by the new ones (else every entry encoded)
                base = self._file_table
                table, index = entries_table(self.entries.after(self._file_seq) if base is not None else self.entries,
                                             base)
                last = self._last_sum if self._last_sum is not None else checksum.seed(self.info.get("id"))
                snap = _snapshot_of(self.state, self._standing, len(self.entries), last, table, index)
                # one TinyDB document: temp + fsync + rename + folder fsync, or it raises
                write_durably(self.path, checkpoint_document(doc, snap, table, self._others))
                self.info = doc
                self._file_seq = len(self.entries)
                self._file_table = (table, index)
            if self._jroom > self._header_end:
                os.ftruncate(self._jfd, self._header_end)
                self._jsize = self._jroom = self._header_end  # cut, even if the fsync below fails
                os.lseek(self._jfd, self._jsize, os.SEEK_SET)
                os.fsync(self._jfd)
        except OSError as e:
            raise SessionError(f"could not fold the journal into {self.path.name} ({why(e)}); nothing was lost: every "
                               f"action is kept in {self.path.name} or {journal_path(self.path).name}, and a later "
                               "open folds them in (free some space, or make the folder writable)", key="fold_failed",
                               name=self.path.name, reason=why(e),
                               journal=journal_path(self.path).name) from None

    def close(self) -> None:
        """Checkpoint and release the lock. Idempotent. A checkpoint that fails still releases
        the lock, then raises its :class:`SessionError`."""
        if self._closed:
            return
        try:
            if not self._broken:
                self.checkpoint()
        finally:
            self._release()

    def _release(self) -> None:
        super().close()  # closed; a table left on the disk and never needed whole: the file let go
        if self._jfd is not None:
            os.close(self._jfd)  # drops the journal's lock too
            self._jfd = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None


class _AllOrStop:
    """:meth:`SessionWriter._all_or_stop`'s context: a class, not a ``@contextmanager`` generator, as it is around
    every action (a generator made, started and closed each time: some 2% of an action's instructions, docs/speed.md,
    "Twenty-third round")."""

    __slots__ = ("writer",)

    def __init__(self, writer: SessionWriter) -> None:
        self.writer = writer

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if kind is not None and not issubclass(kind, (SessionError, Refused)):
            self.writer._interrupted()  # and the exception goes on


def _draft(*, seq: int, ts: str, command: dict[str, Any], effects: list[dict[str, Any]], text: str,
           parts: list[dict[str, Any]], info: dict[str, Any], undoes: int | None) -> dict[str, Any]:
    """A new entry before its sum, as stored: the keys in :class:`Entry`'s order (``Entry(...).to_json()``
    without making the Entry; the stored one is made from the bytes written)."""
    return {"seq": seq, "ts": ts, "command": command, "effects": effects, "text": text, "parts": parts, "info": info,
            "undoes": undoes}


def sealed_body(unsealed: bytes, entry_sum: str) -> bytes:
    """An encoded entry (a JSON object, no sum) with its ``"sum"`` added as the last key: the bytes
    ``encode_payload`` gives for the entry with the sum, without encoding the entry again."""
    if not unsealed.endswith(b"}") or unsealed == b"{}":  # pragma: no cover - an entry always has its seq
        raise ValueError("not an encoded entry")
    # a sum is 8 hex digits (checksum.fmt): JSON writes ASCII letters and digits as they are, between quotes
    value = b'"%s"' % entry_sum.encode() if entry_sum.isascii() and entry_sum.isalnum() else encode_payload(entry_sum)
    return unsealed[:-1] + b',"' + checksum.SUM.encode() + b'":' + value + b"}"


def _snapshot_of(state: GameState, standing: Sequence[int], seq: int, last: int, table: bytes,
                 index: Sequence[int]) -> dict[str, Any] | None:
    """The snapshot a checkpoint writes, or None for a state no JSON can hold (an amount of over 4,300
    digits, recorded before amounts were bounded): such a session opens the full way, as before."""
    try:
        return snapshots.make(state, standing, seq, last, table, index)
    except (ValueError, OverflowError):
        return None


def _remove_made(path: Path, jpath: Path) -> None:
    """Remove what a failed create made (it holds the lock, so nobody else uses them)."""
    for p in (jpath, path):
        try:
            os.unlink(p)
        except OSError:
            pass
    try:
        fsync_dir(path.parent)
    except OSError:
        pass


def _refuse_read_only(path: Path) -> None:
    """A session file (or its journal) that no one may write (``chmod a-w``: a finished game kept as it is) is
    not opened for writing, whoever asks (the superuser too, whom the system would let write): the banker who
    made it so meant it."""
    for p in (path, journal_path(path)):
        try:
            st = os.stat(p)
        except OSError:
            continue  # a missing journal is made; anything else is for the read to say
        readable = st.st_mode & (stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # none: for the read to say
        if stat.S_ISREG(st.st_mode) and readable and not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise SessionError(f"{p.name} is read-only (no one may write it), so the game cannot go on in it; it was left "
                               f"untouched: `banker review {path.name}` shows it, or make it writable again "
                               f"(`chmod u+w {p.name}`) to go on", key="read_only_file", name=p.name, session=path.name)


def _refuse_other_names(path: Path) -> None:
    """A session file with another name (a hard link: one file, two names) is not opened for writing: the lock and
    the journal are named after the name, so a second writer by the other name would take a lock of its own and
    record in a journal of its own, and the game would fork at the next checkpoint. Said with what to do; a reader
    (`banker review`, `state`) reads it as it is."""
    try:
        st = os.stat(path)
    except OSError:
        return  # for the read to say
    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        raise SessionError(f"{path.name} has {st.st_nlink} names (hard links to one file), so two writers could record "
                           "in it at once, each by its own name; it was left untouched: remove the other names (`ls -i` "
                           "shows them by the same number), or make a copy (`cp`) where a second file was meant",
                           key="hard_linked", name=path.name, n=st.st_nlink)


def unnamed(lock: WriterLock | None) -> Said | None:
    """Why the holder of ``lock`` could not write its name in ``FILE.lock`` (a full disk), as its banker is told
    once on taking it (the console, ``banker apply``, ``new`` and ``repair``), or None: it was written."""
    if lock is None or lock.unnamed is None:
        return None
    error = lock.unnamed
    name = lock.path.name
    session = name.removesuffix(".lock")
    return Said(f"could not write this banker's name in {name} ({why(error)}): the game goes on and is saved, but "
                f"another banker opening {session} cannot be told who holds it; free some space on the disk",
                "lock_unnamed", lock=name, name=session, reason=why(error))


def _acquire(path: Path) -> WriterLock:
    try:
        return WriterLock.acquire(path)
    except LockBusy as e:
        raise SessionError.of(describe_holder(path.name, e.holder)) from None
    except LockUnsafe as e:
        raise SessionError(f"cannot lock {path.name} for writing: {e}", key="lock_unsafe", name=path.name,
                           why=e.said) from None
    except OSError as e:
        if e.errno == errno.ENAMETOOLONG:  # the lock's name (FILE.lock) is five characters longer than FILE's
            raise SessionError(f"cannot lock {path} for writing ({why(e)}): its name is too long for this file system "
                               "once .lock is added; give the session a shorter name", key="lock_name_too_long",
                               path=path, reason=why(e)) from None
        if e.errno in (errno.EACCES, errno.EPERM) and os.path.lexists(lock_path(path)):
            raise SessionError(f"cannot lock {path} for writing ({why(e)}): its lock file {lock_path(path).name} cannot "
                               "be written; make it writable, or remove it if no banker has this session open",
                               key="lock_file_denied", path=path, reason=why(e), lock=lock_path(path).name) from None
        raise SessionError(f"cannot lock {path} for writing ({why(e)}); is its folder writable?", key="lock_failed",
                           path=path, reason=why(e)) from None


# --------------------------------------------------------------------------- repair
def _aside_path(jpath: Path, seq: int | None) -> Path:
    base = jpath.with_name(f"{jpath.name}.damaged-{seq}")
    candidate, n = base, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate


@contextmanager
def repair_lock(path: str | os.PathLike[str]) -> Iterator[WriterLock]:
    """The writer lock for the whole of ``banker repair``: the damage is read, said, asked about and resolved
    under it, so that no console can record in the session between the report and the repair, and a session
    open for writing elsewhere is refused before anything is said of it (:class:`SessionError`, as ``banker
    open`` says it). A lock file this call made is removed again when the read refuses the file (a FIFO, a
    device), as :meth:`SessionWriter.open` does."""
    path = resolve(path)
    check_path(path)  # missing, a folder, a folder on the way that cannot be entered: said as the readers say it
    lock = _acquire(path)
    try:
        yield lock
    except BaseException:
        lock.release(discard=True)
        raise
    lock.release()


def repair(path: str | os.PathLike[str], *, accept_changes: bool = False, lock: WriterLock | None = None) -> list[Said]:
    """Resolve a damaged session the way the banker chose; returns what was done, a line each.

    A checkpoint's snapshot that failed its checks, or that is not what its entries give, is made
    anew from the entries (it is only ever a copy of what they give), with the journal folded in.

    A damaged last journal line is kept aside, byte for byte, in ``FILE.journal.damaged-<n>``
    (``n``: the entry it would have been; written durably first), then cut from the journal.
    Changed entries, a changed setup or entries missing from the end are accepted only with
    ``accept_changes``: the checksums are then made anew over the file as it is now (and the
    journal folded into it). Takes the writer lock (``lock``: held already, :func:`repair_lock`, and kept);
    nothing is written when there is no damage.
    """
    path = resolve(path)
    if not os.path.lexists(path):
        raise SessionError(f"no session file {path}", key="missing_repair", path=path)
    _refuse_read_only(path)
    held = lock if lock is not None else _acquire(path)
    try:
        loaded = load(path)
        if not loaded.damage:
            return _remake_snapshot(path, loaded) or [Said(f"{path}: no damage found; nothing was changed", "repair_none",
                                                           path=path)]
        line = next((d for d in loaded.damage if d.kind == "journal-line"), None)
        changes = [d for d in loaded.damage if d.kind != "journal-line"]
        if changes:  # first: --accept-changes is offered only where it can be done
            refuse_unopenable(path, loaded.setup, loaded.entries, setup_changed=any(d.kind == "setup" for d in changes))
        if changes and not accept_changes:
            raise SessionError(f"{path}: {changes[0].text}; nothing was changed: restore a backup, or run `banker repair "
                               f"{path} --accept-changes` to keep the file as it is now", key="repair_needs_accept",
                               path=path, what=changes[0].said)
        done = []
        jpath = journal_path(path)
        if line is not None and line.line is not None:
            aside = _aside_path(jpath, line.seq)
            write_durably(aside, line.raw, replace=False)
            _cut_journal(jpath, line.line.start)
            done.append(Said(f"kept the damaged line aside in {aside.name} ({len(line.raw)} bytes) and dropped it from "
                             f"{jpath.name}: entry {line.seq} is not in the session (entries in it now: {len(loaded.entries)})",
                             "repair_aside", aside=aside.name, size=len(line.raw),
                             journal=jpath.name, seq=line.seq, n=len(loaded.entries)))
        if changes:
            entries, last = seal_entries(loaded.doc.get("id"), loaded.entries)
            doc = sealed_doc(loaded.doc, entries, last)
            write_durably(path, document(doc, entries, loaded.others))
            if loaded.journal is not None:
                _cut_journal(jpath, loaded.journal_header_end)
            seqs = [d.seq for d in changes if d.kind == "entry" and d.seq is not None]
            listed = f"{', '.join(map(str, seqs[:10]))}{'…' if len(seqs) > 10 else ''}"
            which = f" (changed entries: {listed})" if seqs else ""
            done.append(Said(f"accepted {path.name} as it is now{which}: its checksums were made anew over its entries "
                             f"({len(entries)})", "repair_accepted" if seqs else "repair_accepted_all",
                             name=path.name, seqs=listed, n=len(entries)))
        return done
    except OSError as e:
        raise SessionError(f"could not repair {path} ({why(e)}); the session is as it was, or with the damaged line "
                           "already kept aside; run the repair again", key="repair_failed", path=path, reason=why(e)) from None
    finally:
        if lock is None:
            held.release()


def refuse_unopenable(path: Path, setup: Setup, entries: Sequence[Entry], setup_changed: bool = False) -> None:
    """Changes about to be accepted: refused (:class:`SessionError`) when the file as it is now could not be opened:
    an entry whose effects cannot be followed, a setup the rules cannot set up. Accepted, its checksums would agree
    with it, and no repair would find anything left to do while the session never opened again. With
    ``setup_changed`` (the setup is among the changes) the setup is what to put back."""
    try:
        follow_all(path, setup, entries)
    except SessionError as e:
        if e.key != "cannot_restore":
            raise
        entry = next(entry for entry in entries if entry.seq == e.params["seq"])
        reason = e.params["reason"]
        if setup_changed:
            raise SessionError(f"{path}: its setup was changed after it was written, and entry {entry.seq} ({entry.text}) "
                               f"cannot be restored with it ({reason}); nothing was changed: restore a backup, or put the "
                               "setup back as it was (its players, edition and variant)", key="repair_setup_unopenable",
                               path=path, seq=entry.seq, text=e.params["text"], reason=reason) from None
        raise SessionError(f"{path}: entry {entry.seq} ({entry.text}) cannot be restored ({reason}), so the file "
                           "accepted as it is could never be opened; nothing was changed: restore a backup, or put "
                           f"entry {entry.seq} back as it was", key="repair_unopenable", path=path, seq=entry.seq,
                           text=e.params["text"], reason=reason) from None


def snapshot_wrong(path: Path, setup: Setup, entries: Sequence[Entry], snap: snapshots.Snapshot | None,
                   problem: str | None) -> Said | str | None:
    """Why a checkpoint's snapshot cannot stand (``problem``: it failed its checks on reading; or it
    is not what its entries give: every entry followed), or None."""
    if problem is not None:
        return problem
    if snap is None:
        return None
    _state, _standing, wrong = follow_all(path, setup, entries, (snap.seq, snap.state, snap.standing))
    if wrong is None:
        return None
    return Said(f"the checkpoint's snapshot is wrong: {wrong.error}", "snapshot_wrong", error=wrong.error)


def _remake_snapshot(path: Path, loaded: Loaded) -> list[Said]:
    """Write FILE anew (the journal folded in) with a snapshot made from every entry, when its
    snapshot cannot stand (:func:`snapshot_wrong`); we hold the lock. Returns what was done."""
    entries = loaded.entries.materialize()
    wrong = snapshot_wrong(path, loaded.setup, entries, loaded.snapshot, loaded.snapshot_problem)
    if wrong is None:
        return []
    state, standing, _ = follow_all(path, loaded.setup, entries)
    last = loaded.last_sum if loaded.last_sum is not None else checksum.seed(loaded.doc.get("id"))
    table, index = entries_table(entries)
    doc = sealed_doc(loaded.doc, entries, loaded.last_sum)
    write_durably(path, checkpoint_document(doc, _snapshot_of(state, standing, len(entries), last, table, index), table,
                                            loaded.others))
    if loaded.journal is not None:
        _cut_journal(journal_path(path), loaded.journal_header_end)
    return [Said(f"{path}: {wrong}; made it anew from its entries ({len(entries)})", "repair_snapshot", path=path, wrong=wrong,
                 n=len(entries))]


def _cut_journal(jpath: Path, size: int) -> None:
    fd = os.open(jpath, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = ["SessionWriter", "repair", "snapshot_wrong"]
