"""The quick-entry line: type ``rent boardwalk bob`` and press Enter."""

from __future__ import annotations

from textual.suggester import Suggester
from textual.widgets import Input

from ..keys import localize_bindings
from ..quick import completions


class QuickSuggester(Suggester):
    """Completes the word being typed: actions, players, words of space names."""

    def __init__(self, app) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._app = app

    async def get_suggestion(self, value: str) -> str | None:
        session = getattr(self._app, "session", None)
        if session is None or not value.strip():
            return None
        found = completions(session.state, value)
        return found[0] if found else None


class CommandLine(Input):
    """An Input with completion (→ or Tab accepts the suggestion)."""

    BINDINGS = [("tab", "complete", "Complete")]

    def on_mount(self) -> None:
        localize_bindings(self)

    def action_complete(self) -> None:
        if self._suggestion:
            self.value = self._suggestion + " "
            self.cursor_position = len(self.value)
