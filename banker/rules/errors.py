"""The one exception the rules engine raises.

Like python-chess's ``IllegalMoveError``, every refusal is a :class:`Refused` whose
message names the rule that refused and says why, in words a banker can act on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .messages import Msg


class Refused(Exception):
    """An action the rules do not allow, or input the engine cannot understand.

    ``rule`` is a short, stable identifier of the rule (``"build-evenly"``,
    ``"input"``...) so clients can react to a kind of refusal; ``str(error)`` is
    the full sentence for the banker.
    """

    def __init__(self, rule: str, message: Msg | str, **_: Any) -> None:
        super().__init__(str(message))
        self.rule = rule
        self.msg = message
        self.message = str(message)

    def __str__(self) -> str:
        return self.message

    def render(self, catalog: Any = None, lang: str = "en") -> str:
        """The reason in the language of ``catalog`` (see banker.rules.messages)."""
        if isinstance(self.msg, str):
            return self.msg
        return self.msg.render(catalog, lang)


class BoardError(ValueError):
    """An edition data file with a mistake; the message names file, space and problem.

    ``str()`` is the English sentence; ``key`` (of the catalogs' ``[board_error]`` table) and ``params`` say it
    again for the translator (``Translator.board``), the way the session log's ``SessionError`` does: the boards
    layer has no words of its own (it may not import ``banker.i18n``)."""

    def __init__(self, message: str, key: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params
