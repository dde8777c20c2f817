"""The banker's console: a Textual app that is a thin client of the rules engine and the
session log. Every action is committed to the log before the screen shows it done."""

from __future__ import annotations

import gc
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
from banker.ledger import Session, SessionDamaged, SessionError, SessionReader, SessionWriter
from banker.rules import Refused, Setup

from .keys import ACTIONS, localize_bindings

#: seconds after an action when the idle garbage collection runs
IDLE_GC_DELAY = 0.5
#: how many middle-generation passes before a full one is due the idle collection runs
IDLE_GC_MARGIN = 3


class BankerApp(App):
    CSS_PATH = "banker.tcss"
    TITLE = "banker"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, path: str | Path | None = None, lang: str | None = None, data_dir: str | Path | None = None,
                 seed: int | None = None, review: bool = False) -> None:
        super().__init__()
        self.review_only = review  # `banker review`: the session read-only, on the review screen
        self.lang = lang or detect_lang()
        self.tr = Translator(self.lang)
        self.path = Path(path) if path else None
        self.data_dir = Path(data_dir) if data_dir else None
        self._random = random.Random(seed)
        self.session: SessionReader | SessionWriter | None = None
        self._flow = None
        self._idle_gc = None
        self.table_server = None  # the players' page (banker.tableview), started by its key
        localize_bindings(self)

    @property
    def flow(self):
        """The action flows (imported on first use: the first frame does not wait for them)."""
        if self._flow is None:
            from .actions import Flow

            self._flow = Flow(self)
        return self._flow

    # ----------------------------------------------------------------- sessions
    def on_mount(self) -> None:
        self.title = "banker"
        if self.review_only and self.path is not None:
            self.open_review(self.path)
        elif self.path is not None:
            if not self.open_session(self.path):
                self.exit(return_code=1)
        else:
            from .screens.start import StartScreen

            self.push_screen(StartScreen())

    def open_session(self, path: Path, setup: Setup | None = None, name: str | None = None) -> bool:
        """Create (with ``setup``; never over an existing file) or open a session and show the table.
        False on a clear error (in :attr:`open_error`, and notified)."""
        try:
            # a session opens from its logged effects; the engine checks them just after (check_replay)
            session = Session.create(path, setup, name=name) if setup else Session.open(path)
        except SessionDamaged:
            # damage is shown, never dropped: the table opens read-only until the banker runs `banker repair`
            try:
                session = Session.open(path, readonly=True)
            except SessionError as e:
                self.notify(str(e), severity="error", timeout=10)
                self.open_error = str(e)
                return False
        except (SessionError, Refused) as e:
            self.notify(str(e), severity="error", timeout=10)
            self.open_error = str(e)
            return False
        self.show_session(session)
        return True

    def show_session(self, session: SessionReader | SessionWriter) -> None:
        """Make ``session`` (open for writing) the console's, closing the previous one, and show the table."""
        # the game's objects live as long as the session: keep the cyclic collector off them,
        # so a collection never pauses an action late in a long game
        gc.freeze()
        if self.table_server is not None:  # the players' page showed the previous session
            self.table_server.stop()
            self.table_server = None
        if self.session is not None:
            self.session.close()
        self.session = session
        from .screens.start import StartScreen
        from .screens.table import TableScreen

        if isinstance(self.screen, StartScreen):
            self.switch_screen(TableScreen())
        else:
            self.push_screen(TableScreen())
        # once the table is on screen: neither the check nor loading the flows delays the first frame
        self.call_after_refresh(self.check_replay, session, len(session.entries))
        if session.damage:
            self.call_after_refresh(self._show_damage, session)

    def _show_damage(self, session: SessionReader | SessionWriter) -> None:
        """A session opened read-only because it is damaged: say what is damaged and what to do."""
        if session is not self.session:
            return
        text = self.tr("table.damaged", detail=session.damage_message or "")
        self.show_message(text, error=False)
        self.notify(text, severity="error", timeout=30)

    def open_review(self, path: Path) -> None:
        """`banker review`: the session read-only (no lock: a game may be going on), on the review screen."""
        from .screens.review import ReviewScreen

        try:
            self.session = Session.open(path, readonly=True)
        except SessionError as e:
            self.open_error = str(e)
            self.exit(return_code=1, message=str(e))
            return
        self.push_screen(ReviewScreen(standalone=True))

    def action_review(self) -> None:
        from .screens.review import ReviewScreen

        if self.session is not None:
            self.push_screen(ReviewScreen())

    @work(thread=True, exclusive=True, group="replay-check")
    def check_replay(self, session: SessionReader | SessionWriter, upto: int) -> None:
        """Check the opened log with the rules engine, in the background; load the action flows.
        The table keeps showing what was recorded: an entry the rules give differently today is reported."""
        import banker.ui.actions  # noqa: F401  (so the first action does not wait for the import)

        if not upto:
            return
        findings = session.replay_check(upto)
        if findings:
            self.call_from_thread(self._report_findings, session)
        self.call_from_thread(gc.freeze)  # what the screen has built since the open, likewise

    def _report_findings(self, session: SessionReader | SessionWriter) -> None:
        if session is not self.session or session.closed:
            return
        divergent = session.divergent
        seqs = ", ".join(map(str, divergent[:10])) + ("…" if len(divergent) > 10 else "")
        self.notify(self.tr("table.divergent", seqs=seqs, n=len(divergent)), severity="warning", timeout=30)

    def on_unmount(self) -> None:
        if self.table_server is not None:  # the players' page stops with the console
            self.table_server.stop()
            self.table_server = None
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
        except SessionError as e:  # read-only, or the disk refused the write: nothing was recorded
            self.refuse(e)
            return None
        text = self.tr.parts(entry["parts"])
        self.show_message(text)
        self.refresh_table()
        self._collect_when_idle()
        return entry

    def _collect_when_idle(self) -> None:
        """The full garbage collection, when one is near, a moment after an action while the banker
        reads the screen: the dialogs' leftovers are swept then, not in the middle of the next action."""
        if self._idle_gc is not None:
            self._idle_gc.stop()
        self._idle_gc = self.set_timer(IDLE_GC_DELAY, self._idle_collect, name="idle-gc")

    def _idle_collect(self) -> None:
        # only when a full collection is near anyway (each one costs the next action its memory again)
        if gc.get_count()[2] >= gc.get_threshold()[2] - IDLE_GC_MARGIN:
            gc.collect()

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

    def start_action(self, op: str, given: dict[str, Any] | None = None):
        """Run the action flow ``op`` in a worker (returned), unless nothing can be recorded."""
        if self.session is None:
            return None
        if self.session.readonly:  # a damaged session: nothing can be recorded, so no dialog is opened
            self.refuse(SessionError(self.tr("table.readonly_refused", file=str(self.session.path))))
            return None
        return self._run_action(op, given)

    @work(exclusive=True, group="action")
    async def _run_action(self, op: str, given: dict[str, Any] | None = None) -> None:
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
        yield SystemCommand(f"{self.tr('action.review')}  [v]", self.tr("help.review"), self.action_review)
        yield SystemCommand(f"{self.tr('tableview.key')}  [q]", self.tr("tableview.about"), self.action_table_view)
        yield SystemCommand(self.tr("help.title"), self.tr("help.about"), self.action_help)

    def action_table_view(self) -> None:
        """The players' read-only page: start its server, show the QR code (docs/tableview.md)."""
        from .screens.tableview import TableViewScreen

        if self.session is not None:
            self.push_screen(TableViewScreen())

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen())


def run_app(path: str | None = None, lang: str | None = None, review: bool = False) -> int:
    app = BankerApp(path, lang, review=review)
    app.run()
    return app.return_code or 0
