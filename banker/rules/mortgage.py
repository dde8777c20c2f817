"""Mortgages: the bank lends the printed value; lifting costs the value plus 10%."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import parse
from .building import describe_level
from .debts import spend
from .errors import Refused
from .messages import Msg
from .names import BANK
from .ops import Mortgage, Unmortgage
from .valuation import interest

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Space
    from .state import GameState, Tx


def check_mortgage(state: GameState, player: str, space: Space) -> None:
    lot = state.lots[space.position]
    if lot.owner != player:
        raise Refused("mortgage-owner", Msg("mortgage.owner", player=player, space=space.name))
    if lot.mortgaged:
        raise Refused("mortgage-twice", Msg("mortgage.twice", space=space.name))
    if space.kind == "street":
        built = [p for p in state.group_positions(space.group) if state.level(p)]
        if built:
            where = [Msg("mortgage.where", space=state.edition.spaces[p].name, level=describe_level(state, p))
                     for p in built]
            raise Refused("mortgage-buildings", Msg("mortgage.buildings", group=state.group_said(space),
                                                    where=where))


def lift_cost(state: GameState, pos: int) -> int:
    value = state.edition.spaces[pos].mortgage
    return value + interest(state, value)


def require_lift_cash(state: GameState, player: str, pos: int, cash: int, owed: bool, then: bool) -> None:
    """A mortgage lifted at once on a deed ``player`` receives (a trade, a bankruptcy): refused when ``cash``, what the
    player has when the deed comes (before its 10%), is less than the lift's whole cost, the mortgage's value + 10%.
    The refusal says that cost and that cash, and that the deed can be kept mortgaged (found playing: a bankruptcy's
    refusal quoted the value alone, the 10% already paid, with "mortgage or sell buildings first"). ``owed``: the
    player had a debt open already, which :func:`~.debts.spend` refuses as such. ``then``: that cash is not the one the
    player had before the command (the trade's cash, the bankrupt's cash, a deed before paid for): "by then"."""
    cost = lift_cost(state, pos)
    if owed or cash >= cost:
        return
    space = state.edition.spaces[pos]
    fmt = state.edition.fmt
    raise Refused("cash", Msg("lift.cash-then" if then else "lift.cash", player=player, cash=fmt(cash), space=space.name,
                              amount=fmt(cost), value=fmt(space.mortgage), interest=fmt(cost - space.mortgage)))


def run_mortgage(state: GameState, tx: Tx, cmd: Mortgage) -> None:
    player = parse.player(state, cmd.player, "mortgage")
    space = parse.prop(state, cmd.space, "mortgage")
    check_mortgage(state, player, space)
    tx.mortgaged(space.position, True)
    tx.pay(BANK, player, space.mortgage, "mortgage")
    tx.info.update(value=space.mortgage)
    tx.say("log.mortgage", player=player, space=space.name, amount=state.edition.fmt(space.mortgage))


def run_unmortgage(state: GameState, tx: Tx, cmd: Unmortgage) -> None:
    player = parse.player(state, cmd.player, "unmortgage")
    space = parse.prop(state, cmd.space, "unmortgage")
    lot = state.lots[space.position]
    if lot.owner != player:
        raise Refused("mortgage-owner", Msg("mortgage.owner", player=player, space=space.name))
    if not lot.mortgaged:
        raise Refused("unmortgage-not", Msg("unmortgage.not", space=space.name))
    cost = lift_cost(state, space.position)
    spend(tx, player, BANK, cost, "unmortgage", Msg("what.lift", space=space.name))
    tx.mortgaged(space.position, False)
    fmt = state.edition.fmt
    tx.info.update(cost=cost)
    tx.say("log.unmortgage", player=player, space=space.name, amount=fmt(cost), value=fmt(space.mortgage),
           interest=fmt(cost - space.mortgage))


def legal_mortgages(state: GameState, player: str) -> list[tuple[int, int]]:
    out = []
    for pos in state.deeds_of(player):
        try:
            check_mortgage(state, player, state.edition.spaces[pos])
        except Refused:
            continue
        out.append((pos, state.edition.spaces[pos].mortgage))
    return out


def legal_unmortgages(state: GameState, player: str) -> list[tuple[int, int]]:
    if state.debts.get(player):
        return []
    return [(pos, lift_cost(state, pos)) for pos in state.deeds_of(player)
            if state.lots[pos].mortgaged and lift_cost(state, pos) <= state.cash[player]]
