"""A whole game on the classic-us board, played through the console alone.

Every step is taken with keys, dialogs and the quick-entry line, as a banker would, and
every step asserts what the session FILE holds (a reader reopening it), not only the
screen. Amounts are worked out by hand from the US rule book and the printed deeds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox

from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import ConfirmScreen
from banker.ui.screens.start import StartScreen
from banker.ui.screens.table import TableScreen

from .ui_helpers import Banker, cash, file_entries, file_state, screen_text

BOARDWALK, PARK, READING, ELECTRIC, BALTIC, MEDITERRANEAN = 39, 37, 5, 12, 3, 1
ORIENTAL, VERMONT, CONNECTICUT = 6, 8, 9
ST_CHARLES, STATES, VIRGINIA = 11, 13, 14
INCOME_TAX = 4


async def test_a_whole_game_through_the_console(tmp_path: Path) -> None:
    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()

        # -- setup: the new-game screen (edition, variant, players in seating order, name)
        assert isinstance(app.screen, StartScreen)
        await pilot.click("#player-names")
        await b.key("ctrl+a", "ctrl+k")
        await b.type("Ann, Bob, Cid")
        await pilot.click("#name")
        await b.key("ctrl+a", "ctrl+k")
        await b.type("Friday game")
        # this game records every action by hand: follow mode (ticked by default) off; tests/test_ui_follow.py
        # plays a game in follow mode
        app.screen.query_one("#follow", Checkbox).value = False
        await b.key("ctrl+n")
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        path = app.session.path
        assert path.parent == tmp_path and path.exists()
        state = file_state(path)
        assert state["order"] == ["Ann", "Bob", "Cid"] and state["edition"] == "classic-us"
        assert cash(path) == {"Ann": 1500, "Bob": 1500, "Cid": 1500}

        # -- salaries: everyone passes GO twice (s, the player, confirm)
        for _ in range(2):
            for who in ("ann", "bob", "cid"):
                await b.act("s")
                await b.choose(who)
                assert "Bank → " in await b.confirm()
        assert cash(path) == {"Ann": 1900, "Bob": 1900, "Cid": 1900}

        # -- buying: from the dialog (only unowned deeds, at the printed price) and from the line
        await b.act("b")
        await b.choose("ann")
        await b.choose("boardw")
        body = await b.confirm()
        assert "Ann → Bank  $400" in body and "Boardwalk → Ann" in body
        assert file_state(path)["spaces"][str(BOARDWALK)]["owner"] == "Ann"
        await b.command("buy ann park")
        assert "Ann → Bank  $350" in await b.confirm()
        await b.command("buy bob reading")
        await b.confirm()
        await b.command("buy bob elec")
        await b.confirm()
        assert cash(path) == {"Ann": 1150, "Bob": 1550, "Cid": 1900}

        # -- an auction: Baltic Avenue goes to Cid for $40 (printed $60)
        await b.act("a")
        await b.choose("baltic")
        await b.key("2", "down", "3", "down", "b")  # Ann +10, Bob +50, then Cid types his bid
        await b.answer(40)  # under the current bid: refused in the box, the amount kept to correct
        assert "at least $61" in str(app.screen.query_one("#ask-error").render())
        await b.key("backspace", "backspace")
        await b.answer(61)
        await b.key("up", "p", "enter")  # Bob passes; sold to Cid
        assert "Cid → Bank  $61" in await b.confirm()
        await b.command("undo not sold")
        await b.confirm()
        await b.act("a")
        await b.choose("baltic")
        await b.key("down", "down", "b")
        await b.answer(40)
        await b.key("enter")
        assert "Cid → Bank  $40" in await b.confirm()
        assert file_state(path)["spaces"][str(BALTIC)]["owner"] == "Cid"
        assert cash(path)["Cid"] == 1860

        # -- rent on a street: Boardwalk with the full dark-blue group, no houses: doubled $50 = $100
        await b.act("r")
        shown = await b.choose("boardw")
        assert any("Ann" in s for s in shown)
        await b.choose("cid")
        assert "Cid → Ann  $100" in await b.confirm()
        # -- rent on a railroad from the line: one railroad owned, $25
        await b.command("rent reading ann")
        assert "Ann → Bob  $25" in await b.confirm()
        # -- rent on a utility: the dice are asked for, 4x the dice with one utility owned
        await b.act("r")
        await b.choose("electric")
        await b.choose("cid")
        await b.choose()  # landed by the dice (not sent by a card)
        await b.answer(8)
        assert "Cid → Bob  $32" in await b.confirm()
        assert cash(path) == {"Ann": 1150 + 100 - 25, "Bob": 1550 + 25 + 32, "Cid": 1860 - 100 - 32}
        assert cash(path) == {"Ann": 1225, "Bob": 1607, "Cid": 1728}

        # -- income tax: the choice is made before the worth is shown
        await b.act("t")
        await b.choose("income")
        await b.choose("ann")
        shown = b.options()
        assert shown == ["Pay $200", "Pay 10% of total worth"]
        # total worth = cash 1225 + Boardwalk 400 + Park Place 350 = 1975; not on screen yet
        assert "1,975" not in " ".join(shown) and "1,975" not in b.message()
        await b.choose("10%")
        info = await b.info()
        assert "Total worth: $1,975" in info and "Tax: $198" in info
        assert "The other choice would have cost $200" in info
        entry = file_entries(path)[-1]
        assert entry["command"]["choice"] == "percent" and entry["info"]["amount"] == 198
        assert cash(path)["Ann"] == 1225 - 198

        # -- a mistake, undone with a reason: the log keeps both entries
        await b.act("s")
        await b.choose("bob")
        await b.confirm()
        assert cash(path)["Bob"] == 1807
        await b.act("u")
        await b.answer("it was Cid who passed GO")
        assert "Bob collects" in await b.confirm()
        entries = file_entries(path)
        assert entries[-1]["undoes"] == entries[-2]["seq"] and entries[-1]["command"]["reason"] == "it was Cid who passed GO"
        assert cash(path)["Bob"] == 1607
        assert "it was Cid who passed GO" in b.message() or "Undone" in b.message()

        # -- building evenly: the dialog offers only lots where the next building is legal
        await b.act("h")
        await b.choose("ann")
        await b.choose()  # the first legal lot is highlighted: Park Place
        shown = await b.choose()  # one house (the first), or the group evenly in one action
        assert shown[0] == "One house on Park Place  $200" and shown[1] == "Every lot up to 1 house  $400", shown
        body = await b.confirm()
        assert "Ann → Bank  $200" in body and "Park Place" in body
        await b.act("h")
        await b.choose("ann")
        shown = await b.choose()  # Boardwalk: Park Place is not offered until Boardwalk has a house too
        assert any(s.startswith("Park Place") and "Build evenly" in s for s in shown), shown
        await b.choose()
        await b.confirm()
        await b.command("build park")
        await b.confirm()
        lots = file_state(path)["spaces"]
        assert (lots[str(PARK)]["houses"], lots[str(BOARDWALK)]["houses"]) == (2, 1)
        # -- an uneven build is refused, with the rule on screen, and nothing is written
        before = len(file_entries(path))
        await b.command("build park")
        assert b.message() == "Build evenly: Park Place has 2 houses, Boardwalk has 1 house"
        assert isinstance(app.screen, TableScreen) and len(file_entries(path)) == before
        assert cash(path)["Ann"] == 1027 - 600

        # -- the bank runs short of houses: Cid builds up brown and light blue, Bob pink
        for line in ("buy cid medit", "buy cid orient", "buy cid vermont", "buy cid connect",
                     "buy bob st charles", "buy bob states", "buy bob virginia"):
            await b.command(line)
            await b.confirm()
        assert cash(path) == {"Ann": 427, "Bob": 1607 - 440, "Cid": 1728 - 380}
        for lot, total in (("medit", "$400"), ("orient", "$600")):  # four houses on each brown, each light blue lot
            await b.act("h")
            await b.choose("c")
            await b.choose(lot)
            await b.choose("up to 4")  # the whole group evenly, in one action
            body = await b.confirm()
            assert f"Total: {total}" in body and "4 houses" in body, body
        await b.act("h")  # Bob: two on each pink lot in one action, then two more one at a time
        await b.choose("b")
        await b.choose("charles")
        await b.choose("up to 2")
        assert "Total: $600" in await b.confirm()
        for _ in range(2):
            await b.act("h")
            await b.choose("b")
            await b.choose()  # the bank keeps 3 houses and Ann may build too: one at a time, so no "how much?"
            await b.confirm()
        state = file_state(path)
        assert state["bank"] == {"houses": 1, "hotels": 12, "paid_out": state["bank"]["paid_out"]}
        assert [state["spaces"][str(p)]["houses"] for p in (ST_CHARLES, STATES, VIRGINIA)] == [3, 3, 2]
        assert cash(path) == {"Ann": 427, "Bob": 1167 - 800, "Cid": 1348 - 1000}
        # Ann and Bob both want the last house: the shortage auction, won by Ann at $250 (printed $200)
        await b.act("o")
        await b.choose("ann")
        shown = await b.choose()
        assert any(s.startswith("Boardwalk") for s in shown)
        await b.answer(250)
        assert "Ann → Bank  $250" in await b.confirm()
        state = file_state(path)
        assert state["bank"]["houses"] == 0 and state["spaces"][str(BOARDWALK)]["houses"] == 2
        assert file_entries(path)[-1]["command"] == {"op": "building_auction", "player": "Ann", "space": BOARDWALK,
                                                     "bid": 250}
        # with none left, a build is refused with the reason
        await b.command("build virginia")
        assert "houses" in b.message() and "32" in b.message()
        assert cash(path) == {"Ann": 177, "Bob": 367, "Cid": 348}

        # -- a mortgage and its lift (the value plus 10%)
        await b.act("m")
        await b.choose("b")
        shown = await b.choose("read")
        assert shown == ["Reading Railroad  +$100"]
        assert "Bank → Bob  $100" in await b.confirm()
        assert file_state(path)["spaces"][str(READING)]["mortgaged"] is True
        await b.act("l")
        await b.choose("b")
        await b.choose("read")
        assert "Bob → Bank  $110" in await b.confirm()
        assert file_state(path)["spaces"][str(READING)]["mortgaged"] is False
        await b.command("mortgage elec")
        await b.confirm()
        assert cash(path)["Bob"] == 367 + 100 - 110 + 75

        # -- a trade with a mortgaged deed: Bob's mortgaged Electric Company to Cid for $150;
        #    Cid keeps it mortgaged and pays the bank 10% of its mortgage value at once
        await b.act("d")
        await b.choose("b")
        await b.choose("c")
        await b.tab_to("give-spaces")  # Bob's deeds
        await b.pick_in_list("Electric Company")
        await b.tab_to("get-cash")  # what Cid pays
        await b.type("150")
        await b.key("ctrl+s")
        body = await b.confirm()
        assert "Cid → Bob  $150" in body and "Cid → Bank  $8" in body and "Electric Company → Cid" in body
        state = file_state(path)
        assert state["spaces"][str(ELECTRIC)] | {"name": None} == {"name": None, "owner": "Cid", "houses": 0,
                                                                    "hotel": False, "mortgaged": True}
        assert cash(path) == {"Ann": 177, "Bob": 432 + 150, "Cid": 348 - 150 - 8}

        # -- a debt raised by selling: Bob lands on Boardwalk (2 houses, $600) with $582
        await b.command("rent boa bob")
        assert "Bob cannot pay: a debt of $600 to Ann opens" in await b.confirm()
        assert file_state(path)["players"]["Bob"]["debt"]["amount"] == 600
        assert cash(path)["Bob"] == 582
        await b.act("w")  # the raise-cash view: the only debtor is Bob
        summary = screen_text(app.screen.query_one("#debt-summary"))
        # cash 582 + half of 8 houses (400) + mortgages (Reading 100, pink 70 + 70 + 80) = 1302
        assert "owes $600 to Ann" in summary and "Most that can be raised: $1,302" in summary
        await b.key("enter")  # the first sale offered: a house on St. Charles Place, +$50
        assert "Bank → Bob  $50" in await b.confirm()
        # paid: the view closes, the table says the entry that paid it (test_ui_rules.py: nothing swallowed)
        assert isinstance(app.screen, TableScreen)
        assert "Bob pays the debt of $600 to Ann" in b.message()
        await b.command("debt bob")  # opened again for Bob, who owes nothing now: said so, on a line of its own
        owes = screen_text(app.screen.query_one("#debt-summary")).splitlines()
        assert owes[:2] == ["Bob owes nothing.", "Cash $32"], owes  # on lines of their own (found by a probe)
        # no debt: no bankruptcy offered, neither in the footer nor in the hint (found playing)
        assert not any(a.binding.action == "bankrupt" for a in app.screen.active_bindings.values())
        assert "bankruptcy" not in screen_text(app.screen.query_one("#debt-hint"))
        await b.key("escape")
        state = file_state(path)
        assert state["players"]["Bob"]["debt"] is None and state["spaces"][str(ST_CHARLES)]["houses"] == 2
        assert cash(path) == {"Ann": 177 + 600, "Bob": 582 + 50 - 600, "Cid": 190}

        # -- bankruptcy to a player: Ann takes the house the sale returned; Bob lands on Boardwalk again
        await b.command("build boa")
        await b.confirm()
        await b.command("rent boa bob")
        assert "a debt of $1,400 to Ann" in await b.confirm()
        await b.act("k")
        await b.choose("b")
        assert isinstance(app.screen, ConfirmScreen)
        preview = screen_text(app.screen.query_one("#confirm-body"))
        # cash 32 + half of 7 houses (350) + mortgages (Reading 100, the pink lots 70 + 70 + 80) = 702
        assert "Bob owes $1,400 to Ann and can raise only $702." in preview
        assert "All cash ($32) goes to Ann." in preview and "Buildings go back to the bank for $350." in preview
        for name in ("Reading Railroad", "St. Charles Place", "States Avenue", "Virginia Avenue"):
            assert f"{name} → Ann" in preview
        await b.confirm()
        state = file_state(path)
        assert state["players"]["Bob"]["bankrupt"] is True
        assert state["bankruptcies"] == [{"player": "Bob", "creditor": "Ann"}]
        assert all(state["spaces"][str(p)]["owner"] == "Ann" for p in (READING, ST_CHARLES, STATES, VIRGINIA))
        assert state["bank"]["houses"] == 7
        assert cash(path) == {"Ann": 577 + 32 + 350, "Bob": 0, "Cid": 190}

        # -- the end of the game: the valuation and the winner
        await b.act("g")
        await b.confirm()
        result = await b.info()
        assert "Ann wins!" in result
        state = file_state(path)
        assert state["winner"] == "Ann"
        assert "Game over: Ann wins" in screen_text(app.screen.query_one("#bank"))


async def test_income_tax_beyond_the_cash_is_not_said_to_be_paid(tmp_path: Path) -> None:
    """Found playing: Eve, with $157, chose the $200 Income Tax; the box said "Paid: $200" while a debt of $200 was
    opened and nothing was paid."""
    from .ui_helpers import make_session

    path = make_session(tmp_path / "g.json", commands=[{"op": "transfer", "from": "Ann", "to": "Bob", "amount": 1343}])
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("t")
        await b.choose("income")
        await b.choose("ann")
        await b.choose("$200")
        info = await b.info()
        assert "Paid" not in info, info
        assert "Tax: $200" in info and "debt" in info, info
    assert cash(path)["Ann"] == 157
    assert file_state(path)["players"]["Ann"]["debt"]["amount"] == 200


async def test_a_debtors_trade_offers_the_creditor_first(tmp_path: Path) -> None:
    """Found by a probe: in follow mode, the raise-cash view's trade (`t`) highlighted the player whose turn it is,
    not the creditor, and a hurried Enter traded with the wrong player (the creditor may take deeds against the
    debt). It highlights the first player the debtor owes; the others stay a key away."""
    from textual.widgets import OptionList

    from banker.ui.screens.dialogs import ChooseScreen
    from banker.ui.screens.trade import TradeScreen

    from .ui_helpers import make_session

    path = make_session(tmp_path / "g.json", players=("Ann", "Bob", "Cid"), commands=[
        {"op": "follow", "on": True},
        {"op": "buy", "player": "Cid", "space": 39},
        {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1490, "memo": "a deal"},
        {"op": "rent", "payer": "Bob", "space": 39},  # Bob owes Cid; it is Ann's turn
    ])
    state = file_state(path)
    assert state["turn"] == "Ann" and state["players"]["Bob"]["debt"]["amount"] == 50
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("w")
        await b.key("t")
        await b.settle()
        assert isinstance(app.screen, ChooseScreen)
        options = app.screen.query_one("#choices", OptionList)
        assert str(options.get_option_at_index(options.highlighted).prompt).startswith("Cid")
        assert any(b.options()[i].startswith("Ann") for i in range(options.option_count))
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, TradeScreen)


async def test_a_trade_side_with_a_long_name_keeps_its_cash_in_sight_at_80_columns(tmp_path: Path) -> None:
    """Found by a probe: at 80 columns "Константин-Длинноимённый Третий отдаёт (500 т.р.)" was cut at "отда", and the
    cash, the one figure the banker needs while filling in the trade, was not shown. The line wraps instead."""
    from textual.widgets import Label

    from banker.ui.screens.trade import TradeScreen

    from .ui_helpers import make_session

    long = "Константин-Длинноимённый Третий"
    path = make_session(tmp_path / "g.json", players=("Вика", long, "Аня"), edition="ru")
    app = BankerApp(path, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("d")
        await b.choose("вика")
        await b.choose("конст")
        await pilot.pause()
        assert isinstance(app.screen, TradeScreen)
        label = [w for w in app.screen.query(Label) if "отдаёт" in str(w.render()) and long in str(w.render())][0]
        assert label.size.height == 2 and label.size.width < len(f"{long} отдаёт (1 500 т.р.)"), label.size


async def test_at_80x24_a_mortgaged_deed_ticked_keeps_both_deed_lists_in_sight(tmp_path: Path) -> None:
    """Found playing at 80x24: once a mortgaged deed was ticked, the "lift at once" list and the preview took the
    dialog's rows and both deed lists shrank to one row, then none (the deed just ticked out of sight); and Space on
    the new list did nothing until an arrow key. The lists keep their rows (the dialog scrolls), Space ticks."""
    from textual.widgets import SelectionList

    from banker.ui.screens.trade import TradeScreen

    from .ui_helpers import file_entries, make_session, midgame_commands

    players = ("Ann", "Bob", "Cid", "Dee", "Eve")
    cmds = [c for c in midgame_commands(players) if c.get("payer") != "Bob"]  # no debt: a plain trade
    path = make_session(tmp_path / "g.json", players, commands=cmds)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("d")
        await b.choose("Ci")
        await b.choose("Bo")
        assert isinstance(app.screen, TradeScreen)
        await b.key("tab", "tab", "tab", "down", "down", "space")  # Bob's Reading Railroad, mortgaged
        await b.key("tab", "space")  # lift it at once
        await pilot.pause()
        for side in ("give", "get"):
            deeds = app.screen.query_one(f"#{side}-spaces", SelectionList)
            assert deeds.size.height >= 5, (side, deeds.size)  # three rows at least, and the border
        lift = app.screen.query_one("#lift", SelectionList)
        assert lift.selected == [5]
        await b.key("ctrl+s")
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "trade", "from": "Cid", "to": "Bob", "give": {},
                                                     "get": {"spaces": [5]}, "lift": [5]}


@pytest.mark.parametrize(("lang", "edition", "said"), [
    ("en", "uk", "Cid has £210, less than the £220 that lifting the mortgage on Mayfair costs (the mortgage £200 + 10% "
                 "£20): keep it mortgaged (only the 10% now), or raise the cash first"),
    ("ru", "ru", "У игрока Cid 210 т.р., а выкуп участка Улица Арбат из залога стоит 220 т.р. (залог 200 т.р. + 10% "
                 "20 т.р.): оставьте его в залоге (сейчас только 10%) или сначала соберите деньги"),
    ("uk", "kyiv", "У гравця Cid M210, а викуп ділянки Хрещатик із застави коштує M220 (застава M200 + 10% M20): лишіть "
                   "її в заставі (зараз лише 10%) або спершу зберіть гроші"),
])
async def test_the_trade_dialog_says_what_lifting_a_mortgage_at_once_costs(tmp_path: Path, lang: str, edition: str,
                                                                           said: str) -> None:
    """us-classic-rules.txt "Mortgages": the receiver of a mortgaged deed pays 10% at once, or lifts it ("the amount of
    the mortgage plus 10% interest"). A lift the receiver's cash does not cover is refused in the dialog with that whole
    cost, what the receiver has, and that the deed can stay mortgaged (not "mortgage or sell buildings first")."""
    from banker.ui.screens.trade import TradeScreen

    from .ui_helpers import make_session

    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"), edition=edition, commands=[
        {"op": "buy", "player": "Ann", "space": 39}, {"op": "mortgage", "player": "Ann", "space": 39},
        {"op": "transfer", "from": "Cid", "to": "Bob", "amount": 1290, "memo": "x"}])  # Cid keeps 210
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("d")
        await b.choose("Ann")
        await b.choose("Cid")
        assert isinstance(app.screen, TradeScreen)
        await b.key("tab", "space")  # Ann's Mayfair, mortgaged: 10% now
        await b.key("tab", "tab", "tab", "space")  # lifted at once instead
        await pilot.pause()
        assert screen_text(app.screen.query_one("#trade-preview")) == said
