"""The session log against faults and hostile files (issue #9): the writer lock cannot be
fooled, damage is reported and never silently dropped, and no file breaks a session or the
program. Each test here fails on the log as it was before (see the docstrings)."""

from __future__ import annotations

import errno
import json
import os
import queue
import signal
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import banker.ledger.storage as ledger_storage
from banker.cli import main
from banker.ledger import Session, SessionError, journal_path, lock_holder, read_entries
from banker.ledger.lock import LABEL
from banker.rules import Setup

from .ledger_helpers import edit_file, journal_lines, write_at_lines_end

ROOT = Path(__file__).resolve().parent.parent
SETUP = Setup("classic-us", "classic", ("Ann", "Bob", "Cid"))
GAME = [
    {"op": "buy", "player": "Ann", "space": 37},
    {"op": "buy", "player": "Ann", "space": 39},
    {"op": "rent", "payer": "Bob", "space": 39},
    {"op": "salary", "player": "Cid"},
    {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 25, "memo": "loan"},
]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def play(path: Path, commands=GAME, close: bool = True) -> Session:
    session = Session.create(path, SETUP)
    for cmd in commands:
        session.apply(cmd)
    if close:
        session.close()
    return session


def die(session: Session) -> None:
    """Let go of a writer as a killed process would: no checkpoint, files as they are."""
    session._release()


def lock_file(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def run_cli(*args: str, timeout: float = 60, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`banker ARGS` in a child process (a hang fails the test instead of hanging the suite)."""
    return subprocess.run([sys.executable, "-m", "banker", *args], cwd=ROOT, env=ENV, capture_output=True, text=True,
                          timeout=timeout, input=stdin)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


# =========================================================================== the writer lock
def test_deleting_the_lock_file_under_a_running_writer_lets_no_second_writer_in(session_path):
    """Before: the second writer locked a fresh g.json.lock and got in; the first writer's
    checkpoint then lost the second's acknowledged action."""
    first = play(session_path, GAME[:2], close=False)
    lock_file(session_path).unlink()
    with pytest.raises(SessionError, match="open for writing by another process"):
        Session.open(session_path)
    first.apply(GAME[2])
    first.close()
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3]
    with Session.open(session_path) as again:  # the lock file comes back with the next writer
        assert again.apply(GAME[3])["seq"] == 4


def test_a_second_writer_in_another_process_is_refused_after_the_lock_file_is_deleted(session_path):
    """The same across processes: the kernel's locks, not this process's bookkeeping."""
    play(session_path, GAME[:1])
    code = ("import sys; from banker.ledger import Session; s = Session.open(sys.argv[1]); "
            "print('ready', flush=True); sys.stdin.read(); s.apply({'op': 'salary', 'player': 'Bob'}); s.close()")
    child = subprocess.Popen([sys.executable, "-c", code, str(session_path)], cwd=ROOT, env=ENV, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        lock_file(session_path).unlink()
        proc = run_cli("apply", str(session_path), "-", stdin='{"op": "salary", "player": "Cid"}\n')
        assert "open for writing by another process" in one_line_error(proc)
        child.stdin.close()
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
    assert [e["command"]["player"] for e in read_entries(session_path)[1]] == ["Ann", "Bob"]


def test_a_lock_taken_on_a_file_no_longer_at_the_path_is_taken_again(session_path, monkeypatch):
    """A writer that opened the lock file just before it was replaced locks the old inode:
    it must notice (the path names another file) and lock the one there now."""
    import banker.ledger.lock as lock

    play(session_path, [])
    path = lock_file(session_path)
    real = lock._lock_fd
    calls = []

    def replaced_meanwhile(fd):
        got = real(fd)
        if not calls:  # someone replaces the lock file right after our lock
            tmp = path.with_name("other")
            tmp.write_bytes(b"")
            os.replace(tmp, path)
        calls.append(fd)
        return got

    monkeypatch.setattr(lock, "_lock_fd", replaced_meanwhile)
    held = lock.WriterLock.acquire(session_path)
    try:
        assert len(calls) == 2
        on_disk, locked = os.lstat(path), os.fstat(held.fd)
        assert (on_disk.st_dev, on_disk.st_ino) == (locked.st_dev, locked.st_ino)
    finally:
        held.release()


def test_a_symlinked_lock_file_is_refused_and_its_target_left_alone(session_path, tmp_path):
    """Before: the lock file was opened through the link and truncated: `banker apply`
    wiped whatever file the link named."""
    play(session_path, GAME[:1])
    lock_file(session_path).unlink(missing_ok=True)
    precious = tmp_path / "shared" / "accounts.txt"
    precious.parent.mkdir()
    precious.write_text("the club's accounts\n")
    lock_file(session_path).symlink_to(precious)
    proc = run_cli("apply", str(session_path), "-", stdin='{"op": "salary", "player": "Bob"}\n')
    message = one_line_error(proc)
    assert "game.json.lock is a symbolic link" in message and "remove it" in message
    assert precious.read_text() == "the club's accounts\n"
    assert len(read_entries(session_path)[1]) == 1


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_lock_path_that_is_not_a_plain_file_is_refused(session_path, kind):
    play(session_path, GAME[:1])
    path = lock_file(session_path)
    path.unlink(missing_ok=True)
    if kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    with pytest.raises(SessionError, match=f"game.json.lock is a {kind if kind == 'folder' else 'special file'}"):
        Session.open(session_path)


@pytest.mark.parametrize("content", [b"important\nlock\n", b'{"players": []}', b"\x00\x01binary"])
def test_a_lock_path_holding_what_banker_never_wrote_is_refused_and_left_as_it_was(tmp_path, content):
    """docs/session-log.md: banker never replaces a file it did not create. Found by a probe: ``banker new poetry``
    in a project folder wrote its lock over ``poetry.lock``, and a session named ``q.json.lock`` was wiped by the lock
    of ``q.json``. A lock file that is not empty, not banker's label and not a holder's line is never written."""
    path = tmp_path / "poetry"
    lock = lock_file(path)
    lock.write_bytes(content)
    proc = run_cli("new", str(path), "--players", "Ann,Bob")
    message = one_line_error(proc)
    assert "poetry.lock holds something else, not a banker lock" in message and "another name" in message
    assert lock.read_bytes() == content and not path.exists()


def test_a_session_named_like_anothers_lock_is_never_its_lock(tmp_path):
    first = tmp_path / "q.json.lock"
    Session.create(first, Setup("classic-us", "classic", ("Ann", "Bob"))).close()
    with Session.open(first) as s:
        s.apply({"op": "salary", "player": "Ann"})
    before = first.read_bytes()
    with pytest.raises(SessionError, match="holds something else, not a banker lock"):
        Session.create(tmp_path / "q.json", Setup("classic-us", "classic", ("Ann", "Bob")))
    assert first.read_bytes() == before and len(read_entries(first)[1]) == 1


@pytest.mark.parametrize("content", [b"", LABEL, LABEL[:20], LABEL + b'{"pid": 1, "host": "h", "since": "x"}\n',
                                     b'{"pid": 12, "host": "h", "since": "2025-01-01T00:00:00+00:00"}\n',
                                     b"\0" * 64, LABEL[:20] + b"\0" * 8, b'{"pid": 123'])
def test_every_lock_file_a_banker_leaves_is_taken(session_path, content):
    """Empty (just made), the label alone (given up), partly written (a full disk), a holder's line left by a killed
    writer, the first format's line alone or cut short, zeros a power cut left: each is banker's, and the session
    opens (a review found the last two refused)."""
    play(session_path, GAME[:1])
    lock_file(session_path).write_bytes(content)
    with Session.open(session_path) as s:
        s.apply({"op": "salary", "player": "Bob"})
    assert len(read_entries(session_path)[1]) == 2


def test_a_holder_that_has_not_written_its_name_yet_is_said_to_be_starting(session_path, monkeypatch):
    """Before: the holder's pid was written after the lock was taken, and a writer refused in
    between got "another process" with no name (2 races in 150)."""
    import banker.ledger.lock as lock

    play(session_path, [])
    monkeypatch.setattr(lock, "_write_note", lambda fd, data: None)  # the holder is still starting
    monkeypatch.setattr(lock, "STARTING_WAIT", 0.1)
    holder = Session.open(session_path)
    try:
        with pytest.raises(SessionError) as info:
            Session.open(session_path)
        assert "is open for writing by another process, which has not written its name in game.json.lock" in \
            str(info.value)
        assert "(it may be just starting, or the disk may be full); try again in a moment" in str(info.value)
    finally:
        holder.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_holder_that_could_not_write_its_name_on_a_full_disk_is_not_said_to_be_just_starting(session_path, monkeypatch,
                                                                                               lang):
    """Before: a console opened on a full disk holds the lock but cannot write its name in the lock file, and every
    other `banker open` of the session was told, for as long as that console ran, that the holder "is just starting
    ... try again in a moment". Now: another process holds it without having said who; it may be starting, or the
    disk may be full; if it stays so, close the other banker or free some space."""
    from banker.i18n import Translator

    play(session_path, [])
    _disk_full_on(monkeypatch, lambda name: name.endswith("game.json.lock"))
    monkeypatch.setattr("banker.ledger.lock.STARTING_WAIT", 0.1)
    holder = Session.open(session_path)  # the lock taken; its name could not be written
    try:
        assert "\"pid\"" not in lock_path_text(session_path)
        with pytest.raises(SessionError) as info:
            Session.open(session_path)
    finally:
        holder.close()
    said = Translator(lang).session(info.value)
    assert {"en": "is open for writing by another process, which has not written its name in game.json.lock (it may "
                  "be just starting, or the disk may be full); try again in a moment, and if this stays so, close the "
                  "other banker or free some space",
            "ru": "открыта для записи другим процессом, который не записал своё имя в game.json.lock (он может как раз "
                  "запускаться, или диск может быть переполнен); попробуйте через минуту, а если так и останется, "
                  "закройте другой banker или освободите место на диске",
            "uk": "відкрито для запису іншим процесом, який не записав свого імені в game.json.lock (він може саме "
                  "запускатися, або диск може бути переповнений); спробуйте за хвилину, а якщо так і залишиться, "
                  "закрийте інший banker або звільніть місце на диску"}[lang] in said
    assert "just starting (it has not" not in said


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_holder_that_could_not_write_its_name_is_told_so_on_opening(session_path, monkeypatch, capsys,
                                                                         lang) -> None:
    """The other opener was told "another process ... has not written its name", but the holder's own banker never
    heard of it. The writer now says why its name is not in FILE.lock (lock_unnamed: the reason, what it means, what
    to do), for the console and `banker apply` to say once on opening; the game goes on. A name written: nothing."""
    from banker.i18n import Translator

    play(session_path, [])
    with Session.open(session_path) as s:
        assert s.lock_unnamed is None
    _disk_full_on(monkeypatch, lambda name: name.endswith("game.json.lock"))
    with Session.open(session_path) as holder:
        said = holder.lock_unnamed
        assert said is not None and said.key == "lock_unnamed"
        holder.apply({"op": "salary", "player": "Ann"})  # not stopped: recorded as ever
    assert len(read_entries(session_path)[1]) == 1
    assert {"en": "could not write this banker's name in game.json.lock (no space left on the disk): the game goes "
                  "on and is saved, but another banker opening game.json cannot be told who holds it; free some space "
                  "on the disk",
            "ru": "не удалось записать имя этого banker в game.json.lock (на диске нет места): игра продолжается и "
                  "сохраняется, но другому banker, открывающему game.json, не скажут, кто её держит; освободите место "
                  "на диске",
            "uk": "не вдалося записати ім’я цього banker у game.json.lock (на диску немає місця): гра триває й "
                  "зберігається, але іншому banker, що відкриває game.json, не скажуть, хто її тримає; звільніть місце "
                  "на диску"}[lang] == Translator(lang).session(said)
    script = session_path.with_name("moves.jsonl")
    script.write_text('{"op": "salary", "player": "Bob"}\n', encoding="utf-8")
    assert main(["--lang", lang, "apply", str(session_path), str(script)]) == 0  # said on stderr, once; applied
    err = capsys.readouterr().err
    assert err.count("game.json.lock") == 1 and Translator(lang).session(said) in err, err
    assert len(read_entries(session_path)[1]) == 2


def lock_path_text(session_path: Path) -> str:
    return session_path.with_name(session_path.name + ".lock").read_text(encoding="utf-8")


def test_a_stale_name_left_by_a_killed_holder_is_never_given(session_path, monkeypatch):
    """A killed holder leaves its line; the next holder overwrites it a moment after its lock.
    A writer refused in that moment must not name the dead process."""
    import banker.ledger.lock as lock

    play(session_path, [])
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    host = lock._host()
    stale = lock.LABEL + json.dumps({"pid": dead_pid, "host": host, "since": "2026-01-01T00:00:00+00:00"}).encode() + b"\n"
    monkeypatch.setattr(lock, "_write_note", lambda fd, data: _plain_write(fd, stale))  # the new line not yet in
    monkeypatch.setattr(lock, "STARTING_WAIT", 0.1)
    holder = Session.open(session_path)
    try:
        with pytest.raises(SessionError) as info:
            Session.open(session_path)
        assert str(dead_pid) not in str(info.value) and "has not written its name" in str(info.value)
        assert lock_holder(session_path) == {}
    finally:
        holder.close()


def _plain_write(fd: int, data: bytes) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, data)
    os.ftruncate(fd, len(data))


def test_racing_writers_always_name_the_holder_or_say_it_is_starting(tmp_path):
    """Two writers started at the same instant, many times: the loser's message always
    names the winner's pid, or says the winner is starting. (The winner holds the session
    until both have answered, so a slow start never turns the race into two turns.)"""
    code = textwrap.dedent("""
        import os, sys, time
        from banker.ledger import Session, SessionError
        go = float(sys.argv[2])
        while time.time() < go:
            pass
        try:
            s = Session.open(sys.argv[1])
        except SessionError as e:
            print("refused", e, flush=True)
        else:
            print("won", os.getpid(), flush=True)
            sys.stdin.read()
            s.close()
    """)
    import time

    for rnd in range(8):
        path = tmp_path / f"race-{rnd}.json"
        Session.create(path, SETUP).close()
        go = time.time() + 1.5
        kids = [subprocess.Popen([sys.executable, "-c", code, str(path), str(go)], cwd=ROOT, env=ENV,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in range(2)]
        try:
            outs = [k.stdout.readline().strip() for k in kids]
        finally:
            for k in kids:
                k.stdin.close()
                k.wait(timeout=60)
        won = [o for o in outs if o.startswith("won")]
        refused = [o for o in outs if o.startswith("refused")]
        assert len(won) == 1 and len(refused) == 1, outs
        winner = won[0].split()[1]
        assert f"by process {winner} on host" in refused[0] or "has not written its name" in refused[0], outs


def test_the_session_log_works_without_fcntl(tmp_path):
    """Before: `import fcntl` at module level: the package could not even be imported where
    there is no fcntl (Windows). Without it the lock falls back to filelock's SoftFileLock:
    create, apply, reopen; a second writer refused by name; a killed writer's lock broken."""
    path = tmp_path / "game.json"
    shim = textwrap.dedent("""
        import sys, warnings
        sys.modules["fcntl"] = None  # as on a system without it
        warnings.simplefilter("ignore")
        import banker.cli, banker.ledger
        from banker.ledger import Session, SessionError
        from banker.rules import Setup
        path, mode = sys.argv[1], sys.argv[2]
        if mode == "create":
            with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"))) as s:
                s.apply({"op": "buy", "player": "Ann", "space": 39})
            with Session.open(path) as s:
                s.apply({"op": "salary", "player": "Bob"})
            print(len(Session.open(path, readonly=True).entries))
        elif mode == "hold":
            s = Session.open(path)
            s.apply({"op": "salary", "player": "Ann"})
            print("ready", flush=True)
            sys.stdin.read()
        else:
            try:
                with Session.open(path) as s:
                    print("opened", s.apply({"op": "salary", "player": "Bob"})["seq"])
            except SessionError as e:
                print("refused", e)
    """)

    def run(mode: str) -> str:
        return subprocess.run([sys.executable, "-c", shim, str(path), mode], cwd=ROOT, env=ENV, capture_output=True,
                              text=True, timeout=60).stdout.strip()

    assert run("create") == "2"
    holder = subprocess.Popen([sys.executable, "-c", shim, str(path), "hold"], cwd=ROOT, env=ENV, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        assert run("try") == f"refused session game.json is open for writing by process {holder.pid} on host " \
                             f"{os.uname().nodename}; close it there first (`banker review` shows it read-only meanwhile)"
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    assert run("try") == "opened 4"  # the dead writer's marker is broken: its pid is gone


# =========================================================================== damage is reported
def _append_damaged_line(path: Path) -> bytes:
    """A complete journal line (it has its newline) whose checksum fails: one changed byte."""
    lines = journal_lines(path)
    good = lines[-1]
    bad = good.replace(b'"Bob"', b'"Bxb"', 1)
    assert bad != good
    journal_path(path).write_bytes(b"".join(lines[:-1]) + bad)
    return bad


def test_a_damaged_complete_last_line_opens_read_only_and_is_dropped_only_by_repair(session_path, file_bytes, tmp_path):
    """Before: a complete last line with a bad checksum was dropped without a word and its
    seq given to the next action. Now: reported, nothing modified, read-only until `banker
    repair` keeps it aside and drops it."""
    die(play(session_path, GAME[:3], close=False))  # entries 1-3 in the journal only
    bad = _append_damaged_line(session_path)  # entry 3, Bob's rent, damaged
    before = file_bytes(session_path)

    with pytest.raises(SessionError) as info:
        Session.open(session_path)
    message = str(info.value)
    assert "\n" not in message
    assert "its last line (line 4" in message and "it would be entry 3" in message
    assert "is complete but damaged (checksum mismatch), so it is not a crash leftover" in message
    assert 'it reads "Bob pays Ann $100 rent on Boardwalk' in message
    assert "opens read-only" in message
    assert f"`banker repair {session_path}` keeps the line aside in game.json.journal.damaged-3 and drops it" in message
    assert file_bytes(session_path) == before and lock_holder(session_path) is None

    with Session.open(session_path, readonly=True) as reader:  # what is readable, with the damage said
        assert [e["seq"] for e in reader.entries] == [1, 2]
        assert reader.damage_message == message
        assert not hasattr(reader, "apply")  # a reader records nothing: it has no way to
    proc = run_cli("apply", str(session_path), "-", stdin=json.dumps(GAME[3]) + "\n")
    assert "it would be entry 3" in one_line_error(proc)
    state = run_cli("state", str(session_path))
    assert state.returncode == 0 and "warning:" in state.stderr and "it would be entry 3" in state.stderr
    assert file_bytes(session_path) == before

    refused = run_cli("repair", str(session_path))  # no terminal to ask: refused until --yes
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert file_bytes(session_path) == before
    done = run_cli("repair", str(session_path), "--yes")
    assert done.returncode == 0, done.stderr
    assert "kept the damaged line aside in game.json.journal.damaged-3" in done.stdout
    aside = session_path.with_name("game.json.journal.damaged-3")
    assert aside.read_bytes() == bad
    with Session.open(session_path) as writer:
        assert writer.apply(GAME[3])["seq"] == 3  # entry 3 is now Cid's salary, said and chosen
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3]


def test_a_damaged_last_line_followed_by_a_torn_tail_is_kept_aside_whole(session_path):
    die(play(session_path, GAME[:3], close=False))
    bad = _append_damaged_line(session_path)
    with open(journal_path(session_path), "ab") as f:
        f.write(b"1234abcd {\"seq\": 4")  # and the next line was being written when it died
    assert main(["repair", str(session_path), "--yes"]) == 0
    assert session_path.with_name("game.json.journal.damaged-3").read_bytes() == bad + b"1234abcd {\"seq\": 4"


def test_an_edited_amount_in_the_checkpoint_is_found_and_named(session_path, file_bytes):
    """Before: changing a stored amount changed the state silently, and the next checkpoint
    made it permanent. Now every entry is checksummed: the entry and what changed are named."""
    play(session_path, GAME)
    edit_file(session_path, lambda d: d["entries"]["3"]["effects"][0].update(amount=350), reseal_it=False)
    before = file_bytes(session_path)
    with pytest.raises(SessionError) as info:
        Session.open(session_path)
    message = str(info.value)
    assert "entry 3 is not what its checksum was made over: its effect 1 (pay) says amount 350 where the rules " \
           "give 100" in message
    assert "restore a backup, or `banker repair" in message and "--accept-changes" in message
    assert file_bytes(session_path) == before
    with Session.open(session_path, readonly=True) as reader:
        assert reader.damage and reader.damage[0].seq == 3
    audit = run_cli("audit", str(session_path))
    assert audit.returncode == 1 and "entry 3 is not what its checksum was made over" in audit.stdout

    refused = run_cli("repair", str(session_path), "--yes")  # not without --accept-changes
    assert refused.returncode == 1 and "--accept-changes" in refused.stderr
    assert file_bytes(session_path) == before
    done = run_cli("repair", str(session_path), "--yes", "--accept-changes")
    assert done.returncode == 0 and "accepted game.json as it is now (changed entries: 3)" in done.stdout
    with Session.open(session_path) as writer:  # the banker chose: the file as it is now
        assert writer.entries[2]["effects"][0]["amount"] == 350


@pytest.mark.parametrize("lang, words", [("en", "its checksums were made anew over its entries (1)"),
                                         ("ru", "контрольные суммы пересчитаны по его записям (1)")])
def test_accepting_a_one_entry_session_says_its_count_in_the_banker_s_words(session_path, lang, words):
    """Found by a probe: accepting the changes of a session of one entry said "over its 1 entries" (the count was
    written before a plural noun no form agreed with); it is said as the count of its entries."""
    with Session.create(session_path, Setup("classic-us", "classic", ("Ann", "Bob"))) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 1})
    edit_file(session_path, lambda d: d["entries"]["1"]["effects"][0].update(amount=35), reseal_it=False)
    done = run_cli("repair", str(session_path), "--yes", "--accept-changes", "--lang", lang)
    assert done.returncode == 0 and words in done.stdout, (done.stdout, done.stderr)
    assert "1 entries" not in done.stdout


@pytest.mark.parametrize("change, words", [
    (lambda d: d["entries"]["2"].update(ts="2020-01-01T00:00:00.000+00:00"),
     "entry 2 is not what its checksum was made over: its command, effects and text agree with the rules, so the "
     "change is in what they cannot check"),
    (lambda d: d["entries"]["4"]["command"].update(player="Bob"),
     "entry 4 is not what its checksum was made over: its effect 1 (pay) says to Cid where the rules give Bob"),
    (lambda d: d["entries"]["1"].update(text="Ann buys Park Place for $1"),
     'entry 1 is not what its checksum was made over: its text reads "Ann buys Park Place for $1" where the rules '
     'write "Ann buys Park Place for $350"'),
    (lambda d: d["session"]["1"].update(players=["Ann", "Bob", "Cyd"]),
     "its setup (edition, variant, players, house rules, name, times) is not what its checksum was made over"),
    (lambda d: d["entries"].pop("5"), "entry 5 is missing from the end: its checkpoint held 5 entries, the file holds 4"),
    (lambda d: d["entries"]["3"].pop("sum"), "entry 3 has no checksum"),
])
def test_any_change_to_the_checkpoint_is_found(session_path, file_bytes, change, words):
    play(session_path, GAME)
    edit_file(session_path, change, reseal_it=False)
    before = file_bytes(session_path)
    with pytest.raises(SessionError) as info:
        Session.open(session_path)
    assert words in str(info.value), str(info.value)
    assert file_bytes(session_path) == before


def test_an_edited_journal_line_with_its_crc_made_anew_is_found(session_path):
    """The journal line's CRC finds a torn or damaged line; a line edited by someone who also
    made its CRC anew is found by the entry's own chained checksum."""
    from banker.ledger.journal import decode_line, frame

    die(play(session_path, GAME[:3], close=False))
    lines = journal_lines(session_path)
    entry = decode_line(lines[2].rstrip(b"\n"))
    entry["effects"][0]["amount"] = 1
    lines[2] = frame(json.dumps(entry, separators=(",", ":")).encode())
    journal_path(session_path).write_bytes(b"".join(lines))
    with pytest.raises(SessionError, match=r"entry 2 \(game.json.journal line 3\) is not what its checksum was made "
                                           r"over: its effect 1 \(pay\) says amount 1 where the rules give 400"):
        Session.open(session_path)


def test_a_version_1_session_still_opens_and_its_writer_seals_it(session_path):
    """Files from before the checksums (format 1) open as they are; the
    first writer upgrades them to format 2, so that later edits are found."""
    play(session_path, GAME[:3])

    def to_version_1(d):
        doc = d["session"]["1"]
        doc["version"] = 1
        doc.pop("sum")
        doc.pop("checkpoint")
        for e in d["entries"].values():
            e.pop("sum")

    edit_file(session_path, to_version_1, reseal_it=False)
    with Session.open(session_path, readonly=True) as reader:
        assert len(reader.entries) == 3 and not reader.damage
    with Session.open(session_path) as writer:
        writer.apply(GAME[3])
    data = json.loads(session_path.read_text())
    assert data["session"]["1"]["version"] == 2 and all(len(e["sum"]) == 8 for e in data["entries"].values())
    edit_file(session_path, lambda d: d["entries"]["1"]["effects"][0].update(amount=1), reseal_it=False)
    with pytest.raises(SessionError, match="entry 1 is not what its checksum was made over"):
        Session.open(session_path)


# =========================================================================== fsync failures
def _failing_fsync(monkeypatch, which: str) -> list[int]:
    """Make os.fsync and os.fdatasync (the journal's sync of a recorded line) fail (EIO) on directories or on
    files; returns the fds it failed on."""
    failed: list[int] = []

    def failing(real):
        def sync(fd):
            is_dir = stat.S_ISDIR(os.fstat(fd).st_mode)
            if (which == "dir") == is_dir:
                failed.append(fd)
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            return real(fd)
        return sync

    monkeypatch.setattr(os, "fsync", failing(os.fsync))
    if hasattr(os, "fdatasync"):
        monkeypatch.setattr(os, "fdatasync", failing(os.fdatasync))
    return failed


@pytest.mark.parametrize("which", ["dir", "file"])
def test_a_failed_fsync_in_a_checkpoint_stops_it_with_the_journal_as_it_was(session_path, monkeypatch, which):
    """Before: fsync_dir swallowed every error, so the journal was cut before the checkpoint's
    rename was durable. Now any failed fsync stops the checkpoint, journal untouched."""
    session = play(session_path, GAME, close=False)
    journal = journal_path(session_path).read_bytes()
    failed = _failing_fsync(monkeypatch, which)
    with pytest.raises(SessionError) as info:
        session.checkpoint()
    assert failed
    assert "Input/output error" in str(info.value) and "nothing was lost" in str(info.value)
    assert journal_path(session_path).read_bytes() == journal
    monkeypatch.undo()
    session.apply({"op": "salary", "player": "Bob"})  # the session goes on
    session.close()
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3, 4, 5, 6]


def test_a_failed_fsync_of_the_journal_records_nothing(session_path, monkeypatch, file_bytes):
    session = play(session_path, GAME[:2], close=False)
    before = file_bytes(session_path)
    _failing_fsync(monkeypatch, "file")
    with pytest.raises(SessionError, match="Input/output error.*nothing was recorded"):
        session.apply(GAME[2])
    monkeypatch.undo()
    assert file_bytes(session_path) == before and len(session.entries) == 2
    session.close()


def test_a_failed_fsync_in_create_leaves_nothing(session_path, monkeypatch):
    _failing_fsync(monkeypatch, "dir")
    with pytest.raises(SessionError, match="nothing was left behind"):
        Session.create(session_path, SETUP)
    assert list(session_path.parent.iterdir()) == []


# =========================================================================== a symlinked session
def test_a_symlinked_session_file_stays_a_link_and_never_forks(tmp_path):
    """Before: the journal and lock were named after the link, and the checkpoint's rename
    replaced the link with a regular file: two diverging copies of the game."""
    real = tmp_path / "games" / "friday.json"
    real.parent.mkdir()
    play(real, GAME[:2])
    link = tmp_path / "desk" / "tonight.json"
    link.parent.mkdir()
    link.symlink_to(real)
    with Session.open(link) as s:
        s.apply(GAME[2])
        assert lock_file(real).exists() and not lock_file(link).exists()
        assert journal_path(real).exists() and not journal_path(link).exists()
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert sorted(p.name for p in link.parent.iterdir()) == ["tonight.json"]
    assert len(read_entries(real)[1]) == 3 and len(read_entries(link)[1]) == 3
    proc = run_cli("apply", str(link), "-", stdin=json.dumps(GAME[3]) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and len(read_entries(real)[1]) == 4


# =========================================================================== hostile files
def test_a_deeply_nested_session_file_is_refused_in_one_line(session_path):
    """Before: a RecursionError traceback in every command."""
    session_path.write_text('{"session": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for readonly in (False, True):
        with pytest.raises(SessionError, match="not a banker session .*nested too deeply"):
            Session.open(session_path, readonly=readonly)
    proc = run_cli("log", str(session_path))
    assert "nested too deeply" in one_line_error(proc)


def test_a_deeply_nested_journal_line_is_damage_not_a_traceback(session_path):
    from banker.ledger.journal import frame

    die(play(session_path, GAME[:2], close=False))
    deep = frame(b"[" * 100_000 + b"]" * 100_000)
    write_at_lines_end(session_path, deep)
    with pytest.raises(SessionError, match=r"it would be entry 3\) is complete but damaged \(JSON nested too deeply\)"):
        Session.open(session_path)
    write_at_lines_end(session_path, frame(b'{"seq": 4}'))  # and in the middle of the journal: refused
    proc = run_cli("state", str(session_path))
    assert "damaged at line 4 (JSON nested too deeply)" in one_line_error(proc)


@pytest.mark.parametrize("which", ["session", "journal"])
def test_a_fifo_as_session_file_or_journal_is_refused_without_blocking(session_path, which):
    """Before: opening a FIFO blocked every command forever (the child here would time out)."""
    play(session_path, GAME[:1])
    target = session_path if which == "session" else journal_path(session_path)
    target.unlink()
    os.mkfifo(target)
    for command in ("state", "log", "apply"):
        args = [command, str(session_path)] + (["-"] if command == "apply" else [])
        proc = run_cli(*args, timeout=30, stdin=json.dumps(GAME[1]) + "\n")
        assert f"{target} is a named pipe (FIFO), not a file banker reads" in one_line_error(proc)


def _memory_capped() -> None:  # in the child: 1 GB of address space, so a runaway read fails fast
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))


def test_a_device_or_a_huge_file_is_refused_without_reading_it(tmp_path):
    """Before: /dev/zero as the session file grew the memory by 1.6 GB/s (here the child's
    memory is capped, so the old code fails with a MemoryError instead)."""
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    proc = subprocess.run([sys.executable, "-m", "banker", "state", str(link)], cwd=ROOT, env=ENV, capture_output=True,
                          text=True, timeout=60, preexec_fn=_memory_capped)
    assert "/dev/zero is a device, not a file banker reads" in one_line_error(proc)
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(65 * 2**20)  # sparse: no disk used
    with pytest.raises(SessionError, match=r"huge.json is 65.0 MB, more than banker reads in such a file \(64.0 MB\)"):
        Session.open(huge)


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_an_edition_file_that_is_not_a_file_is_refused(tmp_path, kind):
    """Before: a folder as the edition file gave a traceback (and a FIFO would block)."""
    edition = tmp_path / "board.toml"
    if kind == "folder":
        edition.mkdir()
    else:
        os.mkfifo(edition)
    proc = run_cli("new", str(tmp_path / "g.json"), "--players", "Ann,Bob", "--edition", str(edition), timeout=30)
    assert "board.toml: is a " in one_line_error(proc) and "not a board file" in proc.stderr
    assert not (tmp_path / "g.json").exists()


# =========================================================================== a full disk
def _disk_full_on(monkeypatch, predicate, err: int = errno.ENOSPC) -> None:
    """Make writes whose file matches ``predicate(path_of_fd)`` fail with ``err`` after a
    few bytes, as a full disk (or a file-size limit, EFBIG) does."""
    real = os.write

    def write(fd, data):
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            name = ""
        if predicate(name):
            real(fd, bytes(data[:5]))
            raise OSError(err, os.strerror(err))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(ledger_storage.os, "write", write)


@pytest.mark.parametrize("where", ["session file", "journal"])
@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EFBIG])
def test_a_full_disk_in_new_leaves_nothing_half_made(tmp_path, monkeypatch, capsys, where, err):
    """Before: `banker new` with 8 KB free printed a traceback and left a session file whose
    journal was never made, which could then not be created again."""
    path = tmp_path / "game.json"
    if where == "session file":
        _disk_full_on(monkeypatch, lambda name: name.endswith(".tmp") and ".game.json." in name
                      and ".journal" not in name, err)
    else:
        _disk_full_on(monkeypatch, lambda name: ".game.json.journal." in name, err)
    assert main(["new", str(path), "--players", "Ann,Bob"]) == 1
    err_text = capsys.readouterr().err
    assert err_text.count("\n") == 1 and "Traceback" not in err_text
    # why, in the banker's words (the system's own, "No space left on device", is English in every language)
    said = {errno.ENOSPC: "(no space left on the disk)", errno.EFBIG: "(the file is too large for this disk)"}[err]
    assert said in err_text and "nothing was left behind" in err_text
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    assert main(["new", str(path), "--players", "Ann,Bob"]) == 0  # with room again: the same name works
    path.unlink()
    path.with_name("game.json.journal").unlink()
    _disk_full_on(monkeypatch, lambda name: ".game.json." in name, err)
    assert main(["--lang", "ru", "new", str(path), "--players", "Ann,Bob"]) == 1
    assert {errno.ENOSPC: "(на диске нет места)", errno.EFBIG: "(файл слишком велик для этого диска)"}[err] in \
        capsys.readouterr().err


def test_a_full_disk_at_close_says_what_was_kept(session_path, monkeypatch):
    """Before: the checkpoint at close died with a traceback. Now one line: every action is
    kept in the journal, and the next open folds it in."""
    session = play(session_path, GAME, close=False)
    _disk_full_on(monkeypatch, lambda name: name.endswith(".tmp"))
    with pytest.raises(SessionError) as info:
        session.close()
    assert str(info.value) == ("could not fold the journal into game.json (No space left on device); nothing was lost: "
                               "every action is kept in game.json or game.json.journal, and a later open folds them in "
                               "(free some space, or make the folder writable)")
    assert session.closed and lock_holder(session_path) is None
    assert not [p for p in session_path.parent.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.undo()
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3, 4, 5]
    with Session.open(session_path) as again:
        assert len(again.entries) == 5


def test_a_full_disk_at_close_in_the_cli_is_one_line_and_the_lines_stand(session_path, monkeypatch, capsys, tmp_path):
    """Every line of the script is durable in the journal before the fold at close is tried: a fold that cannot be
    written is said in one line, and the status is 0 (it was 1: a script retried on failure applied everything twice;
    found by a probe)."""
    play(session_path, GAME[:2])
    script = tmp_path / "moves.jsonl"
    script.write_text("\n".join(json.dumps(c) for c in GAME[2:]) + "\n")
    _disk_full_on(monkeypatch, lambda name: name.endswith(".tmp"))
    assert main(["apply", str(session_path), str(script)]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") == 3 and err.count("\n") == 1 and "nothing was lost" in err
    monkeypatch.undo()
    assert len(read_entries(session_path)[1]) == 5


def test_a_full_disk_at_open_still_opens_and_the_journal_goes_on(session_path, monkeypatch):
    """The fold on open needs a whole copy of FILE, an action a journal line: a disk too full (or a folder made
    read-only) for the fold still lets the game go on (it refused the writer, and every later one: the game stopped
    on a disk 58% full; found by a probe). The fold waits for a later open, and nothing is lost."""
    die(play(session_path, GAME[:3], close=False))  # a journal to fold in on open
    _disk_full_on(monkeypatch, lambda name: name.endswith(".tmp"))
    session = Session.open(session_path)
    assert session.fold_problem is not None and "No space left on device" in str(session.fold_problem)
    for command in GAME[3:]:
        session.apply(command)
    with pytest.raises(SessionError, match="could not fold"):
        session.close()
    assert lock_holder(session_path) is None
    monkeypatch.undo()
    assert [e["seq"] for e in read_entries(session_path)[1]] == [1, 2, 3, 4, 5]
    with Session.open(session_path) as again:
        assert again.fold_problem is None and len(again.entries) == 5
    assert len(journal_lines(session_path)) == 1  # the header alone: folded in


# =========================================================================== the checksums, checked fast
def test_a_float_spelled_two_ways_still_matches_its_checksum(session_path):
    """Opening checks the sums with msgspec's encoding first (faster), which spells some floats
    otherwise than the canonical JSON the sums are made over ("1e16" / "1e+16"): such an entry
    is still found to be what its sum was made over."""
    play(session_path, GAME[:2])
    edit_file(session_path, lambda d: d["entries"]["2"]["info"].update(share=1e16, tiny=1e-7))  # sums made anew
    assert '"share": 1e+16' in session_path.read_text()
    with Session.open(session_path) as writer:
        assert not writer.damage and writer.entries[1].info == {"share": 1e16, "tiny": 1e-7}


def test_a_null_changed_to_nan_is_found(session_path, file_bytes):
    """msgspec writes NaN as null, so its quick check alone would take `"old":NaN` for the `"old":null`
    the sum was made over; a file that is not strict JSON is checked the exact way."""
    play(session_path, GAME[:2])
    text = session_path.read_text()
    assert text.count('"old":null') == 2
    session_path.write_text(text.replace('"old":null', '"old":NaN', 1))
    before = file_bytes(session_path)
    with pytest.raises(SessionError, match="entry 1 is not what its checksum was made over"):
        Session.open(session_path)
    assert file_bytes(session_path) == before


def test_a_game_on_a_board_file_opens_from_any_folder_and_never_on_a_changed_board(tmp_path, monkeypatch):
    """Found by a probe: a board file was stored by the path as typed (``my.toml``), so the session would not open
    from another folder; and with the board's start_cash edited, `banker repair` rebuilt every balance by the new
    board. The board is stored by its absolute path with its data's fingerprint: a comment may change, the data may
    not (the game is refused, saying to put the board back, and nothing is repaired)."""
    from banker.boards import HERE

    folder = tmp_path / "boards"
    folder.mkdir()
    board = folder / "my.toml"
    board.write_text((HERE / "classic-us.toml").read_text(encoding="utf-8").replace('id = "classic-us"', 'id = "mine"'),
                     encoding="utf-8")
    monkeypatch.chdir(folder)
    assert main(["new", "m.json", "--edition", "my.toml", "--players", "Ann,Bob"]) == 0
    with Session.open(folder / "m.json") as s:
        s.apply({"op": "buy", "player": "Ann", "space": 1})
        assert s.setup.edition == str(board) and s.setup.board
    monkeypatch.chdir(tmp_path)
    board.write_text(board.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    with Session.open(folder / "m.json") as s:  # from another folder, a comment added: the same board
        assert s.state.cash["Ann"] == 1440
    board.write_text(board.read_text(encoding="utf-8").replace("start_cash = 1500", "start_cash = 2000"), encoding="utf-8")
    before = (folder / "m.json").read_bytes()
    for argv in (["state"], ["audit"], ["repair", "--yes"]):
        proc = run_cli(*argv[:1], str(folder / "m.json"), *argv[1:])
        assert "the board file has changed since this session was created" in one_line_error(proc), argv
    assert (folder / "m.json").read_bytes() == before


def test_an_effect_the_state_cannot_take_is_one_line_in_every_command(session_path):
    """Found by a probe: an entry whose owner effect names space 99 (the checksums made anew) gave `banker export`
    "unexpected error (KeyError: 99) ... please report it" (status 70), where `state` named the entry. Every command
    names it, in one line, and leaves the file as it was."""
    play(session_path, GAME[:2])
    edit_file(session_path, lambda d: [e.update(space=99) for e in d["entries"]["1"]["effects"] if e["t"] == "owner"])
    before = session_path.read_bytes()
    for argv in (["export", str(session_path), "--format", "json", "--out", "-"], ["state", str(session_path)]):
        proc = run_cli(*argv)
        assert "entry 1 (" in one_line_error(proc) and "cannot be restored" in proc.stderr, (argv, proc.stderr)
    proc = run_cli("audit", str(session_path))  # the audit's report: the entry it stops at
    assert proc.returncode == 1 and "entry 1: its effects cannot be applied" in proc.stdout
    assert session_path.read_bytes() == before


def test_house_rules_that_are_not_a_table_are_said_so(session_path):
    play(session_path, GAME[:1])
    edit_file(session_path, lambda d: d["session"]["1"].update(house_rules=["x"]))
    with pytest.raises(SessionError, match=r"the setup is damaged \(house rules must be a table of rule: true or false"):
        Session.open(session_path)


@pytest.mark.parametrize("content", [b"", b"\0" * 4096])
def test_an_empty_journal_says_removing_it_loses_nothing(session_path, content):
    """Found by a probe: an empty journal was "not a banker journal (no header line)", with no word of what to do."""
    play(session_path, GAME[:2])
    journal_path(session_path).write_bytes(content)
    before = session_path.read_bytes()
    proc = run_cli("state", str(session_path))
    assert "is empty: it holds no action, so nothing is lost by removing it" in one_line_error(proc)
    assert session_path.read_bytes() == before and journal_path(session_path).read_bytes() == content
    journal_path(session_path).unlink()
    with Session.open(session_path) as s:  # as told: removed, and the session opens with all it had
        assert len(s.entries) == 2


def test_a_symbolic_link_loop_is_said_to_be_one(tmp_path):
    """Found by a probe: a link loop was "a symbolic link; it was left untouched", as if links were refused (they are
    followed), and `banker open` and `state` said "unexpected error"."""
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    for command in ("state", "open"):
        proc = run_cli(command, str(tmp_path / "a.json"))
        assert "a.json is a symbolic link that leads back to itself (a loop)" in one_line_error(proc), proc.stderr


def test_a_damaged_session_is_said_to_be_by_export_and_serve(session_path, tmp_path):
    """Found by a probe: `banker state` and `log` warn that a session is damaged; `export` and `serve` showed what
    they could read without a word. They say it too (and go on with what can be read, as `state` does)."""
    die(play(session_path, GAME[:3], close=False))  # entries 1-3 in the journal only
    _append_damaged_line(session_path)  # entry 3 damaged
    proc = run_cli("export", str(session_path), "--format", "json", "--out", "-")
    assert proc.returncode == 0 and "banker export: warning:" in proc.stderr and "damaged" in proc.stderr
    assert json.loads(proc.stdout)["timeline"]
    serve = subprocess.Popen([sys.executable, "-m", "banker", "serve", str(session_path), "--host", "127.0.0.1"],
                             cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        head = [serve.stdout.readline() for _ in range(2)]
    finally:
        serve.send_signal(signal.SIGINT)
        serve.communicate(timeout=30)
    assert head[0].startswith("banker serve: warning:") and "damaged" in head[0], head


def test_serve_says_when_the_session_file_cannot_be_read_and_when_it_can_again(session_path):
    """Found by a probe: with the session file moved away (or cut short) while serving, the page said it showed the
    last table seen, and the `banker serve` terminal said nothing: the banker was not told."""
    play(session_path, GAME[:1])
    serve = subprocess.Popen([sys.executable, "-m", "banker", "serve", str(session_path), "--host", "127.0.0.1"],
                             cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said: list[str] = []
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in serve.stdout], daemon=True).start()

    def wait_for(words: str) -> None:  # a deadline, not a speed claim: a line that never comes fails the test
        while not any(words in line for line in said):
            try:
                said.append(lines.get(timeout=60))
            except queue.Empty:
                raise AssertionError((words, said)) from None

    try:
        wait_for("listening")
        away = session_path.with_name("away.json")
        session_path.rename(away)
        wait_for("the session file cannot be read")
        away.rename(session_path)
        wait_for("the session file can be read again")
    finally:
        serve.send_signal(signal.SIGINT)
        serve.communicate(timeout=30)


def test_a_lock_that_cannot_be_made_says_why(tmp_path, monkeypatch, capsys):
    """Found by a probe: a session name too long once ".lock" is added, and a lock file without write permission, were
    both "is its folder writable?". Each says what is wrong and what to do."""
    long = tmp_path / ("n" * 246 + ".json")  # 251 bytes: a file name; 256 with ".lock", one over the usual 255
    proc = run_cli("new", str(long), "--players", "Ann,Bob")
    assert "its name is too long for this file system once .lock is added" in one_line_error(proc)
    assert not long.exists()
    path = tmp_path / "g.json"
    Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"))).close()
    import banker.ledger.lock as lock

    real_open = os.open

    def denied(name, flags, *args, **kwargs):  # the lock file without write permission (root would write through it)
        if str(name).endswith(".lock") and flags & os.O_RDWR:
            raise PermissionError(errno.EACCES, "Permission denied", str(name))
        return real_open(name, flags, *args, **kwargs)

    script = tmp_path / "moves.jsonl"
    script.write_text('{"op": "salary", "player": "Ann"}\n')
    monkeypatch.setattr(lock.os, "open", denied)
    assert main(["apply", str(path), str(script)]) == 1
    err = capsys.readouterr().err
    assert "its lock file g.json.lock cannot be written; make it writable, or remove it" in err and err.count("\n") == 1


@pytest.mark.parametrize("which", ["file", "journal"])
def test_a_session_no_one_may_write_is_not_opened_for_writing(session_path, capsys, which):
    """`chmod a-w game.json` (a finished game kept as it is), or its journal: no writer opens it, whoever asks
    (this suite may run as root, whom the system lets write anyway); nothing is written, no lock is left; it
    still opens read-only, and for writing again once it is writable. Before, the writer took it and its
    checkpoint replaced the read-only file (or wrote the read-only journal)."""
    with Session.create(session_path, SETUP) as session:
        for command in GAME[:3]:
            session.apply(command)
        session.checkpoint()
        session.apply(GAME[3])  # one action in the journal
    target = session_path if which == "file" else journal_path(session_path)
    before = {p: p.read_bytes() for p in (session_path, journal_path(session_path))}
    target.chmod(0o444)
    try:
        with pytest.raises(SessionError) as raised:
            Session.open(session_path)
        assert raised.value.key == "read_only_file" and raised.value.params["name"] == target.name
        assert f"`chmod u+w {target.name}`" in str(raised.value)
        assert main(["apply", str(session_path), "-"]) == 1  # nothing read from stdin: refused first
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "read-only" in err
        assert main(["repair", str(session_path), "--yes"]) == 0  # nothing to repair: nothing written either
        capsys.readouterr()
        assert main(["--lang", "ru", "open", str(session_path)]) == 1
        assert "только для чтения" in capsys.readouterr().err
        assert {p: p.read_bytes() for p in before} == before
        assert lock_holder(session_path) is None
        with Session.open(session_path, readonly=True) as reader:
            assert len(reader.entries) == 4
    finally:
        target.chmod(0o644)
    with Session.open(session_path) as writer:
        assert len(writer.entries) == 4
    target.chmod(0o000)  # no one may read it either: not "read-only, `banker review` shows it" (it cannot)
    try:
        try:
            Session.open(session_path).close()  # the superuser reads it
        except SessionError as e:
            assert e.key != "read_only_file" and "Permission denied" in str(e)
    finally:
        target.chmod(0o644)


def test_a_table_added_with_tinydb_is_kept_by_every_checkpoint(session_path):
    """The session file is a TinyDB document: a table someone adds with TinyDB itself (its ``_default``, a
    table of notes) stays in the file through the writer's checkpoints, the quick way in (snapshot, entries'
    bytes) included; banker's own tables read the same. Before, the next checkpoint dropped it."""
    from tinydb import TinyDB

    from banker.ledger.format import load

    with Session.create(session_path, SETUP) as session:
        for command in GAME[:3]:
            session.apply(command)
    with TinyDB(session_path) as db:
        db.insert({"note": "Bob owes Ann a pizza"})
        db.table("notes").insert({"text": "Кто банкир: Аня"})
    for command in GAME[3:]:
        with Session.open(session_path) as session:  # its checkpoint (at close) rewrites the file
            session.apply(command)
        loaded = load(session_path)
        assert loaded.file_table is not None and not loaded.damage  # read the quick way: the layout holds
        assert len(loaded.entries) == GAME.index(command) + 1
        with TinyDB(session_path) as db:
            assert db.all() == [{"note": "Bob owes Ann a pizza"}]
            assert db.table("notes").all() == [{"text": "Кто банкир: Аня"}]
            assert len(db.table("entries")) == GAME.index(command) + 1
    with Session.open(session_path, readonly=True) as reader:
        assert [e.seq for e in reader.entries] == [1, 2, 3, 4, 5]


def test_a_session_file_with_another_name_is_not_opened_for_writing(session_path, capsys):
    """Found by a probe: `ln g.json h.json`, then a writer by each name: each took its own lock (the lock and the
    journal are named after the name), both recorded, and the game forked at the first checkpoint. A file with
    another name is refused for writing, saying what to do, and left untouched; it is still read."""
    play(session_path, GAME[:2])
    other = session_path.with_name("other.json")
    os.link(session_path, other)
    before = session_path.read_bytes()
    for path in (session_path, other):
        with pytest.raises(SessionError, match=r"has 2 names \(hard links to one file\).*left untouched: remove the other"):
            Session.open(path)
    assert session_path.read_bytes() == before and not journal_path(other).exists()
    assert main(["--lang", "uk", "apply", str(other), "-"]) == 1
    assert "має кілька імен (2" in capsys.readouterr().err
    with Session.open(other, readonly=True) as reader:
        assert len(reader.entries) == 2
    other.unlink()
    with Session.open(session_path) as writer:  # one name again: the game goes on
        writer.apply(GAME[2])


@pytest.mark.parametrize(("lang", "said"), [("ru", "(контрольная сумма не сходится), и после неё есть строки"),
                                            ("uk", "(контрольна сума не сходиться), і після нього є рядки")])
def test_a_damaged_journal_line_is_said_wholly_in_the_bankers_language(session_path, capsys, lang, said):
    """Found by a probe: "mid.json.journal повреждён в строке 6 (checksum mismatch), ...": why the line is damaged
    was English inside the Russian and Ukrainian sentences."""
    session = play(session_path, GAME[:4], close=False)
    die(session)
    lines = journal_lines(session_path)
    lines[2] = lines[2][:20] + (b"X" if lines[2][20:21] != b"X" else b"Y") + lines[2][21:]
    journal_path(session_path).write_bytes(b"".join(lines))
    assert main(["--lang", lang, "state", str(session_path)]) == 1
    err = capsys.readouterr().err
    assert said in err and "checksum mismatch" not in err, err
