"""The rules engine: pure game logic, no I/O, no Textual, no TinyDB.

A game is a :class:`GameState` (made from the board files by ``banker.boards.new_game`` or
``banker.boards.game_from_setup``); :meth:`GameState.push` applies a command (see
:mod:`banker.rules.ops`), :meth:`GameState.pop` takes the last move back, :meth:`GameState.preview`
shows what a command would do. The layers inside: docs/architecture.md.
"""

from __future__ import annotations

from .edition import Edition, HouseRules, Variant
from .effects import Claim, Effect
from .errors import BoardError, Refused
from .ops import Command, decode, encode
from .state import BANK, POT, GameState, Move, Setup

__all__ = [
    "BANK", "POT", "BoardError", "Claim", "Command", "Edition", "Effect", "GameState", "HouseRules", "Move", "Refused",
    "Setup", "Variant", "decode", "encode",
]
