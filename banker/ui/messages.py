"""What the console's screens ask of the App: Textual messages, posted up.

Data flows down (the App owns the session and a reactive ``version`` that screens watch);
requests flow up as these messages, which the App handles (``BankerApp.on_*``). A screen
never imports the App or the action flows at run time: it posts one of these.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from textual.message import Message


class ActionRequested(Message):
    """Run the action ``op`` (its flow asks for what ``given`` lacks): a key, the command line, a dialog."""

    def __init__(self, op: str, given: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.op = op
        self.given = given


class MessageShown(Message):
    """Show ``text`` on the table's message line (``error``: in red, and as a notification)."""

    def __init__(self, text: str, error: bool = False) -> None:
        super().__init__()
        self.text = text
        self.error = error


class RefusalShown(Message):
    """Say why something cannot be done (a rule's refusal, a session error): as an error, with the bell."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error


class TimeUp(Message):
    """The agreed end of a time-limit game (``end``, as the table says it) is reached: alert the table and
    offer the end of the game with the valuation."""

    def __init__(self, end: str) -> None:
        super().__init__()
        self.end = end


class Status(NamedTuple):
    """What the table's message line shows (``BankerApp.status``, watched by the table screen)."""

    text: str = ""
    error: bool = False
