"""Single actions on the console, from a game under way: cards, transfers, jail cards,
cancelling, the command palette, the help screen, and the Russian interface."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList
from textual.widgets import Input

from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import AskScreen, ChooseScreen
from banker.ui.screens.help import HelpScreen
from banker.ui.screens.table import TableScreen

from .ui_helpers import Banker, cash, file_entries, file_state, footer_shown, make_session, midgame_commands, screen_text

PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve")


@pytest.fixture
def midgame(tmp_path: Path) -> Path:
    return make_session(tmp_path / "game.json", PLAYERS, commands=midgame_commands(PLAYERS), name="Friday game")


async def test_street_repairs_are_counted_from_the_players_buildings(midgame: Path) -> None:
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = cash(midgame)["Cid"]
        await b.act("c")
        await b.choose("cid")
        shown = await b.choose("street repairs")  # the decks are searchable
        assert len(shown) == 1 and shown[0].startswith("Community Chest: You are assessed for street repairs")
        # three hotels at $115 each
        assert "Cid → Bank  $345" in await b.confirm()
        assert cash(midgame)["Cid"] == before - 345


async def test_a_card_that_collects_from_every_player(tmp_path: Path, midgame: Path) -> None:
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        # while Bob's debt is open, play waits for it: the engine says so and nothing is written
        before = len(file_entries(midgame))
        await b.command("card dee opera")
        assert b.message().startswith("Bob owes $550 to Cid: raise the cash")
        assert isinstance(app.screen, TableScreen) and len(file_entries(midgame)) == before
    # the same game before Bob's last rent: everyone pays Dee
    calm = make_session(tmp_path / "calm.json", PLAYERS, commands=midgame_commands(PLAYERS)[:-1])
    app = BankerApp(calm, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("card dee opera")
        body = await b.confirm()
        for payer in ("Ann", "Bob", "Cid", "Eve"):
            assert f"{payer} → Dee  $50" in body
        assert cash(calm)["Dee"] == 1140 + 200


async def test_transfer_with_a_memo_and_the_jail_card(midgame: Path) -> None:
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("x")
        await b.choose("ann")
        assert b.screen.title_text == "Ann pays: who receives?"  # each question says the answers before it
        await b.choose("dee")
        assert screen_text(b.screen.query_one(".dialog-prompt")) == "Ann → Dee: how much? (Ann has $750)"
        await b.answer(5000)  # more than Ann has: the bounds as money (the RU/UK probe: "От 1 до 710.", no unit)
        assert screen_text(b.screen.query_one("#ask-error")) == "Between $1 and $750."
        await b.key(*["backspace"] * 4)
        await b.answer(75)
        assert screen_text(b.screen.query_one(".dialog-prompt")) == "Ann → Dee $75: what for? (a memo for the log)"
        await b.answer("sold a jail card")
        assert "Ann → Dee  $75" in await b.confirm()
        entry = file_entries(midgame)[-1]
        assert entry["command"] == {"op": "transfer", "from": "Ann", "to": "Dee", "amount": 75, "memo": "sold a jail card"}
        await b.act("j")
        options = await b.choose()  # only Eve holds a jail card
        assert options == ["Eve  $920"]
        await b.confirm()
        assert file_state(midgame)["players"]["Eve"]["jail_cards"] == 0


async def test_a_memo_too_long_or_with_a_control_character_is_refused_in_its_box_keeping_the_answers(midgame: Path) -> None:
    """Found by the console probe: a memo over the engine's 200 characters was refused by the engine after the
    last question, which ended the transfer and lost who paid whom and how much."""
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = len(file_entries(midgame))
        await b.act("x")
        await b.choose("ann")
        await b.choose("dee")
        await b.answer(75)
        box = b.screen.query_one("#answer", Input)
        box.value = "a" * 230
        await b.key("enter")
        assert isinstance(b.screen, AskScreen)  # still asking, with the text kept to shorten
        assert box.value == "a" * 230
        assert screen_text(b.screen.query_one("#ask-error")) == (
            "This is 230 characters; at most 200 fit here. Shorten it, or Escape to cancel.")
        box.value = "tab\there"
        await b.key("enter")
        assert isinstance(b.screen, AskScreen)
        assert "U+0009" in screen_text(b.screen.query_one("#ask-error"))
        box.value = "a" * 200
        await b.key("enter")
        assert "Ann → Dee  $75" in await b.confirm()
        assert len(file_entries(midgame)) == before + 1
        assert file_entries(midgame)[-1]["command"] == {"op": "transfer", "from": "Ann", "to": "Dee", "amount": 75,
                                                       "memo": "a" * 200}


@pytest.mark.parametrize("lang,line,said", [
    ("en", "pay ann ann 50", "A transfer needs two different accounts, but the payer and the receiver are both Ann"),
    ("ru", "pay bank bank 50", "В переводе нужны два разных счёта, а плательщик и получатель здесь один: банк"),
    ("uk", "pay ann ann 5", "У переказі потрібні два різні рахунки, а платник і отримувач тут один: Ann"),
])
async def test_one_account_on_both_sides_is_said_in_the_bankers_words_not_the_scripts_keys(
        midgame: Path, lang: str, line: str, said: str) -> None:
    """Found by the console probe: ``pay ann ann 50`` said 'transfer: "from" and "to" must differ'."""
    app = BankerApp(midgame, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = len(file_entries(midgame))
        await b.command(line)
        await b.settle()
        shown = b.message() if isinstance(b.screen, TableScreen) else await b.info()
        assert said in shown
        assert '"from"' not in shown
        assert len(file_entries(midgame)) == before


async def test_a_game_that_is_over_offers_only_undo_and_answers_the_other_keys(tmp_path: Path) -> None:
    """Found by the console probe: after the end of the game the footer still offered rent, buy, build... and
    each was refused only once pressed."""
    from textual.widgets._footer import FooterKey

    path = make_session(tmp_path / "g.json", commands=[{"op": "buy", "player": "Ann", "space": 39}, {"op": "end_game"}])

    def footer() -> set[str]:
        return {k.action for k in app.screen.query(FooterKey)}

    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await footer_shown(pilot)
        playing = {"shown('rent')", "shown('buy')", "shown('build')", "shown('mortgage')", "shown('trade')"}
        assert "shown('undo')" in footer() and not footer() & playing
        for key in ("r", "4", "и"):  # an action, a die, rent's key on a Russian layout
            b.app.show_message("")
            await b.key(key)
            assert isinstance(app.screen, TableScreen)
            assert b.message() == "The game is over; only undo is possible."
        await b.act("u")
        await b.settle()
        await b.answer("ended by mistake")
        await b.confirm()
        assert not app.session.state.over
        await pilot.pause()
        assert playing <= footer()


@pytest.mark.parametrize(("lang", "pot", "key", "said"), [
    ("en", False, "p", "Free Parking pays nothing under the official rules (the pot is a house rule, off)"),
    ("en", True, "p", "The Free Parking pot is empty"),
    ("en", False, "o", "No shortage auction now: it is held when two or more players who may build want more than the "
                       "bank has (32 houses, 12 hotels); buy at the printed price"),
    ("ru", False, "щ", "Аукциона из-за нехватки сейчас нет: он проводится, когда двое или больше игроков, которые могут "
                       "строить, хотят больше, чем есть в банке (32 дома, 12 отелей); покупайте по цене на карточке"),
])
async def test_an_action_that_cannot_be_taken_now_says_so_before_asking_anything(
        tmp_path: Path, lang: str, pot: bool, key: str, said: str) -> None:
    """Found by the console probe: ``p`` asked who landed on Free Parking, and ``o`` who bids on which lot, before
    saying the pot is a house rule that is off, or that there is no shortage."""
    from banker.ledger import Session
    from banker.rules import HouseRules, Setup

    path = tmp_path / "g.json"
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"), HouseRules(free_parking_pot=pot))):
        pass
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act(key)
        await b.settle()
        assert isinstance(app.screen, TableScreen)  # nothing asked
        assert b.message() == said
        assert not file_entries(path)


async def test_an_advance_card_asks_whether_the_token_passed_go_only_where_it_can(midgame: Path) -> None:
    """Found by the RU/UK console probe: the card's "passed GO?" choice came under the title "Card" alone, and was
    offered for Arbat (Boardwalk here), the last space before GO, where it paid a salary no token can earn."""
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("card ann illinois")
        await b.settle()
        assert isinstance(app.screen, ChooseScreen)
        assert app.screen.title_text == "Did Ann's token pass GO on its way to Illinois Avenue?"
        await b.key("escape")
        await b.settle()
        await b.command("card ann boardwalk")
        await b.settle()
        assert "salary" not in (await b.confirm()).lower()  # straight to what it does: no question, no salary
        assert file_entries(midgame)[-1]["command"] == {"op": "card", "player": "Ann", "card": "ch-boardwalk"}


async def test_a_line_understood_leaves_the_command_line_one_not_understood_stays(midgame: Path) -> None:
    """Found by the RU/UK console probe: after `застава тарас андр` Enter Enter, the next action keys (`x`, `тар`...)
    were typed into the command line ("невідома дія «xтарокс340позика»")."""
    from banker.ui.widgets.command_line import CommandLine

    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("frobnicate ann")
        assert isinstance(app.focused, CommandLine)  # to be corrected
        await b.key(*["backspace"] * len("frobnicate ann"))
        await b.type("pay ann dee 5 lunch")
        await b.key("enter")
        await b.settle()
        await b.confirm()
        assert app.focused is None  # back to the action keys
        await b.key("x")
        await b.settle()
        assert isinstance(app.screen, ChooseScreen)  # the transfer's first question, not a letter in the line


async def test_escape_cancels_and_writes_nothing(midgame: Path) -> None:
    """Escape steps back one question at a time, and cancels on the first; ``n`` on a confirmation cancels."""
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = len(file_entries(midgame))
        await b.act("b")
        await b.choose("dee")
        await b.choose("illinois")
        for _ in range(3):  # the confirmation, the deed, the player
            await b.key("escape")
            await b.settle()
        assert isinstance(app.screen, TableScreen)
        assert b.message() == "Cancelled: nothing changed."
        assert len(file_entries(midgame)) == before
        await b.act("b")
        await b.choose("dee")
        await b.choose("illinois")
        await b.key("n")  # "no" at the confirmation: the whole action
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        assert b.message() == "Cancelled: nothing changed."
        assert len(file_entries(midgame)) == before


async def test_the_command_palette_lists_every_action(midgame: Path) -> None:
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("ctrl+p")
        await b.type("Lift mortgage")
        # the palette searches in a worker: wait for the hit (not a fixed pause, which a busy machine outlasts)
        for _ in range(1000):
            hits = app.screen.query_one(CommandList)
            if hits.option_count and hits.highlighted is not None and \
                    str(hits.get_option_at_index(hits.highlighted).prompt).startswith("Lift mortgage"):
                break
            await pilot.pause(0.05)
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ChooseScreen)  # the lift flow: whose mortgage?
        assert b.options() == ["Bob  $130"]


@pytest.mark.parametrize("standalone", [True, False])
async def test_the_review_palette_offers_the_reviews_keys_never_an_action(midgame: Path, standalone: bool) -> None:
    """Found by the review probe: ctrl+p in the review (opened with `v` over the table) offered every action, and
    "Salary" was recorded while the review said "(read-only)"; in `banker review` it sent the banker to `banker
    repair` for a healthy file."""
    from banker.ui.screens.review import ReviewScreen

    app = BankerApp(midgame, lang="en", review=standalone)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        if not standalone:
            await b.act("v")
            await b.settle()
        assert isinstance(app.screen, ReviewScreen)
        before = len(file_entries(midgame))
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert not any(t.startswith(("Salary", "Buy", "Rent", "Count the table")) for t in titles), titles
        assert {"Timeline  (1)", "Summary  (3)", "Board  (6)", "Search  (/)"} <= set(titles), titles
        review_keys = [t for t in titles if t.endswith(")")]
        assert len(review_keys) == len(set(review_keys)), titles  # "Search (/)" was listed twice (found by a probe)
        summary = next(c for c in app.get_system_commands(app.screen) if c.title == "Summary  (3)")
        app.call_later(summary.callback)  # as the palette runs a command
        await pilot.pause()
        await pilot.pause()
        assert app.screen.query_one("TabbedContent").active == "summary"
        assert len(file_entries(midgame)) == before


@pytest.mark.parametrize("lang,words", [("ru", ("Выход", "Цвета", "Поиск действия", "Поиск цветовой темы")),
                                        ("uk", ("Вийти", "Кольори", "Пошук дії", "Пошук колірної теми"))])
async def test_the_command_palette_speaks_the_interfaces_language(midgame: Path, lang: str, words) -> None:
    """Found playing in tmux: the palette said "Search for commands…", "Keys", "Screenshot", "Theme" in English on a
    Russian console, and its Keys panel (Textual's own, all English, deaf to Escape) listed "1-6" six times. The
    palette's own commands are in the interface's language; the keys are the help's (?)."""
    from textual.command import CommandInput

    app = BankerApp(midgame, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("ctrl+p")
        for _ in range(1000):  # the palette lists its commands in a worker
            hits = app.screen.query_one(CommandList)
            if hits.option_count > 10:
                break
            await pilot.pause(0.05)
        shown = " ".join(str(hits.get_option_at_index(i).prompt) for i in range(hits.option_count))
        assert all(w in shown for w in words[:2]), shown
        assert f"{words[0]}  (ctrl+q)" in shown, shown  # with its key, as every action (the RU/UK console probe)
        assert not any(w in shown for w in ("Keys", "Screenshot", "Theme", "Quit", "Search")), shown
        assert app.screen.query_one(CommandInput).placeholder == words[2] + "…"
        # the colours: the themes' own search line too (Textual's said "Search for themes…")
        await b.type(words[1])
        for _ in range(1000):
            hits = app.screen.query_one(CommandList)
            if hits.option_count == 1 and str(hits.get_option_at_index(0).prompt).startswith(words[1]):
                break
            await pilot.pause(0.05)
        await b.key("enter")
        for _ in range(1000):
            if app.screen.query(CommandInput) and app.screen.query_one(CommandInput).placeholder != words[2] + "…":
                break
            await pilot.pause(0.05)
        assert app.screen.query_one(CommandInput).placeholder == words[3] + "…"


async def test_help_explains_keys_and_rules(midgame: Path) -> None:
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(screen_text(s) for s in app.screen.query("Static"))
        assert "Shortage auction" in text and "Build and sell evenly" in text
        await b.key("escape")
        assert isinstance(app.screen, TableScreen)


async def test_the_russian_board_in_russian(tmp_path: Path) -> None:
    players = ("Аня", "Боря", "Вика")
    path = make_session(tmp_path / "game.json", players, edition="ru",
                        commands=[{"op": "buy", "player": "Аня", "space": 39}])
    app = BankerApp(path, lang="ru")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("аренда арбат боря")  # a Russian verb, the board's own street name, a prefix of a name
        body = await b.confirm()
        assert "Боря → Аня" in body
        log = screen_text(app.screen.query_one("#log"))
        assert "Боря платит игроку Аня аренду" in log
        assert file_entries(path)[-1]["command"] == {"op": "rent", "space": 39, "payer": "Боря"}
        assert app.tr("action.rent") != "Rent"


async def test_a_bug_in_a_flow_does_not_close_the_bank(midgame: Path, monkeypatch) -> None:
    from banker.ui.actions import Flow

    simple = Flow.flow_simple

    async def broken(self, cmd, title):  # the salary's flow (the generic one since issue #10) has a bug
        if cmd["op"] == "salary":
            raise RuntimeError("simulated bug")
        return await simple(self, cmd, title)

    monkeypatch.setattr(Flow, "flow_simple", broken)
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("s")
        await b.settle()
        assert app.is_running and isinstance(app.screen, TableScreen)
        assert "RuntimeError: simulated bug" in b.message() and "nothing is lost" in b.message()
        await b.command("buy dee illinois")  # the bank goes on
        await b.confirm()
        assert file_state(midgame)["spaces"]["24"]["owner"] == "Dee"


async def test_a_log_that_disagrees_with_the_engine_is_reported_and_shown_as_recorded(tmp_path: Path) -> None:
    """The session opens from its log: the table shows the figures recorded, and the engine's check
    in the background reports the entry it computes differently (it never changes the figures)."""
    from .ledger_helpers import edit_file

    path = make_session(tmp_path / "old.json", commands=[{"op": "buy", "player": "Ann", "space": 39},
                                                         {"op": "rent", "payer": "Bob", "space": 39}])
    # as if an older engine had charged $40 (its checksums consistent, as that engine wrote them)
    edit_file(path, lambda d: d["entries"]["2"]["effects"][0].update(amount=40))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.session.readonly and app.session.divergent == [2]
        assert app.session.state.cash["Bob"] == 1460  # the log's $40, as recorded
        assert "$1,460" in screen_text(app.screen.query_one("#player-1"))
        assert any("Entry 2 was recorded by another version of the rules" in str(n.message)
                   and "the figures as recorded" in str(n.message) for n in app._notifications)


@pytest.mark.parametrize(("lang", "key", "said"), [
    ("en", "k", "No player owes a debt: a bankruptcy follows a debt the player cannot pay (record the rent, tax or "
                "payment first)."),
    ("ru", "k", "Ни у кого нет долга: банкротство следует за долгом, который игрок не может заплатить (сначала "
                "запишите аренду, налог или платёж)."),
    ("en", "j", "Nobody holds a Get Out of Jail Free card."),
    ("uk", "l", "Жодна ділянка не закладена.")])
async def test_an_action_nobody_can_take_says_what_is_missing(tmp_path: Path, lang: str, key: str, said: str) -> None:
    """Bankruptcy with no debt, a jail card nobody holds, a lift with nothing mortgaged: the player question says what
    is missing (it said "No player to choose.", and the banker had to know why)."""
    path = make_session(tmp_path / "new.json", ("Ann", "Bob"))
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act(key)
        assert isinstance(app.screen, ChooseScreen) and not b.options()
        assert screen_text(app.screen.query_one("#choice-note")) == said
        await b.key("escape")
        assert isinstance(app.screen, TableScreen) and not file_entries(path)


async def test_the_headers_count_one_action_in_the_singular(tmp_path: Path) -> None:
    """Found by the players' page probe: the table's header said "1 actions" (the page said "1 action")."""
    path = make_session(tmp_path / "one.json", commands=[{"op": "salary", "player": "Ann"}], name="Night")
    for review, said in ((False, "Night · Monopoly — US classic (Atlantic City) · Classic · 1 action"),
                         (True, "Review · Night · Monopoly — US classic (Atlantic City) · 1 entry (read-only)")):
        app = BankerApp(path, lang="en", review=review)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            header = app.screen.query_one("#review-header" if review else "#table-header")
            assert screen_text(header).splitlines()[0] == said


async def test_a_long_session_name_is_cut_in_the_reviews_header(tmp_path: Path) -> None:
    """Found by the review probe: a 200-character session name made the review's header four lines tall (the name
    wrapped), over the tabs. The name is cut with "…", and the header keeps its three lines."""
    from banker.ui.screens.review import NAME_SHOWN

    name = "Friday at the Johnsons' " * 9
    path = make_session(tmp_path / "long.json", commands=[{"op": "salary", "player": "Ann"}], name=name)
    app = BankerApp(path, lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        lines = screen_text(app.screen.query_one("#review-header")).splitlines()
        assert len(lines) == 3, lines
        assert lines[0].startswith("Review · " + name[:NAME_SHOWN - 1] + "… · Monopoly"), lines[0]


@pytest.mark.parametrize(("lang", "key", "who", "title"), [("en", "b", "bob", "Buy: Bob"), ("ru", "m", "bob", "Залог: Bob")])
async def test_the_deed_question_names_the_player_chosen_before_it(midgame: Path, lang: str, key: str, who: str,
                                                                     title: str) -> None:
    """Found playing in tmux: after the player was picked (Enter takes the one highlighted), the deed question said only
    "Buy", so a wrong pick showed only on the confirmation; it says the player, as the transfer's questions do."""
    app = BankerApp(midgame, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act(key)
        await b.choose(who)
        assert isinstance(b.screen, ChooseScreen) and b.screen.title_text == title


@pytest.mark.parametrize(("lang", "buttons"), [("uk", ["Скасувати дію (Enter)", "Залишити як є (n/т)"]),
                                               ("en", ["Undo it (Enter)", "Keep it (n)"])])
async def test_the_undo_confirmation_says_which_button_undoes(midgame: Path, lang: str, buttons: list[str]) -> None:
    """Found by a probe: in Ukrainian the undo dialog's title was "Скасувати" (undo) and its button "Скасувати (n/т)"
    (cancel): which one undoes? Its buttons say what each does; `n` keeps the action, as before."""
    from textual.widgets import Button

    from banker.ui.screens.dialogs import ConfirmScreen

    app = BankerApp(midgame, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = len(file_entries(midgame))
        await b.act("u")
        await b.settle()
        await b.answer("wrong")
        assert isinstance(app.screen, ConfirmScreen)
        assert [str(button.label) for button in app.screen.query(Button)] == buttons
        await b.key("n")
        await b.settle()
        assert len(file_entries(midgame)) == before


async def test_the_headers_count_is_the_actions_standing_as_banker_state_counts_them(midgame: Path) -> None:
    """Found playing: after one undo the header said "24 actions" while `banker state` said "24 log entries, 22
    actions standing": the undo and the action it took back are not actions of the game."""
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        n = len(file_entries(midgame))
        assert screen_text(app.screen.query_one("#table-header")).endswith(f"· {n} actions")
        await b.act("u")
        await b.settle()
        await b.answer("wrong")
        await b.confirm()
        assert len(file_entries(midgame)) == n + 1
        assert screen_text(app.screen.query_one("#table-header")).endswith(f"· {n - 1} actions")


async def test_a_refusal_on_the_message_line_goes_when_the_next_action_starts(midgame: Path) -> None:
    """Found playing: "No shortage of hotels…" stayed on the message line under the next dialog, as if that action
    were refused too. A new action starts with the line cleared of a refusal (what was last recorded stays)."""
    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("o")  # no shortage: refused before any question
        await b.settle()
        assert b.message().startswith("No shortage auction now"), b.message()
        await b.act("a")
        await b.settle()
        assert b.message() == ""


async def test_at_80x24_the_undo_reason_box_stays_in_sight_under_a_long_entry(tmp_path: Path) -> None:
    """Found playing (uk, 80x24): undo of a bankruptcy that handed over 18 deeds quoted the entry in its question, which
    filled the dialog and pushed the reason's box off the screen: the reason was typed blind. The question scrolls
    (PgDn), the box stays in sight, and the reason typed is recorded. The question quotes the entry where it is named by
    its number on the command line; `u` lists it instead, under its box: the list scrolls (PgDn), the box stays in sight."""
    from textual.widgets import Input, OptionList

    from banker.ui.screens.dialogs import AskScreen, DialogBody
    from banker.ui.screens.undo import UndoScreen

    from .ui_helpers import make_session

    commands = [
        {"op": "transfer", "from": "bank", "to": "Ann", "amount": 5000, "memo": "seed"},
        {"op": "buy", "player": "Ann", "space": 1},
        {"op": "buy", "player": "Ann", "space": 3},
        {"op": "buy", "player": "Ann", "space": 5},
        {"op": "buy", "player": "Ann", "space": 6},
        {"op": "buy", "player": "Ann", "space": 8},
        {"op": "buy", "player": "Ann", "space": 9},
        {"op": "buy", "player": "Ann", "space": 11},
        {"op": "buy", "player": "Ann", "space": 12},
        {"op": "buy", "player": "Ann", "space": 13},
        {"op": "buy", "player": "Ann", "space": 14},
        {"op": "buy", "player": "Ann", "space": 15},
        {"op": "buy", "player": "Ann", "space": 16},
        {"op": "buy", "player": "Ann", "space": 18},
        {"op": "buy", "player": "Ann", "space": 19},
        {"op": "buy", "player": "Ann", "space": 21},
        {"op": "buy", "player": "Ann", "space": 23},
        {"op": "buy", "player": "Ann", "space": 24},
        {"op": "buy", "player": "Ann", "space": 25},
        {"op": "build", "player": "Ann", "space": 1, "each": 2},
        {"op": "build", "player": "Ann", "space": 6, "each": 1},
        {"op": "transfer", "from": "bank", "to": "Bob", "amount": 3000, "memo": "seed"},
        {"op": "buy", "player": "Bob", "space": 37},
        {"op": "buy", "player": "Bob", "space": 39},
        {"op": "build", "player": "Bob", "space": 39, "upto": 5},
        {"op": "transfer", "from": "Ann", "to": "bank", "amount": 3280, "memo": "drain"},
        {"op": "rent", "space": 39, "payer": "Ann"},
        {"op": "bankrupt", "player": "Ann"},
    ]
    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid", "Dan", "Eve"), edition="kyiv", commands=commands)
    app = BankerApp(path, lang="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command(f"скасувати #{len(commands)}")
        await b.settle()
        assert isinstance(app.screen, AskScreen)
        box = app.screen.query_one("#answer", Input)
        assert 0 < box.region.bottom <= app.size.height - 1, box.region
        body = app.screen.query_one(DialogBody)
        assert body.max_scroll_y > 0
        await b.key("pagedown")
        await pilot.pause()
        assert body.scroll_y > 0
        await b.key("escape")
        await b.settle()
        await b.act("u")
        await b.settle()
        assert isinstance(app.screen, UndoScreen)
        box = app.screen.query_one("#answer", Input)
        assert 0 < box.region.bottom <= app.size.height - 1, box.region
        entries = app.screen.query_one("#undo-entries", OptionList)
        assert entries.max_scroll_y > 0 and entries.region.bottom <= app.size.height - 1, entries.region
        await b.key("pagedown")  # the entries under it, which ↓ does not reach (each one the bankruptcy depends on)
        await pilot.pause()
        assert entries.scroll_y > 0
        await b.answer("wrong player")
        await b.confirm()
        assert file_entries(path)[-1]["command"]["op"] == "undo"
        assert file_entries(path)[-1]["command"]["reason"] == "wrong player"


@pytest.mark.parametrize("key", ["m", "d"])
async def test_while_a_debt_is_open_raising_cash_asks_for_the_debtor_first(midgame: Path, key: str) -> None:
    """Found playing: with Bob's debt open, `m` highlighted the first player, though nobody else is raising cash. A
    mortgage and a trade highlight the debtor first (a sale of buildings too, when the debtor has some); every player
    can still be chosen."""
    from textual.widgets import OptionList

    app = BankerApp(midgame, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert app.session.state.debts["Bob"]
        await b.act(key)
        await b.settle()
        options = app.screen.query_one(OptionList)
        assert str(options.get_option_at_index(options.highlighted).prompt).startswith("Bob"), key


@pytest.mark.parametrize("edition,lang,line,player", [
    ("ru", "ru", "карточка аня освобод", "Аня"), ("kyiv", "uk", "картка аня звільн", "Аня"),
    ("uk", "en", "card ann jail free", "Ann"),
])
async def test_a_card_the_lines_words_fit_in_both_decks_is_asked_among_those_two(tmp_path: Path, edition, lang,
                                                                                   line, player) -> None:
    """Found playing in tmux: 'картка олена звільн' on a Kyiv game (both decks print the Get Out of Jail Free text)
    asked "Which card?" among every card of both decks, the words typed forgotten: the banker scrolled some thirty
    cards to find the two. The card is asked among those the words fit, one of each deck, and the one picked is
    recorded."""
    path = make_session(tmp_path / "game.json", (player, "Bob"), edition=edition)
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command(line)
        await b.settle()
        shown = b.options()
        assert len(shown) == 2, shown
        decks = app.session.state.edition.decks
        assert shown[0].startswith(decks["chance"] + ":") and shown[1].startswith(decks["chest"] + ":"), shown
        await b.key("down", "enter")
        await b.settle()
        await b.confirm()
    assert file_entries(path)[-1]["command"] == {"op": "card", "player": player, "card": "cc-jail-free"}
