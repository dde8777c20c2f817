"""The command vocabulary: plain data, one JSON object per action.

This is the script language of ``banker apply`` and what the session log stores.
Each op is validated and either applied whole or refused; see docs/commands.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .bankruptcy import run_bankrupt, run_end_game
from .building import run_build, run_building_auction, run_sell_building
from .cards import run_card, run_jail_card
from .debts import bank_account, charge, settle, spend, who
from .errors import Refused
from .messages import Msg, shown
from .mortgage import run_mortgage, run_unmortgage
from .rent import run_rent
from .state import BANK, POT
from .tax import run_tax
from .trade import run_trade

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx


def run_salary(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    landed = parse.flag(cmd, "landed")
    amount = state.edition.salary
    if landed and state.house_rules.go_landing_bonus:
        amount *= 2
    tx.pay(BANK, player, amount, "salary")
    tx.say("log.salary-landed" if landed else "log.salary", player=player, amount=state.edition.fmt(amount))


def _unowned(state: GameState, cmd: Mapping[str, Any]):
    space = parse.prop(state, cmd)
    owner = state.lots[space.position].owner
    if owner is not None:
        raise Refused("owned", Msg("owned", space=space.name, owner=owner))
    return space


def run_buy(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    space = _unowned(state, cmd)
    if space.position in state.pending_auction:
        raise Refused("auction-pending", Msg("auction.pending", space=space.name))
    spend(tx, player, BANK, space.price, "buy", Msg("what.buy", space=space.name))
    tx.owner(space.position, player)
    tx.say("log.buy", player=player, space=space.name, amount=state.edition.fmt(space.price))


def run_auction(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    space = _unowned(state, cmd)
    if cmd.get("winner", "") is None:
        # nobody bid: the deed stays with the bank and may be bought when next landed on
        tx.pending(space.position, False)
        tx.say("log.no-bids", space=space.name)
        return
    winner = parse.player(state, cmd, "winner")
    bid = parse.amount(cmd, "bid", 1)
    low = state.edition.rules.property_auction_min_bid
    fmt = state.edition.fmt
    if bid < low:
        raise Refused("auction-bid", Msg("auction.min", amount=fmt(low)))
    spend(tx, winner, BANK, bid, "auction", Msg("what.bid", space=space.name))
    tx.owner(space.position, winner)
    tx.pending(space.position, False)
    tx.info.update(bid=bid, price=space.price)
    tx.say("log.auction", player=winner, space=space.name, amount=fmt(bid), price=fmt(space.price))


def run_deal(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    limit = state.variant.deal_deeds
    if not limit:
        raise Refused("deal", Msg("deal.variant", variant=state.variant.name.lower()))
    space = _unowned(state, cmd)
    dealt = state.dealt.get(player, 0)
    if dealt >= limit:
        raise Refused("deal", Msg("deal.done", player=player, n=limit))
    spend(tx, player, BANK, space.price, "deal", Msg("what.deal", space=space.name))
    tx.owner(space.position, player)
    tx.set("dealt", "player", player, dealt, dealt + 1)
    tx.say("log.deal", player=player, space=space.name, amount=state.edition.fmt(space.price))


def run_jail_fine(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    fine = state.edition.jail_fine
    tx.say("log.jail-fine", player=player, amount=state.edition.fmt(fine))
    if not charge(tx, player, bank_account(state, "fine"), fine, "fine"):
        tx.say("log.debt-open", player=player, cash=state.edition.fmt(state.cash[player]))


def run_transfer(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    src = parse.player(state, cmd, "from", bank=True)
    dst = parse.player(state, cmd, "to", bank=True)
    amount = parse.amount(cmd, "amount", 1)
    memo = parse.text(cmd, "memo")
    if src == dst:
        raise Refused("input", Msg("input.transfer-same"))
    if src == BANK:
        tx.pay(BANK, dst, amount, "transfer")
    else:
        spend(tx, src, dst, amount, "transfer", Msg("what.transfer", amount=state.edition.fmt(amount)))
    tx.info.update(memo=memo)
    tx.say("log.transfer-memo" if memo else "log.transfer", src=who(src), dst=who(dst),
           amount=state.edition.fmt(amount), memo=memo)


def run_free_parking(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    if not state.house_rules.free_parking_pot:
        raise Refused("house-rule", Msg("house-rule.off"))
    if not state.pot:
        raise Refused("pot-empty", Msg("pot.empty"))
    amount = state.pot
    tx.pay(POT, player, amount, "free parking")
    tx.say("log.free-parking", player=player, amount=state.edition.fmt(amount))


HANDLERS: dict[str, Callable[[GameState, Tx, Mapping[str, Any]], None]] = {
    "salary": run_salary,
    "buy": run_buy,
    "auction": run_auction,
    "deal": run_deal,
    "rent": run_rent,
    "tax": run_tax,
    "card": run_card,
    "jail_fine": run_jail_fine,
    "jail_card": run_jail_card,
    "transfer": run_transfer,
    "build": run_build,
    "sell_building": run_sell_building,
    "building_auction": run_building_auction,
    "mortgage": run_mortgage,
    "unmortgage": run_unmortgage,
    "trade": run_trade,
    "bankrupt": run_bankrupt,
    "free_parking": run_free_parking,
    "end_game": run_end_game,
}
OPS = tuple(HANDLERS) + ("undo",)


def run(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    op = cmd.get("op")
    handler = HANDLERS.get(op) if isinstance(op, str) else None
    if handler is None:
        raise Refused("input", Msg("input.unknown-op", op=shown(op), ops=list(OPS)))
    if state.over:
        raise Refused("game-over", Msg("game-over", winner=state.winner or Msg("game-over.nobody")))
    handler(state, tx, cmd)
    settle(tx)
