"""Houses and hotels: building evenly, selling evenly, the stock, the shortage auction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import spend
from .errors import Refused
from .state import BANK
from .valuation import half

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Space
    from .state import GameState, Tx


def describe_level(state: GameState, pos: int) -> str:
    lot = state.lots[pos]
    if lot.hotel:
        return "a hotel"
    n = lot.houses
    return f"{n} house{'s' * (n != 1)}"


def check_build(state: GameState, player: str, space: Space) -> tuple[str, int]:
    """Why ``player`` may put the next building on ``space``: returns ("house"|"hotel",
    its printed price), or raises :class:`Refused` naming the rule."""
    lot = state.lots[space.position]
    group = state.group_positions(space.group)
    gname = state.edition.groups[space.group].name
    if lot.owner != player:
        raise Refused("build-owner", f"{player} does not own {space.name}")
    if not state.owns_group(player, space.group):
        missing = [state.edition.spaces[p].name for p in group if state.lots[p].owner != player]
        raise Refused("build-group", f"Build only on a full colour group: {player} does not own {', '.join(missing)}")
    mortgaged = [state.edition.spaces[p].name for p in group if state.lots[p].mortgaged]
    if mortgaged:
        raise Refused("build-mortgaged", f"No building on a group with a mortgage: {', '.join(mortgaged)} "
                      f"{'is' if len(mortgaged) == 1 else 'are'} mortgaged ({gname})")
    if lot.hotel:
        raise Refused("build-hotel", f"{space.name} already has a hotel: one hotel per lot is the most")
    lowest = min(group, key=state.level)
    if state.level(space.position) > state.level(lowest):
        raise Refused("build-evenly", f"Build evenly: {space.name} has {describe_level(state, space.position)}, "
                      f"{state.edition.spaces[lowest].name} has {describe_level(state, lowest)}")
    if lot.houses < state.houses_before_hotel:
        if state.bank_houses < 1:
            raise Refused("house-stock", f"The bank has no houses left (all {state.edition.houses} are built): "
                          f"wait until a player sells houses back")
        return "house", space.house_cost
    if state.bank_hotels < 1:
        raise Refused("hotel-stock", f"The bank has no hotels left (all {state.edition.hotels} are built): "
                      f"wait until a player sells a hotel back")
    return "hotel", space.house_cost


def _put_building(tx: Tx, space: Space, kind: str) -> None:
    state = tx.state
    if kind == "house":
        tx.stock(houses=-1)
        tx.houses(space.position, state.lots[space.position].houses + 1)
    else:
        hbh = state.houses_before_hotel
        tx.stock(houses=hbh, hotels=-1)
        tx.houses(space.position, 0)
        tx.hotel(space.position, True)


def run_build(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    space = parse.street(state, cmd)
    kind, price = check_build(state, player, space)
    spend(tx, player, BANK, price, "build", f"a {kind} on {space.name}")
    _put_building(tx, space, kind)
    tx.info.update(kind=kind, price=price)
    tx.text = f"{player} builds a {kind} on {space.name} for {state.edition.fmt(price)}"


def run_building_auction(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    """The building-shortage auction: the winner puts the building on a lot at the bid."""
    player = parse.player(state, cmd)
    space = parse.street(state, cmd)
    bid = parse.amount(cmd, "bid", 1)
    kind, price = check_build(state, player, space)
    if state.edition.rules.building_auction_start == "printed" and bid < price:
        raise Refused("building-auction-start", f"A building auction starts at the printed price: "
                      f"the bid must be at least {state.edition.fmt(price)}")
    spend(tx, player, BANK, bid, "building auction", f"a bid of {state.edition.fmt(bid)}")
    _put_building(tx, space, kind)
    tx.info.update(kind=kind, price=price, bid=bid)
    tx.text = (f"{player} wins a {kind} at the shortage auction for {state.edition.fmt(bid)} "
               f"and builds it on {space.name} (printed {state.edition.fmt(price)})")


def hotel_sale_houses(state: GameState, space: Space, wanted: int | None) -> int:
    """How many houses stay on a lot whose hotel is sold, per the edition's rule."""
    hbh = state.houses_before_hotel
    stock = state.bank_houses
    rule = state.edition.rules.hotel_sale
    name = space.name
    if rule == "exchange":
        if wanted not in (None, hbh):
            raise Refused("hotel-sale", f"A hotel is sold for half its price and exchanged for {hbh} houses; "
                          f"it cannot be sold down to {wanted}")
        if stock < hbh:
            raise Refused("hotel-sale-stock", f"Selling the hotel on {name} exchanges it for {hbh} houses and the bank "
                          f"has only {stock}: sell other buildings first, or wait for houses to come back")
        return hbh
    if rule == "exchange_or_whole":
        if wanted is None:
            return hbh if stock >= hbh else 0
        if wanted not in (0, hbh):
            raise Refused("hotel-sale", f"A hotel is either exchanged for {hbh} houses or sold whole with them "
                          f"(\"houses\": 0), not brought down to {wanted}")
        if wanted and stock < hbh:
            raise Refused("hotel-sale-stock", f"The bank has only {stock} houses, so the hotel on {name} cannot be "
                          f"exchanged for {hbh}: sell it whole (\"houses\": 0)")
        return wanted
    # break_down: a hotel counts as hbh+1 houses, broken down as far as the bank allows
    if wanted is None:
        return min(hbh, stock)
    if not 0 <= wanted <= hbh:
        raise Refused("input", f"sell_building: \"houses\" must be 0-{hbh}, not {wanted}")
    if wanted > stock:
        raise Refused("hotel-sale-stock", f"The bank has only {stock} houses: the hotel on {name} can come down "
                      f"to at most {stock}")
    return wanted


def check_sale(state: GameState, player: str, space: Space) -> None:
    lot = state.lots[space.position]
    if lot.owner != player:
        raise Refused("sell-owner", f"{player} does not own {space.name}")
    if not lot.houses and not lot.hotel:
        raise Refused("sell-nothing", f"{space.name} has no buildings to sell")
    group = state.group_positions(space.group)
    highest = max(group, key=state.level)
    if state.level(space.position) < state.level(highest):
        raise Refused("sell-evenly", f"Sell evenly: {space.name} has {describe_level(state, space.position)}, "
                      f"{state.edition.spaces[highest].name} has {describe_level(state, highest)}")


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
        tail = f", leaving {left} house{'s' * (left != 1)}" if left else " with its houses"
        tx.text = f"{player} sells the hotel on {space.name} to the bank for {fmt(proceeds)}{tail}"
    else:
        proceeds = sale_proceeds(state, space)
        tx.houses(space.position, lot.houses - 1)
        tx.stock(houses=1)
        tx.pay(BANK, player, proceeds, "sell building")
        tx.text = f"{player} sells a house on {space.name} to the bank for {fmt(proceeds)}"
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
