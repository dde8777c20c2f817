"""Houses, hotels, the building stock, the shortage auction, mortgages."""

from __future__ import annotations

import pytest

from banker.rules import Refused

from .rules_helpers import BROWN, DARK_BLUE, EDITIONS, GREEN, ORANGE, drain, game, own, top_up


def full_group(edition="classic-us", variant="classic", cash=10_000):
    g = game(edition, variant)
    own(g, "Ann", *DARK_BLUE)
    top_up(g, "Ann", cash)
    return g


# ---------------------------------------------------------------- building


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


def exhaust_houses(g, keep: int):
    """Let Bob build evenly on three groups until the bank keeps only ``keep`` houses."""
    lots = [6, 8, 9] + GREEN + ORANGE  # 36 houses' worth, more than the bank has
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
