"""Small modal dialogs the action flows are built from: choose, ask, confirm, inform."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast, overload

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, ScreenResultType
from textual.widget import Widget
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.footer import BankFooter, release_when_removed
from .base import localized

if TYPE_CHECKING:  # pragma: no cover
    from textual import getters

    from ..app import BankerApp


@dataclass
class Choice:
    value: Any
    label: str
    enabled: bool = True
    note: str = ""  # shown dim after the label: a price, or why it is not possible

    def prompt(self) -> Text:
        text = Text(self.label, "" if self.enabled else "dim")
        if self.note:
            text.append("  " + self.note, "dim" if self.enabled else "dim italic")
        return text


def joined(lines: Sequence[Text | str]) -> Text:
    """Lines of a dialog's body as one text."""
    body = Text()
    for i, line in enumerate(lines):
        if i:
            body.append("\n")
        body.append_text(line if isinstance(line, Text) else Text(line))
    return body


class Dialog(ModalScreen[ScreenResultType]):
    """A modal dialog: its keys, in the interface's language (see :mod:`.base`), in its own footer."""

    if TYPE_CHECKING:
        app = getters.app(BankerApp)

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return localized(super().active_bindings, self.app.tr)

    def on_mount(self) -> None:
        # every subclass's own on_mount runs too (Textual dispatches along the MRO)
        self.mount(BankFooter())

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        release_when_removed(self, [self, *self.walk_children(Widget)])  # see widgets/footer.py (#6665)
        return super().dismiss(result)


class ChooseScreen(Dialog[Any]):
    """Pick one of a list; type to filter; Enter picks, Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("down", "down", show=False),
                Binding("up", "up", show=False)]

    def __init__(self, title: str, choices: list[Choice], empty: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices
        self.empty = empty

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(placeholder=self.app.tr("dialog.filter"), id="filter")
            yield OptionList(id="choices")
            yield Static("", id="choice-note", classes="dialog-note")

    def on_mount(self) -> None:
        self._fill("")
        self.query_one("#filter", Input).focus()

    def _fill(self, needle: str) -> None:
        options = self.query_one("#choices", OptionList)
        options.clear_options()
        needle = needle.casefold()
        shown = [c for c in self.choices if needle in c.label.casefold()]
        for i, c in enumerate(self.choices):
            if c in shown:
                options.add_option(Option(c.prompt(), id=str(i), disabled=not c.enabled))
        first = next((n for n, c in enumerate(shown) if c.enabled), None)
        options.highlighted = first
        note = self.query_one("#choice-note", Static)
        if not shown:
            note.update(self.empty or self.app.tr("dialog.nothing"))
        elif first is None:
            note.update(self.empty or shown[0].note)
        else:
            note.update("")

    @on(Input.Changed, "#filter")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#filter")
    def _submit(self) -> None:
        options = self.query_one("#choices", OptionList)
        if options.highlighted is not None:
            option = options.get_option_at_index(options.highlighted)
            if not option.disabled:
                self.dismiss(self.choice(option).value)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choice(event.option).value)

    def choice(self, option: Option) -> Choice:
        """The choice an option shows (its id is the choice's index)."""
        assert option.id is not None  # every option of the list is given one
        return self.choices[int(option.id)]

    def action_down(self) -> None:
        self.query_one("#choices", OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one("#choices", OptionList).action_cursor_up()

    def action_cancel(self) -> None:
        self.dismiss(None)


#: what an :class:`AskScreen` asks for: a whole number or a line of text
Answer = TypeVar("Answer")


class AskScreen(Dialog["Answer | None"], Generic[Answer]):
    """Ask for a whole number (``number``) or a line of text; None when the banker cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    @overload
    def __init__(self: AskScreen[int], title: str, prompt: str, number: Literal[True] = True, minimum: int = 1,
                 maximum: int | None = None, value: str = "") -> None: ...

    @overload
    def __init__(self: AskScreen[str], title: str, prompt: str, number: Literal[False], minimum: int = 1,
                 maximum: int | None = None, value: str = "") -> None: ...

    def __init__(self, title: str, prompt: str, number: bool = True, minimum: int = 1, maximum: int | None = None,
                 value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.prompt_text = prompt
        self.number = number
        self.minimum = minimum
        self.maximum = maximum
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Label(self.prompt_text)
            yield Input(value=self.value, type="integer" if self.number else "text", id="answer")
            yield Static("", id="ask-error", classes="dialog-error")

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()

    @on(Input.Submitted, "#answer")
    def _submit(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        tr = self.app.tr
        if not self.number:
            if value:
                self.dismiss(cast(Answer, value))  # a text question (see the overloads)
            else:
                self.query_one("#ask-error", Static).update(tr("dialog.need_text"))
            return
        try:
            number = int(value)
        except ValueError:
            self.query_one("#ask-error", Static).update(tr("dialog.need_number"))
            return
        if number < self.minimum or (self.maximum is not None and number > self.maximum):
            high = self.maximum if self.maximum is not None else "…"
            self.query_one("#ask-error", Static).update(tr("dialog.range", low=self.minimum, high=high))
            return
        self.dismiss(cast(Answer, number))  # a number question

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(Dialog[bool]):
    """Show exactly what will happen (who pays whom, how much) before it is committed."""

    BINDINGS = [Binding("escape,n", "cancel", "Cancel"), Binding("enter,y", "confirm", "Confirm", priority=True)]

    def __init__(self, title: str, lines: Sequence[Text | str], confirm: str | None = None, danger: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.confirm_label = confirm
        self.danger = danger

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        with Vertical(classes="dialog confirm" + (" danger" if self.danger else "")):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(joined(self.lines), id="confirm-body")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.confirm_label or tr("dialog.confirm"), variant="error" if self.danger else "primary",
                             id="yes")
                yield Button(tr("dialog.cancel"), id="no")

    @on(Button.Pressed, "#yes")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_cancel(self) -> None:
        self.dismiss(False)


class InfoScreen(Dialog[None]):
    """A result to read (the tax choice's other option, the valuation); any key closes."""

    BINDINGS = [Binding("escape,enter,space,q", "close", "Close", priority=True)]

    def __init__(self, title: str, lines: Sequence[Text | str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog info"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(joined(self.lines), id="info-body")
            yield Label(self.app.tr("dialog.any_key"), classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
