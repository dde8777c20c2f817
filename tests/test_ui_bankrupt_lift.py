"""Bankruptcy to a player offers "lift at once" for each mortgaged deed the creditor receives, as the trade
dialog does (issue #12). us-classic-rules.txt "Bankruptcy": "the new owner must at once pay the Bank the amount
of interest on the loan, which is 10% of the value of the property. The new owner who does this may then, at
his/her option, pay the principal or hold the property until some later turn"."""

from __future__ import annotations

from pathlib import Path

import pytest

from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import ChooseScreen

from .ui_helpers import Banker, cash, file_entries, file_state, make_session, midgame_commands, screen_text

PLAYERS = {"en": ("Ann", "Bob", "Cid", "Dee", "Eve"), "ru": ("Аня", "Боря", "Вика", "Гена", "Даша"),
           "uk": ("Оля", "Петро", "Іра", "Тарас", "Юля")}
BOARD = {"en": "classic-us", "ru": "ru", "uk": "kyiv"}
WORDS = {"en": ("Keep it mortgaged", "Lift it at once"), "ru": ("Оставить в залоге", "Выкупить сразу"),
         "uk": ("Лишити в заставі", "Викупити одразу")}


@pytest.mark.parametrize("lift", [True, False], ids=["lift", "ten-percent"])
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_the_creditor_chooses_for_each_mortgaged_deed(tmp_path: Path, lang: str, lift: bool) -> None:
    a, bob, cid, *_ = PLAYERS[lang]
    path = make_session(tmp_path / "g.json", PLAYERS[lang], edition=BOARD[lang], commands=midgame_commands(PLAYERS[lang]))
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = cash(path)[cid]
        await b.act("k")
        await b.choose(bob[:3])
        ten, lifted = WORDS[lang]
        spaces = app.current_session.state.edition.spaces
        # Kyiv: the debtor's mortgages are raised first, so the two streets Bob mortgages in the bankruptcy reach
        # the creditor mortgaged too, and are asked about as well (found playing: only the railroad was asked, the
        # streets charged 10% with no choice)
        for pos in (1, 3) if lang == "uk" else ():
            assert isinstance(app.screen, ChooseScreen)
            assert spaces[pos].name in screen_text(app.screen.query_one(".dialog-title")), pos
            await b.choose(ten)
        assert isinstance(app.screen, ChooseScreen)
        assert spaces[5].name in screen_text(app.screen.query_one(".dialog-title"))
        options = b.options()
        assert options[0].startswith(ten) and options[1].startswith(lifted), options
        await b.choose(lifted if lift else ten)
        body = await b.confirm()
        assert bob in body
        state = file_state(path)
        assert state["spaces"]["5"]["owner"] == cid and state["spaces"]["5"]["mortgaged"] is (not lift)
        if lang != "uk":  # Kyiv: the debtor's mortgages are raised first, so more cash changes hands
            assert cash(path)[cid] == before + 130 - 10 - (100 if lift else 0)
        command = file_entries(path)[-1]["command"]
        assert command == ({"op": "bankrupt", "player": bob, "lift": [5]} if lift else {"op": "bankrupt", "player": bob})



#: what each choice costs the creditor, said as the creditor's payments: by how much cash the creditor has when the deed
#: comes (the bankrupt's, the debtor's, is none), and with a debt of its own open
COSTS = {
    "en": {"plenty": ["Keep it mortgaged: Cid pays the bank 10% now (£10)",
                      "Lift it at once: Cid pays the bank £110 (the mortgage £100 + 10% £10)"],
           "fifty": ["Keep it mortgaged: Cid pays the bank 10% now (£10)",
                     "Lift it at once: Cid pays the bank £110 (the mortgage £100 + 10% £10)  "
                     "not possible: Cid has £50 by then, less than £110"],
           "five": ["Keep it mortgaged: the 10% (£10) is owed to the bank  Cid has only £5",
                    "Lift it at once: Cid pays the bank £110 (the mortgage £100 + 10% £10)  "
                    "not possible: Cid has £5 by then, less than £110"],
           "debt": ["Keep it mortgaged: the 10% (£10) is owed to the bank  Cid owes £50 to Ann",
                    "Lift it at once: Cid pays the bank £110 (the mortgage £100 + 10% £10)  "
                    "not possible: Cid owes £50 to Ann, and a mortgage is lifted only with no debt open"]},
    "ru": {"plenty": ["Оставить в залоге: Вика платит банку 10% сейчас (10 т.р.)",
                      "Выкупить сразу: Вика платит банку 110 т.р. (залог 100 т.р. + 10% 10 т.р.)"],
           "fifty": ["Оставить в залоге: Вика платит банку 10% сейчас (10 т.р.)",
                     "Выкупить сразу: Вика платит банку 110 т.р. (залог 100 т.р. + 10% 10 т.р.)  "
                     "нельзя: у игрока Вика к этому моменту 50 т.р., меньше 110 т.р."],
           "five": ["Оставить в залоге: 10% (10 т.р.) — в долг банку  у игрока Вика только 5 т.р.",
                    "Выкупить сразу: Вика платит банку 110 т.р. (залог 100 т.р. + 10% 10 т.р.)  "
                    "нельзя: у игрока Вика к этому моменту 5 т.р., меньше 110 т.р."],
           "debt": ["Оставить в залоге: 10% (10 т.р.) — в долг банку  долг игрока Вика: 50 т.р. (кредитор: Аня)",
                    "Выкупить сразу: Вика платит банку 110 т.р. (залог 100 т.р. + 10% 10 т.р.)  "
                    "нельзя: долг игрока Вика — 50 т.р. (кредитор: Аня), а выкупить залог можно только без долга"]},
    "uk": {"plenty": ["Лишити в заставі: Іра платить банку 10% зараз (M10)",
                      "Викупити одразу: Іра платить банку M110 (застава M100 + 10% M10)"],
           "fifty": ["Лишити в заставі: Іра платить банку 10% зараз (M10)",
                     "Викупити одразу: Іра платить банку M110 (застава M100 + 10% M10)  "
                     "не можна: у гравця Іра на той момент M50, менше ніж M110"],
           "five": ["Лишити в заставі: 10% (M10) — у борг банку  у гравця Іра лише M5",
                    "Викупити одразу: Іра платить банку M110 (застава M100 + 10% M10)  "
                    "не можна: у гравця Іра на той момент M5, менше ніж M110"],
           "debt": ["Лишити в заставі: 10% (M10) — у борг банку  борг гравця Іра: M50 (кредитор: Оля)",
                    "Викупити одразу: Іра платить банку M110 (застава M100 + 10% M10)  "
                    "не можна: борг гравця Іра — M50 (кредитор: Оля), а викупити заставу можна лише без боргу"]},
}


@pytest.mark.parametrize("case", ["plenty", "fifty", "five", "debt"])
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_each_choice_says_what_it_costs_the_creditor(tmp_path: Path, lang: str, case: str) -> None:
    """Found playing a UK game: the creditor with less cash than the 10% saw the lift refused with "Cid owes £10 to the
    bank: raise the cash (sell buildings, mortgage, trade) or declare bankruptcy first", the 10% of a trial of the
    bankruptcy taken for a debt Cid had, and advice for a debtor. Each choice says what it costs the creditor, and a
    lift not possible says why in those terms: the cash the creditor has when the deed comes, or the debt it owes."""
    a, bob, cid = PLAYERS[lang][:3]
    cash = {"plenty": 1000, "fifty": 50, "five": 5, "debt": 5}[case]
    commands = [{"op": "buy", "player": bob, "space": 5}, {"op": "buy", "player": cid, "space": 37},
                {"op": "mortgage", "player": bob, "space": 5},  # Bob's one deed, mortgaged: the bankruptcy raises 0
                {"op": "transfer", "from": bob, "to": a, "amount": 1400, "memo": "x"},  # and Bob has no cash
                {"op": "transfer", "from": cid, "to": a, "amount": 1150 - cash, "memo": "x"}]
    if case == "debt":  # Cid owes Ann rent he cannot pay
        commands += [{"op": "buy", "player": a, "space": 39}, {"op": "rent", "payer": cid, "space": 39}]
    commands += [{"op": "rent", "payer": bob, "space": 37}]  # Bob owes Cid rent: bankrupt to Cid
    path = make_session(tmp_path / "g.json", PLAYERS[lang], edition=BOARD[lang] if lang != "en" else "uk",
                        commands=commands)
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("k")
        await b.choose(bob[:3])
        assert isinstance(app.screen, ChooseScreen)
        assert b.options() == COSTS[lang][case]


async def test_at_80x24_the_bankruptcy_preview_scrolls_and_keeps_its_buttons_in_sight(tmp_path: Path) -> None:
    """Found playing (uk, 80x24): the bankruptcy's preview pushed its buttons below the screen, only their top edge
    showing. The text scrolls within the dialog (↓ scrolls it; Enter still confirms). And on the Kyiv board, where the
    debtor's mortgages are raised first, "all the cash goes to" said the cash before them (M130) while M190 went."""
    from banker.ui.screens.dialogs import ConfirmScreen, DialogBody

    players = PLAYERS["uk"]
    path = make_session(tmp_path / "g.json", players, edition="kyiv", commands=midgame_commands(players))
    app = BankerApp(path, lang="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("k")
        await b.choose(players[1][:3])
        await b.key("enter", "enter", "enter")  # 10% on each of the three deeds
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        for button in app.screen.query("Button"):
            assert button.region.bottom <= app.size.height - 1, button.region  # above the footer line
        body = app.screen.query_one(DialogBody)
        assert body.max_scroll_y > 0 and body.scroll_y == 0
        await b.key("down")
        await pilot.pause()
        assert body.scroll_y > 0
        assert "Усі гроші (M190) отримує Іра." in screen_text(app.screen.query_one("#confirm-body"))
        await b.key("enter")
        await b.settle()
        assert file_entries(path)[-1]["command"] == {"op": "bankrupt", "player": players[1]}
