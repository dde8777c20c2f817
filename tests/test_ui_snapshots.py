"""Snapshots of the console's key screens, in English, Russian and (the main screen) Ukrainian (pytest-textual-snapshot).

Plain ``def`` tests (snap_compare runs its own event loop). Each starts from a game well
under way, made through the engine and the session log; cursors are frozen (no blink) so
a screenshot never depends on the moment it was taken. Update after a deliberate change
with ``pytest tests/test_ui_snapshots.py --snapshot-update`` and look at the report.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual.screen import ModalScreen
from textual.widgets import Input

from banker.ledger import Session
from banker.rules import HouseRules, Setup
from banker.ui.app import BankerApp

from .ui_helpers import make_session, midgame_commands

PLAYERS = {"en": ("Ann", "Bob", "Cid", "Dee", "Eve"), "ru": ("Аня", "Боря", "Вика", "Гена", "Даша"),
           "uk": ("Оля", "Петро", "Іра", "Тарас", "Юля")}
BOARD = {"en": "classic-us", "ru": "ru", "uk": "kyiv"}
NAME = {"en": "Friday game", "ru": "Пятничная игра", "uk": "Гра в п'ятницю"}


def midgame(tmp_path: Path, lang: str, edition: str | None = None) -> BankerApp:
    players = PLAYERS[lang]
    path = make_session(tmp_path / "game.json", players, edition=edition or BOARD[lang],
                        commands=midgame_commands(players), name=NAME[lang])
    return BankerApp(path, lang=lang)


async def still(pilot) -> None:
    """Let the screen settle and stop every cursor blinking."""
    await pilot.pause()
    for screen in pilot.app.screen_stack:
        for widget in screen.query(Input):
            widget.cursor_blink = False
    await pilot.pause()


def opened(op: str, given: dict | None = None):
    """A run_before that opens an action's flow (as its key would) and waits for its dialog."""

    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.start_action(op, given)
        for _ in range(50):
            await pilot.pause()
            if isinstance(pilot.app.screen, ModalScreen):
                break
        await still(pilot)

    return run_before


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_main_screen(snap_compare, tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    assert snap_compare(midgame(tmp_path, lang), terminal_size=size, run_before=still)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_income_tax_choice(snap_compare, tmp_path: Path, lang: str) -> None:
    """The choice comes first: the dialog shows the two options, never the worth."""
    app = midgame(tmp_path, lang, edition="classic-us")  # the only board with the income-tax choice
    dee = PLAYERS[lang][3]
    assert snap_compare(app, terminal_size=(80, 24), run_before=opened("tax", {"space": 4, "player": dee}))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bankruptcy_preview(snap_compare, tmp_path: Path, lang: str) -> None:
    """Bob owes more than he can raise: what goes where, before it is confirmed."""
    bob = PLAYERS[lang][1]
    assert snap_compare(midgame(tmp_path, lang), terminal_size=(100, 30),
                        run_before=opened("bankrupt", {"player": bob, "lift": []}))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_raise_cash_view(snap_compare, tmp_path: Path, lang: str) -> None:
    """The review of a debt: the debtor's legal sales and mortgages, and the most that can be raised."""
    bob = PLAYERS[lang][1]
    assert snap_compare(midgame(tmp_path, lang), terminal_size=(100, 30), run_before=opened("debt", {"player": bob}))


def reviewed(tmp_path: Path, lang: str) -> BankerApp:
    players = PLAYERS[lang]
    commands = [*midgame_commands(players), {"op": "salary", "player": players[0]},
                {"op": "undo", "reason": {"en": "wrong player", "ru": "не тот игрок", "uk": "не той гравець"}[lang]}]
    path = make_session(tmp_path / "game.json", players, edition=BOARD[lang], commands=commands, name=NAME[lang])
    return BankerApp(path, lang=lang, review=True)


def tab(key: str):
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        await still(pilot)

    return run_before


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_review_timeline(snap_compare, tmp_path: Path, lang: str) -> None:
    """The review opens on the timeline, newest at the bottom; the undone salary struck through with its reason."""
    assert snap_compare(reviewed(tmp_path, lang), terminal_size=(100, 30), run_before=tab("1"))


def charts_tab():
    """The charts' tab, once they are drawn (they are made after the tab is first shown: on a busy
    machine, later than a fixed number of pauses)."""
    async def run_before(pilot) -> None:
        await tab("2")(pilot)
        for _ in range(1000):
            if getattr(pilot.app.screen, "charts_drawn", False):
                break
            await pilot.pause(0.05)
        await still(pilot)

    return run_before


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_review_charts(snap_compare, tmp_path: Path, lang: str) -> None:
    assert snap_compare(reviewed(tmp_path, lang), terminal_size=(100, 30), run_before=charts_tab())


def test_review_summary(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(reviewed(tmp_path, "en"), terminal_size=(100, 40), run_before=tab("3"))


def test_review_count_the_table(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(reviewed(tmp_path, "en"), terminal_size=(100, 40), run_before=tab("4"))


# ------------------------------------------------------------------------------ issue #13
#: the table's clock, frozen: a snapshot never depends on the moment it is taken
FROZEN = datetime(2026, 11, 23, 21, 17, 42, tzinfo=timezone(timedelta(hours=1)))
EVENING_TS = "2026-11-23T20:00:00.000+01:00"


def timed(tmp_path: Path, lang: str, house_rules: HouseRules = HouseRules(), review: bool = False,
          clock: datetime = FROZEN) -> BankerApp:
    """A time-limit game till 22:30 (the RU board in Russian: the Kyiv book has no timed game), mid-evening."""
    players = PLAYERS[lang][:4]
    edition = "ru" if lang == "ru" else "classic-us"
    a, b, c, d = players
    commands = [{"op": "deal", "player": p, "space": s} for p, s in ((a, 1), (b, 5), (c, 6), (d, 11), (a, 3), (b, 15),
                                                                      (c, 8), (d, 13))]
    commands += [{"op": "salary", "player": a}, {"op": "rent", "payer": c, "space": 3},
                 {"op": "auction", "space": 39, "winner": None}, {"op": "buy", "player": b, "space": 39}]
    path = tmp_path / "timed.json"
    with Session.create(path, Setup(edition, "timed", players, house_rules, "2026-11-23T22:30+01:00"),
                        name=NAME[lang], created=EVENING_TS) as session:
        for cmd in commands:
            session.apply(cmd, ts=EVENING_TS)
    return BankerApp(path, lang=lang, review=review, clock=lambda: clock)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_timed_game_countdown(snap_compare, tmp_path: Path, lang: str) -> None:
    """The table of a time-limit game counts down to the agreed end in its header (1:12:18 left, ends 22:30)."""
    assert snap_compare(timed(tmp_path, lang), terminal_size=(100, 30), run_before=still)


def time_up():
    async def run_before(pilot) -> None:
        pilot.app.bell = lambda: None
        await pilot.pause()
        pilot.app.screen.tick()
        for _ in range(50):
            await pilot.pause()
            if isinstance(pilot.app.screen, ModalScreen):
                break
        await still(pilot)

    return run_before


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_timed_game_alert(snap_compare, tmp_path: Path, lang: str) -> None:
    """At the agreed end: the header says time is up, the alert, and the end of the game offered with the valuation."""
    app = timed(tmp_path, lang, clock=datetime(2026, 11, 23, 22, 30, 5, tzinfo=timezone(timedelta(hours=1))))
    assert snap_compare(app, terminal_size=(100, 30), run_before=time_up())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_count_check_with_a_difference(snap_compare, tmp_path: Path, lang: str) -> None:
    """The table counted: one house too many in the box and a deed missing from a hand; each difference with the log
    entries behind the bank's figure."""
    players = PLAYERS[lang]
    a = players[0]
    given = {"houses": 25, "hotels": 9, "deeds": {a: 1, players[1]: 3}}
    assert snap_compare(midgame(tmp_path, lang), terminal_size=(100, 34), run_before=opened("count", given))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_review_header_with_house_rules(snap_compare, tmp_path: Path, lang: str) -> None:
    """The review's header carries the setup: variant, house rules, the agreed end, the players; and the last count."""
    app = timed(tmp_path, lang, HouseRules(free_parking_pot=True, go_landing_bonus=True), review=True)
    assert snap_compare(app, terminal_size=(110, 30), run_before=tab("3"))


# --------------------------------------------------------------------------- issue #12's dialogs
def midgame_with(tmp_path: Path, lang: str, extra, edition: str | None = None) -> BankerApp:
    players = PLAYERS[lang]
    path = make_session(tmp_path / "game.json", players, edition=edition or BOARD[lang],
                        commands=[*midgame_commands(players), *extra(players)], name=NAME[lang])
    return BankerApp(path, lang=lang)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_build_on_a_group(snap_compare, tmp_path: Path, lang: str) -> None:
    """Two more houses on each dark blue lot in one action: each lot, what goes on it, the total, the stock after."""
    a = PLAYERS[lang][0]
    app = midgame_with(tmp_path, lang, lambda p: [{"op": "transfer", "from": "bank", "to": p[0], "amount": 1000,
                                                   "memo": {"en": "prize", "ru": "приз"}[lang]}])
    assert snap_compare(app, terminal_size=(100, 30), run_before=opened("build", {"player": a, "space": 37, "upto": 4}))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bankruptcy_with_lift(snap_compare, tmp_path: Path, lang: str) -> None:
    """Bob's mortgaged railroad goes to Cid, who lifts it at once (asked as the trade dialog does): the
    confirmation shows the 10% and the lift."""
    bob = PLAYERS[lang][1]

    async def run_before(pilot) -> None:
        await opened("bankrupt", {"player": bob})(pilot)
        assert isinstance(pilot.app.screen, ModalScreen)
        await pilot.press("down", "enter")  # lift it at once
        for _ in range(50):
            await pilot.pause()
            if type(pilot.app.screen).__name__ == "ConfirmScreen":
                break
        await still(pilot)

    assert snap_compare(midgame(tmp_path, lang), terminal_size=(100, 30), run_before=run_before)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_auction(snap_compare, tmp_path: Path, lang: str) -> None:
    """The auction of an unowned deed under way: the bidders with their cash, who passed, the current bid."""

    async def run_before(pilot) -> None:
        await opened("auction", {"space": 24})(pilot)
        await pilot.press("2", "down", "3", "down", "p", "down", "1")
        await still(pilot)

    assert snap_compare(midgame(tmp_path, lang), terminal_size=(100, 30), run_before=run_before)



@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_undo_lists_the_latest_entries(snap_compare, tmp_path: Path, lang: str) -> None:
    """`u`'s question at 80x24: the reason's box over the latest entries, newest first, each with its number; the last
    that stands highlighted and quoted above; the salary undone and the entries the open debt depends on dimmed, each
    saying why."""
    players = PLAYERS[lang]
    path = make_session(tmp_path / "game.json", players, edition=BOARD[lang], name=NAME[lang],
                        commands=[*midgame_commands(players), {"op": "salary", "player": players[3]}])
    with Session.open(path) as session:
        session.undo({"en": "not passed", "ru": "не проходил", "uk": "не проходив"}[lang])
    assert snap_compare(BankerApp(path, lang=lang), terminal_size=(80, 24), run_before=opened("undo"))

#: a data folder that is the same on every machine (the form shows it as the file's placeholder)
FIXED_DATA = Path("/nonexistent/banker-data")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_start_screen_at_80x24(snap_compare, lang: str) -> None:
    """Issue #12: at 80x24 every label reads whole and the Start button is in sight; an unticked house-rule box is
    empty (the first is ticked here, to tell them apart); the form offers the board and the names of the
    banker's language (ru: the Moscow board, Russian names)."""

    async def run_before(pilot) -> None:
        await still(pilot)
        pilot.app.screen.query_one("#hr-free_parking_pot").value = True
        await still(pilot)

    assert snap_compare(BankerApp(lang=lang, data_dir=FIXED_DATA), terminal_size=(80, 24), run_before=run_before)
