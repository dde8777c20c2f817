"""Issue #14: the console opens a session with its checkpoint's entries left on the disk.

Reading and summing a long game's entries table (9 MB at 20,000 actions) while the console started cost
its first frame; ``Session.open(path, defer_table=True)`` reads the setup and the snapshot only, reads an
entry from the disk when it is wanted, and the whole table, checked against the CRC-32 its checkpoint
recorded, when it is needed whole, before anything is recorded, or when the console checks it (just after
its first frame). These pin that such a session is the one the full read gives, and that an entry changed
on the disk is found before anything is recorded in it or written over it.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from banker.i18n import Translator
from banker.ledger import Session, SessionDamaged, SessionError, SessionReader, SessionWriter, TableChanged, journal_path
from banker.ledger.audit import audit
from banker.ledger.format import FileTable

from .ledger_helpers import busy_writer
from .test_snapshot import COMBOS, assert_same_as_full_replay, play_random, setup_of


def _game(tmp_path: Path, n: int = 30, edition: str = "classic-us", variant: str = "classic", seed: int = 9) -> Path:
    path = tmp_path / "game.json"
    with Session.create(path, setup_of(edition, variant)) as s:
        play_random(s, n, seed=seed)
    return path


def _edit_entry(path: Path, seq: int) -> None:
    """An amount of entry ``seq`` changed by hand, its first digit another: the file as long as before, so its
    layout is still the checkpoint's and only the entries' CRC-32 can tell."""
    raw = path.read_bytes()
    at = raw.index(b'"seq":%d,' % seq)
    amount = raw.index(b'"amount":', at) + len(b'"amount":')
    digit = b"5" if raw[amount:amount + 1] != b"5" else b"6"
    path.write_bytes(raw[:amount] + digit + raw[amount + 1:])
    assert len(path.read_bytes()) == len(raw)


def _in_progress(tmp_path: Path) -> tuple[Path, SessionWriter]:
    """A game going on: 30 actions checkpointed, 5 more in the journal, and its writer, still open."""
    path = tmp_path / "game.json"
    s = Session.create(path, setup_of("classic-us", "classic"))
    play_random(s, 30, seed=9)
    s.checkpoint()
    play_random(s, 5, seed=2)
    return path, s


def _changed_copy(path: Path, writer: SessionWriter, copy: Path) -> Path:
    """The files of ``writer``'s game copied to ``copy`` as they stand (as a crash leaves them), the writer then
    closed, and entry 10 of the copy changed by hand."""
    shutil.copyfile(path, copy)
    shutil.copyfile(journal_path(path), journal_path(copy))
    writer.close()
    _edit_entry(copy, 10)
    return copy


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize(("edition", "variant"), COMBOS)
def test_a_writer_with_its_entries_on_the_disk_is_the_full_replays_and_goes_on(tmp_path, edition, variant):
    """Opened with its entries left on the disk, on every edition: the same entries and state as the full
    read; recording (an undo of an entry from before the checkpoint first) checks the table, and the session
    goes on and closes into a file the audit finds whole."""
    path = _game(tmp_path, 120, edition, variant, seed=len(edition) * 7 + len(variant))
    with Session.open(path, readonly=True) as reader:
        whole = list(reader.entries)
    with Session.open(path, defer_table=True) as writer:
        assert writer.table_unchecked and writer.entries.pending == 120
        assert writer.entries[-1] == whole[-1] and writer.entries[-3:] == whole[-3:]  # read from the disk alone
        assert writer.table_unchecked
        assert_same_as_full_replay(writer)
        assert list(writer.entries) == whole
        standing = len(writer.standing)
        while len(writer.standing) > standing - 6:  # entries from before the checkpoint: their moves popped
            writer.undo("checked")
        assert not writer.table_unchecked
        play_random(writer, 20, seed=3)
        assert_same_as_full_replay(writer)
    report = audit(path)
    assert report.ok, report.problems
    with Session.open(path, readonly=True) as again:
        assert again.opened_from is not None
        assert_same_as_full_replay(again)


def test_an_entry_changed_on_the_disk_stops_the_writer_before_anything_is_recorded(tmp_path):
    """An entry changed by hand in a file whose table is left on the disk: the session opens (only the setup
    and the snapshot were read), and the first thing recorded finds the change: nothing is recorded, nor is a
    checkpoint written over the changed entry at close; the full read then says which entry changed."""
    path = _game(tmp_path)
    _edit_entry(path, 10)
    before = path.read_bytes()
    journal = journal_path(path).read_bytes()
    writer = Session.open(path, defer_table=True)
    assert not writer.damage and writer.table_unchecked
    with pytest.raises(TableChanged) as raised:
        writer.apply({"op": "salary", "player": "Ann"})
    assert raised.value.key == "table_changed" and "not what its last checkpoint sealed" in str(raised.value)
    assert Translator("en").session(raised.value) == str(raised.value)
    assert "не те, что запечатала последняя контрольная точка" in Translator("ru").session(raised.value)
    with pytest.raises(SessionError, match="not what its last checkpoint sealed"):
        writer.undo("misheard")
    writer.close()
    assert path.read_bytes() == before and journal_path(path).read_bytes() == journal
    with pytest.raises(SessionDamaged):  # the lock let go; the full way says what is damaged
        Session.open(path)
    with Session.open(path, readonly=True) as reader:
        assert [d.seq for d in reader.damage] == [10]


def test_a_table_changed_on_the_disk_with_a_journal_to_fold_is_found_on_open(tmp_path):
    """When the journal holds actions to fold in as the session opens, the table is read and checked at once:
    a changed entry is found on open, as on the full way."""
    path, s = _in_progress(tmp_path)
    copy = _changed_copy(path, s, tmp_path / "crashed.json")
    with pytest.raises(SessionDamaged):
        Session.open(copy, defer_table=True)
    with Session.open(copy, readonly=True) as reader:
        assert [d.seq for d in reader.damage] == [10]


def test_the_file_is_let_go_whether_or_not_the_table_was_read(tmp_path):
    """The file kept open for the table's entries is closed with the session (the table never read whole), once
    the table is read, and when the session does not open."""
    path = _game(tmp_path)
    open_before = _open_fds()
    with Session.open(path, defer_table=True) as writer:
        assert _open_fds() > open_before
        assert writer.entries[-1].seq == 30
    assert _open_fds() == open_before
    with Session.open(path, defer_table=True) as writer:
        writer.check_table()
        table = writer.entries._table
        assert not isinstance(table, FileTable) or table.checked
    assert _open_fds() == open_before
    journal_path(path).write_bytes(b"not a journal\n")
    with pytest.raises(SessionError):
        Session.open(path, defer_table=True)
    assert _open_fds() == open_before


def test_a_file_that_is_not_a_checkpoints_opens_the_full_way(tmp_path):
    """A file whose layout is not a checkpoint's (rewritten by plain TinyDB: its entries not last) is read whole,
    as without ``defer_table``: nothing is left on the disk."""
    path = _game(tmp_path)
    from tinydb import TinyDB

    with TinyDB(path) as db:  # TinyDB rewrites the file in its own order and spacing
        db.table("_default").insert({"note": "kept"})
    with Session.open(path, defer_table=True) as writer:
        assert not writer.table_unchecked
        assert_same_as_full_replay(writer)


def test_a_writer_closed_before_its_table_is_checked_says_so(tmp_path):
    """The console's check may come after the session is closed (the console quit at once): the table is not
    read any more, and that is said as a closed session, which the console's check lets be."""
    path = _game(tmp_path)
    writer = Session.open(path, defer_table=True)
    writer.close()
    with pytest.raises(SessionError) as raised:
        writer.check_table()
    assert raised.value.key == "closed" and not isinstance(raised.value, TableChanged)


# --------------------------------------------------------------------------- a look (`banker state`)
@pytest.mark.parametrize(("edition", "variant"), COMBOS)
def test_a_look_with_its_entries_on_the_disk_is_the_full_replays(tmp_path, edition, variant):
    """``SessionReader.open(path, on_disk=True)`` (``banker state``), on every edition: the table checked as it
    opens and left on the disk, with the same entries and state as the reader that holds the table in memory."""
    path = _game(tmp_path, 80, edition, variant, seed=len(edition) * 5 + len(variant))
    with Session.open(path, readonly=True) as reader:
        whole = list(reader.entries)
        state = reader.state.to_json()
    with SessionReader.open(path, on_disk=True) as look:
        table = look.entries._table
        assert isinstance(table, FileTable) and not table.checked  # checked, not kept
        assert look.opened_from is not None and not look.damage
        assert look.state.to_json() == state
        assert look.entries[-1] == whole[-1]  # read from the disk alone
        assert_same_as_full_replay(look)
        assert list(look.entries) == whole


def test_a_look_finds_an_entry_changed_on_the_disk_as_it_opens(tmp_path):
    """An entry changed by hand (the file as long as before: only the table's CRC-32 tells): the look's check
    finds it as the session opens, reads the file the full way, and says which entry changed, as the reader
    that holds the table does; nothing is left open."""
    path = _game(tmp_path)
    _edit_entry(path, 10)
    open_before = _open_fds()
    with SessionReader.open(path, on_disk=True) as look:
        assert [d.seq for d in look.damage] == [10]
        assert look.opened_from is None  # the snapshot not trusted: every entry followed
        assert not isinstance(look.entries._table, FileTable)
    assert _open_fds() == open_before


def test_a_look_cut_short_on_the_disk_is_read_the_full_way(tmp_path):
    """A file whose entries table was cut short and closed again by hand is not a checkpoint's: the full way,
    which says what is wrong, never the snapshot."""
    path = _game(tmp_path)
    raw = path.read_bytes()
    last = raw.rindex(b',"30":')
    path.write_bytes(raw[:last] + b"}}")
    with SessionReader.open(path, on_disk=True) as look:
        assert look.opened_from is None and look.damage
        assert len(look.entries) == 29


def test_a_look_lets_its_file_go(tmp_path):
    """The file kept open for a look's entries is closed with it, and when it is dropped unclosed; an entry not
    read by then cannot be read after the close, and that is said as a closed session."""
    path = _game(tmp_path)
    open_before = _open_fds()
    look = SessionReader.open(path, on_disk=True)
    assert _open_fds() == open_before + 1
    look.close()
    assert _open_fds() == open_before
    with pytest.raises(SessionError) as raised:
        look.entries[4]
    assert raised.value.key == "closed"
    dropped = SessionReader.open(path, on_disk=True)
    assert _open_fds() == open_before + 1
    del dropped
    gc.collect()
    assert _open_fds() == open_before


def test_banker_state_says_the_same_with_the_entries_on_the_disk(tmp_path, capsys):
    """`banker state` (which opens a look) prints what the reader holding the table gives, in text and JSON."""
    from banker.cli import main, render_state

    path = _game(tmp_path, 60)
    with Session.open(path, readonly=True) as reader:
        text = render_state(reader, Translator("en"))
        state = reader.state.to_json()
    assert main(["state", str(path), "--lang", "en"]) == 0
    assert capsys.readouterr().out == text + "\n"
    assert main(["state", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(state))


def test_a_look_at_a_game_in_progress_follows_its_journal(tmp_path):
    """A look at a game going on (a checkpoint, then actions in the journal, the writer still open): the table
    is checked and left on the disk, and the journal's entries followed on the snapshot, as the reader holding
    the table gives them; with an entry of the table changed, the change is found as it opens."""
    path, s = _in_progress(tmp_path)
    with Session.open(path, readonly=True) as reader:
        whole, state = list(reader.entries), reader.state.to_json()
    with SessionReader.open(path, on_disk=True) as look:
        assert isinstance(look.entries._table, FileTable) and look.opened_from is not None
        assert len(look.entries) == len(whole) > 30 and look.state.to_json() == state
        assert list(look.entries) == whole
    copy = _changed_copy(path, s, tmp_path / "copy.json")
    with SessionReader.open(copy, on_disk=True) as look:
        assert [d.seq for d in look.damage] == [10] and look.opened_from is None


def test_looks_beside_a_writer_in_another_process_never_see_damage(tmp_path):
    """`banker state` run again and again while the game goes on (a writer in another process appending and
    checkpointing as fast as it can): every look opens, finds no damage, holds entries 1..n in order, never fewer
    than the look before, and its state is the one those entries give (the last look, the final reader's)."""
    path = tmp_path / "game.json"
    Session.create(path, setup_of("classic-us", "classic")).close()
    child = busy_writer(path)
    looks = 0
    before = 0
    deadline = time.monotonic() + 30
    while child.poll() is None and time.monotonic() < deadline:
        with SessionReader.open(path, on_disk=True) as look:
            assert not look.damage and not look.snapshot_problem
            seqs = [e.seq for e in look.entries]
            assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= before
            before = len(seqs)
            looks += 1
    assert child.wait(timeout=30) == 0 and looks > 1
    with SessionReader.open(path, on_disk=True) as look, Session.open(path, readonly=True) as final:
        assert len(look.entries) == 300 and look.state.to_json() == final.state.to_json()
        assert_same_as_full_replay(look)
