"""A trade between two players: cash, deeds and jail cards each way, and the 10%-or-lift
choice for every mortgaged deed received. The engine checks it live as it is filled in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from banker.rules import Refused

from ..widgets.prose import Prose
from .dialogs import Dialog, dialog_title, joined, whole_number


class NotANumber(ValueError):
    """A field holds something other than a whole number, or a negative one; ``key``: the sentence that says so."""

    def __init__(self, text: str, key: str = "picker.not_a_number") -> None:
        super().__init__(text)
        self.text = text
        self.key = key


class TradeScreen(Dialog[dict[str, Any] | None]):
    """The trade, filled in; dismissed with its command once the rules accept it (None: cancelled). ``previous``:
    the trade it gave before (the banker stepped back from the confirmation), filled in again."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel"),
                                            Binding("ctrl+s", "propose", "Propose", priority=True)]

    def __init__(self, a: str, b: str, previous: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.a = a
        self.b = b
        self.previous = previous or {}
        self.lifted: Sequence[int] = self.previous.get("lift", ())  # ticked when the lifts are first listed

    def given(self, side: str, key: str) -> Any:
        """What the previous trade gave for ``side`` (``give``, ``get``) and ``key`` (None: nothing)."""
        return self.previous.get(side, {}).get(key)

    def typed(self, value: Any) -> str:
        return str(value) if value else ""

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        state = self.app.current_session.state
        with Vertical(classes="dialog trade"):
            yield dialog_title(tr("trade.title", a=self.a, b=self.b))
            with Horizontal(classes="trade-sides"):
                for side, who in (("give", self.a), ("get", self.b)):
                    with Vertical(classes="trade-side"):
                        yield Label(tr("trade.gives", player=who, cash=state.edition.fmt(state.cash[who])),
                                    classes="trade-who", markup=False)
                        yield Input(self.typed(self.given(side, "cash")), placeholder=tr("trade.cash"), id=f"{side}-cash")
                        yield SelectionList[int](*self.deed_selections(who, self.given(side, "spaces") or ()),
                                                 id=f"{side}-spaces")
                        if state.jail_cards_of(who):
                            yield SelectionList[str](*self.jail_selections(who, self.given(side, "jail_cards") or ()),
                                                     id=f"{side}-jail", classes="trade-jail")
            yield Label(tr("trade.lift"), id="lift-label")
            yield SelectionList[int](id="lift")
            if state.edition.rules.debt_payable_in_kind and any(c.creditor == self.b for c in state.debts.get(self.a, [])):
                yield Input(self.typed(self.previous.get("debt_credit")), placeholder=tr("trade.debt_credit"),
                            id="debt-credit")
            yield Static(id="trade-preview", classes="dialog-note")
            with Horizontal(classes="dialog-buttons"):
                yield Button(tr("trade.propose"), variant="primary", id="propose")
                yield Button(tr("dialog.cancel"), id="cancel")

    def deed_selections(self, who: str, chosen: Sequence[int] = ()) -> list[Selection[int]]:
        state = self.app.current_session.state
        out = []
        for pos in sorted(state.deeds_of(who)):
            space = state.edition.spaces[pos]
            label = Text(space.name)
            if state.lots[pos].mortgaged:
                label.append(" " + self.app.tr("deed.mortgaged_mark"), "dim")
            built = space.kind == "street" and any(state.level(p) for p in state.group_positions(space.group or ""))
            if built:
                label.append(" " + self.app.tr("trade.built"), "dim italic")
            out.append(Selection(label, pos, pos in chosen and not built, disabled=built))
        return out

    def jail_selections(self, who: str, chosen: Sequence[str] = ()) -> list[Selection[str]]:
        """The player's Get Out of Jail Free cards, each by its deck: the trade names which changes hands."""
        state = self.app.current_session.state
        return [Selection(self.app.tr("trade.jail_card", deck=state.edition.decks[state.edition.cards[c].deck]), c, c in chosen)
                for c in state.jail_cards_of(who)]

    def on_mount(self) -> None:
        self.update_preview()

    def _int(self, selector: str) -> int:
        """A whole number typed in the field (0 when empty, or while only a sign is typed); raises
        :class:`NotANumber` for anything else ("8o" is never read as 8)."""
        text = self.query_one(selector, Input).value.strip()
        if text in ("", "-"):
            return 0
        number = whole_number(text)
        if number is None:
            raise NotANumber(text)
        if number < 0:  # said so, in the dialog's words (the engine names the command's key, give.cash)
            raise NotANumber(text, "picker.negative")
        return number

    def command(self) -> dict[str, Any]:
        cmd: dict[str, Any] = {"op": "trade", "from": self.a, "to": self.b}
        for side in ("give", "get"):
            part: dict[str, Any] = {}
            cash = self._int(f"#{side}-cash")
            if cash:
                part["cash"] = cash
            spaces = list(self.query_one(f"#{side}-spaces", SelectionList).selected)
            if spaces:
                part["spaces"] = spaces
            if self.query(f"#{side}-jail"):
                jail = list(self.query_one(f"#{side}-jail", SelectionList).selected)
                if jail:
                    part["jail_cards"] = jail
            cmd[side] = part
        lift = list(self.query_one("#lift", SelectionList).selected)
        if lift:
            cmd["lift"] = lift
        if self.query("#debt-credit"):
            credit = self._int("#debt-credit")
            if credit:
                cmd["debt_credit"] = credit
        return cmd

    def refresh_lift(self) -> None:
        state = self.app.current_session.state
        lift: SelectionList[int] = self.query_one("#lift", SelectionList)
        chosen = set(lift.selected)
        moving = [p for side in ("give", "get") for p in self.query_one(f"#{side}-spaces", SelectionList).selected
                  if state.lots[p].mortgaged]
        current = [lift.get_option_at_index(i).value for i in range(lift.option_count)]
        if current != moving:
            lift.clear_options()
            for pos in moving:
                lift.add_option(Selection(state.edition.spaces[pos].name, pos, pos in chosen or pos in self.lifted))
            if moving:  # Space ticks the first at once (found playing: it did nothing until an arrow key)
                lift.highlighted = 0
        self.lifted = ()  # the previous trade's lifts: ticked once, when the list is first filled
        self.query_one("#lift-label").display = bool(moving)
        lift.display = bool(moving)

    def update_preview(self) -> None:
        self.refresh_lift()
        preview = self.query_one("#trade-preview", Static)
        try:
            lines, _ = self.app.preview(self.command())
        except Refused as e:
            preview.update(Text(self.app.tr.console_refusal(e), "red"))
            return
        except NotANumber as e:
            preview.update(Text(self.app.tr(e.key, text=e.text), "red"))
            return
        preview.update(Prose(joined(lines)))

    @on(Input.Changed)
    @on(SelectionList.SelectedChanged)
    def _changed(self) -> None:
        self.update_preview()

    @on(Button.Pressed, "#propose")
    def action_propose(self) -> None:
        try:
            cmd = self.command()
            self.app.preview(cmd)  # the rules accept it (the state is left as it was)
        except Refused as e:
            self.query_one("#trade-preview", Static).update(Text(self.app.tr.console_refusal(e), "red"))
            return
        except NotANumber as e:
            self.query_one("#trade-preview", Static).update(Text(self.app.tr(e.key, text=e.text), "red"))
            return
        self.dismiss(cmd)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
