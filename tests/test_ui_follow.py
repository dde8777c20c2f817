"""Follow mode in the console (issue #11): a whole game played with the console's keys alone, the session FILE
checked after every step (a reader reopening it, as in tests/test_ui_game.py).

The rolls are typed on the idle table (the first die starts the roll), what the landing requires is proposed
and taken with Enter, or auctioned with ``a``; the US rule book's turn (us-classic-rules.txt): "If you throw
doubles, you move your token as usual ... and throw again", "If you throw doubles three times in succession,
move your token immediately to the space marked 'In Jail'", "Get out of jail by ... paying a $50 fine before
you roll the dice on either of your next two turns", "Whenever you land on or pass over GO ... the Banker pays
you a $200 salary". Every amount below is worked out by hand from the printed deeds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.widgets import Checkbox

from banker.ledger import Session
from banker.rules import Setup
from banker.ui.app import BankerApp
from banker.ui.screens.auction import AuctionScreen
from banker.ui.screens.dialogs import ChooseScreen, ConfirmScreen, InfoScreen
from banker.ui.screens.start import StartScreen
from banker.ui.screens.table import TableScreen
from banker.ui.screens.turn import ProposalScreen, RollScreen, parse_roll

from .ui_helpers import Banker, cash, console, file_entries, file_state, make_session, screen_text

VERMONT, INCOME_TAX, ILLINOIS, NEW_YORK, MARVIN, MEDITERRANEAN, BOARDWALK = 8, 4, 24, 19, 29, 1, 39
JAIL, FREE_PARKING, GO = 10, 20, 0


def where(path: Path) -> dict[str, int]:
    return {p: v["position"] for p, v in file_state(path)["players"].items()}


async def roll(b: Banker, dice: str) -> None:
    """The dice typed on the idle table, then Enter: the roll is recorded (no confirmation)."""
    assert isinstance(b.screen, TableScreen), f"expected the table, got {type(b.screen).__name__}"
    await b.key(dice[0])
    assert isinstance(b.screen, RollScreen)
    await b.type(dice[1:])
    await b.key("enter")
    await b.settle()


def proposal(b: Banker) -> str:
    assert isinstance(b.screen, ProposalScreen), f"expected a proposal, got {type(b.screen).__name__}"
    return screen_text(b.screen.query_one("#proposal-body"))


def table_text(b: Banker) -> str:
    screen = next(s for s in reversed(b.app.screen_stack) if isinstance(s, TableScreen))
    return " ".join(screen_text(w) for w in screen.query("#turn, .player-card"))


async def test_a_whole_game_in_follow_mode_through_the_keys(tmp_path: Path) -> None:
    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()

        # -- the new-game form: follow mode is ticked by default
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#follow", Checkbox).value is True
        await b.key("ctrl+n")
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        path = app.session.path
        state = file_state(path)
        assert state["follow"] is True and state["turn"] == "Ann" and state["pending"] is None
        assert "▶ Ann" in table_text(b) and "on GO" in table_text(b)

        # -- Ann: 3 5, Vermont Avenue is unowned: Enter buys it at the printed price
        await roll(b, "35")
        assert where(path)["Ann"] == VERMONT and file_state(path)["pending"]["kind"] == "buy"
        assert "Ann → Bank  $100" in proposal(b)
        await b.key("enter")
        await b.settle()
        state = file_state(path)
        assert state["spaces"][str(VERMONT)]["owner"] == "Ann" and state["turn"] == "Bob" and state["pending"] is None
        assert cash(path) == {"Ann": 1400, "Bob": 1500, "Cid": 1500}
        assert "▶ Bob" in table_text(b)

        # -- Bob: 2 2 to Income Tax: the choice first (no figure shown), then the figures; doubles: Bob again
        await roll(b, "2 2")
        assert isinstance(app.screen, ChooseScreen) and b.options() == ["Pay $200", "Pay 10% of total worth"]
        await b.choose("200")
        assert "the other choice would have cost $150" in await b.info()
        state = file_state(path)
        assert cash(path)["Bob"] == 1300 and state["turn"] == "Bob" and state["doubles"] == 1
        assert "1 double this turn" in table_text(b)

        # -- Bob: 1 3 to Vermont Avenue, Ann's: the rent with its amount, Enter pays it; the turn passes
        await roll(b, "13")
        assert "Bob → Ann  $6" in proposal(b)
        await b.key("enter")
        await b.settle()
        assert cash(path) == {"Ann": 1406, "Bob": 1294, "Cid": 1500}
        assert file_state(path)["turn"] == "Cid" and file_state(path)["doubles"] == 0

        # -- Cid: 3 4 to Chance: the card is typed by a few letters of its text; it moves the token to Illinois
        # Avenue, unowned: auctioned instead (a), Ann wins it for $50
        await roll(b, "34")
        assert isinstance(app.screen, ChooseScreen)
        shown = await b.choose("illinois")
        assert all(s.startswith("Chance") for s in shown)
        assert "Advance to Illinois" in await b.confirm()
        assert where(path)["Cid"] == ILLINOIS and file_state(path)["pending"]["kind"] == "buy"
        assert "a: auction instead" in proposal(b)
        await b.key("a")
        assert isinstance(app.screen, AuctionScreen)
        await b.key("3", "enter")  # Ann (the first bidder) +50; sold
        assert "Ann → Bank  $50" in await b.confirm()
        state = file_state(path)
        assert state["spaces"][str(ILLINOIS)]["owner"] == "Ann" and state["turn"] == "Ann" and state["pending"] is None
        assert cash(path)["Ann"] == 1356

        # -- Ann: doubles three times in a row: 6 6 (Free Parking), 2 2 (her own Illinois), 3 3: straight to jail
        await roll(b, "66")
        assert where(path)["Ann"] == FREE_PARKING and file_state(path)["doubles"] == 1
        await roll(b, "22")
        assert where(path)["Ann"] == ILLINOIS and file_state(path)["doubles"] == 2
        await roll(b, "33")
        state = file_state(path)
        assert state["players"]["Ann"]["in_jail"] and where(path)["Ann"] == JAIL and state["turn"] == "Bob"
        assert cash(path)["Ann"] == 1356  # no salary, nothing else
        assert "in jail (0 failed attempts)" in table_text(b)

        # -- Bob: a roll he regrets typing: Escape leaves the proposal, u takes the roll back whole
        await roll(b, "65")
        assert where(path)["Bob"] == NEW_YORK
        await b.key("escape")
        assert "Enter settles it" in b.message()
        await b.act("u")
        await b.answer("typo")
        assert "Bob rolls 6 + 5" in await b.confirm()
        state = file_state(path)
        assert where(path)["Bob"] == VERMONT and state["pending"] is None and state["turn"] == "Bob"
        # the roll again; Enter on the table offers the proposal left for later
        await roll(b, "65")
        await b.key("escape")
        await b.act("enter")
        assert "Bob → Bank  $200" in proposal(b)
        await b.key("enter")
        await b.settle()
        assert file_state(path)["spaces"][str(NEW_YORK)]["owner"] == "Bob" and cash(path)["Bob"] == 1094

        # -- Cid: 5 4 to Community Chest, "Bank error in your favor"
        await roll(b, "54")
        await b.choose("bank err")
        assert "Bank → Cid  $200" in await b.confirm()
        assert cash(path)["Cid"] == 1700 and file_state(path)["turn"] == "Ann"

        # -- Ann in jail pays the fine before rolling: f, Enter (the player whose turn it is is taken)
        assert "f: pay $50" in table_text(b)
        await b.act("f")
        body = await b.confirm()
        assert "Ann → Bank  $50" in body
        state = file_state(path)
        assert not state["players"]["Ann"]["in_jail"] and cash(path)["Ann"] == 1306 and state["turn"] == "Ann"
        # then rolls: 6 3 to Connecticut... no: 10 + 9 = 19, Bob's New York Avenue: rent $16
        await roll(b, "63")
        assert "Ann → Bob  $16" in proposal(b)
        await b.key("enter")
        await b.settle()
        assert cash(path) == {"Ann": 1290, "Bob": 1110, "Cid": 1700}

        # -- Bob: 6 4 to Marvin Gardens: bought with one key
        await roll(b, "64")
        await b.key("enter")
        await b.settle()
        assert file_state(path)["spaces"][str(MARVIN)]["owner"] == "Bob" and cash(path)["Bob"] == 830

        # -- Cid: 5 3 from Community Chest (33) passes GO: the salary in the roll's own entry, then Mediterranean
        await roll(b, "53")
        assert cash(path)["Cid"] == 1900 and where(path)["Cid"] == MEDITERRANEAN
        last = file_entries(path)[-1]
        assert last["command"]["op"] == "roll" and "salary" in last["text"]
        await b.key("enter")
        await b.settle()
        assert cash(path)["Cid"] == 1840 and file_state(path)["turn"] == "Ann"

        # -- by hand: a token placed where it stands (P), a salary for the player whose turn it is (s, Enter), the
        # turn passed by hand (N); Escape on the salary's confirmation asks for another player
        await b.act("P")
        await b.choose()  # Ann, the player whose turn it is, first
        await b.choose("boardw")
        await b.confirm()
        assert where(path)["Ann"] == BOARDWALK and file_state(path)["pending"] is None
        await b.act("s")
        assert isinstance(app.screen, ConfirmScreen)
        await b.key("escape")
        assert isinstance(app.screen, ChooseScreen) and b.options()[0].startswith("Ann")
        await b.choose("cid")
        assert "Bank → Cid  $200" in await b.confirm()
        await b.act("s")
        assert "Bank → Ann  $200" in await b.confirm()
        assert cash(path) == {"Ann": 1490, "Bob": 830, "Cid": 2040}
        await b.act("N")
        await b.confirm()
        assert file_state(path)["turn"] == "Bob"

        # -- the end: g, the valuation
        await b.act("g")
        await b.confirm()
        assert isinstance(app.screen, InfoScreen)
        await b.info()
        state = file_state(path)
        assert state["winner"] == "Cid"
        assert not app.screen.query_one("#turn").display  # the game is over: no turn shown


def test_the_roll_is_read_as_typed() -> None:
    assert parse_roll("35", "none") == {"dice": [3, 5]}
    assert parse_roll("3 5", "none") == {"dice": [3, 5]}
    assert parse_roll("3-5", "ignored") == {"dice": [3, 5]}
    assert parse_roll("352", "needed") == {"dice": [3, 5], "speed": 2}
    assert parse_roll("35b", "needed") == {"dice": [3, 5], "speed": "bus"}
    assert parse_roll("3 5 и", "needed") == {"dice": [3, 5], "speed": "bus"}  # the b key in a Russian layout
    assert parse_roll("35 m", "needed") == {"dice": [3, 5], "speed": "mr-monopoly"}
    assert parse_roll("35", "needed").key == "roll_speed_missing"
    assert parse_roll("352", "none").key == "roll_extra"
    assert parse_roll("3", "none").key == "roll_two"
    assert parse_roll("37", "none").key == "roll_die"
    assert parse_roll("354", "needed").key == "roll_speed_face"
    assert parse_roll("3５", "none").key == "roll_not_dice"  # a full-width digit is never read as one


def speed_die_counts_for_ann(s) -> None:
    """A UK Speed Die game of Ann and Bob, Ann's turn again: Ann has passed GO (the Speed Die counts for her from
    now on, uk-2008-speed-die-rules.md "Do not use the Speed Die until you pass GO for the first time"), Bob not."""
    s.apply({"op": "place", "player": "Ann", "space": 35})
    s.apply({"op": "roll", "dice": [3, 4]})  # passes GO (35 + 7 = 2): the Speed Die counts from now on
    s.apply(dict(s.state.pending.command, card="cc-bank-error"))
    s.apply({"op": "roll", "dice": [1, 2]})  # Bob (not passed GO): no Speed Die
    s.apply(dict(s.state.pending.command))


async def test_the_speed_die_bus_and_three_of_a_kind(tmp_path: Path) -> None:
    """uk-2008-speed-die-rules.md: the Bus "you may use one of the numbers on the white dice or their total";
    three of a kind: "move to any space on the board"."""
    path = tmp_path / "s.json"
    with Session.create(path, Setup("uk", "speed-die", ("Ann", "Bob"), follow=True)) as s:
        speed_die_counts_for_ann(s)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("3")
        await b.type("5")
        await b.key("enter")
        assert "Speed Die counts" in screen_text(app.screen.query_one("#roll-error"))
        await b.type("b")
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ChooseScreen)
        assert b.options()[0].startswith("3: one die") and b.options()[-1].startswith("8: both dice")
        await b.choose("5")
        assert file_state(path)["players"]["Ann"]["position"] == 7


async def test_three_of_a_kind_as_the_third_doubles_asks_no_space(tmp_path: Path) -> None:
    """uk-2008-speed-die-rules.md: "If you are sent to Jail during your move, your turn ends and you do not use the
    result of the Speed Die." Three of a kind thrown as the third doubles sends the token to jail: the console asks
    no space for a free move that is not made (found reading the rules: it asked, and the answer was dropped)."""
    path = tmp_path / "s.json"
    with Session.create(path, Setup("uk", "speed-die", ("Ann", "Bob"), follow=True)) as s:
        speed_die_counts_for_ann(s)
        s.apply({"op": "roll", "dice": [1, 1], "speed": 2})  # Ann: doubles, 2 -> 6, The Angel Islington, bought
        s.apply(dict(s.state.pending.command))
        s.apply({"op": "roll", "dice": [2, 2], "speed": 1})  # doubles again, 6 -> 11, Pall Mall, bought
        s.apply(dict(s.state.pending.command))
        assert s.state.current == "Ann" and s.state.doubles == 2 and s.state.pending is None
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("3")
        await b.type("33")  # three of a kind, the third doubles: to jail, as the preview says, and no space asked
        preview = screen_text(app.screen.query_one("#roll-preview"))
        assert "third doubles" in preview and "goes to jail" in preview, preview
        await b.key("enter")
        await b.settle()
        assert not isinstance(app.screen, ChooseScreen)
        assert isinstance(app.screen, TableScreen)
    state = file_state(path)
    assert state["players"]["Ann"]["in_jail"] and state["turn"] == "Bob"
    assert file_entries(path)[-1]["command"] == {"op": "roll", "dice": [3, 3], "speed": 3}


async def test_the_dice_typed_while_the_rolls_question_opens_are_kept_for_it(tmp_path: Path, monkeypatch) -> None:
    """A burst of keys (`3`, `5`, Enter) faster than the roll's question opens: the keys typed after the flow has
    started but before the question is on screen reach the table, which keeps them for the question; the question
    takes them when it is on screen. (They were taken at the flow's start: a `5` arriving after that started a
    second roll, and the question showed "3" alone; tests/test_ui_terminal_follow.py met it under load.)"""
    import asyncio

    from banker.ui import actions

    path = tmp_path / "burst.json"
    Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"), follow=True)).close()
    real_question = actions.Flow.question

    async def slow_question(self, *args, **kwargs):  # the question opens late, as on a busy machine
        await asyncio.sleep(0.3)
        return await real_question(self, *args, **kwargs)

    monkeypatch.setattr(actions.Flow, "question", slow_question)
    app = BankerApp(str(path), lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("3")
        await pilot.press("5", "enter")  # on the table still: the question is not on screen yet
        assert isinstance(app.screen, TableScreen)
        for _ in range(40):
            await pilot.pause(0.05)
            if isinstance(app.screen, ProposalScreen):
                break
        entry = file_entries(path)[-1]
        assert entry["command"]["op"] == "roll" and entry["command"]["dice"] == [3, 5], entry["command"]
        assert where(path)["Ann"] == VERMONT


async def test_follow_mode_switched_on_during_a_game_shows_the_turns_bar(tmp_path: Path) -> None:
    """The turn's bar is on the table in follow mode only (issue #14: a table without it has one widget
    fewer to make before its first frame). A game started without follow mode, switched on by the command
    line, gets the bar above the cards at once; switched off, the bar is hidden."""
    async with console(make_session(tmp_path / "game.json", ("Ann", "Bob"))) as (app, b):
        assert not app.screen.query("#turn")
        await b.command("follow")
        await b.choose("On: the bank follows the board")
        await b.confirm()
        await b.pilot.pause()
        bar = app.screen.query_one("#turn")
        assert bar.display and "Ann" in screen_text(bar)
        children = list(app.screen.children)
        assert children.index(bar) == children.index(app.screen.query_one("#players")) - 1
        await b.command("follow")
        await b.choose("Off: the bank moves no token")
        await b.confirm()
        await b.pilot.pause()
        assert not app.screen.query_one("#turn").display


async def test_the_follow_question_offers_the_other_setting_first(tmp_path: Path) -> None:
    """Found by a probe: `F` with follow mode off highlighted "Off" (Enter switched nothing). The setting the game is
    not in comes first, so `F`, Enter, Enter switches it, either way."""
    path = make_session(tmp_path / "game.json", ("Ann", "Bob"))
    async with console(path) as (app, b):
        for on in (True, False):
            await b.command("follow")
            shown = await b.choose()
            assert shown[0].startswith("On:" if on else "Off:"), shown
            await b.confirm()
            await b.pilot.pause()
            assert app.current_session.state.follow is on
            assert file_entries(path)[-1]["command"] == {"op": "follow", "on": on}


async def test_a_die_typed_on_a_finished_game_leaves_the_tables_keys_working(tmp_path: Path) -> None:
    """A die typed on the table of a game that is over: the roll is refused ("game over") before its question
    opens, and the keys the table kept for that question are its own again: `?` opens the help, `v` the review.
    (They were kept for a question that never came: every key of the table was swallowed.)"""
    import shutil

    from banker.ui.screens.help import HelpScreen

    path = tmp_path / "over.json"
    shutil.copy(Path(__file__).parent.parent / "sample_sessions" / "uk-bank-bankruptcy.json", path)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert app.session.state.over
        await b.key("3")
        await b.settle()
        assert isinstance(app.screen, TableScreen) and app.screen.typed_ahead is None
        assert "game is over" in screen_text(app.screen.query_one("#message")).lower()
        await b.key("?")
        await b.settle()
        assert isinstance(app.screen, HelpScreen)


@asynccontextmanager
async def vermont_proposed(path: Path) -> AsyncIterator[tuple[BankerApp, Banker]]:
    """A new follow-mode game of Ann and Bob at ``path``, in the console: Ann rolled 3 and 5, and the purchase of
    Vermont Avenue is proposed."""
    Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"), follow=True)).close()
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await roll(b, "35")
        assert "Ann → Bank  $100" in proposal(b)
        yield app, b


async def test_dice_typed_while_a_landing_waits_never_settle_it(tmp_path: Path) -> None:
    """A purchase left for later (Escape on the proposal), then the next dice typed in a burst (`3`, `4`, Enter): the
    roll is refused, saying what waits and that Enter settles it; nothing is recorded, and the burst's Enter only
    opens the proposal. (The die opened the proposal at once, and the burst's Enter accepted it: a purchase the
    banker never meant, when he meant a roll.)"""
    path = tmp_path / "later.json"
    async with vermont_proposed(path) as (app, b):
        await b.key("escape")
        entries = len(file_entries(path))
        await b.key("3")
        assert isinstance(app.screen, TableScreen)
        assert b.message().startswith("Not yet: Ann may buy Vermont Avenue for $100"), b.message()
        assert b.message().endswith("Enter settles it; then the roll.")
        await b.key("4")
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ProposalScreen)  # the proposal, shown: not accepted
        assert len(file_entries(path)) == entries and file_state(path)["pending"]["kind"] == "buy"
        await b.key("enter")  # now the banker sees it and takes it
        await b.settle()
        assert file_state(path)["spaces"][str(VERMONT)]["owner"] == "Ann"


@pytest.mark.parametrize("then", ["a", "enter"])
async def test_dice_typed_on_the_open_proposal_never_settle_it(tmp_path: Path, then: str) -> None:
    """Found by the Russian and Ukrainian console probe: the next player's roll typed while the proposal was still open
    (`1`, `4`, Enter) lost the dice without a word, and its Enter bought the deed (which may have been meant for
    auction). The dice are refused in the dialog, that Enter records nothing, and the Enter after it does."""
    path = tmp_path / "open.json"
    async with vermont_proposed(path) as (app, b):
        entries = len(file_entries(path))
        await b.key("1", "4", "enter")
        assert isinstance(app.screen, ProposalScreen)  # still open, nothing recorded
        assert screen_text(app.screen.query_one("#proposal-note")).startswith("Not yet: first what this landing requires")
        assert len(file_entries(path)) == entries
        await b.key(then)  # the auction the banker meant is still there to choose; or Enter, seen, records it
        await b.settle()
        assert not isinstance(app.screen, ProposalScreen)
        assert file_state(path)["spaces"][str(VERMONT)]["owner"] == (None if then == "a" else "Ann")


async def test_the_build_question_offers_first_a_player_who_may_build(tmp_path: Path) -> None:
    """Found by the RU/UK console probe: `h` in follow mode highlighted the player whose turn it was, who could build
    nowhere (every lot said why), so Enter led to a list of refusals. The turn's player comes first only when that
    player may build."""
    from textual.widgets import OptionList

    path = tmp_path / "build.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"), follow=True)) as session:
        for cmd in ({"op": "buy", "player": "Bob", "space": 37}, {"op": "buy", "player": "Bob", "space": 39},
                    {"op": "buy", "player": "Ann", "space": 1}):
            session.apply(cmd)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert app.session.state.current == "Ann"
        await b.act("h")
        await b.settle()
        options = app.screen.query_one(OptionList)
        assert str(options.get_option_at_index(options.highlighted).prompt).startswith("Bob")
        await b.key("escape")
        await b.settle()
        await b.act("s")  # every other question still offers the turn's player first
        await b.settle()
        assert "Ann" in await b.confirm()


async def test_a_roll_that_leaves_nothing_to_settle_keeps_its_own_sentence(tmp_path: Path) -> None:
    """Found playing in tmux: a roll to Just Visiting (nothing to pay or buy) said "Nothing to settle: Bob rolls
    next" on the message line, in place of the roll's own sentence. The roll's sentence stays; "Nothing to settle"
    is for Enter on a table where nothing waits."""
    path = tmp_path / "visit.json"
    Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"), follow=True)).close()
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await roll(b, "64")  # Ann to Just Visiting
        assert file_state(path)["pending"] is None and where(path)["Ann"] == 10
        entry = file_entries(path)[-1]
        assert entry["command"] == {"op": "roll", "dice": [6, 4]}
        assert b.message() == "Ann rolls 6 + 4; Ann moves to Jail / Just Visiting; Bob rolls next"
        await b.key("enter")  # Enter on a table where nothing waits: said so
        assert "Nothing to settle: Bob rolls next" in b.message()


async def test_enter_after_a_bankruptcy_to_the_bank_opens_the_banks_auction(tmp_path: Path) -> None:
    """Found playing: after a bankruptcy to the bank the Bank panel said "To auction: Mediterranean Avenue", but
    Enter said "Nothing to settle: Ann rolls next" and the auction key listed every unowned deed, the one waiting
    sixth. us-classic-rules.txt: "the Bank immediately sells by auction all property so taken, except buildings"."""
    path = tmp_path / "g.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob", "Cid"), follow=True)) as session:
        for cmd in ({"op": "buy", "player": "Cid", "space": MEDITERRANEAN},
                    {"op": "mortgage", "player": "Cid", "space": MEDITERRANEAN},
                    {"op": "transfer", "from": "Cid", "to": "Ann", "amount": 1470},
                    {"op": "tax", "player": "Cid", "space": 38}, {"op": "bankrupt", "player": "Cid"}):
            session.apply(cmd)
        assert session.state.pending_auction == {MEDITERRANEAN} and session.state.pending is None
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("a")  # the auction key: the deed waiting comes first, said so
        assert isinstance(app.screen, ChooseScreen)
        assert b.options()[0].startswith("Mediterranean Avenue") and "awaiting the bank's auction" in b.options()[0]
        await b.key("escape")
        await b.settle()
        await b.act("enter")  # Enter: the bank's auction of that deed, at once
        assert isinstance(app.screen, AuctionScreen), type(app.screen).__name__
        assert app.screen.space == MEDITERRANEAN


async def test_a_token_is_put_in_jail_from_the_console(tmp_path: Path) -> None:
    """Found by a probe: `P`'s help says "(or in jail)", but its dialog offered the Jail corner with no question (the
    token stood "just visiting") and `place оксана jail` was refused as neither a player nor a space. A token put on
    the Jail corner is asked "Just visiting / In jail", in the dialog and from the command line; `jail` puts it in
    jail at once."""
    path = tmp_path / "kyiv.json"
    with Session.create(path, Setup("kyiv", "classic", ("Оксана", "Тарас"))) as s:
        s.apply({"op": "follow", "on": True})
    app = BankerApp(path, lang="uk")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("P")
        await b.choose("тарас")
        await b.choose("в’язниця")
        assert isinstance(app.screen, ChooseScreen) and b.options() == ["Тільки відвідування", "У в’язниці"], b.options()
        await b.choose("у в")
        await b.confirm()
        state = file_state(path)
        assert state["players"]["Тарас"]["in_jail"] is True, state["players"]["Тарас"]
        await b.command("place оксана вязниця")  # the corner's name, typed: the same question
        assert b.options() == ["Тільки відвідування", "У в’язниці"]
        await b.choose("тільки")
        await b.confirm()
        assert file_state(path)["players"]["Оксана"]["in_jail"] is False
        await b.command("place оксана jail")
        await b.confirm()
        assert file_state(path)["players"]["Оксана"]["in_jail"] is True


async def test_a_rent_typed_by_hand_offers_the_tokens_space_first(tmp_path: Path) -> None:
    """Found by a probe: in follow mode, with the token on a deed and its rent proposed, `r` listed the owned deeds
    from the first one on: the banker looked for the space the bank already knew. The space where the token of the
    player whose turn it is stands comes first, highlighted; the others stay a key away."""
    from textual.widgets import OptionList

    path = tmp_path / "g.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"))) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 1})
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "follow", "on": True})
        s.apply({"op": "place", "player": "Ann", "space": 37})
        s.apply({"op": "roll", "dice": [1, 1]})  # Ann: Park Place 37 → Boardwalk 39, her own; doubles, again
        s.apply({"op": "end_turn"})
        s.apply({"op": "place", "player": "Bob", "space": 39})  # Bob stands on Ann's Boardwalk
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert file_state(path)["turn"] == "Bob"
        await b.act("r")
        assert isinstance(app.screen, ChooseScreen)
        options = app.screen.query_one("#choices", OptionList)
        assert str(options.get_option_at_index(options.highlighted).prompt).startswith("Boardwalk"), b.options()
        assert any(o.startswith("Mediterranean") for o in b.options())


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "waits: Ann owes $200 (w: raise cash · k: bankruptcy)"),
    ("ru", "ждёт: долг игрока Ann — $200 (w: поиск денег · k: банкротство)"),
])
async def test_while_a_debt_is_open_the_turns_bar_says_who_owes_not_roll(tmp_path: Path, lang: str, said: str) -> None:
    """Found playing: Ann won an auction on credit and the bar said "Bob rolls next: type the dice", though no roll is
    taken while a debt is open ("Ann owes $200 to the bank: raise the cash … first"). It says who owes what, and the
    keys that settle it."""
    path = tmp_path / "debt.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"), follow=True)) as session:
        session.apply({"op": "buy", "player": "Ann", "space": 39})
        session.apply({"op": "transfer", "from": "Ann", "to": "bank", "amount": 1100, "memo": "x"})
        session.apply({"op": "auction", "space": 37, "winner": "Ann", "bid": 200})  # $0 in cash: owed
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.session.state.debts["Ann"]
        assert said in screen_text(app.screen.query_one("#turn")), screen_text(app.screen.query_one("#turn"))


@pytest.mark.parametrize(("lang", "double"), [("en", "1 double this turn"), ("ru", "1 дубль за ход"),
                                              ("uk", "1 дубль за хід")])
async def test_after_three_of_a_kind_the_turns_bar_shows_no_doubles(tmp_path: Path, lang: str, double: str) -> None:
    """uk-2008-speed-die-rules.md: three of a kind moves the token to any space; the banker's choice (docs/rules.md):
    once that landing is settled the turn ends. Found playing: while the landing waited, the bar said "1 double this
    turn", as if Ann rolled again. The count is said while the same player rolls again (a double's landing), and no
    longer once the turn's last roll is made."""
    path = tmp_path / "s.json"
    with Session.create(path, Setup("uk", "speed-die", ("Ann", "Bob"), follow=True)) as s:
        speed_die_counts_for_ann(s)
        s.apply({"op": "roll", "dice": [1, 1], "speed": 2})  # Ann: a double, 2 -> 6, The Angel Islington: unowned
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(140, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert double in table_text(b)  # a double: Ann rolls again once the landing is settled
        await b.key("enter")  # the proposal, then bought as proposed
        assert isinstance(app.screen, ProposalScreen)
        await b.key("enter")
        await b.settle()
        assert file_state(path)["turn"] == "Ann" and file_state(path)["doubles"] == 1
        assert double in table_text(b)
        await roll(b, "222")  # three of a kind: to Mayfair, unowned
        await b.choose("Mayfair")
        assert isinstance(app.screen, ProposalScreen)
        assert file_state(path)["pending"]["space"] == BOARDWALK
        assert "double" not in table_text(b) and "дубл" not in table_text(b), table_text(b)


@pytest.mark.parametrize("lang,said", [("en", 'Bob is not in jail (if the token is, put it there first: P, then "In jail")'),
                                       ("ru", "Bob не в тюрьме (если фишка там, сначала поставьте её туда: P, затем "
                                              "«В тюрьме»)"),
                                       ("uk", "Bob не у в’язниці (якщо фішка там, спершу поставте її туди: P, потім "
                                              "«У в’язниці»)")], ids=["en", "ru", "uk"])
async def test_the_fine_for_a_player_not_in_jail_says_what_to_press(tmp_path: Path, lang: str, said: str) -> None:
    """Found by the rules probe in follow mode: `f` and Bob, who is not in jail, said 'place it there first: "place"
    with "jail": true', a script's keys the console has no field for. It says the console's key, as the other
    refusals that name a command's keys do ([console_refusal]); nothing is written."""
    path = tmp_path / "f.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"), follow=True)):
        pass
    async with console(path, lang) as (app, b):
        await b.command("fine bob")  # typed: the picker no longer offers Bob (below)
        await b.settle()
        assert b.message() == said
        assert file_entries(path) == []


@pytest.mark.parametrize("lang,why", [("en", "Bob is not in jail"), ("ru", "Bob не в тюрьме"),
                                      ("uk", "Bob не у в’язниці")], ids=["en", "ru", "uk"])
async def test_the_jail_pickers_offer_only_players_in_jail(tmp_path: Path, lang: str, why: str) -> None:
    """Found by the rules probe in follow mode: `f` (the jail fine) and `j` (a jail card) listed players who are not in
    jail as choosable, and picking one gave a refusal. The engine's check (check_jail_release) is asked of each
    player: one it refuses is dimmed with its reason, the player in jail is highlighted, and Enter takes them."""
    path = tmp_path / "j.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob", "Cid"), follow=True)) as s:
        s.apply({"op": "card", "player": "Bob", "card": "cc-jail-free"})
        s.apply({"op": "card", "player": "Cid", "card": "ch-jail-free"})
    async with console(path, lang) as (app, b):
        await b.act("j")  # nobody holding a card is in jail: none can be chosen, each says why
        options = b.screen.query_one("#choices").options
        assert [(o.disabled, str(o.prompt).split("  ")[0]) for o in options] == [(True, "Bob"), (True, "Cid")]
        assert why in b.options()[0]
        await b.key("enter")
        assert isinstance(app.screen, ChooseScreen)  # nothing picked
        await b.key("escape")
        await b.settle()
    with Session.open(path) as s:
        s.apply({"op": "place", "player": "Cid", "space": JAIL, "jail": True})
    async with console(path, lang) as (app, b):
        for key, op in (("f", "jail_fine"), ("j", "jail_card")):
            await b.act(key)
            options = b.screen.query_one("#choices").options
            shown = {str(o.prompt).split("  ")[0]: o.disabled for o in options}
            assert shown == ({"Ann": True, "Bob": True, "Cid": False} if op == "jail_fine" else
                             {"Bob": True, "Cid": False})
            assert why in next(p for p in b.options() if p.startswith("Bob"))
            await b.key("enter")  # the one in jail, highlighted
            assert isinstance(app.screen, ConfirmScreen)
            await b.key("escape", "escape")
            await b.settle()
        await b.act("f")
        await b.key("enter")
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "jail_fine", "player": "Cid"}
        assert file_state(path)["players"]["Cid"]["in_jail"] is False
