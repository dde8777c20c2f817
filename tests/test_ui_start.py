"""The start screen: a new game refused on bad input without writing anything, and the
resume list of recent sessions."""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from banker.i18n import visible
from banker.ui.app import BankerApp
from banker.ui.screens.start import StartScreen
from banker.ui.screens.table import TableScreen

from .ui_helpers import Banker, file_state, make_session, screen_text


async def test_a_bad_player_list_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert app.focused is app.screen.query_one("#player-names")  # the players, ready to type
        await b.key("ctrl+a", "ctrl+k")
        await b.type("Ann, ann")
        await b.key("ctrl+n")
        assert isinstance(app.screen, StartScreen)
        error = screen_text(app.screen.query_one("#start-error"))
        assert error == 'Two players are called "ann"; names must differ'
        assert list(tmp_path.iterdir()) == []
        await b.key("ctrl+a", "ctrl+k")
        await b.type("Solo")
        await b.key("ctrl+n")
        assert "2" in screen_text(app.screen.query_one("#start-error"))
        assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("field", ["player-names", "name", "edition", "follow"])
async def test_a_refusal_goes_when_the_banker_edits_a_field(tmp_path: Path, field: str) -> None:
    """Found playing: after a refusal ("Two players are called 'ann'") the message stayed under the form while the
    banker fixed the names, until the next ctrl+n, as if the fix were refused too. Editing a field (the one it was
    about, or any other) takes the stale refusal away; ctrl+n says it again when it still holds."""
    from textual.widgets import Checkbox, Select

    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("ctrl+a", "ctrl+k")
        await b.type("Ann, ann")
        await b.key("ctrl+n")
        error = app.screen.query_one("#start-error")
        assert screen_text(error) == 'Two players are called "ann"; names must differ'
        if field == "player-names":
            await b.key("backspace", "backspace", "backspace")
            await b.type("Bob")
        elif field == "name":
            app.screen.query_one("#name", Input).focus()
            await b.type("x")
        elif field == "edition":
            app.screen.query_one("#edition", Select).value = "uk"
        else:
            checkbox = app.screen.query_one("#follow", Checkbox)
            checkbox.value = not checkbox.value
        await pilot.pause()
        assert screen_text(error) == ""
        assert list(tmp_path.iterdir()) == []
        if field != "player-names":  # still two Anns: said again by ctrl+n
            await b.key("ctrl+n")
            assert screen_text(error) == 'Two players are called "ann"; names must differ'


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_at_80x24_a_refusal_and_the_start_button_are_in_sight(tmp_path: Path, lang: str) -> None:
    """Found by the start screen probe: at 80x24 in Russian and Ukrainian, a bad end time or two players of one name
    was refused below the fold, with the Start button: ctrl+n seemed to do nothing. A session name with a control
    character is said with the field's label (it said 'new: "name" holds ...')."""
    from textual.widgets import Button

    app = BankerApp(lang=lang, data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        screen = app.screen
        screen.query_one("#player-names", Input).value = "Аня, аня"
        await b.key("ctrl+n")
        await pilot.pause()
        for widget in (screen.query_one("#start-error"), screen.query_one("#go", Button)):
            assert widget.region.height and screen.region.contains_region(widget.region), widget
            assert widget.region.bottom <= screen.query_one("#new-game").region.bottom, widget  # not under the fold
        screen.query_one("#player-names", Input).value = "Аня, Боря"
        screen.query_one("#name", Input).value = "Вечер\x01"
        await b.key("ctrl+n")
        error = screen_text(screen.query_one("#start-error"))
        assert error.startswith({"ru": "Название сессии: ", "uk": "Назва сесії: "}[lang]) and "U+0001" in error, error
        assert '"name"' not in error and list(tmp_path.iterdir()) == []


async def test_the_start_screen_refuses_a_name_a_new_game_cannot_take(tmp_path: Path) -> None:
    """Issue #9: the same name rules as `banker new` (here the bank's word and an invisible character)."""
    app = BankerApp(lang="ru", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("ctrl+a", "ctrl+k")
        await b.type("Аня, Банк")
        await b.key("ctrl+n")
        assert isinstance(app.screen, StartScreen)
        error = screen_text(app.screen.query_one("#start-error"))
        assert error == "Имя «Банк» зарезервировано за банком; выберите другое имя игрока"
        app.screen.query_one("#player-names", Input).value = "Аня, Бо\u200bря"  # pasted: a key cannot type it
        await b.key("ctrl+n")
        error = screen_text(app.screen.query_one("#start-error"))
        assert "есть управляющий или невидимый символ (U+200B)" in error
        app.screen.query_one("#player-names", Input).value = "Аня,,Боря"  # a name left out: never dropped
        await b.key("ctrl+n")
        assert screen_text(app.screen.query_one("#start-error")) == "Между двумя запятыми нет имени: укажите имя " \
                                                                    "каждого игрока."
        assert list(tmp_path.iterdir()) == []


async def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    taken = make_session(tmp_path / "taken.json", commands=[{"op": "buy", "player": "Ann", "space": 39}])
    before = taken.read_bytes()
    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await pilot.click("#path")
        await b.type(str(taken))
        await b.key("ctrl+n")
        assert isinstance(app.screen, StartScreen)
        assert "already exists" in screen_text(app.screen.query_one("#start-error"))
    assert taken.read_bytes() == before


async def test_resume_lists_recent_sessions_and_opens_one(tmp_path: Path) -> None:
    make_session(tmp_path / "older.json", name="Older game")
    make_session(tmp_path / "friday.json", ("Ann", "Bob", "Cid"), name="Friday game",
                 commands=[{"op": "buy", "player": "Bob", "space": 5}])
    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        recent = app.screen.query_one("#recent", OptionList)
        shown = [str(recent.get_option_at_index(i).prompt) for i in range(recent.option_count)]
        friday = next(s for s in shown if s.startswith("Friday game"))
        assert "Ann, Bob, Cid" in friday and "Bob buys Reading Railroad" in friday
        # the edition as its board names it, not its id; a line each thing, cut at the list's width, never wrapped
        assert "Monopoly — US classic (Atlantic City)" in friday and "classic-us" not in friday
        assert recent.has_class("-games") and recent.styles.text_wrap == "nowrap"
        assert recent.styles.text_overflow == "ellipsis"
        assert any(s.startswith("Older game") for s in shown)
        await b.key("ctrl+r")
        for _ in range(recent.option_count):
            if str(recent.get_option_at_index(recent.highlighted).prompt).startswith("Friday"):
                break
            await b.key("down")
        await b.key("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session.path == tmp_path / "friday.json"
        assert "Bob buys Reading Railroad" in screen_text(app.screen.query_one("#log"))
    assert file_state(tmp_path / "friday.json")["spaces"]["5"]["owner"] == "Bob"


async def test_a_session_that_cannot_be_read_is_listed_with_why_not_left_out(tmp_path: Path) -> None:
    """Found by a probe: a damaged session (here truncated) was left out of the resume list without a word, so the
    evening's game seemed to vanish. It is listed, saying why it cannot be read; another program's JSON is not."""
    make_session(tmp_path / "good.json", name="Good game")
    broken = make_session(tmp_path / "broken.json", name="Broken game", commands=[{"op": "buy", "player": "Ann",
                                                                                    "space": 39}])
    broken.write_bytes(broken.read_bytes()[:-40])
    (tmp_path / "settings.json").write_text('{"theme": "dark"}')
    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        recent = app.screen.query_one("#recent", OptionList)
        shown = [str(recent.get_option_at_index(i).prompt) for i in range(recent.option_count)]
        assert len(shown) == 2 and any(s.startswith("Good game") for s in shown)
        damaged = next(s for s in shown if s.startswith("broken"))
        assert "cannot be opened: not JSON" in damaged and "is not a banker session" not in damaged, damaged


@pytest.mark.parametrize("lang,said", [("ru", "Боря покупает участок Рижская"), ("uk", "Боря купує ділянку Рижская")])
async def test_the_resume_list_says_the_last_action_in_the_interfaces_language(tmp_path: Path, lang: str,
                                                                               said: str) -> None:
    """Found playing in tmux: the list said the last action in English ("Вика pays Аня 90 т.р.") on a Russian or
    Ukrainian console; it is said from the entry's description, in the interface's language."""
    make_session(tmp_path / "g.json", ("Аня", "Боря"), edition="ru", name="Пятница",
                 commands=[{"op": "buy", "player": "Боря", "space": 5}])
    app = BankerApp(lang=lang, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        recent = app.screen.query_one("#recent", OptionList)
        shown = str(recent.get_option_at_index(0).prompt)
        assert said in shown and "buys" not in shown, shown


async def test_two_games_of_the_same_name_on_the_same_day_never_collide(tmp_path: Path, monkeypatch) -> None:
    """The data folder names a new session after the date and the game's name: a name already taken (by a
    session, a leftover journal, even a dangling link) is skipped, and so is one that another console takes
    at the very moment this one creates it (Session.create refuses it; the next number is tried)."""
    from banker.ledger import Session
    from banker.rules import Setup

    today = date.today().isoformat()
    first = make_session(tmp_path / f"{today}-game-night.json", name="Game night",
                         commands=[{"op": "buy", "player": "Ann", "space": 39}])
    before = first.read_bytes()
    leftover = tmp_path / f"{today}-game-night-2.json.journal"
    leftover.write_bytes(b"a journal whose session was moved away\n")
    os.symlink(tmp_path / "nowhere.json", tmp_path / f"{today}-game-night-3.json")
    real_create = Session.create.__func__

    def racing(cls, path, setup, name=None):
        if path.name == f"{today}-game-night-4.json":  # the other console is a moment faster
            real_create(cls, path, Setup("classic-us", "classic", ("Kim", "Lee")), name="The other console").close()
        return real_create(cls, path, setup, name=name)

    monkeypatch.setattr(Session, "create", classmethod(racing))
    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("ctrl+n")  # the form as it comes: "Game night", Ann, Bob, Cid
        await pilot.pause()
        assert isinstance(app.screen, TableScreen), screen_text(app.screen.query_one("#start-error"))
        assert app.session.path == tmp_path / f"{today}-game-night-5.json"
    assert first.read_bytes() == before
    assert leftover.read_bytes() == b"a journal whose session was moved away\n"
    assert os.path.islink(tmp_path / f"{today}-game-night-3.json") and not (tmp_path / "nowhere.json").exists()
    with Session.open(tmp_path / f"{today}-game-night-4.json", readonly=True) as other:
        assert other.name == "The other console" and other.state.players == ("Kim", "Lee")
    assert file_state(tmp_path / f"{today}-game-night-5.json")["order"] == ["Ann", "Bob", "Cid"]


def test_the_resume_list_names_an_edition_it_has_no_board_for_as_the_file_does() -> None:
    """A session of an edition this version has no board for (a newer version's, a hand edit) is listed with what
    its file says, made visible, never a crash."""
    from banker.ui.screens.start import edition_name

    assert edition_name("ru") == "Монополия — Москва (Hasbro 2004)"
    assert edition_name("mars-2099") == "mars-2099"
    assert edition_name("x\x1b[2Jy") == visible("x\x1b[2Jy") != "x\x1b[2Jy"
    assert edition_name(None) == "" and edition_name(7) == "7"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_a_file_that_cannot_be_made_is_said_in_the_tables_language_and_kept(tmp_path: Path, lang: str) -> None:
    """Found by the hardest-user probe: a File of "~nobody/x.json" (no such user) crashed the console (the
    RuntimeError of ``expanduser``), the whole form lost; a file under a file ("notes.txt/x.json") was refused with
    the system's English "File exists" in every language, which is not even what is wrong."""
    from banker.i18n import Translator

    tr = Translator(lang)
    (tmp_path / "notes.txt").write_text("not a folder")
    app = BankerApp(lang=lang, data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        path = app.screen.query_one("#path", Input)
        path.value = "~no-such-user-xq/friday.json"
        await b.key("ctrl+n")
        assert isinstance(app.screen, StartScreen)
        error = screen_text(app.screen.query_one("#start-error"))
        assert error == tr("start.cannot_create", path="~no-such-user-xq/friday.json",
                           error=tr("start.no_user", user="no-such-user-xq")), error
        assert path.value == "~no-such-user-xq/friday.json"  # kept, to correct
        under_file = str(tmp_path / "notes.txt" / "x.json")
        path.value = under_file
        await b.key("ctrl+n")
        error = screen_text(app.screen.query_one("#start-error"))
        assert error == tr("start.cannot_create", path=under_file, error=tr("session.os_ENOTDIR")), error
        assert "File exists" not in error and path.value == under_file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


async def test_a_name_that_is_an_emoji_zwj_sequence_starts_a_game_and_shows_as_one_glyph(tmp_path: Path) -> None:
    """ "👩‍🚀 Ann" (woman, zero-width joiner, rocket: one astronaut) was refused as holding an invisible character. Pasted
    into the form (Textual's Input drops a typed U+200D key; a paste keeps it), it starts the game, and the table shows
    it whole: each panel as wide as the others by Textual's cell widths (the sequence is one glyph of two cells, as
    tmux draws it), the joiner never written out as \\u200d."""
    from rich.cells import cell_len
    from textual import events

    app = BankerApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        field = app.screen.query_one("#player-names", Input)
        field.value = ""
        field.post_message(events.Paste("👩\u200d🚀 Ann, 👨\u200d👩\u200d👧, Bob"))
        await pilot.pause()
        await b.key("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen), screen_text(app.screen.query_one("#start-error"))
        assert app.session.state.players == ("👩\u200d🚀 Ann", "👨\u200d👩\u200d👧", "Bob")
        lines = ["".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips()]
        assert "\\u200d" not in "".join(lines) and all(cell_len(line) == 120 for line in lines)
        titles = next(line for line in lines if "╭─ 👨\u200d👩\u200d👧 ─" in line)  # the three players' panels
        assert "═ ▶ 👩\u200d🚀 Ann ═" in titles and "╭─ Bob ─" in titles  # Ann's turn first: her panel stands out
        panels = [cell_len(part) for part in re.split("[╗╮]", titles)[:3]]
        assert len(set(panels)) == 1, titles  # three panels of one width
