"""Trades between two players: any mix of cash, deeds and Get Out of Jail Free cards.

No deed of a group with buildings changes hands; whoever receives a mortgaged deed pays
the bank 10% at once, or lifts the mortgage at once (value + 10%), its choice
("lift"); a later lift pays the 10% again (us-classic-rules.txt, "Mortgage Rules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import UnsetType

from . import parse
from .cards import held_jail_cards, jail_card_name
from .debts import describe_debt, spend
from .effects import Claim
from .errors import Refused
from .messages import Msg
from .mortgage import require_lift_cash
from .names import BANK
from .ops import Trade, TradeSide
from .valuation import interest

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx


def _side(state: GameState, side: TradeSide | None | UnsetType, giver: str, label: str
          ) -> tuple[int, list[int], list[str]]:
    if not isinstance(side, TradeSide):
        side = TradeSide()
    cash = side.cash if isinstance(side.cash, int) else 0
    spaces = parse.positions(state, side.spaces, f"trade {label}.spaces")
    cards = [] if isinstance(side.jail_cards, UnsetType) else held_jail_cards(state, giver, side.jail_cards,
                                                                               f"trade {label}")
    fmt = state.edition.fmt
    if cash:
        if state.debts.get(giver):
            raise Refused("debt-open", Msg("trade.debtor-cash", player=giver, debt=describe_debt(state, giver)))
        if cash > state.cash[giver]:
            raise Refused("cash", Msg("trade.cash", player=giver, cash=fmt(state.cash[giver]), amount=fmt(cash)))
    for pos in spaces:
        space = state.edition.spaces[pos]
        if state.lots[pos].owner != giver:
            raise Refused("trade-owner", Msg("trade.owner", player=giver, space=space.name))
        if space.kind == "street":
            built = [state.edition.spaces[p].name for p in state.group_positions(space.group) if state.level(p)]
            if built:
                raise Refused("trade-buildings", Msg("trade.buildings", space=space.name, built=built))
    return cash, spaces, cards


def _goods(state: GameState, cash: int, spaces: list[int], cards: list[str]) -> list[Any]:
    parts: list[Any] = [state.edition.fmt(cash)] if cash else []
    parts += [state.edition.spaces[p].name for p in spaces]
    parts += [jail_card_name(state, c) for c in cards]
    return parts or [Msg("nothing")]


def run_trade(state: GameState, tx: Tx, cmd: Trade) -> None:
    a = parse.player(state, cmd.src, "trade", "from")
    b = parse.player(state, cmd.dst, "trade", "to")
    if a == b:
        raise Refused("input", Msg("input.trade-same", name=a))
    a_cash, a_spaces, a_cards = _side(state, cmd.give, a, "give")
    b_cash, b_spaces, b_cards = _side(state, cmd.get, b, "get")
    if not (a_cash or a_spaces or a_cards or b_cash or b_spaces or b_cards):
        raise Refused("input", Msg("input.trade-empty"))
    received = {pos: b for pos in a_spaces} | {pos: a for pos in b_spaces}
    lift = parse.positions(state, cmd.lift, "trade lift")
    for pos in lift:
        if pos not in received or not state.lots[pos].mortgaged:
            raise Refused("trade-lift", Msg("trade.lift", space=state.edition.spaces[pos].name))
    credit = cmd.debt_credit if isinstance(cmd.debt_credit, int) else 0
    fmt = state.edition.fmt
    if credit:
        if not state.edition.rules.debt_payable_in_kind:
            raise Refused("debt-in-kind", Msg("debt-in-kind.edition", edition=state.edition.name))
        owed = sum(c.amount for c in state.debts.get(a, []) if c.creditor == b)
        if not owed:
            raise Refused("debt-in-kind", Msg("debt-in-kind.none", player=a, creditor=b))
        if credit > owed:
            raise Refused("debt-in-kind", Msg("debt-in-kind.too-much", player=a, creditor=b, owed=fmt(owed),
                                              amount=fmt(credit)))
        if not a_spaces:
            raise Refused("debt-in-kind", Msg("debt-in-kind.deed"))

    before = {a: state.cash[a], b: state.cash[b]}  # the cash before the exchange (a lift refused says it "by then")
    tx.say("log.trade", a=a, b=b, a_goods=_goods(state, a_cash, a_spaces, a_cards),
           b_goods=_goods(state, b_cash, b_spaces, b_cards))
    # -- the exchange
    tx.pay(a, b, a_cash, "trade")
    tx.pay(b, a, b_cash, "trade")
    for pos, receiver in received.items():
        tx.owner(pos, receiver)
    for card in a_cards:
        tx.jail_card(card, b)
    for card in b_cards:
        tx.jail_card(card, a)
    # -- interest on mortgaged deeds received (or the lift, at once)
    for pos, receiver in received.items():
        if not state.lots[pos].mortgaged:
            continue
        space = state.edition.spaces[pos]
        rate = interest(state, space.mortgage)
        if pos in lift:
            require_lift_cash(state, receiver, pos, state.cash[receiver], bool(state.debts.get(receiver)),
                              then=state.cash[receiver] != before[receiver])
            spend(tx, receiver, BANK, space.mortgage + rate, "unmortgage", Msg("what.lift", space=space.name))
            tx.mortgaged(pos, False)
            tx.say("log.trade-lifts", player=receiver, space=space.name, amount=fmt(space.mortgage + rate))
        else:
            spend(tx, receiver, BANK, rate, "interest", Msg("what.interest", space=space.name))
            tx.say("log.trade-interest", player=receiver, amount=fmt(rate), space=space.name)
    if credit:
        claims: list[Claim] = []
        left = credit
        for c in state.debts[a]:
            if c.creditor == b and left:
                take = min(left, c.amount)
                c = Claim(c.creditor, c.amount - take, c.why)
                left -= take
            if c.amount > 0:
                claims.append(c)
        tx.debt(a, claims)
        tx.say("log.trade-credit", creditor=b, amount=fmt(credit), player=a)
    tx.info.update(lift=lift, debt_credit=credit)
