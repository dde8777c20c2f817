"""The session log (banker.ledger): opening from the log, undo, refusals, recovery, locking, readers."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tinydb import TinyDB

import banker.ledger.writer as ledger_writer
from banker.boards import game_from_setup
from banker.ledger import (
    AtomicJSONStorage,
    Entry,
    Session,
    SessionError,
    SessionReader,
    SessionWriter,
    default_session_dir,
    journal_path,
    lock_holder,
    read_entries,
    recent_sessions,
)
from banker.ledger.check import replay_check
from banker.ledger.journal import header_line
from banker.rules import GameState, HouseRules, Refused, Setup

from .ledger_helpers import busy_writer, edit_file, journal_lines, write_at_lines_end

ROOT = Path(__file__).resolve().parent.parent
SETUP = Setup("classic-us", "classic", ("Ann", "Bob", "Cid"))

#: a game touching every kind of change: money, deeds, buildings, mortgages, cards,
#: a trade, an undo, a debt and a bankruptcy
GAME = [
    {"op": "buy", "player": "Ann", "space": 37},
    {"op": "buy", "player": "Ann", "space": 39},
    {"op": "build", "player": "Ann", "space": 39},
    {"op": "build", "player": "Ann", "space": 37},
    {"op": "build", "player": "Ann", "space": 39},
    {"op": "buy", "player": "Bob", "space": 5},
    {"op": "buy", "player": "Bob", "space": 15},
    {"op": "rent", "payer": "Cid", "space": 5},
    {"op": "mortgage", "player": "Bob", "space": 15},
    {"op": "card", "player": "Cid", "card": "cc-jail-free"},
    {"op": "card", "player": "Ann", "card": "ch-repairs"},
    {"op": "card", "player": "Bob", "card": "ch-chairman"},
    {"op": "tax", "player": "Cid", "space": 4, "choice": "percent"},
    {"op": "jail_fine", "player": "Bob"},
    {"op": "transfer", "from": "Ann", "to": "Cid", "amount": 100, "memo": "loan"},
    {"op": "salary", "player": "Cid"},
    {"op": "undo", "reason": "wrong player"},
    {"op": "salary", "player": "Bob", "landed": True},
    {"op": "unmortgage", "player": "Bob", "space": 15},
    {"op": "trade", "from": "Cid", "to": "Ann", "give": {"jail_cards": 1}, "get": {"cash": 20}},
    {"op": "sell_building", "player": "Ann", "space": 39},
    {"op": "buy", "player": "Cid", "space": 12},
    {"op": "rent", "payer": "Ann", "space": 12, "dice": 7},
    {"op": "auction", "space": 1, "winner": "Bob", "bid": 10},
    {"op": "transfer", "from": "bank", "to": "Ann", "amount": 1000, "memo": "top-up"},
    {"op": "build", "player": "Ann", "space": 39},
    {"op": "build", "player": "Ann", "space": 37},
    {"op": "transfer", "from": "Cid", "to": "bank", "amount": 1000, "memo": "drain"},
    {"op": "rent", "payer": "Cid", "space": 39},
    {"op": "bankrupt", "player": "Cid"},
    {"op": "jail_card", "player": "Ann", "use": True},
    {"op": "salary", "player": "Bob"},
]


def play(path: Path, commands=GAME, setup: Setup = SETUP) -> Session:
    session = Session.create(path, setup)
    for cmd in commands:
        session.apply(cmd)
    return session


def fresh_state(commands, setup: Setup = SETUP):
    """The state the engine reaches on its own, without any log (an undo pops the last move)."""
    state = game_from_setup(setup)
    for cmd in commands:
        if cmd["op"] == "undo":
            state.pop()
        else:
            state.push(cmd)
    return state


def engine_replay(session) -> GameState:
    """The session's log recomputed by the rules engine (the check): it must find nothing."""
    findings, state = replay_check(session.path, session.setup, session.entries)
    assert findings == []
    return state


def crash(session: Session) -> None:
    """Let go of a writer as a killed process would: no checkpoint, files as they are."""
    session._release()


# --------------------------------------------------------------------------- replay
def test_reopen_reproduces_the_state_exactly_from_the_journal_and_after_checkpoint(session_path):
    session = play(session_path)
    expected = session.state.to_json()
    assert expected == fresh_state(GAME).to_json()
    assert expected["bankruptcies"] == [{"player": "Cid", "creditor": "Ann"}]
    entries = list(session.entries)
    # every entry is in the journal, none in FILE yet (no checkpoint during apply)
    assert len(journal_lines(session_path)) == 1 + len(GAME)
    assert json.loads(session_path.read_text())["entries"] == {}

    reader = Session.open(session_path, readonly=True)  # FILE + journal
    assert reader.state.to_json() == expected
    assert reader.entries == entries
    assert reader.replay_check() == [] and reader.divergent == []

    session.close()  # checkpoint
    assert len(journal_lines(session_path)) == 1
    again = Session.open(session_path)
    assert again.state.to_json() == expected
    assert again.entries == entries
    again.close()


def test_entries_hold_command_effects_text_and_timestamps(session_path):
    with Session.create(session_path, SETUP, name="Friday") as session:
        entry = session.apply({"op": "buy", "player": "Ann", "space": 39})
        assert entry["seq"] == 1
        assert entry["command"] == {"op": "buy", "player": "Ann", "space": 39}
        assert entry["effects"] == [
            {"t": "pay", "from": "Ann", "to": "bank", "amount": 400, "for": "buy"},
            {"t": "owner", "space": 39, "old": None, "new": "Ann"},
        ]
        assert entry["text"] == "Ann buys Boardwalk for $400"
        assert entry["undoes"] is None and entry["info"] == {}
        assert entry["ts"].endswith("+00:00")
        assert session.last_entry == entry
        assert session.name == "Friday"
    doc = json.loads(session_path.read_text())["session"]["1"]
    assert doc["format"] == "banker-session" and doc["version"] == 2
    assert doc["checkpoint"] == {"entries": 1, "last": entry["sum"]} and len(doc["sum"]) == 8
    assert {k: doc[k] for k in ("edition", "variant", "players", "house_rules", "end_time")} == SETUP.to_mapping()
    assert doc["name"] == "Friday" and doc["created"]


def test_house_rules_and_end_time_are_kept(session_path):
    setup = Setup("classic-us", "timed", ("Ann", "Bob"), HouseRules(free_parking_pot=True), "2026-11-23T22:30+01:00")
    with Session.create(session_path, setup) as s:
        s.apply({"op": "tax", "player": "Ann", "space": 38})
        assert s.state.pot == 75
    with Session.open(session_path) as s:
        assert s.setup == setup
        assert s.state.pot == 75


# --------------------------------------------------------------------------- undo
def test_undo_entries_store_reason_and_the_seq_they_undo(session_path):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "salary", "player": "Bob"})
        entry = s.apply({"op": "undo", "reason": "  Bob did not pass GO "})
    assert entry["command"] == {"op": "undo", "reason": "Bob did not pass GO"}
    assert entry["undoes"] == 2
    assert entry["effects"] == [{"t": "pay", "from": "Bob", "to": "bank", "amount": 200, "for": "salary"}]
    assert "Bob did not pass GO" in entry["text"]
    _setup, entries = read_entries(session_path)
    assert entries[-1]["undoes"] == 2 and entries[-1]["command"]["reason"] == "Bob did not pass GO"


def test_undo_twice_undoes_the_two_last_actions(session_path):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        before = s.state.to_json()
        s.apply({"op": "buy", "player": "Bob", "space": 37})
        s.apply({"op": "salary", "player": "Cid"})
        first = s.apply({"op": "undo", "reason": "no"})
        second = s.apply({"op": "undo", "reason": "no again"})
        assert (first["undoes"], second["undoes"]) == (3, 2)
        assert s.state.to_json() == before
    with Session.open(session_path, readonly=True) as r:
        assert r.state.to_json() == before
        assert [e["undoes"] for e in r.entries] == [None, None, None, 3, 2]


def test_undo_after_reopen_names_the_right_seq(session_path):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "salary", "player": "Bob"})
        s.apply({"op": "undo", "reason": "x"})  # undoes 2; Ann's buy (1) stands
    with Session.open(session_path) as s:
        entry = s.apply({"op": "undo", "reason": "y"})
        assert entry["undoes"] == 1
        assert s.state.lots[39].owner is None


def test_undo_with_nothing_to_undo_is_refused_and_not_logged(session_path, file_bytes):
    with Session.create(session_path, SETUP) as s:
        before = file_bytes(session_path)
        with pytest.raises(Refused):
            s.apply({"op": "undo", "reason": "nothing"})
        with pytest.raises(Refused):
            s.apply({"op": "undo"})  # a reason is required
        assert file_bytes(session_path) == before and s.entries == []


# --------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("command", [
    {"op": "buy", "player": "Zed", "space": 39},
    {"op": "buy", "player": "Ann", "space": 40},
    {"op": "transfer", "from": "Ann", "to": "Bob", "amount": -5},
    {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 2.5},
    {"op": "build", "player": "Ann", "space": 39},  # not the full group
    {"op": "teleport", "player": "Ann"},
    {"op": "transfer", "from": "Ann", "to": "Bob", "amount": float("nan")},
    {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": {1, 2}},  # not JSON
    ["op", "salary"],
])
def test_a_refused_command_writes_nothing(session_path, file_bytes, command):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        before = file_bytes(session_path)
        state = s.state.to_json()
        with pytest.raises(Refused) as info:
            s.apply(command)
        assert str(info.value) and "\n" not in str(info.value)
        assert file_bytes(session_path) == before
        assert s.state.to_json() == state and len(s.entries) == 1
        assert s.apply({"op": "salary", "player": "Bob"})["seq"] == 2  # and the session goes on


def test_a_failed_write_takes_the_action_back(session_path, file_bytes, monkeypatch):
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "salary", "player": "Bob"})
        before, state = file_bytes(session_path), s.state.to_json()

        def disk_full(fd, data):
            os.write(fd, data[:7])  # a partial line, then the error
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(ledger_writer, "write_all", disk_full)
        for cmd in ({"op": "salary", "player": "Cid"}, {"op": "undo", "reason": "x"}):
            with pytest.raises(SessionError, match="No space left on device.*nothing was recorded"):
                s.apply(cmd)
            assert file_bytes(session_path) == before
            assert s.state.to_json() == state and len(s.entries) == 2
        monkeypatch.undo()
        assert s.apply({"op": "undo", "reason": "x"})["undoes"] == 2  # the undone move kept its seq
    with Session.open(session_path, readonly=True) as r:
        assert len(r.entries) == 3


# --------------------------------------------------------------------------- recovery
@pytest.mark.parametrize("tail", [
    b'1234abcd {"seq": 4, "ts"',  # the process died in the middle of the write
    b"00000000 " + json.dumps({"seq": 4}).encode(),  # the same, the newline not written yet
    b"\0\0\0\0\0\0\0\0\0\0\0\0",  # a power cut: the size grew, the data never came
])
def test_a_torn_last_journal_line_without_its_newline_is_dropped(session_path, file_bytes, tail):
    crash(play(session_path, GAME[:3]))
    write_at_lines_end(session_path, tail)
    torn = file_bytes(session_path)
    with Session.open(session_path, readonly=True) as r:  # a reader sees the 3 actions and changes nothing
        assert len(r.entries) == 3
    assert file_bytes(session_path) == torn
    with Session.open(session_path) as w:  # the writer cuts the torn line and checkpoints
        assert len(w.entries) == 3
        assert w.state.to_json() == fresh_state(GAME[:3]).to_json()
        assert len(journal_lines(session_path)) == 1
        w.apply(GAME[3])
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3, 4]


def test_journal_lines_already_checkpointed_are_skipped(session_path):
    session = play(session_path, GAME[:5])
    stale = journal_path(session_path).read_bytes()
    session.checkpoint()
    session.apply(GAME[5])
    session.apply(GAME[6])
    # a crash after a checkpoint's rename and before its truncation: the journal
    # still has lines 1-5 that FILE has too
    session.checkpoint()
    crash(session)
    journal_path(session_path).write_bytes(stale)
    with Session.open(session_path, readonly=True) as r:
        assert [e["seq"] for e in r.entries] == [1, 2, 3, 4, 5, 6, 7]
        assert r.state.to_json() == fresh_state(GAME[:7]).to_json()
    with Session.open(session_path) as w:
        assert len(w.entries) == 7
        assert len(journal_lines(session_path)) == 1
        assert w.apply(GAME[7])["seq"] == 8


def test_a_crash_before_the_checkpoint_rename_loses_nothing(session_path, monkeypatch):
    session = play(session_path, GAME[:6])

    def killed(*_args):
        raise KeyboardInterrupt  # stands for the process dying right before the rename

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        session.checkpoint()
    monkeypatch.undo()
    crash(session)
    leftovers = [p for p in session_path.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []  # the temp file is cleaned up even then
    # a real SIGKILL would leave the temp file: the next writer removes it
    stray = session_path.with_name(f".{session_path.name}.999-abcd.tmp")
    stray.write_text("{half a checkpoint")
    with Session.open(session_path) as w:
        assert len(w.entries) == 6
        assert not stray.exists()


# --------------------------------------------------------------------------- refusing bad files
def _session_with_entries(path: Path) -> None:
    with Session.create(path, SETUP) as s:
        for cmd in GAME[:4]:
            s.apply(cmd)


BAD_FILES = {
    "not JSON": (lambda p: p.write_text("this is my shopping list\n"), "not JSON"),
    "empty": (lambda p: p.write_bytes(b""), "empty"),
    "JSON but not a session": (lambda p: p.write_text('{"_default": {"1": {"x": 1}}}'), "no session table"),
    "a JSON list": (lambda p: p.write_text("[1, 2, 3]"), "no session table"),
    "wrong format marker": (lambda p: p.write_text('{"session": {"1": {"format": "something-else"}}}'),
                            "format marker"),
    "newer version": (lambda p: p.write_text('{"session": {"1": {"format": "banker-session", "version": 9}}}'),
                      "newer banker"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
@pytest.mark.parametrize("readonly", [False, True])
def test_a_file_that_is_not_a_session_is_refused_and_left_untouched(session_path, file_bytes, case, readonly):
    make, words = BAD_FILES[case]
    make(session_path)
    before = file_bytes(session_path)
    with pytest.raises(SessionError) as info:
        Session.open(session_path, readonly=readonly)
    message = str(info.value)
    assert words in message and str(session_path) in message and "\n" not in message
    assert file_bytes(session_path) == before
    assert not journal_path(session_path).exists()
    assert not session_path.with_name("game.json.lock").exists()


def _edit_file(path: Path, change) -> None:
    """An edit with the checksums made anew: the file is consistent, only the rules object."""
    edit_file(path, change)


DAMAGED = {
    "garbage journal line in the middle": (
        lambda p: _insert_journal_line(p, 2, b"garbage that is not a journal line\n"), "damaged at line 3"),
    "journal line with a bad CRC in the middle": (
        lambda p: _corrupt_journal_line(p, 2), "damaged at line 2"),
    "journal of another session": (
        lambda p: journal_path(p).write_bytes(header_line("0" * 32) + b"".join(journal_lines(p)[1:])),
        "belongs to another session"),
    "journal without a header": (lambda p: journal_path(p).write_bytes(b"".join(journal_lines(p)[1:])),
                                 "not a banker journal"),
    "an empty journal": (lambda p: journal_path(p).write_bytes(b""), "is empty: it holds no action"),
    "a gap in the journal": (lambda p: _drop_journal_line(p, 2), "does not follow"),
    "entry missing in FILE": (lambda p: _edit_file(p, lambda d: d["entries"].pop("1")), "entry 1 is missing"),
    "damaged entry in FILE": (lambda p: _edit_file(p, lambda d: d["entries"]["1"].pop("effects")), "entry 1 is damaged"),
    "unknown edition": (lambda p: _edit_file(p, lambda d: d["session"]["1"].update(edition="atlantis")),
                        "unknown edition"),
}


def _insert_journal_line(path: Path, index: int, line: bytes) -> None:
    lines = journal_lines(path)
    lines.insert(index, line)
    journal_path(path).write_bytes(b"".join(lines))


def _corrupt_journal_line(path: Path, index: int) -> None:
    lines = journal_lines(path)
    lines[index - 1] = lines[index - 1].replace(b'"Ann"', b'"Bob"', 1)
    journal_path(path).write_bytes(b"".join(lines))


def _drop_journal_line(path: Path, index: int) -> None:
    lines = journal_lines(path)
    del lines[index - 1]
    journal_path(path).write_bytes(b"".join(lines))


@pytest.mark.parametrize("case", list(DAMAGED))
@pytest.mark.parametrize("readonly", [False, True])
def test_a_damaged_session_is_refused_and_left_untouched(session_path, file_bytes, case, readonly):
    make, words = DAMAGED[case]
    with Session.create(session_path, SETUP) as s:
        s.apply(GAME[0])
        s.apply(GAME[1])
    if "FILE" in case or "edition" in case:
        pass  # the entries are in FILE after the checkpoint on close
    else:  # the entries stay in the journal
        s = Session.open(session_path)
        for cmd in GAME[2:5]:
            s.apply(cmd)
        s._release()  # die without a checkpoint
    make(session_path)
    before = file_bytes(session_path)
    with pytest.raises(SessionError) as info:
        Session.open(session_path, readonly=readonly)
    message = str(info.value)
    assert words in message and "\n" not in message, message
    assert file_bytes(session_path) == before
    if not readonly:  # the lock was given back
        assert lock_holder(session_path) is None


def test_create_refuses_an_existing_file_and_never_overwrites_it(session_path, file_bytes):
    session_path.write_text("precious")
    with pytest.raises(SessionError, match="already exists; choose another name or `banker open` it"):
        Session.create(session_path, SETUP)
    assert session_path.read_text() == "precious"
    other = session_path.with_name("other.json")
    journal_path(other).write_text("left over")
    with pytest.raises(SessionError, match="left over from an earlier session"):
        Session.create(other, SETUP)
    assert not other.exists()


def test_create_refuses_a_setup_the_rules_refuse_before_making_any_file(session_path):
    with pytest.raises(Refused):
        Session.create(session_path, Setup("classic-us", "classic", ("Ann",)))
    with pytest.raises(SessionError, match="unknown edition"):
        Session.create(session_path, Setup("atlantis", "classic", ("Ann", "Bob")))
    assert list(session_path.parent.iterdir()) == []


def test_open_refuses_a_missing_file_saying_how_to_start_one(session_path):
    with pytest.raises(SessionError, match="no session file .*banker new"):
        Session.open(session_path)
    with pytest.raises(SessionError, match="no session file"):
        read_entries(session_path)
    assert list(session_path.parent.iterdir()) == []


# --------------------------------------------------------------------------- locking
def test_a_second_writer_is_refused_naming_the_holder(session_path):
    with Session.create(session_path, SETUP):
        with pytest.raises(SessionError) as info:
            Session.open(session_path)
        assert str(info.value).startswith(f"session game.json is open for writing by process {os.getpid()} on host ")
        assert "close it there first (`banker review` shows it read-only meanwhile)" in str(info.value)
        assert lock_holder(session_path)["pid"] == os.getpid()
        with Session.open(session_path, readonly=True) as reader:  # readers are welcome
            assert reader.entries == []
    assert lock_holder(session_path) is None
    Session.open(session_path).close()  # released on close


def test_a_writer_in_another_process_is_named_and_its_death_frees_the_session(session_path):
    Session.create(session_path, SETUP).close()
    code = ("import sys; from banker.ledger import Session; s = Session.open(sys.argv[1]); "
            "print('ready', flush=True); sys.stdin.read()")
    child = subprocess.Popen([sys.executable, "-c", code, str(session_path)], cwd=ROOT, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert child.stdout.readline().strip() == "ready"
        with pytest.raises(SessionError, match=f"open for writing by process {child.pid} on host"):
            Session.open(session_path)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    with Session.open(session_path) as s:  # no stale lock after a crash
        assert s.apply({"op": "salary", "player": "Ann"})["seq"] == 1


def test_read_only_sessions_cannot_write(session_path, file_bytes):
    """A reader is a class of its own, without a way to record anything (no mode flag to forget)."""
    Session.create(session_path, SETUP).close()
    before = file_bytes(session_path)
    with Session.open(session_path, readonly=True) as r:
        assert isinstance(r, SessionReader) and r.readonly
        assert not any(hasattr(r, name) for name in ("apply", "undo", "checkpoint"))
        assert lock_holder(session_path) is None
    with Session.open(session_path) as w:
        assert isinstance(w, SessionWriter) and not w.readonly and not hasattr(w, "refresh")
    assert SessionReader.open(session_path).entries == []
    assert file_bytes(session_path) == before


def test_close_is_idempotent_and_a_closed_session_refuses_actions(session_path):
    s = Session.create(session_path, SETUP)
    s.apply({"op": "salary", "player": "Ann"})
    s.close()
    s.close()
    assert s.closed
    with pytest.raises(SessionError, match="closed"):
        s.apply({"op": "salary", "player": "Ann"})


# --------------------------------------------------------------------------- readers
def test_a_reader_sees_new_entries_through_refresh(session_path):
    writer = Session.create(session_path, SETUP)
    reader = Session.open(session_path, readonly=True)
    assert reader.refresh() == []
    writer.apply(GAME[0])
    writer.apply(GAME[1])
    assert [e["seq"] for e in reader.refresh()] == [1, 2]
    assert reader.refresh() == []
    writer.checkpoint()  # FILE rewritten, journal emptied: nothing new to see
    assert reader.refresh() == []
    writer.apply(GAME[2])
    assert [e["seq"] for e in reader.refresh()] == [3]
    for cmd in GAME[3:8]:
        writer.apply(cmd)
    writer.checkpoint()  # the new entries are now only in FILE
    writer.apply(GAME[8])
    assert [e["seq"] for e in reader.refresh()] == [4, 5, 6, 7, 8, 9]
    writer.apply({"op": "undo", "reason": "misheard"})
    assert reader.refresh()[0]["undoes"] == 9
    assert reader.state.to_json() == writer.state.to_json()
    assert reader.entries == writer.entries
    writer.close()
    assert reader.refresh() == []
    reader.close()


def test_a_reader_keeps_up_with_a_writer_in_another_process(session_path):
    """The writer appends and checkpoints as fast as it can while the reader polls."""
    Session.create(session_path, SETUP).close()
    child = busy_writer(session_path)
    reader = Session.open(session_path, readonly=True)
    seen = list(reader.entries)
    deadline = time.monotonic() + 30
    while child.poll() is None and time.monotonic() < deadline:
        seen += reader.refresh()
        assert [e["seq"] for e in seen] == list(range(1, len(seen) + 1))
    assert child.wait(timeout=30) == 0
    seen += reader.refresh()
    assert len(seen) == 300
    with Session.open(session_path, readonly=True) as final:
        assert reader.state.to_json() == final.state.to_json()
        assert reader.entries == final.entries


def test_read_entries_reads_without_replaying(session_path):
    play(session_path, GAME[:4]).close()
    setup, entries = read_entries(session_path)
    assert setup == SETUP
    assert [e["seq"] for e in entries] == [1, 2, 3, 4]
    assert entries[0]["text"] == "Ann buys Park Place for $350"


def test_a_replay_that_disagrees_with_the_logged_effects_is_reported_and_the_figures_stay(session_path):
    """An entry whose effects the rules compute differently today (here: written so by hand, its
    checksums made anew, as another engine version would have): the session opens with the
    figures recorded, and the check names the entry and the difference."""
    play(session_path, GAME[:3]).close()
    _edit_file(session_path, lambda d: d["entries"]["2"]["effects"][0].update(amount=399))
    for readonly in (True, False):
        with Session.open(session_path, readonly=readonly) as s:
            assert s.state.cash["Ann"] == 1500 - 350 - 399 - 200  # what the log says, never silently changed
            assert s.divergent == []  # nothing checked yet
            [finding] = s.replay_check()
            assert (finding.seq, finding.kind) == (2, "effects")
            assert finding.logged[0]["amount"] == 399 and finding.computed[0]["amount"] == 400
            assert s.divergent == [2] and s.findings == [finding]
            assert s.state.cash["Ann"] == 1500 - 350 - 399 - 200  # the check changes nothing


# --------------------------------------------------------------------------- TinyDB
def test_a_checkpoint_leaves_a_plain_tinydb_file(session_path):
    session = play(session_path, GAME[:6])
    session.checkpoint()
    db = TinyDB(session_path)
    try:
        assert db.tables() == {"session", "snapshot", "entries"}
        assert db.table("snapshot").get(doc_id=1)["seq"] == 6  # the state at entry 6 (docs/session-log.md)
        setup = db.table("session").get(doc_id=1)
        assert setup["format"] == "banker-session" and setup["players"] == ["Ann", "Bob", "Cid"]
        entries = db.table("entries")
        assert len(entries) == 6
        assert entries.get(doc_id=2)["text"] == "Ann buys Boardwalk for $400"
        assert [d.doc_id for d in entries.all()] == [1, 2, 3, 4, 5, 6]
    finally:
        db.close()
    session.close()


def test_atomic_storage_round_trips_through_tinydb(tmp_path):
    db = TinyDB(tmp_path / "t.json", storage=AtomicJSONStorage)
    db.insert({"a": 1})
    db.table("x").insert({"b": "ü"})
    db.close()
    assert json.loads((tmp_path / "t.json").read_text()) == {"_default": {"1": {"a": 1}}, "x": {"1": {"b": "ü"}}}
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]  # no temp files left


# --------------------------------------------------------------------------- finding sessions
def test_recent_sessions_lists_sessions_newest_first(tmp_path):
    old = tmp_path / "old.json"
    new = tmp_path / "new.json"
    with Session.create(old, Setup("classic-us", "classic", ("Ann", "Bob")), name="Tuesday") as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
    os.utime(old, (time.time() - 3600,) * 2)
    os.utime(journal_path(old), (time.time() - 3600,) * 2)
    with Session.create(new, SETUP) as s:
        s.apply({"op": "salary", "player": "Cid"})
    (tmp_path / "notes.json").write_text("[]")  # not a session: skipped
    (tmp_path / "broken.json").write_text("{")
    before = sorted(p.name for p in tmp_path.iterdir())
    found = recent_sessions(tmp_path)
    assert [f["name"] for f in found] == ["new", "Tuesday"]
    assert found[1]["players"] == ["Ann", "Bob"] and found[1]["edition"] == "classic-us"
    assert found[1]["last_text"] == "Ann buys Boardwalk for $400" and found[1]["actions"] == 1
    assert found[1]["date"] == found[1]["created"][:10]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert recent_sessions(tmp_path / "nowhere") == []


def test_default_session_dir_is_the_user_data_dir():
    path = default_session_dir()
    assert isinstance(path, Path) and "banker" in path.parts[-1].lower()


@pytest.mark.parametrize("edition", ["classic-us", "uk", "ru", "kyiv"])
def test_every_edition_and_non_ascii_names_round_trip(session_path, edition):
    setup = Setup(edition, "classic", ("Аня", "Zoë", "Борис"))
    commands = [{"op": "buy", "player": "Аня", "space": 39}, {"op": "buy", "player": "Zoë", "space": 37},
                {"op": "rent", "payer": "Борис", "space": 39}, {"op": "undo", "reason": "не та клетка"}]
    with Session.create(session_path, setup) as s:
        for cmd in commands:
            s.apply(cmd)
        journal = Session.open(session_path, readonly=True)
        assert journal.entries == s.entries
        expected = s.state.to_json()
    with Session.open(session_path, readonly=True) as r:
        assert r.state.to_json() == expected == fresh_state(commands, setup).to_json()
        assert r.entries[-1]["command"]["reason"] == "не та клетка"
    db = TinyDB(session_path)  # ASCII-escaped JSON: readable under any locale
    assert db.table("session").get(doc_id=1)["players"] == ["Аня", "Zoë", "Борис"]
    db.close()


# --------------------------------------------------------------------------- opening from the logged effects
def _random_game(path: Path, edition: str, seed: int, n: int = 300) -> None:
    """A long legal game with undos now and then (undo twice in a row too)."""
    import random

    from banker.rules.legal import legal_actions

    rng = random.Random(seed)
    with Session.create(path, Setup(edition, "classic", ("Ann", "Bob", "Cid", "Dee"))) as s:
        for i in range(n):
            if s.state.over:
                break
            if i and rng.random() < 0.08:
                s.apply({"op": "undo", "reason": f"mistake {i}"})
                continue
            options = [c for c in legal_actions(s.state) if c["op"] not in ("end_game",)]
            try:
                s.apply(rng.choice(options))
            except Refused:
                pass


@pytest.mark.parametrize("edition", ["classic-us", "uk", "ru", "kyiv"])
def test_opening_from_the_logged_effects_gives_the_engines_state(session_path, edition):
    _random_game(session_path, edition, seed=len(edition))
    with Session.open(session_path, readonly=True) as restored:
        replayed = engine_replay(restored)  # the rules recompute every command: nothing found
        assert len(restored.entries) > 100
        assert restored.state.to_json() == replayed.to_json()
        assert [(m.command, m.effects) for m in restored.state.history] == \
               [(m.command, m.effects) for m in replayed.history]
        standing = [e.seq for e in restored.entries if not e.is_undo]
        for e in restored.entries:  # the log's own account of what stands
            if e.is_undo:
                standing.remove(e.undoes)
        assert list(restored.standing) == standing and len(standing) == len(restored.state.history)
    # and the session goes on the same way: two undos and a new action
    with Session.open(session_path) as writer:
        a = writer.apply({"op": "undo", "reason": "again"})
        b = writer.apply({"op": "undo", "reason": "and again"})
        c = writer.apply({"op": "salary", "player": "Ann"})
        assert (a.undoes, b.undoes) == (standing[-1], standing[-2])
        after = writer.state.to_json()
    with Session.open(session_path, readonly=True) as again:
        assert again.state.to_json() == after == engine_replay(again).to_json()
        assert [e.undoes for e in again.entries[-3:]] == [a.undoes, b.undoes, None]
        assert again.entries[-1].seq == c.seq


def test_the_check_never_changes_the_figures_and_the_session_goes_on(session_path):
    """Before: the console adopted the engine's state when the check disagreed with the log (the
    table silently showed other figures than recorded). Now the check only reports."""
    play(session_path, GAME[:3]).close()
    _edit_file(session_path, lambda d: d["entries"]["2"]["effects"][0].update(amount=399))
    with Session.open(session_path) as s:
        assert s.state.cash["Ann"] == 1500 - 350 - 399 - 200  # what the log says
        findings = s.replay_check(upto=3)
        assert [f.seq for f in findings] == [2]
        s.apply({"op": "salary", "player": "Bob"})  # recorded while the check ran
        assert s.state.cash["Ann"] == 1500 - 350 - 399 - 200
        assert s.state.cash["Bob"] == 1700 and len(s.state.history) == 4
        assert s.divergent == [2]
        assert not hasattr(s, "adopt")


def test_an_undo_entry_that_does_not_match_the_log_is_refused(session_path, file_bytes):
    play(session_path, GAME[:3] + [{"op": "undo", "reason": "no"}]).close()
    _edit_file(session_path, lambda d: d["entries"]["4"].update(undoes=1))
    before = file_bytes(session_path)
    with pytest.raises(SessionError, match="entry 4 .* cannot be restored .*last standing one is 3"):
        Session.open(session_path)
    assert file_bytes(session_path) == before


# --------------------------------------------------------------------------- open from the log, check with the engine
def _old_shortage_auction(path: Path, monkeypatch) -> None:
    """A session recorded before issue #8, when a building auction was taken without a shortage
    (the engine of then is today's with the shortage rule switched off)."""
    import banker.rules.building as building

    with monkeypatch.context() as m:
        m.setattr(building, "no_shortage", lambda state, kind, bidder=None: None)
        with Session.create(path, SETUP) as s:
            s.apply({"op": "buy", "player": "Ann", "space": 1})
            s.apply({"op": "buy", "player": "Ann", "space": 3})
            s.apply({"op": "building_auction", "player": "Ann", "space": 1, "bid": 10})
            s.apply({"op": "salary", "player": "Bob"})


def test_a_command_todays_rules_refuse_is_a_finding_never_a_refusal_to_open(session_path, monkeypatch, capsys):
    """Before: opening replayed every command through today's rules, and a log holding one they
    refuse (a shortage auction recorded before issue #8) could not be opened at all ("entry 3 no
    longer replays"). Now the session opens for reading and writing with the recorded figures,
    and the check (the console's background check, `banker audit`) names the entry."""
    from banker.cli import main
    from banker.ledger.audit import audit
    from banker.report import audit_lines

    _old_shortage_auction(session_path, monkeypatch)
    with pytest.raises(Refused, match="shortage|build"):  # today's rules: no shortage, so no auction
        fresh_state([{"op": "buy", "player": "Ann", "space": 1}, {"op": "buy", "player": "Ann", "space": 3},
                     {"op": "building_auction", "player": "Ann", "space": 1, "bid": 10}])
    recorded = 1500 - 60 - 60 - 10
    with Session.open(session_path, readonly=True) as r:
        assert r.state.cash["Ann"] == recorded and r.state.lots[1].houses == 1 and r.state.bank_houses == 31
        [finding] = r.replay_check()
        assert (finding.seq, finding.kind, finding.refusal.rule) == (3, "refused", "building-auction-shortage")
        assert r.divergent == [3] and r.state.cash["Ann"] == recorded
    with Session.open(session_path) as w:  # the writer too, and the game goes on
        assert w.state.cash["Ann"] == recorded and w.state.lots[1].houses == 1
        assert w.apply({"op": "undo", "reason": "Bob's salary twice"}).undoes == 4
        undone = w.apply({"op": "undo", "reason": "the auction was not allowed"})
        assert undone.undoes == 3 and undone.effects[-1] == {"t": "pay", "from": "bank", "to": "Ann", "amount": 10,
                                                              "for": "building auction"}
        assert w.state.cash["Ann"] == 1500 - 60 - 60 and w.state.lots[1].houses == 0 and w.state.bank_houses == 32
        w.apply({"op": "salary", "player": "Cid"})
    report = audit(session_path)
    assert [(p.seq, p.kind) for p in report.problems] == [(3, "refused")]
    assert report.recomputed == report.entries - 1 == 6
    lines = audit_lines(report)
    assert lines[1].startswith("  entry 3: the rules refuse it (") and "shortage" in lines[1]
    assert main(["audit", str(session_path)]) == 1
    assert "entry 3: the rules refuse it" in capsys.readouterr().out
    assert main(["state", str(session_path)]) == 0


def test_a_changed_command_with_its_checksums_made_anew_opens_and_is_found(session_path):
    """A log whose command was changed into one the rules refuse (checksums made anew, so no
    damage is seen): it opens with its recorded effects, and the check names the entry."""
    play(session_path, GAME[:3]).close()
    _edit_file(session_path, lambda d: d["entries"]["2"]["command"].update(player="Zed"))
    with Session.open(session_path) as w:
        assert w.state.lots[39].owner == "Ann" and w.state.cash["Ann"] == 1500 - 350 - 400 - 200
        [finding] = w.replay_check()
        assert (finding.seq, finding.kind) == (2, "refused") and "Zed" in str(finding.refusal)


def test_undo_is_an_operation_of_the_log_not_of_the_engine(session_path):
    """The writer pops the engine's last move and records the reversal itself; opening and the
    check pop for an undo entry. The engine has no undo of its own (it refuses ``{"op": "undo"}``)."""
    assert not hasattr(GameState, "undo")
    with pytest.raises(Refused):
        game_from_setup(SETUP).push({"op": "undo", "reason": "x"})
    with Session.create(session_path, SETUP) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "salary", "player": "Bob"})
        assert s.standing == (1, 2)
        entry = s.undo("  Bob did not pass GO ")
        assert isinstance(entry, Entry) and entry.seq == 3 and entry.undoes == 2 and s.standing == (1,)
        assert entry.command == {"op": "undo", "reason": "Bob did not pass GO"}
        assert entry.effects == [{"t": "pay", "from": "Bob", "to": "bank", "amount": 200, "for": "salary"}]
        assert entry.info == {"undone_command": {"op": "salary", "player": "Bob"}}
        assert entry.text == "Undone (Bob did not pass GO); Bob collects $200 salary"
        assert entry.parts[0] == {"key": "log.undone", "params": {"reason": "Bob did not pass GO"}}
        assert s.apply({"op": "undo", "reason": "and the deed"}).undoes == 1 and s.standing == ()
        assert s.state.to_json() == game_from_setup(SETUP).to_json() | {"actions": 0}
        with pytest.raises(Refused, match="Nothing to undo"):
            s.undo("more")
        with pytest.raises(Refused, match="needs a reason"):
            s.undo("  ")
    with Session.open(session_path, readonly=True) as r:
        assert r.replay_check() == [] and r.standing == () and r.state.cash["Ann"] == 1500


def test_an_entry_reads_as_it_is_stored(session_path):
    """The typed entry carries the stored JSON exactly (the checksum is over it) and reads like it."""
    with Session.create(session_path, SETUP) as s:
        entry = s.apply({"op": "buy", "player": "Ann", "space": 39})
    stored = json.loads(session_path.read_text())["entries"]["1"]
    assert entry.to_json() == stored and list(entry.to_json()) == list(stored)
    assert list(stored) == ["seq", "ts", "command", "effects", "text", "parts", "info", "undoes", "sum"]
    assert entry["seq"] == entry.seq == 1 and entry.get("parts") == entry.parts and entry.get("nothing") is None
    assert "sum" in entry and "nothing" not in entry


def test_an_entry_with_an_unknown_key_is_damage_named_in_one_line(session_path, file_bytes):
    play(session_path, GAME[:2]).close()
    _edit_file(session_path, lambda d: d["entries"]["2"].update(landd=True))
    before = file_bytes(session_path)
    with pytest.raises(SessionError, match=r"entry 2 is damaged \(unknown 'landd'\); the file was left untouched"):
        Session.open(session_path, readonly=True)
    assert file_bytes(session_path) == before


def test_journal_line_is_the_entry_encoded_once(tmp_path: Path) -> None:
    """The writer encodes an entry once and puts its sum last in those bytes (issue #14: the per-action
    cost): each journal line is byte for byte what encoding the stored entry, sum included, gives, and
    its sum is the chained checksum of the rest (a name outside ASCII, an undo and a trade among them)."""
    from banker.ledger import checksum
    from banker.ledger.journal import decode_line, encode_payload

    setup = Setup("classic-us", "classic", ("Ann", "Бо́б", "Cid \U0001f3b2"))
    session = SessionWriter.create(tmp_path / "game.json", setup)
    commands = [{**c, **{k: setup.players[("Ann", "Bob", "Cid").index(v)] for k, v in c.items()
                         if v in ("Ann", "Bob", "Cid")}} for c in GAME]
    for cmd in commands:
        session.apply(cmd)
    lines = [line.rstrip(b"\n") for line in journal_lines(session.path)[1:]]
    assert len(lines) == len(session.entries) == len(GAME)
    prev = checksum.seed(session.info.get("id"))
    for line, entry in zip(lines, session.entries, strict=True):
        stored = decode_line(line)
        assert line[9:] == encode_payload(stored)
        assert list(stored)[-1] == checksum.SUM and stored == entry.to_json()
        assert checksum.entry_sum(stored, prev) == checksum.parse(stored[checksum.SUM])
        prev = checksum.parse(stored[checksum.SUM])
    session.close()
    assert Session.open(tmp_path / "game.json", readonly=True).entries.materialize() == list(session.entries)


@pytest.mark.parametrize("doc", [{"seq": 1}, {"seq": 2, "text": "Ann → Бо́б \u2028 \"x\"", "info": {"a": [1, {"b": None}]}},
                                 {"seq": 3, "effects": [], "undoes": None, "parts": [{"key": "k", "params": {}}]}])
def test_sealed_body_is_the_encoding_with_the_sum_last(doc: dict) -> None:
    from banker.ledger.journal import encode_payload

    assert ledger_writer.sealed_body(encode_payload(doc), "0badcafe") == encode_payload({**doc, "sum": "0badcafe"})
