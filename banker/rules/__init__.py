"""The rules engine: pure game logic, no I/O, no Textual, no TinyDB.

>>> from banker.rules import new_game
>>> game = new_game("classic-us", "classic", ["Ann", "Bob"])
>>> game.push({"op": "buy", "player": "Ann", "space": 39}).text
'Ann buys Boardwalk for $400'
>>> game.cash["Ann"]
1100
>>> _ = game.pop()
>>> game.cash["Ann"]
1500
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .edition import Edition, HouseRules, Variant
from .errors import BoardError, Refused
from .state import BANK, POT, GameState, Move, Setup

__all__ = [
    "BANK", "POT", "BoardError", "Edition", "GameState", "HouseRules", "Move", "Refused", "Setup", "Variant",
    "new_game", "game_from_setup",
]


def game_from_setup(setup: Setup) -> GameState:
    # boards/ holds data files; reading them is the only I/O, done there.
    from banker.boards import load_edition, load_variant

    return GameState(setup, load_edition(setup.edition), load_variant(setup.variant))


def new_game(edition: str, variant: str, players: Iterable[str],
             house_rules: Mapping[str, bool] | HouseRules | None = None, end_time: str | None = None) -> GameState:
    rules = house_rules if isinstance(house_rules, HouseRules) else HouseRules.from_mapping(house_rules)
    return game_from_setup(Setup(edition, variant, tuple(players), rules, end_time))
