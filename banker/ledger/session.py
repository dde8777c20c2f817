"""The session log: one game, one TinyDB file, every action durable before it is shown.

Layout next to ``FILE`` (see docs/session-log.md):

``FILE``
    A TinyDB JSON document: table ``session`` (doc 1: format marker, version, setup, the
    checkpoint's seal) and table ``entries`` (one doc per action, doc id = seq), every
    entry with its chained checksum (banker.ledger.checksum). Rewritten only by a
    checkpoint, atomically (temp file + fsync + rename + directory fsync).
``FILE.journal``
    The write-ahead journal: a header line, then one CRC-checked JSON line per action
    recorded since the last checkpoint, appended and fsynced before ``apply`` returns.
``FILE.lock``
    The writer's lock, with its pid and host (banker.ledger.lock).

A session file given through a symbolic link is resolved once: the journal, the lock and
the checkpoint's temp files are named after the real file, and the link stays a link.
Opening replays ``FILE`` then the journal through the rules engine. Damage (a complete
journal line that fails its check, an entry or setup that is not what its checksum was
made over) is reported and never dropped: such a session opens read-only until the
banker chooses (:func:`repair`).
"""

from __future__ import annotations

import functools
import gc
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from banker.boards import game_from_setup
from banker.rules import BoardError, GameState, Refused, Setup

from . import _engine_shim, checksum
from .journal import JOURNAL_FORMAT, Damaged, JournalCorrupt, Scan, encode_payload, frame, header_line, scan
from .lock import LockBusy, LockUnsafe, WriterLock, describe_holder, guard_journal
from .storage import AtomicJSONStorage, FileRefused, dumps, fsync_dir, is_temp_of, read_regular, write_all, write_durably

FORMAT = "banker-session"
#: 2: every entry and the setup carry checksums (1: none; still read, upgraded by the next writer)
VERSION = 2
SESSION_TABLE = "session"
ENTRIES_TABLE = "entries"
ENTRY_KEYS = ("seq", "ts", "command", "effects", "text", "info", "undoes")
#: the largest session file or journal banker reads (a 20,000-action game is about 9 MB)
MAX_FILE_BYTES = 64 * 2**20


class SessionError(Exception):
    """A session that cannot be created, opened or written: the message is one line
    saying what is wrong and what to do."""


@dataclass
class Damage:
    """Something found on open that is neither a crash leftover nor to be dropped silently."""

    #: "journal-line": a complete last journal line that fails its check;
    #: "entry": an entry that is not what its checksum was made over;
    #: "setup": the setup document likewise; "missing": entries gone from the end of FILE
    kind: str
    text: str  # one clause, saying what is damaged and what is known about it
    seq: int | None = None
    line: Damaged | None = None
    raw: bytes = b""  # journal-line: the bytes from the damaged line to the end of the journal


class SessionDamaged(SessionError):
    """A writer refused because the session is damaged: it can be opened read-only, and
    ``banker repair FILE`` resolves it once the banker has chosen."""

    def __init__(self, message: str, damage: list[Damage]) -> None:
        super().__init__(message)
        self.damage = damage


def journal_path(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


def resolve(path: str | os.PathLike[str]) -> Path:
    """The session file itself: a symbolic link is followed once, here, so that the journal,
    the lock and the checkpoint's temp files are named after the real file (a checkpoint's
    rename then replaces the real file, and the link stays a link)."""
    path = Path(path)
    if os.path.islink(path):
        return Path(os.path.realpath(path))
    return path


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
                 journal_ino: int | None, anchor: tuple[int, bytes] = (0, b""), damage: list[Damage] | None = None,
                 last_sum: int | None = None) -> None:
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
        self.damage: list[Damage] = damage or []
        #: the chained checksum after the last entry (None: a version 1 file, no checksums)
        self.last_sum = last_sum

    @property
    def version(self) -> int:
        return self.doc.get("version", 1)


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
    except RecursionError:
        raise _not_session(path, "its JSON is nested too deeply") from None
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


_CHANGED = "is not what its checksum was made over"


def _verify_file(path: Path, doc: dict[str, Any], entries: list[dict[str, Any]], damage: list[Damage]) -> int:
    """Check a version 2 FILE's checksums, noting each finding in ``damage``; returns the
    chained sum after its last entry."""
    setup_ok = checksum.parse(doc.get(checksum.SUM)) == _doc_sum(doc)
    if not setup_ok:
        damage.append(Damage("setup", f"its setup (edition, variant, players, house rules, name, times) {_CHANGED}: "
                                      "it was changed after it was written"))
    prev = checksum.seed(doc.get("id"))
    for entry in entries:
        prev = _verify_entry(entry, prev, damage)
    seal = doc.get(checksum.CHECKPOINT)
    if setup_ok and isinstance(seal, dict):
        held = seal.get("entries")
        if isinstance(held, int) and held > len(entries):
            first = len(entries) + 1
            span = f"entry {first} is" if held == first else f"entries {first}-{held} are"
            damage.append(Damage("missing", f"{span} missing from the end: its checkpoint held {held} entries, "
                                            f"the file holds {len(entries)}", seq=first))
        elif held != len(entries) or checksum.parse(seal.get("last")) != prev:
            damage.append(Damage("missing", f"its entries are not the {held} its checkpoint was made over "
                                            "(entries were removed or added)"))
    return prev


def _doc_sum(doc: dict[str, Any]) -> int | None:
    try:
        return checksum.doc_sum(doc)
    except (ValueError, TypeError, RecursionError):
        return None


def _verify_entry(entry: dict[str, Any], prev: int, damage: list[Damage], where: str = "") -> int:
    """Check one entry's chained sum; returns the sum the next entry chains on."""
    stored = checksum.parse(entry.get(checksum.SUM))
    try:
        computed = checksum.entry_sum(entry, prev)
    except (ValueError, TypeError, RecursionError):
        computed = None
    if stored is None or stored != computed:
        what = "has no checksum" if stored is None else _CHANGED
        damage.append(Damage("entry", f"entry {entry['seq']}{where} {what}", seq=entry["seq"]))
    return stored if stored is not None else (computed if computed is not None else prev)


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
        why = f"{lines.damaged.reason} on line 1" if lines.damaged else "no header line"
        raise SessionError(f"{jpath} is not a banker journal ({why}); both files were left untouched")
    header = lines.records[0]
    if header.get("format") != JOURNAL_FORMAT:
        raise SessionError(f"{jpath} is not a banker journal (no {JOURNAL_FORMAT!r} header); "
                           "both files were left untouched")
    if header.get("session") != doc.get("id"):
        raise SessionError(f"{jpath} belongs to another session than {path}; both files were left untouched "
                           "(move the journal away if this file is the session you want)")
    header_end = lines.ends[0]
    return Scan(records=lines.records[1:], ends=lines.ends[1:], end=lines.end, torn=lines.torn,
                damaged=lines.damaged), header_end


def _sig(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _read(path: Path, what: str) -> tuple[bytes, os.stat_result]:
    """A session file or journal, read safely (regular files only, size capped, never blocking)."""
    try:
        return read_regular(path, MAX_FILE_BYTES, nofollow=True)
    except FileRefused as e:
        raise SessionError(f"{e}; {what}") from None


def _damaged_line_text(jpath: Path, line: Damaged, raw: bytes, seq: int) -> str:
    size = line.end - line.start
    body = raw[9:size - 1] if size > 10 else b""
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        payload = None
    if isinstance(payload, dict) and isinstance(payload.get("text"), str):
        reads = f'it reads "{_clip(payload["text"])}" (its contents may be damaged too)'
    else:
        reads = "its contents cannot be read"
    return (f"{jpath.name}: its last line (line {line.line_no}, {size} bytes; it would be entry {seq}) is complete "
            f"but damaged ({line.reason}), so it is not a crash leftover; {reads}")


def _clip(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1] + "…"


@_no_gc
def _load(path: Path) -> _Loaded:
    """Read the journal, then FILE, and merge them into entries 1..n.

    Reading the journal first makes the pair consistent against a writer's checkpoint
    running meanwhile: the FILE read later holds at least every entry the journal read
    had lost to the checkpoint's truncation.
    """
    jpath = journal_path(path)
    untouched = "both files were left untouched"
    try:
        jdata: bytes | None
        jdata, jst = _read(jpath, untouched)
        jino: int | None = jst.st_ino
    except FileNotFoundError:
        jdata, jino = None, None
    except OSError as e:
        raise SessionError(f"cannot read {jpath}: {e.strerror}") from None
    try:
        raw, st = _read(path, "it was left untouched")
    except FileNotFoundError:
        raise SessionError(f"no session file {path}; `banker new {path} --players A,B` starts one") from None
    except IsADirectoryError:
        raise SessionError(f"{path} is a folder, not a session file") from None
    except OSError as e:
        raise SessionError(f"cannot read {path}: {e.strerror}") from None
    doc, setup, entries = _parse_file(path, raw)
    damage: list[Damage] = []
    sealed = doc["version"] >= 2
    last_sum = _verify_file(path, doc, entries, damage) if sealed else None
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
            if last_sum is not None:
                last_sum = _verify_entry(record, last_sum, damage, f" ({jpath.name} line {line_no})")
            anchor = (line_end, jdata[line_start:line_end])
            expected += 1
        if journal.damaged is not None:
            line = journal.damaged
            damage.insert(0, Damage("journal-line", _damaged_line_text(jpath, line, jdata[line.start:line.end], expected),
                                    seq=expected, line=line, raw=jdata[line.start:]))
    return _Loaded(doc, setup, entries, file_seq, journal, header_end, _sig(st), jino, anchor, damage, last_sum)


def _signatures(path: Path) -> tuple[Any, Any]:
    out = []
    for p in (path, journal_path(path)):
        try:
            out.append(_sig(os.stat(p)))
        except OSError:
            out.append(None)
    return out[0], out[1]


def _load_for_reader(path: Path) -> _Loaded:
    """:func:`_load` for a reader that holds no lock: a read that fails, or finds damage,
    while a writer changed the files under it (a checkpoint truncating the journal mid-read)
    is retried; a failure on files that did not change is final."""
    for attempt in range(8):
        before = _signatures(path)
        try:
            loaded = _load(path)
        except SessionError:
            if attempt == 7 or _signatures(path) == before:
                raise
        else:
            if not loaded.damage or attempt == 7 or _signatures(path) == before:
                return loaded
        time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass
class SessionRead:
    """A read-only look at a session without replaying it: see :func:`read_session`."""

    path: Path
    doc: dict[str, Any]
    setup: Setup
    entries: list[dict[str, Any]]
    damage: list[Damage]

    @property
    def damage_message(self) -> str | None:
        return damage_message(self.path, self.damage, explain_with=(self.setup, self.entries)) if self.damage else None


def read_session(path: str | os.PathLike[str]) -> SessionRead:
    """The setup document, the setup, every committed entry and any damage found, read-only
    and without replay (an entry after a damaged journal line is not there to read)."""
    path = resolve(path)
    loaded = _load_for_reader(path)
    return SessionRead(path, loaded.doc, loaded.setup, loaded.entries, loaded.damage)


def read_entries(path: str | os.PathLike[str]) -> tuple[Setup, list[dict[str, Any]]]:
    """The setup and every committed entry of a session, read-only and without replay."""
    loaded = _load_for_reader(resolve(path))
    return loaded.setup, loaded.entries


def read_session_doc(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The session's setup document (format, version, created, name, setup) and entries."""
    loaded = _load_for_reader(resolve(path))
    return loaded.doc, loaded.entries


# --------------------------------------------------------------------------- damage, explained
def _effect_change(logged: list[Any], computed: list[Any]) -> str:
    for i in range(max(len(logged), len(computed))):
        a = logged[i] if i < len(logged) else None
        b = computed[i] if i < len(computed) else None
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict) and a.get("t") == b.get("t"):
            keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
            said = ", ".join(f"{k} {_short(a.get(k))}" for k in keys)
            given = ", ".join(f"{_short(b.get(k))}" for k in keys)
            return f"its effect {i + 1} ({a.get('t')}) says {said} where the rules give {given}"
        if a is None:
            return f"it lists {len(logged)} effects where the rules give {len(computed)}"
        return f"its effect {i + 1} says {_short(a)} where the rules give {_short(b)}"
    return "its effects differ from the rules'"  # pragma: no cover


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _clip(text, 60)


def explain_changes(setup: Setup, entries: list[dict[str, Any]], seqs: Iterable[int]) -> dict[int, str]:
    """What is known about each changed entry in ``seqs``: the rules replay the log and say
    where the entry disagrees with them (its effects, its undo, its text) or that it agrees,
    so that the change is in what the rules cannot check (its time, notes or checksum)."""
    wanted = set(seqs)
    out: dict[int, str] = {}
    if not wanted:
        return out
    try:
        state = game_from_setup(setup)
    except (BoardError, Refused) as e:
        return {seq: f"(the rules cannot set up its game: {e})" for seq in wanted}
    for entry in entries:
        seq = entry["seq"]
        if seq > max(wanted):
            break
        try:
            move = _engine_shim.push(state, entry["command"], seq=seq)
        except Refused as e:
            if seq in wanted:
                out[seq] = f"its command is refused by the rules ({e}): its command was changed"
            return out | {s: "(not checked: an earlier entry no longer replays)" for s in wanted if s not in out}
        except Exception as e:  # a hand-edited command the engine chokes on
            if seq in wanted:
                out[seq] = f"its command cannot be run ({type(e).__name__}): its command was changed"
            return out | {s: "(not checked: an earlier entry no longer replays)" for s in wanted if s not in out}
        if seq not in wanted:
            continue
        if move.undoes != entry.get("undoes"):
            out[seq] = f"it says it undoes entry {entry.get('undoes')} where the rules undo entry {move.undoes}"
        elif move.effects != entry["effects"]:
            out[seq] = _effect_change(entry["effects"], move.effects)
        elif move.text != entry["text"]:
            out[seq] = f'its text reads "{_clip(entry["text"], 60)}" where the rules write "{_clip(move.text, 60)}"'
        else:
            out[seq] = ("its command, effects and text agree with the rules, so the change is in what they cannot "
                        "check (its time, notes or the checksum itself)")
    return out


def damage_message(path: Path, damage: list[Damage], explain_with: tuple[Setup, list[dict[str, Any]]] | None = None
                   ) -> str:
    """One line: what is damaged, what is known about it, and what the banker can do."""
    first = damage[0]
    text = first.text
    if first.kind == "entry" and explain_with is not None and first.seq is not None:
        why = explain_changes(explain_with[0], explain_with[1], [first.seq]).get(first.seq)
        if why:
            text = f"{text}: {why}"
    more = len(damage) - 1
    also = f" (and {more} more problem{'s' if more > 1 else ''}: `banker audit {path}` lists them)" if more else ""
    if first.kind == "journal-line":
        seq = first.seq
        todo = (f"`banker repair {path}` keeps the line aside in {journal_path(path).name}.damaged-{seq} and drops it "
                f"(entry {seq} is then lost)")
    else:
        todo = (f"restore a backup, or `banker repair {path} --accept-changes` keeps the file as it is now, "
                "the changes included")
    return (f"{path} is damaged: {text}{also}; nothing was changed and the session opens read-only until you choose: "
            f"{todo}")


def damage_lines(path: Path, damage: list[Damage], setup: Setup, entries: list[dict[str, Any]]) -> list[str]:
    """Every finding, one a line, with what is known about each changed entry."""
    why = explain_changes(setup, entries, [d.seq for d in damage if d.kind == "entry" and d.seq is not None])
    out = []
    for d in damage:
        line = d.text
        if d.kind == "entry" and d.seq in why:
            line = f"{line}: {why[d.seq]}"
        out.append(line)
    return out


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
            move = _engine_shim.push(state, entry["command"], replay=True, seq=seq)
        except Refused as e:
            raise SessionError(f"{path}: entry {seq} ({entry['text']}) no longer replays: {e}; "
                               "the file was left untouched") from None
        except Exception as e:  # a hand-edited command the engine chokes on
            raise SessionError(f"{path}: entry {seq} cannot be replayed ({type(e).__name__}: {e}); "
                               "the file was left untouched") from None
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
        #: what was found damaged on open (a read-only session only: a writer is refused)
        self.damage: list[Damage] = loaded.damage
        self.state = _game(path, loaded.setup)
        self._lock = lock
        self._jfd: int | None = None
        self._jsize = 0  # journal bytes that hold good lines (writer)
        self._header_end = loaded.journal_header_end
        self._file_seq = loaded.file_seq
        self._file_sig = loaded.file_sig
        self._jino = loaded.journal_ino
        self._anchor = loaded.anchor  # reader: where to read the journal on from
        self._last_sum = loaded.last_sum  # the chained checksum after the last entry (None: version 1)
        self._closed = False
        self._broken: str | None = None
        if trust_effects:
            self._restore(loaded.entries)
        else:
            self._replay(loaded.entries)

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(cls, path: str | os.PathLike[str], setup: Setup, name: str | None = None, *,
               created: str | None = None) -> Session:
        """Start a new session at ``path`` (which must not exist), open for writing; ``created``
        (an ISO 8601 time) stamps it instead of the clock (a game recorded from a script).

        All or nothing: if any step fails (a full disk, a failed fsync), every file this call
        made is removed again, so the same name can be created once the cause is fixed.
        """
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
        doc = _sealed({"format": FORMAT, "version": VERSION, "created": created or _now(), "id": os.urandom(16).hex(),
                       "name": name, **setup.to_mapping()}, [], None)
        try:  # from here on, whatever is at path or jpath was made by this call (we checked, and hold the lock)
            write_durably(path, _document(doc, []), replace=False)
            loaded = _load(path)
            session = cls(path, loaded, readonly=False, lock=lock)
            session._start_journal(loaded)
        except FileExistsError:
            lock.release(discard=True)
            raise SessionError(f"{path} already exists; choose another name or `banker open` it") from None
        except BaseException as e:
            _remove_made(path, jpath)
            lock.release(discard=True)
            if isinstance(e, OSError):
                raise SessionError(f"cannot create {path} ({_why(e)}); nothing was left behind: free some space or "
                                   "fix the folder, then create it again") from None
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

        A damaged session (:attr:`damage`) opens read-only only: a writer is refused with
        :class:`SessionDamaged`, whose message says what is damaged and how to resolve it.
        """
        path = resolve(path)
        if not os.path.lexists(path):
            raise SessionError(f"no session file {path}; `banker new {path} --players A,B` starts one")
        if path.is_dir():
            raise SessionError(f"{path} is a folder, not a session file")
        if readonly:
            return cls(path, _load_for_reader(path), readonly=True, trust_effects=trust_effects)
        lock = _acquire(path)
        try:
            loaded = _load(path)
            if loaded.damage:
                raise SessionDamaged(damage_message(path, loaded.damage, (loaded.setup, loaded.entries)), loaded.damage)
            session = cls(path, loaded, readonly=False, lock=lock, trust_effects=trust_effects)
        except BaseException:
            lock.release(discard=True)
            raise
        try:
            session._remove_stale_temp_files()
            session._start_journal(loaded)
            if loaded.version < VERSION:  # a version 1 file: seal every entry, so changes are found from now on
                session._seal_all()
                session.checkpoint(force=True)
            elif loaded.journal is not None and loaded.journal.records:
                session.checkpoint()
        except OSError as e:
            session._release()
            raise SessionError(f"cannot open {path} for writing ({_why(e)}); nothing was lost: every action is in "
                               f"{path.name} or {journal_path(path).name}; free some space or fix the folder's "
                               "permissions, or open it read-only") from None
        except SessionError as e:
            session._release()
            raise SessionError(f"cannot open {path} for writing: {e}") from None
        except BaseException:
            session._release()
            raise
        return session

    @property
    def damage_message(self) -> str | None:
        """One line about :attr:`damage` (None when there is none)."""
        if not self.damage:
            return None
        return damage_message(self.path, self.damage, (self.setup, self.entries))

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
                _engine_shim.restore(state, entry)
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
        """Writer: make sure the journal exists with its header, cut a torn tail, open it and
        lock it (on Linux and macOS: see :func:`banker.ledger.lock.guard_journal`)."""
        jpath = journal_path(self.path)
        if loaded.journal is None:
            header = header_line(self.info.get("id"))
            write_durably(jpath, header, replace=False)  # atomic, so the header is never torn; fsyncs the directory
            self._header_end = self._jsize = len(header)
        else:
            self._jsize = loaded.journal.end
        fd = os.open(jpath, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
        try:
            if not guard_journal(fd):
                raise SessionError(f"session {self.path.name} is open for writing by another process (its lock file "
                                   f"{self.path.name}.lock was removed or replaced while it ran); close it there "
                                   "first, or open it read-only")
            if loaded.journal is not None and loaded.journal.torn:
                os.ftruncate(fd, self._jsize)  # the action that was being written when it died
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        self._jfd = fd

    def _seal_all(self) -> None:
        """Give every entry its chained checksum (upgrading a version 1 session)."""
        prev = checksum.seed(self.info.get("id"))
        for entry in self.entries:
            entry.pop(checksum.SUM, None)
            prev = checksum.entry_sum(entry, prev)
            entry[checksum.SUM] = checksum.fmt(prev)
        self._last_sum = prev

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
            if self.damage:
                raise SessionError(f"session {self.path.name} is open read-only because it is damaged; nothing was "
                                   f"recorded (`banker repair {self.path}` resolves it)")
            raise SessionError(f"session {self.path.name} is open read-only; open it for writing to record actions")
        if self._broken:
            raise SessionError(self._broken)

    def apply(self, command: Mapping[str, Any], *, ts: str | None = None) -> dict[str, Any]:
        """Apply ``command`` and record it durably; returns the new log entry, stamped ``ts`` (an
        ISO 8601 time, for a game recorded from a script) or the clock's time.

        A command the rules refuse raises :class:`Refused` and writes nothing. When this
        returns, the entry is fsynced in the journal: it survives a crash at any later
        instant. A failed write or fsync raises :class:`SessionError` and records nothing.
        """
        self._check_writable()
        try:  # exactly what will be stored and replayed
            cmd = json.loads(json.dumps(command, allow_nan=False))
        except (TypeError, ValueError) as e:
            raise Refused("input", f"the command cannot be recorded as JSON ({e})") from None
        except RecursionError:
            raise Refused("input", "the command cannot be recorded as JSON (it is nested too deeply)") from None
        seq = len(self.entries) + 1
        move = _engine_shim.push(self.state, cmd, seq=seq)
        entry = {
            "seq": seq,
            "ts": ts or _now(),
            "command": move.command,
            "effects": move.effects,
            "text": move.text,
            "parts": move.parts,
            "info": move.info,
            "undoes": move.undoes,
        }
        try:
            entry = json.loads(encode_payload(entry))  # the dict exactly as stored (tuples become lists)
            chained = checksum.entry_sum(entry, self._last_sum)
            entry[checksum.SUM] = checksum.fmt(chained)
            body = encode_payload(entry)
        except (TypeError, ValueError, RecursionError) as e:  # pragma: no cover - an engine bug
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
                self._broken = (f"session {self.path.name} could not be written ({_why(e)}) and may hold a partial "
                                "line; close and reopen it (the partial line is dropped on open)")
            raise SessionError(f"could not record the action in {self.path.name}.journal ({_why(e)}); "
                               "nothing was recorded") from None
        self._jsize += len(line)
        self._last_sum = chained
        self.entries.append(entry)
        return entry

    def _take_back(self, move: _engine_shim.LegacyMove) -> None:
        """Undo ``move`` in memory only (its write failed)."""
        _engine_shim.take_back(self.state, move)

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
                doc = _sealed(self.info, self.entries, self._last_sum)
                # one TinyDB storage write: temp + fsync + rename + folder fsync, or it raises
                AtomicJSONStorage(self.path).write(_tables(doc, self.entries))
                self.info = doc
                self._file_seq = len(self.entries)
            if self._jsize > self._header_end:
                os.ftruncate(self._jfd, self._header_end)
                self._jsize = self._header_end  # cut, even if the fsync below fails
                os.fsync(self._jfd)
        except OSError as e:
            raise SessionError(f"could not fold the journal into {self.path.name} ({_why(e)}); nothing was lost: every "
                               f"action is kept in {self.path.name} or {journal_path(self.path).name}, and the next "
                               "open folds them in") from None

    def close(self) -> None:
        """Checkpoint (writer) and release the lock. Idempotent. A checkpoint that fails
        still releases the lock, then raises its :class:`SessionError`."""
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
            os.close(self._jfd)  # drops the journal's lock too
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
            self._last_sum = loaded.last_sum
            self.damage = loaded.damage
        self._replay(new)
        return new

    def _read_journal_tail(self) -> list[dict[str, Any]] | None:
        """The entries appended to the journal since the last look, or None when the
        quick way cannot be trusted (FILE rewritten by a checkpoint, journal truncated or
        replaced, a line that fails a check); the caller then reloads both files.

        The journal line holding the last entry known (the anchor) must still be where
        it was, byte for byte; lines after it must carry the next seqs in order.
        """
        jpath = journal_path(self.path)
        offset, anchor = self._anchor
        try:
            if _sig(os.stat(self.path)) != self._file_sig:
                return None
            data, st = read_regular(jpath, MAX_FILE_BYTES, nofollow=True, offset=offset - len(anchor))
            if st.st_ino != self._jino:
                return None
            if _sig(os.stat(self.path)) != self._file_sig:
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
        new = []
        start = len(anchor)
        last_sum = self._last_sum
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
            if last_sum is not None:
                found: list[Damage] = []
                last_sum = _verify_entry(record, last_sum, found)
                if found:
                    return None
            self._anchor = (offset + end - len(anchor), data[line_start:end])
            expected += 1
        self._last_sum = last_sum
        return new


def _why(e: OSError) -> str:
    return e.strerror or str(e)


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


def _acquire(path: Path) -> WriterLock:
    try:
        return WriterLock.acquire(path)
    except LockBusy as e:
        raise SessionError(describe_holder(path.name, e.holder)) from None
    except LockUnsafe as e:
        raise SessionError(f"cannot lock {path.name} for writing: {e}") from None
    except OSError as e:
        raise SessionError(f"cannot lock {path} for writing ({_why(e)}); is its folder writable?") from None


def _sealed(doc: dict[str, Any], entries: list[dict[str, Any]], last_sum: int | None) -> dict[str, Any]:
    """The setup document as a checkpoint writes it: version 2, the count and last sum of
    the entries it holds, and its own checksum."""
    out = {k: v for k, v in doc.items() if k not in (checksum.SUM, checksum.CHECKPOINT)}
    out["version"] = VERSION
    last = last_sum if last_sum is not None else checksum.seed(doc.get("id"))
    out[checksum.CHECKPOINT] = {"entries": len(entries), "last": checksum.fmt(last)}
    out[checksum.SUM] = checksum.fmt(checksum.doc_sum(out))
    return out


def _tables(doc: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {SESSION_TABLE: {"1": doc}, ENTRIES_TABLE: {str(e["seq"]): e for e in entries}}


def _document(doc: dict[str, Any], entries: list[dict[str, Any]]) -> bytes:
    return dumps(_tables(doc, entries))


# --------------------------------------------------------------------------- repair
def _aside_path(jpath: Path, seq: int | None) -> Path:
    base = jpath.with_name(f"{jpath.name}.damaged-{seq}")
    candidate, n = base, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate


def repair(path: str | os.PathLike[str], *, accept_changes: bool = False) -> list[str]:
    """Resolve a damaged session the way the banker chose; returns what was done, a line each.

    A damaged last journal line is kept aside, byte for byte, in ``FILE.journal.damaged-<n>``
    (``n``: the entry it would have been; written durably first), then cut from the journal.
    Changed entries, a changed setup or entries missing from the end are accepted only with
    ``accept_changes``: the checksums are then made anew over the file as it is now (and the
    journal folded into it). Takes the writer lock; nothing is written when there is no damage.
    """
    path = resolve(path)
    if not os.path.lexists(path):
        raise SessionError(f"no session file {path}")
    lock = _acquire(path)
    try:
        loaded = _load(path)
        if not loaded.damage:
            return [f"{path}: no damage found; nothing was changed"]
        line = next((d for d in loaded.damage if d.kind == "journal-line"), None)
        changes = [d for d in loaded.damage if d.kind != "journal-line"]
        if changes and not accept_changes:
            raise SessionError(f"{path}: {changes[0].text}; nothing was changed: restore a backup, or run `banker repair "
                               f"{path} --accept-changes` to keep the file as it is now")
        done = []
        jpath = journal_path(path)
        if line is not None and line.line is not None:
            aside = _aside_path(jpath, line.seq)
            write_durably(aside, line.raw, replace=False)
            _cut_journal(jpath, line.line.start)
            done.append(f"kept the damaged line aside in {aside.name} ({len(line.raw)} bytes) and dropped it from "
                        f"{jpath.name}: entry {line.seq} is not in the session, which now holds "
                        f"{len(loaded.entries)} entries")
        if changes:
            prev = checksum.seed(loaded.doc.get("id"))
            for entry in loaded.entries:
                entry.pop(checksum.SUM, None)
                prev = checksum.entry_sum(entry, prev)
                entry[checksum.SUM] = checksum.fmt(prev)
            doc = _sealed(loaded.doc, loaded.entries, prev)
            write_durably(path, _document(doc, loaded.entries))
            if loaded.journal is not None:
                _cut_journal(jpath, loaded.journal_header_end)
            seqs = [d.seq for d in changes if d.kind == "entry" and d.seq is not None]
            which = f" (entries {', '.join(map(str, seqs[:10]))}{'…' if len(seqs) > 10 else ''})" if seqs else ""
            done.append(f"accepted {path.name} as it is now{which}: its checksums were made anew over its "
                        f"{len(loaded.entries)} entries")
        return done
    except OSError as e:
        raise SessionError(f"could not repair {path} ({_why(e)}); the session is as it was, or with the damaged line "
                           "already kept aside; run the repair again") from None
    finally:
        lock.release()


def _cut_journal(jpath: Path, size: int) -> None:
    fd = os.open(jpath, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = ["FORMAT", "VERSION", "Damage", "Session", "SessionDamaged", "SessionError", "SessionRead", "damage_lines",
           "damage_message", "explain_changes", "journal_path", "read_entries", "read_session", "read_session_doc",
           "repair", "resolve"]
