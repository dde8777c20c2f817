"""Driving the banker's console with Textual's Pilot, as a banker at the keyboard would."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from banker.ledger import Session
from banker.rules import Setup
from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import AskScreen, ChooseScreen, ConfirmScreen, InfoScreen
from banker.ui.screens.table import TableScreen


def make_session(path: Path, players=("Ann", "Bob", "Cid"), edition: str = "classic-us", variant: str = "classic",
                 commands: list[dict[str, Any]] | None = None, name: str | None = None) -> Path:
    """A session file made through the engine and the log (for tests that start mid-game)."""
    with Session.create(path, Setup(edition, variant, tuple(players)), name=name) as session:
        for cmd in commands or []:
            session.apply(cmd)
    return path


def file_state(path: Path) -> dict[str, Any]:
    """The state as the session FILE holds it (a reader, like a review would open it)."""
    with Session.open(path, readonly=True) as session:
        return session.state.to_json()


def file_entries(path: Path) -> list[dict[str, Any]]:
    with Session.open(path, readonly=True) as session:
        return list(session.entries)


def cash(path: Path) -> dict[str, int]:
    return {p: v["cash"] for p, v in file_state(path)["players"].items()}


def screen_text(widget) -> str:
    """The plain text a Static shows (rich renderables such as tables rendered to text)."""
    content = getattr(widget, "content", None)
    plain = getattr(content, "plain", None)
    if isinstance(plain, str):  # a Text, or a Prose (banker.ui.widgets.prose) wrapping one
        return plain
    if content is not None and not isinstance(content, str) and not hasattr(content, "plain"):
        from rich.console import Console

        console = Console(width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        console.print(content)
        return console.export_text()
    return str(widget.render())


class Banker:
    """The keyboard of a banker at the table: keys, dialogs, the command line."""

    def __init__(self, app: BankerApp, pilot) -> None:
        self.app = app
        self.pilot = pilot

    @property
    def screen(self):
        return self.app.screen

    async def settle(self) -> None:
        """Let the action's worker finish, or reach the next dialog it opens."""
        from textual.screen import ModalScreen

        for _ in range(100):
            await self.pilot.pause()
            busy = any(w.is_running for w in self.app.workers)
            if not busy or isinstance(self.app.screen, ModalScreen):
                return
        raise AssertionError("the action neither finished nor asked anything")

    async def type(self, text: str) -> None:
        await self.pilot.press(*["space" if c == " " else c for c in text])

    async def key(self, *keys: str) -> None:
        await self.pilot.press(*keys)
        await self.pilot.pause()

    async def choose(self, text: str = "") -> list[str]:
        """In a choice dialog: type to filter, Enter picks the first possible; returns the
        options shown (label and note) before picking."""
        assert isinstance(self.screen, ChooseScreen), f"expected a choice, got {type(self.screen).__name__}"
        screen = self.screen
        await self.type(text)
        await self.pilot.pause()
        shown = self.options()
        await self.key("enter")
        assert self.screen is not screen, f"the choice {text!r} was not taken: {shown}"
        return shown

    def options(self) -> list[str]:
        from textual.widgets import OptionList

        options = self.screen.query_one("#choices", OptionList)
        return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

    async def answer(self, value: Any) -> None:
        assert isinstance(self.screen, AskScreen), f"expected a question, got {type(self.screen).__name__}"
        await self.type(str(value))
        await self.key("enter")

    async def confirm(self) -> str:
        """Read what the confirmation says will happen, then confirm; returns that text."""
        assert isinstance(self.screen, ConfirmScreen), f"expected a confirmation, got {type(self.screen).__name__}"
        body = screen_text(self.screen.query_one("#confirm-body"))
        await self.key("enter")
        await self.settle()
        return body

    async def info(self) -> str:
        assert isinstance(self.screen, InfoScreen), f"expected information, got {type(self.screen).__name__}"
        body = screen_text(self.screen.query_one("#info-body"))
        await self.key("enter")
        await self.settle()
        return body

    async def command(self, line: str) -> None:
        """Type a line on the quick-entry command line and press Enter."""
        from banker.ui.widgets.command_line import CommandLine

        assert isinstance(self.screen, TableScreen)
        if not isinstance(self.app.focused, CommandLine):
            await self.key("colon")
        await self.type(line)
        await self.key("enter")
        await self.pilot.pause()

    async def tab_to(self, widget_id: str) -> None:
        """Press Tab until the widget ``widget_id`` has the focus."""
        for _ in range(20):
            if self.app.focused is not None and self.app.focused.id == widget_id:
                return
            await self.key("tab")
        raise AssertionError(f"Tab never reached #{widget_id}")

    async def pick_in_list(self, label: str) -> None:
        """In the focused selection list: move to the option whose label starts with ``label``, tick it."""
        widget = self.app.focused
        for _ in range(widget.option_count):
            if widget.highlighted is not None and str(widget.get_option_at_index(widget.highlighted).prompt).startswith(label):
                await self.key("space")
                return
            await self.key("down")
        raise AssertionError(f"no option {label!r} in {widget!r}")

    async def act(self, key: str) -> None:
        """Press an action key on the table screen (leaving the command line first)."""
        from banker.ui.widgets.command_line import CommandLine

        assert isinstance(self.screen, TableScreen), f"expected the table, got {type(self.screen).__name__}"
        if isinstance(self.app.focused, CommandLine):
            await self.key("escape")
        await self.key(key)
        await self.pilot.pause()

    def message(self) -> str:
        """What the message line of the table (the top one, under any dialogs) shows."""
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, TableScreen):
                return screen_text(screen.query_one("#message"))
        return ""


def midgame_commands(players: tuple[str, ...]) -> list[dict[str, Any]]:
    """A game well under way (positions are the same on every board): full groups with houses
    and a hotel, a mortgage, a jail card, an open debt, and a few actions in the log."""
    a, b, c, d, e = players
    cmds: list[dict[str, Any]] = []

    def buy(p, *spaces):
        cmds.extend({"op": "buy", "player": p, "space": s} for s in spaces)

    buy(a, 37, 39)
    buy(b, 1, 3, 5)
    buy(c, 6, 8, 9, 12)
    buy(d, 15, 11)
    cmds += [{"op": "salary", "player": p} for p in (a, c, c)]
    cmds += [{"op": "build", "player": a, "space": s} for s in (37, 39, 37, 39)]
    cmds += [{"op": "build", "player": c, "space": s} for s in (6, 8, 9) * 5]  # a hotel on each
    cmds += [{"op": "mortgage", "player": b, "space": 5},
             {"op": "card", "player": e, "card": "cc-jail-free"},
             {"op": "rent", "payer": e, "space": 39},
             {"op": "transfer", "from": d, "to": e, "amount": 20, "memo": "lunch"},
             {"op": "rent", "payer": b, "space": 8},
             {"op": "rent", "payer": b, "space": 9},
             {"op": "rent", "payer": b, "space": 6}]  # more than Bob has: a debt opens
    return cmds


SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


def sample_copy(folder: Path, name: str) -> Path:
    """A copy of the sample game ``name`` (sample_sessions/) in ``folder``: a test may open it, for writing too, and
    the sample stays as it is."""
    import shutil

    path = folder / name
    shutil.copy(SAMPLES / name, path)
    return path


async def footer_shown(pilot) -> None:
    """Until the table's footer shows its keys: it is mounted once the table has been drawn (banker.ui.screens.table,
    ``_mount_footer``), and composes its keys on the frames after."""
    for _ in range(100):
        if pilot.app.screen.query("FooterKey"):
            return
        await pilot.pause()
    raise AssertionError("the footer shows no key")


@asynccontextmanager
async def console(path: Path, lang: str = "en", size: tuple[int, int] = (120, 36)) -> AsyncIterator[tuple[BankerApp, Banker]]:
    """The console on ``path``, in ``lang``, at ``size``, once it has started: the app and a banker at its keyboard."""
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=size) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        yield app, b


def on_frames(app: BankerApp, screen: type, take: Any) -> list[Any]:
    """What ``take(shown, renderable)`` makes of each frame of a ``screen`` the console draws (those a batch throws
    away left out), in order, as they are drawn."""
    taken: list[Any] = []
    display = app._display

    def hooked(shown: Any, renderable: Any) -> None:
        display(shown, renderable)
        if renderable is not None and not app._batch_count and isinstance(shown, screen):
            taken.append(take(shown, renderable))

    app._display = hooked  # type: ignore[method-assign]
    return taken
