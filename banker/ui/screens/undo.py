"""The undo's question (``u``): why undo, over the log's latest actions to pick the one to undo from.

Loaded with the undo's flow when ``u`` is pressed (never before the table's first frame): the list is made then,
from the log (:meth:`banker.ui.actions.Flow.undo_choices`), and this screen only shows it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.prose import Prose
from .dialogs import AskScreen, Choice, DialogBody, dialog_title

#: the undo's answer: the seq of the entry highlighted in the list, and the text typed (the reason, or ``#3 …``)
Picked = tuple[int, str]


class UndoScreen(AskScreen[Picked]):
    """The reason for an undo, typed in the box that has the focus, above the log's latest actions, newest first:
    each as the log says it, its number first (``choices``: the values are the seqs; those that cannot be undone now,
    on their own or already undone, are dimmed with why). ``default``, the last action that stands, is highlighted,
    so the reason and Enter undo it as before; ↑ ↓ highlight another, and the question above names the one
    highlighted (``prompts``: each enabled choice's question). Dismissed with (the seq highlighted, the text): the
    text may still name an entry first (``#3 wrong house``), which the flow reads. ``current``: the entry highlighted
    when the banker stepped back to this question, ``value`` its text."""

    #: PgUp PgDn scroll the list (the question above is one line): an entry that cannot be picked may be below a long one
    #: (a bankruptcy's), where ↓ does not go
    BINDINGS: ClassVar[list[BindingType]] = [Binding("up", "pick(-1)", show=False),
                                            Binding("down", "pick(1)", show=False),
                                            Binding("pageup", "scroll_entries('page_up')", show=False),
                                            Binding("pagedown", "scroll_entries('page_down')", show=False)]

    def __init__(self, title: str, prompts: dict[int, str], choices: list[Choice], default: int, listed: str,
                 value: str = "", current: int | None = None, back: bool = False) -> None:
        self.prompts = prompts
        self.choices = choices
        self.listed = listed
        self.picked = current if current in prompts else default
        # a text question (number=False), whose overload types it AskScreen[str]: this one answers the pair (text_answer)
        super().__init__(title, prompts[self.picked], False, value=value, back=back)  # type: ignore[misc]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog undo"):
            yield dialog_title(self.title_text)
            with DialogBody():
                yield Label(Prose(self.prompt_text), id="undo-prompt", classes="dialog-prompt")
            yield Input(value=self.value, id="answer")
            yield Static("", id="ask-error", classes="dialog-error", markup=False)
            yield Static(self.listed, id="undo-listed", classes="dialog-hint", markup=False)
            entries = OptionList(*(Option(Prose(c.prompt()), id=str(c.value), disabled=not c.enabled) for c in self.choices),
                                 id="undo-entries", markup=False)
            entries.can_focus = False  # the reason's box keeps the keyboard: ↑ ↓ move the highlight from there
            yield entries

    def on_mount(self) -> None:
        entries = self.query_one("#undo-entries", OptionList)
        entries.highlighted = next(i for i, c in enumerate(self.choices) if c.value == self.picked)

    def action_pick(self, step: int) -> None:
        entries = self.query_one("#undo-entries", OptionList)
        if step > 0:
            entries.action_cursor_down()
        else:
            entries.action_cursor_up()

    def action_scroll_entries(self, where: str) -> None:
        getattr(self.query_one("#undo-entries", OptionList), f"scroll_{where}")()

    @on(OptionList.OptionHighlighted, "#undo-entries")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        assert event.option.id is not None  # every option is given its entry's seq
        self.picked = int(event.option.id)
        self.prompt_text = self.prompts[self.picked]
        self.query_one("#undo-prompt", Label).update(Prose(self.prompt_text))

    @on(OptionList.OptionSelected, "#undo-entries")
    def _selected(self) -> None:
        """A click on an entry highlights it (above): the reason is still to be typed, in its box."""
        self.query_one("#answer", Input).focus()

    def text_answer(self, text: str) -> Picked:
        return self.picked, text
