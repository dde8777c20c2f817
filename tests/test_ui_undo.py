"""The console's undo: of the last entry (``u``, the reason, Enter, Enter), or of an earlier one named by its number
(``undo #3 wrong house`` on the command line, ``#3 …`` as the reason ``u`` asks for); its keys say what they do."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import AskScreen, ConfirmScreen
from banker.ui.screens.table import TableScreen
from banker.ui.screens.undo import UndoScreen

from .ui_helpers import Banker, console, file_entries, file_state, make_session, screen_text


@asynccontextmanager
async def undo_asked(path: Path, lang: str, size: tuple[int, int] = (120, 36)) -> AsyncIterator[tuple[BankerApp, Banker]]:
    """The console on ``path`` at ``size``, ``u`` pressed: the undo's question over the log's latest actions."""
    async with console(path, lang, size) as (app, b):
        await b.act("u")
        await b.settle()
        yield app, b

#: 1 and 2 stand on their own; 4 is a payment Ann could make only with the $100 of 3
COMMANDS = [{"op": "buy", "player": "Ann", "space": 1},
            {"op": "buy", "player": "Bob", "space": 3},
            {"op": "transfer", "from": "bank", "to": "Ann", "amount": 100, "memo": "x"},
            {"op": "transfer", "from": "Ann", "to": "Cid", "amount": 1500, "memo": "y"}]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_session(tmp_path / "game.json", ("Ann", "Bob", "Cid"), commands=COMMANDS)


def body(b: Banker) -> list[str]:
    assert isinstance(b.screen, ConfirmScreen), f"expected the confirmation, got {type(b.screen).__name__}"
    return screen_text(b.screen.query_one("#confirm-body")).splitlines()


def escape_says(b: Banker) -> str:
    return str(b.screen.active_bindings["escape"].binding.description)


@pytest.mark.parametrize(("lang", "line", "reason"), [("en", "undo #1 wrong deed", "wrong deed"),
                                                      ("ru", "отмена #1 не та улица", "не та улица"),
                                                      ("uk", "скасувати #1 не та вулиця", "не та вулиця")])
async def test_the_command_line_undoes_the_entry_its_number_names(game: Path, lang: str, line: str, reason: str) -> None:
    """Found by a probe: `undo #3 wrong house` undid the LAST entry, "#3 wrong house" its reason. The number first
    names the entry; the confirmation names it and what it did; the later entries stand."""
    async with console(game, lang) as (app, b):
        await b.command(line)
        await b.settle()
        said = body(b)
        assert said[1] == "#1 " + app.tr.entry(file_entries(game)[0])
        assert said[2] == app.tr("undo.later_stand") and said[-1] == app.tr("undo.reason_line", reason=reason)
        await b.confirm()
        entry = file_entries(game)[-1]
        assert entry["command"] == {"op": "undo", "reason": reason, "seq": 1} and entry["undoes"] == 1
        state = file_state(game)
        assert state["spaces"]["1"]["owner"] is None and state["spaces"]["3"]["owner"] == "Bob"


#: Bob's house on Baltic Avenue (entry 3) needs both browns: entry 2 cannot be undone alone
BROWNS = [{"op": "buy", "player": "Bob", "space": 1}, {"op": "buy", "player": "Bob", "space": 3},
          {"op": "build", "player": "Bob", "space": 3}]


@pytest.mark.parametrize(("lang", "line", "commands", "said"), [
    ("en", "undo #3 wrong", COMMANDS, "Entry 3 cannot be undone on its own: entry 4 depends on it (undo that first)"),
    ("uk", "скасувати #3 помилка", COMMANDS,
     "Запис 3 не можна скасувати окремо: від нього залежить запис 4 (спершу скасуйте його)"),
    ("ru", "отмена #9 ошибка", COMMANDS, "Запись 9 нельзя отменить: это не действующее действие"),
    ("uk", "скасувати #2", BROWNS, "Запис 2 не можна скасувати окремо"),  # said before the reason is asked
])
async def test_an_entry_that_cannot_be_undone_is_refused_in_the_tables_language(tmp_path: Path, lang: str, line: str,
                                                                               commands: list, said: str) -> None:
    """The engine's refusal (the entry does not stand; later entries depend on it, named) before anything is asked,
    in the table's language; nothing is recorded."""
    path = make_session(tmp_path / "game.json", ("Ann", "Bob", "Cid"), commands=commands)
    async with console(path, lang) as (app, b):
        await b.command(line)
        await b.settle()
        assert isinstance(b.screen, TableScreen)
        assert b.message().startswith(said), b.message()
    assert len(file_entries(path)) == len(commands)


async def test_u_takes_an_earlier_entrys_number_typed_before_the_reason(game: Path) -> None:
    """`u` asks the reason for undoing the last entry, and says how to name an earlier one instead; `#1 wrong deed`
    undoes entry 1. Plain `u`, the reason, Enter, Enter still undoes the last."""
    async with console(game, "en") as (app, b):
        await b.act("u")
        await b.settle()
        assert isinstance(b.screen, AskScreen)
        # the example names an entry that can be undone: #2 (entry 4 depends on #3, the one before the last)
        assert screen_text(b.screen.query_one("#undo-listed")) == app.tr("undo.listed", seq=2)
        await b.answer("#1 wrong deed")
        assert body(b)[1].startswith("#1 Ann buys Mediterranean Avenue")
        await b.confirm()
        assert file_entries(game)[-1]["command"] == {"op": "undo", "reason": "wrong deed", "seq": 1}
        # the last, as before: no number typed, none recorded
        await b.act("u")
        await b.settle()
        await b.answer("paid Bob")
        assert body(b)[1] == "#4 " + app.tr.entry(file_entries(game)[3])
        await b.confirm()
        assert file_entries(game)[-1]["command"] == {"op": "undo", "reason": "paid Bob"}
        assert file_entries(game)[-1]["undoes"] == 4
        # `#3` alone: the reason is asked for entry 3, quoting it
        await b.act("u")
        await b.settle()
        await b.answer("#3")
        assert isinstance(b.screen, AskScreen) and "$100" in b.screen.prompt_text
        await b.answer("no bonus")
        assert body(b)[1].startswith("#3 ")
        await b.confirm()
        assert file_entries(game)[-1]["command"] == {"op": "undo", "reason": "no bonus", "seq": 3}


async def test_u_refuses_an_earlier_entry_that_a_later_one_depends_on(game: Path) -> None:
    async with console(game, "uk") as (app, b):
        await b.act("u")
        await b.settle()
        await b.answer("#3 помилка")
        await b.settle()
        assert isinstance(b.screen, TableScreen)
        assert b.message().startswith("Запис 3 не можна скасувати окремо: від нього залежить запис 4")
    assert len(file_entries(game)) == len(COMMANDS)


@pytest.mark.parametrize(("lang", "leave"), [("uk", "Залишити"), ("ru", "Оставить"), ("en", "Cancel")])
async def test_the_undos_escape_key_never_says_the_undos_own_word(game: Path, lang: str, leave: str) -> None:
    """Found by a probe: in Ukrainian the undo's confirmation reached from the command line said "esc Скасувати", the
    word of the undo itself (its key, its button "Скасувати дію"): which key undoes, which backs out? Where Escape
    leaves the action (nothing asked before it: the command line's confirmation, `u`'s first question) it says what
    the button `n` says, "Залишити" (keep it), as Russian says "Оставить" (not "Отмена" beside "Отменить"); where it
    steps back (the confirmation reached with `u`), "Назад"."""
    from banker.ui.quick import typed_verb

    async with console(game, lang) as (app, b):
        stem = app.tr("action.undo")[:5].casefold()  # "скасу", "отмен", "undo"
        await b.command(f"{typed_verb('undo', lang)} wrong")
        await b.settle()
        assert isinstance(b.screen, ConfirmScreen)
        assert escape_says(b) == leave and stem not in leave.casefold()
        await b.key("escape")
        await b.settle()
        assert isinstance(b.screen, TableScreen) and b.message() == app.tr("flow.cancelled")
        await b.act("u")
        await b.settle()
        assert isinstance(b.screen, AskScreen) and escape_says(b) == leave
        await b.answer("wrong")
        assert isinstance(b.screen, ConfirmScreen) and escape_says(b) == app.tr("key.back")
        await b.key("n")
        await b.settle()
        assert isinstance(b.screen, TableScreen)
    assert len(file_entries(game)) == len(COMMANDS)


#: 1 and 2 are Bob's browns, which his house (3) needs; 5 is undone by 6; 7 is the last that stands
LISTED = [{"op": "buy", "player": "Bob", "space": 1}, {"op": "buy", "player": "Bob", "space": 3},
          {"op": "build", "player": "Bob", "space": 3},
          {"op": "transfer", "from": "bank", "to": "Ann", "amount": 100, "memo": "x"},
          {"op": "buy", "player": "Cid", "space": 5}, "undo",
          {"op": "transfer", "from": "Cid", "to": "Bob", "amount": 50, "memo": "lunch"}]
BOARD = {"en": "classic-us", "ru": "ru", "uk": "kyiv"}


def listed_session(path: Path, commands: list, edition: str = "classic-us") -> Path:
    """A session of ``commands``, "undo" taking back the last entry that stands."""
    from banker.ledger import Session
    from banker.rules import Setup

    with Session.create(path, Setup(edition, "classic", ("Ann", "Bob", "Cid"))) as session:
        for cmd in commands:
            if cmd == "undo":
                session.undo("wrong")
            else:
                session.apply(cmd)
    return path


def listed(b: Banker) -> list[tuple[str, bool]]:
    """The entries the undo's question lists, top to bottom: what each says, and whether it can be picked."""
    from textual.widgets import OptionList

    assert isinstance(b.screen, UndoScreen), f"expected the undo's question, got {type(b.screen).__name__}"
    entries = b.screen.query_one("#undo-entries", OptionList)
    return [(entries.get_option_at_index(i).prompt.text.plain, not entries.get_option_at_index(i).disabled)
            for i in range(entries.option_count)]


def highlighted(b: Banker) -> str:
    from textual.widgets import OptionList

    entries = b.screen.query_one("#undo-entries", OptionList)
    assert entries.highlighted is not None
    return entries.get_option_at_index(entries.highlighted).prompt.text.plain


@pytest.mark.parametrize(("lang", "undone", "depends"), [
    ("en", "undone by #6", "Entry {n} cannot be undone on its own: entry 3 depends on it (undo that first)"),
    ("ru", "отменена записью #6", "Запись {n} нельзя отменить отдельно: от неё зависит запись 3 (сначала отмените её)"),
    ("uk", "скасований записом #6",
     "Запис {n} не можна скасувати окремо: від нього залежить запис 3 (спершу скасуйте його)"),
])
async def test_u_lists_the_latest_entries_newest_first_marking_those_it_cannot_undo(
        tmp_path: Path, lang: str, undone: str, depends: str) -> None:
    """Found by the banker: to undo an earlier entry `u` wanted its number, which the table's log showed only in part
    (and the dialog covered). The question now lists the latest actions, newest first, each with its number and what
    it did as the log says it (amounts included), in the table's language; the undone one says by which undo, those a
    later entry depends on say the engine's refusal, and neither can be picked. The last that stands is highlighted
    and named by the question: the reason and Enter still undo it."""
    path = listed_session(tmp_path / "game.json", LISTED, BOARD[lang])
    async with undo_asked(path, lang) as (app, b):
        entries = file_entries(path)
        said = {e["seq"]: f"#{e['seq']} " + app.tr.entry(e) for e in entries}
        assert listed(b) == [(said[7], True), (f"{said[5]}  {undone}", False), (said[4], True), (said[3], True),
                             (f"{said[2]}  {depends.format(n=2)}", False), (f"{said[1]}  {depends.format(n=1)}", False)]
        assert highlighted(b) == said[7] and b.screen.prompt_text == app.tr("undo.reason_listed", seq=7)
        if lang == "en":
            assert said[7] == "#7 Cid gives Bob $50: lunch" and said[4] == "#4 the bank gives Ann $100: x"
        await b.answer("wrong")
        assert body(b)[1] == said[7]
        await b.confirm()
    assert file_entries(path)[-1]["command"] == {"op": "undo", "reason": "wrong"}


async def test_up_and_down_pick_the_entry_to_undo(tmp_path: Path) -> None:
    """↓ highlights the next entry that can be undone (past the undone #5), and the question names it; its reason and
    Enter undo it, by its number. Escape on the confirmation comes back to it, highlighted, the reason typed. The next
    `u` highlights the last again: ↓ ↑ and the reason undo the last, no number recorded."""
    path = listed_session(tmp_path / "game.json", LISTED)
    async with undo_asked(path, "en", size=(80, 24)) as (_app, b):
        await b.key("down")
        assert highlighted(b) == "#4 the bank gives Ann $100: x"
        assert b.screen.prompt_text == "Why undo #4 (highlighted below)?"
        await b.answer("no bonus")
        assert body(b)[1] == "#4 the bank gives Ann $100: x"
        await b.key("escape")
        await b.settle()
        assert highlighted(b) == "#4 the bank gives Ann $100: x"
        assert b.screen.query_one("#answer").value == "no bonus"
        await b.key("enter")
        await b.settle()
        await b.confirm()
        assert file_entries(path)[-1]["command"] == {"op": "undo", "reason": "no bonus", "seq": 4}
        assert file_state(path)["players"]["Ann"]["cash"] == 1500
        await b.act("u")
        await b.settle()
        assert highlighted(b) == "#7 Cid gives Bob $50: lunch"
        await b.key("down", "up")
        await b.answer("lunch was free")
        await b.confirm()
    assert file_entries(path)[-1]["command"] == {"op": "undo", "reason": "lunch was free"}
    assert file_entries(path)[-1]["undoes"] == 7



async def test_a_click_on_an_entry_picks_it_and_the_reason_box_keeps_the_keys(tmp_path: Path) -> None:
    """The list never takes the keyboard: a click on an entry highlights it, and what is typed next is the reason."""
    from textual.widgets import Input

    path = listed_session(tmp_path / "game.json", LISTED)
    async with undo_asked(path, "en") as (app, b):
        await b.pilot.click("#undo-entries", offset=(4, 3))  # the third line under the list's top edge: #4
        await b.pilot.pause()
        assert highlighted(b) == "#4 the bank gives Ann $100: x"
        assert isinstance(app.focused, Input) and app.focused.id == "answer"
        await b.answer("no bonus")
        assert body(b)[1] == "#4 the bank gives Ann $100: x"

async def test_the_list_holds_the_latest_eight_and_the_last_that_stands(tmp_path: Path) -> None:
    """Eight actions at most, the latest; when those are all undone, the last that stands is listed after them,
    highlighted, so the reason and Enter undo it as before."""
    salaries = [{"op": "salary", "player": "Ann"}] * 10
    path = listed_session(tmp_path / "many.json", salaries)
    async with undo_asked(path, "en") as (app, b):
        assert [text.split()[0] for text, _ok in listed(b)] == [f"#{n}" for n in range(10, 2, -1)]
        await b.key("escape")
        await b.settle()
    path = listed_session(tmp_path / "undone.json", [*salaries, *["undo"] * 9])
    async with undo_asked(path, "en") as (app, b):
        shown = listed(b)
        assert [text.split()[0] for text, _ok in shown] == [*(f"#{n}" for n in range(10, 2, -1)), "#1"]
        assert [ok for _text, ok in shown] == [False] * 8 + [True]
        assert highlighted(b) == "#1 Ann collects $200 salary"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize(("commands", "last"), [([{"op": "salary", "player": "Ann"}], 1), (LISTED[:3], 3),
                                               ([*[{"op": "salary", "player": "Ann"}] * 3, "undo", "undo"], 1)],
                         ids=["one entry", "the others depended on", "the others undone"])
async def test_the_list_offers_no_other_entry_when_none_can_be_picked(tmp_path: Path, lang: str, commands: list,
                                                                       last: int) -> None:
    """Found by the second-opinion probe: with one entry in the log (or every other one undone, or depended on by the
    last: Bob's house on the browns he bought) the line over the list still said "↑ ↓ picks another to undo, or type
    its number first: #1 and the reason", #1 being the entry highlighted, the only one. It now says that only the
    highlighted one can be picked; the reason and Enter undo it as ever."""
    path = listed_session(tmp_path / "game.json", commands, BOARD[lang])
    async with undo_asked(path, lang) as (app, b):
        assert [ok for _text, ok in listed(b)].count(True) == 1
        said = screen_text(b.screen.query_one("#undo-listed"))
        assert said == app.tr("undo.listed_alone") and "↑" not in said and "#" not in said
        assert highlighted(b) == f"#{last} " + app.tr.entry(file_entries(path)[last - 1])
        await b.answer("wrong")
        await b.confirm()
    assert file_entries(path)[-1]["undoes"] == last


def test_the_undos_list_is_not_loaded_with_the_flows() -> None:
    """Its dialog's code is loaded when `u` opens it: not before the table's first frame, nor with the action flows."""
    import subprocess
    import sys

    code = "import sys, banker.ui.app, banker.ui.actions; print('banker.ui.screens.undo' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
