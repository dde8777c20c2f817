"""What a debtor can actually raise: a legal sequence of sales and mortgages, found on the state.

The books: "try to raise the money by selling buildings and/or mortgaging properties"
(uk-2008 "HELP! I'M IN DEBT!"); "You are declared bankrupt if you owe more than you can pay"
(us-classic-rules.txt). What can be sold depends on the state, the bank's house stock above
all: a UK or Kyiv hotel "is immediately exchanged for 4 houses", so it cannot be sold while
the bank has fewer than 4, and selling houses elsewhere first may bring them back.

:func:`raise_plan` finds the sequence that raises the most, and checks it by pushing every
step on the state and taking them all back, so the figure is never one the rules would not
let the debtor reach. Why it is the most (tested against an exhaustive search on small states
in tests/test_rules_raising.py):

- every building sold pays half its price however it goes back (a hotel exchanged and its
  houses sold one by one pays the same as a hotel sold whole), and a mortgage pays the printed
  value; so the most is cash + every building that can be sold + every deed that can then be
  mortgaged, and only the order of the sales matters;
- the only sale that takes houses *from* the bank is a hotel exchanged or broken down into
  houses, and selling a whole group returns at least as many houses as it took: so every
  group that can be sold whole is sold first (each such sale only helps the next);
- what is left are groups whose hotels cannot all be exchanged with the houses left: each
  further sale there takes houses from the bank and returns none (the group's houses stand
  below its hotels), so the dearest such sales are made first while the bank has houses;
- then every deed whose group has no buildings left is mortgaged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from .building import legal_sales
from .effects import Pay
from .errors import Refused
from .mortgage import legal_mortgages
from .names import BANK
from .ops import Command, Mortgage, SellBuilding

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Move

RAISING = ("sell building", "mortgage")


class RaisePlan(Struct):
    """The commands, in order, and what each raises; ``total`` is their sum."""

    player: str
    steps: list[SellBuilding | Mortgage] = field(default_factory=list)
    proceeds: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.proceeds)


def raised_by(move: Move, player: str) -> int:
    """What the bank paid ``player`` for sales and mortgages in ``move``."""
    return sum(e.amount for e in move.effects
               if isinstance(e, Pay) and e.src == BANK and e.dst == player and e.why in RAISING)


def _groups_with_buildings(state: GameState, player: str) -> list[int]:
    """The first lot of each of the player's groups that has buildings."""
    out = []
    seen: set[str] = set()
    for pos in sorted(state.deeds_of(player)):
        space = state.edition.spaces[pos]
        if space.kind == "street" and space.group is not None and space.group not in seen:
            seen.add(space.group)
            if any(state.level(p) for p in state.group_positions(space.group)):
                out.append(pos)
    return out


def _candidates(state: GameState, player: str) -> Iterator[SellBuilding]:
    """The next steps worth trying, best first (see the module docstring): whole groups, then
    single sales of houses (they give houses back to the bank), then the dearest other sales."""
    for pos in _groups_with_buildings(state, player):
        yield SellBuilding(player=player, space=pos, all=True)
    sales = sorted(legal_sales(state, player), key=lambda s: (bool(state.lots[s[0]].hotel), -s[1], s[0]))
    for pos, _amount in sales:
        yield SellBuilding(player=player, space=pos)


def raise_plan(state: GameState, player: str) -> RaisePlan:
    """The legal sales and mortgages that raise the most for ``player`` now, in order.

    Each step is pushed on the state and all are taken back before returning (each step builds
    on the ones before it, so this is a sequence of pushes, then as many pops), so the plan is
    exactly what the commands would do. After the end of the game nothing can be raised.
    """
    plan = RaisePlan(player)
    if state.over or player not in state.active_players:
        return plan
    pushed = 0
    try:
        while True:
            for cmd in _candidates(state, player):
                try:
                    move = state.push(cmd)
                except Refused:
                    continue
                pushed += 1
                plan.steps.append(cmd)
                plan.proceeds.append(raised_by(move, player))
                break
            else:
                break
        for pos, _value in legal_mortgages(state, player):
            mortgage = Mortgage(player=player, space=pos)
            move = state.push(mortgage)
            pushed += 1
            plan.steps.append(mortgage)
            plan.proceeds.append(raised_by(move, player))
    finally:
        for _ in range(pushed):
            state.pop()
    return plan


def max_raisable(state: GameState, player: str) -> int:
    """The most ``player`` can have in cash by legal sales and mortgages, now: cash + what
    :func:`raise_plan` raises. Bankruptcy is accepted exactly when this is below the debt."""
    return state.cash[player] + raise_plan(state, player).total


def beyond_reach(state: GameState, bidder: str, amount: int) -> tuple[str, dict[str, Any]] | None:
    """Why a bid of ``amount`` is more than ``bidder`` can pay (None: within the cash, or above it and within what the
    bidder's sales and mortgages could raise, owed once the deed is won): ``over_cash`` where the edition auctions for
    cash only (``cash``); ``over_raise`` above that most (``amount``: the most). The console's auction
    (:func:`banker.rules.bidding.bid_refusal`) and the ``auction`` op both ask it."""
    if amount > state.cash[bidder]:
        if state.edition.rules.auction_cash_only:
            return "over_cash", {"cash": state.cash[bidder]}
        most = max_raisable(state, bidder)
        if amount > most:
            return "over_raise", {"amount": most}
    return None


def most_after(state: GameState, player: str, command: Command | Mapping[str, Any]) -> int | None:
    """The most ``player`` could still raise in all (cash, what the debt was paid off, and what
    the rest can raise) after ``command`` first: the raise-cash view says when an order costs
    money (a UK/Kyiv hotel sold with no houses in the bank). ``None`` if the command is refused;
    the state is left as it was."""
    try:
        move = state.push(command)
    except Refused:
        return None
    try:
        paid = sum(e.amount for e in move.effects if isinstance(e, Pay) and e.src == player)
        return state.cash[player] + raise_plan(state, player).total + paid
    finally:
        state.pop()
