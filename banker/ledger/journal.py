"""The write-ahead journal ``<FILE>.journal``: one line per recorded action.

A line is ``<crc32 as 8 hex digits> <payload JSON>\\n``; the CRC covers exactly the
payload bytes. The first line is a header naming the session the journal belongs to;
every further line is one log entry. A line that was being written when the process
died has no newline yet (each line is one ``write``, newline last) and is only ever the
last one: that is a torn tail, a crash leftover. A complete line (with its newline) that
fails its CRC or JSON check is damage, never a crash leftover: it is reported, not dropped
(a last line with NUL bytes in it excepted, below).

The journal may end in NUL bytes: room the writer made ahead of the next lines (written as zeros and
fsynced), so that recording an action overwrites bytes already on the disk and its sync has the data
alone to flush, not the file's new size (what a database does with its write-ahead log). They are no
line: the journal's lines end where they begin. A line the writer was overwriting them with when the
process died is a torn tail, as above; and so is a last line with NUL bytes in it, newline and all: the
pages of one write reach the disk each on its own, so a power cut before the line's sync can keep its end
and not its start (zeros there still), and a reader reading while the line is written can see the same.
A line never holds a NUL byte (its JSON escapes every control character, its CRC is hex digits), so such
a line was never acknowledged; one with complete lines after it cannot be a crash leftover (each line is
synced before the next is written) and is damage.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import msgspec

from .said import Said

JOURNAL_FORMAT = "banker-journal"
JOURNAL_VERSION = 1


class JournalCorrupt(Exception):
    """A damaged line that is not the last one: not a crash artefact, so refuse."""

    def __init__(self, line_no: int, reason: str) -> None:
        super().__init__(f"line {line_no}: {reason}")
        self.line_no = line_no
        self.reason = reason


def encode_payload(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def _refuse_float(_text: str) -> Any:
    raise ValueError("a float")


#: msgspec's JSON, written and read back: several times faster than ``json``'s, and the same bytes (the same
#: insertion order, separators, escapes: every character as UTF-8 but ``"``, ``\\`` and the controls below
#: U+0020, tests/test_ledger_encoding.py checks every code point) for a value of strings, whole numbers,
#: true/false/null, lists and objects with text keys, and nothing else: a float is spelled otherwise
#: ("1e16" where json writes "1e+16"), NaN written as null. So :func:`encode_stored` only takes msgspec's
#: bytes after reading them back without a float to a value equal to the one given.
_FAST_ENCODE = msgspec.json.Encoder()
_FAST_DECODE = msgspec.json.Decoder()
_DECODE_NO_FLOAT = msgspec.json.Decoder(float_hook=_refuse_float)
_FAST_ERRORS = (TypeError, ValueError, OverflowError, RecursionError, msgspec.MsgspecError)


def encode_stored(payload: Any) -> tuple[bytes, Any, bool]:
    """``encode_payload(payload)``, the JSON those bytes hold (``json.loads`` of them: tuples become lists,
    keys text) and whether it is *plain*: no float anywhere (then :func:`banker.ledger.checksum.stored_sum`
    may take msgspec's canonical bytes). Raises what ``encode_payload`` raises for what JSON cannot hold.

    The quick way (msgspec) is taken only when it is exactly the slow one: its bytes read back, with no
    float, to a value equal to ``payload``; anything else (a float, NaN, a tuple, a key that is not text, a
    type msgspec writes and ``json`` refuses, a number of over 4,300 digits) goes the slow way."""
    try:
        body = _FAST_ENCODE.encode(payload)
        stored = _DECODE_NO_FLOAT.decode(body)
        if stored == payload:
            return body, stored, True
    except _FAST_ERRORS:
        pass
    body = encode_payload(payload)
    return body, json.loads(body), False


def json_copy(value: Any) -> Any:
    """``json.loads(json.dumps(value, allow_nan=False))``: a copy of ``value`` as JSON holds it. The quick way
    (msgspec) where it is the same: its bytes read back to a value equal to ``value`` (a float is written
    the shortest way that reads back to the same bits, -0.0 included; NaN, a tuple, a key that is not text,
    a type ``json`` refuses all read back to something unequal, and go the slow way). Raises what ``json``
    raises (TypeError, ValueError, RecursionError)."""
    try:
        copy = _FAST_DECODE.decode(_FAST_ENCODE.encode(value))
        if copy == value:
            return copy
    except _FAST_ERRORS:
        pass
    return json.loads(json.dumps(value, allow_nan=False))


def frame(body: bytes) -> bytes:
    """A journal line around an encoded payload."""
    return b"%08x " % zlib.crc32(body) + body + b"\n"


def header_line(session_id: str | None) -> bytes:
    return frame(encode_payload({"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "session": session_id}))


def decode_line(line: bytes) -> Any:
    """The payload of one complete line (without its newline); ValueError if damaged, its reason a :class:`Said`
    (said in the banker's language inside the sentence that names the line)."""
    if len(line) < 10 or line[8:9] != b" ":
        raise ValueError(Said("not a journal line", "journal_not_line"))
    try:
        crc = int(line[:8], 16)
    except ValueError:
        raise ValueError(Said("not a journal line", "journal_not_line")) from None
    body = line[9:]
    if zlib.crc32(body) != crc:
        raise ValueError(Said("checksum mismatch", "journal_checksum"))
    try:
        return json.loads(body)
    except (UnicodeDecodeError, ValueError):
        raise ValueError(Said("not valid JSON", "journal_not_json")) from None
    except RecursionError:
        raise ValueError(Said("JSON nested too deeply", "journal_too_deep")) from None


def _reason(error: ValueError) -> str:
    """Why a line fails its check, as :func:`decode_line` (or :func:`scan`) said it: a :class:`Said`."""
    said = error.args[0] if error.args else None
    return said if isinstance(said, Said) else str(error)


class Damaged(msgspec.Struct):
    """A complete line (it has its newline) that fails its check: damage, not a crash leftover."""

    line_no: int
    start: int  # byte offset of the line
    end: int  # byte offset just after its newline
    reason: str


class Scan(msgspec.Struct):
    """What a journal (or the part of it after ``start``) holds."""

    records: list[dict[str, Any]] = msgspec.field(default_factory=list)
    #: byte offset just after each record's line (same order as ``records``)
    ends: list[int] = msgspec.field(default_factory=list)
    #: byte offset after the last good line: everything beyond is a damaged last line or a torn tail
    end: int = 0
    #: the torn tail's reason (an unfinished last line, no newline), or None when there is none
    torn: str | None = None
    #: the last complete line when it fails its check (only a torn tail may follow it)
    damaged: Damaged | None = None


#: the room a writer makes is walked over this many bytes at a time (a block of zeros is counted in C)
_ROOM_STEP = 4096


def lines_end(data: bytes, start: int = 0) -> int:
    """Where the lines of ``data[start:]`` end: before the NUL bytes at its end (the room the writer made
    ahead, see the module's docstring). A line always ends in its newline, so no NUL at the end is part of one."""
    end = len(data)
    if end <= start or data[end - 1]:
        return end
    while end - _ROOM_STEP >= start and data.count(0, end - _ROOM_STEP, end) == _ROOM_STEP:
        end -= _ROOM_STEP
    while end > start and not data[end - 1]:
        end -= 1
    return end


def scan(data: bytes, start: int = 0, first_line_no: int = 1) -> Scan:
    """Decode the lines of ``data[start:]``.

    An unfinished last line (no newline) is a torn write, reported in ``torn``; so is a last
    complete line with NUL bytes in it (see the module's docstring). A complete line that fails
    its check is reported in ``damaged`` when it is the last complete line, and raises
    :class:`JournalCorrupt` when complete lines follow it. The NUL bytes at the end
    (:func:`lines_end`) are room, not a line.
    """
    out = Scan(end=start)
    pos = start
    line_no = first_line_no
    size = lines_end(data, start)
    while pos < size:
        nl = data.find(b"\n", pos)
        if nl < 0:
            out.torn = "an unfinished last line"
            return out
        try:
            payload = decode_line(data[pos:nl])
            if not isinstance(payload, dict):
                raise ValueError(Said("not a JSON object", "journal_not_object"))
        except ValueError as e:
            if data.find(b"\n", nl + 1) >= 0:
                raise JournalCorrupt(line_no, _reason(e)) from None
            if data.find(b"\0", pos, nl) >= 0:
                out.torn = "a last line with NUL bytes in it (a part of its write that never reached the disk)"
                return out
            out.damaged = Damaged(line_no, pos, nl + 1, _reason(e))
            if nl + 1 < size:
                out.torn = "an unfinished last line"
            return out
        pos = nl + 1
        out.records.append(payload)
        out.ends.append(pos)
        out.end = pos
        line_no += 1
    return out
