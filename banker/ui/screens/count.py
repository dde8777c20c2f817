"""Counting the table: the banker types what is physically there (the houses and hotels in the bank,
the deeds in each player's hand, the cash where the table plays with paper money); a figure left
empty is not counted. The screen gives back the ``count`` command; the flow shows every difference
from the bank's figures, with the log entries behind them, before it is recorded."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from .dialogs import Dialog, dialog_title


class CountScreen(Dialog[dict[str, Any] | None]):
    """The count, typed in; dismissed with its command (None: cancelled). ``previous``: the count it gave before
    (the banker stepped back from the check), typed in again."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel"),
                                            Binding("ctrl+s", "check", "count.check_key", priority=True)]

    def __init__(self, players: tuple[str, ...], previous: dict[str, Any] | None = None, back: bool = False) -> None:
        super().__init__(back)
        self.players = players
        self.previous = previous or {}

    def given(self, key: str, player: str | None = None) -> str:
        """The previous count's figure, as typed ("": none)."""
        value = self.previous.get(key)
        if player is not None:
            value = (value or {}).get(player)
        return "" if value is None else str(value)

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        with Vertical(classes="dialog count"):
            yield dialog_title(tr("count.title"))
            yield Static(tr("count.intro"), classes="dialog-note")
            with Grid(id="count-bank", classes="count-grid"):
                yield Label(tr("count.bank_houses"))
                yield Input(self.given("houses"), type="integer", id="count-houses", compact=True)
                yield Label(tr("count.bank_hotels"))
                yield Input(self.given("hotels"), type="integer", id="count-hotels", compact=True)
            with Grid(id="count-players", classes="count-grid count-players"):
                yield Label("")
                yield Label(tr("count.deeds"), classes="count-head")
                yield Label(tr("count.cash"), classes="count-head")
                for i, p in enumerate(self.players):
                    yield Label(p, markup=False)
                    yield Input(self.given("deeds", p), type="integer", id=f"count-deeds-{i}", compact=True)
                    yield Input(self.given("cash", p), type="integer", id=f"count-cash-{i}", compact=True)
            yield Static("", id="count-error", classes="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(tr("count.check"), variant="primary", id="check")
                yield Button(tr("dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#count-houses", Input).focus()

    def command(self) -> dict[str, Any] | None:
        """The count typed so far (None, with the reason shown, when a figure is not a whole number)."""
        cmd: dict[str, Any] = {"op": "count"}
        error = self.query_one("#count-error", Static)

        def number(selector: str) -> int | None | bool:
            text = self.query_one(selector, Input).value.strip()
            if not text:
                return None
            try:
                value = int(text)
            except ValueError:
                return False
            return value if value >= 0 else False

        for key in ("houses", "hotels"):
            value = number(f"#count-{key}")
            if value is False:
                error.update(self.app.tr("count.not_a_number"))
                return None
            if value is not None:
                cmd[key] = value
        for key in ("deeds", "cash"):
            counts: dict[str, int] = {}
            for i, p in enumerate(self.players):
                value = number(f"#count-{key}-{i}")
                if value is False:
                    error.update(self.app.tr("count.not_a_number"))
                    return None
                if value is not None:
                    counts[p] = int(value)
            if counts:
                cmd[key] = counts
        if len(cmd) == 1:
            error.update(self.app.tr("count.nothing"))
            return None
        return cmd

    @on(Input.Submitted)
    def _next(self, event: Input.Submitted) -> None:
        """Enter moves on to the next figure; on the last one, it checks the count."""
        inputs = list(self.query(Input))
        at = inputs.index(event.input)
        if at + 1 < len(inputs):
            inputs[at + 1].focus()
        else:
            self.action_check()

    @on(Button.Pressed, "#check")
    def action_check(self) -> None:
        cmd = self.command()
        if cmd is not None:
            self.dismiss(cmd)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
