"""Checksums that seal a session (format version 2): any change to a stored entry or to the
setup is found on open.

Every entry carries ``"sum"``: the CRC-32 (8 hex digits) of its canonical JSON (sorted keys,
no spaces, UTF-8, the ``sum`` itself left out), computed starting from the previous entry's
sum (the first entry starts from the CRC-32 of the session id). So an entry cannot be
changed, moved to another place or taken from another session without its sum disagreeing.
The setup document carries ``"checkpoint": {"entries": n, "last": <sum of entry n>}``
and its own ``"sum"`` over the rest of it, so entries removed from the end are found too.

These checksums find accidental damage and edits made by hand or by a tool; anyone who
recomputes them can still forge a file (they are not signatures). See docs/session-log.md.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import msgspec

SUM = "sum"
CHECKPOINT = "checkpoint"


def canonical(obj: Any) -> bytes:
    """The bytes a checksum is made over: key order and spacing do not matter."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False).encode("utf-8")


def seed(session_id: Any) -> int:
    """Where the chain of entry sums starts: bound to the session's id."""
    return zlib.crc32(f"banker-session:{session_id}".encode())


def entry_sum(entry: dict[str, Any], prev: int) -> int:
    """The sum of ``entry`` (its ``sum`` key left out), chained on the previous entry's."""
    body = {k: v for k, v in entry.items() if k != SUM} if SUM in entry else entry
    return zlib.crc32(canonical(body), prev)


#: :func:`canonical` again, by msgspec (sorted keys, no spaces, UTF-8): several times faster, and the
#: same bytes for JSON that msgspec decoded strictly, except some finite floats ("1e16" where json
#: writes "1e+16"). So it only ever *confirms* a stored sum: see :func:`has_entry_sum`.
_FAST = msgspec.json.Encoder(order="sorted")


def has_entry_sum(entry: dict[str, Any], prev: int, stored: int, *, strict_json: bool = False) -> bool:
    """Whether ``stored`` is :func:`entry_sum` of ``entry`` chained on ``prev``.

    With ``strict_json`` (``entry`` was decoded by msgspec from strict JSON: no NaN or infinity, no
    lone surrogate, where msgspec's encoding and :func:`canonical` could differ by more than a
    float's spelling) msgspec's encoding is tried first: when its sum matches, the entry is what
    the sum was made over; when it does not, :func:`entry_sum` decides."""
    if strict_json:
        body = {k: v for k, v in entry.items() if k != SUM} if SUM in entry else entry
        try:
            if zlib.crc32(_FAST.encode(body), prev) == stored:
                return True
        except (TypeError, ValueError, OverflowError, RecursionError, msgspec.EncodeError):
            pass
    try:
        return entry_sum(entry, prev) == stored
    except (TypeError, ValueError, RecursionError):
        return False


def stored_sum(entry: dict[str, Any], prev: int, *, plain: bool) -> int:
    """:func:`entry_sum` of ``entry``, a JSON object as read from its bytes (keys text). When ``plain`` (it
    holds no float: :func:`banker.ledger.journal.encode_stored` says so) msgspec makes the canonical bytes,
    the very bytes :func:`canonical` makes for such a value (the same escapes, keys sorted by code point),
    several times faster; a float is spelled otherwise, so then :func:`canonical` does."""
    if not plain:
        return entry_sum(entry, prev)
    body = {k: v for k, v in entry.items() if k != SUM} if SUM in entry else entry
    return zlib.crc32(_FAST.encode(body), prev)


def doc_sum(doc: dict[str, Any]) -> int:
    """The sum of the setup document (its ``sum`` key left out)."""
    return zlib.crc32(canonical({k: v for k, v in doc.items() if k != SUM}))


def fmt(value: int) -> str:
    return f"{value:08x}"


def parse(text: Any) -> int | None:
    """A stored sum as a number, or None when it is not 8 hex digits."""
    if not isinstance(text, str) or len(text) != 8:
        return None
    try:
        return int(text, 16)
    except ValueError:
        return None
