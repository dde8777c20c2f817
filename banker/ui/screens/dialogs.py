"""Small modal dialogs the action flows are built from: choose, ask, confirm, inform."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast, overload

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, ScreenResultType
from textual.widget import Widget
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from banker.rules.names import text_fault

from ..keys import with_layouts
from ..match import EXACT, ranked
from ..widgets.footer import BankFooter, release_when_removed
from ..widgets.prose import Prose
from .base import localized

if TYPE_CHECKING:  # pragma: no cover
    from textual import getters

    from banker.i18n import Translator

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


def dialog_title(text: str) -> Label:
    """A dialog's title line: its words as they are, never markup (a title names players and spaces: "[/x]Bo")."""
    return Label(text, classes="dialog-title", markup=False)


def joined(lines: Sequence[Text | str]) -> Text:
    """Lines of a dialog's body as one text."""
    body = Text()
    for i, line in enumerate(lines):
        if i:
            body.append("\n")
        body.append_text(line if isinstance(line, Text) else Text(line))
    return body


class Dialog(ModalScreen[ScreenResultType]):
    """A modal dialog: its keys, in the interface's language (see :mod:`.base`), in its own footer.

    ``back``: Escape steps back to the previous question of the action (its key says "Back"), not out of it.
    ``leave``: what the Escape key says when it leaves the action (else "Cancel"): the undo's, whose own word is
    "Cancel"'s in Ukrainian ("Скасувати"), says "Keep" ("Залишити"), as its button does.
    ``failed``: why the disk refused to record the action this dialog's answer was to record (the flow asks it
    again, the answers kept: ``Flow.commit``), said on it above its buttons, with Enter to try again."""

    if TYPE_CHECKING:
        app = getters.app(BankerApp)

    def __init__(self, back: bool = False) -> None:
        super().__init__(classes="dialog-screen")
        self.back = back
        self.leave: str | None = None
        self.failed: str | None = None

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = localized(super().active_bindings, self.app.tr)
        said = self.app.tr("key.back") if self.back else self.leave
        if said:
            for key, active in bindings.items():
                if active.node is self and active.binding.action == "cancel":
                    bindings[key] = ActiveBinding(active.node, replace(active.binding, description=said),
                                                  active.enabled, active.tooltip)
        return bindings

    def on_mount(self) -> None:
        # every subclass's own on_mount runs too (Textual dispatches along the MRO)
        # a dialog opened before the table's first frame was drawn (keys typed ahead): its rules are in the rest of
        # the stylesheet, added now, before the dialog is first drawn (a no-op once they are in)
        self.app.load_whole_stylesheet()
        self.mount(BankFooter())
        if self.failed is not None:
            frame = self.query(".dialog").first(Vertical)
            buttons = frame.query(".dialog-buttons")
            said = Static(f"{self.failed}\n{self.app.tr('flow.write_again')}", id="write-failed",
                          classes="dialog-error", markup=False)
            frame.mount(said, before=buttons.first() if buttons else None)

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        release_when_removed(self, [self, *self.walk_children(Widget)])  # see widgets/footer.py (#6665)
        return super().dismiss(result)

    def action_scroll_body(self, where: str) -> None:
        """Scroll the dialog's text (:class:`DialogBody`, never focused) by the keys the dialog binds to it."""
        for body in self.query(DialogBody):
            getattr(body, f"scroll_{where}")()


class ChooseScreen(Dialog[Any]):
    """Pick one of a list; type to filter; Enter picks, Escape cancels (or steps back: ``back``).

    The filter ranks the choices by :mod:`banker.ui.match` (whole-word prefixes first, a match inside a
    word after every prefix match) and highlights the best one that can be chosen; ``default`` (a value)
    is listed first and highlighted while nothing is typed; ``current`` (a value: the answer given before
    the banker stepped back to this question) is highlighted where it stands, ahead of the default."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("down", "down", show=False),
                Binding("up", "up", show=False)]

    def __init__(self, title: str, choices: list[Choice], empty: str = "", default: Any = None, back: bool = False,
                 current: Any = None) -> None:
        super().__init__(back)
        self.title_text = title
        self.choices = choices
        self.empty = empty
        self.default = default
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield dialog_title(self.title_text)
            yield Input(placeholder=self.app.tr("dialog.filter"), id="filter")
            yield OptionList(id="choices", markup=False)
            yield Static("", id="choice-note", classes="dialog-note", markup=False)

    def on_mount(self) -> None:
        self._fill("")
        self.query_one("#filter", Input).focus()

    def shown(self, needle: str) -> list[tuple[int, int]]:
        """The choices ``needle`` lets through, best first: (tier, index); nothing typed: all, the default first
        (what is typed always filters: a name of emoji alone, or punctuation that matches nothing)."""
        if not needle.strip():
            order = list(range(len(self.choices)))
            first = [i for i in order if self.default is not None and self.choices[i].value == self.default][:1]
            return [(EXACT, i) for i in first + [i for i in order if i not in first]]
        return ranked(needle, range(len(self.choices)), lambda i: self.choices[i].label)

    def _fill(self, needle: str) -> None:
        options = self.query_one("#choices", OptionList)
        options.clear_options()
        shown = self.shown(needle)
        for _tier, i in shown:
            c = self.choices[i]
            options.add_option(Option(c.prompt(), id=str(i), disabled=not c.enabled))
        best = shown[0][0] if shown else None
        first = next((n for n, (t, i) in enumerate(shown) if t == best and self.choices[i].enabled), None)
        if self.current is not None and not needle.strip():  # stepped back to: the answer given before
            first = next((n for n, (_t, i) in enumerate(shown)
                          if self.choices[i].value == self.current and self.choices[i].enabled), first)
        options.highlighted = first
        note = self.query_one("#choice-note", Static)
        tr = self.app.tr
        if not self.choices:
            note.update(self.empty or tr("dialog.nothing"))
        elif not shown:  # the filter, not the game, left nothing
            note.update(tr("picker.no_match", text=needle.strip()))
        elif first is None:
            # none can be chosen (each says why), or the best match cannot: said, never a worse one picked
            top = self.choices[shown[0][1]]
            some = any(self.choices[i].enabled for _t, i in shown)
            note.update(tr("picker.best_not_possible", name=top.label, why=top.note) if some and top.note
                        else tr("picker.none_possible"))
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
    """Ask for a whole number (``number``) or a line of text; None when the banker cancels (or steps back:
    ``back``). A number is typed in full and checked on Enter: ``8o`` is refused, never read as 8."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("pageup", "scroll_body('page_up')", show=False),
                Binding("pagedown", "scroll_body('page_down')", show=False)]

    @overload
    def __init__(self: AskScreen[int], title: str, prompt: str, number: Literal[True] = True, minimum: int = 1,
                 maximum: int | None = None, value: str = "", back: bool = False,
                 check: Callable[[int], str | None] | None = None, shown: Callable[[int], str] = str) -> None: ...

    @overload
    def __init__(self: AskScreen[str], title: str, prompt: str, number: Literal[False], minimum: int = 1,
                 maximum: int | None = None, value: str = "", back: bool = False,
                 check: Callable[[int], str | None] | None = None, shown: Callable[[int], str] = str) -> None: ...

    def __init__(self, title: str, prompt: str, number: bool = True, minimum: int = 1, maximum: int | None = None,
                 value: str = "", back: bool = False, check: Callable[[int], str | None] | None = None,
                 shown: Callable[[int], str] = str) -> None:
        """``check``: why a number in range is still refused (an auction's bid the bidder cannot cover), said in the
        box with the number kept to correct, or None to take it. ``shown``: how the bounds are written (an amount
        of money with its unit: "Between $1 and $710.", not "Between 1 and 710.")."""
        super().__init__(back)
        self.title_text = title
        self.prompt_text = prompt
        self.number = number
        self.minimum = minimum
        self.maximum = maximum
        self.value = value
        self.check = check
        self.shown = shown

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield dialog_title(self.title_text)
            # a long question (undo's, quoting a bankruptcy's entry) scrolls, the answer's box below it in sight (found
            # at 80x24: the box was pushed off the screen and the reason typed blind); PgUp PgDn scroll it
            with DialogBody():
                yield Label(Prose(self.prompt_text), classes="dialog-prompt")
            # a plain text field: an "integer" one drops a letter typed by mistake without a word ("8o" became 8)
            yield Input(value=self.value, id="answer")
            yield Static("", id="ask-error", classes="dialog-error", markup=False)

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()

    @on(Input.Submitted, "#answer")
    def _submit(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        tr = self.app.tr
        error = self.query_one("#ask-error", Static)
        if not self.number:
            fault = text_fault(value)  # said here, with the text kept: the engine's refusal ended the whole flow
            if not value:
                error.update(tr("dialog.need_text"))
            elif fault is not None:
                error.update(text_fault_said(tr, fault))
            else:
                self.dismiss(self.text_answer(value))
            return
        number = whole_number(value)
        digits = value.removeprefix("-")
        if number is None and digits.isascii() and digits.isdigit():  # digits only, just too many of them
            error.update(tr("dialog.too_many_digits", text=value[:MAX_DIGITS] + "…", n=len(digits), most=MAX_DIGITS))
            return
        if number is None:
            error.update(tr("picker.not_a_number", text=value) if value else tr("dialog.need_number"))
            return
        if number < self.minimum or (self.maximum is not None and number > self.maximum):
            low, high = self.shown(self.minimum), self.shown(self.maximum) if self.maximum is not None else None
            error.update(tr("dialog.range", low=low, high=high) if high is not None
                         else tr("dialog.at_least", low=low))  # "Between 1 and …" said nothing
            return
        why = self.check(number) if self.check is not None else None
        if why:
            error.update(why)
            return
        self.dismiss(cast(Answer, number))  # a number question

    def text_answer(self, text: str) -> Answer:
        """What a text question gives for ``text`` (checked): the text itself (see the overloads); a question that asks
        more beside it (the undo's, which entry: :class:`banker.ui.screens.undo.UndoScreen`) gives that with it."""
        return cast(Answer, text)

    def action_cancel(self) -> None:
        self.dismiss(None)


def text_fault_said(tr: Translator, fault: tuple[str, dict[str, Any]]) -> str:
    """A text's fault (:func:`banker.rules.names.text_fault`) as a box says it, under the text kept to correct."""
    kind, params = fault
    if kind == "too_long":
        return tr("dialog.too_long", n=params["n"], most=params["limit"])
    return tr("dialog.bad_char", **params)


#: the most digits a typed amount may have (the engine's limits are far below; this keeps int() safe)
MAX_DIGITS = 12


def whole_number(text: str) -> int | None:
    """``text`` as a whole number, or None: ASCII digits only, an optional minus sign, no letter ever read
    as a digit and nothing cut off (``8o``, ``5O``, ``１２``, ``1e3`` are refused)."""
    text = text.strip()
    digits = text.removeprefix("-")
    if not digits or len(digits) > MAX_DIGITS or not all("0" <= ch <= "9" for ch in digits):
        return None
    return int(text)


class DialogBody(VerticalScroll, can_focus=False):
    """What a confirmation says, scrolled within the dialog when it is taller than the screen allows, so the
    buttons stay in sight (found at 80x24: a bankruptcy's preview pushed them off the screen). Never focused: the
    dialog's own keys scroll it (↑ ↓ PgUp PgDn), and Enter still confirms."""


class ConfirmScreen(Dialog["bool | None"]):
    """Show exactly what will happen (who pays whom, how much) before it is committed: True to record it.

    Escape gives None: the flow steps back to the question before (``back``: the key says "Back"), or, when
    nothing was asked, cancels; ``n`` ("no") and the Cancel button give False: the action is cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding(with_layouts("n"), "no", "Cancel", show=False),
                Binding(with_layouts("enter,y"), "confirm", "Confirm", priority=True),
                Binding("up", "scroll_body('up')", show=False), Binding("down", "scroll_body('down')", show=False),
                Binding("pageup", "scroll_body('page_up')", show=False),
                Binding("pagedown", "scroll_body('page_down')", show=False)]

    def __init__(self, title: str, lines: Sequence[Text | str], confirm: str | None = None, danger: bool = False,
                 back: bool = False, cancel: str | None = None) -> None:
        super().__init__(back)
        self.title_text = title
        self.lines = lines
        self.confirm_label = confirm
        self.cancel_label = cancel
        self.danger = danger

    def compose(self) -> ComposeResult:
        tr = self.app.tr
        with Vertical(classes="dialog confirm" + (" danger" if self.danger else "")):
            yield dialog_title(self.title_text)
            with DialogBody():
                yield Static(Prose(joined(self.lines)), id="confirm-body")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.confirm_label or tr("dialog.confirm"), variant="error" if self.danger else "primary",
                             id="yes")
                # Escape steps back here (``back``): the button cancels, as ``n`` does, and says so
                yield Button(self.cancel_label or (tr("escape.cancel_n") if self.back else tr("dialog.cancel")), id="no")

    @on(Button.Pressed, "#yes")
    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)


class InfoScreen(Dialog[None]):
    """A result to read (the tax choice's other option, the valuation); any key closes it. Escape, Enter,
    Space and ``q`` only close it; any other key that types a character is then passed on to the screen
    below, so the letter of the next action is not lost ("press any key": the key pressed is the next action)."""

    BINDINGS = [Binding(with_layouts("escape,enter,space,q"), "close", "Close", priority=True)]

    def __init__(self, title: str, lines: Sequence[Text | str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog info"):
            yield dialog_title(self.title_text)
            with DialogBody():
                yield Static(Prose(joined(self.lines)), id="info-body")
            yield Label(self.app.tr("dialog.any_key"), classes="dialog-hint")

    def on_key(self, event: events.Key) -> None:
        # the keys bound above close the box (before this is called); any other key closes it too
        event.stop()
        event.prevent_default()
        self.dismiss(None)
        if event.is_printable:
            self.app.call_after_refresh(self.app.simulate_key, event.key)  # once the box is gone

    def action_close(self) -> None:
        self.dismiss(None)
