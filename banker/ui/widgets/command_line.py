"""The quick-entry line: type ``rent boardwalk bob`` and press Enter."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.suggester import Suggester
from textual.widgets import Input

from ..quick import completions

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
            found = completions(session.state, value)
            suggestion = found[0] if found else None
        self._latest = (value, suggestion)
        return suggestion

    def suggestion_for(self, value: str) -> str | None:
        """The suggestion made for ``value`` (the one the line shows while it holds ``value``)."""
        seen, suggestion = self._latest
        return suggestion if seen == value else None


class CommandLine(Input):
    """An Input with completion (→ or Tab accepts the suggestion)."""

    # the description in the interface's language where the screen shows it (screens/base.py)
    BINDINGS: ClassVar[list[BindingType]] = [Binding("tab", "complete", "Complete")]

    def action_complete(self) -> None:
        suggester = self.suggester
        suggestion = suggester.suggestion_for(self.value) if isinstance(suggester, QuickSuggester) else None
        if suggestion:
            self.value = suggestion + " "
            self.cursor_position = len(self.value)
