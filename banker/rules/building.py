"""Houses and hotels: building evenly, selling evenly, the stock, the shortage auction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import spend
from .errors import Refused
from .messages import Msg
from .state import BANK
from .valuation import half

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Space
    from .state import GameState, Tx


def describe_level(state: GameState, pos: int) -> Msg:
    lot = state.lots[pos]
    if lot.hotel:
        return Msg("level.hotel")
    return Msg("level.houses", n=lot.houses)


def check_build(state: GameState, player: str, space: Space) -> tuple[str, int]:
    """Whether ``player`` may put the next building on ``space``: returns ("house"|"hotel",
    its printed price), or raises :class:`Refused` naming the rule."""
    lot = state.lots[space.position]
    group = state.group_positions(space.group)
    names = state.edition.spaces
    if lot.owner != player:
        raise Refused("build-owner", Msg("build.owner", player=player, space=space.name))
    if not state.owns_group(player, space.group):
        missing = [names[p].name for p in group if state.lots[p].owner != player]
        raise Refused("build-group", Msg("build.group", player=player, missing=missing))
    mortgaged = [names[p].name for p in group if state.lots[p].mortgaged]
    if mortgaged:
        raise Refused("build-mortgaged", Msg("build.mortgaged", lots=mortgaged, n=len(mortgaged),
                                             group=state.edition.groups[space.group].name))
    if lot.hotel:
        raise Refused("build-hotel", Msg("build.hotel", space=space.name))
    lowest = min(group, key=state.level)
    if state.level(space.position) > state.level(lowest):
        raise Refused("build-evenly", Msg("build.evenly", space=space.name, level=describe_level(state, space.position),
                                          other=names[lowest].name, other_level=describe_level(state, lowest)))
    if lot.houses < state.houses_before_hotel:
        if state.bank_houses < 1:
            raise Refused("house-stock", Msg("stock.houses", n=state.edition.houses))
        return "house", space.house_cost
    if state.bank_hotels < 1:
        raise Refused("hotel-stock", Msg("stock.hotels", n=state.edition.hotels))
    return "hotel", space.house_cost


def _put_building(tx: Tx, space: Space, kind: str) -> None:
    state = tx.state
    if kind == "house":
        tx.stock(houses=-1)
        tx.houses(space.position, state.lots[space.position].houses + 1)
    else:
        tx.stock(houses=state.houses_before_hotel, hotels=-1)
        tx.houses(space.position, 0)
        tx.hotel(space.position, True)


def run_build(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    space = parse.street(state, cmd)
    kind, price = check_build(state, player, space)
    what = Msg(f"building.{kind}")
    spend(tx, player, BANK, price, "build", Msg("what.building", kind=what, space=space.name))
    _put_building(tx, space, kind)
    tx.info.update(kind=kind, price=price)
    tx.say("log.build", player=player, kind=what, space=space.name, amount=state.edition.fmt(price))


def run_building_auction(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    """The building-shortage auction: the winner puts the building on a lot at the bid."""
    player = parse.player(state, cmd)
    space = parse.street(state, cmd)
    bid = parse.amount(cmd, "bid", 1)
    kind, price = check_build(state, player, space)
    fmt = state.edition.fmt
    if state.edition.rules.building_auction_start == "printed" and bid < price:
        raise Refused("building-auction-start", Msg("building-auction.start", amount=fmt(price)))
    spend(tx, player, BANK, bid, "building auction", Msg("what.auction-bid", amount=fmt(bid)))
    _put_building(tx, space, kind)
    tx.info.update(kind=kind, price=price, bid=bid)
    tx.say("log.building-auction", player=player, kind=Msg(f"building.{kind}"), amount=fmt(bid), space=space.name,
           price=fmt(price))


def hotel_sale_houses(state: GameState, space: Space, wanted: int | None) -> int:
    """How many houses stay on a lot whose hotel is sold, per the edition's rule."""
    hbh = state.houses_before_hotel
    stock = state.bank_houses
    rule = state.edition.rules.hotel_sale
    name = space.name
    if rule == "exchange":
        if wanted not in (None, hbh):
            raise Refused("hotel-sale", Msg("hotel-sale.exchange", hbh=hbh, n=wanted))
        if stock < hbh:
            raise Refused("hotel-sale-stock", Msg("hotel-sale.exchange-stock", space=name, hbh=hbh, stock=stock))
        return hbh
    if rule == "exchange_or_whole":
        if wanted is None:
            return hbh if stock >= hbh else 0
        if wanted not in (0, hbh):
            raise Refused("hotel-sale", Msg("hotel-sale.whole", hbh=hbh, n=wanted))
        if wanted and stock < hbh:
            raise Refused("hotel-sale-stock", Msg("hotel-sale.whole-stock", stock=stock, space=name, hbh=hbh))
        return wanted
    # break_down: a hotel counts as hbh+1 houses, broken down as far as the bank allows
    if wanted is None:
        return min(hbh, stock)
    if not 0 <= wanted <= hbh:
        raise Refused("input", Msg("input.hotel-houses", high=hbh, value=wanted))
    if wanted > stock:
        raise Refused("hotel-sale-stock", Msg("hotel-sale.stock", stock=stock, space=name))
    return wanted


def check_sale(state: GameState, player: str, space: Space) -> None:
    lot = state.lots[space.position]
    if lot.owner != player:
        raise Refused("sell-owner", Msg("sell.owner", player=player, space=space.name))
    if not lot.houses and not lot.hotel:
        raise Refused("sell-nothing", Msg("sell.nothing", space=space.name))
    group = state.group_positions(space.group)
    highest = max(group, key=state.level)
    if state.level(space.position) < state.level(highest):
        raise Refused("sell-evenly", Msg("sell.evenly", space=space.name, level=describe_level(state, space.position),
                                         other=state.edition.spaces[highest].name,
                                         other_level=describe_level(state, highest)))


def sale_proceeds(state: GameState, space: Space, houses_left: int | None = None) -> int:
    lot = state.lots[space.position]
    each = half(space.house_cost)
    if not lot.hotel:
        return each
    return each * (1 + state.houses_before_hotel - (houses_left or 0))


def run_sell_building(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    space = parse.street(state, cmd)
    check_sale(state, player, space)
    lot = state.lots[space.position]
    fmt = state.edition.fmt
    if lot.hotel:
        wanted = parse.amount(cmd, "houses", 0) if "houses" in cmd else None
        left = hotel_sale_houses(state, space, wanted)
        proceeds = sale_proceeds(state, space, left)
        tx.hotel(space.position, False)
        tx.houses(space.position, left)
        tx.stock(houses=-left, hotels=1)
        tx.pay(BANK, player, proceeds, "sell building")
        if left:
            tx.say("log.sell-hotel", player=player, space=space.name, amount=fmt(proceeds), n=left)
        else:
            tx.say("log.sell-hotel-whole", player=player, space=space.name, amount=fmt(proceeds))
    else:
        proceeds = sale_proceeds(state, space)
        tx.houses(space.position, lot.houses - 1)
        tx.stock(houses=1)
        tx.pay(BANK, player, proceeds, "sell building")
        tx.say("log.sell-house", player=player, space=space.name, amount=fmt(proceeds))
    tx.info.update(proceeds=proceeds)


def legal_builds(state: GameState, player: str) -> list[tuple[int, str, int]]:
    """(position, "house"|"hotel", price) for every lot the player may build on now."""
    out = []
    for pos in state.deeds_of(player):
        space = state.edition.spaces[pos]
        if space.kind != "street":
            continue
        try:
            kind, price = check_build(state, player, space)
        except Refused:
            continue
        if price <= state.cash[player] and not state.debts.get(player):
            out.append((pos, kind, price))
    return out


def build_refusal(state: GameState, player: str) -> Refused | None:
    """Why the player can build nowhere (the first reason met), or None if it can."""
    if legal_builds(state, player):
        return None
    first = None
    for pos in state.deeds_of(player):
        space = state.edition.spaces[pos]
        if space.kind != "street":
            continue
        try:
            check_build(state, player, space)
        except Refused as e:
            # prefer the most specific reason over "not a full group"
            if first is None or first.rule == "build-group":
                first = e
    return first


def legal_sales(state: GameState, player: str) -> list[tuple[int, int]]:
    """(position, proceeds) for every building the player may sell now."""
    out = []
    for pos in state.deeds_of(player):
        space = state.edition.spaces[pos]
        if space.kind != "street":
            continue
        try:
            check_sale(state, player, space)
            left = hotel_sale_houses(state, space, None) if state.lots[pos].hotel else None
        except Refused:
            continue
        out.append((pos, sale_proceeds(state, space, left)))
    return out
