"""Houses, hotels, the building stock, the shortage auction, mortgages."""

from __future__ import annotations

import pytest

from banker.rules import Refused
from banker.rules.effects import Pay

from .rules_helpers import BROWN, DARK_BLUE, EDITIONS, GREEN, ORANGE, drain, game, own, top_up


def full_group(edition="classic-us", variant="classic", cash=10_000):
    g = game(edition, variant)
    own(g, "Ann", *DARK_BLUE)
    top_up(g, "Ann", cash)
    return g


# ---------------------------------------------------------------- building


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_groups_positions_are_its_spaces_in_the_boards_order(edition):
    """``group_positions`` (read for every rent, build and sale, made once when the game is set up) names every
    space of the group, in the board's order, and a fresh list each time; ``None`` the spaces of no group."""
    g = game(edition)
    groups = {s.group for s in g.edition.spaces}
    assert len(groups) > 9  # eight colour groups, railroads and utilities, and None
    for group in groups:
        expected = [s.position for s in g.edition.spaces if s.group == group]
        got = g.group_positions(group)
        assert got == expected and got == sorted(got)
        got.append(99)  # the caller's own list: the game's is not changed
        assert g.group_positions(group) == expected
    assert g.group_positions("no-such-group") == []
    assert 0 in g.group_positions(None)  # GO belongs to no group


@pytest.mark.parametrize("edition", EDITIONS)
def test_build_needs_the_full_group(edition):
    """us-classic-rules.txt "Houses": "When you own all the MONOPOLY properties in a color-group you may
    buy houses"; uk-2008 "BUILD": "When you own all the sites in a color group"."""
    g = game(edition)
    own(g, "Ann", 39)
    with pytest.raises(Refused) as e:
        g.push({"op": "build", "player": "Ann", "space": 39})
    assert e.value.rule == "build-group"
    assert g.edition.spaces[37].name in str(e.value)


@pytest.mark.parametrize("edition", EDITIONS)
def test_build_evenly(edition):
    """us-classic-rules.txt: "you cannot erect more than one house on any one property of any
    color-group until you have built one house on every property of that group"."""
    g = full_group(edition)
    g.push({"op": "build", "player": "Ann", "space": 39})
    with pytest.raises(Refused) as e:
        g.push({"op": "build", "player": "Ann", "space": 39})
    assert e.value.rule == "build-evenly"
    if edition == "classic-us":
        assert str(e.value) == "Build evenly: Boardwalk has 1 house, Park Place has 0 houses"
    g.push({"op": "build", "player": "Ann", "space": 37})
    g.push({"op": "build", "player": "Ann", "space": 39})
    assert (g.lots[37].houses, g.lots[39].houses) == (1, 2)


def test_house_price_as_printed_on_the_deed():
    """us-classic-rules.txt: "The price you must pay the Bank for each house is shown on your Title Deed"."""
    g = full_group()
    before = g.cash["Ann"]
    g.push({"op": "build", "player": "Ann", "space": 39})
    assert before - g.cash["Ann"] == 200
    assert g.bank_houses == 31


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_building_on_a_group_with_a_mortgage(edition):
    """README, common to all: "no building while any lot of the group is mortgaged"; uk-2008: "you cannot
    build on a site if any site in its color group is mortgaged"."""
    g = full_group(edition)
    g.push({"op": "mortgage", "player": "Ann", "space": 37})
    with pytest.raises(Refused) as e:
        g.push({"op": "build", "player": "Ann", "space": 39})
    assert e.value.rule == "build-mortgaged"


@pytest.mark.parametrize("edition,variant,houses", [
    ("classic-us", "classic", 4), ("classic-us", "short", 3), ("uk", "classic", 4),
    ("ru", "classic", 4), ("ru", "short", 3), ("kyiv", "classic", 4)])
def test_houses_before_a_hotel(edition, variant, houses):
    """README table "houses needed before a hotel": 4 (3 in the Short Game); us-classic-rules.txt Short
    Game rule 2: "it is necessary to have only three houses (instead of four)"; the hotel returns its
    houses to the bank ("He/she returns the four houses from that property to the Bank")."""
    g = full_group(edition, variant)
    for _ in range(houses):
        g.push({"op": "build", "player": "Ann", "space": 37})
        g.push({"op": "build", "player": "Ann", "space": 39})
    assert g.bank_houses == 32 - 2 * houses
    move = g.push({"op": "build", "player": "Ann", "space": 39})
    assert move.info["kind"] == "hotel"
    assert g.lots[39].hotel and g.lots[39].houses == 0
    assert g.bank_houses == 32 - houses and g.bank_hotels == 11
    with pytest.raises(Refused, match="already has a hotel"):
        g.push({"op": "build", "player": "Ann", "space": 39})


def test_bank_runs_out_of_houses():
    """us-classic-rules.txt "Building Shortages": "When the Bank has no houses to sell, players wishing to
    build must wait"; README: "32 houses and 12 hotels in the bank"."""
    g = game(players=("Ann", "Bob", "Cid", "Dee"))
    own(g, "Ann", *GREEN)
    own(g, "Bob", *ORANGE)
    own(g, "Cid", 6, 8, 9)
    own(g, "Dee", *DARK_BLUE)
    for p in ("Ann", "Bob", "Cid", "Dee"):
        top_up(g, p, 20_000)
    built = 0
    for p, lots in (("Ann", GREEN), ("Bob", ORANGE), ("Cid", [6, 8, 9])):
        for _ in range(4):
            for pos in lots:
                if g.bank_houses:
                    g.push({"op": "build", "player": p, "space": pos})
                    built += 1
    assert built == 32 and g.bank_houses == 0
    with pytest.raises(Refused) as e:
        g.push({"op": "build", "player": "Dee", "space": 37})
    assert e.value.rule == "house-stock"
    assert g.houses_out() + g.bank_houses == 32


def test_hotel_stock_is_12():
    """README: "12 hotels in the bank"."""
    g = game(players=("Ann", "Bob", "Cid", "Dee"))
    groups = [[1, 3], [6, 8, 9], [11, 13, 14], [16, 18, 19], [21, 23, 24], [26, 27, 29], [31, 32, 34], [37, 39]]
    own(g, "Ann", *[p for grp in groups for p in grp])
    top_up(g, "Ann", 100_000)
    hotels = 0
    for grp in groups:
        # houses first (recycled by each hotel), then hotels while the bank has them
        for _ in range(4):
            for pos in grp:
                g.push({"op": "build", "player": "Ann", "space": pos})
        for pos in grp:
            if g.bank_hotels:
                g.push({"op": "build", "player": "Ann", "space": pos})
                hotels += 1
        if not g.bank_hotels:
            break
    assert hotels == 12
    last = next(pos for grp in groups for pos in grp if not g.lots[pos].hotel and g.lots[pos].houses == 4)
    with pytest.raises(Refused) as e:
        g.push({"op": "build", "player": "Ann", "space": last})
    assert e.value.rule == "hotel-stock"


# ---------------------------------------------------------------- selling


@pytest.mark.parametrize("edition", EDITIONS)
def test_sell_houses_evenly_at_half_price(edition):
    """us-classic-rules.txt: "Houses and hotels may be sold back to the Bank at any time for one-half the
    price paid for them ... evenly, in reverse of the manner in which they were erected"."""
    g = full_group(edition)
    for pos in (37, 39, 37, 39):
        g.push({"op": "build", "player": "Ann", "space": pos})
    g.push({"op": "sell_building", "player": "Ann", "space": 39})
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": 39})
    assert e.value.rule == "sell-evenly"
    before = g.cash["Ann"]
    g.push({"op": "sell_building", "player": "Ann", "space": 37})
    assert g.cash["Ann"] - before == 100
    assert g.bank_houses == 30


def hotel_game(edition, variant="classic"):
    g = full_group(edition, variant)
    hbh = g.houses_before_hotel
    for _ in range(hbh):
        g.push({"op": "build", "player": "Ann", "space": 37})
        g.push({"op": "build", "player": "Ann", "space": 39})
    g.push({"op": "build", "player": "Ann", "space": 39})
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_hotel_sold_for_half_and_exchanged_for_houses(edition):
    """README table "selling a hotel": UK "half its price, and it is immediately exchanged for 4 houses"
    (uk-2008 "SELL BUILDINGS"), Kyiv the same, US "a hotel counts as five houses" broken down,
    RU hotels "can be swapped back to houses only while the bank has houses"."""
    g = hotel_game(edition)
    before = g.cash["Ann"]
    g.push({"op": "sell_building", "player": "Ann", "space": 39})
    assert g.cash["Ann"] - before == 100
    assert not g.lots[39].hotel and g.lots[39].houses == 4
    assert g.bank_hotels == 12 and g.bank_houses == 32 - 8


def test_short_game_hotel_turn_in_is_one_house_fewer():
    """us-classic-rules.txt Short Game: "The turn-in value of a hotel is still one-half the purchase price,
    which in this game is one house fewer" — the hotel comes back down to 3 houses."""
    g = hotel_game("classic-us", "short")
    g.push({"op": "sell_building", "player": "Ann", "space": 39})
    assert g.lots[39].houses == 3


def exhaust_houses(g, keep: int, lots=(6, 8, 9, *GREEN, *ORANGE)):
    """Let Bob build evenly on three groups (36 houses' worth, more than the bank has) until the bank keeps
    only ``keep`` houses."""
    own(g, "Bob", *lots)
    top_up(g, "Bob", 50_000)
    for _round in range(4):
        for pos in lots:
            if g.bank_houses > keep:
                g.push({"op": "build", "player": "Bob", "space": pos})
    assert g.bank_houses == keep


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
def test_hotel_exchange_needs_houses_in_the_bank(edition):
    """uk-2008: a hotel is "immediately exchanged for 4 houses": with fewer than 4 in the bank the sale is
    refused, saying what to do (the book is silent; docs/rules.md)."""
    g = hotel_game(edition)
    exhaust_houses(g, 2)
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": 39})
    assert e.value.rule == "hotel-sale-stock"
    assert "only 2" in str(e.value)


def test_us_hotel_breaks_down_to_what_the_bank_has():
    """us-classic-rules.txt: "one hotel equals five houses" sold "one house at a time": with 2 houses in the
    bank the hotel comes down to 2, paying for the hotel and the 2 houses not returned."""
    g = hotel_game("classic-us")
    exhaust_houses(g, 2)
    before = g.cash["Ann"]
    g.push({"op": "sell_building", "player": "Ann", "space": 39})
    assert g.lots[39].houses == 2 and g.bank_houses == 0
    assert g.cash["Ann"] - before == 100 * 3


def test_ru_hotel_sold_whole_with_its_houses():
    """ru-2004-rules-english-translation.txt: "the Bank pays you half the cost of the Hotel plus half the cost
    of the four Houses"; "Hotels can be replaced with Houses again ... four Houses plus half the cost of
    the Hotel itself" — swapped only while the bank has houses."""
    g = hotel_game("ru")
    exhaust_houses(g, 2)
    before = g.cash["Ann"]
    g.push({"op": "sell_building", "player": "Ann", "space": 39})
    assert g.lots[39].houses == 0 and not g.lots[39].hotel
    assert g.cash["Ann"] - before == 100 * 5
    g = hotel_game("ru")
    before = g.cash["Ann"]
    g.push({"op": "sell_building", "player": "Ann", "space": 39, "houses": 0})
    assert g.cash["Ann"] - before == 500 and g.bank_houses == 32 - 4


# ---------------------------------------------------------------- shortage auction


@pytest.mark.parametrize("edition,minimum", [("classic-us", 1), ("uk", 1), ("ru", 200), ("kyiv", 1)])
def test_building_shortage_auction(edition, minimum):
    """us-classic-rules.txt "Building Shortages": "the houses or hotels must be sold at auction to the highest
    bidder"; README table "building-shortage auction": RU "bidding starts at the price printed on the deed"."""
    g = full_group(edition)
    exhaust_houses(g, 1)
    if minimum > 1:
        with pytest.raises(Refused) as e:
            g.push({"op": "building_auction", "player": "Ann", "space": 39, "bid": minimum - 1})
        assert e.value.rule == "building-auction-start"
    before = g.cash["Ann"]
    move = g.push({"op": "building_auction", "player": "Ann", "space": 39, "bid": minimum + 50})
    assert before - g.cash["Ann"] == minimum + 50
    assert g.lots[39].houses == 1 and g.bank_houses == 0
    assert move.info["bid"] == minimum + 50
    with pytest.raises(Refused) as e:
        g.push({"op": "building_auction", "player": "Ann", "space": 37, "bid": 300})
    assert e.value.rule == "house-stock"


# ---------------------------------------------------------------- mortgages


@pytest.mark.parametrize("edition", EDITIONS)
def test_mortgage_and_lift_with_ten_percent(edition):
    """README, common to all: "lifting a mortgage costs its value plus 10%"; README "Rounding": "mortgage 75
    is lifted for 83"."""
    g = game(edition)
    own(g, "Ann", 12)
    g.push({"op": "mortgage", "player": "Ann", "space": 12})
    assert g.cash["Ann"] == 1500 - 150 + 75 and g.lots[12].mortgaged
    move = g.push({"op": "unmortgage", "player": "Ann", "space": 12})
    assert move.info["cost"] == 83
    assert g.cash["Ann"] == 1500 - 150 + 75 - 83 and not g.lots[12].mortgaged


def test_no_mortgage_while_the_group_has_buildings():
    """us-classic-rules.txt "Mortgage Rules": "Before an improved property can be mortgaged, all the buildings
    on all the properties of its color-group must be sold back to the Bank"."""
    g = full_group()
    g.push({"op": "build", "player": "Ann", "space": 39})
    with pytest.raises(Refused) as e:
        g.push({"op": "mortgage", "player": "Ann", "space": 37})
    assert e.value.rule == "mortgage-buildings"
    assert "Boardwalk has 1 house" in str(e.value)


def test_mortgage_refusals():
    g = game()
    own(g, "Ann", *BROWN)
    with pytest.raises(Refused, match="does not own"):
        g.push({"op": "mortgage", "player": "Bob", "space": 1})
    g.push({"op": "mortgage", "player": "Ann", "space": 1})
    with pytest.raises(Refused, match="already mortgaged"):
        g.push({"op": "mortgage", "player": "Ann", "space": 1})
    with pytest.raises(Refused, match="not mortgaged"):
        g.push({"op": "unmortgage", "player": "Ann", "space": 3})
    drain(g, "Ann", 10)
    with pytest.raises(Refused, match="not enough cash"):
        g.push({"op": "unmortgage", "player": "Ann", "space": 1})


# ---------------------------------------------------------------- issue #8: evenness, whole groups, shortages


def test_us_hotel_breakdown_by_choice_keeps_the_group_even():
    """us-classic-rules.txt "Selling Property": houses "may be sold one house at a time (one hotel equals five
    houses), evenly, in reverse of the manner in which they were erected" — with a hotel on Boardwalk too, Park
    Place's hotel comes down to 4 houses (or none is wanted: the hotel counts five), not to 2 while the bank
    has houses to give."""
    g = hotel_game("classic-us")
    g.push({"op": "build", "player": "Ann", "space": 37})
    assert g.lots[37].hotel and g.lots[39].hotel and g.bank_houses == 32
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": 37, "houses": 2})
    assert e.value.rule == "hotel-sale-evenly"
    assert str(e.value).startswith("Sell evenly: Boardwalk has a hotel, so the hotel on Park Place comes down to at "
                                   "least 4 houses, not 2")
    for wanted in (0, 3):
        with pytest.raises(Refused):
            g.push({"op": "sell_building", "player": "Ann", "space": 37, "houses": wanted})
    g.push({"op": "sell_building", "player": "Ann", "space": 37, "houses": 4})
    # now Boardwalk's hotel may come down to 3 (one below Park Place's 4) or 4
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": 39, "houses": 2})
    assert e.value.rule == "hotel-sale-evenly"
    before = g.cash["Ann"]
    g.push({"op": "sell_building", "player": "Ann", "space": 39, "houses": 3})
    assert (g.lots[37].houses, g.lots[39].houses) == (4, 3) and g.cash["Ann"] - before == 2 * 100


@pytest.mark.parametrize("houses,accepted", [(None, 2), (2, 2), (1, None), (0, None)])
def test_us_only_a_shortage_forces_an_uneven_breakdown(houses, accepted):
    """docs/rules.md: a US hotel comes down to as many houses as the bank can supply: with 2 in the bank and a
    hotel on Boardwalk, Park Place's comes down to 2 — the shortage forces it — and not further by choice."""
    g = hotel_game("classic-us")
    g.push({"op": "build", "player": "Ann", "space": 37})
    exhaust_houses(g, 2)
    cmd = {"op": "sell_building", "player": "Ann", "space": 37}
    if houses is not None:
        cmd["houses"] = houses
    if accepted is None:
        with pytest.raises(Refused) as e:
            g.push(cmd)
        assert e.value.rule == "hotel-sale-evenly"
    else:
        g.push(cmd)
        assert g.lots[37].houses == accepted and g.bank_houses == 0


def test_ru_hotels_sold_whole_go_together_and_swaps_stay_one_at_a_time():
    """ru-2004-rules.md "Продажа недвижимости": "При продаже Отеля Банк платит Вам половину стоимости Отеля плюс
    половину стоимости четырех Домов ... Все Отели одной цветовой группы должны продаваться одновременно." (the
    Russian original, not only the translation); and "Отели могут быть снова заменены Домами ... продать Отель
    Банку и получить взамен четыре Дома плюс половину стоимости самого Отеля" — one hotel at a time."""
    g = full_group("ru")
    own(g, "Ann", *GREEN)
    for _ in range(5):
        for pos in GREEN:
            g.push({"op": "build", "player": "Ann", "space": pos})
    assert all(g.lots[p].hotel for p in GREEN)
    # the swap back to four houses: one hotel
    g.push({"op": "sell_building", "player": "Ann", "space": 31})
    assert [(g.lots[p].hotel, g.lots[p].houses) for p in GREEN] == [(False, 4), (True, 0), (True, 0)]
    g.pop()
    # sold whole: every hotel of the group at once, each with its four houses
    before = g.cash["Ann"]
    move = g.push({"op": "sell_building", "player": "Ann", "space": 31, "houses": 0})
    assert not any(g.level(p) for p in GREEN) and g.bank_hotels == 12 and g.bank_houses == 32
    assert g.cash["Ann"] - before == 3 * 5 * 100
    assert move.text.startswith("Ann sells the hotels on " + ", ".join(g.edition.spaces[p].name for p in GREEN))
    # and when the bank has no houses to swap, the default is the whole sale, together again
    g.pop()
    exhaust_houses(g, 3, lots=(6, 8, 9, *ORANGE, 11, 13, 14))
    g.push({"op": "sell_building", "player": "Ann", "space": 34})
    assert not any(g.level(p) for p in GREEN)


@pytest.mark.parametrize("edition", ["classic-us", "uk", "kyiv"])
def test_only_ru_sells_the_hotels_of_a_group_together(edition):
    """The other books have no such sentence: selling one hotel leaves the others standing."""
    g = hotel_game(edition)
    g.push({"op": "build", "player": "Ann", "space": 37})
    g.push({"op": "sell_building", "player": "Ann", "space": 39})
    assert g.lots[37].hotel and not g.lots[39].hotel


@pytest.mark.parametrize("edition", EDITIONS)
def test_sell_every_building_of_a_group_at_once(edition):
    """us-classic-rules.txt: "All houses on one color-group may be sold at once"; uk-2008: "You must sell all
    buildings on a color group to the Bank before you can mortgage one of its sites" — one action, each step a
    legal sale, one log entry; the bank gets back every house and hotel and pays half of each."""
    g = hotel_game(edition)
    g.push({"op": "build", "player": "Ann", "space": 37})
    before = g.cash["Ann"]
    move = g.push({"op": "sell_building", "player": "Ann", "space": 37, "all": True})
    assert not any(g.level(p) for p in DARK_BLUE)
    assert g.bank_houses == 32 and g.bank_hotels == 12
    assert g.cash["Ann"] - before == move.info["proceeds"] == 2 * 5 * 100
    assert len([e for e in move.effects if isinstance(e, Pay)]) == 1 and len(move.parts) == 1
    if edition == "classic-us":
        assert move.text == "Ann sells every building on the Dark Blue group (Park Place, Boardwalk) to the bank for $1,000"
    g.push({"op": "mortgage", "player": "Ann", "space": 37})
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": 39, "all": True})
    assert e.value.rule == "sell-nothing"


@pytest.mark.parametrize("edition,refused", [("classic-us", False), ("uk", True), ("ru", False), ("kyiv", True)])
def test_selling_a_whole_group_follows_the_hotel_rule(edition, refused):
    """With two houses in the bank: a US hotel goes back as five houses and an RU hotel is sold whole with its
    houses, so the whole group can go; a UK/Kyiv hotel must be "exchanged for 4 houses" first, which the bank
    cannot do — the whole sale is refused with that step's reason, and nothing changes."""
    g = hotel_game(edition)
    exhaust_houses(g, 2)
    before = g.to_json()
    cmd = {"op": "sell_building", "player": "Ann", "space": 39, "all": True}
    if refused:
        with pytest.raises(Refused) as e:
            g.push(cmd)
        assert e.value.rule == "hotel-sale-stock" and g.to_json() == before
    else:
        g.push(cmd)
        assert not any(g.level(p) for p in DARK_BLUE) and g.bank_houses == 2 + 4


def test_sell_all_refusals():
    g = hotel_game("classic-us")
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": 39, "all": True, "houses": 2})
    assert e.value.rule == "input"
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Bob", "space": 39, "all": True})
    assert e.value.rule == "sell-owner"
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": 39, "all": "yes"})
    assert e.value.rule == "input"


def two_builders(edition):
    """Ann (dark blues) and Bob (light blues) may both build."""
    g = full_group(edition)
    own(g, "Bob", 6, 8, 9)
    top_up(g, "Bob", 5000)
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_shortage_auction_without_a_shortage(edition):
    """us-classic-rules.txt "Building Shortages": "If there are a limited number of houses and hotels available
    and two or more players wish to buy more than the Bank has, the houses or hotels must be sold at auction";
    uk-2008 "Building shortage?" and ua-kyiv "Бракує споруд?" alike. With 31 houses in the bank and two players
    who could take 8 + 12 = 20 at most, there is no shortage: the auction is refused, saying why."""
    g = two_builders(edition)
    g.push({"op": "build", "player": "Ann", "space": 39})
    assert g.bank_houses == 31
    bid = g.edition.spaces[37].house_cost
    with pytest.raises(Refused) as e:
        g.push({"op": "building_auction", "player": "Ann", "space": 37, "bid": bid})
    assert e.value.rule == "building-auction-shortage"
    if edition == "classic-us":
        assert str(e.value) == ("No shortage of houses: the bank has 31 and the players who may build one now (Ann, Bob) "
                                "could take 19 in all; buy at the printed price")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_shortage_needs_two_players_who_may_build(edition):
    """"two or more players wish to buy": with one house left and only Ann able to build (Bob's group has a
    mortgage), she buys it at the printed price; once Bob may build too, the house goes to auction."""
    g = two_builders(edition)
    g.push({"op": "mortgage", "player": "Bob", "space": 6})
    lots = GREEN + ORANGE + [11, 13, 14]
    own(g, "Cid", *lots)
    top_up(g, "Cid", 50_000)
    for _round in range(4):
        for pos in lots:
            if g.bank_houses > 1:
                g.push({"op": "build", "player": "Cid", "space": pos})
    drain(g, "Cid", 0)  # Cid could build more, but has no cash to bid with
    bid = g.edition.spaces[37].house_cost
    with pytest.raises(Refused) as e:
        g.push({"op": "building_auction", "player": "Ann", "space": 37, "bid": bid})
    assert e.value.rule == "building-auction-shortage"
    if edition == "classic-us":
        assert "only Ann may" in str(e.value)
    g.push({"op": "unmortgage", "player": "Bob", "space": 6})
    g.push({"op": "building_auction", "player": "Ann", "space": 37, "bid": bid})
    assert g.lots[37].houses == 1 and g.bank_houses == 0


def test_whether_any_shortage_auction_can_be_held_now_is_known_before_the_bidder_and_the_lot():
    """The console's ``o`` says at once when no shortage auction can be held, whoever would bid on whichever lot
    (it asked for both first); and "nobody may" where nobody may build (it said "only  may")."""
    from banker.rules.building import no_shortage, no_shortage_now

    g = game()
    refusal = no_shortage_now(g)
    assert refusal is not None and refusal.rule == "building-auction-shortage"
    assert str(refusal) == ("No shortage auction now: it is held when two or more players who may build want more than "
                            "the bank has (32 houses, 12 hotels); buy at the printed price")
    assert str(no_shortage(g, "house")) == ("No shortage auction: it is for two or more players who may build a house "
                                            "now, and nobody may")
    g = full_group("classic-us")
    assert no_shortage_now(g) is not None  # one builder, who could take 8 of 32
    exhaust_houses(g, 1)
    assert no_shortage_now(g) is None  # the last house, and Ann and Bob both may build
    g.push({"op": "building_auction", "player": "Ann", "space": 37, "bid": g.edition.spaces[37].house_cost})


def test_a_shortage_of_hotels():
    """The same for hotels: two players with four houses on every lot, and the bank's last hotel."""
    g = two_builders("classic-us")
    for _ in range(4):
        for pos in DARK_BLUE + [6, 8, 9]:
            g.push({"op": "build", "player": "Ann" if pos in DARK_BLUE else "Bob", "space": pos})
    with pytest.raises(Refused) as e:
        g.push({"op": "building_auction", "player": "Ann", "space": 37, "bid": 10})
    assert str(e.value).startswith("No shortage of hotels: the bank has 12 and the players who may build one now "
                                   "(Ann, Bob) could take 5 in all")
    own(g, "Cid", 1, 3, 11, 13, 14, 16, 18, 19, 21, 23, 24)
    top_up(g, "Cid", 50_000)
    for lots in ([1, 3], [11, 13, 14], [16, 18, 19], [21, 23, 24]):
        for _ in range(5):
            for pos in lots:
                if g.bank_hotels > 1 or g.lots[pos].houses < 4:
                    g.push({"op": "build", "player": "Cid", "space": pos})
    assert g.bank_hotels == 1
    g.push({"op": "building_auction", "player": "Ann", "space": 37, "bid": 10})
    assert g.lots[37].hotel and g.bank_hotels == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_houses_on_a_sale_without_a_hotel_is_refused_not_ignored(edition):
    """docs/commands.md gives `houses` for a hotel's sale only; on a lot with houses alone it was dropped without a
    word (a typo for another lot, or a sale of two meant as one) and one house sold. It is refused, nothing sold."""
    g = game(edition)
    own(g, "Ann", *BROWN)
    top_up(g, "Ann", 500)
    g.push({"op": "build", "player": "Ann", "space": BROWN[0]})
    before = g.cash["Ann"]
    with pytest.raises(Refused) as e:
        g.push({"op": "sell_building", "player": "Ann", "space": BROWN[0], "houses": 2})
    assert "has no hotel" in str(e.value) and g.cash["Ann"] == before and g.lots[BROWN[0]].houses == 1
    g.push({"op": "sell_building", "player": "Ann", "space": BROWN[0]})
    assert g.lots[BROWN[0]].houses == 0
