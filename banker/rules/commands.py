"""The simple ops: the salary, buying, auctions, dealing, the jail fine, transfers, the pot.

Each handler takes its typed command (:mod:`banker.rules.ops`) and either applies it whole
through the transaction or refuses it; the other ops have modules of their own (rent, tax,
cards, building, mortgage, trade, bankruptcy). :mod:`banker.rules.engine` dispatches them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import UnsetType

from . import parse
from .debts import bank_account, charge, require_no_debt, spend, who
from .errors import Refused
from .messages import Msg
from .names import BANK, POT
from .ops import Auction, Buy, Deal, FreeParking, JailFine, Salary, Transfer
from .raising import beyond_reach

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Space
    from .state import GameState, Tx


def run_salary(state: GameState, tx: Tx, cmd: Salary) -> None:
    player = parse.player(state, cmd.player, "salary")
    landed = cmd.landed is True
    amount = state.edition.salary
    if landed and state.house_rules.go_landing_bonus:
        amount *= 2
    tx.pay(BANK, player, amount, "salary")
    tx.say("log.salary-landed" if landed else "log.salary", player=player, amount=state.edition.fmt(amount))


def _unowned(state: GameState, pos: int, op: str) -> Space:
    space = parse.prop(state, pos, op)
    owner = state.lots[space.position].owner
    if owner is not None:
        raise Refused("owned", Msg("owned", space=space.name, owner=owner))
    return space


def run_buy(state: GameState, tx: Tx, cmd: Buy) -> None:
    player = parse.player(state, cmd.player, "buy")
    space = _unowned(state, cmd.space, "buy")
    if space.position in state.pending_auction:
        raise Refused("auction-pending", Msg("auction.pending", space=space.name))
    spend(tx, player, BANK, space.price, "buy", Msg("what.buy", space=space.name))
    tx.owner(space.position, player)
    tx.say("log.buy", player=player, space=space.name, amount=state.edition.fmt(space.price))


def run_auction(state: GameState, tx: Tx, cmd: Auction) -> None:
    space = _unowned(state, cmd.space, "auction")
    if cmd.winner is None:
        # nobody bid: the deed stays with the bank and may be bought when next landed on
        tx.pending(space.position, False)
        tx.say("log.no-bids", space=space.name)
        return
    winner = parse.player(state, cmd.winner, "auction", "winner")
    if isinstance(cmd.bid, UnsetType):
        raise Refused("input", Msg("input.missing", op="auction", key="bid"))
    bid = cmd.bid
    low = state.edition.rules.property_auction_min_bid
    fmt = state.edition.fmt
    if bid < low:
        raise Refused("auction-bid", Msg("auction.min", amount=fmt(low)))
    cash = state.cash[winner]
    beyond = beyond_reach(state, winner, bid)  # None within the cash, or within what can be raised (then owed)
    owed = bid > cash and beyond is None
    if owed or (beyond is not None and beyond[0] == "over_raise"):
        # US/RU: a winning bid above the cash, within what the winner's sales and mortgages could raise (the console
        # takes such a bid and flags it), is owed to the bank as a debt, paid once the cash is raised; above that most,
        # refused. Where bids are in cash only (UK, Kyiv), refused as a purchase is. (docs/rules.md, "Auction bids")
        require_no_debt(state, winner)
        if beyond is not None:
            raise Refused("cash", Msg("auction.over-raise", player=winner, amount=fmt(bid), space=space.name,
                                      most=fmt(beyond[1]["amount"])))
        charge(tx, winner, BANK, bid, "auction")
    else:
        spend(tx, winner, BANK, bid, "auction", Msg("what.bid", space=space.name))
    tx.owner(space.position, winner)
    tx.pending(space.position, False)
    tx.info.update(bid=bid, price=space.price)
    tx.say("log.auction", player=winner, space=space.name, amount=fmt(bid), price=fmt(space.price))
    if owed:
        tx.say("log.debt-open", player=winner, cash=fmt(cash))


def run_deal(state: GameState, tx: Tx, cmd: Deal) -> None:
    player = parse.player(state, cmd.player, "deal")
    limit = state.variant.deal_deeds
    if not limit:
        raise Refused("deal", Msg("deal.variant", variant=state.variant.name.lower()))
    space = _unowned(state, cmd.space, "deal")
    dealt = state.dealt.get(player, 0)
    if dealt >= limit:
        raise Refused("deal", Msg("deal.done", player=player, n=limit))
    spend(tx, player, BANK, space.price, "deal", Msg("what.deal", space=space.name))
    tx.owner(space.position, player)
    tx.dealt(player, dealt + 1)
    tx.say("log.deal", player=player, space=space.name, amount=state.edition.fmt(space.price))


def run_jail_fine(state: GameState, tx: Tx, cmd: JailFine) -> None:
    player = parse.player(state, cmd.player, "jail_fine")
    fine = state.edition.jail_fine
    tx.say("log.jail-fine", player=player, amount=state.edition.fmt(fine))
    if not charge(tx, player, bank_account(state, "fine"), fine, "fine"):
        tx.say("log.debt-open", player=player, cash=state.edition.fmt(state.cash[player]))


def run_transfer(state: GameState, tx: Tx, cmd: Transfer) -> None:
    src = parse.player(state, cmd.src, "transfer", "from", bank=True)
    dst = parse.player(state, cmd.dst, "transfer", "to", bank=True)
    amount = cmd.amount
    memo = cmd.memo.strip() if isinstance(cmd.memo, str) else ""
    if src == dst:
        raise Refused("input", Msg("input.transfer-same", name=who(src)))
    shown_amount = state.edition.fmt(amount)
    if src == BANK:
        tx.pay(BANK, dst, amount, "transfer")
    else:
        spend(tx, src, dst, amount, "transfer", Msg("what.transfer", amount=shown_amount))
    tx.info.update(memo=memo)
    tx.say("log.transfer-memo" if memo else "log.transfer", src=who(src), dst=who(dst), amount=shown_amount, memo=memo)


def no_pot(state: GameState) -> Refused | None:
    """Why nobody can take the Free Parking pot now (the house rule is off, or the pot is empty); else None.
    The console says it before it asks who landed."""
    if not state.house_rules.free_parking_pot:
        return Refused("house-rule", Msg("house-rule.off"))
    if not state.pot:
        return Refused("pot-empty", Msg("pot.empty"))
    return None


def run_free_parking(state: GameState, tx: Tx, cmd: FreeParking) -> None:
    player = parse.player(state, cmd.player, "free_parking")
    refusal = no_pot(state)
    if refusal is not None:
        raise refusal
    amount = state.pot
    tx.pay(POT, player, amount, "free parking")
    tx.say("log.free-parking", player=player, amount=state.edition.fmt(amount))
