"""The session log: one game, one TinyDB file, every action durable before it is shown.

Layout next to ``FILE`` (see docs/session-log.md):

``FILE``
    A TinyDB JSON document: table ``session`` (doc 1: format marker, version, setup)
    and table ``entries`` (one doc per action, doc id = seq). Rewritten only by a
    checkpoint, atomically (temp file + fsync + rename).
``FILE.journal``
    The write-ahead journal: a header line, then one CRC-checked JSON line per action
    recorded since the last checkpoint, appended and fsynced before ``apply`` returns.
``FILE.lock``
    The writer's ``flock``, with its pid and host.

Opening replays ``FILE`` then the journal through the rules engine.
"""

from __future__ import annotations

import functools
import gc
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from banker.rules import BoardError, GameState, Move, Refused, Setup, game_from_setup
from banker.rules.state import apply_effects

from .journal import JOURNAL_FORMAT, JournalCorrupt, Scan, encode_payload, frame, header_line, scan
from .lock import LockBusy, WriterLock, describe_holder
from .storage import AtomicJSONStorage, dumps, is_temp_of, write_all, write_durably

FORMAT = "banker-session"
VERSION = 1
SESSION_TABLE = "session"
ENTRIES_TABLE = "entries"
ENTRY_KEYS = ("seq", "ts", "command", "effects", "text", "info", "undoes")


class SessionError(Exception):
    """A session that cannot be created, opened or written: the message is one line
    saying what is wrong and what to do."""


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


def _no_gc(func: Callable) -> Callable:
    """Pause the cyclic garbage collector during a bulk load: reading and replaying a
    long session allocates many small containers, none of them cyclic garbage, and the
    collector's repeated full passes over them would make opening superlinear."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return wrapper


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# --------------------------------------------------------------------------- reading
class _Loaded:
    """One consistent read of a session: the setup doc and the entries 1..n."""

    def __init__(self, doc: dict[str, Any], setup: Setup, entries: list[dict[str, Any]], file_seq: int,
                 journal: Scan | None, journal_header_end: int, file_sig: tuple[int, int, int] | None,
                 journal_ino: int | None, anchor: tuple[int, bytes] = (0, b"")) -> None:
        self.doc = doc
        self.setup = setup
        self.entries = entries
        self.file_seq = file_seq  # entries 1..file_seq are in FILE
        self.journal = journal  # None: no journal file
        self.journal_header_end = journal_header_end
        self.file_sig = file_sig
        self.journal_ino = journal_ino
        #: (offset just after, bytes) of the journal line holding the last entry, or of
        #: the header when the last entry came from FILE: where a reader reads on from
        self.anchor = anchor


def _not_session(path: Path, why: str) -> SessionError:
    return SessionError(f"{path} is not a banker session ({why}); it was left untouched")


def _check_entry(where: str, entry: Any, seq: int) -> dict[str, Any]:
    # the common case, as fast as it can be checked (opening a long game checks thousands)
    if type(entry) is dict:
        get = entry.get
        undoes = get("undoes", False)
        if (type(get("seq")) is int and get("seq") == seq and type(get("ts")) is str and type(get("command")) is dict
                and type(get("effects")) is list and type(get("text")) is str and type(get("info")) is dict
                and (undoes is None or type(undoes) is int)):
            return entry
    if not isinstance(entry, dict):
        raise SessionError(f"{where}: entry {seq} is damaged (not a JSON object); the file was left untouched")
    problems = [k for k in ENTRY_KEYS if k not in entry]
    if not problems:
        types = {"seq": int, "ts": str, "command": dict, "effects": list, "text": str, "info": dict}
        problems = [k for k, t in types.items() if not isinstance(entry[k], t) or isinstance(entry[k], bool)]
        if entry["undoes"] is not None and (not isinstance(entry["undoes"], int) or isinstance(entry["undoes"], bool)):
            problems.append("undoes")
    if problems:
        raise SessionError(f"{where}: entry {seq} is damaged (bad or missing {', '.join(problems)}); "
                           "the file was left untouched")
    if entry["seq"] != seq:
        raise SessionError(f"{where}: entries are out of order (found seq {entry['seq']} where {seq} was expected); "
                           "the file was left untouched")
    return entry


def _parse_file(path: Path, raw: bytes) -> tuple[dict[str, Any], Setup, list[dict[str, Any]]]:
    if not raw.strip():
        raise _not_session(path, "the file is empty")
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise _not_session(path, "not UTF-8 text") from None
    except ValueError as e:
        raise _not_session(path, f"not JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get(SESSION_TABLE), dict):
        raise _not_session(path, "no session table")
    table = data[SESSION_TABLE]
    doc = table.get("1")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _not_session(path, f"no {FORMAT!r} format marker")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _not_session(path, f"bad format version {version!r}")
    if version > VERSION:
        raise SessionError(f"{path} was written by a newer banker (session format version {version}, this one reads "
                           f"up to {VERSION}); upgrade banker to open it")
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise SessionError(f"{path}: the setup's player list is damaged; the file was left untouched")
    try:
        setup = Setup.from_mapping(doc)
    except (KeyError, TypeError, ValueError) as e:
        raise SessionError(f"{path}: the setup is damaged ({e}); the file was left untouched") from None
    entries_table = data.get(ENTRIES_TABLE, {})
    if not isinstance(entries_table, dict):
        raise SessionError(f"{path}: the entries table is damaged; the file was left untouched")
    try:
        ids = sorted(int(k) for k in entries_table)
    except ValueError:
        raise SessionError(f"{path}: the entries table has a bad document id; the file was left untouched") from None
    if ids != list(range(1, len(ids) + 1)):
        present = set(ids)
        missing = next(i for i in range(1, len(ids) + 2) if i not in present)
        raise SessionError(f"{path}: entry {missing} is missing (entries must run 1..n without gaps); "
                           "the file was left untouched")
    entries = [_check_entry(str(path), entries_table[str(i)], i) for i in ids]
    return doc, setup, entries


def _read_journal(path: Path, jpath: Path, data: bytes, doc: dict[str, Any]) -> tuple[Scan, int]:
    """Scan the journal bytes: (its entry records, the header's end offset)."""
    try:
        lines = scan(data)
    except JournalCorrupt as e:
        if e.line_no == 1:
            raise SessionError(f"{jpath} is not a banker journal ({e.reason} on line 1); "
                               "both files were left untouched") from None
        raise SessionError(f"{jpath} is damaged at line {e.line_no} ({e.reason}) with later lines after it: not a crash "
                           "artefact; both files were left untouched (restore a backup, or move the journal away to "
                           "keep only the checkpointed actions)") from None
    if not lines.records:
        raise SessionError(f"{jpath} is not a banker journal (no header line); both files were left untouched")
    header = lines.records[0]
    if header.get("format") != JOURNAL_FORMAT:
        raise SessionError(f"{jpath} is not a banker journal (no {JOURNAL_FORMAT!r} header); "
                           "both files were left untouched")
    if header.get("session") != doc.get("id"):
        raise SessionError(f"{jpath} belongs to another session than {path}; both files were left untouched "
                           "(move the journal away if this file is the session you want)")
    header_end = lines.ends[0]
    return Scan(records=lines.records[1:], ends=lines.ends[1:], end=lines.end, torn=lines.torn), header_end


def _sig(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@_no_gc
def _load(path: Path) -> _Loaded:
    """Read the journal, then FILE, and merge them into entries 1..n.

    Reading the journal first makes the pair consistent against a writer's checkpoint
    running meanwhile: the FILE read later holds at least every entry the journal read
    had lost to the checkpoint's truncation.
    """
    jpath = journal_path(path)
    try:
        with open(jpath, "rb") as f:
            jino: int | None = os.fstat(f.fileno()).st_ino
            jdata: bytes | None = f.read()
    except FileNotFoundError:
        jdata, jino = None, None
    except OSError as e:
        raise SessionError(f"cannot read {jpath}: {e.strerror}") from None
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            raw = f.read()
    except FileNotFoundError:
        raise SessionError(f"no session file {path}; `banker new {path} --players A,B` starts one") from None
    except IsADirectoryError:
        raise SessionError(f"{path} is a directory, not a session file") from None
    except OSError as e:
        raise SessionError(f"cannot read {path}: {e.strerror}") from None
    doc, setup, entries = _parse_file(path, raw)
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
            if isinstance(seq, int) and not isinstance(seq, bool) and seq <= file_seq:
                continue  # checkpointed already: the crash fell between rename and truncate
            if seq != expected:
                raise SessionError(f"{jpath} line {line_no}: entry seq {seq!r} does not follow entry {expected - 1}; "
                                   "both files were left untouched")
            entries.append(_check_entry(f"{jpath} line {line_no}", record, expected))
            anchor = (line_end, jdata[line_start:line_end])
            expected += 1
    return _Loaded(doc, setup, entries, file_seq, journal, header_end, _sig(st), jino, anchor)


def _signatures(path: Path) -> tuple[Any, Any]:
    out = []
    for p in (path, journal_path(path)):
        try:
            out.append(_sig(os.stat(p)))
        except OSError:
            out.append(None)
    return out[0], out[1]


def _load_for_reader(path: Path) -> _Loaded:
    """:func:`_load` for a reader that holds no lock: a read that fails while a writer
    changed the files under it (a checkpoint truncating the journal mid-read) is
    retried; a failure on files that did not change is final."""
    for attempt in range(8):
        before = _signatures(path)
        try:
            return _load(path)
        except SessionError:
            if attempt == 7 or _signatures(path) == before:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def read_entries(path: str | os.PathLike[str]) -> tuple[Setup, list[dict[str, Any]]]:
    """The setup and every committed entry of a session, read-only and without replay."""
    loaded = _load_for_reader(Path(path))
    return loaded.setup, loaded.entries


def read_session_doc(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The session's setup document (format, version, created, name, setup) and entries."""
    loaded = _load_for_reader(Path(path))
    return loaded.doc, loaded.entries


def _game(path: Path, setup: Setup) -> GameState:
    try:
        return game_from_setup(setup)
    except BoardError as e:
        raise SessionError(f"{path}: cannot set up its game: {e}") from None
    except Refused as e:
        raise SessionError(f"{path}: its setup is refused by the rules: {e}") from None


def _replay_into(state: GameState, entries: Iterable[dict[str, Any]], divergent: list[int],
                 path: Path) -> list[dict[str, Any]]:
    """Push every entry's command onto ``state``, noting seqs whose effects differ from the log's."""
    out = []
    for entry in entries:
        seq = entry["seq"]
        try:
            move = state.push(entry["command"], replay=True)
        except Refused as e:
            raise SessionError(f"{path}: entry {seq} ({entry['text']}) no longer replays: {e}; "
                               "the file was left untouched") from None
        except Exception as e:  # a hand-edited command the engine chokes on
            raise SessionError(f"{path}: entry {seq} cannot be replayed ({type(e).__name__}: {e}); "
                               "the file was left untouched") from None
        if move.command.get("op") != "undo":
            move.seq = seq
        if move.effects != entry["effects"] or move.undoes != entry["undoes"]:
            divergent.append(seq)
        out.append(entry)
    return out


# --------------------------------------------------------------------------- the session
class Session:
    """A game's session log, open for writing (one writer, locked) or read-only.

    >>> s = Session.create("game.json", Setup("classic-us", "classic", ("Ann", "Bob")))  # doctest: +SKIP
    >>> s.apply({"op": "buy", "player": "Ann", "space": 39})["text"]                  # doctest: +SKIP
    'Ann buys Boardwalk for $400'
    """

    path: Path
    setup: Setup
    state: GameState
    entries: list[dict[str, Any]]
    readonly: bool

    def __init__(self, path: Path, loaded: _Loaded, readonly: bool, lock: WriterLock | None = None,
                 trust_effects: bool = False) -> None:
        self.path = path
        self.info: dict[str, Any] = loaded.doc  # the setup document as stored
        self.setup = loaded.setup
        self.readonly = readonly
        self.entries = []
        #: seqs whose replayed effects differ from the logged ones (an engine change)
        self.divergent: list[int] = []
        self.state = _game(path, loaded.setup)
        self._lock = lock
        self._jfd: int | None = None
        self._jsize = 0  # journal bytes that hold good lines (writer)
        self._header_end = loaded.journal_header_end
        self._file_seq = loaded.file_seq
        self._file_sig = loaded.file_sig
        self._jino = loaded.journal_ino
        self._anchor = loaded.anchor  # reader: where to read the journal on from
        self._closed = False
        self._broken: str | None = None
        if trust_effects:
            self._restore(loaded.entries)
        else:
            self._replay(loaded.entries)

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(cls, path: str | os.PathLike[str], setup: Setup, name: str | None = None) -> Session:
        """Start a new session at ``path`` (which must not exist), open for writing."""
        path = Path(path)
        if os.path.lexists(path):
            raise SessionError(f"{path} already exists; choose another name or `banker open` it")
        jpath = journal_path(path)
        if os.path.lexists(jpath):
            raise SessionError(f"{jpath} is left over from an earlier session; move it away or choose another name")
        if not path.parent.is_dir():
            raise SessionError(f"cannot create {path}: the folder {path.parent} does not exist")
        try:  # a setup the rules refuse raises Refused before any file is made
            setup = setup.for_new_game()  # today's rules for new players' names (NFC, no control characters...)
            game_from_setup(setup)
        except BoardError as e:
            raise SessionError(f"cannot create {path}: {e}") from None
        lock = _acquire(path)
        doc = {"format": FORMAT, "version": VERSION, "created": _now(), "id": os.urandom(16).hex(),
               "name": name, **setup.to_mapping()}
        try:
            write_durably(path, _document(doc, []), replace=False)
        except FileExistsError:
            lock.release(discard=True)
            raise SessionError(f"{path} already exists; choose another name or `banker open` it") from None
        except OSError as e:
            lock.release(discard=True)
            raise SessionError(f"cannot create {path}: {e.strerror}") from None
        try:
            loaded = _load(path)
            session = cls(path, loaded, readonly=False, lock=lock)
            session._start_journal(loaded)
        except BaseException:
            lock.release()
            raise
        return session

    @classmethod
    @_no_gc  # one pause for the whole load: no collection over the freshly read log half-way
    def open(cls, path: str | os.PathLike[str], readonly: bool = False, trust_effects: bool = False) -> Session:
        """Open an existing session: replays it; as the writer, recovers and checkpoints.

        Read-only sessions take no lock and never modify a file. With ``trust_effects`` the
        state is rebuilt from the logged effects instead of recomputing every command (several
        times faster: the console opens a long game this way, then runs :meth:`replay_check`
        in the background and adopts the engine's state (:meth:`adopt`) if they disagree).
        """
        path = Path(path)
        if not os.path.lexists(path):
            raise SessionError(f"no session file {path}; `banker new {path} --players A,B` starts one")
        if path.is_dir():
            raise SessionError(f"{path} is a directory, not a session file")
        if readonly:
            return cls(path, _load_for_reader(path), readonly=True, trust_effects=trust_effects)
        lock = _acquire(path)
        try:
            loaded = _load(path)
            session = cls(path, loaded, readonly=False, lock=lock, trust_effects=trust_effects)
        except BaseException:
            lock.release(discard=True)
            raise
        try:
            session._remove_stale_temp_files()
            session._start_journal(loaded)
            if loaded.journal is not None and loaded.journal.records:
                session.checkpoint()
        except OSError as e:
            session._release()
            raise SessionError(f"cannot open {path} for writing ({e.strerror}); check the folder's permissions and "
                               "free space, or open it read-only") from None
        except BaseException:
            session._release()
            raise
        return session

    @_no_gc
    def _replay(self, entries: Iterable[dict[str, Any]]) -> None:
        self.entries.extend(_replay_into(self.state, entries, self.divergent, self.path))

    @_no_gc
    def _restore(self, entries: Iterable[dict[str, Any]]) -> None:
        """Rebuild the state from the logged effects, without recomputing (see :meth:`open`)."""
        state = self.state
        out = self.entries
        for entry in entries:
            seq = entry["seq"]
            try:
                apply_effects(state, entry["effects"])
                if entry["command"].get("op") == "undo":
                    undone = state.history.pop()
                    if undone.seq != entry["undoes"]:
                        raise ValueError(f"it undoes entry {entry['undoes']}, but the last standing one is {undone.seq}")
                else:
                    state.history.append(Move(command=entry["command"], effects=entry["effects"], parts=entry["parts"],
                                              info=entry.get("info") or {}, seq=seq))
            except Exception as e:  # a hand-edited effect the state cannot take
                raise SessionError(f"{self.path}: entry {seq} ({entry.get('text', '')}) cannot be restored "
                                   f"({type(e).__name__}: {e}); the file was left untouched") from None
            out.append(entry)

    @_no_gc
    def replay_check(self, upto: int | None = None) -> tuple[GameState, list[int]]:
        """Recompute the first ``upto`` entries (default: all) through the engine, on a state
        of its own: returns that state and the seqs whose logged effects the engine would not
        produce today. Reads only entries already recorded, so it may run in a thread while
        the session goes on; raises :class:`SessionError` if a command no longer replays."""
        entries = self.entries[:upto] if upto is not None else list(self.entries)
        state = _game(self.path, self.setup)
        divergent: list[int] = []
        _replay_into(state, entries, divergent, self.path)
        return state, divergent

    def adopt(self, state: GameState, upto: int, divergent: list[int]) -> None:
        """Make the engine's replayed ``state`` (of the first ``upto`` entries) the session's,
        replaying whatever was recorded since; ``divergent`` becomes :attr:`divergent`."""
        _replay_into(state, self.entries[upto:], divergent, self.path)
        self.state = state
        self.divergent = divergent

    def _start_journal(self, loaded: _Loaded) -> None:
        """Writer: make sure the journal exists with its header, cut a torn tail, open it."""
        jpath = journal_path(self.path)
        if loaded.journal is None:
            header = header_line(self.info.get("id"))
            write_durably(jpath, header)  # atomic, so the header is never torn; fsyncs the directory
            self._header_end = self._jsize = len(header)
        else:
            self._jsize = loaded.journal.end
        fd = os.open(jpath, os.O_WRONLY | os.O_APPEND)
        try:
            if loaded.journal is not None and loaded.journal.torn:
                os.ftruncate(fd, self._jsize)  # the action that was being written when it died
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        self._jfd = fd

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

    # ------------------------------------------------------------------ properties
    @property
    def name(self) -> str:
        """The session's name as given at creation, else the file name without suffix."""
        return self.info.get("name") or self.path.stem

    @property
    def created(self) -> str | None:
        return self.info.get("created")

    @property
    def last_entry(self) -> dict[str, Any] | None:
        return self.entries[-1] if self.entries else None

    @property
    def closed(self) -> bool:
        return self._closed

    def __repr__(self) -> str:
        mode = "read-only" if self.readonly else "writer"
        return f"<Session {str(self.path)!r} {mode}, {len(self.entries)} entries>"

    # ------------------------------------------------------------------ writing
    def _check_writable(self) -> None:
        if self._closed:
            raise SessionError(f"session {self.path.name} is closed; open it again to go on")
        if self.readonly:
            raise SessionError(f"session {self.path.name} is open read-only; open it for writing to record actions")
        if self._broken:
            raise SessionError(self._broken)

    def apply(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Apply ``command`` and record it durably; returns the new log entry.

        A command the rules refuse raises :class:`Refused` and writes nothing. When this
        returns, the entry is fsynced in the journal: it survives a crash at any later
        instant.
        """
        self._check_writable()
        try:  # exactly what will be stored and replayed
            cmd = json.loads(json.dumps(command, allow_nan=False))
        except (TypeError, ValueError) as e:
            raise Refused("input", f"the command cannot be recorded as JSON ({e})") from None
        move = self.state.push(cmd)
        seq = len(self.entries) + 1
        if move.command.get("op") != "undo":
            move.seq = seq
        try:
            body = encode_payload({
                "seq": seq,
                "ts": _now(),
                "command": move.command,
                "effects": move.effects,
                "text": move.text,
                "parts": move.parts,
                "info": move.info,
                "undoes": move.undoes,
            })
        except (TypeError, ValueError) as e:  # pragma: no cover - an engine bug
            self._take_back(move)
            raise SessionError(f"the engine produced an entry that cannot be stored ({e}); nothing was recorded") from None
        line = frame(body)
        assert self._jfd is not None
        try:
            write_all(self._jfd, line)
            os.fsync(self._jfd)
        except OSError as e:
            self._take_back(move)
            try:
                os.ftruncate(self._jfd, self._jsize)
                os.fsync(self._jfd)
            except OSError:
                self._broken = (f"session {self.path.name} could not be written ({e.strerror}) and may hold a partial "
                                "line; close and reopen it (the partial line is dropped on open)")
            raise SessionError(f"could not record the action in {self.path.name}.journal ({e.strerror}); "
                               "nothing was recorded") from None
        self._jsize += len(line)
        entry = json.loads(body)  # the dict exactly as stored (tuples become lists)
        self.entries.append(entry)
        return entry

    def _take_back(self, move: Move) -> None:
        """Undo ``move`` in memory only (its write failed)."""
        if move.command.get("op") == "undo":
            redone = self.state.push(move.info["undone_command"], replay=True)
            redone.seq = move.undoes
        else:
            self.state.pop()

    def checkpoint(self) -> None:
        """Fold the journal into FILE (atomic rewrite) and empty the journal.

        A crash at any instant leaves FILE old or new, and the journal either still
        holding its lines (skipped on open when FILE already has them) or empty.
        """
        self._check_writable()
        assert self._jfd is not None
        if len(self.entries) > self._file_seq:
            AtomicJSONStorage(self.path).write(_tables(self.info, self.entries))
            self._file_seq = len(self.entries)
        if self._jsize > self._header_end:
            os.ftruncate(self._jfd, self._header_end)
            os.fsync(self._jfd)
            self._jsize = self._header_end

    def close(self) -> None:
        """Checkpoint (writer) and release the lock. Idempotent."""
        if self._closed:
            return
        try:
            if not self.readonly and not self._broken:
                self.checkpoint()
        finally:
            self._release()

    def _release(self) -> None:
        self._closed = True
        if self._jfd is not None:
            os.close(self._jfd)
            self._jfd = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ readers
    def refresh(self) -> list[dict[str, Any]]:
        """Read-only sessions: load the entries committed since the last look, replay
        them, and return them (a writer is always up to date: returns [])."""
        if not self.readonly or self._closed:
            return []
        new = self._read_journal_tail()
        if new is None:
            loaded = _load_for_reader(self.path)
            known = len(self.entries)
            if len(loaded.entries) < known or (known and loaded.entries[known - 1]["ts"] != self.entries[-1]["ts"]):
                raise SessionError(f"{self.path} no longer holds the actions shown here (was it replaced?); open it again")
            new = loaded.entries[known:]
            self._file_sig = loaded.file_sig
            self._jino = loaded.journal_ino
            self._anchor = loaded.anchor
        self._replay(new)
        return new

    def _read_journal_tail(self) -> list[dict[str, Any]] | None:
        """The entries appended to the journal since the last look, or None when the
        quick way cannot be trusted (FILE rewritten by a checkpoint, journal truncated or
        replaced); the caller then reloads both files.

        The journal line holding the last entry known (the anchor) must still be where
        it was, byte for byte; lines after it must carry the next seqs in order.
        """
        jpath = journal_path(self.path)
        offset, anchor = self._anchor
        try:
            if _sig(os.stat(self.path)) != self._file_sig:
                return None
            with open(jpath, "rb") as f:
                if os.fstat(f.fileno()).st_ino != self._jino:
                    return None
                f.seek(offset - len(anchor))
                data = f.read()
            if _sig(os.stat(self.path)) != self._file_sig:
                return None  # a checkpoint ran while we read
        except OSError:
            return None
        if not data.startswith(anchor):
            return None
        try:
            lines = scan(data, len(anchor))
        except JournalCorrupt:
            return None
        known = len(self.entries)
        expected = known + 1
        new = []
        start = len(anchor)
        for record, end in zip(lines.records, lines.ends, strict=True):
            line_start, start = start, end
            seq = record.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool) and seq <= known and not new:
                continue  # lines a checkpoint has not truncated yet
            if seq != expected:
                return None
            try:
                new.append(_check_entry(str(jpath), record, expected))
            except SessionError:
                return None
            self._anchor = (offset + end - len(anchor), data[line_start:end])
            expected += 1
        return new


def _acquire(path: Path) -> WriterLock:
    try:
        return WriterLock.acquire(path)
    except LockBusy as e:
        raise SessionError(describe_holder(path.name, e.holder)) from None
    except OSError as e:
        raise SessionError(f"cannot lock {path} for writing ({e.strerror}); is its folder writable?") from None


def _tables(doc: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {SESSION_TABLE: {"1": doc}, ENTRIES_TABLE: {str(e["seq"]): e for e in entries}}


def _document(doc: dict[str, Any], entries: list[dict[str, Any]]) -> bytes:
    return dumps(_tables(doc, entries))


__all__ = ["FORMAT", "VERSION", "Session", "SessionError", "journal_path", "read_entries", "read_session_doc"]
