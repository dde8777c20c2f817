"""Text that looks like Textual's markup is shown as it was typed, never read as styles (found playing in tmux: a memo
or an undo reason "[/x] oops" ended the console with a MarkupError just after it was recorded, and a player called
"[/x]Bo" made the session impossible to open in the console; "[bold red]x" turned the status line red)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import AskScreen, ChooseScreen, ConfirmScreen
from banker.ui.screens.table import TableScreen

from .ui_helpers import Banker, make_session

ANN, BO, CY = "Ann", "[/x]Bo", "[bold red]Cy"
MEMO = "[/x] oops [/]"


def shown(app: BankerApp) -> str:
    """Every character the screen shows, as a terminal would."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(m.group(2)), []).append((float(m.group(1)), html.unescape(m.group(3))))
    return "\n".join("".join(t for _, t in sorted(v)).replace("\xa0", " ") for _, v in sorted(rows.items()))


def game(tmp_path: Path) -> Path:
    return make_session(tmp_path / "g.json", players=(ANN, BO, CY), name="[/b]Friday", commands=[
        {"op": "transfer", "from": ANN, "to": BO, "amount": 5, "memo": MEMO},
        {"op": "buy", "player": CY, "space": 39},
        {"op": "buy", "player": BO, "space": 37},
    ])


async def test_names_memos_reasons_and_typed_text_are_never_read_as_markup(tmp_path: Path) -> None:
    app = BankerApp(game(tmp_path), lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert isinstance(app.screen, TableScreen), app.open_error
        screen = shown(app)
        for name in (BO, CY, "[/b]Friday", MEMO):
            assert name in screen, (name, screen)

        # typed into a picker, an amount and the command line: said back as typed
        await b.act("x")
        assert isinstance(app.screen, ChooseScreen)
        await b.type("[/x")
        await pilot.pause()
        assert "[/x" in shown(app)
        await b.key("escape")
        await b.act("x")
        await b.choose(ANN)
        await b.choose("Bo")
        assert isinstance(app.screen, AskScreen)
        await b.type("[/x]")
        await b.key("enter")
        assert "[/x]" in shown(app)
        await b.key("escape", "escape", "escape")
        await b.command("pay ann zed 5 [/x] nobody")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)

        # an undo with such a reason: recorded, and the status line says it as typed
        await b.act("u")
        assert isinstance(app.screen, AskScreen)
        await b.type("[/b] typo [bold red]x")
        await b.key("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await b.confirm()
        assert isinstance(app.screen, TableScreen)
        assert "[/b] typo [bold red]x" in b.message()
        assert app.session is not None and app.session.entries[-1].command.get("reason") == "[/b] typo [bold red]x"

        # the dialogs that name the players: raising cash, the count of the table, a trade
        await b.act("i")
        assert BO in shown(app) and CY in shown(app)
        await b.key("escape")
        await b.act("d")
        await b.choose(BO[:3])
        await b.choose(CY[:3])
        assert BO in shown(app) and CY in shown(app)
        await b.key("escape")

        # the review: every tab
        await b.act("v")
        for key in ("1", "2", "3", "4", "5", "6"):
            await b.key(key)
            await pilot.pause()
        screen = shown(app)
        assert BO in screen and CY in screen, screen
        await b.key("escape")
        assert isinstance(app.screen, TableScreen)
    assert app.return_code in (None, 0)
