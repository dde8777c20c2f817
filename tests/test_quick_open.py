"""Issue #14: what a long game's first frames read, and what they skip.

The review of a long log shows first its header and the timeline's end (read from the entries' ops
and the last entries alone), then the whole review worked out in a thread; the console's footer is
not remade when a dialog closes over the table with the same keys. These pin that the quick way
shows exactly what the whole way shows (no timing is asserted: bench/ui.py measures the speed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Select, Static

from banker.boards import game_from_setup
from banker.ledger import Session
from banker.rules.review import review, timeline_tail
from banker.ui.app import BankerApp
from banker.ui.screens import review as review_screen
from banker.ui.screens.dialogs import ConfirmScreen
from banker.ui.screens.review import ReviewScreen
from banker.ui.screens.table import TableScreen
from banker.ui.widgets.footer import BankFooter

from .ui_helpers import make_session, screen_text

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


async def test_the_footer_is_not_remade_when_a_dialog_closes_with_the_same_keys(tmp_path: Path) -> None:
    """After an action the table's footer keeps its keys (the same widgets: nothing remade on the way from the
    Enter key to the table re-drawn)."""
    path = make_session(tmp_path / "g.json", PLAYERS, commands=[{"op": "buy", "player": "Ann", "space": 39}])
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
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
