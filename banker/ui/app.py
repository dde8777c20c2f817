"""The banker's console: a Textual app that is a thin client of the rules engine and the
session log. Every action is committed to the log before the screen shows it done."""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from banker.i18n import Translator, detect_lang
from banker.ledger import Session, SessionError
from banker.rules import Refused, Setup

from .actions import ACTIONS, Flow
from .keys import localize_bindings


class BankerApp(App):
    CSS_PATH = "banker.tcss"
    TITLE = "banker"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, path: str | Path | None = None, lang: str | None = None, data_dir: str | Path | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        self.lang = lang or detect_lang()
        self.tr = Translator(self.lang)
        self.path = Path(path) if path else None
        self.data_dir = Path(data_dir) if data_dir else None
        self._random = random.Random(seed)
        self.session: Session | None = None
        self.flow = Flow(self)
        localize_bindings(self)

    # ----------------------------------------------------------------- sessions
    def on_mount(self) -> None:
        self.title = "banker"
        if self.path is not None:
            if not self.open_session(self.path):
                self.exit(return_code=1)
        else:
            from .screens.start import StartScreen

            self.push_screen(StartScreen())

    def open_session(self, path: Path, setup: Setup | None = None, name: str | None = None) -> bool:
        """Create (with ``setup``) or open a session and show the table. False on a clear error."""
        try:
            session = Session.create(path, setup, name=name) if setup else Session.open(path)
        except (SessionError, Refused) as e:
            self.notify(str(e), severity="error", timeout=10)
            self.open_error = str(e)
            return False
        if self.session is not None:
            self.session.close()
        self.session = session
        from .screens.start import StartScreen
        from .screens.table import TableScreen

        if isinstance(self.screen, StartScreen):
            self.switch_screen(TableScreen())
        else:
            self.push_screen(TableScreen())
        return True

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()

    @property
    def data_directory(self) -> Path:
        if self.data_dir is not None:
            return self.data_dir
        from banker.ledger import default_session_dir

        return Path(default_session_dir())

    def random_seed(self) -> int:
        return self._random.randrange(2**31)

    # ----------------------------------------------------------------- actions
    def commit(self, cmd: dict[str, Any]) -> dict | None:
        """Apply through the session log (durable before this returns), then show it."""
        try:
            entry = self.session.apply(cmd)
        except Refused as e:
            self.refuse(e)
            return None
        text = self.tr.parts(entry["parts"])
        self.show_message(text)
        self.refresh_table()
        return entry

    def refuse(self, error: Exception) -> None:
        text = self.tr.refusal(error) if isinstance(error, Refused) else str(error)
        self.show_message(text, error=True)
        self.bell()

    def show_message(self, text: str, error: bool = False) -> None:
        from .screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                msg = screen.query_one("#message")
                msg.update(text)
                msg.set_class(error, "error")
        if error:
            self.notify(text, severity="error", timeout=6)

    def refresh_table(self) -> None:
        from .screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.refresh_table()

    @work(exclusive=True, group="action")
    async def start_action(self, op: str, given: dict[str, Any] | None = None) -> None:
        if self.session is None:
            return
        try:
            await self.flow.run(op, given)
        except Exception as e:  # a bug must not close the bank mid-game; everything committed is safe
            self.log.error(f"action {op} failed", e)
            self.show_message(self.tr("flow.internal_error", error=f"{type(e).__name__}: {e}"), error=True)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if self.session is None:
            return
        for op, key in ACTIONS:
            yield SystemCommand(f"{self.tr(f'action.{op}')}  [{key}]", self.tr(f"help.{op}"),
                                partial(self.start_action, op))
        yield SystemCommand(self.tr("help.title"), self.tr("help.about"), self.action_help)

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen())


def run_app(path: str | None = None, lang: str | None = None) -> int:
    app = BankerApp(path, lang)
    app.run()
    return app.return_code or 0
