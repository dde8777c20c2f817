"""Follow mode's dialogs (issue #11): the roll, typed from the idle table, and the proposal of what the landing
requires, accepted with Enter.

The roll is typed as the dice show: ``35`` or ``3 5`` (with the Speed Die, its face after them: ``352``, ``35b``
for the Bus, ``35m`` for Mr. Monopoly). What it will do is shown under it as it is typed (the engine's preview,
given by the flow), so Enter records it without a further confirmation. The proposal shows what the landing
requires with who pays whom; Enter records it as proposed, ``a`` auctions an unowned deed instead, ``j`` uses a
Get Out of Jail Free card for the jail fine, Escape leaves it for later (Enter on the table offers it again), or,
when a question came before it (the fresh roll of the nearest utility's card), steps back to that question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from ..keys import with_layouts
from ..widgets.prose import Prose
from .dialogs import Dialog, dialog_title, joined

#: the Speed Die's faces as typed after the dice: a digit, or a letter (the Latin one, or what the Russian and
#: Ukrainian layouts type on its key, or the first letter of the word in those languages)
BUS_LETTERS = "bиа"
MR_LETTERS = "mьм"
#: how the Speed Die counts in a roll: "needed" (the player has passed GO and is not in jail), "ignored" (the
#: variant has it, but not for this roll: a face typed is passed on, the engine says it is ignored), "none"
SpeedUse = str


@dataclass(frozen=True)
class RollError:
    """Why a typed roll cannot be read: a catalog key (``turn.<key>``) and its parameters."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()


def parse_roll(text: str, speed: SpeedUse) -> dict[str, Any] | RollError:
    """The roll typed: ``35``, ``3 5``, ``3-5`` (the two white dice); with the Speed Die its face after them (``1``,
    ``2``, ``3``, ``b`` the Bus, ``m`` Mr. Monopoly). Returns the command's keys (``dice``, ``speed``) or why not."""
    items: list[int | str] = []
    word = ""
    for ch in text.casefold():
        if ch.isalpha():
            word += ch
            continue
        if word:
            items.append(word)
            word = ""
        if "0" <= ch <= "9":
            items.append(int(ch))
        elif ch.isdigit():  # another script's digit: refused, never read
            return RollError("roll_not_dice", (("text", text.strip()),))
    if word:
        items.append(word)
    dice = [i for i in items[:2] if isinstance(i, int)]
    if len(dice) < 2:
        return RollError("roll_two")
    if any(not 1 <= d <= 6 for d in dice):
        return RollError("roll_die")
    out: dict[str, Any] = {"dice": dice}
    rest = items[2:]
    if not rest:
        if speed == "needed":
            return RollError("roll_speed_missing")
        return out
    if len(rest) > 1 or speed == "none":
        return RollError("roll_extra")
    face = rest[0]
    if isinstance(face, int):
        if not 1 <= face <= 3:
            return RollError("roll_speed_face")
        out["speed"] = face
    elif face[0] in BUS_LETTERS:
        out["speed"] = "bus"
    elif face[0] in MR_LETTERS:
        out["speed"] = "mr-monopoly"
    else:
        return RollError("roll_speed_face")
    return out


def release_typed(given: dict[str, Any] | None) -> None:
    """An action that was given the table's typed keys (``_typed``, :meth:`.table.TableScreen.action_roll`) and
    ends without its question taking them: the table's keys are its own again (a no-op once they were taken)."""
    typed = (given or {}).get("_typed")
    if callable(typed):
        typed()


def typed_keys(typed: Any) -> tuple[str, bool]:
    """What was typed on the table for the roll before its question was on screen (a string, or the table's
    ``take_typed``, which ends the table's keeping of them): the text up to the first Enter, and whether Enter was
    pressed (the keys after it, typed before anything could be shown, are dropped)."""
    keys: list[str] = typed() if callable(typed) else list(str(typed))
    text = ""
    for key in keys:
        if key == "enter":
            return text, True
        text = text[:-1] if key == "backspace" else text + key
    return text, False



class RollScreen(Dialog["dict[str, Any] | None"]):
    """The roll, typed: the first die is often typed already (the key that opened it). ``preview`` says what
    the roll would do (its text, and whether the engine refuses it), shown as it is typed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, prompt: str, typed: str | Callable[[], list[str]], speed: SpeedUse,
                 preview: Callable[[dict[str, Any]], tuple[str, bool]], back: bool = False) -> None:
        super().__init__(back)
        #: the dice typed already: a text, or the table's keys typed since the first die (``take_typed``), taken
        #: when this question is on screen, so that none typed while it opens is lost
        self.typed_source = typed
        self.typed = typed if isinstance(typed, str) else ""
        self.submit = False  # Enter was typed already (before the question was on screen)
        self.title_text = title
        self.prompt_text = prompt
        self.speed = speed
        self.preview = preview

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog roll"):
            yield dialog_title(self.title_text)
            yield Label(Prose(self.prompt_text), classes="dialog-prompt")
            yield Input(value=self.typed, id="dice")
            yield Static("", id="roll-preview", classes="dialog-note")
            yield Static("", id="roll-error", classes="dialog-error", markup=False)

    def on_mount(self) -> None:
        answer = self.query_one("#dice", Input)
        answer.focus()
        self.typed, self.submit = typed_keys(self.typed_source)
        answer.value = self.typed
        answer.cursor_position = len(self.typed)
        self._show(self.typed)
        if self.submit:
            self.call_after_refresh(answer.action_submit)

    def _show(self, text: str) -> None:
        shown = self.query_one("#roll-preview", Static)
        self.query_one("#roll-error", Static).update("")
        parsed = parse_roll(text, self.speed)
        if isinstance(parsed, RollError):
            shown.update("")
            return
        line, ok = self.preview(parsed)
        shown.update(Prose(Text(line, "" if ok else "bold red")))

    @on(Input.Changed, "#dice")
    def _changed(self, event: Input.Changed) -> None:
        self._show(event.value)

    @on(Input.Submitted, "#dice")
    def _submit(self, event: Input.Submitted) -> None:
        parsed = parse_roll(event.value, self.speed)
        if isinstance(parsed, RollError):
            self.query_one("#roll-error", Static).update(self.app.tr(f"turn.{parsed.key}", **dict(parsed.params)))
            return
        self.dismiss(parsed)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ProposalScreen(Dialog["str | None"]):
    """What the landing requires, with who pays whom: Enter records it as proposed ("accept"); ``a`` auctions
    the unowned deed instead ("auction"); ``j`` uses a Get Out of Jail Free card for the fine ("card"); Escape
    leaves it for later, or steps back (``back``) to the question before (None). ``can_accept`` False: the
    proposal cannot be recorded now (its lines say why)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "accept", "turn.accept", priority=True),
        Binding(with_layouts("a"), "auction", "turn.auction_key"),
        Binding(with_layouts("j"), "card", "turn.card_key"),
        Binding("escape", "cancel", "turn.later"),
    ]

    def __init__(self, title: str, lines: Sequence[Text | str], can_accept: bool = True, auction: bool = False,
                 card: bool = False, back: bool = False) -> None:
        super().__init__(back)
        self.title_text = title
        self.lines = lines
        self.can_accept = can_accept
        self.can_auction = auction
        self.can_card = card
        #: a die was typed here: the Enter of that burst is the roll's, never this proposal's (see :meth:`on_key`)
        self.roll_typed = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog confirm proposal"):
            yield dialog_title(self.title_text)
            yield Static(Prose(joined(self.lines)), id="proposal-body")
            note = Static("", id="proposal-note", classes="dialog-error", markup=False)
            note.display = False  # a line only once there is something to say
            yield note

    def on_key(self, event: events.Key) -> None:
        """A die typed while the proposal is open (the next player's roll, typed before looking up): said, and the
        Enter typed after it does not record the proposal (it bought the deed that was meant for auction, and the
        roll was lost without a word). The Enter after that one does."""
        if event.character is not None and event.character.isdigit():
            event.stop()
            event.prevent_default()
            self.roll_typed = True
            note = self.query_one("#proposal-note", Static)
            note.update(self.app.tr("turn.roll_in_proposal"))
            note.display = True
            self.app.bell()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = {"accept": self.can_accept, "auction": self.can_auction, "card": self.can_card}
        return allowed.get(action, True)

    def action_accept(self) -> None:
        if self.roll_typed:  # the Enter of a roll typed here: not an answer to the proposal
            self.roll_typed = False
            return
        self.dismiss("accept")

    def action_auction(self) -> None:
        self.dismiss("auction")

    def action_card(self) -> None:
        self.dismiss("card")

    def action_cancel(self) -> None:
        self.dismiss(None)
