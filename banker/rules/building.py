"""Houses and hotels: building evenly, selling evenly, the stock, the shortage auction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import UnsetType

from . import parse
from .debts import require_no_debt, spend
from .errors import Refused
from .messages import Msg
from .names import BANK
from .ops import Build, BuildingAuction, SellBuilding
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
                                             group=state.group_said(space)))
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


def run_build(state: GameState, tx: Tx, cmd: Build) -> None:
    player = parse.player(state, cmd.player, "build")
    space = parse.street(state, cmd.space, "build")
    if not isinstance(cmd.each, UnsetType) or not isinstance(cmd.upto, UnsetType):
        _build_group(state, tx, player, space, cmd)
        return
    kind, price = check_build(state, player, space)
    what = Msg(f"building.{kind}")
    spend(tx, player, BANK, price, "build", Msg("what.building", kind=what, space=space.name))
    _put_building(tx, space, kind)
    tx.info.update(kind=kind, price=price)
    tx.say("log.build", player=player, kind=what, space=space.name, amount=state.edition.fmt(price))


def group_targets(state: GameState, space: Space, each: int | None, upto: int | None) -> dict[int, int]:
    """The level each lot of ``space``'s group is built up to by ``each`` (that many more on every
    lot) or ``upto`` (every lot up to that many); raises :class:`Refused` for a level past a hotel."""
    top = state.houses_before_hotel + 1
    group = state.group_positions(space.group)
    if (each is None) == (upto is None):
        raise Refused("input", Msg("input.build-each-upto"))
    targets = {p: state.level(p) + each if each is not None else max(state.level(p), upto or 0) for p in group}
    over = [state.edition.spaces[p].name for p, level in targets.items() if level > top]
    if over:
        raise Refused("build-hotel", Msg("build-group.too-many", lots=over, n=len(over), top=top,
                                         hbh=state.houses_before_hotel))
    return targets


def plan_group_build(state: GameState, space: Space, targets: dict[int, int]) -> list[int]:
    """The lots in the order they are built on, one building a step: always a lowest lot still
    short of its target (the first by position among equals), so the group stays even."""
    levels = {p: state.level(p) for p in targets}
    steps: list[int] = []
    while True:
        short = [p for p in targets if levels[p] < targets[p]]
        if not short:
            return steps
        pos = min(short, key=lambda p: (levels[p], p))
        levels[pos] += 1
        steps.append(pos)


def _build_group(state: GameState, tx: Tx, player: str, space: Space, cmd: Build) -> None:
    """Several buildings on ``space``'s group in one action: ``each`` more on every lot, or every
    lot ``upto`` a level. Each step is a single build's (owner, full group, no mortgage, evenly,
    the stock); one payment for all. While houses are short (two or more players who may build
    and a bank holding fewer than they could take: :func:`no_shortage`), refused: the houses go
    one at a time or at the shortage auction (docs/rules.md)."""
    if state.lots[space.position].owner != player:
        raise Refused("build-owner", Msg("build.owner", player=player, space=space.name))
    each = None if isinstance(cmd.each, UnsetType) else cmd.each
    upto = None if isinstance(cmd.upto, UnsetType) else cmd.upto
    targets = group_targets(state, space, each, upto)
    steps = plan_group_build(state, space, targets)
    names = state.edition.spaces
    if not steps:
        raise Refused("build-nothing", Msg("build-group.nothing", group=state.group_said(space), n=upto or 0))
    stock_before = state.bank_houses
    need = _houses_needed(state, steps)
    if need > stock_before:
        raise Refused("house-stock", Msg("build-group.stock", n=stock_before, group=state.group_said(space),
                                         need=need))
    others = [p for p in building_demand(state, "house") if p != player]
    if others and need and stock_before - need < len(others):
        raise Refused("building-shortage", Msg("build-group.shortage", stock=Msg("build-group.houses", n=stock_before),
                                               need=need, left=stock_before - need, players=others))
    # the same for hotels: the last hotels go one at a time, or at the shortage auction (found playing: a group's
    # two hotels taken in one action, the bank's last, while another player could build one)
    hotels = _hotels_added(state, steps)
    others = [p for p in building_demand(state, "hotel") if p != player]
    if others and hotels and state.bank_hotels - hotels < len(others):
        raise Refused("building-shortage", Msg("build-group.shortage-hotels",
                                               stock=Msg("bankrupt.hotels", n=state.bank_hotels),
                                               need=Msg("bankrupt.hotels", n=hotels),
                                               left=Msg("bankrupt.hotels", n=state.bank_hotels - hotels), players=others))
    added: dict[int, list[str]] = {}
    total = 0
    for pos in steps:
        kind, price = check_build(state, player, names[pos])
        _put_building(tx, names[pos], kind)
        added.setdefault(pos, []).append(kind)
        total += price
    spend(tx, player, BANK, total, "build", Msg("what.buildings", group=state.group_said(space)))
    fmt = state.edition.fmt
    lots = [Msg("build-group.lot", space=names[p].name, what=_built(kinds)) for p, kinds in sorted(added.items())]
    tx.info.update(kind="group", price=total, lots={str(p): {"houses": kinds.count("house"), "hotel": "hotel" in kinds}
                                                    for p, kinds in sorted(added.items())})
    tx.say("log.build-group", player=player, group=state.group_said(space), lots=lots, amount=fmt(total),
           n=len(steps))


def _built(kinds: list[str]) -> Msg:
    houses = kinds.count("house")
    if "hotel" not in kinds:
        return Msg("build-group.houses", n=houses)
    return Msg("build-group.houses-hotel", n=houses) if houses else Msg("build-group.hotel")


def _hotels_added(state: GameState, steps: list[int]) -> int:
    """How many hotels the plan builds."""
    hbh = state.houses_before_hotel
    return sum(1 for pos in set(steps) if state.level(pos) + steps.count(pos) > hbh >= state.level(pos))


def _houses_needed(state: GameState, steps: list[int]) -> int:
    """The most houses the plan holds out of the bank at once (a hotel gives its houses back)."""
    hbh = state.houses_before_hotel
    levels = {p: state.level(p) for p in steps}
    out = held = 0
    for pos in steps:
        levels[pos] += 1
        held += 1 if levels[pos] <= hbh else -hbh
        out = max(out, held)
    return out


def auction_min_bid(state: GameState, space: Space) -> int:
    """The lowest bid in a shortage auction for a building on ``space`` (RU: the printed price)."""
    return space.house_cost if state.edition.rules.building_auction_start == "printed" else 1


def building_demand(state: GameState, kind: str, bidder: str | None = None) -> dict[str, int]:
    """Who may build a ``kind`` ("house" or "hotel") now, and how many of that kind each could
    still take: every player with no open debt, the cash for the lowest bid, and a lot where
    building that kind is legal now (full unmortgaged group, evenly, the bank has one); the
    count covers every lot of those groups (houses up to the number before a hotel, one hotel a
    lot). ``bidder``'s cash is not looked at (its bid is checked on its own). See
    :func:`no_shortage` and docs/rules.md."""
    hbh = state.houses_before_hotel
    out: dict[str, int] = {}
    for p in state.active_players:
        if state.debts.get(p):
            continue
        groups: set[str] = set()
        for pos in state.deeds_of(p):
            space = state.edition.spaces[pos]
            if space.kind != "street" or space.group is None or space.group in groups:
                continue
            try:
                what, _price = check_build(state, p, space)
            except Refused:
                continue
            if what == kind and (p == bidder or state.cash[p] >= auction_min_bid(state, space)):
                groups.add(space.group)
        if groups:
            lots = [state.lots[pos] for g in sorted(groups) for pos in state.group_positions(g)]
            out[p] = sum((hbh - lot.houses if kind == "house" else 1) for lot in lots if not lot.hotel)
    return out


def no_shortage(state: GameState, kind: str, bidder: str | None = None) -> Refused | None:
    """Why there is no shortage of ``kind`` now, or None when there is one.

    us-classic-rules.txt "Building Shortages": "If there are a limited number of houses and
    hotels available and two or more players wish to buy more than the Bank has, the houses or
    hotels must be sold at auction": a shortage is two or more players who may build that kind
    now (:func:`building_demand`) and a bank holding fewer than they could take in all."""
    demand = building_demand(state, kind, bidder)
    stock = state.bank_houses if kind == "house" else state.bank_hotels
    builders = [p for p in state.players if p in demand]
    if not builders:  # "only  may" said nobody
        return Refused("building-auction-shortage", Msg(f"building-auction.no-builder.{kind}"))
    if len(builders) < 2:
        return Refused("building-auction-shortage", Msg(f"building-auction.one-builder.{kind}", players=builders))
    if stock >= sum(demand.values()):
        return Refused("building-auction-shortage", Msg(f"building-auction.no-shortage.{kind}", stock=stock,
                                                        players=builders, want=sum(demand.values())))
    return None


def no_shortage_now(state: GameState) -> Refused | None:
    """Why no shortage auction can be held now, of houses or of hotels, whoever bids; None when one can (then
    :func:`no_shortage` answers for the bidder and the lot). The console says it before it asks who bids on which
    lot, so a banker who presses the key with no shortage on the table is told at once."""
    for kind in ("house", "hotel"):
        if any(no_shortage(state, kind, bidder=p) is None for p in state.active_players):
            return None
    return Refused("building-auction-shortage", Msg("building-auction.none-now", houses=Msg("level.houses", n=state.bank_houses),
                                                    hotels=Msg("bankrupt.hotels", n=state.bank_hotels)))


def run_building_auction(state: GameState, tx: Tx, cmd: BuildingAuction) -> None:
    """The building-shortage auction: the winner puts the building on a lot at the bid.

    Refused when there is no shortage (:func:`no_shortage`): then the building is bought at the
    printed price."""
    player = parse.player(state, cmd.player, "building_auction")
    space = parse.street(state, cmd.space, "building_auction")
    bid = cmd.bid
    kind, price = check_build(state, player, space)
    require_no_debt(state, player)
    fmt = state.edition.fmt
    refusal = no_shortage(state, kind, bidder=player)
    if refusal is not None:
        raise refusal
    if bid < auction_min_bid(state, space):
        raise Refused("building-auction-start", Msg("building-auction.start", amount=fmt(price)))
    spend(tx, player, BANK, bid, "building auction", Msg("what.auction-bid", amount=fmt(bid)))
    _put_building(tx, space, kind)
    tx.info.update(kind=kind, price=price, bid=bid)
    tx.say("log.building-auction", player=player, kind=Msg(f"building.{kind}"), amount=fmt(bid), space=space.name,
           price=fmt(price))


def hotel_sale_houses(state: GameState, space: Space, wanted: int | None) -> int:
    """How many houses stay on a lot whose hotel is sold, per the edition's rule.

    ``wanted`` is the command's ``"houses"`` (None: the default). US (``break_down``): the
    group must stay even ("one hotel equals five houses ... evenly"): the lot keeps at least
    one house fewer than the highest other lot, unless the bank is short of houses, which
    forces it down to what the bank has (docs/rules.md).
    """
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
    # break_down: a hotel counts as hbh+1 houses, broken down evenly as far as the bank allows
    top = min(hbh, stock)
    others = [p for p in state.group_positions(space.group) if p != space.position]
    highest = max(others, key=state.level, default=None)
    even = max(0, min(hbh, state.level(highest) - 1)) if highest is not None else 0
    low = min(even, top)  # a shortage of houses may force the lot below the even level, to what the bank has
    if wanted is None:
        return top
    if not 0 <= wanted <= hbh:
        raise Refused("input", Msg("input.hotel-houses", high=hbh, value=wanted))
    if wanted > stock:
        raise Refused("hotel-sale-stock", Msg("hotel-sale.stock", stock=stock, space=name))
    if wanted < low and highest is not None:
        raise Refused("hotel-sale-evenly", Msg("hotel-sale.evenly", space=name, low=low, n=wanted,
                                               other=state.edition.spaces[highest].name,
                                               other_level=describe_level(state, highest)))
    return wanted


def hotels_sold(state: GameState, space: Space, left: int) -> list[int]:
    """The lots whose hotels go in one sale: a hotel sold whole takes every hotel of its group
    with it where the edition says so (RU: "Все Отели одной цветовой группы должны
    продаваться одновременно"); an exchange for houses is one hotel at a time."""
    if left == 0 and state.edition.rules.hotels_sold_whole_together:
        return [p for p in state.group_positions(space.group) if state.lots[p].hotel]
    return [space.position]


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
    """What the bank pays for one step of selling on ``space``: a house, or its hotel down to
    ``houses_left`` houses (each house not returned is paid too)."""
    lot = state.lots[space.position]
    each = half(space.house_cost)
    if not lot.hotel:
        return each
    return each * (1 + state.houses_before_hotel - (houses_left or 0))


def default_sale(state: GameState, space: Space) -> tuple[list[int], int]:
    """The lots a plain ``sell_building`` on ``space`` (no "houses") sells from, and what it pays;
    raises :class:`Refused` when the hotel cannot be sold now."""
    if not state.lots[space.position].hotel:
        return [space.position], sale_proceeds(state, space)
    left = hotel_sale_houses(state, space, None)
    lots = hotels_sold(state, space, left)
    return lots, sum(sale_proceeds(state, state.edition.spaces[p], left) for p in lots)


def _sell_hotels(tx: Tx, space: Space, left: int) -> tuple[list[int], int]:
    """Take the hotel(s) off, leave ``left`` houses on each: the lots and the proceeds (not paid yet)."""
    state = tx.state
    lots = hotels_sold(state, space, left)
    proceeds = 0
    for pos in lots:
        proceeds += sale_proceeds(state, state.edition.spaces[pos], left)
        tx.hotel(pos, False)
        tx.houses(pos, left)
        tx.stock(houses=-left, hotels=1)
    return lots, proceeds


def _sell_house(tx: Tx, space: Space) -> int:
    state = tx.state
    proceeds = sale_proceeds(state, space)
    tx.houses(space.position, state.lots[space.position].houses - 1)
    tx.stock(houses=1)
    return proceeds


def run_sell_building(state: GameState, tx: Tx, cmd: SellBuilding) -> None:
    player = parse.player(state, cmd.player, "sell_building")
    space = parse.street(state, cmd.space, "sell_building")
    if cmd.all is True:
        if not isinstance(cmd.houses, UnsetType):
            raise Refused("input", Msg("input.sell-all-houses"))
        _sell_group(state, tx, player, space)
        return
    check_sale(state, player, space)
    lot = state.lots[space.position]
    fmt = state.edition.fmt
    names = state.edition.spaces
    if lot.hotel:
        wanted = None if isinstance(cmd.houses, UnsetType) else cmd.houses
        left = hotel_sale_houses(state, space, wanted)
        lots, proceeds = _sell_hotels(tx, space, left)
        tx.pay(BANK, player, proceeds, "sell building")
        if left:
            tx.say("log.sell-hotel", player=player, space=space.name, amount=fmt(proceeds), n=left)
        elif len(lots) > 1:
            tx.say("log.sell-hotels-whole", player=player, spaces=[names[p].name for p in lots], amount=fmt(proceeds))
        else:
            tx.say("log.sell-hotel-whole", player=player, space=space.name, amount=fmt(proceeds))
    else:
        if not isinstance(cmd.houses, UnsetType):  # a typo, never quietly dropped: a house is sold either way
            raise Refused("input", Msg("input.sell-houses-no-hotel", space=space.name))
        proceeds = _sell_house(tx, space)
        tx.pay(BANK, player, proceeds, "sell building")
        tx.say("log.sell-house", player=player, space=space.name, amount=fmt(proceeds))
    tx.info.update(proceeds=proceeds)


def _sell_group(state: GameState, tx: Tx, player: str, space: Space) -> None:
    """``"all": true``: every building of the group in one action, each step a legal sale
    (us-classic-rules.txt: "All houses on one color-group may be sold at once"): always from
    a highest lot; a hotel sold whole where the rules allow it, else exchanged or broken
    down as a single sale would be (a step the rules refuse refuses the whole action)."""
    group = state.group_positions(space.group)
    names = state.edition.spaces
    if state.lots[space.position].owner != player:
        raise Refused("sell-owner", Msg("sell.owner", player=player, space=space.name))
    built = [p for p in group if state.level(p)]
    if not built:
        raise Refused("sell-nothing", Msg("sell.nothing-group", group=state.group_said(space)))
    houses_before = sum(state.lots[p].houses for p in group)
    hotels_before = sum(state.lots[p].hotel for p in group)
    total = 0
    while True:
        standing = [p for p in group if state.level(p)]
        if not standing:
            break
        step = names[max(standing, key=lambda p: (state.level(p), p))]
        if state.lots[step.position].hotel:
            try:
                left = hotel_sale_houses(state, step, 0)
            except Refused:
                left = hotel_sale_houses(state, step, None)  # its refusal refuses the whole sale
            total += _sell_hotels(tx, step, left)[1]
        else:
            total += _sell_house(tx, step)
    tx.pay(BANK, player, total, "sell building")
    tx.info.update(proceeds=total, all=True)
    tx.say("log.sell-all", player=player, group=state.group_said(space),
           spaces=[names[p].name for p in built], houses=houses_before, hotels=hotels_before, n=hotels_before,
           amount=state.edition.fmt(total))


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


def single_sales(state: GameState, player: str) -> list[tuple[int, int | Refused]]:
    """For every lot of the player's whose building may be sold by the rules of even selling (``check_sale``: a lot at
    its group's highest level), the proceeds of a single sale (``sell_building`` without "houses") now, or why that
    sale is refused (a UK/Kyiv hotel when the bank has fewer than the 4 houses to exchange it for)."""
    out: list[tuple[int, int | Refused]] = []
    for pos in state.deeds_of(player):
        space = state.edition.spaces[pos]
        if space.kind != "street":
            continue
        try:
            check_sale(state, player, space)  # a lot below the group's highest: the highest one says why
        except Refused:
            continue
        try:
            _lots, proceeds = default_sale(state, space)
        except Refused as e:
            out.append((pos, e))
            continue
        out.append((pos, proceeds))
    return out


def legal_sales(state: GameState, player: str) -> list[tuple[int, int]]:
    """(position, proceeds) for every single sale (``sell_building`` without "houses") the
    player may make now."""
    return [(pos, got) for pos, got in single_sales(state, player) if not isinstance(got, Refused)]


def legal_group_sales(state: GameState, player: str) -> list[tuple[int, int]]:
    """(first lot, proceeds) for every group of the player's with buildings whose every
    building may be sold now in one action (``"all": true``), found by trying it."""
    out = []
    seen: set[str] = set()
    for pos in sorted(state.deeds_of(player)):
        space = state.edition.spaces[pos]
        if space.kind != "street" or space.group is None or space.group in seen:
            continue
        seen.add(space.group)
        if not any(state.level(p) for p in state.group_positions(space.group)):
            continue
        try:
            move = state.preview(SellBuilding(player=player, space=pos, all=True))
        except Refused:
            continue
        out.append((pos, move.info["proceeds"]))
    return out
