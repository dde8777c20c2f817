"""The one exception the rules engine raises.

Like python-chess's ``IllegalMoveError``, every refusal is a :class:`Refused` whose
message names the rule that refused and says why, in words a banker can act on.
"""

from __future__ import annotations


class Refused(Exception):
    """An action the rules do not allow, or input the engine cannot understand.

    ``rule`` is a short, stable identifier of the rule (``"build-evenly"``,
    ``"input"``...) so clients can react to a kind of refusal; ``str(error)`` is
    the full sentence for the banker.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return self.message


class BoardError(ValueError):
    """An edition data file with a mistake; the message names file, space and problem."""
