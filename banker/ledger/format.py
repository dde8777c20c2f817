"""The session log's files, as the reader and the writer share them: their layout, parsing,
checksums and the typed log :class:`Entry`.

Layout next to ``FILE`` (see docs/session-log.md):

``FILE``
    A TinyDB JSON document: table ``session`` (doc 1: format marker, version, setup, the
    checkpoint's seal) and table ``entries`` (one doc per action, doc id = seq), every
    entry with its chained checksum (banker.ledger.checksum). Rewritten only by a
    checkpoint, atomically (temp file + fsync + rename + directory fsync).
``FILE.journal``
    The write-ahead journal: a header line, then one CRC-checked JSON line per action
    recorded since the last checkpoint, added and synced before ``apply`` returns (then the
    room made ahead for the next lines: NUL bytes, banker.ledger.journal).
``FILE.lock``
    The writer's lock, with its pid and host (banker.ledger.lock).

A session file given through a symbolic link is resolved once: the journal, the lock and
the checkpoint's temp files are named after the real file, and the link stays a link.
:func:`load` reads ``FILE`` then the journal into entries 1..n and checks their checksums.
Damage (a complete journal line that fails its check, an entry or setup that is not what its
checksum was made over) is reported and never dropped: such a session opens read-only until
the banker chooses (:func:`banker.ledger.writer.repair`).
"""

from __future__ import annotations

import errno
import functools
import gc
import json
import os
import threading
import time
import weakref
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeGuard, TypeVar, overload

import msgspec

from banker.rules import Setup
from banker.rules.messages import shown

from . import checksum
from . import snapshot as snapshots
from .journal import JOURNAL_FORMAT, Damaged, JournalCorrupt, Scan, lines_end, scan
from .said import Said, clip
from .storage import FileRefused, dumps, open_regular, read_regular

FORMAT = "banker-session"
#: 2: every entry and the setup carry checksums (1: none; still read, upgraded by the next writer)
VERSION = 2
SESSION_TABLE = "session"
ENTRIES_TABLE = "entries"
#: the keys every entry has (``parts`` and ``sum`` may be absent: entries of old version 1 files)
ENTRY_KEYS = ("seq", "ts", "command", "effects", "text", "info", "undoes")
#: the largest session file or journal banker reads (a 20,000-action game is about 9 MB)
MAX_FILE_BYTES = 64 * 2**20


def is_session_data(data: Any) -> bool:
    """Whether ``data`` (a JSON document) is a banker session file's: its ``session`` table's document 1 says the
    session format (what a script line, an export's target or a file read is told apart by)."""
    table = data.get(SESSION_TABLE) if isinstance(data, dict) else None
    doc = table.get("1") if isinstance(table, dict) else None
    return isinstance(doc, dict) and doc.get("format") == FORMAT

_P = ParamSpec("_P")
_R = TypeVar("_R")


class SessionError(Exception):
    """A session that cannot be created, opened or written: the message is one line
    saying what is wrong and what to do. ``key`` (of the catalogs' ``[session]`` table) and
    ``params`` say it again for the translator (``Translator.session``); ``str()`` stays English."""

    def __init__(self, message: str, *, key: str, **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params

    @classmethod
    def of(cls, said: Said) -> SessionError:
        return cls(said.text, key=said.key, **said.params)


class Damage(msgspec.Struct):
    """Something found on open that is neither a crash leftover nor to be dropped silently."""

    #: "journal-line": a complete last journal line that fails its check;
    #: "entry": an entry that is not what its checksum was made over;
    #: "setup": the setup document likewise; "missing": entries gone from the end of FILE
    kind: str
    text: str  # one clause, saying what is damaged and what is known about it
    seq: int | None = None
    line: Damaged | None = None
    raw: bytes = b""  # journal-line: the bytes from the damaged line to the end of the journal
    said: Said | None = None  # ``text`` for the translator

    def __post_init__(self) -> None:
        if self.said is None:
            self.said = Said(self.text, "damage_other", text=self.text)
        elif not self.said.text:
            self.said = Said(self.text, self.said.key, **self.said.params)


class SessionDamaged(SessionError):
    """A writer refused because the session is damaged: it can be opened read-only, and
    ``banker repair FILE`` resolves it once the banker has chosen."""

    def __init__(self, message: str, damage: list[Damage], *, key: str, **params: object) -> None:
        super().__init__(message, key=key, **params)
        self.damage = damage


# --------------------------------------------------------------------------- the log entry
class Entry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """One action of the log, exactly as stored (the fields in their stored order; an entry of
    an old version 1 file may lack ``parts`` and ``sum``, and stays without them).

    ``command`` is the command as recorded (a JSON object: the rules decode it when they replay
    it); ``effects`` every change it made, as JSON objects; ``parts`` its description as message
    JSONs; ``undoes`` the seq an undo entry took back (else None); ``sum`` its chained checksum.

    It also reads as the JSON object it is stored as (``entry["seq"]``, ``entry.get("parts")``),
    for code that takes log entries as mappings: the review in banker.rules, which cannot import
    the ledger.
    """

    seq: int
    ts: str
    command: dict[str, Any]
    effects: list[dict[str, Any]]
    text: str
    parts: list[dict[str, Any]] | msgspec.UnsetType = msgspec.UNSET
    info: dict[str, Any]
    undoes: int | None
    sum: str | msgspec.UnsetType = msgspec.UNSET

    @property
    def op(self) -> str | None:
        """The command's op (``"undo"`` for an undo entry)."""
        op = self.command.get("op")
        return op if isinstance(op, str) else None

    @property
    def is_undo(self) -> bool:
        return self.command.get("op") == "undo"

    def to_json(self) -> dict[str, Any]:
        """The entry as stored: a JSON object, its keys in their stored order (its values are the
        entry's own, not copies: read them, do not change them)."""
        out = msgspec.structs.asdict(self)
        if self.parts is msgspec.UNSET:
            del out["parts"]
        if self.sum is msgspec.UNSET:
            del out["sum"]
        return out

    def sealed(self, prev: int) -> tuple[Entry, int]:
        """This entry with its checksum made (chained on ``prev``), and that checksum."""
        body = self.to_json()
        body.pop(checksum.SUM, None)
        made = checksum.entry_sum(body, prev)
        return msgspec.structs.replace(self, sum=checksum.fmt(made)), made

    # -- read as a mapping -------------------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        if key in _FIELDS:
            value = getattr(self, key)
            if value is not msgspec.UNSET:
                return value
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key in _FIELDS:
            value = getattr(self, key)
            if value is not msgspec.UNSET:
                return value
        return default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in _FIELDS and getattr(self, key) is not msgspec.UNSET


_FIELDS = frozenset(Entry.__struct_fields__)


_MINIMAL: dict[str, Any] = {"seq": 1, "ts": "", "command": {}, "effects": [], "text": "", "info": {}, "undoes": None}


def _bad_entry(where: str, entry: Any, seq: int) -> SessionError:
    """Why a stored entry cannot be read (it failed the conversion to :class:`Entry`)."""
    if not isinstance(entry, dict):
        return SessionError(f"{where}: entry {seq} is damaged (not a JSON object); the file was left untouched",
                            key="entry_not_object", where=where, seq=seq)
    unknown = [k for k in entry if k not in Entry.__struct_fields__]
    if unknown:
        keys = ', '.join(map(repr, unknown))
        return SessionError(f"{where}: entry {seq} is damaged (unknown {keys}); the file was left untouched",
                            key="entry_unknown", where=where, seq=seq, keys=keys)
    problems = [k for k in ENTRY_KEYS if k not in entry]
    for key, value in entry.items():
        try:
            msgspec.convert({**_MINIMAL, key: value}, Entry)
        except msgspec.ValidationError:
            problems.append(key)
    keys = ', '.join(problems)
    return SessionError(f"{where}: entry {seq} is damaged (bad or missing {keys}); the file was left untouched",
                        key="entry_bad", where=where, seq=seq, keys=keys)


def to_entries(where: str, records: list[Any], first: int) -> list[Entry]:
    """Stored entries (JSON objects, seqs ``first``, ``first + 1``...) as :class:`Entry`; a
    damaged one or one out of order refuses the whole file (:class:`SessionError`)."""
    try:
        entries = msgspec.convert(records, list[Entry])
    except msgspec.ValidationError:
        for i, record in enumerate(records):
            try:
                msgspec.convert(record, Entry)
            except msgspec.ValidationError:
                raise _bad_entry(where, record, first + i) from None
        raise  # pragma: no cover - every record converts alone
    for i, entry in enumerate(entries):
        if entry.seq != first + i:
            raise SessionError(f"{where}: entries are out of order (found seq {entry.seq} where {first + i} was "
                               "expected); the file was left untouched", key="out_of_order", where=where, seq=entry.seq,
                               expected=first + i)
    return entries


def seal_entries(session_id: Any, entries: Iterable[Entry]) -> tuple[list[Entry], int]:
    """``entries`` with their checksums made anew from the start of the chain, and the last sum."""
    prev = checksum.seed(session_id)
    out = []
    for entry in entries:
        entry, prev = entry.sealed(prev)
        out.append(entry)
    return out, prev


# --------------------------------------------------------------------------- the entries in memory
#: reading more entries than this at once decodes the whole table (one call is cheaper than many)
_BULK = 256


class _Command(msgspec.Struct):
    """Only a command's op (the rest of it skipped, never decoded)."""

    op: Any = "?"


class _Brief(msgspec.Struct):
    """Only what an entry is and what it undoes (see :meth:`Entries.briefs`)."""

    command: _Command
    undoes: int | None = None


_BRIEF = msgspec.json.Decoder(_Brief)


def cannot_read(path: Path, e: OSError) -> SessionError:
    """What a read of ``path`` that failed says (why, in the banker's language for the usual reasons); one this user may
    not read says what to do about it."""
    if e.errno in (errno.EACCES, errno.EPERM):
        return SessionError(f"cannot read {path}: {e.strerror}; this user may not read it (`ls -l` shows who may): fix "
                            "its permissions, or run banker as the user who owns it", key="cannot_read_denied", path=path,
                            reason=why(e))
    return SessionError(f"cannot read {path}: {e.strerror}", key="cannot_read", path=path, reason=why(e))


def closed_error(path: Path) -> SessionError:
    """What using a session that was closed says."""
    return SessionError(f"session {path.name} is closed; open it again to go on", key="closed", name=path.name)


class TableChanged(SessionError):
    """FILE's entries, left on the disk when the session was opened (:class:`FileTable`), are not the bytes its
    checkpoint sealed: the file was changed after it was written."""


class FileTable:
    """FILE's entries table as its checkpoint wrote it, left on the disk when the session was opened
    (:func:`load` with ``defer_table``): the entries read before the whole of it are read alone, from
    the file that was opened (kept open: a checkpoint that replaced it since changes nothing here);
    :meth:`whole` reads it all and checks it against the CRC-32 the checkpoint recorded, as the quick
    way in otherwise does before the session opens (issue #14: 9 MB at 20,000 actions, read and summed
    while the console started, cost its first frame a sixth of an empty app's start)."""

    __slots__ = ("__weakref__", "_bytes", "_changed", "_fd", "_let_go", "_lock", "_passed", "crc", "path", "size", "start")

    def __init__(self, path: Path, fd: int, start: int, size: int, crc: int) -> None:
        self.path = path
        self._fd: int | None = fd
        #: the file let go when the table is dropped without :meth:`close` (a reader nobody closed)
        self._let_go = weakref.finalize(self, os.close, fd)
        self.start = start  # where the table starts in the file
        self.size = size
        self.crc = crc
        self._bytes: memoryview | None = None
        self._changed = False
        self._passed = False  # read through and found the checkpoint's by :meth:`check` (not kept)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self.size

    @property
    def checked(self) -> bool:
        """Whether the whole table was read and found to be the checkpoint's."""
        return self._bytes is not None

    def __getitem__(self, part: slice) -> bytes | memoryview:
        with self._lock:
            if self._bytes is not None:
                return self._bytes[part]
            start, stop, _ = part.indices(self.size)
            return self._read(start, stop) if stop > start else b""

    def _read(self, start: int, stop: int) -> bytes:
        """The table's bytes ``start..stop`` (fewer if the file was cut short meanwhile)."""
        if self._fd is None:
            raise closed_error(self.path)
        chunks = []
        at = start
        while at < stop:
            chunk = os.pread(self._fd, stop - at, self.start + at)
            if not chunk:
                break
            chunks.append(chunk)
            at += len(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def whole(self) -> memoryview:
        """The whole table, read once and checked against the checkpoint's CRC-32 (:class:`TableChanged` if it
        is not the checkpoint's; the file is let go either way)."""
        with self._lock:
            if self._bytes is None:
                if self._changed:
                    raise self._not_sealed()
                try:
                    data = self._read(0, self.size)
                except OSError as e:  # the file kept: read again at the next need
                    raise cannot_read(self.path, e) from None
                self._close()
                if len(data) != self.size or zlib.crc32(data) != self.crc:
                    self._changed = True
                    raise self._not_sealed()
                self._bytes = memoryview(data)
            return self._bytes

    def check(self) -> None:
        """The whole table read through, a piece at a time, and checked against the checkpoint's CRC-32 without
        being kept (:class:`TableChanged` if it is not the checkpoint's, and the file is let go); the file stays
        open for the entries read later. A reader does so as it opens: 9 MB at 20,000 actions read into one new
        buffer cost more than the check itself (issue #14), and a piece is read into memory already in use."""
        with self._lock:
            if self._bytes is not None or self._passed:
                return
            if self._changed:
                raise self._not_sealed()
            if self._fd is None:
                raise closed_error(self.path)
            crc = 0
            at = 0
            try:
                while at < self.size:
                    piece = os.pread(self._fd, min(CHECK_READ, self.size - at), self.start + at)
                    if not piece:
                        break
                    crc = zlib.crc32(piece, crc)
                    at += len(piece)
            except OSError as e:  # the file kept: checked again at the next need
                raise cannot_read(self.path, e) from None
            if at != self.size or crc != self.crc:
                self._changed = True
                self._close()
                raise self._not_sealed()
            self._passed = True

    def close(self) -> None:
        """Let the file go (its entries not read by then cannot be read any more)."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._fd is not None:
            self._let_go()  # closes it, once
            self._fd = None

    def _not_sealed(self) -> TableChanged:
        return TableChanged(f"{self.path}: its entries are not what its last checkpoint sealed (the file was changed "
                            "after it was written); nothing more is recorded in it: open it again, and it opens "
                            "read-only, saying which entries changed", key="table_changed", path=self.path)


#: how much of a table left on the disk :meth:`FileTable.check` reads at a time (a piece small enough for the
#: allocator to hand the same memory back each time)
CHECK_READ = 1 << 16

#: a table in memory, or left on the disk
Table = bytes | memoryview | FileTable


def whole_table(table: Table) -> bytes | memoryview:
    """``table``'s bytes: a table left on the disk read (and checked) now."""
    return table.whole() if isinstance(table, FileTable) else table


def _part(table: Table, start: int, end: int) -> bytes | memoryview:
    """``table[start:end]``, never copied when it is in memory."""
    return table[start:end] if isinstance(table, FileTable) else memoryview(table)[start:end]


class Entries(Sequence[Entry]):
    """Entries 1..n: the first ``count`` (FILE's, from a checkpoint's bytes ``table`` and ``index``)
    decoded when read, the rest (the journal's, new ones) held as they are."""

    __slots__ = ("_items", "_table", "_index", "_lazy", "_lock")

    def __init__(self, entries: Iterable[Entry] = (), *, table: Table = b"", index: Sequence[int] = (),
                 count: int = 0) -> None:
        self._items: list[Entry | None] = [None] * count
        self._items.extend(entries)
        self._table: Table = table  # a view of the file's bytes read (never copied), or the table left on the disk
        self._index = index
        self._lazy = count
        self._lock = threading.Lock()

    @property
    def pending(self) -> int:
        """How many of FILE's entries are not decoded yet."""
        return self._lazy

    def _decode(self, i: int) -> Entry | None:
        """Entry ``i + 1`` decoded from the table alone (its bytes: after its key, to the next one's
        comma), or None when the index does not say where it is."""
        seq = i + 1
        start = self._index[i] + len(f'"{seq}":') + 1
        end = self._index[i + 1] if i + 1 < len(self._index) else len(self._table) - 1
        try:
            entry = msgspec.json.decode(_part(self._table, start, end), type=Entry)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        return entry if entry.seq == seq else None

    def _all(self) -> None:
        """Decode every entry of the table not decoded yet: one by one, so that a thread doing it
        (the background check) never holds the interpreter for long; the whole table at once if
        the index does not fit it."""
        table = self._table
        count = len(self._index)
        for i in range(count):
            if self._items[i] is None:
                entry = self._decode(i)
                if entry is None:
                    return self._bulk(table, count)
                self._items[i] = entry
        self._settle(count)

    def _bulk(self, table: Table, count: int) -> None:
        try:
            decoded = msgspec.json.decode(whole_table(table), type=dict[str, Entry])
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise SessionError(f"the checkpoint's entries cannot be read ({e}); open the session again",
                               key="checkpoint_unreadable", reason=str(e)) from None
        entries = [decoded.get(str(seq)) for seq in range(1, count + 1)]
        if len(decoded) != count or any(e is None or e.seq != i + 1 for i, e in enumerate(entries)):
            raise SessionError("the checkpoint's entries are not entries 1..n in order; open the session again",
                               key="checkpoint_order")
        for i, entry in enumerate(entries):
            if self._items[i] is None:
                self._items[i] = entry
        self._settle(count)

    def _settle(self, count: int) -> None:
        with self._lock:
            self._lazy = self._items[:count].count(None)
            if not self._lazy:
                self._table = b""

    def _get(self, i: int) -> Entry:
        entry = self._items[i]
        if entry is None:
            entry = self._decode(i)
            if entry is None:
                self._bulk(self._table, len(self._index))
                found = self._items[i]
                assert found is not None
                return found
            with self._lock:
                if self._items[i] is None:
                    self._items[i] = entry
                    self._lazy -= 1
                    if not self._lazy:
                        self._table = b""
        return entry

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> Entry: ...

    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...

    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            positions = range(len(self._items))[i]
            if self._lazy and len(positions) > _BULK:
                self._all()
            return [self._get(k) for k in positions]
        return self._get(range(len(self._items))[i])

    def __iter__(self) -> Iterator[Entry]:
        if self._lazy:
            self._all()
        return (self._get(i) for i in range(len(self._items)))

    def briefs(self) -> list[tuple[Any, int | None]]:
        """Each entry's op (``"?"`` for a command without one) and the seq it undoes (or None), in order: the
        entries not decoded yet are read for these two alone (much quicker than decoding them; a review's first
        frame of a long log needs no more). Nothing is decoded or kept by it."""
        out: list[tuple[Any, int | None]] = []
        table = memoryview(whole_table(self._table)) if self._lazy else memoryview(b"")
        for i, entry in enumerate(self._items):
            if entry is None:
                seq = i + 1
                start = self._index[i] + len(f'"{seq}":') + 1
                end = self._index[i + 1] if i + 1 < len(self._index) else len(table) - 1
                try:
                    brief = _BRIEF.decode(table[start:end])
                except (msgspec.DecodeError, msgspec.ValidationError):
                    entry = self._get(i)  # as the entry itself is read (or refused)
                else:
                    out.append((brief.command.op, brief.undoes))
                    continue
            out.append((entry.command.get("op", "?"), entry.undoes))
        return out

    def head(self, n: int) -> Entries:
        """Entries 1..n (FILE's: still decoded when read)."""
        out = Entries(table=self._table, index=self._index)
        out._items = self._items[:n]
        out._lazy = out._items.count(None)
        if not out._lazy:
            out._table = b""
        return out

    def after(self, n: int) -> list[Entry]:
        """The entries after the first ``n`` (the journal's: decoded already)."""
        out = self._items[n:]
        if any(e is None for e in out):
            return self[n:]
        return out  # type: ignore[return-value]

    def materialize(self) -> list[Entry]:
        """Every entry, decoded (a plain list)."""
        return list(self)

    def append(self, entry: Entry) -> None:
        self._items.append(entry)

    def extend(self, entries: Iterable[Entry]) -> None:
        self._items.extend(entries)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Entries | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Entries: {len(self._items)}, {self._lazy} not decoded yet>"


# --------------------------------------------------------------------------- paths, helpers
def journal_path(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


def resolve(path: str | os.PathLike[str]) -> Path:
    """The session file itself: a symbolic link is followed once, here, so that the journal,
    the lock and the checkpoint's temp files are named after the real file (a checkpoint's
    rename then replaces the real file, and the link stays a link)."""
    path = Path(path)
    if os.path.islink(path):
        try:
            return Path(os.path.realpath(path, strict=True))
        except OSError as e:
            if e.errno == errno.ELOOP:  # said so (it read "is a symbolic link", as if links were refused)
                loop = FileRefused(f"{path} is a symbolic link that leads back to itself (a loop)", key="file_link_loop",
                                   path=path)
                what = Said("it was left untouched", "it_untouched")
                raise SessionError(f"{loop}; {what}", key="refused_file", reason=loop, what=what) from None
            return Path(os.path.realpath(path))  # dangling: said where it is read ("no session file ...")
    return path


def no_gc(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """Pause the cyclic garbage collector during a bulk load: reading and restoring a
    long session allocates many small containers, none of them cyclic garbage, and the
    collector's repeated full passes over them would make opening superlinear."""

    @functools.wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return wrapper


#: the last whole second :func:`now` wrote, and how it wrote it (up to the fraction): one per second is enough
_SECOND: tuple[int, str] = (-1, "")


def now() -> str:
    """The time now in UTC to the millisecond, as ``datetime.now(UTC).isoformat(timespec="milliseconds")``
    writes it ("2024-05-01T18:22:04.123+00:00"; the fraction cut, not rounded), the date and time of day
    made once a second (every recorded entry is stamped)."""
    global _SECOND
    second, fraction = divmod(time.time_ns(), 1_000_000_000)
    made = _SECOND  # one tuple, read once: another thread may stamp an entry too
    if made[0] != second:
        made = _SECOND = (second, datetime.fromtimestamp(second, UTC).replace(tzinfo=None).isoformat(timespec="seconds"))
    return f"{made[1]}.{fraction // 1_000_000:03d}+00:00"


#: the system's reasons a banker meets (a full disk, a folder made read-only...), by errno: said in the banker's
#: language (the catalogs' ``[session]`` table, ``os_`` and the name); any other in the system's own words
SAID_ERRNOS = ("ENOSPC", "EDQUOT", "EACCES", "EPERM", "EROFS", "EIO", "ENOENT", "EFBIG", "ENAMETOOLONG", "ENOTDIR",
               "EISDIR")


def why(e: OSError) -> str:
    """Why an OS call failed, as the system says it (``No space left on device``): a :class:`Said` the translator
    says in the banker's language for the usual reasons (:data:`SAID_ERRNOS`)."""
    text = e.strerror or str(e)
    name = errno.errorcode.get(e.errno or 0, "")
    return Said(text, f"os_{name}") if name in SAID_ERRNOS else text


# --------------------------------------------------------------------------- reading
class Loaded(msgspec.Struct):
    """One consistent read of a session: the setup doc and the entries 1..n."""

    doc: dict[str, Any]
    setup: Setup
    entries: Entries
    file_seq: int  # entries 1..file_seq are in FILE
    journal: Scan | None  # None: no journal file
    journal_header_end: int
    file_sig: tuple[int, int, int] | None
    journal_ino: int | None
    #: (offset just after, bytes) of the journal line holding the last entry, or of
    #: the header when the last entry came from FILE: where a reader reads on from
    anchor: tuple[int, bytes] = (0, b"")
    damage: list[Damage] = msgspec.field(default_factory=list)
    #: the chained checksum after the last entry (None: a version 1 file, no checksums)
    last_sum: int | None = None
    #: the checkpoint's snapshot, checked against the entries 1..file_seq (None: none to use)
    snapshot: snapshots.Snapshot | None = None
    #: why the file's snapshot is not used, when it has one that fails its checks (never silent:
    #: the background check and the audit report it)
    snapshot_problem: str | None = None
    #: FILE's entries table as the checkpoint wrote it (or left on the disk: :class:`FileTable`) and its index,
    #: when read the quick way (a writer's next checkpoint appends to it instead of encoding every entry again)
    file_table: tuple[Table, Sequence[int]] | None = None
    #: FILE's tables that are not banker's (added with TinyDB: its ``_default``...), which every write of FILE
    #: keeps as they are
    others: dict[str, Any] = msgspec.field(default_factory=dict)

    @property
    def version(self) -> int:
        version = self.doc.get("version", 1)
        return version if isinstance(version, int) else 1


def _not_session(path: Path, why: Said) -> SessionError:
    return SessionError(f"{path} is not a banker session ({why}); it was left untouched", key="not_session", path=path,
                        why=why)


def _decode(raw: bytes) -> tuple[Any, bool]:
    """A session file's JSON, and whether it was strict JSON (see :func:`checksum.has_entry_sum`):
    msgspec's decoder first (several times faster), else ``json.loads``, whose errors say what
    is wrong (and which reads what msgspec refuses: NaN, a lone surrogate, UTF-16...)."""
    try:
        return msgspec.json.decode(raw), True
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return json.loads(raw), False


def _check_doc(path: Path, data: Any) -> tuple[dict[str, Any], Setup]:
    """The setup document of a decoded session file, and its setup; :class:`SessionError` if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get(SESSION_TABLE), dict):
        raise _not_session(path, Said("no session table", "why_no_table"))
    table = data[SESSION_TABLE]
    doc = table.get("1")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        marker = shown(FORMAT)  # a file's words are said as JSON writes them, as a script's are ("banker-session")
        raise _not_session(path, Said(f"no {marker} format marker", "why_no_marker", marker=marker))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        said = shown(version)  # as the file writes it: "9" (a text), 1.5, null; never Python's '9' and None
        raise _not_session(path, Said(f"bad format version {said}", "why_bad_version", version=said))
    if version > VERSION:
        raise SessionError(f"{path} was written by a newer banker (session format version {version}, this one reads "
                           f"up to {VERSION}); upgrade banker to open it", key="newer", path=path, version=version,
                           known=VERSION)
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise SessionError(f"{path}: the setup's player list is damaged; the file was left untouched", key="players_damaged",
                           path=path)
    try:
        setup = Setup.from_mapping(doc)
    except (KeyError, TypeError, ValueError) as e:
        raise SessionError(f"{path}: the setup is damaged ({e}); the file was left untouched", key="setup_damaged", path=path,
                           reason=str(e)) from None
    return doc, setup


def _others(data: dict[str, Any]) -> dict[str, Any]:
    """A session file's tables that are not banker's (a table added with TinyDB, such as its ``_default``):
    kept as they are, and written back by every checkpoint (before the entries table, which ends the file)."""
    return {k: v for k, v in data.items() if k not in (SESSION_TABLE, snapshots.TABLE, ENTRIES_TABLE)}


def _parse_file(path: Path, raw: bytes) -> tuple[dict[str, Any], Setup, list[dict[str, Any]], bool, Any,
                                                 dict[str, Any]]:
    if not raw.strip():
        raise _not_session(path, Said("the file is empty", "why_empty"))
    try:
        data, strict = _decode(raw)
    except UnicodeDecodeError:
        raise _not_session(path, Said("not UTF-8 text", "why_not_utf8")) from None
    except ValueError as e:  # json's own words replaced by ours: where it stops being JSON
        line, col = (e.lineno, e.colno) if isinstance(e, json.JSONDecodeError) else (1, 1)
        raise _not_session(path, Said(f"not JSON: it stops being JSON at line {line}, column {col}", "why_not_json",
                                      line=line, column=col)) from None
    except RecursionError:
        raise _not_session(path, Said("its JSON is nested too deeply", "why_too_deep")) from None
    doc, setup = _check_doc(path, data)
    entries_table = data.get(ENTRIES_TABLE, {})
    if not isinstance(entries_table, dict):
        raise SessionError(f"{path}: the entries table is damaged; the file was left untouched", key="entries_damaged",
                           path=path)
    try:
        ids = sorted(int(k) for k in entries_table)
    except ValueError:
        raise SessionError(f"{path}: the entries table has a bad document id; the file was left untouched",
                           key="entries_bad_id", path=path) from None
    if ids != list(range(1, len(ids) + 1)):
        present = set(ids)
        missing = next(i for i in range(1, len(ids) + 2) if i not in present)
        raise SessionError(f"{path}: entry {missing} is missing (entries must run 1..n without gaps); "
                           "the file was left untouched", key="entry_missing", path=path, seq=missing)
    return doc, setup, [entries_table[str(i)] for i in ids], strict, data.get(snapshots.TABLE), _others(data)


_ENTRIES_KEY = b',"entries":'


class _Quick(msgspec.Struct):
    doc: dict[str, Any]
    setup: Setup
    snapshot: snapshots.Snapshot
    #: FILE's entries table: a view of the bytes read, not a copy (9 MB at 20,000 entries), or left on the disk
    table: memoryview | FileTable
    others: dict[str, Any]  # the tables that are not banker's (:func:`_others`)


def _head(raw: bytes, size: int | None = None) -> tuple[dict[str, Any], snapshots.Snapshot, int] | None:
    """The tables before the entries (decoded alone: the entries' bytes are not even scanned), the
    snapshot, and where the entries table starts; None when the file is not laid out so (the
    first ``,"entries":`` that ends a JSON document of a session and a snapshot, whose entries
    table runs to the last byte but one). ``raw`` may be the file's first bytes only: ``size``
    is then the whole file's."""
    size = len(raw) if size is None else size
    pos = raw.find(_ENTRIES_KEY)
    for _ in range(8):  # a player named "entries" puts the key in the snapshot too: the next one
        if pos < 0:
            return None
        start = pos + len(_ENTRIES_KEY)
        try:
            head = msgspec.json.decode(raw[:pos] + b"}")
        except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
            head = None
        if (isinstance(head, dict) and isinstance(head.get(SESSION_TABLE), dict)
                and isinstance(head.get(snapshots.TABLE), dict)):
            snap = snapshots.parse(head[snapshots.TABLE])
            if not isinstance(snap, str) and snap.table[0] == size - 1 - start and snap.table[0] >= 2:
                return head, snap, start
        pos = raw.find(_ENTRIES_KEY, pos + 1)
    return None


def _quick(path: Path, raw: bytes) -> _Quick | None:
    """The quick way in, for a file a checkpoint wrote with its snapshot and not changed since: the
    setup document and the snapshot decoded, the entries table left as bytes (its length and CRC-32
    those the snapshot recorded, so every entry in it is one the checkpoint sealed). None when any
    of that does not hold: then :func:`load` reads and checks every entry."""
    found = _sealed_head(path, _head(raw))
    if found is None:
        return None
    doc, setup, snap, start, others = found
    end = len(raw) - 1
    table = memoryview(raw)[start:end]
    if raw[end:] != b"}" or zlib.crc32(table) != snap.table[1]:
        return None
    return _Quick(doc, setup, snap, table, others)


def _sealed_head(path: Path, found: tuple[dict[str, Any], snapshots.Snapshot, int] | None) -> (
        tuple[dict[str, Any], Setup, snapshots.Snapshot, int, dict[str, Any]] | None):
    """The setup document, the setup, the snapshot, where the entries table starts and the tables that are not
    banker's, of a head (:func:`_head`) whose setup and seal are a checkpoint's of today's version; else None."""
    if found is None:
        return None
    head, snap, start = found
    try:
        doc, setup = _check_doc(path, {SESSION_TABLE: head[SESSION_TABLE]})
    except SessionError:
        return None
    if doc.get("version") != VERSION:
        return None
    seal = doc.get(checksum.CHECKPOINT)
    if (checksum.parse(doc.get(checksum.SUM)) != _doc_sum(doc) or not isinstance(seal, dict)
            or seal.get("entries") != snap.seq or checksum.parse(seal.get("last")) != checksum.parse(snap.last)):
        return None
    return doc, setup, snap, start, _others(head)


#: the first read of a file opened with its entries left on the disk: its head (the setup and the snapshot, whose
#: index holds a number per entry) fits at 20,000 actions; a longer one is read on, four times as much each time
HEAD_READ = 1 << 18


def _quick_on_disk(path: Path) -> tuple[_Quick, os.stat_result] | None:
    """:func:`_quick` reading only the file's head and its last byte: the entries table is left on the disk
    (:class:`FileTable`: read, and checked against its CRC-32, when it is needed). None when the file is not
    such a checkpoint's, or cannot be read so: :func:`load` then reads it whole, and says what is wrong."""
    try:
        fd, st = open_regular(path, MAX_FILE_BYTES, nofollow=True)
    except (FileRefused, OSError):
        return None
    kept = False
    try:
        size = st.st_size
        if size < 2:
            return None
        want = HEAD_READ
        while True:
            raw = os.pread(fd, min(want, size), 0)
            found = _sealed_head(path, _head(raw, size))
            if found is not None or len(raw) >= size or len(raw) < min(want, size):
                break
            want *= 4
        if found is None or os.pread(fd, 2, size - 1) != b"}":
            return None
        doc, setup, snap, start, others = found
        table = FileTable(path, fd, start, size - 1 - start, snap.table[1])
        kept = True
        return _Quick(doc, setup, snap, table, others), st
    except OSError:
        return None
    finally:
        if not kept:
            os.close(fd)


CHANGED = "is not what its checksum was made over"


def _verify_file(doc: dict[str, Any], records: list[dict[str, Any]], damage: list[Damage], strict_json: bool) -> int:
    """Check a version 2 FILE's checksums over its stored entries (as read, every key counted),
    noting each finding in ``damage``; returns the chained sum after its last entry."""
    setup_ok = checksum.parse(doc.get(checksum.SUM)) == _doc_sum(doc)
    if not setup_ok:
        damage.append(Damage("setup", f"its setup (edition, variant, players, house rules, name, times) {CHANGED}: "
                                      "it was changed after it was written", said=Said("", "damage_setup")))
    prev = checksum.seed(doc.get("id"))
    for record in records:
        prev = verify_entry(record, prev, damage, strict_json=strict_json)
    seal = doc.get(checksum.CHECKPOINT)
    if setup_ok and isinstance(seal, dict):
        held = seal.get("entries")
        if isinstance(held, int) and held > len(records):
            first = len(records) + 1
            span = f"entry {first} is" if held == first else f"entries {first}-{held} are"
            damage.append(Damage("missing", f"{span} missing from the end: its checkpoint held {held} entries, "
                                            f"the file holds {len(records)}", seq=first,
                                 said=Said("", "damage_missing_one" if held == first else "damage_missing", first=first,
                                           last=held, n=held, count=len(records))))
        elif held != len(records) or checksum.parse(seal.get("last")) != prev:
            damage.append(Damage("missing", f"its entries are not the {held} its checkpoint was made over "
                                            "(entries were removed or added)", said=Said("", "damage_not_held", n=held)))
    return prev


def _doc_sum(doc: dict[str, Any]) -> int | None:
    try:
        return checksum.doc_sum(doc)
    except (ValueError, TypeError, RecursionError):
        return None


def verify_entry(record: dict[str, Any], prev: int, damage: list[Damage], where: str = "", *,
                 strict_json: bool = False) -> int:
    """Check one stored entry's chained sum; returns the sum the next entry chains on."""
    stored = checksum.parse(record.get(checksum.SUM))
    if stored is not None and checksum.has_entry_sum(record, prev, stored, strict_json=strict_json):
        return stored
    computed: int | None
    try:
        computed = checksum.entry_sum(record, prev)
    except (ValueError, TypeError, RecursionError):
        computed = None
    if stored is None or stored != computed:
        what = "has no checksum" if stored is None else CHANGED
        said = Said("", "damage_no_sum" if stored is None else "damage_entry", seq=record["seq"], where=where)
        damage.append(Damage("entry", f"entry {record['seq']}{where} {what}", seq=record["seq"], said=said))
    return stored if stored is not None else (computed if computed is not None else prev)


def _read_journal(path: Path, jpath: Path, data: bytes, doc: dict[str, Any]) -> tuple[Scan, int]:
    """Scan the journal bytes: (its entry records, the header's end offset)."""
    try:
        lines = scan(data)
    except JournalCorrupt as e:
        if e.line_no == 1:
            raise SessionError(f"{jpath} is not a banker journal ({e.reason} on line 1); "
                               "both files were left untouched", key="journal_bad_first", journal=jpath,
                               reason=e.reason) from None
        raise SessionError(f"{jpath} is damaged at line {e.line_no} ({e.reason}) with later lines after it: not a crash "
                           "artefact; both files were left untouched (restore a backup, or move the journal away to "
                           "keep only the checkpointed actions)", key="journal_damaged", journal=jpath, line=e.line_no,
                           reason=e.reason) from None
    if not lines.records:
        if lines.damaged:
            raise SessionError(f"{jpath} is not a banker journal ({lines.damaged.reason} on line 1); both files were left "
                               "untouched", key="journal_bad_first", journal=jpath, reason=lines.damaged.reason)
        if not data.strip(b"\0"):  # nothing in it but (room's) zeros: no action can be in it
            raise SessionError(f"{jpath} is empty: it holds no action, so nothing is lost by removing it; remove it and "
                               "open the session again (both files were left untouched)", key="journal_empty", journal=jpath)
        raise SessionError(f"{jpath} is not a banker journal (no header line); both files were left untouched",
                           key="journal_no_header", journal=jpath)
    header = lines.records[0]
    if header.get("format") != JOURNAL_FORMAT:
        marker = shown(JOURNAL_FORMAT)
        raise SessionError(f"{jpath} is not a banker journal (no {marker} header); both files were left untouched",
                           key="journal_no_marker", journal=jpath, marker=marker)
    if header.get("session") != doc.get("id"):
        raise SessionError(f"{jpath} belongs to another session than {path}; both files were left untouched "
                           "(move the journal away if this file is the session you want)", key="journal_other",
                           journal=jpath, path=path)
    header_end = lines.ends[0]
    return Scan(records=lines.records[1:], ends=lines.ends[1:], end=lines.end, torn=lines.torn,
                damaged=lines.damaged), header_end


def sig(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _read(path: Path, what: Said) -> tuple[bytes, os.stat_result]:
    """A session file or journal, read safely (regular files only, size capped, never blocking)."""
    try:
        return read_regular(path, MAX_FILE_BYTES, nofollow=True)
    except FileRefused as e:
        raise SessionError(f"{e}; {what}", key="refused_file", reason=e, what=what) from None  # e: keyed, said likewise


def _damaged_line_text(jpath: Path, line: Damaged, raw: bytes, seq: int) -> Said:
    size = line.end - line.start
    body = raw[9:size - 1] if size > 10 else b""
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        payload = None
    if isinstance(payload, dict) and isinstance(payload.get("text"), str):
        reads = Said(f'it reads "{clip(payload["text"])}" (its contents may be damaged too)', "line_reads",
                     text=clip(payload["text"]))
    else:
        reads = Said("its contents cannot be read", "line_unreadable")
    return Said(f"{jpath.name}: its last line (line {line.line_no}, {size} bytes; it would be entry {seq}) is complete "
                f"but damaged ({line.reason}), so it is not a crash leftover; {reads}", "damage_line", journal=jpath.name,
                line=line.line_no, size=size, seq=seq, reason=line.reason, reads=reads)


def is_seq(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@no_gc
def load(path: Path, *, defer_table: bool = False, check_table: bool = False) -> Loaded:
    """Read the journal, then FILE, and merge them into entries 1..n, checking every checksum.

    Reading the journal first makes the pair consistent against a writer's checkpoint
    running meanwhile: the FILE read later holds at least every entry the journal read
    had lost to the checkpoint's truncation.

    With ``defer_table``, a FILE that a checkpoint wrote is read only as far as its snapshot: its
    entries table stays on the disk (:class:`FileTable`), and is checked against its CRC-32 when it
    is first needed whole, or by :meth:`FileTable.whole` (the console does so just after its first
    frame; a writer before it records anything). When the journal holds entries to fold in, the
    table is checked at once, and a table that is not the checkpoint's is read the full way, as
    without ``defer_table``.

    With ``check_table`` too (a reader's), a table left on the disk is checked at once, read through
    without being kept (:meth:`FileTable.check`), and the journal's entries are not folded into it.
    """
    left: list[FileTable] = []  # a table left on the disk: its file let go if the session does not open
    try:
        return _load(path, defer_table, left, check_table)
    except BaseException:
        for table in left:
            table.close()
        raise


def _load(path: Path, defer_table: bool, left: list[FileTable], check_table: bool = False) -> Loaded:
    jpath = journal_path(path)
    untouched = Said("both files were left untouched", "both_untouched")
    jdata: bytes | None
    jino: int | None
    try:
        jdata, jst = _read(jpath, untouched)
        jino = jst.st_ino
    except FileNotFoundError:
        jdata, jino = None, None
    except OSError as e:
        raise cannot_read(jpath, e) from None
    on_disk = _quick_on_disk(path) if defer_table else None
    quick: _Quick | None
    try:
        if on_disk is not None:
            quick, st = on_disk
            if isinstance(quick.table, FileTable):
                left.append(quick.table)
                if check_table:
                    try:
                        quick.table.check()
                    except TableChanged:  # not the checkpoint's: read the full way, which says what changed
                        return _load(path, False, left)
        else:
            raw, st = _read(path, Said("it was left untouched", "it_untouched"))
            quick = _quick(path, raw)
    except FileNotFoundError:
        raise SessionError(f"no session file {path}; `banker new {path} --players A,B` starts one", key="missing",
                           path=path) from None
    except IsADirectoryError:
        raise SessionError(f"{path} is a folder, not a session file", key="folder", path=path) from None
    except OSError as e:
        raise cannot_read(path, e) from None
    damage: list[Damage] = []
    snap: snapshots.Snapshot | None = None
    problem: str | None = None
    file_table: tuple[Table, Sequence[int]] | None = None
    if quick is not None:  # the checkpoint's own bytes: its snapshot, the entries decoded when read
        doc, setup, snap, others = quick.doc, quick.setup, quick.snapshot, quick.others
        entries = Entries(table=quick.table, index=snap.index, count=snap.seq)
        last_sum = checksum.parse(snap.last)
        file_table = (quick.table, snap.index)
    else:  # every entry read and its checksum checked
        doc, setup, records, strict, stored_snap, others = _parse_file(path, raw)
        entries = Entries(to_entries(str(path), records, 1))
        sealed = doc["version"] >= 2
        last_sum = _verify_file(doc, records, damage, strict) if sealed else None
        if stored_snap is not None:
            parsed = snapshots.parse(stored_snap)
            problem = parsed if isinstance(parsed, str) else snapshots.fits(parsed, len(records), last_sum)
            if problem is None and not damage and isinstance(parsed, snapshots.Snapshot):
                snap = parsed
    file_seq = len(entries)
    journal = None
    header_end = 0
    anchor = (0, b"")
    if jdata is not None:
        journal, header_end = _read_journal(path, jpath, jdata, doc)
        anchor = (header_end, jdata[:header_end])
        expected = file_seq + 1
        start = header_end
        for i, record in enumerate(journal.records):
            seq = record.get("seq")
            line_no = i + 2
            line_end = journal.ends[i]
            line_start, start = start, line_end
            if is_seq(seq) and seq <= file_seq:
                continue  # checkpointed already: the crash fell between rename and truncate
            if seq != expected:
                said = shown(seq)
                raise SessionError(f"{jpath} line {line_no}: entry seq {said} does not follow entry {expected - 1}; "
                                   "both files were left untouched", key="journal_seq", journal=jpath, line=line_no,
                                   seq=said, previous=expected - 1)
            entries.extend(to_entries(f"{jpath} line {line_no}", [record], expected))
            if last_sum is not None:
                last_sum = verify_entry(record, last_sum, damage, f" ({jpath.name} line {line_no})")  # where: names only
            anchor = (line_end, jdata[line_start:line_end])
            expected += 1
        if journal.damaged is not None:
            line = journal.damaged
            said = _damaged_line_text(jpath, line, jdata[line.start:line.end], expected)
            raw = jdata[line.start:lines_end(jdata, line.start)]  # with a torn tail after it, not the room made ahead
            damage.insert(0, Damage("journal-line", said.text, seq=expected, line=line, raw=raw, said=said))
    if (isinstance(file_table, tuple) and isinstance(file_table[0], FileTable) and len(entries) > file_seq
            and not check_table):
        # the journal's entries are folded in as the session opens: the table is read now, as the fold reads it
        try:
            file_table[0].whole()
        except TableChanged:  # not the checkpoint's: read the full way, which says what changed
            return _load(path, False, left)
    return Loaded(doc, setup, entries, file_seq, journal, header_end, sig(st), jino, anchor, damage, last_sum, snap, problem,
                  file_table, others)


def _signatures(path: Path) -> tuple[tuple[int, int, int] | None, tuple[int, int, int] | None]:
    out: list[tuple[int, int, int] | None] = []
    for p in (path, journal_path(path)):
        try:
            out.append(sig(os.stat(p)))
        except OSError:
            out.append(None)
    return out[0], out[1]


def load_for_reader(path: Path, *, on_disk: bool = False) -> Loaded:
    """:func:`load` for a reader that holds no lock: a read that fails, or finds damage,
    while a writer changed the files under it (a checkpoint truncating the journal mid-read)
    is retried; a failure on files that did not change is final. ``on_disk``: a checkpoint's
    entries table is checked and left on the disk (:meth:`FileTable.check`), for a reader that
    reads a few entries, not all (``banker state``)."""
    for attempt in range(8):
        before = _signatures(path)
        try:
            loaded = load(path, defer_table=on_disk, check_table=on_disk)
        except SessionError:
            if attempt == 7 or _signatures(path) == before:
                raise
        else:
            if not loaded.damage or attempt == 7 or _signatures(path) == before:
                return loaded
        time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def check_path(path: Path) -> None:
    """Refuse a session path that names nothing or a folder, before any lock is taken."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        raise SessionError(f"no session file {path}; `banker new {path} --players A,B` starts one", key="missing",
                           path=path) from None
    except OSError as e:  # a folder on the way that cannot be entered: not "no such file"
        raise cannot_read(path, e) from None
    if path.is_dir():
        raise SessionError(f"{path} is a folder, not a session file", key="folder", path=path)


# --------------------------------------------------------------------------- writing FILE
def sealed_doc(doc: dict[str, Any], entries: Sequence[Entry], last_sum: int | None) -> dict[str, Any]:
    """The setup document as a checkpoint writes it: version 2, the count and last sum of
    the entries it holds, and its own checksum."""
    out = {k: v for k, v in doc.items() if k not in (checksum.SUM, checksum.CHECKPOINT)}
    out["version"] = VERSION
    last = last_sum if last_sum is not None else checksum.seed(doc.get("id"))
    out[checksum.CHECKPOINT] = {"entries": len(entries), "last": checksum.fmt(last)}
    out[checksum.SUM] = checksum.fmt(checksum.doc_sum(out))
    return out


def tables(doc: dict[str, Any], entries: Sequence[Entry], others: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole TinyDB document: the setup, the tables that are not banker's (kept as they were), and every
    entry (doc id = seq)."""
    return {SESSION_TABLE: {"1": doc}, **(others or {}), ENTRIES_TABLE: {str(e.seq): e.to_json() for e in entries}}


def document(doc: dict[str, Any], entries: Sequence[Entry], others: Mapping[str, Any] | None = None) -> bytes:
    return dumps(tables(doc, entries, others))


def entries_table(entries: Iterable[Entry], base: tuple[Table, Sequence[int]] | None = None) -> tuple[bytes, list[int]]:
    """FILE's entries table as bytes (``{"1":{...},"2":{...}}``, as TinyDB reads it) and its index
    (where each entry's key starts, less one: the ``{`` or ``,`` before it); ``base`` is such a
    table already written, which ``entries`` (the next ones) extend (one left on the disk is read,
    and checked, now: :class:`TableChanged` if it is not the checkpoint's)."""
    chunks: list[bytes | memoryview] = []
    index: list[int] = []
    pos = 0
    if base is not None and base[1]:
        table, index = whole_table(base[0]), list(base[1])
        chunks.append(table[:-1])
        pos = len(table) - 1
    for entry in entries:
        chunk = b"%s\"%d\":%s" % (b"," if index else b"{", entry.seq, dumps(entry.to_json()))
        index.append(pos)
        chunks.append(chunk)
        pos += len(chunk)
    if not index:
        return b"{}", []
    chunks.append(b"}")
    return b"".join(chunks), index


def checkpoint_document(doc: dict[str, Any], snapshot: dict[str, Any] | None, table: bytes,
                        others: Mapping[str, Any] | None = None) -> bytes:
    """The whole TinyDB document a checkpoint writes: the setup, the snapshot, the tables that are not
    banker's (as they were read), then the entries table (last, so that :func:`load` finds its bytes at the
    end of the file)."""
    snap = b',"%s":{"1":%s}' % (snapshots.TABLE.encode(), dumps(snapshot)) if snapshot is not None else b""
    kept = b"".join(b",%s:%s" % (dumps(name), dumps(value)) for name, value in (others or {}).items())
    return b'{"%s":{"1":%s}%s%s,"%s":%s}' % (SESSION_TABLE.encode(), dumps(doc), snap, kept, ENTRIES_TABLE.encode(), table)


__all__ = ["CHANGED", "ENTRY_KEYS", "FORMAT", "MAX_FILE_BYTES", "VERSION", "Damage", "Entries", "Entry", "FileTable",
           "Loaded", "Said", "SessionDamaged", "SessionError", "Table", "TableChanged", "check_path", "checkpoint_document",
           "clip", "closed_error", "document", "entries_table",
           "is_seq", "journal_path", "load", "load_for_reader", "no_gc", "now", "resolve", "seal_entries", "sealed_doc",
           "sig", "tables", "to_entries", "verify_entry", "why", "is_session_data"]
