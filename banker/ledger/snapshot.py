"""A checkpoint's snapshot: the state the log reaches at the checkpoint, stored in FILE beside the
entries (TinyDB table ``snapshot``, doc 1), so that opening reads the snapshot and the journal
since, the way a database reads a checkpoint and its write-ahead log.

What it holds, and what checks it (docs/session-log.md):

``seq``, ``last``
    The entries it covers (1..seq) and the chained checksum of entry ``seq``: it is used only
    when they are the setup document's checkpoint seal (``entries``, ``last``), itself checksummed.
``table``
    ``[bytes, crc]``: the length and CRC-32 of FILE's entries table exactly as the checkpoint wrote
    it. When they agree on open, the entries are what the checkpoint sealed, and their own
    checksums need not be recomputed one by one (any other byte sequence: they all are).
``index``
    Where each entry starts in that table, so that one entry is decoded without the others.
``standing``
    The seqs of the entries that stand (the engine's stack of moves, bottom first).

    Both are written packed (:func:`pack`: the numbers as 4-byte little-endian unsigned integers, in
    base64), a number per entry that opening reads at once (decoding 37,000 JSON numbers at 20,000
    actions was a third of what opening the snapshot cost, issue #14); a snapshot written before
    holds them as JSON lists, read as they are.
``state``
    The state itself (banker.rules.snapshot: every attribute of the GameState but those made
    from the setup).
``sum``
    The CRC-32 of the rest of it (its canonical JSON), so that a changed snapshot is never used.

A snapshot that fails any of these is not used (the state is then rebuilt from every entry) and
is reported (:attr:`Loaded.snapshot_problem <banker.ledger.format.Loaded>`, a finding of the
background check and of ``banker audit``); one whose figures are not what the entries give is
found by the full replay (the background check, ``banker audit``).
"""

from __future__ import annotations

import base64
import binascii
import sys
import zlib
from array import array
from collections.abc import Sequence
from typing import Any

import msgspec

from banker.rules import GameState
from banker.rules.snapshot import to_plain

from . import checksum
from .said import Said, clip

TABLE = "snapshot"

_sorted = msgspec.json.Encoder(order="sorted")


class _Stored(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A snapshot as stored (see the module's docstring): ``index`` and ``standing`` packed, or JSON lists."""

    seq: int
    last: str
    table: tuple[int, int]
    index: str | list[int]
    standing: str | list[int]
    state: dict[str, Any]
    sum: str


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A snapshot read and checked (:func:`parse`): ``index`` and ``standing`` unpacked."""

    seq: int
    last: str
    table: tuple[int, int]
    index: Sequence[int]
    standing: Sequence[int]
    state: dict[str, Any]
    sum: str


#: the array type of 4-byte unsigned integers (a file holds at most 64 MiB, and as many entries)
_UINT32 = next(code for code in "IL" if array(code).itemsize == 4)


def pack(numbers: Sequence[int]) -> str:
    """``numbers`` as a snapshot stores them: 4-byte little-endian unsigned integers, in base64."""
    packed = array(_UINT32, numbers)
    if sys.byteorder == "big":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


def unpack(stored: str | list[int]) -> Sequence[int] | None:
    """The numbers :func:`pack` wrote (or a list as a snapshot written before stored it); None when ``stored`` is
    not such a text."""
    if isinstance(stored, list):
        return stored
    try:
        raw = base64.b64decode(stored, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(raw) % 4:
        return None
    numbers = array(_UINT32)
    numbers.frombytes(raw)
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


def digest(record: dict[str, Any]) -> int:
    """The CRC-32 of a snapshot record's canonical JSON (sorted keys, no spaces), ``sum`` left out."""
    return zlib.crc32(_sorted.encode({k: v for k, v in record.items() if k != checksum.SUM}))


def make(state: GameState, standing: Sequence[int], seq: int, last: int, table: bytes, index: Sequence[int]) -> dict[str, Any]:
    """The snapshot record of ``state`` at entry ``seq`` (whose chained sum is ``last``), for the
    entries table ``table`` (bytes as written) with ``index``."""
    record: dict[str, Any] = {"seq": seq, "last": checksum.fmt(last), "table": [len(table), zlib.crc32(table)],
                              "index": pack(index), "standing": pack(standing), "state": to_plain(state)}
    record[checksum.SUM] = checksum.fmt(digest(record))
    return record


def parse(stored: Any) -> Snapshot | Said:
    """The snapshot of a FILE's ``snapshot`` table, or why it cannot be used (a sentence)."""
    record = stored.get("1") if isinstance(stored, dict) else None
    if not isinstance(record, dict):
        return Said("the checkpoint's snapshot is damaged (not a JSON object)", "snapshot_not_object")
    try:
        read = msgspec.convert(record, _Stored)
    except msgspec.ValidationError as e:
        return _invalid(str(e))
    try:
        made = digest(record)
    except (TypeError, ValueError, OverflowError, msgspec.EncodeError):
        made = None
    if checksum.parse(read.sum) != made:
        return Said("the checkpoint's snapshot is not what its checksum was made over", "snapshot_sum")
    index, standing = unpack(read.index), unpack(read.standing)
    if index is None or standing is None or len(index) != read.seq or len(standing) > read.seq:
        return Said("the checkpoint's snapshot is damaged (its index or its standing entries do not fit its entries)",
                    "snapshot_index")
    return Snapshot(seq=read.seq, last=read.last, table=read.table, index=index, standing=standing,
                    state=read.state, sum=read.sum)


def _invalid(error: str) -> Said:
    """msgspec's reason (English: "Expected `int`, got `str` - at `$.seq`", "Object missing required field
    `sum`") as the field it names (a key of the stored JSON, an id) and what is wrong with it."""
    where = error.rsplit(" - at `", 1)[1].rstrip("`").removeprefix("$.") if " - at `" in error else ""
    if not where and error.count("`") >= 2:
        where = error.split("`")[-2]
    where = clip(where or "?", 40)
    if error.startswith("Object missing required field"):
        return Said(f"the checkpoint's snapshot is damaged (no {where})", "snapshot_missing", field=where)
    if error.startswith("Object contains unknown field"):
        return Said(f"the checkpoint's snapshot is damaged (unknown {where})", "snapshot_unknown", field=where)
    return Said(f"the checkpoint's snapshot is damaged (bad {where})", "snapshot_bad", field=where)


def fits(snap: Snapshot, seq: int, last: int | None) -> Said | None:
    """Why ``snap`` is not the snapshot of entries 1..``seq`` ending with the chained sum ``last``
    (None: it is)."""
    if snap.seq != seq:
        return Said(f"the checkpoint's snapshot is of entries 1-{snap.seq}, but the checkpoint holds {seq}",
                    "snapshot_other_seq", covers=snap.seq, n=seq)
    if last is None or checksum.parse(snap.last) != last:
        return Said(f"the checkpoint's snapshot was not made over these entries (entry {seq}'s checksum differs)",
                    "snapshot_other_entries", seq=seq)
    return None


__all__ = ["TABLE", "Snapshot", "digest", "fits", "make", "pack", "parse", "unpack"]
