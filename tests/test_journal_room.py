"""The journal's room made ahead (issue #14: each action durable at close to the disk's own cost): the writer
writes zeros past the journal's last line, fsynced, and each action's line then overwrites them and is
fdatasynced (no new size to flush). The zeros are no line: readers, recovery, repair and every failure keep
the journal's lines exactly as they would be without them."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import banker.ledger.writer as ledger_writer
from banker.cli import main
from banker.ledger import Session, SessionError, journal_path, read_entries
from banker.ledger.journal import JournalCorrupt, frame, lines_end, scan
from banker.ledger.writer import JOURNAL_ROOM
from banker.rules import Setup

from .ledger_helpers import journal_lines, write_at_lines_end

SETUP = Setup("classic-us", "classic", ("Ann", "Bob", "Cid"))
SALARIES = [{"op": "salary", "player": p} for p in ("Ann", "Bob", "Cid")]


def room_of(path: Path) -> tuple[int, int]:
    """(where the journal's lines end, the journal's size)."""
    data = journal_path(path).read_bytes()
    return lines_end(data), len(data)


# --------------------------------------------------------------------------- reading the lines
@pytest.mark.parametrize("room", [0, 1, 4095, 4096, 4097, 3 * 4096 + 17])
def test_the_lines_end_before_the_room_of_any_size(room):
    lines = frame(b'{"format":"banker-journal"}') + frame(b'{"seq":1}')
    assert lines_end(lines + bytes(room)) == len(lines)
    assert lines_end(lines + bytes(room), len(lines)) == len(lines)
    assert lines_end(bytes(room)) == 0 and lines_end(bytes(room), 1 if room else 0) == (1 if room else 0)
    found = scan(lines + bytes(room))
    assert len(found.records) == 2 and found.end == len(lines) and found.torn is None and found.damaged is None


def test_a_line_the_writer_died_writing_into_the_room_is_a_torn_tail():
    lines = frame(b'{"format":"banker-journal"}') + frame(b'{"seq":1}')
    torn = frame(b'{"seq":2,"text":"Ann collects $200 salary"}')[:20]
    found = scan(lines + torn + bytes(5000))
    assert len(found.records) == 2 and found.end == len(lines) and found.torn == "an unfinished last line"
    # its first bytes never reached the disk, a later part did: still only a torn tail, not a line
    holed = bytes(10) + frame(b'{"seq":2}')[10:-1]
    found = scan(lines + holed + bytes(5000))
    assert len(found.records) == 2 and found.torn == "an unfinished last line" and found.damaged is None


@pytest.mark.parametrize("hole", ["start", "middle"])
def test_a_last_line_with_a_hole_of_zeros_and_its_newline_is_a_torn_tail_not_damage(hole):
    """The pages of one write reach the disk each on its own: a power cut before the line's sync can keep its
    end, newline and all, and not its start (or a page in its middle). Before: 'complete but damaged', so the
    session would not open for writing over an action never acknowledged."""
    lines = frame(b'{"format":"banker-journal"}') + frame(b'{"seq":1}')
    line = frame(b'{"seq":2,"text":"' + b"x" * 300 + b'"}')
    holed = bytes(100) + line[100:] if hole == "start" else line[:50] + bytes(100) + line[150:]
    found = scan(lines + holed + bytes(5000))
    assert len(found.records) == 2 and found.end == len(lines) and found.damaged is None
    assert found.torn and "NUL" in found.torn
    # the same line with complete lines after it was never a crash leftover (each line is synced before the next)
    with pytest.raises(JournalCorrupt):
        scan(lines + holed + frame(b'{"seq":3}'))
    # and a last line damaged otherwise is still damage
    found = scan(lines + line.replace(b"xxx", b"xyx", 1) + bytes(5000))
    assert found.damaged is not None and found.torn is None


def test_a_line_whose_start_never_reached_the_disk_opens_without_it(session_path):
    session = Session.create(session_path, SETUP)
    for cmd in SALARIES:
        session.apply(cmd)
    session._release()  # the power went while the third line was not yet synced: of it, only its end is there
    lines = journal_lines(session_path)
    start = sum(map(len, lines[:-1]))
    with open(journal_path(session_path), "r+b") as f:
        f.seek(start)
        f.write(bytes(40))
    with Session.open(session_path, readonly=True) as reader:
        assert [e.seq for e in reader.entries] == [1, 2] and not reader.damage
    with Session.open(session_path) as writer:  # not refused as damaged: the line is cut, the game goes on
        assert [e.seq for e in writer.entries] == [1, 2]
        writer.apply(SALARIES[2])
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3]


def test_a_reader_reading_while_lines_are_written_never_sees_damage(session_path):
    """A reader's read can overtake the writer's: the pages of a line read before it was written are zeros, those
    read after hold its end. Before, such a read was 'damage' (a reader opened then said the session was damaged).
    Here every partly written state of a line is read: each prefix of the line, and each of its ends after zeros."""
    session = Session.create(session_path, SETUP)
    session.apply(SALARIES[0])
    session._release()
    data = journal_path(session_path).read_bytes()
    end = lines_end(data)
    line = frame(b'{"seq":2,"text":"' + b"y" * 200 + b'"}')
    for cut in range(1, len(line)):
        for seen in (line[:cut] + bytes(len(line) - cut), bytes(cut) + line[cut:]):
            found = scan(data[:end] + seen + data[end + len(line):])
            assert len(found.records) == 2 and found.damaged is None and found.torn, cut


# --------------------------------------------------------------------------- writing
def test_actions_are_written_into_room_made_ahead_and_close_gives_it_back(session_path):
    session = Session.create(session_path, SETUP)
    header = journal_path(session_path).stat().st_size
    session.apply(SALARIES[0])
    end, size = room_of(session_path)
    assert size == end + JOURNAL_ROOM  # room past the first line, made by the first action
    assert journal_path(session_path).read_bytes()[end:] == bytes(JOURNAL_ROOM)
    for cmd in SALARIES[1:]:
        session.apply(cmd)
    assert room_of(session_path)[1] == size  # the next lines overwrite the room: the file does not grow
    assert len(journal_lines(session_path)) == 4
    with Session.open(session_path, readonly=True) as reader:  # a reader meanwhile: the three actions, no more
        assert [e.seq for e in reader.entries] == [1, 2, 3] and not reader.damage
    session.close()
    assert journal_path(session_path).stat().st_size == header  # the journal folded in, the room given back
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3]


def test_the_room_is_made_again_when_the_lines_reach_it(session_path, monkeypatch):
    monkeypatch.setattr(ledger_writer, "JOURNAL_ROOM", 600)  # room for about one line at a time
    session = Session.create(session_path, SETUP)
    sizes = []
    for i in range(12):
        session.apply(SALARIES[i % 3])
        end, size = room_of(session_path)
        assert end < size <= end + 600 + 1000 and journal_path(session_path).read_bytes()[end:] == bytes(size - end)
        sizes.append(size)
    assert len(set(sizes)) > 3  # made again and again
    session.close()
    assert [e["seq"] for e in read_entries(session_path)[1]] == list(range(1, 13))


def test_a_killed_writer_leaves_the_room_and_every_action_opens(session_path):
    session = Session.create(session_path, SETUP)
    for cmd in SALARIES:
        session.apply(cmd)
    session._release()  # killed: no checkpoint, the room still there
    end, size = room_of(session_path)
    assert size > end
    with Session.open(session_path) as writer:  # recovery folds the three in; the room is gone with the lines
        assert [e.seq for e in writer.entries] == [1, 2, 3]
        writer.apply({"op": "salary", "player": "Ann"})
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3, 4]


def test_a_line_torn_in_the_room_is_cut_with_the_room_by_the_next_writer(session_path, file_bytes):
    session = Session.create(session_path, SETUP)
    for cmd in SALARIES[:2]:
        session.apply(cmd)
    session._release()
    write_at_lines_end(session_path, b'1234abcd {"seq": 3, "ts"')  # the power went while it was written
    torn = file_bytes(session_path)
    with Session.open(session_path, readonly=True) as reader:  # a reader changes nothing
        assert [e.seq for e in reader.entries] == [1, 2] and not reader.damage
    assert file_bytes(session_path) == torn
    with Session.open(session_path) as writer:
        assert [e.seq for e in writer.entries] == [1, 2]
        assert len(journal_lines(session_path)) == 1 and room_of(session_path)[0] == room_of(session_path)[1]
        writer.apply(SALARIES[2])
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3]


def test_a_damaged_line_in_the_room_is_kept_aside_without_the_zeros(session_path):
    session = Session.create(session_path, SETUP)
    for cmd in SALARIES[:2]:
        session.apply(cmd)
    session._release()
    lines = journal_lines(session_path)
    bad = lines[-1].replace(b'"Bob"', b'"Bxb"', 1)
    with open(journal_path(session_path), "r+b") as f:  # the last line changed where it stands, the room after it
        f.seek(sum(map(len, lines[:-1])))
        f.write(bad)
    with pytest.raises(SessionError, match="its last line .* is complete but damaged"):
        Session.open(session_path)
    assert main(["repair", str(session_path), "--yes"]) == 0
    assert session_path.with_name("game.json.journal.damaged-2").read_bytes() == bad
    with Session.open(session_path) as writer:
        assert [e.seq for e in writer.entries] == [1]


# --------------------------------------------------------------------------- failures
def _fail_writes(monkeypatch, err: int, when) -> list[int]:
    """Make ``write_all`` in the writer fail with ``err`` (after writing half the bytes, as a full disk does) for
    the writes ``when(data)`` picks; returns the sizes it failed on."""
    real = ledger_writer.write_all
    failed: list[int] = []

    def write_all(fd, data):
        if when(data):
            failed.append(len(data))
            os.write(fd, bytes(data[:len(data) // 2]))
            raise OSError(err, os.strerror(err))
        return real(fd, data)

    monkeypatch.setattr(ledger_writer, "write_all", write_all)
    return failed


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EFBIG])
def test_no_room_on_the_disk_for_the_room_still_records_the_action(session_path, monkeypatch, err):
    """A disk with room for a line but not for the room ahead: the line goes at the end of the file, as an
    append, and is recorded."""
    session = Session.create(session_path, SETUP)
    failed = _fail_writes(monkeypatch, err, lambda data: len(data) >= JOURNAL_ROOM)
    entry = session.apply(SALARIES[0])
    assert failed and entry.seq == 1
    end, size = room_of(session_path)
    assert size == end  # no room made; no zeros left half-written
    monkeypatch.undo()
    session.apply(SALARIES[1])  # with room on the disk again, it is made
    end, size = room_of(session_path)
    assert size == end + JOURNAL_ROOM
    session._release()
    with Session.open(session_path, readonly=True) as reader:
        assert [e.seq for e in reader.entries] == [1, 2] and not reader.damage


def test_an_error_making_the_room_records_nothing_and_leaves_the_journal_as_it_was(session_path, monkeypatch,
                                                                                    file_bytes):
    session = Session.create(session_path, SETUP)
    before, state = file_bytes(session_path), session.state.to_json()
    failed = _fail_writes(monkeypatch, errno.EIO, lambda data: len(data) >= JOURNAL_ROOM)
    with pytest.raises(SessionError, match="Input/output error.*nothing was recorded"):
        session.apply(SALARIES[0])
    assert failed and file_bytes(session_path) == before
    assert session.state.to_json() == state and len(session.entries) == 0
    monkeypatch.undo()
    assert session.apply(SALARIES[0]).seq == 1  # and the session goes on
    session.close()
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1]


@pytest.mark.parametrize("err", [errno.EIO, errno.ENOSPC])
def test_a_failed_line_in_the_room_leaves_the_journal_byte_for_byte(session_path, monkeypatch, file_bytes, err):
    session = Session.create(session_path, SETUP)
    session.apply(SALARIES[0])
    before = file_bytes(session_path)
    assert room_of(session_path)[1] > room_of(session_path)[0]  # the line would go into the room
    failed = _fail_writes(monkeypatch, err, lambda data: len(data) < JOURNAL_ROOM)
    with pytest.raises(SessionError, match="nothing was recorded"):
        session.apply(SALARIES[1])
    assert failed and file_bytes(session_path) == before  # its first bytes wiped: zeros again
    monkeypatch.undo()
    assert session.apply(SALARIES[1]).seq == 2
    session._release()
    with Session.open(session_path, readonly=True) as reader:
        assert [e.seq for e in reader.entries] == [1, 2] and not reader.damage


def test_a_failed_line_that_cannot_be_wiped_is_cut_off_and_never_comes_back(session_path, monkeypatch):
    """The line written whole, its sync failed, and zeros cannot be written over it either (a full copy-on-write
    disk): it is cut off with the room, which needs no space. Before: the line stayed in the journal, and the
    action said 'nothing was recorded' came back on the next open."""
    session = Session.create(session_path, SETUP)
    session.apply(SALARIES[0])

    def failing(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(ledger_writer, "sync_data", failing)
    monkeypatch.setattr(ledger_writer, "write_at", failing)
    with pytest.raises(SessionError, match="nothing was recorded"):
        session.apply(SALARIES[1])
    end, size = room_of(session_path)
    assert size == end and len(journal_lines(session_path)) == 2  # the header and the first action's line
    monkeypatch.undo()
    assert session.apply(SALARIES[2]).seq == 2  # the session goes on, the room made again
    session._release()
    with Session.open(session_path) as writer:
        assert [e.text for e in writer.entries] == ["Ann collects $200 salary", "Cid collects $200 salary"]


def test_a_failed_sync_of_a_line_in_the_room_records_nothing(session_path, monkeypatch, file_bytes):
    session = Session.create(session_path, SETUP)
    session.apply(SALARIES[0])
    before = file_bytes(session_path)

    def failing(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(ledger_writer, "sync_data", failing)
    with pytest.raises(SessionError, match="Input/output error.*nothing was recorded"):
        session.apply(SALARIES[1])
    assert file_bytes(session_path) == before and len(session.entries) == 1
    monkeypatch.undo()
    assert session.apply(SALARIES[1]).seq == 2
    session.close()
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2]
