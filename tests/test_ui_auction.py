"""The property auction run by the console (issue #12): bidders, the current bid, who passed, +1/+10/+50 or a
typed bid, each checked against what the bidder has; the edition's data decides "cash only" and "the last bidder
must buy" (uk-2008-speed-die-rules.md: "Auction bids can only be made in cash. Any player can start the bidding
for as little as $1. If no one makes a higher bid, the last player to bid must buy the property"; Kyiv: "Аукціон
проходить лише за готівку ... власність переходить тому, хто оголосив останню ставку"; us-classic-rules.txt:
"Bidding may start at any price"); nobody bids: the deed stays with the bank (``winner: null``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from banker.ui.app import BankerApp
from banker.ui.screens.auction import AuctionScreen

from .ui_helpers import Banker, file_entries, file_state, make_session, screen_text

PLAYERS = {"en": ("Ann", "Bob"), "ru": ("Аня", "Боря"), "uk": ("Оля", "Петро")}
BOARD = {"en": "classic-us", "ru": "ru", "uk": "kyiv"}
NOBODY = {"en": "nobody bids", "ru": "никто не торгуется", "uk": "ніхто не торгується"}


def error(app) -> str:
    return screen_text(app.screen.query_one("#auction-error"))


async def open_auction(b: Banker, pos: int = 39) -> None:
    await b.act("a")
    await b.choose(b.app.current_session.state.edition.spaces[pos].name[:8])
    assert isinstance(b.app.screen, AuctionScreen)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_nobody_bids_and_the_deed_stays_with_the_bank(tmp_path: Path, lang: str) -> None:
    path = make_session(tmp_path / "g.json", PLAYERS[lang], edition=BOARD[lang])
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b)
        assert NOBODY[lang] in screen_text(app.screen.query_one("#auction-bid"))
        await b.key("enter")
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "auction", "space": 39, "winner": None}
        assert file_state(path)["spaces"]["39"]["owner"] is None


async def test_us_a_bid_over_the_cash_is_flagged_and_may_be_taken_back(tmp_path: Path) -> None:
    path = make_session(tmp_path / "g.json", ("Ann", "Bob"), commands=[
        {"op": "buy", "player": "Bob", "space": 37}, {"op": "buy", "player": "Bob", "space": 1},
        {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1080, "memo": "x"}])  # Bob: $10, could raise more
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b, 39)
        await b.key("down", "3")  # Bob bids $50 with $10 in cash: he could raise it by mortgages
        assert error(app) == ""
        assert "$40 short: a debt until raised" in str(app.screen.query_one("#bidders").get_option_at_index(1).prompt)
        await b.key("3", "3", "3", "3")  # up to $250: more than he could raise (10 + 175 + 30 = $215)
        assert "Bob could raise at most $215." in error(app)
        await b.key("w")  # US: the last bid ($200) may be taken back
        assert "Current bid: $150 by Bob" in screen_text(app.screen.query_one("#auction-bid"))
        await b.key("up", "1", "p")  # Ann bids $151 and cannot pass while she holds the highest bid
        assert "Ann holds the highest bid." in error(app)
        await b.key("down", "p", "enter")
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "auction", "space": 39, "winner": "Ann", "bid": 151}


async def test_a_flagged_winning_bid_is_sold_and_owed_not_lost(tmp_path: Path) -> None:
    """Found playing: Bob's bid of $50 with $10 in cash was taken (flagged "must raise $40 first"), and Enter then sold
    nothing: the sale was refused, the dialog closed and every bid was gone. Now the deed is his and the bid is
    owed to the bank until he raises it, said on the confirmation before anything is recorded."""
    path = make_session(tmp_path / "g.json", ("Ann", "Bob"), commands=[
        {"op": "buy", "player": "Bob", "space": 37}, {"op": "buy", "player": "Bob", "space": 1},
        {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1080, "memo": "x"}])  # Bob: $10, could raise $215
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b, 39)
        await b.key("down", "3")
        assert "$40 short: a debt until raised" in str(app.screen.query_one("#bidders").get_option_at_index(1).prompt)
        await b.key("enter")
        body = screen_text(app.screen.query_one("#confirm-body"))
        assert "Bob wins the auction for Boardwalk at $50" in body and "a debt of $50 to Bank opens" in body, body
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "auction", "space": 39, "winner": "Bob", "bid": 50}
        state = file_state(path)
        assert state["spaces"]["39"]["owner"] == "Bob"
        assert state["players"]["Bob"]["debt"]["claims"] == [{"creditor": "bank", "amount": 50, "for": "auction"}]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_a_player_in_debt_cannot_bid_and_the_other_bids_stay(tmp_path: Path, lang: str) -> None:
    """Found probing in tmux: Bob, owing the bank $200 (a tax he could not pay), bid $5 of his $10 and the bid was
    taken; Enter then sold nothing (the ``auction`` op refuses a winner in debt, as any purchase: "raise the cash ...
    or declare bankruptcy first"), the dialog closed and Ann's bid went with it. A debtor's bid is now refused when
    it is made, saying why, and the auction goes on."""
    ann, bob = PLAYERS[lang]
    edition = BOARD[lang]
    path = make_session(tmp_path / "g.json", (ann, bob), edition=edition, commands=[
        {"op": "buy", "player": bob, "space": 37},
        {"op": "transfer", "from": bob, "to": ann, "amount": 1140, "memo": "x"},  # Bob: 10 left
        {"op": "tax", "space": 38, "player": bob}])  # the second tax (75 or more): a debt opens
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        state = app.current_session.state
        owed = state.debts[bob][0].amount
        await open_auction(b, 39)
        await b.key("1", "1")  # Ann bids 2
        await b.key("down", "3")  # Bob, in debt, would bid 52 (the most he could raise is more): refused
        assert error(app) == app.tr("auction.owes", player=bob, amount=state.edition.fmt(owed))
        await b.key("1")  # and 3, within his cash: refused too
        assert error(app) == app.tr("auction.owes", player=bob, amount=state.edition.fmt(owed))
        assert screen_text(app.screen.query_one("#auction-bid")) == app.tr(
            "auction.current", amount=state.edition.fmt(2), player=ann)
        await b.key("enter")
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "auction", "space": 39, "winner": ann, "bid": 2}


def footer_keys(app) -> set[str]:
    """The keys the footer offers on the screen shown."""
    return {key for key, active in app.screen.active_bindings.items() if active.binding.show}


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_auctions_keys_work_in_the_cyrillic_layout(tmp_path: Path, lang: str) -> None:
    """docs/console.md: the keys work without switching the layout. The auction's b (a typed bid), p (pass) and w
    (take the last bid back) did nothing on the ЙЦУКЕН keys (found playing in tmux): и, з, ц."""
    ann, bob = PLAYERS[lang]
    path = make_session(tmp_path / "g.json", (ann, bob, "Ким"), edition="ru" if lang == "ru" else "kyiv")
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b)
        await b.key("2", "down", "з")  # Ann bids 10; Bob passes
        assert app.tr("auction.passed") in str(app.screen.query_one("#bidders").get_option_at_index(1).prompt)
        await b.key("down", "и")  # Ким: a typed bid
        await b.settle()
        await b.type("25")
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, AuctionScreen)
        assert "25" in screen_text(app.screen.query_one("#auction-bid"))
        await b.key("up", "up", "з", "up", "з", "enter")  # Ann and Bob pass: Ким buys at 25
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "auction", "space": 39, "winner": "Ким", "bid": 25}


@pytest.mark.parametrize("lang,edition", [("en", "uk"), ("uk", "kyiv")])
async def test_uk_and_kyiv_cash_only_and_the_last_bid_binds(tmp_path: Path, lang: str, edition: str) -> None:
    ann, bob = PLAYERS[lang]
    path = make_session(tmp_path / "g.json", (ann, bob), edition=edition, commands=[
        {"op": "transfer", "from": bob, "to": ann, "amount": 1490, "memo": "x"}])  # Bob has 10
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b)
        await b.key("down", "2")  # 10 is Bob's cash: fine
        assert error(app) == ""
        await b.key("1")  # 11 > cash: refused (cash only)
        assert error(app) and ("cash only" in error(app) or "готівкою" in error(app))
        assert "w" not in footer_keys(app)  # the last bid binds: no bid is taken back, the key is not offered
        await b.key("w")  # nothing taken back
        assert screen_text(app.screen.query_one("#auction-bid")) == app.tr("auction.current", amount=app.current_session
                                                                             .state.edition.fmt(10), player=bob)
        await b.key("enter")
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "auction", "space": 39, "winner": bob, "bid": 10}


async def test_the_bidders_names_keep_one_column_whatever_their_length(tmp_path: Path) -> None:
    """Found playing in tmux: a 30-letter name ran into the cash ("Константинопольский1 500 т.р.") and an emoji
    pushed its row's cash a cell right. The names take one column, by the cells they take, a long one cut short."""
    from rich.cells import cell_len

    players = ("Борис 🎩", "Константин Константинопольский", "Аня")
    path = make_session(tmp_path / "g.json", players, edition="ru")
    app = BankerApp(path, lang="ru")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b)
        bidders = app.screen.query_one("#bidders")
        rows = [str(bidders.get_option_at_index(i).prompt) for i in range(3)]
        cash = [cell_len(row[:row.index("1 500")]) for row in rows]
        assert len(set(cash)) == 1, rows
        assert rows[0].startswith("Борис 🎩 ") and rows[1].startswith("Константин Константин") and "…" in rows[1]


async def test_escape_on_an_auction_with_bids_asks_before_dropping_them(tmp_path: Path) -> None:
    """Found playing: Ann $50, Cid $75, then one Escape: the auction was gone and its bids with it, not a word."""
    from banker.ui.screens.dialogs import ChooseScreen, ConfirmScreen

    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b, 39)
        await b.key("3", "down", "down", "3")  # Ann $50, Cid $100
        await b.key("escape")
        assert isinstance(app.screen, ConfirmScreen)  # asked: the bids would be lost
        assert "Cid bid $100" in screen_text(app.screen.query_one("#confirm-body"))
        await b.key("escape")  # no: back to the auction, the bids as they were
        assert isinstance(app.screen, AuctionScreen)
        assert "Current bid: $100 by Cid" in screen_text(app.screen.query_one("#auction-bid"))
        await b.key("escape", "enter")  # yes: out (back to the choice of the deed), nothing recorded
        await b.settle()
        assert isinstance(app.screen, ChooseScreen)
        assert file_entries(path) == []
        await b.choose("Boardwalk")  # with no bid yet, Escape leaves at once
        assert isinstance(app.screen, AuctionScreen)
        await b.key("escape")
        assert isinstance(app.screen, ChooseScreen)


async def test_a_typed_bid_out_of_range_or_too_long_is_answered_in_plain_words(tmp_path: Path) -> None:
    """Found playing: "-20" answered "Between 1 and …." (no upper bound: a literal "…"), and twenty digits
    "'9999…' is not a whole number: type digits only" though it was nothing but digits."""
    from banker.ui.screens.dialogs import AskScreen

    path = make_session(tmp_path / "g.json", ("Ann", "Bob"))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b, 39)
        await b.key("b")
        assert isinstance(app.screen, AskScreen)
        await b.type("-20")
        await b.key("enter")
        said = screen_text(app.screen.query_one("#ask-error"))
        assert said == "At least 1.", said
        await b.key(*["backspace"] * 3)
        await b.type("9" * 20)
        await b.key("enter")
        said = screen_text(app.screen.query_one("#ask-error"))
        assert "has 20 digits" in said and "at most 12" in said and "not a whole number" not in said, said


async def test_a_typed_bid_the_bidder_cannot_make_is_refused_in_its_box_the_amount_kept(tmp_path: Path) -> None:
    """Found by the RU/UK console probe: a typed bid over what Аня could raise closed the box with the reason on the
    auction ("… не больше 1 192 т.р..", with a doubled full stop), and the amount typed again to correct it went to
    the auction's keys (1 is +1): one more Enter sold the deed at 201. The box stays, says why, keeps the amount."""
    from textual.widgets import Input

    from banker.ui.screens.dialogs import AskScreen

    path = make_session(tmp_path / "g.json", PLAYERS["ru"], edition="ru")
    app = BankerApp(path, lang="ru")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b, 39)
        await b.key("b")
        await b.type("5000")
        await b.key("enter")
        assert isinstance(app.screen, AskScreen)
        said = screen_text(app.screen.query_one("#ask-error"))
        assert said.startswith("Аня") and said.endswith(" т.р.") and "т.р.." not in said, said
        assert app.screen.query_one("#answer", Input).value == "5000"
        await b.key(*["backspace"] * 4)
        await b.type("1000")
        await b.key("enter")
        assert isinstance(app.screen, AuctionScreen)
        assert "1 000 т.р." in screen_text(app.screen.query_one("#auction-bid"))


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Bob cannot pay: a debt of $50 to Bank opens"),  # the bank's name, capitalised as one in English
    ("ru", "Bob не может заплатить: открыт долг $50, кредитор: банк"),
    ("uk", "Bob не може сплатити: відкрито борг $50 (кредитор: банк)"),
])
async def test_the_bank_as_creditor_is_said_as_the_catalogs_say_it_mid_sentence(tmp_path: Path, lang: str,
                                                                                 said: str) -> None:
    """Found playing: the auction's confirmation said "кредитор: Банк", a capital mid-sentence, where the Russian and
    Ukrainian catalogs write "банк" everywhere else in a sentence (the engine's "the-bank", the session log's account,
    "платит банку"). A label keeps its capital ("Bob → Банк" in the preview's payments, the bank's panel)."""
    path = make_session(tmp_path / "g.json", ("Ann", "Bob"), commands=[
        {"op": "buy", "player": "Bob", "space": 37}, {"op": "buy", "player": "Bob", "space": 1},
        {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1080, "memo": "x"}])  # Bob: $10, could raise $215
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b, 39)
        await b.key("down", "3")
        await b.key("enter")
        body = screen_text(app.screen.query_one("#confirm-body"))
        assert said in body, body



async def test_escape_from_the_sales_confirmation_brings_the_whole_auction_back(tmp_path: Path) -> None:
    """Escape on the sale's confirmation steps back to the auction as it was left: every bid (``w`` takes the last
    one back to the bid before it), who passed, the bidder highlighted. Before: only the winning bid came back, the
    earlier bids and the passes gone (a bidder who had passed could bid again, ``w`` left no bid at all)."""
    from banker.ui.screens.dialogs import ConfirmScreen

    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await open_auction(b, 39)
        await b.key("3", "down", "3", "down", "p", "up", "up", "2")  # Ann 50, Bob 100, Cid passes, Ann 110
        left = app.screen
        rows = [str(left.query_one("#bidders").get_option_at_index(i).prompt) for i in range(3)]
        await b.key("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await b.key("escape")
        back = app.screen
        assert isinstance(back, AuctionScreen) and back is not left
        assert back.bidding.bids == [("Ann", 50), ("Bob", 100), ("Ann", 110)]
        assert back.bidding.passed == {"Cid"}
        assert back.bidder() == "Ann"  # highlighted as left
        assert [str(back.query_one("#bidders").get_option_at_index(i).prompt) for i in range(3)] == rows
        await b.key("down", "down", "3")  # Cid passed: still out
        assert error(app) == "Cid has passed."
        assert back.bidding.high == ("Ann", 110)
        await b.key("w")  # Ann's last bid taken back: Bob's $100 stands again
        assert back.bidding.high == ("Bob", 100)
        await b.key("enter")
        assert "Bob wins the auction for Boardwalk at $100" in await b.confirm()
    commands = [e["command"] for e in file_entries(path)]
    assert commands == [{"op": "auction", "space": 39, "winner": "Bob", "bid": 100}]
