"""The checkpoint's snapshot (issue #14): a session opens from the state its last checkpoint stored
and the journal since, and that state is exactly what a full replay of its log gives.

docs/session-log.md ("The checkpoint's snapshot") describes the format and what is checked on open.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest
from tinydb import TinyDB

from banker.boards import game_from_setup
from banker.ledger import Session, SessionError, journal_path
from banker.ledger import checksum as checksums
from banker.ledger import snapshot as snapshots
from banker.ledger.audit import audit
from banker.ledger.check import follow_all
from banker.ledger.writer import repair
from banker.report.audit import audit_lines
from banker.rules import GameState, Refused, Setup
from banker.rules.legal import legal_actions
from banker.rules.snapshot import FROM_SETUP, STACK, restore, stored_attributes, to_plain

#: every edition, with the variants their books describe (tests/test_properties.py's list)
COMBOS = [("classic-us", "classic"), ("classic-us", "short"), ("classic-us", "timed"), ("uk", "classic"),
          ("uk", "speed-die"), ("ru", "classic"), ("ru", "short"), ("ru", "timed"), ("kyiv", "classic")]
PLAYERS = ("Ann", "Bob", "Cid")


def setup_of(edition: str, variant: str) -> Setup:
    return Setup(edition, variant, PLAYERS, end_time="2026-11-23T23:00+01:00" if variant == "timed" else None)


def candidates(state: GameState, rng: random.Random) -> list[dict[str, Any]]:
    """The engine's legal actions, and rents on owned deeds (which it leaves out), for a random game."""
    out = list(legal_actions(state))
    for pos, lot in state.lots.items():
        if lot.owner is not None:
            payer = rng.choice([p for p in state.active_players if p != lot.owner] or [lot.owner])
            out.append({"op": "rent", "payer": payer, "space": pos, "dice": rng.randint(2, 12)})
    return out


def play_random(session, n: int, seed: int) -> None:
    """``n`` more entries: random legal actions, an undo now and then (of any entry that stands,
    those before the last checkpoint included)."""
    rng = random.Random(seed)
    goal = len(session.entries) + n
    tries = 0
    while len(session.entries) < goal and tries < 20 * n:
        tries += 1
        if session.standing and rng.random() < 0.12:
            session.undo("wrong player")
            continue
        options = candidates(session.state, rng)
        if not options:
            break
        try:
            session.apply(rng.choice(options))
        except Refused:
            continue


def attributes(state: GameState) -> dict[str, Any]:
    """Every attribute of ``state`` (the stack of moves as its commands, effects, parts and info)."""
    out = {name: value for name, value in vars(state).items() if name != STACK}
    out[STACK] = [(m.command, m.effects, m.parts, m.info) for m in state.history]
    return out


def full_replay(path: Path) -> tuple[GameState, list[int]]:
    """The state every entry of the session gives, followed from the start (no snapshot)."""
    read = Session.open(path, readonly=True)
    state, standing, _ = follow_all(path, read.setup, list(read.entries))
    return state, standing


def assert_same_as_full_replay(session) -> None:
    state, standing = full_replay(session.path)
    assert list(session.standing) == standing
    mine, theirs = attributes(session.state), attributes(state)
    assert mine.keys() == theirs.keys()
    for name in theirs:
        assert mine[name] == theirs[name], name
        if isinstance(theirs[name], dict) and name in ORDERED:  # and in the same order (the engine walks them)
            assert list(mine[name]) == list(theirs[name]), name


#: the state's mappings whose keys a fresh state has (the board's lots, one entry a player...): the order the engine
#: walks them in is theirs, however the state was read (a bankruptcy after a reopening logged its deeds as 11, 13, 3)
ORDERED = ("lots", "cash", "positions", "in_jail", "jail_turns", "jail_cards", "passed_go")


def snapshot_record(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()).get("snapshot", {}).get("1")


@pytest.mark.parametrize(("edition", "variant"), COMBOS)
def test_opening_from_the_snapshot_gives_exactly_the_full_replays_state(tmp_path, edition, variant):
    """On every edition and variant, with undo entries: the session opened from its checkpoint's
    snapshot (reader and writer) has every attribute the full replay of its log gives, then goes on
    (an undo of an entry from before the checkpoint included) and still does."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of(edition, variant)) as s:
        play_random(s, 120, seed=len(edition) * 31 + len(variant))
    record = snapshot_record(path)
    assert record is not None and record["seq"] == 120
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None and reader.entries.pending == 120  # nothing decoded to open
        assert_same_as_full_replay(reader)
        assert reader.replay_check() == []
    with Session.open(path) as writer:
        assert writer.opened_from is not None
        assert_same_as_full_replay(writer)
        while len(writer.standing) > 110:  # undo entries the snapshot covers: their moves are made when popped
            writer.undo("checked")
        play_random(writer, 30, seed=5)
        assert_same_as_full_replay(writer)
    with Session.open(path, readonly=True) as again:
        assert again.opened_from is not None and again.opened_from[0] == 120 + len(again.entries) - 120
        assert_same_as_full_replay(again)


def test_a_bankruptcy_after_a_reopening_is_what_the_rules_give(tmp_path):
    """Found by a follow-mode probe: the snapshot's mappings are sorted as text, so a state opened from it listed its
    lots as 11, 13, 28, 3...; a bankruptcy recorded then named the deeds in that order, and the audit (a replay from
    the start) said "the log has owner (space 13 ...), the rules give owner (space 3 ...)", the console "recorded by
    another version of the rules"."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        for cmd in ({"op": "buy", "player": "Ann", "space": 13}, {"op": "buy", "player": "Ann", "space": 3},
                    {"op": "buy", "player": "Bob", "space": 37}, {"op": "buy", "player": "Bob", "space": 39},
                    {"op": "mortgage", "player": "Ann", "space": 13}, {"op": "mortgage", "player": "Ann", "space": 3}):
            s.apply(cmd)
        s.apply({"op": "transfer", "from": "Ann", "to": "Bob", "amount": s.state.cash["Ann"] - 5})
        s.apply({"op": "transfer", "from": "Cid", "to": "Bob", "amount": 1500})
    with Session.open(path) as s:  # from the snapshot
        assert s.opened_from is not None
        s.apply({"op": "rent", "space": 39, "payer": "Ann"})
        entry = s.apply({"op": "bankrupt", "player": "Ann"})
        owners = [e["space"] for e in entry.to_json()["effects"] if e["t"] == "owner"]
        assert owners == sorted(owners) == [3, 13]
        assert s.replay_check() == []
    assert audit(path).ok


@pytest.mark.parametrize(("edition", "variant"), [("classic-us", "classic"), ("uk", "speed-die"), ("ru", "timed"),
                                                  ("kyiv", "classic")])
def test_a_crash_between_the_snapshot_and_the_journal_opens_as_the_full_replay(tmp_path, edition, variant):
    """A checkpoint, then actions (undos of entries before it among them) recorded in the journal
    only, then a crash: opening reads the snapshot and the journal since, and gives what the full
    replay gives; a writer's open folds the journal in with a new snapshot."""
    path = tmp_path / "game.json"
    s = Session.create(path, setup_of(edition, variant))
    play_random(s, 80, seed=1)
    s.checkpoint()
    for _ in range(3):
        s.undo("misheard")
    play_random(s, 25, seed=2)
    copy = tmp_path / "crashed.json"
    shutil.copyfile(path, copy)  # the files as a crash leaves them: FILE with its snapshot, the journal since
    shutil.copyfile(journal_path(path), journal_path(copy))
    s.close()
    assert snapshot_record(copy)["seq"] == 80 and len(journal_path(copy).read_bytes().splitlines()) > 20
    with Session.open(copy, readonly=True) as reader:
        assert reader.opened_from is not None and reader.opened_from[0] == 80 and len(reader.entries) > 100
        assert_same_as_full_replay(reader)
    with Session.open(copy) as writer:
        assert_same_as_full_replay(writer)
    assert snapshot_record(copy)["seq"] == len(Session.open(copy, readonly=True).entries)


def test_every_attribute_of_the_state_is_stored():
    """The snapshot is generic over GameState's attributes: all of them but those made from the setup
    and the stack; an attribute it would not store faithfully is refused, naming it."""
    g = game_from_setup(setup_of("classic-us", "classic"))
    assert set(stored_attributes(g)) == set(vars(g)) - FROM_SETUP - {STACK}
    assert set(to_plain(g)) == set(stored_attributes(g))
    g.tally = 3  # an attribute without a declared type, plain JSON as it is: stored as it is
    plain = json.loads(json.dumps(to_plain(g)))
    fresh = game_from_setup(g.setup)
    fresh.tally = 0
    restore(fresh, plain, 0, lambda i: g.history[i])
    assert fresh.tally == 3
    g.seen = {1, 2}  # a set without a declared type would come back as a list: refused, named
    with pytest.raises(TypeError, match="GameState.seen"):
        to_plain(g)


def test_a_snapshot_missing_an_attribute_is_not_used(tmp_path):
    """A snapshot that lacks an attribute of today's state (written by an engine without it) is
    never half used: the session opens from every entry, and the check says why."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        play_random(s, 40, seed=3)
    data = json.loads(path.read_text())
    record = data["snapshot"]["1"]
    del record["state"]["dealt"]
    record["sum"] = checksums.fmt(snapshots.digest(record))  # consistent, as another version would write it
    path.write_text(json.dumps(data))
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is None
        assert_same_as_full_replay(reader)
        [finding] = reader.replay_check()
        assert finding.kind == "snapshot" and "dealt" in (finding.error or "")


def test_the_index_and_the_standing_entries_are_stored_packed(tmp_path):
    """The snapshot's index (a number per entry) and standing seqs are stored as 4-byte integers in base64, not as
    JSON lists (decoding 37,000 JSON numbers was a third of opening a 20,000-action snapshot, issue #14): what they
    unpack to is the table's index and the session's standing seqs."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        play_random(s, 60, seed=4)
        standing = list(s.standing)
    record = snapshot_record(path)
    assert record is not None and isinstance(record["index"], str) and isinstance(record["standing"], str)
    assert list(snapshots.unpack(record["standing"]) or []) == standing
    raw = path.read_bytes()
    table = raw[raw.rindex(b',"entries":') + len(b',"entries":'):-1]
    index = list(snapshots.unpack(record["index"]) or [])
    assert len(index) == 60 and all(table[at + 1:].startswith(b'"%d":' % (seq + 1)) for seq, at in enumerate(index))
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None and list(reader.standing) == standing


def test_a_snapshot_written_with_json_lists_is_still_used(tmp_path, monkeypatch):
    """A snapshot written before the packed form (its index and standing seqs as JSON lists) is used as it is,
    reader and writer, and gives the full replay's state; the next checkpoint writes it packed."""
    path = tmp_path / "game.json"
    with monkeypatch.context() as m:
        m.setattr(snapshots, "pack", list)  # as the code before it wrote them
        with Session.create(path, setup_of("uk", "classic")) as s:
            play_random(s, 50, seed=8)
    record = snapshot_record(path)
    assert record is not None and isinstance(record["index"], list) and isinstance(record["standing"], list)
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None and not reader.snapshot_problem
        assert_same_as_full_replay(reader)
    with Session.open(path) as writer:
        assert writer.opened_from is not None
        assert_same_as_full_replay(writer)
        play_random(writer, 5, seed=1)
    record = snapshot_record(path)
    assert record is not None and isinstance(record["index"], str)
    assert audit(path).ok


@pytest.mark.parametrize("index", ["not base64!", "AAAA", "AAAAAA==", [1, 2]])
def test_a_resealed_snapshot_whose_index_does_not_fit_is_not_used(tmp_path, index):
    """An index that is not packed numbers, or not one per entry, in a snapshot whose sum was made anew over it:
    the snapshot is not used, and the check says why."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        play_random(s, 30, seed=5)
    data = json.loads(path.read_text())
    record = data["snapshot"]["1"]
    record["index"] = index
    record["sum"] = checksums.fmt(snapshots.digest(record))
    path.write_text(json.dumps(data, separators=(",", ":")))
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is None
        assert_same_as_full_replay(reader)
        [finding] = reader.replay_check()
        assert finding.kind == "snapshot" and "index" in str(finding.error)


def _tamper(path: Path, *, reseal: bool) -> None:
    """Give Ann 1,000 more in the snapshot; with ``reseal`` its own sum made anew (a forger, or a
    bug: only the full replay can tell)."""
    data = json.loads(path.read_text())
    record = data["snapshot"]["1"]
    record["state"]["cash"]["Ann"] += 1000
    if reseal:
        record["sum"] = checksums.fmt(snapshots.digest(record))
    path.write_text(json.dumps(data, separators=(",", ":")))


def test_a_tampered_snapshot_is_never_used_and_is_reported(tmp_path, capsys):
    """A snapshot changed after it was written fails its own sum: the session opens from its
    entries (the figures the log gives), the background check and the audit report it, and
    `banker repair` makes it anew."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        play_random(s, 60, seed=4)
    true_cash = Session.open(path, readonly=True).state.cash["Ann"]
    _tamper(path, reseal=False)
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is None and reader.state.cash["Ann"] == true_cash
        assert_same_as_full_replay(reader)
        [finding] = reader.replay_check()
        assert finding.kind == "snapshot" and finding.seq == 60 and "checksum" in (finding.error or "")
        assert reader.divergent == [] and reader.snapshot_findings == [finding]
    report = audit(path)
    assert [p.kind for p in report.problems] == ["snapshot"]
    assert "snapshot" in audit_lines(report)[1] and "entry 60" in audit_lines(report)[1]
    [done] = repair(path)
    assert "made it anew" in done
    with Session.open(path, readonly=True) as fixed:
        assert fixed.opened_from is not None and fixed.state.cash["Ann"] == true_cash and fixed.replay_check() == []
    assert audit(path).ok


def test_a_forged_snapshot_is_found_by_the_check_and_the_audit(tmp_path):
    """A snapshot changed with its sum made anew passes the quick checks (only the full replay can
    tell): the background check and the audit name it, never silently; repair makes it anew."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("uk", "classic")) as s:
        play_random(s, 60, seed=6)
    _tamper(path, reseal=True)
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None
        [finding] = reader.replay_check()
        assert finding.kind == "snapshot" and "cash" in (finding.error or "")
        assert finding.logged["Ann"] == finding.computed["Ann"] + 1000
    assert [p.kind for p in audit(path).problems] == ["snapshot"]
    repair(path)
    assert audit(path).ok
    with Session.open(path, readonly=True) as fixed:
        assert_same_as_full_replay(fixed)


def test_an_old_session_without_a_snapshot_still_opens_and_gets_one(tmp_path):
    """A session written before the snapshots (no 'snapshot' table): it opens by replaying every
    entry, as before; its next writer gives it a snapshot."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("ru", "classic")) as s:
        play_random(s, 50, seed=7)
    data = json.loads(path.read_text())
    del data["snapshot"]
    path.write_text(json.dumps(data))
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is None and reader.snapshot_problem is None
        assert_same_as_full_replay(reader)
        assert reader.replay_check() == []
    Session.open(path).close()
    assert snapshot_record(path)["seq"] == 50
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None
        assert_same_as_full_replay(reader)


def test_a_reformatted_file_is_checked_entry_by_entry_and_still_uses_its_snapshot(tmp_path):
    """A file a tool rewrote (keys sorted, indented: the entries' bytes are not the checkpoint's)
    is read the slow way, every entry's checksum checked, and its snapshot still serves."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("kyiv", "classic")) as s:
        play_random(s, 50, seed=8)
    path.write_text(json.dumps(json.loads(path.read_text()), sort_keys=True, indent=2))
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None and reader.entries.pending == 0 and reader.damage == []
        assert_same_as_full_replay(reader)


def test_an_edited_entry_is_still_found_on_open(tmp_path):
    """The quick way in trusts the entries only when their bytes are the checkpoint's: an entry
    changed by hand is found on open, as before (the session opens read-only)."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        play_random(s, 30, seed=9)
    raw = path.read_bytes()
    marker = b'"seq":10,'
    at = raw.index(marker)
    amount = raw.index(b'"amount":', at) + len(b'"amount":')
    path.write_bytes(raw[:amount] + b"9" + raw[amount:])
    with Session.open(path, readonly=True) as reader:
        assert [d.seq for d in reader.damage] == [10]


def test_entries_are_decoded_when_read(tmp_path):
    """Opening decodes none of the checkpoint's entries; reading the last one decodes it alone;
    they are the entries a full read gives."""
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        play_random(s, 300, seed=10)
        written = list(s.entries)
    with Session.open(path, readonly=True) as reader:
        assert reader.entries.pending == 300
        assert reader.entries[-1] == written[-1] and reader.entries.pending == 299
        assert reader.entries[-3:] == written[-3:]
        assert list(reader.entries) == written and reader.entries.pending == 0


def test_plain_tinydb_reads_a_checkpoint_with_its_snapshot(tmp_path):
    path = tmp_path / "game.json"
    with Session.create(path, setup_of("classic-us", "classic")) as s:
        play_random(s, 20, seed=11)
    db = TinyDB(path)
    try:
        assert db.tables() == {"session", "snapshot", "entries"}
        snap = db.table("snapshot").get(doc_id=1)
        assert snap["seq"] == 20 and set(snap["state"]) == set(to_plain(game_from_setup(setup_of("classic-us", "classic"))))
        assert len(db.table("entries")) == 20
    finally:
        db.close()
    assert msgspec.json.decode(path.read_bytes())["snapshot"]["1"]["sum"] == snapshot_record(path)["sum"]


def test_a_player_named_entries_does_not_confuse_the_quick_way_in(tmp_path):
    """The quick way in looks for the entries table after the snapshot; a player called "entries"
    puts the same key in the snapshot's figures, and the session still opens the quick way."""
    path = tmp_path / "game.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "entries", "Cid"))) as s:
        play_random(s, 40, seed=12)
    assert b',"entries":' in path.read_bytes().split(b',"entries":{"1":')[0]
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None and reader.entries.pending == 40
        assert_same_as_full_replay(reader)


def play_follow(session, n: int, seed: int) -> None:
    """``n`` more entries of a game in follow mode: rolls, the proposals settled as proposed (or the turn
    ended by hand), an undo of a roll now and then; tokens, jail, doubles and proposals all move."""
    rng = random.Random(seed)
    goal = len(session.entries) + n
    tries = 0
    while len(session.entries) < goal and tries < 20 * n:
        tries += 1
        state = session.state
        if session.standing and rng.random() < 0.08:
            session.undo("wrong roll")
            continue
        due = state.pending
        if due is not None and not due.needs and rng.random() < 0.85:
            cmd = dict(due.command)
        elif due is not None or state.debts or rng.random() < 0.05:
            cmd = {"op": "end_turn"}
        else:
            cmd = {"op": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
            if state.variant.speed_die and state.passed_go.get(state.current or "", False):
                cmd["speed"] = rng.choice([1, 2, 3])
        try:
            session.apply(cmd)
        except Refused:
            for player in state.debts:
                try:  # a debt the dice made: settled by going bankrupt, so the game goes on
                    session.apply({"op": "bankrupt", "player": player})
                except Refused:
                    pass
                break


@pytest.mark.parametrize(("edition", "variant"), [("classic-us", "classic"), ("uk", "speed-die"), ("ru", "short"),
                                                  ("kyiv", "classic")])
def test_a_game_in_follow_mode_opens_from_the_snapshot_as_the_full_replay(tmp_path, edition, variant):
    """Follow mode (issue #11) moves tokens, jail, doubles, the turn and a pending proposal: the snapshot
    stores them all. A checkpoint in the middle of a roll's proposal, undos of rolls from before it, more
    rolls, then a crash: every attribute equals the full replay's."""
    path = tmp_path / "game.json"
    s = Session.create(path, Setup(edition, variant, PLAYERS, follow=True))
    play_follow(s, 90, seed=len(edition) + len(variant))
    s.checkpoint()
    assert s.state.follow and any(s.state.positions.values())
    for _ in range(2):
        s.undo("misheard the dice")
    play_follow(s, 30, seed=9)
    copy = tmp_path / "crashed.json"
    shutil.copyfile(path, copy)
    shutil.copyfile(journal_path(path), journal_path(copy))
    s.close()
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None
        assert_same_as_full_replay(reader)
        assert reader.replay_check() == []
    with Session.open(copy, readonly=True) as crashed:
        assert crashed.opened_from is not None and crashed.opened_from[0] == 90
        assert_same_as_full_replay(crashed)


def test_follow_mode_off_and_on_within_a_turn_replays_and_a_session_recorded_before_opens_as_recorded(tmp_path,
                                                                                                      monkeypatch):
    """docs/rules.md: follow mode off and on again keeps the turn's doubles. Ann has thrown doubles twice, follow mode
    goes off (a checkpoint then) and on again, and her third doubles send her to jail: the session opens from its
    snapshot as the full replay and its check finds nothing. A session recorded when off and on reset the count (the
    third doubles rolled again) opens as it was recorded, and the check names its `follow` entry alone."""
    from banker.rules import turns

    def record(path: Path) -> None:
        with Session.create(path, Setup("classic-us", "classic", PLAYERS, follow=True)) as s:
            chest = next(c.id for c in s.state.edition.cards.values() if c.deck == "chest" and c.kind == "collect")
            s.apply({"op": "roll", "dice": [1, 1]})
            s.apply({**(s.state.pending.command if s.state.pending else {}), "card": chest})
            s.apply({"op": "roll", "dice": [5, 5]})
            s.apply({"op": "auction", "space": 12, "winner": None})
            s.apply({"op": "follow", "on": False})
            s.checkpoint()
            s.apply({"op": "follow", "on": True})
            s.apply({"op": "roll", "dice": [3, 3]})

    record(tmp_path / "now.json")
    with Session.open(tmp_path / "now.json", readonly=True) as reader:
        assert reader.opened_from is not None
        assert_same_as_full_replay(reader)
        state = reader.state
        assert state.in_jail["Ann"] and state.positions["Ann"] == 10 and state.current == "Bob"
        assert reader.replay_check() == []
    with monkeypatch.context() as m:
        m.setattr(turns, "held_doubles", lambda state: 0)  # as off and on were before
        record(tmp_path / "before.json")
    with Session.open(tmp_path / "before.json", readonly=True) as reader:
        assert_same_as_full_replay(reader)
        state = reader.state
        assert not state.in_jail["Ann"] and state.positions["Ann"] == 18 and state.doubles == 1
        reader.replay_check()
        assert reader.divergent == [6]  # the follow entry: today it resumes the turn with its two doubles


@pytest.mark.parametrize("where", ["before the line", "after the line"])
@pytest.mark.parametrize("action", ["apply", "undo"])
def test_an_action_interrupted_half_way_never_puts_its_move_in_the_snapshot(tmp_path, monkeypatch, where, action):
    """Ctrl+C (or any other exit) in the middle of recording an action, its move made in memory: nothing more is
    recorded in that session and its close writes no checkpoint from that memory; reopened, the session is exactly
    what its recorded entries give, the interrupted action among them only when its line was written. (Before, the
    close wrote the half-recorded move into the snapshot: `banker state` showed money no entry gives.)"""
    import banker.ledger.writer as writer_module

    path = tmp_path / "game.json"
    session = Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob", "Cid")))
    session.apply({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 7, "memo": "first"})
    real = writer_module.sync_data if where == "after the line" else writer_module.write_all

    def interrupted(*args: Any) -> None:
        if where == "after the line":
            real(*args)  # the line is on the disk: the action is recorded, though the caller never hears so
        raise KeyboardInterrupt

    monkeypatch.setattr(writer_module, "sync_data" if where == "after the line" else "write_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        if action == "apply":
            session.apply({"op": "transfer", "from": "Cid", "to": "Bob", "amount": 4, "memo": "second"})
        else:
            session.undo("wrong amount")
    monkeypatch.undo()
    with pytest.raises(SessionError, match=r"interrupted while recording an action \(Ctrl\+C, or a fault\); close and reopen it"):
        session.apply({"op": "salary", "player": "Ann"})
    session.close()  # no checkpoint from the memory the interruption left
    recorded = 2 if where == "after the line" else 1
    with Session.open(path) as again:
        assert len(again.entries) == recorded
        assert_same_as_full_replay(again)
        cash = {"apply": {"Ann": 1493, "Bob": 1511, "Cid": 1496}, "undo": {"Ann": 1500, "Bob": 1500, "Cid": 1500}}
        assert again.state.cash == (cash[action] if recorded == 2 else {"Ann": 1493, "Bob": 1507, "Cid": 1500})
        again.apply({"op": "salary", "player": "Ann"})  # the session goes on
    with Session.open(path, readonly=True) as reader:
        assert reader.opened_from is not None and reader.replay_check() == []
        assert_same_as_full_replay(reader)
