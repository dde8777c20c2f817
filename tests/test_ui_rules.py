"""The console offers the choices the rules give (issue #8): a whole group sold at once with one confirmation,
how a hotel comes down, the card that offers a fine or a Chance, which jail card is used or traded, the raise-cash
view when nothing can be sold, and games of up to eleven players on the US board."""

from __future__ import annotations

from pathlib import Path

import pytest

from banker.cli import main
from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import ChooseScreen, ConfirmScreen
from banker.ui.screens.start import StartScreen
from banker.ui.screens.table import TableScreen

from .ui_helpers import Banker, cash, console, file_entries, file_state, make_session, midgame_commands, screen_text

PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve")


async def test_selling_every_building_of_a_group_is_one_choice_and_one_confirmation(tmp_path: Path) -> None:
    """us-classic-rules.txt: "All houses on one color-group may be sold at once": Cid's three light-blue hotels go
    back in one action."""
    path = make_session(tmp_path / "game.json", PLAYERS, commands=midgame_commands(PLAYERS))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = len(file_entries(path))
        await b.act("e")
        await b.choose("cid")
        shown = await b.choose("every building")
        assert shown == ["Every building on the Light Blue group  +$375"]
        body = await b.confirm()
        assert "Cid sells every building on the Light Blue group" in body and "Bank → Cid  $375" in body
        entries = file_entries(path)
        assert len(entries) == before + 1
        assert entries[-1]["command"] == {"op": "sell_building", "player": "Cid", "space": 6, "all": True}
        assert not any(file_state(path)["spaces"][str(p)]["hotel"] for p in (6, 8, 9))


async def test_the_quick_line_sells_a_whole_group(tmp_path: Path) -> None:
    path = make_session(tmp_path / "game.json", PLAYERS, commands=midgame_commands(PLAYERS))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("sell oriental all")
        assert isinstance(app.screen, ConfirmScreen)
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "sell_building", "space": 6, "player": "Cid", "all": True}


async def test_an_ru_hotel_is_swapped_for_houses_or_sold_whole_with_the_groups_others(tmp_path: Path) -> None:
    """ru-2004-rules.md: a hotel is swapped back to four houses, or sold whole — and then "Все Отели одной цветовой
    группы должны продаваться одновременно": the console asks which."""
    players = ("Аня", "Боря")
    cmds = [{"op": "transfer", "from": "bank", "to": "Аня", "amount": 5000, "memo": "x"}]
    cmds += [{"op": "buy", "player": "Аня", "space": s} for s in (37, 39)]
    cmds += [{"op": "build", "player": "Аня", "space": s} for s in (37, 39) * 5]
    path = make_session(tmp_path / "game.json", players, edition="ru", commands=cmds)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("e")
        await b.choose("аня")
        await b.choose("арбат")
        assert isinstance(app.screen, ChooseScreen)
        assert b.options() == ["Leave 4 houses  +100 т.р.", "Sell the group's 2 hotels whole, with their houses  +1 000 т.р."]
        await b.choose("whole")
        body = await b.confirm()
        assert "Bank → Аня  1 000 т.р." in body
        assert file_entries(path)[-1]["command"] == {"op": "sell_building", "player": "Аня", "space": 39, "houses": 0}
        state = file_state(path)
        assert not state["spaces"]["37"]["hotel"] and not state["spaces"]["39"]["hotel"]


async def test_pay_the_fine_or_take_a_chance(tmp_path: Path) -> None:
    """The UK card "Pay a £10 fine or take a Chance": the console asks; taking a Chance moves no money and goes on
    to the Chance card drawn."""
    path = make_session(tmp_path / "game.json", ("Ann", "Bob"), edition="uk")
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("c")
        await b.choose("ann")
        await b.choose("fine or take")
        assert b.options() == ["Pay £10", "Take a Chance card instead"]
        await b.choose("take")
        body = await b.confirm()
        assert "Ann takes a Chance card instead of paying £10" in body
        assert len(b.options()) == 16 and all(s.startswith("Chance: ") for s in b.options())  # only that deck now
        await b.choose("speeding")
        assert app.screen.title_text == "Ann draws a Chance card"  # not the first card's title (found by a probe)
        assert "Ann → Bank  £15" in await b.confirm()
        commands = [e["command"] for e in file_entries(path)]
        assert commands == [{"op": "card", "player": "Ann", "card": "cc-fine-or-chance", "choice": "draw"},
                            {"op": "card", "player": "Ann", "card": "ch-speeding"}]
        assert cash(path)["Ann"] == 1485
        # the fine, this time
        await b.command("card bob fine or take")
        await b.choose("pay")
        assert "Bob → Bank  £10" in await b.confirm()
        assert cash(path)["Bob"] == 1490


async def test_which_jail_card_is_used_and_which_is_traded(tmp_path: Path) -> None:
    """Jail cards are cards: with both held, the console asks which is used, and a trade ticks which changes hands."""
    cmds = [{"op": "card", "player": "Ann", "card": c} for c in ("ch-jail-free", "cc-jail-free")]
    path = make_session(tmp_path / "game.json", ("Ann", "Bob"), commands=cmds)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("d")
        await b.choose("ann")
        await b.choose("bob")
        await b.tab_to("give-jail")
        await b.pick_in_list("Get Out of Jail Free (Community Chest)")
        await b.tab_to("get-cash")
        await b.type("40")
        await b.key("ctrl+s")
        body = await b.confirm()
        assert "the Community Chest Get Out of Jail Free card" in body
        assert file_entries(path)[-1]["command"]["give"] == {"jail_cards": ["cc-jail-free"]}
        assert file_state(path)["players"]["Bob"]["jail_card_ids"] == ["cc-jail-free"]
        # Ann gets it back; with both held, using one asks which
        await b.act("d")
        await b.choose("bob")
        await b.choose("ann")
        await b.tab_to("give-jail")
        await b.pick_in_list("Get Out of Jail Free")
        await b.key("ctrl+s")
        await b.confirm()
        await b.act("j")
        await b.choose("ann")
        assert b.options() == ["The Community Chest card", "The Chance card"]
        await b.choose("chance")
        body = await b.confirm()
        assert "goes back under the Chance deck" in body
        assert file_state(path)["players"]["Ann"]["jail_card_ids"] == ["cc-jail-free"]


async def test_the_raise_cash_view_when_the_bank_cannot_take_the_hotels_back(tmp_path: Path) -> None:
    """Issue #8 point 2 in the console: UK hotels with no houses in the bank to exchange them for — the view says
    nothing can be raised and bankruptcy is unavoidable, and the bankruptcy goes through."""
    cmds = [{"op": "transfer", "from": "bank", "to": p, "amount": 50_000, "memo": "x"} for p in ("Ann", "Bob")]
    cmds += [{"op": "buy", "player": "Ann", "space": s} for s in (1, 3)]
    cmds += [{"op": "build", "player": "Ann", "space": s} for s in (1, 3) * 5]
    bob = [6, 8, 9, 31, 32, 34, 16, 18, 19]
    cmds += [{"op": "buy", "player": "Bob", "space": s} for s in bob]
    cmds += [{"op": "build", "player": "Bob", "space": s} for s in bob * 4][:32]
    cmds += [{"op": "transfer", "from": "Ann", "to": "bank", "amount": 50_000 + 1500 - 60 - 60 - 500, "memo": "x"},
             {"op": "tax", "player": "Ann", "space": 4}]
    path = make_session(tmp_path / "game.json", ("Ann", "Bob"), edition="uk", commands=cmds)
    assert file_state(path)["bank"]["houses"] == 0 and file_state(path)["players"]["Ann"]["cash"] == 0
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("w")
        summary = screen_text(app.screen.query_one("#debt-summary"))
        assert "Most that can be raised: £0" in summary and "bankruptcy is unavoidable" in summary
        await b.key("k")
        await b.settle()
        await b.confirm()
        assert file_state(path)["players"]["Ann"]["bankrupt"] is True


@pytest.mark.parametrize("lang,refused,paid", [
    ("en", "Bob can still raise $70", "Bob pays the debt of $50 to Ann"),
    ("ru", "Игрок Bob ещё может собрать $70", "Bob гасит долг $50"),
    ("uk", "Гравець Bob ще може зібрати $70", "Bob погашає борг $50")], ids=["en", "ru", "uk"])
async def test_the_raise_cash_view_keeps_a_refused_bankruptcy_and_closes_once_the_debt_is_paid(
        tmp_path: Path, lang: str, refused: str, paid: str) -> None:
    """Found by the rules probe: `k` in the raise-cash view while the debt could still be raised closed the view before
    the refusal was shown; once the debt was paid the view stayed, saying so, and swallowed the next action's key.
    Now `k` asks the engine first (its bankruptcy preview): refused, the view stays open with the refusal in it
    (us-classic-rules.txt: a player is bankrupt "if you owe more than you can pay"), its mortgages still offered; a
    mortgage that pays the debt closes it, the table saying the entry, and the next key (`b`) is the table's."""
    path = make_session(tmp_path / "debt.json", ("Ann", "Bob", "Cid"), commands=[
        {"op": "buy", "player": "Bob", "space": 1}, {"op": "buy", "player": "Bob", "space": 3},
        {"op": "buy", "player": "Ann", "space": 39},
        {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1370, "memo": "x"},
        {"op": "rent", "payer": "Bob", "space": 39}])  # $50 owed with $10: two mortgages ($30 each) pay it
    async with console(path, lang) as (app, b):
        await b.act("w")
        view = app.screen
        assert type(view).__name__ == "RaiseCashScreen"
        await b.key("k")
        await b.settle()
        assert app.screen is view  # the view stays, the refusal in it
        said = screen_text(view.query_one("#debt-refused"))
        assert refused in said, said
        assert not any(e["command"]["op"] == "bankrupt" for e in file_entries(path))
        await b.key("enter")  # mortgage Mediterranean Avenue: $40, still $50 owed
        await b.confirm()
        assert app.screen is view and screen_text(view.query_one("#debt-refused")) == ""  # said for the state before
        await b.key("enter")  # mortgage Baltic Avenue: the debt is paid
        await b.confirm()
        assert isinstance(app.screen, TableScreen)
        assert file_state(path)["players"]["Bob"]["debt"] is None
        assert paid in b.message()
        await b.key("b")  # the next action's key is the table's: buying asks who buys
        assert isinstance(app.screen, ChooseScreen)


async def test_eleven_players_on_the_us_board(tmp_path: Path, capsys) -> None:
    """us-classic-rules.txt "Equipment": "11 MONOPOLY tokens": the start screen and `banker new` take eleven players
    on the US board, and refuse a twelfth saying the edition's limits."""
    names = ", ".join(f"P{i}" for i in range(1, 12))
    assert main(["new", str(tmp_path / "cli.json"), "--players", names.replace(" ", "")]) == 0
    assert len(file_state(tmp_path / "cli.json")["order"]) == 11
    assert main(["new", str(tmp_path / "cli12.json"), "--players", names.replace(" ", "") + ",P12"]) != 0
    assert "is for 2 to 11 players" in capsys.readouterr().err
    app = BankerApp(lang="en", data_dir=tmp_path / "data")
    async with app.run_test(size=(140, 50)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("ctrl+a", "ctrl+k")
        await b.type(names + ", P12")
        await b.key("ctrl+n")
        assert isinstance(app.screen, StartScreen)
        assert "is for 2 to 11 players (one token each), not 12" in screen_text(app.screen.query_one("#start-error"))
        await b.key("ctrl+a", "ctrl+k")
        await b.type(names)
        await b.key("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.state.players == tuple(f"P{i}" for i in range(1, 12))
        card = app.screen.query_one("#player-10")
        assert card.border_title == "P11" and "$1,500" in screen_text(card)


def ann_in_debt(tmp_path: Path, cmds: list[dict], houses: int) -> Path:
    """A UK game of Ann and Bob after ``cmds`` (which leave ``houses`` in the bank), Ann then giving the bank all her
    cash and landing on Income Tax: in debt, with what she owns to raise it."""
    state = file_state(make_session(tmp_path / "game.json", ("Ann", "Bob"), edition="uk", commands=cmds))
    assert state["bank"]["houses"] == houses
    return make_session(tmp_path / "debt.json", ("Ann", "Bob"), edition="uk", commands=cmds + [
        {"op": "transfer", "from": "Ann", "to": "bank", "amount": state["players"]["Ann"]["cash"], "memo": "x"},
        {"op": "tax", "player": "Ann", "space": 4}])


def debt_options(app: BankerApp) -> list:
    """The raise-cash view's options, in order (each with its prompt and whether it is dimmed)."""
    from textual.widgets import OptionList

    options = app.screen.query_one("#debt-options", OptionList)
    return [options.get_option_at_index(i) for i in range(options.option_count)]


async def test_the_raise_cash_view_warns_of_a_sale_that_lowers_what_can_be_raised(tmp_path: Path) -> None:
    """UK, four houses in the bank: exchanging a dark-blue hotel first (the other then needs four more) would leave
    the pinks and the other hotel unsellable; the view says so beside that sale, not beside the others."""
    cmds = [{"op": "transfer", "from": "bank", "to": p, "amount": 50_000, "memo": "x"} for p in ("Ann", "Bob")]
    cmds += [{"op": "buy", "player": "Ann", "space": s} for s in (37, 39, 11, 13, 14)]
    cmds += [{"op": "build", "player": "Ann", "space": s} for s in [37, 39] * 5 + [11, 13, 14] * 4 + [11]]
    bob = [6, 8, 9, 31, 32, 34, 16, 18, 19]
    cmds += [{"op": "buy", "player": "Bob", "space": s} for s in bob]
    cmds += [{"op": "build", "player": "Bob", "space": s} for s in (bob * 4)[:20]]
    async with console(ann_in_debt(tmp_path, cmds, houses=4), size=(140, 40)) as (app, b):
        await b.act("w")
        shown = [str(option.prompt) for option in debt_options(app)]
        assert "Most that can be raised: £2,245" in screen_text(app.screen.query_one("#debt-summary"))
        park = [s for s in shown if s.startswith("Sell a building on Park Lane")]
        assert park == ["Sell a building on Park Lane  +£100  lowers the most that can be raised to £100"]
        assert not any("lowers" in s for s in shown if not s.startswith(("Sell a building on Park Lane",
                                                                          "Sell a building on Mayfair")))
        assert any(s.startswith("Sell every building on the Pink group") for s in shown)


async def test_the_raise_cash_view_says_why_a_hotel_standing_cannot_be_sold(tmp_path: Path) -> None:
    """uk-2008 "HELP! I'M IN DEBT!": hotels are sold back for half "and are immediately exchanged for 4 houses". With
    two brown hotels, 2 houses in the bank and a debt, the view said "Nothing left to sell or mortgage" beside the two
    hotels on Ann's card (found by the rules probe): each hotel is listed, dimmed, with the engine's reason."""
    cmds = [{"op": "transfer", "from": "bank", "to": p, "amount": 50_000, "memo": "x"} for p in ("Ann", "Bob")]
    cmds += [{"op": "buy", "player": "Ann", "space": s} for s in (1, 3)]
    cmds += [{"op": "build", "player": "Ann", "space": 1, "upto": 5}]
    cmds += [{"op": "buy", "player": "Bob", "space": s} for s in (6, 8, 9, 11, 13, 14, 16, 18, 19)]
    cmds += [{"op": "build", "player": "Bob", "space": s, "upto": n} for s, n in ((6, 4), (11, 4), (16, 2))]
    async with console(ann_in_debt(tmp_path, cmds, houses=2), size=(140, 40)) as (app, b):
        await b.act("w")
        shown = [(str(option.prompt), option.disabled) for option in debt_options(app)]
        assert shown == [(f"Sell a building on {name}  Selling the hotel on {name} exchanges it for 4 houses and the "
                          "bank has only 2: sell other buildings first, or wait for houses to come back", True)
                         for name in ("Old Kent Road", "Whitechapel Road")]
        assert "Nothing left" not in screen_text(app.screen)


async def test_no_shortage_auction_is_refused_before_the_bid_is_asked(tmp_path: Path) -> None:
    """us-classic-rules.txt "Building Shortages": with 31 houses in the bank there is no shortage; the console says
    so as soon as the key is pressed (it asked for the bidder and the lot first), and nothing is written."""
    cmds = [{"op": "buy", "player": "Ann", "space": s} for s in (37, 39)]
    cmds += [{"op": "buy", "player": "Bob", "space": s} for s in (1, 3)]
    cmds += [{"op": "build", "player": "Ann", "space": 39}]
    path = make_session(tmp_path / "game.json", ("Ann", "Bob"), commands=cmds)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = len(file_entries(path))
        await b.act("o")
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        assert b.message().startswith("No shortage auction now: it is held when two or more players who may build want "
                                      "more than the bank has (31 houses, 12 hotels)")
        assert len(file_entries(path)) == before


@pytest.mark.parametrize("lang,said", [("en", "The debt is to the Free Parking pot, which is no player: the bankruptcy is "
                                              "to the bank."),
                                       ("uk", "Борг — касі «Безкоштовне паркування», а вона не гравець: банкрутство "
                                              "перед банком.")])
async def test_a_debt_to_the_pot_is_said_to_make_a_bankruptcy_to_the_bank(tmp_path: Path, lang: str, said: str) -> None:
    """Found playing in tmux: the player's card said "debt → the Free Parking pot", the bankruptcy's preview "creditor:
    the bank" with no word why. The pot is no player: the preview says so (docs/rules.md)."""
    from banker.ledger import Session
    from banker.rules import HouseRules, Setup

    path = tmp_path / "pot.json"
    with Session.create(path, Setup("kyiv", "classic", ("Оля", "Тарас"), HouseRules(free_parking_pot=True))) as s:
        s.apply({"op": "transfer", "from": "Оля", "to": "bank", "amount": 1500, "memo": "x"})
        s.apply({"op": "tax", "player": "Оля", "space": 4})
    assert file_state(path)["players"]["Оля"]["debt"]["claims"][0]["creditor"] == "pot"
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("k")
        await b.settle()
        await b.choose("Оля")
        body = " ".join(screen_text(w) for w in app.screen.query("Static"))
        assert said in " ".join(body.split()), body
