"""Issue #13 in the console: the time-limit game's end set in the new-game form, counted down on the table, and
the alert when it is reached; counting the table during a game; the review's keys.

The clock is the App's (``BankerApp(clock=...)``), frozen or moved by hand here: no test waits for the wall clock.
us-classic-rules.txt, TIME LIMIT GAME: "Before starting, agree upon a definite hour of termination, when the richest
player will be declared the winner."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import Input, Select, Static, TabbedContent

from banker.ledger import Session
from banker.rules import HouseRules, Setup
from banker.ui.app import BankerApp
from banker.ui.screens.count import CountScreen
from banker.ui.screens.dialogs import ConfirmScreen, InfoScreen
from banker.ui.screens.review import ReviewScreen
from banker.ui.screens.start import StartScreen
from banker.ui.screens.table import TableScreen

from .ui_helpers import Banker, file_entries, file_state, sample_copy, screen_text

TABLE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 23, 21, 5, 0, tzinfo=TABLE)


class Clock:
    """A table clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def timed_session(path: Path, players=("Ann", "Bob", "Cid"), edition: str = "classic-us",
                  end: str = "2026-11-23T22:30+01:00", commands: list[dict[str, Any]] | None = None,
                  house_rules: HouseRules = HouseRules(), name: str = "Timed") -> Path:
    with Session.create(path, Setup(edition, "timed", tuple(players), house_rules, end), name=name) as session:
        for cmd in commands or []:
            session.apply(cmd, ts="2026-11-23T20:00:00.000+01:00")
    return path


def header(app: BankerApp) -> str:
    return screen_text(app.screen.query_one("#table-header", Static))


async def test_the_new_game_form_sets_the_agreed_end(tmp_path: Path) -> None:
    """The form asks for the end only for a variant with a time limit; nonsense is refused in one line, nothing
    created; "90m" said at 21:05 is stored as 22:35 with the table's offset."""
    app = BankerApp(lang="en", data_dir=tmp_path, clock=Clock(NOW))
    async with app.run_test(size=(120, 40)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        end = app.screen.query_one("#end-time", Input)
        assert not end.display  # the classic game: no end asked for
        app.screen.query_one("#variant", Select).value = "timed"
        await pilot.pause()
        assert end.display
        app.screen.action_start()  # no end: refused, the book wants it agreed before starting
        await pilot.pause()
        assert "needs its agreed end" in screen_text(app.screen.query_one("#start-error"))
        end.value = "banana"
        app.screen.action_start()
        await pilot.pause()
        assert '"banana" is not an end time' in screen_text(app.screen.query_one("#start-error"))
        assert list(tmp_path.iterdir()) == []
        end.value = "90m"
        app.screen.action_start()
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        assert app.session.setup.end_time == "2026-11-23T22:35+01:00"
        assert "1:30:00 left · ends 22:35" in header(app)


async def test_the_countdown_and_the_alert_when_time_is_up(tmp_path: Path) -> None:
    """The header counts down to the agreed end; when it is reached the console rings the bell, shows the alert and
    offers the end of the game with every player's valuation; confirmed, the richest player wins (reason "time")."""
    path = timed_session(tmp_path / "t.json", commands=[{"op": "buy", "player": "Bob", "space": 39},
                                                        {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 100}])
    clock = Clock(NOW)
    app = BankerApp(path, lang="en", clock=clock)
    rings: list[int] = []
    app.bell = lambda: rings.append(1)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        assert "1:25:00 left · ends 22:30" in header(app)
        clock.now = NOW + timedelta(minutes=84, seconds=59)
        table.tick()
        assert "0:00:01 left" in header(app) and not rings
        clock.now = NOW + timedelta(minutes=85)
        table.tick()
        await b.settle()
        assert rings == [1]
        assert any("It is 22:30, the agreed end of the game" in str(n.message) for n in app._notifications)
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.title_text == "Time is up"
        body = await b.confirm()
        assert "It is 22:30, the agreed end" in body
        assert "End of game; Bob wins (time). Valuation: Bob $1,600, Cid $1,500, Ann $1,400" in body
        assert isinstance(app.screen, InfoScreen)
        await b.info()
        table.tick()  # once only: the game is over
        assert rings == [1]
    state = file_state(path)
    assert state["result"]["reason"] == "time"


async def test_playing_on_past_the_end(tmp_path: Path) -> None:
    """The banker may play on: Escape closes the alert, the header keeps saying time is up, no second alert; g ends
    the game later. The alert waits while a dialog is open."""
    path = timed_session(tmp_path / "t.json")
    clock = Clock(NOW + timedelta(hours=2))
    app = BankerApp(path, lang="ru", clock=clock)
    app.bell = lambda: None  # type: ignore[method-assign]
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        table = app.screen
        app.start_action("transfer")  # a dialog is open when the time is up: the alert waits
        await b.settle()
        table.tick()
        await pilot.pause()
        assert not table.time_up_said
        await b.key("escape")
        await b.settle()
        table.tick()
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen) and app.screen.title_text == "Время вышло"
        await b.key("escape")
        await b.settle()
        assert "Игра продолжается после оговорённого времени" in b.message()
        assert "Время вышло (22:30): g — конец игры" in header(app)
        table.tick()
        await pilot.pause()
        assert app.screen is table
    assert file_state(path)["result"] is None

def drawn_header(app: BankerApp) -> str:
    """The header's line as it is drawn (not the text it was given: a Static one line high shows only the first line
    of what it wraps)."""
    widget = app.screen.query_one("#table-header")
    (strip,) = widget.render_lines(Region(0, 0, widget.outer_size.width, widget.outer_size.height))
    return strip.text


#: a timed game at 80 columns: what the header says before the end and once the time is up, and how it counts
AT_80 = {"en": ("Ann", "1:25:00 left · ends 22:30", "Time is up (22:30): g ends the game", "· 2 actions"),
         "ru": ("Аня", "осталось 1:25:00 · конец в 22:30", "Время вышло (22:30): g — конец игры", "· действий: 2"),
         "uk": ("Оля", "лишилося 1:25:00 · кінець о 22:30", "Час вийшов (22:30): g — кінець гри", "· дій: 2")}


async def header_at_80(tmp_path: Path, lang: str, name: str, up: bool) -> tuple[str, str]:
    """A timed game named ``name`` at 80x24, counting down or (``up``) past its end, the alert answered "play on":
    the header as drawn, and all it was given to say."""
    first = AT_80[lang][0]
    path = timed_session(tmp_path / "t.json", players=(first, "Bob", "Cid"), name=name,
                         commands=[{"op": "salary", "player": first}, {"op": "buy", "player": "Bob", "space": 39}])
    app = BankerApp(path, lang=lang, clock=Clock(NOW + timedelta(hours=2) if up else NOW))
    app.bell = lambda: None  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        table.tick()  # the alert, when the time is up
        await pilot.pause()
        await pilot.press("escape")  # play on
        await pilot.pause()
        assert app.screen is table
        return drawn_header(app), header(app)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("name", ["Friday game", "The long Friday evening game at Bob's place"])
@pytest.mark.parametrize("up", [False, True])
async def test_a_timed_games_header_fits_80_columns(tmp_path: Path, lang: str, name: str, up: bool) -> None:
    """Found in tmux at 80x24: once the time was up the header was cut after "Friday game · Monopoly — US" (the
    variant and the count of actions lost, the edition cut mid-name). At 80 columns the countdown, or that the time
    is up, stays whole and the line says what it can whole: the name and the count, the name cut short with "…"."""
    _first, counting, said, count = AT_80[lang]
    line, given = await header_at_80(tmp_path, lang, name, up)
    shown = line.strip()
    assert shown.startswith(said if up else counting), line
    assert shown.endswith(count), line  # nothing after the count was cut off
    assert shown == given.strip()  # all it was given is in sight
    assert ("…" in shown) == (len(name) > 20), line
    assert ("Monopoly" in shown) is False, line


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("up", [False, True])
async def test_a_long_session_name_is_cut_after_a_whole_word(tmp_path: Path, lang: str, up: bool) -> None:
    """Found by a probe: at 80 columns the header said "The long Friday evening gam… · 2 actions", the name cut
    mid-word. It is cut after the last whole word that fits ("…evening…" whole), character by character only when
    not even its first word fits."""
    name = "The long Friday evening game at Bob's place"
    count = AT_80[lang][3]
    line, _given = await header_at_80(tmp_path, lang, name, up)
    shown = line.strip()
    assert shown.endswith(count), shown
    cut = shown.split("…")[0].split(" · ")[-1].split(": g ")[-1].split(") ")[-1]  # the name's part before "…"
    cut = cut[cut.index("The"):]
    assert name.startswith(cut) and name[len(cut)] == " " and len(cut.split()) >= 3, shown


def test_the_header_cuts_a_name_at_a_word_boundary_else_a_single_word_by_characters() -> None:
    from rich.text import Text

    from banker.ui.widgets.table import header_line

    def line(width: int, name: str) -> str:
        return header_line(width, Text(), f"{name} · Monopoly — US · classic · 2 actions", lambda n: f"{n} · 2 actions",
                           name, "").plain

    name = "The long Friday evening game at Bob's place"
    assert line(40, name) == "The long Friday evening… · 2 actions"
    assert line(20, name) == "The… · 2 actions"
    assert line(14, name) == "T… · 2 actions"  # not even the first word: by characters
    assert line(30, "Supercalifragilisticexpialidocious") == "Supercalifragilis… · 2 actions"  # one word
    assert line(80, name) == f"{name} · 2 actions"


async def test_counting_the_table_from_the_console(tmp_path: Path) -> None:
    """i opens the count (also the palette and the command line's "count"); the banker types what is on the table;
    each difference is shown with the log entries behind the bank's figure; the count is recorded, no money moves."""
    from .ui_helpers import make_session

    path = make_session(tmp_path / "c.json", commands=[
        {"op": "buy", "player": "Ann", "space": 1}, {"op": "buy", "player": "Ann", "space": 3},
        {"op": "build", "player": "Ann", "space": 1}, {"op": "build", "player": "Ann", "space": 3}])
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = file_state(path)
        await b.act("i")
        await b.settle()
        assert isinstance(app.screen, CountScreen)
        await b.type("31")  # houses in the bank: the app has 30 (two built)
        await b.key("enter")
        await b.type("12")  # hotels
        await b.key("enter")
        await b.type("2")  # Ann's deeds
        await b.key("enter")
        await b.key("ctrl+s")
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen)
        body = await b.confirm()
        assert "1 difference between the table and the bank:" in body
        assert "houses in the bank: 31 counted, 30 by the bank's figures" in body
        assert "#3 -1  Ann builds a house on Mediterranean Avenue" in body and "#4 -1  Ann builds a house on Baltic" in body
        [entry] = [e for e in file_entries(path) if e["command"]["op"] == "count"]
        assert entry["command"] == {"op": "count", "houses": 31, "hotels": 12, "deeds": {"Ann": 2}}
        assert entry["effects"] == [] and entry["info"]["differences"] == [
            {"figure": "houses", "player": None, "counted": 31, "expected": 30}]
        after = file_state(path)
        assert {p: v["cash"] for p, v in after["players"].items()} == {p: v["cash"] for p, v in before["players"].items()}
        # the palette lists it, and the command line opens the same dialog
        assert any("Count the table  (i)" in str(c.title) for c in app.get_system_commands(app.screen))
        await b.command("count")
        await b.settle()
        assert isinstance(app.screen, CountScreen)
        await b.key("escape")
        await b.settle()


async def test_the_review_keys(tmp_path: Path) -> None:
    """Each tab has a visible key (its number); / goes to the search box; typing "baltic 2" there searches, and
    never switches to another tab (a, c and 2 are keys elsewhere); Escape leaves the box, a second one closes."""
    from .ui_helpers import make_session

    path = make_session(tmp_path / "r.json", commands=[{"op": "buy", "player": "Ann", "space": 3},
                                                       {"op": "buy", "player": "Bob", "space": 39}])
    app = BankerApp(path, lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        shown = {a.binding.key: a.binding.description for a in review.active_bindings.values() if a.binding.show}
        assert {k: shown.get(k) for k in "12345"} == {"1": "Timeline", "2": "Charts", "3": "Summary",
                                                      "4": "Count", "5": "Audit"}
        assert shown.get("slash") == "Search"
        tabs = review.query_one(TabbedContent)
        await b.key("3")
        assert tabs.active == "summary"
        await b.key("slash")
        assert tabs.active == "timeline" and isinstance(app.focused, Input)
        await b.type("baltic 2")
        assert tabs.active == "timeline"
        assert review.query_one("#filter-text", Input).value == "baltic 2"
        await b.key("escape")
        assert app.screen is review and not isinstance(app.focused, Input)
        await b.key("3", "full_stop")  # the ЙЦУКЕН layouts type "." on the / key: the search too
        assert tabs.active == "timeline" and isinstance(app.focused, Input)
        await b.key("full_stop")  # in the box, a letter
        assert review.query_one("#filter-text", Input).value.endswith(".")
        await b.key("escape")
        await b.key("4")
        assert tabs.active == "count"


async def test_the_reviews_summary_names_the_street_of_a_shortage_auction(tmp_path: Path) -> None:
    """Found by a probe: the summary's auction table said "Dee, shortage auction of a house" (the last player of the
    standings) where the exports say the street."""
    path = sample_copy(tmp_path, "classic-us-shortage.json")
    app = BankerApp(path, lang="en", review=True)
    async with app.run_test(size=(160, 60)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("3")
        for _ in range(200):
            await pilot.pause(0.05)
            text = " ".join(screen_text(w) for w in app.screen.query("#summary Static"))
            if "shortage auction" in text:
                break
        lines = [" ".join(ln.split()) for ln in text.splitlines() if "shortage auction" in ln]
        assert len(lines) == 2 and all("Dee, shortage" not in ln for ln in lines), lines


@pytest.mark.parametrize("lang,said", [("en", "Ann: 1 deed, 0 houses, 0 hotels"), ("ru", "Ann: 1 участок, 0 домов, 0 отелей"),
                                       ("uk", "Ann: 1 ділянка, 0 будинків, 0 готелів")])
async def test_the_reviews_count_says_each_number_with_its_plural(tmp_path: Path, lang: str, said: str) -> None:
    """Found by a probe: "Ann: 28 deeds, 19 houses, 1 hotels" (one English sentence for every number)."""
    from .ui_helpers import make_session

    path = make_session(tmp_path / "c.json", commands=[{"op": "buy", "player": "Ann", "space": 39}])
    app = BankerApp(path, lang=lang, review=True)
    async with app.run_test(size=(120, 40)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("4")
        await pilot.pause()
        text = " ".join(" ".join(screen_text(w).split()) for w in app.screen.query("#count Static"))
        assert said in text, text


@pytest.mark.parametrize("size,fits", [((80, 24), False), ((120, 50), True)])
async def test_the_charts_keep_a_readable_height_and_scroll_on_a_short_terminal(tmp_path: Path, size, fits) -> None:
    """Found by a probe: at 80x24 the three charts shared 14 lines, and drew no line at all and an axis upside down.
    Each keeps at least CHART_LINES; on a short terminal the tab scrolls, on a tall one they share its height."""
    from textual_plotext import PlotextPlot

    from banker.ui.screens.review import CHART_LINES

    path = sample_copy(tmp_path, "classic-us-shortage.json")
    app = BankerApp(path, lang="en", review=True)
    async with app.run_test(size=size) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("2")
        for _ in range(100):
            await pilot.pause(0.05)
            plots = list(app.screen.query(PlotextPlot))
            if len(plots) == 3 and all(p.size.height for p in plots):
                break
        box = app.screen.query_one("#charts-box")
        assert all(p.size.height >= CHART_LINES for p in plots), [p.size for p in plots]
        assert (box.max_scroll_y == 0) == fits and sum(p.size.height for p in plots) >= box.size.height - 2


async def test_each_tab_of_the_review_scrolls_from_the_keyboard(tmp_path: Path) -> None:
    """Found by a probe: at 80x24 the charts tab could be scrolled with a mouse wheel alone (Down, Page Down, End,
    with any number of Tabs, moved nothing), and the summary scrolled on Page Down only after two Tabs. A tab's key
    gives its page the keys: Page Down and End scroll it, Home comes back."""
    from textual.containers import VerticalScroll
    from textual_plotext import PlotextPlot

    path = sample_copy(tmp_path, "classic-us-shortage.json")
    app = BankerApp(path, lang="en", review=True)
    async with app.run_test(size=(80, 24)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        for tab, box_id in (("2", "charts-box"), ("3", None)):
            await b.key(tab)
            for _ in range(100):
                await pilot.pause(0.05)
                if tab != "2" or (len(plots := list(app.screen.query(PlotextPlot))) == 3
                                  and all(p.size.height for p in plots)):
                    break
            focused = app.focused
            assert isinstance(focused, VerticalScroll) and (box_id is None or focused.id == box_id), focused
            assert focused.max_scroll_y > 0  # longer than the screen at 80x24
            await b.key("pagedown")
            await pilot.pause()
            assert focused.scroll_y > 0, tab
            await b.key("end")
            await pilot.pause()
            assert focused.scroll_y == focused.max_scroll_y
            await b.key("home")
            await pilot.pause()
            assert focused.scroll_y == 0
