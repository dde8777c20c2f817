"""Issue #14: what a long game's first frames read, and what they skip.

The review of a long log shows first its header and the timeline's end (read from the entries' ops
and the last entries alone), then the whole review worked out in a thread; the console's footer is
not remade when a dialog closes over the table with the same keys. These pin that the quick way
shows exactly what the whole way shows (no timing is asserted: bench/ui.py measures the speed).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Select, Static

from banker.boards import game_from_setup
from banker.ledger import Session
from banker.rules.review import review, timeline_tail
from banker.ui.app import REST_CSS, STYLESHEET, BankerApp, compact_css
from banker.ui.screens import review as review_screen
from banker.ui.screens.dialogs import ConfirmScreen
from banker.ui.screens.review import ReviewScreen
from banker.ui.screens.table import TableScreen
from banker.ui.widgets.footer import BankFooter

from .ui_helpers import footer_shown, make_session, on_frames, screen_text

PLAYERS = ("Ann", "Bob", "Cid")

#: a game with what the review's header and timeline make something of: counts of the table (agreed, differing,
#: one undone), undos (of the last entry, of an earlier one, of a count), an undo struck through near the end
COMMANDS: list[dict[str, Any]] = [
    {"op": "buy", "player": "Ann", "space": 39},
    {"op": "count", "houses": 32, "hotels": 12, "deeds": {"Ann": 1, "Bob": 0, "Cid": 0}},
    {"op": "buy", "player": "Bob", "space": 37},
    {"op": "salary", "player": "Cid"},
    {"op": "undo", "reason": "wrong player"},
    {"op": "count", "deeds": {"Ann": 1, "Bob": 0}, "cash": {"Bob": 1150}},
    {"op": "rent", "payer": "Cid", "space": 39},
    {"op": "transfer", "from": "Ann", "to": "Cid", "amount": 25, "memo": "loan"},
    {"op": "salary", "player": "Bob"},
    {"op": "undo", "reason": "misheard", "seq": 8},
    {"op": "buy", "player": "Cid", "space": 1},
    {"op": "count", "deeds": {"Ann": 1, "Bob": 1, "Cid": 1}},
    {"op": "undo", "reason": "counted too soon"},
    {"op": "tax", "player": "Bob", "space": 4, "choice": "flat"},
    *[{"op": "salary", "player": PLAYERS[i % 3]} for i in range(6)],
    {"op": "undo", "reason": "not past GO"},
]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_session(tmp_path / "game.json", PLAYERS, commands=COMMANDS, name="Friday")


def test_briefs_are_each_entrys_op_and_what_it_undoes(game: Path) -> None:
    """Read alone from a checkpoint's bytes (entries not decoded) or from decoded entries: the same."""
    with Session.open(game, readonly=True) as session:
        assert session.entries.pending == len(COMMANDS)  # opened from the checkpoint: nothing decoded yet
        briefs = session.entries.briefs()
        assert session.entries.pending == len(COMMANDS)  # and still nothing
        whole = [(e.command.get("op", "?"), e.undoes) for e in session.entries]
    assert briefs == whole
    assert [b for b in briefs if b[0] == "undo"] == [("undo", 4), ("undo", 8), ("undo", 12), ("undo", 20)]


@pytest.mark.parametrize("k", [1, 2, 5, 9, 13, len(COMMANDS)])
def test_the_timeline_tail_is_the_end_of_the_whole_timeline(game: Path, k: int) -> None:
    """The last k entries' items, worked out from them alone, are the whole review's last k items."""
    with Session.open(game, readonly=True) as session:
        entries = list(session.entries)
        setup = session.setup
    whole = review(game_from_setup(setup), entries).timeline
    assert timeline_tail(game_from_setup(setup), entries[-k:]) == whole[-k:]


def _shown(screen: ReviewScreen) -> dict[str, Any]:
    table = screen.query_one("#review-timeline", DataTable)
    rows = [tuple(str(getattr(c, "plain", c)) for c in table.get_row_at(i)) for i in range(table.row_count)]
    return {"header": screen_text(screen.query_one("#review-header", Static)), "rows": rows,
            "cursor": table.cursor_row, "summary": screen_text(screen.query_one("#review-summary", Static)),
            "count": screen_text(screen.query_one("#review-count", Static)),
            "heat": screen_text(screen.query_one("#review-heat", Static)),
            "board": screen_text(screen.query_one("#review-board-players", Static)),
            "ops": screen.query_one("#filter-op", Select)._options}


async def _review(path: Path, quick: int, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the review shows at its first frame (when the whole review is set to work), and once complete,
    with QUICK_ENTRIES = ``quick``."""
    monkeypatch.setattr(review_screen, "QUICK_ENTRIES", quick)
    first: dict[str, Any] = {}
    work_out = ReviewScreen.work_out

    def noted(screen: ReviewScreen) -> Any:
        first.update(header=screen_text(screen.query_one("#review-header", Static)), complete=screen.complete,
                     rows=screen.query_one("#review-timeline", DataTable).row_count)
        return work_out(screen)

    monkeypatch.setattr(ReviewScreen, "work_out", noted)
    app = BankerApp(path, lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        if not first:  # a short log: complete from the start, nothing set to work
            first.update(header=screen_text(screen.query_one("#review-header", Static)), complete=screen.complete,
                         rows=screen.query_one("#review-timeline", DataTable).row_count)
        for _ in range(200):
            if screen.complete:
                break
            await pilot.pause(0.02)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.complete
        return first, _shown(screen)


async def test_a_long_logs_review_shows_its_end_first_then_everything(game: Path, monkeypatch) -> None:
    """With the quick way (the log longer than QUICK_ENTRIES) the review's header is complete from the first
    frame (the counts that stand, the entries), the timeline starts with the last entries, and once the whole
    review is in, every tab shows exactly what the review of a short log shows at once."""
    quick_first, quick = await _review(game, 5, monkeypatch)
    whole_first, whole = await _review(game, 10_000, monkeypatch)
    assert not quick_first["complete"] and quick_first["rows"] == 5
    assert whole_first["complete"] and whole_first["rows"] == len(COMMANDS)
    assert quick_first["header"] == whole_first["header"] == whole["header"]
    assert "#6" in whole["header"] and "agreed at #2" in whole["header"]  # the undone count (#12) left out
    assert quick == whole
    assert len(whole["rows"]) == len(COMMANDS) and whole["cursor"] == len(COMMANDS) - 1
    assert whole["summary"] and whole["count"]


async def test_the_quick_reviews_first_frame_shows_the_last_entry(game: Path, monkeypatch) -> None:
    """The first frame of a long log's review shows the timeline's end, not its top: the table is already
    scrolled to the bottom when that frame has been drawn (the cursor's own scroll used to come frames later,
    behind the whole review's thread); and the board's choice, left out of that frame, comes just after it."""
    monkeypatch.setattr(review_screen, "QUICK_ENTRIES", 15)  # more rows than the table shows at 120x20
    monkeypatch.setattr(ReviewScreen, "work_out", lambda self: None)  # the first frame's review, kept
    seen: dict[str, Any] = {}
    after = ReviewScreen._after_first_frame

    async def noted(screen: ReviewScreen) -> None:
        table = screen.query_one("#review-timeline", DataTable)
        seen.update(scroll=table.scroll_y, bottom=table.max_scroll_y, rows=table.row_count,
                    board=bool(screen.query("#board-player")), anchored=table.is_anchored)
        done = after(screen)
        if inspect.isawaitable(done):
            await done

    monkeypatch.setattr(ReviewScreen, "_after_first_frame", noted)
    app = BankerApp(game, lang="en", review=True)
    async with app.run_test(size=(120, 20)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        for _ in range(100):
            if seen and screen.query("#board-player"):
                break
            await pilot.pause()
        assert seen["rows"] == 15 and seen["bottom"] > 0
        # at the bottom, and held there by the compositor whenever the table is laid out (the cursor's scroll comes
        # after a refresh: here in time, in the bench's 5,000-entry game frames late, behind the review's thread)
        assert seen["scroll"] == seen["bottom"] and seen["anchored"]
        assert not seen["board"] and screen.query_one("#board-player", Select).value is Select.NULL
        assert not screen.query(".filter-pending")


async def test_the_quick_review_keeps_a_filter_chosen_before_it_is_complete(game: Path, monkeypatch) -> None:
    """A filter the banker chose on the first frame holds when the whole review comes in."""
    monkeypatch.setattr(review_screen, "QUICK_ENTRIES", 5)
    monkeypatch.setattr(ReviewScreen, "work_out", lambda self: None)  # the whole review put in by the test
    app = BankerApp(game, lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and not screen.complete
        for _ in range(100):  # the choices come just after the first frame
            if screen.query("#filter-player"):
                break
            await pilot.pause()
        screen.query_one("#filter-player", Select).value = "Bob"
        await pilot.pause()
        table = screen.query_one("#review-timeline", DataTable)
        with Session.open(game, readonly=True) as session:
            entries = list(session.entries)
        state = game_from_setup(session.setup)
        r = review(state, entries)
        assert [int(str(table.get_row_at(i)[0])) for i in range(table.row_count)] == [
            i.seq for i in r.timeline[-5:] if "Bob" in i.players]  # the first frame's rows: the last 5, filtered
        screen._show_complete(state, entries, r, screen._lines(r))
        await pilot.pause()
        bob = [i.seq for i in r.timeline if "Bob" in i.players]
        assert [int(str(table.get_row_at(i)[0])) for i in range(table.row_count)] == bob
        assert not table.is_anchored  # complete: the cursor places the view, the banker scrolls it freely


async def test_the_footer_is_not_remade_when_a_dialog_closes_with_the_same_keys(tmp_path: Path) -> None:
    """After an action the table's footer keeps its keys (the same widgets: nothing remade on the way from the
    Enter key to the table re-drawn)."""
    path = make_session(tmp_path / "g.json", PLAYERS, commands=[{"op": "buy", "player": "Ann", "space": 39}])
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await footer_shown(pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        footer = table.query_one(BankFooter)
        keys = list(footer.children)
        assert keys
        app.start_action("salary", {"player": "Bob"})
        for _ in range(100):
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):
                break
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause()
            if app.screen is table and len(app.current_session.entries) == 2:
                break
        await pilot.pause()
        assert app.current_session.entries[-1].command == {"op": "salary", "player": "Bob"}
        assert list(footer.children) == keys and all(a is b for a, b in zip(footer.children, keys, strict=True))
        assert {k.key for k in footer.query("FooterKey")} == {k.key for k in keys}  # type: ignore[attr-defined]



def test_no_garbage_collection_until_the_first_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`banker open` (BankerApp.run): the cyclic collector is off while the console starts (nothing made then
    is garbage: a collection would only walk it) and on again from the first frame, and after the run."""
    import gc

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS)
    seen: dict[str, bool] = {}

    on_mount = BankerApp.on_mount

    def noted(app: BankerApp) -> None:
        seen["mount"] = gc.isenabled()
        on_mount(app)

    monkeypatch.setattr(BankerApp, "on_mount", noted)

    async def auto_pilot(pilot: Any) -> None:
        for _ in range(200):
            await pilot.pause()
            if isinstance(pilot.app.screen, TableScreen) and gc.isenabled():
                break
        seen["table"] = gc.isenabled()
        pilot.app.exit()

    assert gc.isenabled()
    BankerApp(path, lang="en").run(headless=True, size=(100, 30), auto_pilot=auto_pilot)
    assert seen == {"mount": False, "table": True}
    assert gc.isenabled()


async def test_the_tables_first_frame_shows_every_player_and_the_last_action(tmp_path: Path) -> None:
    """The first frame the console draws of the table (the first not thrown away in a batch) already has
    every player's card with their cash and the last action: the cards get their figures when they are
    made, so their first layout has them (before, that frame had empty cards, and a complete one came a
    frame later)."""
    import re

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS)
    with Session.open(path, readonly=True) as session:
        cash = [session.state.edition.fmt(session.state.cash[p]) for p in PLAYERS]
        last = f"{len(session.entries):>4} "
    app = BankerApp(path, lang="en")
    frames: list[str] = []
    display = app._display

    def noted(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None and not app._batch_count and isinstance(screen, TableScreen):
            frames.append(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", renderable.render_segments(app.console)))

    app._display = noted  # type: ignore[method-assign]
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if frames:
                break
    assert frames
    first = frames[0]
    assert all(p in first for p in PLAYERS) and all(c in first for c in cash) and last in first, first


async def test_full_collections_wait_for_the_idle_moment_while_a_session_is_shown(tmp_path: Path) -> None:
    """While the table is shown, a full collection is due only after ten times the usual passes (the idle
    collection after each action runs it first, never in the middle of the next action); the collector's
    thresholds are as they were once the console closes."""
    import gc

    from banker.ui import app as appmod

    before = gc.get_threshold()
    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS[:3])
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert gc.get_threshold() == (before[0], before[1], before[2] * appmod.HELD_FULL_GC)
    assert gc.get_threshold() == before


def _first_table_frame(app: BankerApp, noted: dict[str, Any] | None = None) -> list[str]:
    """The text of the frames of the table the console draws, noting in ``noted`` what the session's entries were
    at the first one."""
    import re

    first = [True]

    def text(_shown: Any, renderable: Any) -> str:
        if first[0] and noted is not None:
            noted["pending"] = app.current_session.entries.pending
        first[0] = False
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", renderable.render_segments(app.console))

    return on_frames(app, TableScreen, text)


async def test_the_tables_first_frame_has_as_many_last_actions_as_the_log_holds(tmp_path: Path) -> None:
    """The log panel shows as many of the last actions as its height holds, and the first frame of the table
    already has them all: the panel works the number out when it is drawn, its height known (before, it was
    worked out when the table was made, from a height not known yet: the first frame had six lines of nine, and
    the rest came a frame later)."""
    from banker.ui.widgets.table import LogPanel

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS)
    app = BankerApp(path, lang="en")
    frames = _first_table_frame(app)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if frames:
                break
        held = app.screen.query_one(LogPanel).size.height
        n = len(app.current_session.entries)
    assert held == 9 and n == len(COMMANDS) > held
    first = frames[0]
    assert all(f"{seq:>4} " in first for seq in range(n - held + 1, n + 1)), first
    assert f"{n - held:>4} " not in first


async def test_opening_a_long_game_decodes_only_the_entries_the_first_frame_shows(tmp_path: Path) -> None:
    """A checkpointed session opens from its snapshot: up to the first frame, the only entries of FILE decoded
    are the last ones, which the log panel shows (the rest wait for the background check, after that frame)."""
    path = make_session(tmp_path / "g.json", PLAYERS, commands=[{"op": "salary", "player": PLAYERS[i % 3]}
                                                                 for i in range(300)])
    app = BankerApp(path, lang="en")
    noted: dict[str, Any] = {}
    frames = _first_table_frame(app, noted)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if frames:
                break
        await app.workers.wait_for_complete()
        assert app.current_session.entries.pending == 0  # the background check has read them all since
    assert noted["pending"] == 300 - 9  # nine lines in the log panel at 120x36


def _pilot_until(screen: type, shown: dict[str, Any]) -> Any:
    """A run's auto-pilot: waits for ``screen``, notes in ``shown`` what is shown (the screen, the screen stack,
    the session's entries), and ends the run."""

    async def auto_pilot(pilot: Any) -> None:
        for _ in range(200):
            await pilot.pause()
            if isinstance(pilot.app.screen, screen):
                break
        shown["screen"] = type(pilot.app.screen)
        shown["stack"] = [type(s) for s in pilot.app.screen_stack]
        shown["entries"] = len(pilot.app.current_session.entries)
        pilot.app.exit()

    return auto_pilot


def test_the_session_opens_in_a_thread_while_textual_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`banker open` and `banker review` (BankerApp.run): the session named on the command line is opened in a
    thread of its own from the start of the run (reading and checking the file overlaps Textual's start), and
    that session is the one the console shows; opened once."""
    import threading

    from banker.ui import app as appmod

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS)
    opened: list[tuple[str, bool]] = []
    real_open = appmod.Session.open

    def noted(p: Any, readonly: bool = False, defer_table: bool = False) -> Any:
        opened.append((threading.current_thread().name, readonly, defer_table))
        return real_open(p, readonly=readonly, defer_table=defer_table)

    monkeypatch.setattr(appmod.Session, "open", staticmethod(noted))
    shown: dict[str, Any] = {}
    for readonly, screen in ((False, TableScreen), (True, ReviewScreen)):
        opened.clear()
        shown.clear()
        app = BankerApp(path, lang="en", review=readonly)
        app.run(headless=True, size=(100, 30), auto_pilot=_pilot_until(screen, shown))
        # a writer's checkpoint entries left on the disk (checked after the first frame); a review reads them all
        assert opened == [("banker-open", readonly, not readonly)]
        # the session's screen is the first one (Textual's default screen): no blank one under it
        assert shown == {"screen": screen, "stack": [screen], "entries": len(COMMANDS)}
    with Session.open(path) as session:  # the console let go of the writer's lock
        assert len(session.entries) == len(COMMANDS)


def test_threads_switch_more_often_only_while_the_session_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the session opens in its thread the interpreter switches threads every OPENING_SWITCH_INTERVAL (the
    thread gets it back soon after each wait on the disk); once the thread is done, opened or not, the interval
    is the one before."""
    import sys

    from banker.ledger import SessionError
    from banker.ui import opening as appmod

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS[:3])
    before = sys.getswitchinterval()
    assert appmod.OPENING_SWITCH_INTERVAL < before
    during: list[float] = []
    real_open = appmod.Session.open

    def noted(p: Any, readonly: bool = False, **options: Any) -> Any:
        during.append(sys.getswitchinterval())
        return real_open(p, readonly=readonly, **options)

    monkeypatch.setattr(appmod.Session, "open", staticmethod(noted))
    appmod.Opening(path).result().close()
    assert during == [pytest.approx(appmod.OPENING_SWITCH_INTERVAL)]
    assert sys.getswitchinterval() == before
    with pytest.raises(SessionError):
        appmod.Opening(tmp_path / "nowhere.json").result()
    assert len(during) == 2 and sys.getswitchinterval() == before


def test_a_session_that_cannot_be_opened_is_said_as_before(tmp_path: Path) -> None:
    """Opened in the thread, a session that cannot be opened is refused as opened in the console's own: the
    console says why and ends with exit code 1."""
    app = BankerApp(tmp_path / "nowhere.json", lang="en")
    app.run(headless=True, size=(100, 30))
    assert app.return_code == 1 and "no session file" in app.open_error


def test_a_session_opened_for_the_console_but_not_taken_lets_go_of_its_lock(tmp_path: Path) -> None:
    """If the run ends before the console takes the session opened for it (or asks for another), that session
    is closed: its writer's lock is let go, and the game can be opened again at once."""
    from banker.ledger import SessionError
    from banker.ui.opening import Opening

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS[:3])
    opening = Opening(path)
    assert len(opening.result().entries) == 3  # the writer, opened in the thread
    with pytest.raises(SessionError):  # it holds the lock
        Session.open(path)
    opening.discard()
    with Session.open(path) as session:
        assert len(session.entries) == 3
    with pytest.raises(SessionError) as raised:
        Opening(tmp_path / "nowhere.json").result()
    assert raised.value.key == "missing"


def _random_deed_rows(rnd) -> list:
    """Up to six deed lines as a card makes them, at random: a block, a name (some wide, some long, some
    struck through), marks or none; some texts with a style of their own."""
    from rich.text import Text

    names = ["Boardwalk", "Reading Railroad", "Улица Огарёва", "Станція метро «Вокзальна»", "Mediterranean Avenue",
             "北京", "x"]
    marks = ["", "(M)", "(З)", "⌂", "⌂⌂⌂⌂", "H"]
    rows = []
    for _ in range(rnd.randint(0, 6)):
        name = Text(style=rnd.choice(["", "italic"]))
        name.append(rnd.choice("█▌"), rnd.choice(["red", "#87ceeb"]))
        name.append(" ")
        name.append(rnd.choice(names), rnd.choice(["", "dim strike"]))
        mark = Text(style=rnd.choice(["", "underline"]))
        mark.append(rnd.choice(marks), rnd.choice(["dim", "bold red", "bold green"]))
        rows.append((name, mark))
    return rows


def test_deed_lines_are_laid_out_as_richs_grid_lays_them_out() -> None:
    """A player card's deeds (DeedLines, laid out in one pass) are, segment for segment, what rich's
    ``Table.grid`` with the same two columns draws (what the card drew before), at every width: names cut
    short or padded, the marks right-aligned, no marks at all, too narrow a card. A name too long that quotes its own
    is first shortened to the quoted part (``fitted``: the RU/UK probe could not tell Kyiv's metro stations apart)."""
    import random

    from rich.console import Console, Group
    from rich.text import Text

    from banker.ui.widgets.table import DeedLines, fitted

    console = Console(width=200, color_system="truecolor", legacy_windows=False, force_terminal=True)
    rnd = random.Random(14)
    for _ in range(3000):
        rows = _random_deed_rows(rnd)
        options = console.options.update_width(rnd.randint(1, 70))
        lines = DeedLines(rows)
        columns = lines.columns(options.max_width)
        grid = DeedLines([(fitted(name, columns[0]), marks) for name, marks in rows]).table() if columns else lines.table()
        assert console.render_lines(Group(Text("$1,500"), lines), options) == \
            console.render_lines(Group(Text("$1,500"), grid), options), (options.max_width, rows)
    station = Text("█ Станція метро «Вокзальна»")
    assert fitted(station, 16).plain == "█ «Вокзальна»" and fitted(station, 40) is station
    assert fitted(Text("█ Mediterranean Avenue"), 10).plain == "█ Mediterranean Avenue"  # cut by the cell, as before


def test_a_cards_deed_lines_are_cell_for_cell_what_a_static_drew(monkeypatch) -> None:
    """The card draws its deeds' lines itself (DeedLines.strips, without rich rendering each cell): cell for
    cell, character and style, they are what Textual made of the same DeedLines in a ``Static`` (the card's
    style under it, rendered through rich, cut to lines: ``RichVisual``), at every width: names cut short or
    padded, the marks right-aligned, no marks at all, too narrow a card. The cases mix texts the quick way
    cuts itself (a deed's: no style of their own, one character a cell) with texts it leaves to rich (a style
    of their own, wide characters); a card's own deeds all go the quick way."""
    import random

    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from rich.styled import Styled
    from rich.text import Text

    from banker.ui.widgets import table as card_module
    from banker.ui.widgets.table import DeedLines

    by_rich: list[str] = []
    real_by_rich = card_module._cell_by_rich

    def spy(console, text, *args):
        by_rich.append(text.plain)
        return real_by_rich(console, text, *args)

    monkeypatch.setattr(card_module, "_cell_by_rich", spy)
    console = Console(width=200, color_system="truecolor", legacy_windows=False, force_terminal=True)
    bases = [Style(color="#e0e0e0", bgcolor="#121212"), Style(color="#808080", bgcolor="#1e1e1e", bold=True), Style()]

    def cells(lines) -> list[list[tuple[str, Style]]]:  # no style (None) is the null style, as Textual draws it
        return [[(ch, style or Style.null()) for text, style, _ in line for ch in text] for line in lines]

    rnd = random.Random(1414)
    for _ in range(3000):
        rows = _random_deed_rows(rnd)
        width, base = rnd.randint(1, 70), rnd.choice(bases)
        lines = DeedLines(rows)
        # what Textual's RichVisual does with a rich renderable in a Static (textual/visual.py, 8.2.8)
        options = console.options.update(highlight=False, width=width, height=None)
        drawn = Segment.split_and_crop_lines(console.render(Styled(lines, base), options.update_width(width)), width,
                                             include_new_lines=False, pad=False)
        assert cells(lines.strips(console, width, base)) == cells(drawn), (width, rows)
    assert by_rich and len(set(by_rich)) > 5  # rich's way was taken, and for many different texts
    # a card's deeds, as PlayerCard makes them: every cell the quick way
    by_rich.clear()
    rows = []
    deeds = (("Boardwalk", "⌂⌂"), ("Reading Railroad", "(M)"), ("Улица Огарёва", ""), ("Станція метро «Вокзальна»", "H"))
    for name, mark in deeds:
        text = Text()
        text.append("█", "#87ceeb")
        text.append(" ")
        text.append(name, "dim strike" if mark == "(M)" else "")
        marks_text = Text()
        marks_text.append(mark, "bold green")
        rows.append((text, marks_text))
    for width in (8, 14, 40):
        DeedLines(rows).strips(console, width, bases[0])
    assert by_rich == []


def test_banker_makes_no_dataclass_on_the_way_to_the_consoles_first_frame() -> None:
    """Issue #14: making a ``dataclasses.dataclass`` writes and compiles its methods' source (``exec``): counted
    with callgrind, about 1.9 M instructions a class, 3.4 M a frozen one, against 0.1 M for a msgspec Struct,
    made in C. Every record banker loads before the console's first frame (the edition, its spaces and cards,
    the lots, the op specs, a count's differences, the log's findings, the setup, what a read of the session
    found: ``Loaded``, ``Damage``, the journal's ``Scan``) is a Struct; ``Setup`` is changed with
    ``msgspec.structs.replace``. In a fresh process: every banker module that ``banker open`` loads on the
    way to the table (the command line, the console, its table screen)."""
    import subprocess
    import sys

    code = (
        "import dataclasses, sys\n"
        "import banker.cli, banker.ui.app, banker.ui.screens.table\n"
        "mods = [m for name, m in sorted(sys.modules.items()) if name == 'banker' or name.startswith('banker.')]\n"
        "assert any(m.__name__ == 'banker.ledger.format' for m in mods)\n"
        "print(sorted(f'{m.__name__}.{k}' for m in mods for k, v in vars(m).items()\n"
        "             if isinstance(v, type) and v.__module__ == m.__name__ and dataclasses.is_dataclass(v)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("follow", [False, True], ids=["table", "follow-mode"])
def test_follow_modes_bar_is_made_only_for_a_table_in_follow_mode(tmp_path: Path, follow: bool) -> None:
    """Issue #14: follow mode's bar (its module and its Textual class: some 2 M instructions, callgrind) is not
    made before the first frame of a table without follow mode; a table in follow mode shows it in its first frame.
    In a fresh process, as `banker open` runs the console. (Started during a game, the bar is mounted then:
    tests/test_ui_follow.py.)"""
    import json
    import subprocess
    import sys

    path = make_session(tmp_path / "g.json", PLAYERS, commands=[*COMMANDS, *([{"op": "follow", "on": True}] if follow else [])])
    code = (
        "import asyncio, json, sys\n"
        "from banker.ui.app import BankerApp\n"
        "from banker.ui.screens.table import TableScreen\n"
        "from tests.ui_helpers import on_frames\n"
        "app = BankerApp(sys.argv[1], lang='en')\n"
        "first = on_frames(app, TableScreen, lambda shown, _renderable: ('banker.ui.widgets.turn_bar' in sys.modules,\n"
        "                  shown.query('#turn').first().display if shown.query('#turn') else None))\n"
        "async def main():\n"
        "    async with app.run_test(size=(120, 36)) as pilot:\n"
        "        for _ in range(100):\n"
        "            await pilot.pause()\n"
        "            if first:\n"
        "                break\n"
        "        print(json.dumps(first[0]))\n"
        "asyncio.run(main())\n"
    )
    root = Path(__file__).resolve().parent.parent  # where ``tests`` is a package, for its on_frames
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                         cwd=root).stdout
    assert json.loads(out.splitlines()[-1]) == ([True, True] if follow else [False, None])


def test_the_consoles_modules_load_with_the_collector_paused_and_leave_it_on(tmp_path) -> None:
    """Issue #14: loading Textual, rich and banker's modules made the cyclic collector run some 90 passes over
    objects that live as long as the process (about 12 ms of the console's start; the command line's own modules
    26 more, 3 ms). In a fresh process, with the collector on: ``import banker.ui.app`` runs no collection, and
    leaves the collector on, with what was loaded frozen (out of its way); so does the ``banker`` command
    (``banker.cli``: its modules, then the console's, as ``banker open`` loads them); and a collector the
    process had turned off stays off."""
    import subprocess
    import sys

    code = (
        "import gc, sys\n"
        "passes = []\n"
        "def loading():  # banker's modules: the command's, or the console's (run_app: their last line but one)\n"
        "    return 'banker.cli' in sys.modules and not hasattr(sys.modules['banker.cli'], 'main') or \\\n"
        "        'banker.ui.app' in sys.modules and not hasattr(sys.modules['banker.ui.app'], 'run_app')\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and loading() and passes.append(info['generation']))\n"
        "if sys.argv[1] == 'off':\n"
        "    gc.disable()\n"
        "if sys.argv[2] == 'app':\n"
        "    import banker.ui.app\n"
        "else:\n"
        "    import banker.cli\n"
        "    print(len(passes), gc.isenabled(), gc.get_freeze_count() > 1000)\n"
        "    assert banker.cli.main(['open', 'nowhere.json']) == 1 and 'banker.ui.app' in sys.modules\n"
        "print(len(passes), gc.isenabled(), gc.get_freeze_count() > 10000)\n"
    )
    # with its bytecode made, as an installed banker has it: compiling a module's source (PYTHONDONTWRITEBYTECODE, or
    # a .pyc older than its source) happens before its first line runs, collector and all, so the count would be
    # the compiler's; the bytecode goes to a folder of this test's own
    import os

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {
        "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache")}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "banker")], env=env, check=True)

    def passes(*argv: str) -> list[str]:
        return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True,
                              env=env, cwd=tmp_path).stdout.split()

    assert passes("on", "app") == ["0", "True", "True"]
    assert passes("off", "app") == ["0", "False", "True"]
    assert passes("on", "cli") == ["0", "True", "True"] * 2
    assert passes("off", "cli") == ["0", "False", "True"] * 2


def test_banker_open_reads_the_session_once_and_the_console_shows_what_it_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`banker open FILE` and `banker review FILE` (banker.cli): the session file is read once, in the thread the
    command starts opening it in before it loads the console, and the console shows that session: no read of
    the whole file (every entry decoded) first, to refuse a bad one, then another for the console. `banker open`
    reads only the file's head there (its entries are left on the disk, read whole once after the first frame);
    `banker review` reads it whole."""
    import threading

    from banker import cli
    from banker.ledger import format as fmt

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS)
    reads: list[tuple[str, str, str]] = []
    real_read, real_head = fmt.read_regular, fmt._quick_on_disk

    def noted(p: Path, *args: Any, **kwargs: Any) -> Any:
        if Path(p).name == path.name:
            reads.append((threading.current_thread().name, Path(p).name, "whole"))
        return real_read(p, *args, **kwargs)

    def noted_head(p: Path) -> Any:
        reads.append((threading.current_thread().name, Path(p).name, "head"))
        return real_head(p)

    monkeypatch.setattr(fmt, "read_regular", noted)
    monkeypatch.setattr(fmt, "_quick_on_disk", noted_head)
    shown: dict[str, Any] = {}
    real_run = BankerApp.run
    for command, screen, read in (("open", TableScreen, "head"), ("review", ReviewScreen, "whole")):
        reads.clear()
        shown.clear()
        auto_pilot = _pilot_until(screen, shown)
        monkeypatch.setattr(BankerApp, "run", lambda self, pilot=auto_pilot, **kw: real_run(
            self, headless=True, size=(100, 30), auto_pilot=pilot))
        assert cli.main([command, str(path), "--lang", "en"]) == 0
        assert reads == [("banker-open", "g.json", read)], command
        assert shown == {"screen": screen, "stack": [screen], "entries": len(COMMANDS)}
    with Session.open(path) as session:  # the console let go of the writer's lock
        assert len(session.entries) == len(COMMANDS)


def _rules(css: str, where: str) -> list[tuple[object, object]]:
    """The rules a Textual stylesheet parses to: each one's selectors and declarations."""
    from textual.css.stylesheet import Stylesheet

    sheet = Stylesheet(variables=BankerApp().get_css_variables())
    sheet.add_source(css, read_from=(where, ""))
    sheet.parse()
    return [(rule.selector_set, rule.styles.get_rules()) for rule in sheet.rules]


def test_the_console_parses_its_stylesheet_compacted_to_the_same_rules() -> None:
    # the console parses banker.tcss without its comments and skipped whitespace (half the tokens, issue #14): the
    # same rules, in the same order, as the file as written, which parses on its own (an error names its line)
    written = STYLESHEET.read_text(encoding="utf-8")
    both = BankerApp.CSS + REST_CSS  # the table's part, parsed as the console starts, and the rest, once it is drawn
    assert both == compact_css(written)
    assert len(both) < len(written) * 2 // 3
    assert "/*" not in both and "\n" not in both
    rules = _rules(written, str(STYLESHEET))
    assert len(rules) > 50
    assert _rules(both, "compacted") == rules
    # what the compaction must keep: a space between values and between a selector's parts, a pseudo-class's colon
    assert compact_css("A  B > C:focus {\n  padding: 0 1;  /* x */\n  border: round $primary;\n}\n") == (
        "A B > C:focus{padding:0 1;border:round $primary;}")


def _first_frames(app: BankerApp, screen: type) -> list[bool]:
    """Whether the whole stylesheet was in place at each frame of ``screen`` the console draws."""
    return on_frames(app, screen, lambda _shown, _renderable: app.whole_stylesheet)


def _tables(tmp_path: Path) -> dict[str, Path]:
    """The table in each of its looks: a game well under way with an open debt (five players); follow mode with whose
    turn it is and a player in jail; and each sample game (a timed one counting down, one over, bankruptcies)."""
    from banker.rules import Setup

    from .test_ui_snapshots_follow import a_few_turns
    from .ui_helpers import SAMPLES, midgame_commands, sample_copy

    five = ("Ann", "Bob", "Cid", "Dee", "Eve")
    tables = {"midgame": make_session(tmp_path / "midgame.json", five, commands=midgame_commands(five))}
    follow = tmp_path / "follow.json"
    with Session.create(follow, Setup("classic-us", "classic", five, follow=True)) as s:
        for cmd in a_few_turns(five):
            s.apply(cmd)
    tables["follow"] = follow
    for sample in sorted(SAMPLES.glob("*.json")):
        tables[sample.stem] = sample_copy(tmp_path, sample.name)
    return tables


async def test_no_rule_of_the_stylesheets_rest_styles_the_tables_screen(tmp_path: Path) -> None:
    """The table's first frame is drawn before the rest of banker.tcss is parsed (issue #14): so no rule of the rest
    may style any part of the table's screen, in any of its looks, at either size (the compact footer at 80x24), or
    its first frame would differ from the next. A rule for it goes above the mark (banker.ui.app: REST_MARK)."""
    from textual.css.match import match
    from textual.css.stylesheet import Stylesheet

    sheet = Stylesheet(variables=BankerApp().get_css_variables())
    sheet.add_source(REST_CSS, read_from=("the rest", ""))
    rest = sheet.rules
    assert len(rest) > 40
    for look, path in _tables(tmp_path).items():
        for size in ((120, 36), (80, 24)):
            app = BankerApp(path, lang="en")
            frames = _first_frames(app, TableScreen)
            async with app.run_test(size=size) as pilot:
                await footer_shown(pilot)
                assert isinstance(app.screen, TableScreen)
                assert frames[0] is False and app.whole_stylesheet  # drawn first, the rest added after
                styled = [(str(node), rule.selector_set) for node in app.screen.walk_children(with_self=True)
                          for rule in rest if match(rule.selector_set, node)]
                assert not styled, (look, size, styled)


async def test_the_whole_stylesheet_is_in_place_once_the_table_is_drawn(tmp_path: Path) -> None:
    """Once the table has been drawn, every rule of banker.tcss is the console's, as before the stylesheet was parsed
    in two parts: a dialog opened then is styled as ever (the dialogs' snapshots say how it looks)."""
    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS[:3])
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await footer_shown(pilot)
        have = [(rule.selector_set, rule.styles.get_rules()) for rule in app.stylesheet.rules]
        for rule in _rules(STYLESHEET.read_text(encoding="utf-8"), str(STYLESHEET)):
            assert rule in have
        before = len(app.stylesheet.rules)
        app.load_whole_stylesheet()  # once only
        assert len(app.stylesheet.rules) == before
        app.push_screen(ConfirmScreen("Sure?", ["Ann pays Bob $10."]))
        await pilot.pause()
        dialog = app.screen.query_one(".dialog")
        assert dialog.styles.width is not None and dialog.styles.width.value == 76  # the rest's `.dialog` rule


async def test_a_dialog_opened_before_the_tables_first_frame_is_styled_from_its_own(tmp_path: Path, monkeypatch) -> None:
    """A dialog opened as the table is mounted, before its first frame (keys typed ahead), before the rest of the
    stylesheet was added after it: the dialog adds it as it is mounted, and its first frame has its rules."""
    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS[:3])
    mounted = TableScreen.on_mount

    def at_once(screen: TableScreen) -> None:
        mounted(screen)
        screen.app.push_screen(ConfirmScreen("Sure?", ["Ann pays Bob $10."]))

    monkeypatch.setattr(TableScreen, "on_mount", at_once)
    app = BankerApp(path, lang="en")
    widths = on_frames(app, ConfirmScreen,
                       lambda shown, _renderable: (app.whole_stylesheet, shown.query_one(".dialog").styles.width))
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(50):
            if widths:
                break
            await pilot.pause()
        assert widths and widths[0][0] is True
        assert widths[0][1] is not None and widths[0][1].value == 76  # the rest's `.dialog` rule


async def test_the_review_and_the_start_have_the_whole_stylesheet_from_their_first_frame(tmp_path: Path) -> None:
    """The console started on the review (``banker review``) or on the start screen (no session named) parses the
    whole stylesheet before their first frame: their rules are in the rest."""
    from banker.ui.screens.start import StartScreen

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS[:3])
    for app, screen in ((BankerApp(path, lang="en", review=True), ReviewScreen),
                        (BankerApp(lang="en", data_dir=tmp_path / "data"), StartScreen)):
        frames = _first_frames(app, screen)
        async with app.run_test(size=(120, 36)) as pilot:
            for _ in range(50):
                if frames:
                    break
                await pilot.pause()
            assert frames and all(frames), screen


async def _command_line_looks(path: Path, line_class: type | None, monkeypatch: pytest.MonkeyPatch) -> dict[tuple, Any]:
    """The table's command line drawn in each of Textual's colour themes: empty (its placeholder) and holding a line
    with its cursor, with a part selected, and with a suggestion; unfocused and focused. With ``line_class`` in its
    place when given."""
    from textual.widgets import Input

    from banker.ui.screens import table as table_screen

    if line_class is not None:
        monkeypatch.setattr(table_screen, "CommandLine", line_class)
    looks: dict[tuple, Any] = {}
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await footer_shown(pilot)
        line = app.screen.query_one("#command", Input)
        line.cursor_blink = False
        for theme in sorted(app.available_themes):
            app.theme = theme
            for focused in (False, True):
                if focused:
                    line.focus()
                else:
                    app.screen.set_focus(None)
                for state in ("placeholder", "cursor", "selection", "suggestion"):
                    line.value = "" if state == "placeholder" else "rent bo"
                    line._suggestion = "rent boardwalk" if state == "suggestion" else ""
                    if state == "selection":
                        line.select_all()
                    else:
                        line.cursor_position = len(line.value)
                    await pilot.pause()
                    looks[theme, focused, state] = list(line.render_line(0))
    return looks


async def test_the_command_line_looks_as_an_input_on_the_table_looks(tmp_path: Path, monkeypatch) -> None:
    """The command line is styled by its own rules, not Input's (``inherit_css=False``: Input's stylesheet is not
    parsed before the first frame, issue #14): cell for cell, in every theme, it is drawn as an Input in its place is."""
    from textual.widgets import Input

    class InputLine(Input):  # an Input with its own stylesheet: how the command line looked before
        pass

    path = make_session(tmp_path / "g.json", PLAYERS, commands=COMMANDS[:3])
    own = await _command_line_looks(path, None, monkeypatch)
    assert len(own) > 40
    assert own == await _command_line_looks(path, InputLine, monkeypatch)
