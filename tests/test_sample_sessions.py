"""The sample sessions (sample_sessions/): complete games recorded through the engine and the
session log from the scripts in sample_sessions/scripts/ (one JSON object per line: the game, then
each command with its time). Each file opens read-only, replays to exactly the effects it logged, is
a finished game, shows the events sample_sessions/README.md lists for it, and is exactly what its
script records today (regenerate with sample_sessions/generate.py when the format or the rules
change)."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from banker.boards import EDITIONS, load_edition
from banker.ledger import VERSION, Session, read_session_doc
from banker.rules import BANK

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_sessions"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sample_sessions_generate", SAMPLES / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # no __pycache__ in sample_sessions/
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = dont_write
    return module


generate = _load_generator()
GAMES = {script.file: script for script in generate.scripts()}
FILES = sorted(GAMES)


@pytest.fixture(scope="module")
def sessions() -> Iterator[dict[str, Session]]:
    opened = {name: Session.open(SAMPLES / name, readonly=True) for name in FILES}
    yield opened
    for session in opened.values():
        session.close()


def commands(session: Session, op: str) -> list[dict[str, Any]]:
    return [e for e in session.entries if e["command"]["op"] == op]


def effects(entry: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in entry["effects"] if e["t"] == kind]


def paid(entry: dict[str, Any], why: str) -> list[dict[str, Any]]:
    return [e for e in effects(entry, "pay") if e["for"] == why]


def readme_line(name: str) -> str:
    lines = [line for line in (SAMPLES / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith(f"- `{name}`")]
    assert len(lines) == 1, f"README.md needs exactly one line for {name}"
    return lines[0]


# ------------------------------------------------------------------------------ every sample
def test_the_folder_holds_the_generated_games_and_nothing_left_over():
    on_disk = sorted(p.name for p in SAMPLES.iterdir() if p.suffix == ".json")
    assert on_disk == FILES
    assert len(FILES) >= 4
    assert {GAMES[name].setup.edition for name in FILES} == {"classic-us", "uk", "ru", "kyiv"}
    assert sorted(p.name for p in (SAMPLES / "scripts").iterdir()) == [name.replace(".json", ".jsonl") for name in FILES]
    leftovers = [p.name for p in SAMPLES.iterdir() if p.name.endswith((".journal", ".lock", ".tmp"))]
    assert leftovers == [], "a session was left open or not checkpointed"


@pytest.mark.parametrize("name", FILES)
def test_opens_read_only_replays_to_its_effects_and_the_game_is_over(sessions, name):
    session = sessions[name]
    assert session.readonly
    assert session.replay_check() == []  # the rules recompute every command to its logged effects
    assert session.state.over and session.state.winner in session.state.active_players
    assert 130 <= len(session.entries) <= 400  # a real evening
    assert session.setup == GAMES[name].setup
    assert session.name == GAMES[name].game.name
    # the rules engine's own replay reaches the table the logged effects rebuilt (what every session opens from)
    from banker.ledger.check import replay_check

    assert replay_check(session.path, session.setup, session.entries)[1].to_json() == session.state.to_json()
    # the audit finds nothing, and the review adds up
    from banker.ledger.audit import audit
    from banker.ledger.review import load_review
    from banker.report import audit_lines

    report = audit(SAMPLES / name)
    assert report.ok and report.recomputed == report.entries, audit_lines(report)
    sr = load_review(SAMPLES / name)
    assert len(sr.review.timeline) == report.entries
    assert sum(sr.review.rent_paid.values()) == sum(sr.review.rent_received.values())
    assert {b.player for b in sr.review.bankruptcies} == set(sr.state.bankrupt)


@pytest.mark.parametrize("name", FILES)
def test_the_readme_lists_every_notable_event_with_its_entry_number(name):
    line = readme_line(name)
    script = GAMES[name]
    assert f"{len(script.lines)} entries" in line
    assert script.marks
    for seq, label in script.marks:
        assert re.search(rf"#{seq}\b", line), f"README.md, {name}: #{seq} ({label}) is not listed"


#: what differs between two recordings of one script: the session's random id and the checksums made from it
IDENTITY = ("id", "sum", "checkpoint")


@pytest.mark.parametrize("name", FILES)
def test_regenerating_gives_the_same_session(tmp_path, name):
    """The committed file is what the script records today, entry by entry (commands, times, effects,
    texts, the undone seqs), in today's session format; only the session id and the checksums made
    from it are new in each recording."""
    script = GAMES[name]
    generate.write_game(script, tmp_path)
    doc, entries = read_session_doc(tmp_path / name)
    sample_doc, sample_entries = read_session_doc(SAMPLES / name)
    assert doc["version"] == sample_doc["version"] == VERSION  # like with like
    assert [{k: v for k, v in e.to_json().items() if k != "sum"} for e in entries] == \
           [{k: v for k, v in e.to_json().items() if k != "sum"} for e in sample_entries]
    assert {k: v for k, v in doc.items() if k not in IDENTITY} == {k: v for k, v in sample_doc.items() if k not in IDENTITY}
    assert doc["checkpoint"]["entries"] == sample_doc["checkpoint"]["entries"] == len(script.lines)
    # the script's times are the log's times, and the script's commands the log's commands
    assert doc["created"] == script.game.created
    assert [(e["ts"], e["command"]) for e in entries] == [(line.ts, line.command) for line in script.lines]
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


# ------------------------------------------------------------------------------ the driver
def test_the_driver_knows_no_board_no_dice_and_no_card():
    """generate.py applies recorded commands through the session log and nothing else: it imports no
    rules but the setup and the refusal, and names no card of any edition (what a card does is in the
    board data: a backwards move is the card's `backwards = true`)."""
    source = (SAMPLES / "generate.py").read_text(encoding="utf-8")
    imported = {(node.module, alias.name) for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom) for alias in node.names}
    banker = {item for item in imported if item[0] and item[0].startswith("banker")}
    assert banker == {("banker.ledger", "Session"), ("banker.ledger", "journal_path"),
                      ("banker.ledger.lock", "lock_path"), ("banker.rules", "Refused"), ("banker.rules", "Setup")}
    for edition in EDITIONS:
        for card in load_edition(edition).cards:
            assert card not in source, card


def _script(tmp_path: Path, name: str, *commands: dict[str, Any], game: dict[str, Any] | None = None) -> Path:
    header = game or {"name": "wrong", "created": "2026-01-02T19:00:00+00:00",
                      "setup": {"edition": "classic-us", "variant": "classic", "players": ["Ann", "Bob"]}}
    rows = [json.dumps(header)] + [json.dumps(c) for c in commands]
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_refused_command_stops_the_script_naming_the_file_the_line_and_the_reason(tmp_path):
    path = _script(tmp_path, "wrong.jsonl",
                   {"ts": "2026-01-02T19:01:00+00:00", "command": {"op": "buy", "player": "Ann", "space": 6}},
                   {"ts": "2026-01-02T19:02:00+00:00", "command": {"op": "build", "player": "Ann", "space": 6}})
    script = generate.load_script(path)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(generate.ScriptError, match=r"^wrong\.jsonl: line 3 \(entry #2\) \{\"op\": \"build\".*\}: "
                                                    r"refused by the engine: .+"):
        generate.write_game(script, out)
    assert list(out.iterdir()) == []  # no partial session left behind


def test_a_script_must_end_with_the_game(tmp_path):
    path = _script(tmp_path, "short.jsonl",
                   {"ts": "2026-01-02T19:01:00+00:00", "command": {"op": "buy", "player": "Ann", "space": 6}})
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(generate.ScriptError, match=r"^short\.jsonl: the script ends before the game does$"):
        generate.write_game(generate.load_script(path), out)
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("line,message", [
    ({"ts": "2026-01-02T19:01:00+00:00", "comand": {"op": "salary", "player": "Ann"}},
     r"line 2: Object contains unknown field `comand`"),
    ({"command": {"op": "salary", "player": "Ann"}}, r"line 2: Object missing required field `ts`"),
    ({"ts": "19:01", "command": {"op": "salary", "player": "Ann"}}, r"line 2: '19:01' is not an ISO 8601 time"),
    ({"ts": "2026-01-02T19:01:00", "command": {"op": "salary", "player": "Ann"}}, r"line 2: .* has no UTC offset"),
    ({"ts": "2026-01-02T18:59:00+00:00", "command": {"op": "salary", "player": "Ann"}},
     r"line 2: 2026-01-02T18:59:00\+00:00 is earlier than the line before it; times never run backwards"),
])
def test_a_script_line_is_checked_before_anything_is_recorded(tmp_path, line, message):
    path = _script(tmp_path, "bad.jsonl", line)
    with pytest.raises(generate.ScriptError, match=rf"^bad\.jsonl: {message}"):
        generate.load_script(path)


# ------------------------------------------------------------------------------ what each one shows
def test_us_shortage(sessions):
    s = sessions["classic-us-shortage.json"]
    state = s.state
    assert (state.edition.id, state.variant.id, len(state.players)) == ("classic-us", "classic", 4)
    # the building shortage: the bank's houses run out, the last ones go at auction
    auctions = commands(s, "building_auction")
    assert len(auctions) >= 2
    houses = state.edition.houses
    for entry in s.entries:
        if entry is auctions[0]:
            assert houses <= len(auctions)  # two players wanted more than the bank had
        for e in effects(entry, "stock"):
            houses += e["houses"]
        if entry is auctions[-1]:
            assert houses == 0
    assert any(a["info"]["bid"] > a["info"]["price"] for a in auctions)
    # trades of mortgaged deeds: once lifted at once, once with the 10% paid
    trades = commands(s, "trade")
    assert any(t["command"].get("lift") and any(e["new"] is False for e in effects(t, "mortgaged")) for t in trades)
    assert any(paid(t, "interest") and not t["command"].get("lift") for t in trades)
    # the income tax, both ways
    choices = {e["command"].get("choice") for e in commands(s, "tax") if e["command"]["space"] == 4}
    assert choices == {"flat", "percent"}
    # cards, among them street repairs counted from the houses
    cards = {e["command"]["card"]: e for e in commands(s, "card")}
    assert len(cards) >= 10
    assert paid(cards["cc-street-repairs"], "card") or effects(cards["cc-street-repairs"], "debt")
    # mistakes undone, with a reason
    undos = commands(s, "undo")
    assert len(undos) >= 2 and all(u["command"]["reason"] and isinstance(u["undoes"], int) for u in undos)
    # debts raised by selling houses and by mortgaging
    for op in ("sell_building", "mortgage"):
        assert any(e["new"] == [] for entry in commands(s, op) for e in effects(entry, "debt")), op
    # bankruptcies to a player until one is left
    assert [b["creditor"] for b in state.to_json()["bankruptcies"]] == ["Ann", "Ann", "Ann"]
    assert state.result["reason"] == "last player" and state.active_players == ("Ann",)
    assert any(b["command"].get("lift") for b in commands(s, "bankrupt"))


def test_uk_bankruptcy_to_the_bank(sessions):
    s = sessions["uk-bank-bankruptcy.json"]
    state = s.state
    assert (state.edition.id, state.variant.id) == ("uk", "speed-die")
    # Income Tax 200 and Super Tax 100
    taxes = {(e["command"]["space"], e["info"]["amount"]) for e in commands(s, "tax")}
    assert {(4, 200), (38, 100)} <= taxes
    assert commands(s, "jail_fine")
    # the bankruptcy to the bank: the deeds go back, unmortgaged, waiting for the auction
    [bankruptcy] = commands(s, "bankrupt")
    assert effects(bankruptcy, "bankrupt") == [{"t": "bankrupt", "player": "Kit", "creditor": BANK}]
    pending = [e["space"] for e in effects(bankruptcy, "pending") if e["new"]]
    assert len(pending) >= 5
    lifted = effects(bankruptcy, "mortgaged")
    assert lifted and all(e["new"] is False for e in lifted)  # (not vacuous: he had mortgaged deeds)
    # ... and every one of them auctioned, one with no bids, bought later at the printed price
    after = s.entries[bankruptcy["seq"]:]
    auctioned = [e for e in after if e["command"]["op"] == "auction"]
    assert sorted(a["command"]["space"] for a in auctioned) == sorted(pending)
    [no_bids] = [a for a in auctioned if a["command"]["winner"] is None]
    space = no_bids["command"]["space"]
    assert any(e["command"] == {"op": "buy", "player": e["command"].get("player"), "space": space} for e in after)
    assert state.pending_auction == set()
    # a Get Out of Jail Free card kept, sold in a trade, and used by its buyer
    [kept] = [e for e in commands(s, "card") if effects(e, "jail_card")]
    card = effects(kept, "jail_card")[0]
    sold = [e for e in commands(s, "trade") if any(j["card"] == card["card"] for j in effects(e, "jail_card"))]
    [moved] = effects(sold[0], "jail_card")
    assert (moved["old"], moved["new"]) == (kept["command"]["player"], sold[0]["command"]["to"])
    [used] = commands(s, "jail_card")
    assert used["command"]["player"] == moved["new"] and effects(used, "jail_card")[0]["new"] is None
    # the end: by agreement, every player valued
    assert commands(s, "end_game") and state.result["reason"] == "agreed"
    assert set(state.result["valuation"]) == set(state.active_players)


def test_ru_short_game(sessions):
    s = sessions["ru-short.json"]
    state = s.state
    assert (state.edition.id, state.variant.id) == ("ru", "short")
    assert all(re.fullmatch(r"[А-ЯЁа-яё]+", p) for p in state.players)
    # two deeds dealt to each player at the start
    deals = [e["command"] for e in s.entries[: 2 * len(state.players)]]
    assert all(c["op"] == "deal" for c in deals)
    assert sorted(c["player"] for c in deals) == sorted(state.players * 2)
    # hotels after three houses
    hotels = [e for e in commands(s, "build") if effects(e, "hotel")]
    assert hotels and all(effects(h, "houses")[0]["old"] == 3 for h in hotels)
    # a debt paid in a deed (the RU rule)
    assert any(t["command"].get("debt_credit") for t in commands(s, "trade"))
    assert commands(s, "undo")
    # the end at the second bankruptcy, valued by the bank
    assert len(commands(s, "bankrupt")) == 2 and s.last_entry["command"]["op"] == "bankrupt"
    assert state.result["reason"] == "bankruptcies" and len(state.result["valuation"]) == 2


def test_kyiv_agreed_end(sessions):
    s = sessions["kyiv-agreed-end.json"]
    state = s.state
    # the Kyiv rule book describes no time-limit game: the classic game, ended by agreement
    assert (state.edition.id, state.variant.id) == ("kyiv", "classic")
    assert "timed" not in state.edition.variants
    assert all(re.fullmatch(r"[А-ЩЬЮЯҐЄІЇа-щьюяґєії’]+", p) for p in state.players)
    undos = commands(s, "undo")
    assert undos and all(u["command"]["reason"] for u in undos)
    # a trade of a mortgaged deed
    assert any(paid(t, "interest") or t["command"].get("lift") for t in commands(s, "trade"))
    # a bankruptcy to a player under the Kyiv rule: everything is mortgaged first
    [bankruptcy] = commands(s, "bankrupt")
    assert effects(bankruptcy, "bankrupt")[0]["creditor"] in state.players
    assert any(e["new"] is True for e in effects(bankruptcy, "mortgaged"))
    assert commands(s, "end_game") and state.result["reason"] == "agreed"
    assert len(state.result["valuation"]) == 3


def test_us_timed(sessions):
    s = sessions["classic-us-timed.json"]
    state = s.state
    assert (state.edition.id, state.variant.id, state.setup.end_time) == ("classic-us", "timed", "2026-11-24T22:30-05:00")
    assert [e["command"]["op"] for e in s.entries[:6]] == ["deal"] * 6
    assert commands(s, "undo")
    assert any(a["command"]["winner"] is None for a in commands(s, "auction"))
    assert s.last_entry["command"] == {"op": "end_game"} and state.result["reason"] == "time"
    assert state.bankrupt == []


# ------------------------------------------------------------------------------ evenings, not instants
@pytest.mark.parametrize("name", FILES)
def test_each_sample_is_an_evening_at_a_tables_pace(sessions, name):
    """Issue #13: the entries are stamped at a table's pace (generate.py --restamp: seeded draws per kind of
    entry), not all within one second: an evening of one to five hours, every entry some seconds to a few
    minutes after the one before, the first soon after the session was created."""
    from datetime import datetime

    session = sessions[name]
    times = [datetime.fromisoformat(e["ts"]) for e in session.entries]
    created = datetime.fromisoformat(session.created)
    gaps = [(b - a).total_seconds() for a, b in zip([created, *times], times, strict=False)]
    assert 3600 <= (times[-1] - created).total_seconds() <= 5 * 3600
    assert all(2 <= g <= 10 * 60 for g in gaps), (min(gaps), max(gaps))
    assert len({t.replace(microsecond=0) for t in times}) == len(times)  # no two entries in the same second


def test_the_timed_game_ends_at_its_agreed_time(sessions):
    """us-classic-rules.txt, TIME LIMIT GAME: "agree upon a definite hour of termination, when the richest player will
    be declared the winner": the end is stamped at the agreed 22:30 (within the minute), the game began hours before."""
    from datetime import datetime

    from banker.ledger.clock import end_of

    s = sessions["classic-us-timed.json"]
    end = end_of(s.setup.end_time, None)
    last = datetime.fromisoformat(s.last_entry["ts"])
    assert end is not None and end.strftime("%H:%M") == "22:30"
    assert 0 <= (last - end).total_seconds() < 60 and s.last_entry["command"] == {"op": "end_game"}
    assert (end - datetime.fromisoformat(s.created)).total_seconds() >= 2 * 3600


@pytest.mark.parametrize("name,letters", [("ru-short.json", r"[А-ЯЁа-яё]"), ("kyiv-agreed-end.json", r"[А-ЩЬЮЯҐЄІЇа-щьюяґєії]")])
def test_undo_reasons_are_in_the_games_language(sessions, name, letters):
    """The reasons a Russian or Ukrainian table gives for an undo are in its language, not English."""
    undos = commands(sessions[name], "undo")
    assert undos
    for u in undos:
        reason = u["command"]["reason"]
        assert not re.search(r"[A-Za-z]", reason) and re.search(letters, reason), reason


def test_restamp_is_seeded_and_lands_on_until(tmp_path):
    """The pace is a seeded draw: the same seed gives the same times; with --until the last entry is stamped then."""
    from datetime import datetime

    script = GAMES["classic-us-timed.json"]
    start = datetime.fromisoformat("2026-01-02T19:00:00+01:00")
    until = datetime.fromisoformat("2026-01-02T21:00:00+01:00")
    once, again = generate.restamp(script, start, 7), generate.restamp(script, start, 7)
    assert once == again and once != generate.restamp(script, start, 8)
    assert all(a < b for a, b in zip([start, *once], once, strict=False))
    assert abs((generate.restamp(script, start, 7, until)[-1] - until).total_seconds()) < 0.01
