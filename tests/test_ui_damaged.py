"""The console and a damaged session: it opens read-only, says what is damaged and what to
do, and records nothing (issue #9: damage is reported, never silently dropped)."""

from __future__ import annotations

from pathlib import Path

from banker.ledger import journal_path
from banker.ui.app import BankerApp
from banker.ui.screens.table import TableScreen

from .ledger_helpers import journal_lines
from .ui_helpers import Banker, make_session, screen_text


def _damage_last_line(path: Path) -> None:
    """Entries 1-3 in the journal, the last one's line damaged (its newline kept)."""
    from banker.ledger import Session

    session = Session.open(path)
    for cmd in ({"op": "salary", "player": "Ann"}, {"op": "salary", "player": "Bob"}, {"op": "salary", "player": "Cid"}):
        session.apply(cmd)
    session._release()  # killed: no checkpoint
    data = b"".join(journal_lines(path))
    journal_path(path).write_bytes(data[:-20] + b"X" + data[-19:])


async def test_a_damaged_session_opens_read_only_saying_why_and_records_nothing(tmp_path: Path) -> None:
    path = make_session(tmp_path / "friday.json", commands=[{"op": "buy", "player": "Ann", "space": 39}])
    _damage_last_line(path)
    before = (path.read_bytes(), journal_path(path).read_bytes())
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.readonly and len(app.session.entries) == 3
        header = screen_text(app.screen.query_one("#table-header"))
        assert header.endswith("· READ-ONLY")
        message = screen_text(app.screen.query_one("#message"))
        assert message.startswith("Opened read-only: the session log is damaged")
        assert "it would be entry 4" in message and "banker repair" in message
        await b.key("s")  # salary: refused before any dialog, nothing recorded
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        refusal = screen_text(app.screen.query_one("#message"))
        assert refusal.startswith("This session is open read-only, so nothing can be recorded")
        assert len(app.session.entries) == 3
    assert (path.read_bytes(), journal_path(path).read_bytes()) == before


async def test_a_damaged_session_is_explained_in_russian(tmp_path: Path) -> None:
    path = make_session(tmp_path / "friday.json")
    _damage_last_line(path)
    app = BankerApp(path, lang="ru")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert screen_text(app.screen.query_one("#table-header")).endswith("· ТОЛЬКО ЧТЕНИЕ")
        assert screen_text(app.screen.query_one("#message")).startswith("Открыто только для чтения")


async def test_a_die_typed_on_a_read_only_session_leaves_the_tables_keys_working(tmp_path: Path) -> None:
    """A die typed on a read-only table: the roll is refused before any question, and the table's keys are its own
    again (they were kept for a question that never came, and `?`, `u`, `:` did nothing)."""
    from banker.ui.screens.help import HelpScreen

    path = make_session(tmp_path / "friday.json")
    _damage_last_line(path)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await pilot.pause()
        assert app.session.readonly
        await b.key("4")
        await b.settle()
        assert isinstance(app.screen, TableScreen) and app.screen.typed_ahead is None
        assert screen_text(app.screen.query_one("#message")).startswith("This session is open read-only")
        await b.key("?")
        await b.settle()
        assert isinstance(app.screen, HelpScreen)


async def test_an_entry_changed_on_the_disk_is_found_just_after_the_table_is_drawn(tmp_path: Path) -> None:
    """The console opens a session with its checkpoint's entries left on the disk (issue #14); an entry changed by
    hand, the file as long as before, is found by the check that follows the first frame: the session is opened
    again read-only, saying which entry changed, and nothing is recorded in it or written over it."""
    from banker.ledger import SessionReader

    commands = [{"op": "buy", "player": "Ann", "space": 39}, {"op": "rent", "payer": "Bob", "space": 39},
                {"op": "salary", "player": "Cid"}]
    path = make_session(tmp_path / "friday.json", commands=commands)
    raw = path.read_bytes()
    at = raw.index(b'"amount":', raw.index(b'"seq":2,')) + len(b'"amount":')
    path.write_bytes(raw[:at] + (b"7" if raw[at:at + 1] != b"7" else b"8") + raw[at + 1:])  # rent 50: 70
    before = (path.read_bytes(), journal_path(path).read_bytes())
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(200):
            await pilot.pause(0.01)
            if isinstance(app.session, SessionReader):
                break
        for _ in range(3):  # the reader's own check, after a refresh
            await pilot.pause()
            await app.workers.wait_for_complete()
        assert isinstance(app.screen, TableScreen) and app.screen.session is app.session
        assert app.session.readonly and [d.seq for d in app.session.damage] == [2]
        assert screen_text(app.screen.query_one("#table-header")).endswith("· READ-ONLY")
        message = screen_text(app.screen.query_one("#message"))
        assert message.startswith("Opened read-only: the session log is damaged") and "entry 2" in message
    assert (path.read_bytes(), journal_path(path).read_bytes()) == before


async def test_the_review_of_a_damaged_session_says_so(tmp_path: Path) -> None:
    """Found by a probe: `banker review` of a session with an edited entry opened its header, summary and timeline
    with no word (a bankrupt player "still had" 7 in cash); only its audit tab told. `banker state`, `export` and
    `serve` said it at once. The review now says it as the table does, with what is damaged and what to do."""
    from banker.ui.screens.review import ReviewScreen

    path = make_session(tmp_path / "friday.json", commands=[{"op": "buy", "player": "Ann", "space": 39}])
    _damage_last_line(path)
    for lang, words in (("en", "The session log is damaged: the review shows it as it reads now"),
                        ("uk", "Журнал сесії пошкоджено")):
        app = BankerApp(path, lang=lang, review=True)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, ReviewScreen)
            said = [n.message for n in app._notifications]
            assert any(m.startswith(words) and "banker repair" in m for m in said), said
    clean = make_session(tmp_path / "clean.json", commands=[{"op": "buy", "player": "Ann", "space": 39}])
    app = BankerApp(clean, lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert not list(app._notifications)
