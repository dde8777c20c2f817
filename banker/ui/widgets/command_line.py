"""The quick-entry line: type ``rent boardwalk bob`` and press Enter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding, BindingType
from textual.suggester import Suggester
from textual.widgets import Input

if TYPE_CHECKING:  # pragma: no cover
    from ..app import BankerApp


class QuickSuggester(Suggester):
    """Completes the word being typed: actions, players, words of space names."""

    def __init__(self, app: BankerApp) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._app = app
        self._latest: tuple[str, str | None] = ("", None)

    async def get_suggestion(self, value: str) -> str | None:
        session = self._app.session
        if session is None or not value.strip():
            suggestion = None
        else:
            from ..quick import completions  # loaded after the first frame (with the action flows), not before it

            found = completions(session.state, value)
            suggestion = found[0] if found else None
        self._latest = (value, suggestion)
        return suggestion

    def suggestion_for(self, value: str) -> str | None:
        """The suggestion made for ``value`` (the one the line shows while it holds ``value``)."""
        seen, suggestion = self._latest
        return suggestion if seen == value else None


class CommandLine(Input, inherit_css=False):
    """An Input with completion (→ or Tab accepts the suggestion) and the lines typed before (Up and Down,
    as in a shell: for as long as the table of this session is open).

    Styled by its own rules, not ``Input``'s (``inherit_css=False``): Textual parses a widget's default stylesheet
    as the first of its kind is mounted, and ``Input``'s (its borders, its sizes, its compact and invalid looks,
    1,600 characters) was parsed before the table's first frame for this one line, whose size, border and padding
    the table's stylesheet sets (``#command``) and which is never invalid (issue #14: 8 M instructions). What it
    keeps of ``Input``'s are its colours, focused and not, and its parts' (the cursor, the selection, the
    placeholder, the suggestion), in Textual's ANSI colours too."""

    DEFAULT_CSS = """
    CommandLine {
        background: $surface;
        color: $foreground;
        width: 100%;
        scrollbar-size-horizontal: 0;
        pointer: text;
        &:focus { background-tint: $foreground 5%; }
        &>.input--cursor {
            background: $input-cursor-background;
            color: $input-cursor-foreground;
            text-style: $input-cursor-text-style;
        }
        &>.input--selection { background: $input-selection-background; color: $input-selection-foreground; }
        &>.input--placeholder, &>.input--suggestion { color: $text-disabled; }
        &:ansi {
            background: ansi_default;
            color: ansi_default;
            &>.input--cursor { background: ansi_white; color: ansi_black; }
            &>.input--placeholder, &>.input--suggestion { text-style: dim; color: ansi_default; }
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = Input.COMPONENT_CLASSES  # not inherited either

    # the description in the interface's language where the screen shows it (screens/base.py)
    BINDINGS: ClassVar[list[BindingType]] = [Binding("tab", "complete", "Complete"),
                                            Binding("up", "history(-1)", show=False),
                                            Binding("down", "history(1)", show=False)]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.history: list[str] = []  # the lines entered, oldest first
        self._at: int | None = None  # where Up and Down are in the history (None: at the line being typed)
        self._draft = ""  # the line being typed when Up was first pressed

    def action_complete(self) -> None:
        suggester = self.suggester
        suggestion = suggester.suggestion_for(self.value) if isinstance(suggester, QuickSuggester) else None
        if suggestion:
            self.value = suggestion + " "
            self.cursor_position = len(self.value)

    async def action_submit(self) -> None:
        self.remember(self.value)
        await super().action_submit()

    def remember(self, line: str) -> None:
        """Keep ``line`` (entered, understood or not) for Up; the same line twice in a row is kept once."""
        line = line.strip()
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self._at = None

    def action_history(self, step: int) -> None:
        """Up (-1): the line entered before the one shown; Down (1): the next, then the line being typed."""
        if not self.history:
            return
        if self._at is None:
            if step > 0:
                return
            self._draft = self.value
            at = len(self.history) - 1
        else:
            at = self._at + step
            if at < 0:
                return
        if at >= len(self.history):
            self._at = None
            self.value = self._draft
        else:
            self._at = at
            self.value = self.history[at]
        self.cursor_position = len(self.value)
