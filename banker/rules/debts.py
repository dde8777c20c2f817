"""Payments, debts and their settlement.

A payment the rules require (rent, tax, a card, the jail fine, interest) that is larger
than the payer's cash does not make the cash negative: it opens a *debt* (one or more
claims, each a :class:`~banker.rules.effects.Claim`: creditor, amount, reason). While it is open the debtor may sell
buildings, mortgage and trade; every command ends by settling any claim the debtor's
cash now covers. A voluntary payment (buying, building, a transfer) is simply refused
when the cash is not there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .effects import Claim
from .errors import Refused
from .messages import Msg
from .names import BANK, POT

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx

#: payments that go to the Free Parking pot under that house rule
POT_REASONS = ("tax", "fine", "card")


def bank_account(state: GameState, why: str) -> str:
    """Where a payment to the bank goes: the pot for taxes, fines and cards when the
    Free Parking house rule is on, else the bank."""
    if state.house_rules.free_parking_pot and why in POT_REASONS:
        return POT
    return BANK


def who(account: str) -> Msg | str:
    """An account as the banker says it: a player's name, the bank, the pot."""
    if account == BANK:
        return Msg("the-bank")
    if account == POT:
        return Msg("the-pot")
    return account


def describe_debt(state: GameState, player: str) -> list[Msg]:
    claims = state.debts.get(player, [])
    return [Msg("debt-part", amount=state.edition.fmt(c.amount), creditor=who(c.creditor)) for c in claims]


def require_no_debt(state: GameState, player: str) -> None:
    if state.debts.get(player):
        raise Refused("debt-open", Msg("debt-open", player=player, debt=describe_debt(state, player)))


def spend(tx: Tx, player: str, to: str, amount: int, why: str, what: Msg | str) -> None:
    """A voluntary payment: refused unless the cash is there and no debt is open."""
    state = tx.state
    require_no_debt(state, player)
    if state.cash[player] < amount:
        fmt = state.edition.fmt
        raise Refused("cash", Msg("cash", player=player, cash=fmt(state.cash[player]), what=what, amount=fmt(amount)))
    tx.pay(player, to, amount, why)


def charge(tx: Tx, payer: str, creditor: str, amount: int, why: str) -> bool:
    """A payment the rules require. Returns True when paid now, False when it opened
    (or added to) a debt."""
    state = tx.state
    if amount <= 0:
        return True
    if tx.debt_before.get(payer):
        require_no_debt(state, payer)
    claims = state.debts.get(payer, [])
    if not claims and state.cash[payer] >= amount:
        tx.pay(payer, creditor, amount, why)
        return True
    tx.debt(payer, [*claims, Claim(creditor, amount, why)])
    return False


def settle(tx: Tx) -> None:
    """Pay every claim that the debtor's cash now covers, in the order owed.

    Debtors are visited in seating order, again and again while anything is paid (a
    payment may let its creditor pay a debt of its own), so the outcome never depends
    on the order in which the debts were opened.
    """
    state = tx.state
    progress = bool(state.debts)  # it holds only the debts still open (GameState._change drops a settled one)
    while progress:
        progress = False
        for player in state.players:
            claims = list(state.debts.get(player, []))
            paid = False
            while claims and state.cash[player] >= claims[0].amount:
                claim = claims.pop(0)
                tx.pay(player, claim.creditor, claim.amount, claim.why)
                tx.say("log.debt-paid", player=player, amount=state.edition.fmt(claim.amount),
                       creditor=who(claim.creditor))
                paid = True
            if paid:
                tx.debt(player, claims)
                progress = True
