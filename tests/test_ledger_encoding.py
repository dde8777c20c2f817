"""The quick ways of recording an action (issue #14: the cost per action close to one fsync) write
exactly what the slow ways wrote: the same journal bytes, the same stored JSON, the same chained sums,
the same copy of a command, the same refusals, the same words.

Each quick way is msgspec where ``json`` was, taken only where the two agree (see
``banker.ledger.journal.encode_stored``); these tests hold them side by side over every character,
the awkward values (floats, NaN, tuples, keys that are not text, huge numbers) and every entry of
the sample sessions."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from datetime import UTC, datetime, timedelta
from enum import IntEnum
from pathlib import Path
from typing import Any

import pytest

from banker.i18n import Translator
from banker.ledger import Session, checksum, journal_path
from banker.ledger import format as ledger_format
from banker.ledger.journal import encode_payload, encode_stored, json_copy
from banker.ledger.writer import sealed_body
from banker.rules import Refused, Setup
from banker.rules.messages import EN, Msg, render_parts
from banker.rules.names import FORBIDDEN_CATEGORIES, forbidden_char

from .ledger_helpers import journal_lines

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_sessions").glob("*.json"))

#: every Unicode scalar value (no lone surrogates: JSON text cannot be written with one)
EVERY_CHAR = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)


def slow_stored(payload: Any) -> tuple[bytes, Any]:
    """What the writer did before: ``json`` both ways."""
    body = encode_payload(payload)
    return body, json.loads(body)


def same_json(a: Any, b: Any) -> bool:
    """Equal, and of the same types all through (``1 == 1.0 == True`` is not enough here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


def sample_entries() -> list[dict[str, Any]]:
    out = []
    for path in SAMPLES:
        out.extend(e.to_json() for e in Session.open(path, readonly=True).entries)
    assert len(out) > 100
    return out


def _id(value: Any) -> str:
    try:
        return repr(value)[:60]
    except ValueError:  # a number of over 4,300 digits has no repr
        return "huge"


class Level(IntEnum):
    HOTEL = 5


AWKWARD = [
    {"a": 1.5}, {"a": 1e16}, {"a": -0.0}, {"a": 5e-324}, {"a": [0.1, 2.5e-7]},  # floats: spelled otherwise
    {"a": (1, 2)}, {"a": [(1, {"b": ()})]},  # tuples: lists once stored
    {1: "one"}, {"a": {2: 3}}, {1.5: "x"}, {1e16: "x"}, {True: 1, None: 2},  # keys that are not text: text once stored
    {"a": Level.HOTEL}, {"a": True, "b": False, "c": None},
    {"a": 10**18}, {"a": 2**64}, {"a": -(10**40)}, {"a": 10**4000},  # whole numbers of any size JSON writes
    {"a": "\u2028\u2029\x7f\x1f\x00\"\\/é😀"}, {"": ""},
]


@pytest.mark.parametrize("payload", AWKWARD, ids=_id)
def test_encode_stored_is_encode_payload_and_loads(payload):
    body, stored, plain = encode_stored(payload)
    old_body, old_stored = slow_stored(payload)
    assert body == old_body
    assert same_json(stored, old_stored)
    assert checksum.stored_sum(stored, 7, plain=plain) == checksum.entry_sum(stored, 7)


@pytest.mark.parametrize("payload", [{"a": float("nan")}, {"a": [float("inf")]}, {"a": -float("inf")},
                                     {"a": 10**5000}, {"a": {1, 2}}, {"a": b"x"}, {"a": object()},
                                     {"a": datetime(2024, 1, 1)}, {"a": "\ud800"}], ids=_id)
def test_encode_stored_refuses_what_json_refuses(payload):
    with pytest.raises((TypeError, ValueError)) as slow:
        encode_payload(payload)
    with pytest.raises(type(slow.value)):
        encode_stored(payload)


def test_every_character_is_written_as_json_writes_it_in_text_and_in_keys():
    chunks = [EVERY_CHAR[i:i + 4096] for i in range(0, len(EVERY_CHAR), 4096)]
    payload = {"texts": chunks, "keys": {c: i for i, c in enumerate(EVERY_CHAR[:0x3000])},
               "more_keys": {c: 0 for c in EVERY_CHAR[0x3000::97]}}
    body, stored, plain = encode_stored(payload)
    assert plain and body == encode_payload(payload) and stored == payload
    # sorted by code point in both (UTF-8's byte order), with the same escapes
    assert checksum.stored_sum(stored, 0, plain=True) == checksum.entry_sum(stored, 0)
    for c in EVERY_CHAR[::4099] + "\x00\x1f\"\\\x7f\u2028":
        one = {c: c, "k" + c: [c + "a"]}
        assert checksum.stored_sum(encode_stored(one)[1], 3, plain=True) == checksum.entry_sum(one, 3)


def test_every_sample_entry_is_written_and_summed_as_before():
    for entry in sample_entries():
        unsealed = {k: v for k, v in entry.items() if k != checksum.SUM}
        body, stored, plain = encode_stored(unsealed)
        old_body, old_stored = slow_stored(unsealed)
        assert body == old_body and same_json(stored, old_stored)
        assert plain  # no float in any entry
        assert checksum.stored_sum(stored, 12345, plain=True) == checksum.entry_sum(old_stored, 12345)
        assert sealed_body(body, entry[checksum.SUM]) == encode_payload(entry)


def test_a_recorded_journal_line_is_what_the_slow_way_writes(tmp_path):
    """The bytes of each journal line: the entry as json wrote it, its chained sum last, as before."""
    path = tmp_path / "g.json"
    session = Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob")), name="g")
    commands = [{"op": "salary", "player": "Ann"}, {"op": "buy", "player": "Bob", "space": 39},
                {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 7, "memo": "Zoë's “tea” \\ 😀"},
                {"op": "rent", "payer": "Ann", "space": 39}, {"op": "undo", "reason": "misheard"},
                {"op": "card", "player": "Bob", "card": next(iter(session.state.edition.cards)), "passed_go": True}]
    for cmd in commands:
        session.apply(cmd)
    lines = [line.rstrip(b"\n") for line in journal_lines(path)[1:]]
    prev = checksum.seed(session.info.get("id"))
    assert len(lines) == len(commands) == len(session.entries)
    for line, entry in zip(lines, session.entries, strict=True):
        stored = entry.to_json()
        assert line[9:] == encode_payload(stored)  # keys in their stored order, the sum last
        assert checksum.parse(stored[checksum.SUM]) == checksum.entry_sum(json.loads(line[9:]), prev)
        prev = checksum.entry_sum(stored, prev)
    session.close()
    assert Session.open(path, readonly=True).entries == session.entries


@pytest.mark.parametrize("value", [
    {"op": "salary", "player": "Ann"}, {"op": "x", "a": (1, 2), "b": {1: 2}, "c": -0.0, "d": 1.0, "e": 1, "f": True},
    {"op": "x", "a": Level.HOTEL, "b": 1e16, "c": [None, {"d": 2.5}], "e": 10**30}, [1, 2], "text", 5, None,
    {1.5: 2, "é": "\u2028"}, {"a": "\ud800"}, {True: 1, None: 2}, {"op": "x", "nested": [[[[{"a": ()}]]]]},
], ids=_id)
def test_json_copy_is_the_json_round_trip(value):
    copy = json_copy(value)
    assert same_json(copy, json.loads(json.dumps(value, allow_nan=False)))
    if isinstance(value, dict | list):
        assert copy is not value


@pytest.mark.parametrize("value", [{"a": float("nan")}, {"a": float("inf")}, {"a": {1, 2}}, {"a": datetime(2024, 1, 1)},
                                   {"a": b"x"}, {"a": 10**5000}, {(1, 2): 3}], ids=_id)
def test_json_copy_refuses_what_the_round_trip_refuses(value):
    with pytest.raises((TypeError, ValueError)) as slow:
        json.loads(json.dumps(value, allow_nan=False))
    with pytest.raises(type(slow.value)):
        json_copy(value)


def test_json_copy_of_a_command_nested_too_deeply_raises_as_json_does():
    deep: Any = 1
    for _ in range(sys.getrecursionlimit() + 100):
        deep = [deep]
    with pytest.raises(RecursionError):
        json.dumps(deep)
    with pytest.raises(RecursionError):
        json_copy({"op": "x", "a": deep})


def test_a_command_json_cannot_hold_is_refused_as_before(tmp_path):
    session = Session.create(tmp_path / "g.json", Setup("classic-us", "classic", ("Ann", "Bob")))
    for bad in ({"op": "transfer", "from": "Ann", "to": "Bob", "amount": float("nan")},
                {"op": "salary", "player": "Ann", "when": datetime(2024, 1, 1)}):
        with pytest.raises(Refused, match="cannot be recorded as JSON"):
            session.apply(bad)
    assert session.entries == [] and journal_path(tmp_path / "g.json").read_bytes().count(b"\n") == 1
    session.close()


def test_forbidden_char_is_the_unicode_categories_for_every_character():
    """Its quick way (``str.isprintable``) lets no character of a forbidden category through."""
    for c in EVERY_CHAR + "\ud800\udfff":
        expected = f"U+{ord(c):04X}" if unicodedata.category(c) in FORBIDDEN_CATEGORIES else None
        assert forbidden_char(c) == expected, hex(ord(c))
        assert forbidden_char("Ann " + c + "\u00a0x") == expected  # a no-break space: not printable, not forbidden


def old_render_parts(parts, catalog=None, lang="en") -> str:
    """render_parts as it was: each part made a Msg, then rendered."""
    return "; ".join(Msg.from_json(p).render(catalog, lang) for p in parts)


def test_render_parts_renders_as_the_messages_do_in_every_language():
    entries = sample_entries()
    for lang in ("en", "ru", "uk"):
        tr = Translator(lang)
        catalog = tr._engine if lang != "en" else None
        for entry in entries:
            parts = entry["parts"]
            assert render_parts(parts, catalog, lang) == old_render_parts(parts, catalog, lang)
    for entry in entries:
        assert entry["text"] == render_parts(entry["parts"])


def test_render_parts_handles_what_from_json_handles():
    key = next(k for k, v in EN.items() if isinstance(v, list))  # a plural template
    odd = [
        {"key": key, "params": {"n": 3}},
        {"key": "and-list", "params": {"items": [{"msg": {"key": "the-bank"}}, "Ann", 5, {"x": 1}, (1, 2), None]}},
        {"key": "and-list",
         "params": {"items": {"counted": {"key": "count.railroads", "n": 2, "forms": {"uk": ["a", "b", "c"]}}}}},
        {"key": "and-list", "params": {"items": {"counted": {"key": "count.railroads", "n": 1}}}},
        {"key": "debt-part"},  # its placeholders missing: the same KeyError
    ]
    broken = {"the-bank": "{nope}", "debt-part": "{amount}", key: ["{n} a", "{n} b", "{n} c"]}
    for parts in odd[:-1]:
        for catalog, lang in ((None, "en"), (broken, "uk"), ({}, "ru")):
            assert render_parts([parts], catalog, lang) == old_render_parts([parts], catalog, lang)
    with pytest.raises(KeyError):
        render_parts(odd[-1:], strict=True)
    with pytest.raises(KeyError):
        render_parts([{"key": "no-such-message", "params": {}}], strict=True)


def test_a_description_a_hand_edit_broke_is_said_as_far_as_it_can_be():
    """A stored description that cannot be said whole (a parameter missing, an unknown key, a parameter of the wrong
    kind): said with what it has and "?" for the rest, in every language, never an error (an entry's sentence in the
    log, the review, the export, an undo's description); ``strict`` raises instead, for a caller that has the
    entry's stored English text to show."""
    broken = [
        {"key": "log.buy", "params": {"player": "Ann"}},  # its space and amount missing
        {"key": "no-such-message", "params": {}},
        {"key": "log.buy", "params": {"player": {"msg": {"key": "zzz"}}, "space": "Boardwalk", "amount": "$400"}},
        {"key": "jail-cards", "params": {"n": "three"}},  # a plural's count that is not a number
        {"params": {}},
    ]
    said = {"en": ["Ann buys ? for ?", "?", "? buys Boardwalk for $400", "three Get Out of Jail Free cards", "?"],
            "ru": ["Ann покупает участок ? за ?", "?", "? покупает участок Boardwalk за $400"],
            "uk": ["Ann купує ділянку ? за ?", "?", "? купує ділянку Boardwalk за $400"]}
    for lang in ("en", "ru", "uk"):
        tr = Translator(lang)
        line = render_parts(broken, tr._engine if lang != "en" else None, lang).split("; ")
        assert line[: len(said[lang])] == said[lang] and line[3].startswith("three ") and line[4] == "?"
        for part in broken:
            with pytest.raises((KeyError, ValueError)):
                render_parts([part], tr._engine, lang, strict=True)
    assert Msg("log.buy", player="Ann").render() == "Ann buys ? for ?"
    assert render_parts(broken[:1], {"the-bank": "банк"}, "ru") == "Ann buys ? for ?"  # a catalog without it: English


def test_now_is_datetime_now_in_milliseconds(monkeypatch):
    """``now()`` writes an instant as ``datetime.isoformat(timespec="milliseconds")`` does (the fraction cut, not
    rounded), its date and time of day made once a second. The instants are given, not read from the machine's
    clock: within a second, across a second, a midnight and a year, and back again (a clock set back)."""
    pattern = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00")
    second = 1_000_000_000
    midnight = int(datetime(2026, 12, 31, tzinfo=UTC).timestamp()) * second + 86_400 * second
    instants = [1_700_000_000 * second + f for f in (0, 1, 999_999, 1_000_000, 999_999_999)]
    instants += [1_700_000_001 * second + 5_000_000, midnight - 1, midnight, midnight + 999_000_000,
                 1_700_000_000 * second + 123_456_789]
    clock = iter(instants)
    monkeypatch.setattr(ledger_format.time, "time_ns", lambda: next(clock))
    stamps = [ledger_format.now() for _ in instants]
    assert all(pattern.fullmatch(s) for s in stamps)
    for ns, stamp in zip(instants, stamps, strict=True):
        exact = datetime.fromtimestamp(ns // second, UTC) + timedelta(microseconds=ns % second // 1000)
        assert stamp == exact.isoformat(timespec="milliseconds"), (ns, stamp)
    parsed = [datetime.fromisoformat(s) for s in stamps]
    assert stamps[-1] == parsed[-1].isoformat(timespec="milliseconds")
