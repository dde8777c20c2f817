"""Small helpers for rules tests: every setup goes through the real engine's commands."""

from __future__ import annotations

from banker.boards import new_game
from banker.rules import GameState

EDITIONS = ("classic-us", "uk", "ru", "kyiv")


def game(edition: str = "classic-us", variant: str = "classic", players=("Ann", "Bob", "Cid"), **house_rules) -> GameState:
    return new_game(edition, variant, players, house_rules or None)


def own(g: GameState, player: str, *positions: int) -> None:
    """Give ``player`` the deeds by buying them (topping up cash from the bank first)."""
    for pos in positions:
        price = g.edition.spaces[pos].price
        if g.cash[player] < price:
            g.push({"op": "transfer", "from": "bank", "to": player, "amount": price, "memo": "test top-up"})
        g.push({"op": "buy", "player": player, "space": pos})


def build(g: GameState, player: str, *positions: int) -> None:
    for pos in positions:
        g.push({"op": "build", "player": player, "space": pos})


def top_up(g: GameState, player: str, amount: int) -> None:
    g.push({"op": "transfer", "from": "bank", "to": player, "amount": amount, "memo": "test top-up"})


def drain(g: GameState, player: str, leave: int = 0) -> None:
    """Hand ``player``'s cash over to the bank, leaving ``leave``."""
    extra = g.cash[player] - leave
    if extra > 0:
        g.push({"op": "transfer", "from": player, "to": "bank", "amount": extra, "memo": "test drain"})


def group(g: GameState, name: str) -> list[int]:
    """Positions of a colour group, found by its place on the board (the same in every edition)."""
    return g.group_positions(g.edition.spaces[name_pos[name]].group)


# a lot of each colour group, by board position (identical on the four boards)
name_pos = {"brown": 1, "light_blue": 6, "pink": 11, "orange": 16, "red": 21, "yellow": 26, "green": 31, "dark_blue": 39}
BROWN = [1, 3]
DARK_BLUE = [37, 39]
GREEN = [31, 32, 34]
ORANGE = [16, 18, 19]
RAILROADS = [5, 15, 25, 35]
UTILITIES = [12, 28]
