"""The main screen: the table at a glance, every action a key away.

It shows what the App owns: it watches the App's ``version`` (bumped at every change of the
session) and ``status`` (the message line), and asks for actions by posting messages.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from banker.i18n import visible
from banker.ledger.clock import clock_text, countdown, end_of, left

from ..examples import command_example
from ..keys import ACTIONS, shown_key, with_layouts
from ..messages import ActionRequested, MessageShown, TimeUp
from ..widgets.command_line import CommandLine, QuickSuggester
from ..widgets.table import BankPanel, LogPanel, PlayersPanel, TableHeader
from .base import BankerScreen

if TYPE_CHECKING:  # pragma: no cover
    from banker.ledger import SessionLog

    from ..messages import Status
    from ..widgets.turn_bar import TurnBar

#: actions whose keys the footer shows (all are in the palette and the help screen)
SHOWN = ("buy", "rent", "build", "mortgage", "trade", "undo")
#: the digits that start the roll from the idle table (the first die, typed into the roll's question)
DICE_KEYS = "123456"
#: the footer's actions while a debt is open: the debtor's way out first (found playing: only the help and the
#: palette named them), in place of buying, renting and building (nobody rolls until the debt is settled), so the footer
#: still fits 80 columns
DEBT_SHOWN = ("debt", "bankrupt", "mortgage", "trade", "undo")


def _bindings(op: str, key: str) -> list[Binding]:
    """The bindings of one action: the roll is started by the first die typed (each digit passes itself on)."""
    if op == "roll":
        return [Binding(d, f"roll('{d}')", "action.roll" if i == 0 else "", show=False, key_display=shown_key(op, key))
                for i, d in enumerate(DICE_KEYS)]
    return [Binding(with_layouts(key), f"act('{op}')", f"action.{op}", show=False)]


def _footer_bindings() -> list[Binding]:
    """The footer's keys: each action of :data:`SHOWN` or :data:`DEBT_SHOWN` bound once more, shown, ahead of its own
    (hidden) binding of the same key. :meth:`TableScreen.check_action` lets through those of the footer of the
    moment (a debt open or not); for the others the hidden binding takes the key, which works the same."""
    keys = dict(ACTIONS)
    ops = [*DEBT_SHOWN[:2], *(op for op, _ in ACTIONS if op in SHOWN or op in DEBT_SHOWN)]
    return [Binding(with_layouts(keys[op]), f"shown('{op}')", f"action.{op}") for op in dict.fromkeys(ops)]


#: the keys of the actions a game that is over refuses (every one but undo; banker.ui.actions), and the dice that
#: start a roll: hidden from the footer then, and answered with a word when pressed
CLOSED_KEYS = frozenset({*(k for op, key in ACTIONS if op != "undo" for k in with_layouts(key).split(",")), *DICE_KEYS})

#: under this many seconds left, the countdown is shown in the warning colour
CLOSE_TO_END = 10 * 60


class TableScreen(BankerScreen[None]):
    """Players' cash, debts, jail cards and deeds; the bank's stock; the last actions."""

    # nothing focused: every letter is an action key; ':' moves to the command line
    AUTO_FOCUS = ""

    # descriptions are catalog keys, shown in the interface's language (see .base)
    BINDINGS: ClassVar[list[BindingType]] = [
        *_footer_bindings(),
        *(binding for op, key in ACTIONS for binding in _bindings(op, key)),
        # follow mode: Enter settles what the landing requires (the proposal), as proposed
        Binding("enter", "settle", "turn.settle", show=False, key_display="Enter"),
        # a priority binding: run as the App takes the key, so the keys after it in the same burst (a paste, a laggy
        # link) are handed to the line it focuses, not to the table as action keys (while the line has the focus,
        # check_action lets ':' through to it as a letter)
        # not in the footer: the command line's own words say ": to focus", right above it (at 80 columns the footer
        # has no room for both it and ctrl+q)
        Binding(with_layouts("colon,slash"), "focus_command", "table.command", key_display=":", priority=True, show=False),
        Binding(with_layouts("question_mark,f1"), "app.help", "help.title", key_display="?"),
        Binding(with_layouts("v"), "app.review", "action.review", show=False),
        Binding(with_layouts("q"), "app.table_view", "tableview.key", show=False),  # the players' page (QR)
        Binding("escape", "unfocus", "", show=False),
    ]

    def __init__(self, session: SessionLog) -> None:
        super().__init__()
        self.session = session  # the session this table shows (the App's, until it opens another)
        # a time-limit game: its agreed end (banker.ledger.clock), counted down in the header
        created = session.created
        try:
            start = datetime.fromisoformat(created) if created else None
        except ValueError:
            start = None
        self.end = end_of(session.setup.end_time, start) if session.state.variant.timed else None
        self.time_up_said = False  # the alert is given once; the header keeps saying it
        self.typed_ahead: list[str] | None = None  # the roll's keys while its question opens (action_roll)
        self.over_shown = session.state.over  # whether the footer shows a game that is over (refresh_table)
        self.debt_shown = bool(session.state.debtors) and not session.state.over  # and the debtor's keys (DEBT_SHOWN)
        self.turn_bar: TurnBar | None = None  # follow mode's bar, once the mode is on (:meth:`_turn_bar`)

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        yield TableHeader(id="table-header")
        if self.session.state.follow:  # the turn's bar, in follow mode only (mounted when the mode starts)
            yield self._turn_bar()
        yield PlayersPanel(self.session.state.players, (self.session.state, tr), id="players")
        with Horizontal(id="bottom"):
            yield BankPanel(id="bank")
            yield LogPanel(id="log")
        yield Static(id="message")
        yield CommandLine(placeholder=tr("table.command_placeholder", example=command_example(self.session.state, tr)),
                          id="command",
                          suggester=QuickSuggester(self.app))
        # the footer's place, kept with the footer's colours: its keys are mounted once the table has been drawn
        # (:meth:`_mount_footer`)
        yield Static(id="footer-place")

    def _turn_bar(self) -> TurnBar:
        """Follow mode's bar, made: its module loaded with the mode, not with every table (issue #14)."""
        from ..widgets.turn_bar import TurnBar

        self.turn_bar = TurnBar(id="turn")
        return self.turn_bar

    def on_mount(self) -> None:
        self.call_after_refresh(self._mount_footer)
        self.query_one("#bank").border_title = self.app.tr("bank.title")
        self.query_one("#log").border_title = self.app.tr("log.title")
        # the App's state, shown from now on as it changes (init: shown at once)
        self.watch(self.app, "version", self._session_changed)
        self.watch(self.app, "status", self._status_changed)
        if self.end is not None:
            self.set_interval(1.0, self.tick, name="countdown")

    async def _mount_footer(self) -> None:
        """The footer, mounted in its place once the table has been drawn: Textual's ``Footer`` (its module, its
        stylesheet and a widget for each key) is a tenth of the console's start (counted with callgrind: 23 M
        instructions, 2.6% of an empty Textual app's start), and the table, which the banker reads, comes first; the
        keys follow a frame later. The place it takes is kept from the first frame, so nothing moves."""
        from ..widgets.footer import BankFooter  # loaded here, after the first frame

        place = self.query_one("#footer-place")
        await self.mount(BankFooter(), before=place)
        await place.remove()
        self.refresh_bindings()  # the footer shows the keys the screen has now (it hears of their changes from now on)

    def tick(self) -> None:
        """The countdown: the header redrawn; once the agreed end is reached, the alert (once, when no
        dialog is open: the App rings the bell and offers the end of the game with the valuation)."""
        self.show_header()
        if self.end is None or self.time_up_said or self.session.state.over or self.app.session is not self.session:
            return
        if left(self.end, self.app.clock()).total_seconds() <= 0 and self.app.screen is self and not self.app.busy:
            self.time_up_said = True
            self.post_message(TimeUp(clock_text(self.end)))

    def show_header(self) -> None:
        """The header: a timed game's countdown first (it must never be cut off), then the session (TableHeader)."""
        text = Text()
        if self.end is not None and not self.session.state.over:
            tr = self.app.tr
            remaining = left(self.end, self.app.clock())
            seconds = remaining.total_seconds()
            if seconds > 0:
                style = "bold black on yellow" if seconds <= CLOSE_TO_END else "bold reverse"
                text.append(" " + tr("timed.countdown", left=countdown(remaining), end=clock_text(self.end)) + " ", style)
            else:
                text.append(" " + tr("timed.up_header", end=clock_text(self.end)) + " ", "bold white on red")
            text.append(" ")
        self.query_one(TableHeader).show_lead(text)

    def _session_changed(self) -> None:
        if self.app.session is self.session:
            self.refresh_table()

    def _status_changed(self, status: Status) -> None:
        message = self.query_one("#message", Static)
        message.update(Text(status.text))  # a memo, a reason, a name: as typed, never markup ("[/x]")
        message.set_class(status.error, "error")

    def refresh_table(self) -> None:
        session = self.session
        state = session.state
        tr = self.app.tr
        edition = state.edition
        # the actions standing, as `banker state` counts them: an undo and what it took back are not counted (found
        # playing: after one undo the header said 24 actions and `banker state` 22 standing)
        name, n = visible(session.name), len(state.history)
        header = tr("table.header", name=name, edition=edition.name, variant=tr(f"variant.{state.variant.id}"), n=n)
        # where the whole does not fit (a timed game at 80 columns): the name and the count only, the name cut if need be
        self.query_one(TableHeader).show_session(header, lambda cut: tr("table.header_short", name=cut, n=n), name,
                                                 tr("table.readonly_mark") if session.readonly else "")  # damaged
        self.show_header()
        debt_shown = bool(state.debtors) and not state.over
        if state.over != self.over_shown or debt_shown != self.debt_shown:  # the footer's keys follow
            self.over_shown = state.over
            self.debt_shown = debt_shown
            self.refresh_bindings()
        bar = self.turn_bar
        if bar is None and state.follow:  # follow mode started during the game: its bar above the cards
            self.mount(bar := self._turn_bar(), before=self.query_one(PlayersPanel))
        if bar is not None:
            bar.show(state, tr)
        self.query_one(PlayersPanel).show(state, tr)
        self.query_one(BankPanel).show(state, tr)
        self.query_one(LogPanel).show_entries(session.entries, tr)  # as many as fit: the panel works it out

    def action_act(self, op: str) -> None:
        self.post_message(ActionRequested(op))

    def action_shown(self, op: str) -> None:
        self.action_act(op)

    def action_roll(self, digit: str) -> None:
        """A die typed on the idle table: the roll's question, with that die already typed (and whatever is
        typed while it opens: :meth:`on_key`)."""
        self.typed_ahead = [digit]
        self._roll_count += 1
        self.post_message(ActionRequested("roll", {"_typed": partial(self.take_typed, self._roll_count)}))

    _roll_count = 0

    def take_typed(self, roll: int | None = None) -> list[str]:
        """The keys typed since the first die, for the roll's question once it is on screen (it takes the keys from
        then on); ``roll``: which roll's keys (a later roll's are not taken by an earlier one's end)."""
        if roll is not None and roll != self._roll_count:
            return []
        keys, self.typed_ahead = self.typed_ahead or [], None
        return keys

    def on_key(self, event: events.Key) -> None:
        """The roll starts here, not by its bindings (they are for the help, the footer and the palette): a die
        typed on the idle table opens the roll's question, and what is typed while it opens (the second die,
        Enter: a fast banker, or keys sent in one burst) is kept for it, never taken as the table's keys (a
        second roll, the proposal's Enter). Keys reach the screen in order; bindings run only after."""
        if self.focused is not None:  # the command line: its own keys
            return
        if self.session.state.over and self.typed_ahead is None and event.key in CLOSED_KEYS:
            event.stop()  # not in the footer any more: a key pressed from habit is answered, not ignored
            event.prevent_default()
            self.post_message(MessageShown(self.app.tr("flow.game_over"), error=True))
            return
        if self.typed_ahead is None:
            if event.character and event.character in DICE_KEYS:
                event.stop()
                event.prevent_default()
                self.action_roll(event.character)
            return
        if event.key in ("enter", "space", "backspace") or event.is_printable:
            self.typed_ahead.append(event.key if event.key in ("enter", "backspace") else (event.character or ""))
            event.stop()
            event.prevent_default()

    def action_settle(self) -> None:
        self.post_message(ActionRequested("settle"))

    def action_focus_command(self) -> None:
        # focused now, before the App hands on the next key (``Widget.focus`` waits for the next idle turn)
        self.set_focus(self.query_one(CommandLine))

    def action_unfocus(self) -> None:
        self.set_focus(None)

    @on(CommandLine.Submitted, "#command")
    def _command(self, event: CommandLine.Submitted) -> None:
        line = event.value.strip()
        if not line:
            return
        from ..quick import QuickError, parse  # loaded after the first frame (with the action flows), not before it

        try:
            parsed = parse(self.session.state, line)
        except QuickError as e:
            self.post_message(MessageShown(e.text(self.app.tr), error=True))
            return
        event.input.value = ""
        # the line understood: back to the action keys (the next letters were typed into the line, "xтарокс340"); a
        # line not understood keeps the focus, to be corrected
        self.set_focus(None)
        given = dict(parsed.command)
        if parsed.op in ("rent", "build"):
            given["_quick"] = True  # a typed rent does not ask "by the card?", a typed build is one building
        self.post_message(ActionRequested(parsed.op, given))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while typing in the command line, letters are letters, not action keys
        if action in ("act", "roll", "settle", "focus_command", "shown") and isinstance(self.focused, CommandLine):
            return False
        if action == "shown" and parameters[0] not in (DEBT_SHOWN if self.debt_shown else SHOWN):
            return False  # not in the footer of the moment: the action's own (hidden) binding takes the key
        if self.session.state.over and action in ("act", "roll", "settle", "shown") and parameters != ("undo",):
            return False  # a game that is over takes only undo (banker.ui.actions): the footer offers nothing else
        return True
