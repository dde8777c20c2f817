"""Trades between two players: any mix of cash, deeds and Get Out of Jail Free cards.

No deed of a group with buildings changes hands; whoever receives a mortgaged deed pays
the bank 10% at once, or lifts the mortgage at once (value + 10%), its choice
("lift"); a later lift pays the 10% again (us-classic-rules.txt, "Mortgage Rules").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import describe_debt, spend
from .errors import Refused
from .state import BANK
from .valuation import interest

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx

SIDE_KEYS = ("cash", "spaces", "jail_cards")


def _side(state: GameState, raw: Any, giver: str, label: str) -> tuple[int, list[int], int]:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise Refused("input", f"trade: \"{label}\" must be an object with cash, spaces, jail_cards")
    unknown = sorted(set(raw) - set(SIDE_KEYS))
    if unknown:
        raise Refused("input", f"trade: \"{label}\" has unknown key {', '.join(unknown)}; use {', '.join(SIDE_KEYS)}")
    cash = parse.optional_amount(raw, "cash") if "cash" in raw else 0
    spaces = parse.positions(state, raw.get("spaces"), f"trade {label}.spaces")
    cards = parse.optional_amount(raw, "jail_cards") if "jail_cards" in raw else 0
    fmt = state.edition.fmt
    if cash:
        if state.debts.get(giver):
            raise Refused("debt-open", f"{giver} owes {describe_debt(state, giver)}: no cash can be given away "
                          f"while a debt is open")
        if cash > state.cash[giver]:
            raise Refused("cash", f"{giver} has {fmt(state.cash[giver])}, cannot give {fmt(cash)} in a trade")
    for pos in spaces:
        space = state.edition.spaces[pos]
        if state.lots[pos].owner != giver:
            raise Refused("trade-owner", f"{giver} does not own {space.name}")
        if space.kind == "street":
            built = [p for p in state.group_positions(space.group) if state.level(p)]
            if built:
                names = ", ".join(state.edition.spaces[p].name for p in built)
                raise Refused("trade-buildings", f"{space.name} cannot change hands while its group has buildings "
                              f"({names}): sell them to the bank first")
    if cards > len(state.jail_cards_of(giver)):
        raise Refused("trade-jail-cards", f"{giver} holds {len(state.jail_cards_of(giver))} Get Out of Jail Free "
                      f"card(s), cannot give {cards}")
    return cash, spaces, cards


def run_trade(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    a = parse.player(state, cmd, "from")
    b = parse.player(state, cmd, "to")
    if a == b:
        raise Refused("input", "trade: \"from\" and \"to\" must be two different players")
    a_cash, a_spaces, a_cards = _side(state, cmd.get("give"), a, "give")
    b_cash, b_spaces, b_cards = _side(state, cmd.get("get"), b, "get")
    if not (a_cash or a_spaces or a_cards or b_cash or b_spaces or b_cards):
        raise Refused("input", "trade: nothing changes hands; fill \"give\" and/or \"get\"")
    received = {pos: b for pos in a_spaces} | {pos: a for pos in b_spaces}
    lift = parse.positions(state, cmd.get("lift"), "trade lift")
    for pos in lift:
        if pos not in received or not state.lots[pos].mortgaged:
            raise Refused("trade-lift", f"\"lift\" names {state.edition.spaces[pos].name}, which is not a mortgaged "
                          f"deed changing hands in this trade")
    credit = parse.optional_amount(cmd, "debt_credit") if "debt_credit" in cmd else 0
    fmt = state.edition.fmt
    if credit:
        if not state.edition.rules.debt_payable_in_kind:
            raise Refused("debt-in-kind", f"The {state.edition.name} rules do not let a debt be paid in property")
        owed = sum(c[1] for c in state.debts.get(a, []) if c[0] == b)
        if not owed:
            raise Refused("debt-in-kind", f"{a} owes nothing to {b}: \"debt_credit\" only pays a debt in property")
        if credit > owed:
            raise Refused("debt-in-kind", f"{a} owes {b} {fmt(owed)}; the property cannot count for {fmt(credit)}")
        if not a_spaces:
            raise Refused("debt-in-kind", "Paying a debt in kind needs at least one deed in \"give\"")

    # -- the exchange
    jail_a = state.jail_cards_of(a)[:a_cards]
    jail_b = state.jail_cards_of(b)[:b_cards]
    tx.pay(a, b, a_cash, "trade")
    tx.pay(b, a, b_cash, "trade")
    for pos, receiver in received.items():
        tx.owner(pos, receiver)
    for card in jail_a:
        tx.jail_card(card, b)
    for card in jail_b:
        tx.jail_card(card, a)
    # -- interest on mortgaged deeds received (or the lift, at once)
    fees = []
    for pos, receiver in received.items():
        if not state.lots[pos].mortgaged:
            continue
        space = state.edition.spaces[pos]
        rate = interest(state, space.mortgage)
        if pos in lift:
            spend(tx, receiver, BANK, space.mortgage + rate, "unmortgage",
                  f"lifting the mortgage on {space.name} at once")
            tx.mortgaged(pos, False)
            fees.append(f"{receiver} lifts {space.name} for {fmt(space.mortgage + rate)}")
        else:
            spend(tx, receiver, BANK, rate, "interest", f"the 10% interest on {space.name}")
            fees.append(f"{receiver} pays {fmt(rate)} interest on mortgaged {space.name}")
    if credit:
        claims = [list(c) for c in state.debts[a]]
        left = credit
        for c in claims:
            if c[0] == b and left:
                take = min(left, c[1])
                c[1] -= take
                left -= take
        tx.debt(a, [c for c in claims if c[1] > 0])

    def goods(cash: int, spaces: list[int], cards: int) -> str:
        parts = [fmt(cash)] if cash else []
        parts += [state.edition.spaces[p].name for p in spaces]
        if cards:
            parts.append(f"{cards} Get Out of Jail Free card{'s' * (cards > 1)}")
        return ", ".join(parts) or "nothing"

    tx.text = f"Trade: {a} gives {b} {goods(a_cash, a_spaces, a_cards)}; {b} gives {a} {goods(b_cash, b_spaces, b_cards)}"
    if credit:
        tx.text += f"; {b} accepts the property for {fmt(credit)} of {a}'s debt"
    if fees:
        tx.text += "; " + "; ".join(fees)
    tx.info.update(lift=lift, debt_credit=credit)
