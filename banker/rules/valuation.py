"""Worth and valuation: every figure the books define (what a debtor could raise is
:func:`banker.rules.raising.max_raisable`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState


def percent(amount: int, pct: int) -> int:
    """``pct`` percent of ``amount``, rounded to a whole unit, halves up.

    The books are silent on rounding; the project rounds as the printed deeds do
    (a mortgage of 75 is lifted for 83). See docs/rules.md.
    """
    return (amount * pct + 50) // 100


def half(amount: int) -> int:
    """Half a price, halves rounded up (every printed house cost is even)."""
    return (amount + 1) // 2


def interest(state: GameState, mortgage: int) -> int:
    return percent(mortgage, state.edition.rules.interest_percent)


def building_cost(state: GameState, pos: int) -> int:
    """What the buildings on a lot cost: a hotel counts the houses turned in for it."""
    space = state.edition.spaces[pos]
    return state.level(pos) * space.house_cost


def building_sale_value(state: GameState, pos: int) -> int:
    """What the bank pays for every building on the lot, sold at half price."""
    space = state.edition.spaces[pos]
    return state.level(pos) * half(space.house_cost)


def total_worth(state: GameState, player: str) -> int:
    """Income tax worth: cash + printed price of every deed, mortgaged or not, + the
    cost of every building (us-classic-rules.txt, "Income Tax Rules")."""
    worth = state.cash[player]
    for pos in state.deeds_of(player):
        worth += state.edition.spaces[pos].price + building_cost(state, pos)
    return worth


def valuation(state: GameState, player: str) -> int:
    """End-of-game valuation (Short Game, us-classic-rules.txt rule 3): cash, deeds at the
    printed price, mortgaged deeds at half, buildings at purchase price (a hotel
    including the houses turned in for it)."""
    value = state.cash[player]
    for pos in state.deeds_of(player):
        space = state.edition.spaces[pos]
        value += half(space.price) if state.lots[pos].mortgaged else space.price
        value += building_cost(state, pos)
    return value


def owed_to(state: GameState, player: str) -> int:
    """What other players owe ``player`` in open debts (their claims with it as the creditor)."""
    return sum(c.amount for claims in state.debts.values() for c in claims if c.creditor == player)


def net_worth(state: GameState, player: str) -> int:
    """Net worth for the table and the review, and each remaining player's value when the game ends: the
    valuation, less the debts the player owes, plus what other players owe it (a debt counts as paid, on both
    sides: docs/rules.md)."""
    return valuation(state, player) - state.debt_total(player) + owed_to(state, player)
