"""The console's own machinery: what the table shows follows the App, keys speak the banker's
language, the command line completes, and a long evening leaves no dead widgets behind."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from banker.ui.app import BankerApp
from banker.ui.messages import ActionRequested, Status
from banker.ui.screens.dialogs import ChooseScreen, ConfirmScreen
from banker.ui.screens.table import TableScreen
from banker.ui.widgets.footer import RELEASE_DELAY
from banker.ui.widgets.table import PlayerCard

from .ui_helpers import Banker, console, file_entries, make_session, screen_text


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_session(tmp_path / "game.json", commands=[{"op": "buy", "player": "Ann", "space": 39}])


async def test_the_table_shows_the_apps_status_and_version(game: Path) -> None:
    """The App owns what is shown: the message line follows ``status``, the table ``version``."""
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.status = Status("Hello, table", error=True)
        await pilot.pause()
        message = app.screen.query_one("#message")
        assert screen_text(message) == "Hello, table" and message.has_class("error")
        app.current_session.apply({"op": "salary", "player": "Bob"})  # recorded behind the console's back
        assert "$1,700" not in screen_text(app.screen.query_one("#player-1"))
        app.version += 1
        await pilot.pause()
        assert "$1,700" in screen_text(app.screen.query_one("#player-1"))


async def test_a_screen_asks_for_an_action_with_a_message(game: Path) -> None:
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        app.screen.post_message(ActionRequested("salary", {"player": "Cid"}))
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen)
        await b.confirm()
        assert file_entries(game)[-1]["command"] == {"op": "salary", "player": "Cid"}
        assert "Cid collects" in b.message()


async def test_a_table_left_below_keeps_its_own_session(game: Path, tmp_path: Path) -> None:
    """Another session opened over the table: actions go on in the new one, and the table below
    (another game, other players) is never drawn with the new game's figures."""
    other = make_session(tmp_path / "other.json", ("Kim", "Lee"))
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        below = app.screen
        assert app.open_session(other)
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen is not below
        await b.command("salary kim")
        await b.confirm()
        assert file_entries(other)[-1]["command"] == {"op": "salary", "player": "Kim"}
        assert "Kim collects" in b.message() and "internal" not in b.message().casefold()
        assert "$1,700" in screen_text(app.screen.query_one("#player-0"))
        assert "Ann" in str(below.query_one("#player-0").border_title)


async def test_tab_takes_the_command_lines_suggestion(game: Path) -> None:
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("colon")
        await b.type("rent boa")
        await pilot.pause()
        await b.key("tab")
        assert app.screen.query_one("#command").value == "rent boardwalk "
        await b.type("bo")
        await pilot.pause()
        await b.key("tab")
        assert app.screen.query_one("#command").value == "rent boardwalk Bob "


@pytest.mark.parametrize(("lang", "words"), [("en", ["Rent", "Buy", "Undo", "Help", "Quit"]),
                                             ("ru", ["Аренда", "Покупка", "Отменить", "Выход"])])
async def test_the_footer_speaks_the_bankers_language(game: Path, lang: str, words: list[str]) -> None:
    app = BankerApp(game, lang=lang)
    async with app.run_test(size=(160, 36)) as pilot:
        await pilot.pause()
        shown = [a.binding.description for a in app.screen.active_bindings.values() if a.binding.show]
        for word in words:
            assert any(d.startswith(word) for d in shown), (word, shown)


async def test_a_long_evening_leaves_no_footer_keys_behind(game: Path) -> None:
    """Textual's footer data-binds each key it shows to itself, and drops the binding of a removed
    key only when the bound value changes (textual#6666): without the console's workaround every
    dialog would leave the table's footer some thirty dead keys, kept alive for the rest of the game."""

    def footer_keys_alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o).__name__ == "FooterKey")

    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        for i in range(8):
            await b.act("s")
            assert isinstance(app.screen, ChooseScreen)
            await b.choose(("Ann", "Bob", "Cid")[i % 3])
            await b.confirm()
        await pilot.pause(RELEASE_DELAY * 3)  # the removed widgets' lines are let go a moment later
        assert len(file_entries(game)) == 9
        mounted = len(app.screen.query("FooterKey"))
        assert mounted and footer_keys_alive() <= mounted + 5


async def test_an_action_re_draws_only_the_part_of_a_card_it_changed(game: Path) -> None:
    """Issue #14 (a key answers within a frame): a player's card is its cash (and debts, jail cards) above its
    deeds, each laid out anew only when what it shows changes. A salary moves cash alone: Ann's deeds keep the
    lines drawn for them and only the cash's lines are re-drawn, not the whole card; a mortgage changes her
    deeds, which are laid out anew."""
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        card = app.screen.query_one("#player-0", PlayerCard)
        width = card.line_width
        deeds, facts = card.deeds_lines(width), card.facts_lines(width)
        assert any("Boardwalk" in line.text for line in deeds)
        redrawn: list[object] = []
        for name in ("refresh", "refresh_lines"):
            def spy(*args, _real=getattr(card, name), _name=name, **kwargs):
                redrawn.append((_name, *args))
                return _real(*args, **kwargs)
            setattr(card, name, spy)
        await b.command("salary ann")
        await b.confirm()
        assert "$1,300" in screen_text(card)  # 1,500 - 400 + 200
        assert card.deeds_lines(width) is deeds and card.facts_lines(width) is not facts
        # the cash's line alone (refresh_lines marks that line's region for Textual to draw), not the whole card
        assert redrawn[0] == ("refresh_lines", 0, 1)
        assert all(name == "refresh" and len(regions) == 1 and regions[0].height == 1 for name, *regions in redrawn[1:])
        assert "$1,300" in card.facts_lines(width)[0].text
        redrawn.clear()
        await b.command("mortgage boardwalk")
        await b.confirm()
        assert card.deeds_lines(width) is not deeds and any("(M)" in line.text for line in card.deeds_lines(width))
        assert ("refresh",) in redrawn
        assert "$1,500" in screen_text(card)  # 1,300 + 200 borrowed on Boardwalk

async def test_a_card_whose_deeds_do_not_fit_scrolls_and_a_debt_wraps_in_it(tmp_path: Path) -> None:
    """A card draws its own lines (issue #14): when they do not fit it shows a scroll bar, its lines leave room
    for it, and scrolling shows the last deeds; a fact too long for a narrow card wraps (never cut), and the
    lines to scroll through count its wrapped lines."""
    from textual import events
    from textual.geometry import Region

    spaces = [1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24]  # every lot from Mediterranean to Illinois
    cmds = [{"op": "transfer", "from": "bank", "to": "Ann", "amount": 5_000, "memo": "x"}]
    cmds += [{"op": "buy", "player": "Ann", "space": s} for s in spaces]
    cmds += [{"op": "transfer", "from": "Bob", "to": "bank", "amount": 1_450, "memo": "x"}]  # Bob keeps $50
    path = make_session(tmp_path / "game.json", ("Ann", "Bob", "Cid", "Dee", "Eve"), commands=cmds)
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        card = app.screen.query_one("#player-0", PlayerCard)

        def shown() -> list[str]:
            height = card.scrollable_content_region.height
            drawn = card.render_lines(Region(0, 0, card.outer_size.width, card.outer_size.height))
            return [strip.text for strip in drawn][1:height + 1]  # inside the border

        assert card.show_vertical_scrollbar and card.virtual_size.height == 1 + len(spaces)
        assert card.line_width == card.size.width - card.scrollbar_size_vertical
        assert "Mediterr" in "".join(shown()) and "Illin" not in "".join(shown())
        await pilot.click("#player-0")
        assert app.focused is None  # a click on a card leaves every letter an action key
        for _ in range(20):  # the mouse wheel scrolls it
            card.post_message(events.MouseScrollDown(card, 3, 3, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert card.scroll_y == card.max_scroll_y > 0
        assert "Illin" in "".join(shown()) and "$4,380" not in "".join(shown())
        bob = app.screen.query_one("#player-1", PlayerCard)
        assert not bob.show_vertical_scrollbar
        await Banker(app, pilot).command("tax luxury bob")  # $75 with $50 in hand: Bob owes the bank $25
        await Banker(app, pilot).confirm()
        facts = bob.facts_lines(bob.line_width)
        assert "owes" in facts[1].text and len(facts) > 2, [f.text for f in facts]  # wrapped, not cut
        assert bob.virtual_size.height == len(facts)


async def test_a_card_looks_at_its_width_once_for_the_lines_drawn_at_a_time(tmp_path: Path, monkeypatch) -> None:
    """Textual asks a card for its lines one at a time; the card works its width, style and scroll out once for all
    the lines drawn at a time (issue #14: each look is a region's arithmetic and a style's comparison, and a new table
    asked for every line of every card before its first frame), and the lines are those drawn a line at a time."""
    from textual.geometry import Region

    path = make_session(tmp_path / "game.json", ("Ann", "Bob", "Cid"),
                        commands=[{"op": "buy", "player": "Ann", "space": s} for s in (1, 3, 6)])
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        card = app.screen.query_one("#player-0", PlayerCard)
        whole = Region(0, 0, card.outer_size.width, card.outer_size.height)
        one_at_a_time = [card.render_line(y).text for y in range(card.size.height)]
        looks = []
        width = PlayerCard.line_width
        monkeypatch.setattr(PlayerCard, "line_width", property(lambda self: looks.append(1) or width.fget(self)))
        card._styles_cache.clear()  # every line drawn anew
        drawn = [strip.text for strip in card.render_lines(whole)]
        assert len(looks) == 1 and len(drawn) == card.outer_size.height > 20
        assert [line[2:-1].rstrip() for line in drawn[1:card.size.height + 1]] == [line.rstrip() for line in one_at_a_time]
        assert "Mediterranean" in "".join(drawn)


def _burst(app: BankerApp, text: str) -> None:
    """``text`` typed in one burst, as a terminal hands a paste or a laggy link's keys over: every key posted at once,
    as the driver's input thread posts them, none waiting for the one before to be handled."""
    from textual import events
    from textual.keys import _character_to_key

    for ch in text:
        key = events.Key(_character_to_key(ch) if not ch.isalnum() else ch, ch)
        key.set_sender(app)
        app._driver.send_message(key)


@pytest.mark.parametrize("typed", [":salary", ":rent ve bob", "/sy"])
async def test_what_is_typed_after_the_colon_in_one_burst_goes_to_the_command_line(game: Path, typed: str) -> None:
    """docs/console.md: "`:` moves to the command line". A burst (a paste, keys a laggy SSH link delivers at once):
    the letters after `:` were taken as the table's action keys while the line was still to be focused (`s` opened
    the salary, `y` confirmed it: an entry nobody confirmed; `v` opened the review over a dialog). Every letter goes
    to the line; nothing opens and nothing is recorded."""
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        seen = len(file_entries(game))
        _burst(app, typed)
        for _ in range(5):
            await pilot.pause(0.05)
        assert isinstance(app.screen, TableScreen), app.screen
        line = app.screen.query_one("#command")
        assert app.screen.focused is line and line.value == typed[1:]
        _burst(app, ":/Ж.")  # in the line, the keys that focus it are letters (a Cyrillic layout's too)
        await pilot.pause(0.05)
        assert line.value == typed[1:] + ":/Ж."
        assert len(file_entries(game)) == seen


@pytest.mark.parametrize("edition,lang,players", [
    ("classic-us", "en", ("Ann", "Bob", "Cid")), ("uk", "en", ("Kim", "Lee")), ("ru", "ru", ("Аня", "Борис", "Вика")),
    ("kyiv", "uk", ("Олена", "Борис 🎩")), ("classic-us", "ru", ("Аня", "🦄")),
])
def test_the_command_lines_example_is_one_it_takes_on_this_table(edition, lang, players) -> None:
    """Found playing in tmux: the Russian example said "аренда арбат боря" at a table of Аня, Борис and Вика, and
    typing it gave "«боря» is neither a player nor a space". The example names this board's last street and a
    player of this game, in the interface's words, and the line takes it."""
    from banker.boards import new_game
    from banker.i18n import Translator
    from banker.ui.quick import parse
    from banker.ui.screens.table import command_example

    g = new_game(edition, "classic", players, None)
    example = command_example(g, Translator(lang))
    assert parse(g, example).command == {"op": "rent", "space": 39, "payer": players[-1]}, example


#: a Kyiv table whose names are none of the catalogs' (a player named with a symbol too)
KYIV_TABLE = ("Олена", "Борис 🎩", "Ярема")


async def help_text(tmp_path: Path, lang: str, part: str, size: tuple[int, int]) -> str:
    """The words of the help's ``part`` opened on a new Kyiv game of :data:`KYIV_TABLE`, in ``lang``."""
    from banker.ui.screens.help import HelpScreen

    path = make_session(tmp_path / "g.json", KYIV_TABLE, edition="kyiv")
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.action_help()
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        return " ".join(screen_text(app.screen.query_one(part)).split())


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_the_helps_command_line_examples_are_lines_this_table_takes(tmp_path: Path, lang: str) -> None:
    """The help's examples named one board and its players ("аренда арбат боря", "оренда хрещатик богдан"): typed on
    another board or at another table, "«боря» is neither a player nor a space". On a Kyiv game of Олена, Борис 🎩
    and Ярема each example the help shows is a line the command line reads as it says, in the interface's words,
    naming this board's spaces and these players."""
    from banker.boards import new_game
    from banker.i18n import Translator
    from banker.ui.examples import examples
    from banker.ui.quick import parse, typed_verb

    players = KYIV_TABLE
    shown = await help_text(tmp_path, lang, "#help-quick", (160, 60))
    g = new_game("kyiv", "classic", players, None)
    made = examples(g, Translator(lang))
    ops = ["rent", "rent", "build", "sell_building", "mortgage", "buy", "auction", "tax", "card", "transfer", "undo",
           "jail_fine", "end_game"]
    assert [e.command["op"] for e in made] == ops  # none left out on this table
    for example in made:
        assert example.line in shown, (example.line, shown)
        assert example.line.split()[0] == typed_verb(example.command["op"], lang) or example.command["op"] == "rent"
        command = parse(g, example.line).command
        assert {k: command.get(k) for k in example.command} == example.command, example.line
    named = {made[0].command["payer"], made[1].command["payer"], made[6].command["winner"]}
    assert named == set(players)
    assert made[0].command["space"] == 39 and made[6].command["space"] == 1  # Хрещатик, Троєщина
    for stale in ("боря", "вика", "богдан", "віка", "аня", "bob", "cid", "арбат", "рижская"):
        assert stale not in shown.casefold().split(), stale


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_the_helps_command_key_row_names_this_tables_board_and_players(tmp_path: Path, lang: str) -> None:
    """Found playing in tmux: the help's key row for ":" still said "введите действие: аренда арбат боря, строить арбат,
    налог подоходный аня" (en "rent boardwalk bob, build park, tax income ann flat", uk "оренда хрещатик богдан...")
    on any board and at any table, right above the examples made on the game. The row now gives the game's own rent,
    build and tax lines, each one the command line reads as it says."""
    from banker.boards import new_game
    from banker.i18n import Translator
    from banker.ui.examples import examples
    from banker.ui.quick import parse

    players = KYIV_TABLE
    keys = await help_text(tmp_path, lang, "#help-keys", (200, 80))  # the key rows
    for stale in ("боря", "богдан", "аня", "bob", "ann", "boardwalk", "park,", "арбат", "flat"):
        assert stale not in keys.casefold().split(), (stale, keys)
    g = new_game("kyiv", "classic", players, None)
    made = {e.command["op"]: e for e in reversed(examples(g, Translator(lang)))}  # the first of each op
    row = Translator(lang)("help.command", examples=", ".join(made[op].line for op in ("rent", "build", "tax")))
    assert " ".join(row.split()) in keys, (row, keys)
    for op in ("rent", "build", "tax"):
        command = parse(g, made[op].line).command
        assert {k: command.get(k) for k in made[op].command} == made[op].command, made[op].line


async def test_the_help_without_a_game_shows_examples_of_a_new_game(tmp_path: Path) -> None:
    """With no game open the help's examples are made on a new game as the start screen offers one (its board in
    the banker's language, its suggested players), and the line reads each as it says."""
    from banker.i18n import Translator
    from banker.ui.examples import examples
    from banker.ui.quick import parse
    from banker.ui.screens.help import HelpScreen, example_game

    app = BankerApp(None, lang="uk", data_dir=tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.pause()
        app.push_screen(HelpScreen(None))
        for _ in range(5):
            await pilot.pause()
        shown = " ".join(screen_text(app.screen.query_one("#help-quick")).split())
    g = example_game(Translator("uk"))
    assert g.edition.language == "uk"
    made = examples(g, Translator("uk"))
    assert len(made) >= 12
    for example in made:
        assert example.line in shown
        command = parse(g, example.line).command
        assert {k: command.get(k) for k in example.command} == example.command, example.line


async def test_a_name_with_a_control_character_never_reaches_the_terminal(tmp_path: Path) -> None:
    """Found by a probe: a session named "Fri ESC ] 0 ; OWNED BEL day" set the terminal's title when the console showed
    its header (Textual writes what a widget holds as it is). A session recorded before today's name rules opens as it
    was (tests/test_inputs.py), and the console writes such a character as \\uXXXX: the header, the players' cards,
    the log."""
    from banker.ledger import Session
    from banker.rules import Setup

    path = tmp_path / "old.json"
    players = ("Ann", "B\x1b[31mob")
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Setup, "for_new_game", lambda self: self)  # as created before the rules
        with Session.create(path, Setup("classic-us", "classic", players), name="Fri\x1b]0;OWNED\x07day") as s:
            s.apply({"op": "salary", "player": "B\x1b[31mob"})
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        header = screen_text(app.screen.query_one("#table-header"))
        cards = [str(card.border_title) for card in app.screen.query(PlayerCard)]
        log = screen_text(app.screen.query_one("#log"))
        shown = " ".join([header, *cards, log])
        assert "\x1b" not in shown and "\x07" not in shown
        assert "Fri\\u001b]0;OWNED\\u0007day" in header and "B\\u001b[31mob" in cards[1] and "B\\u001b[31mob" in log


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_deeds_mark_never_touches_its_name(tmp_path: Path, lang: str) -> None:
    """Found by the rules probe at 120x36 with five players: a name that filled its column ran into the mark, and
    "Connecticut AvenueH", "Reading Railroad(M)", "Virginia Avenue⌂⌂⌂⌂" read as one word. A blank always parts them
    (the name is cut with "…" sooner)."""
    cmds = [{"op": "transfer", "from": "bank", "to": "Dee", "amount": 5000, "memo": "x"}]
    cmds += [{"op": "buy", "player": "Dee", "space": s} for s in (5, 6, 8, 9, 11, 13, 14)]
    cmds += [{"op": "build", "player": "Dee", "space": 6, "upto": 5}, {"op": "build", "player": "Dee", "space": 11, "upto": 4},
             {"op": "mortgage", "player": "Dee", "space": 5}]
    path = make_session(tmp_path / "game.json", ("Ann", "Bob", "Cid", "Dee", "Eve"), commands=cmds)
    async with console(path, lang) as (app, _b):
        card = app.screen.query_one("#player-3", PlayerCard)
        lines = [strip.text.rstrip() for strip in card.deeds_lines(card.line_width)]
        marks = (app.tr("deed.mortgaged_mark"), app.tr("deed.hotel_mark"), "⌂")
        assert len(lines) == 7
        for line in lines:
            mark = next(m for m in marks if m in line)
            before = line[:line.index(mark)]
            assert before.endswith(" "), lines


async def test_a_session_on_a_board_whose_colour_the_console_cannot_draw_still_opens(tmp_path: Path, monkeypatch) -> None:
    """Found by the second-opinion probe: a group colour Rich does not know ("aliceblue") is refused for a new game
    since the board checks (banker.boards.check_board), but a session recorded on such a board before them (a session
    opens on its board as it was) stopped the console with "MissingStyle: Failed to get style 'aliceblue'" as soon as
    a deed of the group was owned: the table, the review's summary, its count and its board. The deeds of that group
    are marked as a deed of no group is (white); the board's other colours are drawn as ever."""
    from importlib import resources

    import banker.boards
    from banker.boards import game_from_setup
    from banker.ledger import read_session
    from banker.ui.widgets.table import NO_COLOR, group_color

    board = tmp_path / "us-aliceblue.toml"
    text = (resources.files("banker.boards") / "classic-us.toml").read_text(encoding="utf-8")
    board.write_text(text.replace('color = "#8b4513"', 'color = "aliceblue"', 1), encoding="utf-8")
    with monkeypatch.context() as m:  # a banker before the colour check recorded it
        m.setattr(banker.boards, "_color_problem", lambda edition: None)
        path = make_session(tmp_path / "game.json", ("Ann", "Bob"), edition=str(board), commands=[
            {"op": "follow", "on": True}, {"op": "roll", "dice": [1, 2]}, {"op": "buy", "player": "Ann", "space": 3},
            {"op": "end_turn"}, {"op": "buy", "player": "Ann", "space": 1}, {"op": "buy", "player": "Bob", "space": 6},
            {"op": "rent", "payer": "Bob", "space": 1}])
    edition = game_from_setup(read_session(path).setup).edition
    assert group_color(edition, "brown") == NO_COLOR and group_color(edition, "light_blue") == "#87ceeb"
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert "Mediterranean Avenue" in screen_text(app.screen.query_one("#player-0"))
    app = BankerApp(path, lang="ru", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        for key, shown in (("3", "#review-summary"), ("4", "#review-count"), ("6", "#review-heat")):
            await pilot.press(key)
            await pilot.pause()
            assert screen_text(app.screen.query_one(shown)), shown
        assert "Коричневая" in screen_text(app.screen.query_one("#review-summary"))
