"""The main screen: the table at a glance, every action a key away."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..keys import ACTIONS, localize_bindings
from ..quick import QuickError, parse
from ..widgets.command_line import CommandLine, QuickSuggester
from ..widgets.footer import BankFooter
from ..widgets.table import BankPanel, LogPanel, PlayersPanel


class TableScreen(Screen):
    """Players' cash, debts, jail cards and deeds; the bank's stock; the last actions."""

    # nothing focused: every letter is an action key; ':' moves to the command line
    AUTO_FOCUS = ""

    def __init__(self) -> None:
        super().__init__()
        # key bindings with descriptions in the interface's language, shown in the footer
        tr = self.app.tr
        self._bindings = self._bindings.copy()
        for op, key in ACTIONS:
            self._bindings.bind(key, f"act('{op}')", tr(f"action.{op}"), show=op in SHOWN)
        self._bindings.bind("colon,slash", "focus_command", tr("table.command"), show=True, key_display=":")
        self._bindings.bind("question_mark,f1", "help", tr("help.title"), show=True, key_display="?")
        self._bindings.bind("v", "review", tr("action.review"), show=False)
        self._bindings.bind("q", "app.table_view", tr("tableview.key"), show=False)  # the players' page (QR)
        self._bindings.bind("escape", "unfocus", "", show=False)
        localize_bindings(self)

    def compose(self) -> ComposeResult:
        state = self.app.session.state
        tr = self.app.tr
        yield Static(id="table-header")
        yield PlayersPanel(state.players, id="players")
        with Horizontal(id="bottom"):
            with Vertical(id="bank-box"):
                yield BankPanel(id="bank")
            yield LogPanel(id="log")
        yield Static(id="message")
        yield CommandLine(placeholder=tr("table.command_placeholder"), id="command",
                          suggester=QuickSuggester(self.app))
        yield BankFooter()

    def on_mount(self) -> None:
        self.refresh_table()
        self.query_one("#bank-box").border_title = self.app.tr("bank.title")
        self.query_one("#log").border_title = self.app.tr("log.title")

    def refresh_table(self) -> None:
        app = self.app
        session = app.session
        state = session.state
        tr = app.tr
        edition = state.edition
        header = tr("table.header", name=session.name, edition=edition.name, variant=tr(f"variant.{state.variant.id}"),
                    n=len(session.entries))
        if session.readonly:  # a damaged session, opened read-only
            header = f"{header} · {tr('table.readonly_mark')}"
        self.query_one("#table-header", Static).update(header)
        self.query_one(PlayersPanel).show(state, tr)
        self.query_one(BankPanel).show(state, tr)
        height = max(3, self.query_one(LogPanel).size.height or 6)
        self.query_one(LogPanel).show_entries(session.entries, tr, limit=height)

    def on_resize(self) -> None:
        self.refresh_table()

    def action_act(self, op: str) -> None:
        self.app.start_action(op)

    def action_focus_command(self) -> None:
        self.query_one(CommandLine).focus()

    def action_unfocus(self) -> None:
        self.set_focus(None)

    def action_help(self) -> None:
        self.app.action_help()

    def action_review(self) -> None:
        self.app.action_review()

    @on(CommandLine.Submitted, "#command")
    def _command(self, event: CommandLine.Submitted) -> None:
        line = event.value.strip()
        if not line:
            return
        try:
            parsed = parse(self.app.session.state, line)
        except QuickError as e:
            self.app.show_message(str(e), error=True)
            return
        event.input.value = ""
        given = dict(parsed.command)
        if parsed.op == "rent":
            given["_quick"] = True  # a typed rent does not ask "by the card?"
        self.app.start_action(parsed.op, given)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        # while typing in the command line, letters are letters, not action keys
        if action == "act" and isinstance(self.focused, CommandLine):
            return False
        return True


#: actions whose keys the footer shows (all are in the palette and the help screen)
SHOWN = {"rent", "buy", "build", "mortgage", "trade", "undo"}
