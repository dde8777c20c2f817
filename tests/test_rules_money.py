"""Salary, buying, auctions, rent, taxes, the jail fine and transfers.

Each test names the rule book passage it pins (files in shared/rules/).
"""

from __future__ import annotations

import re

import pytest

from banker.rules import Refused, ops
from banker.rules.effects import Pay

from .rules_helpers import BROWN, DARK_BLUE, EDITIONS, RAILROADS, UTILITIES, drain, game, own, top_up

# ---------------------------------------------------------------- salary


@pytest.mark.parametrize("edition", EDITIONS)
def test_salary_for_passing_go(edition):
    """us-classic-rules.txt "Go": "the Banker pays him $200 salary"; README: "salary 200 for
    passing GO" common to all editions."""
    g = game(edition)
    move = g.push({"op": "salary", "player": "Ann"})
    assert g.cash["Ann"] == 1700
    assert move.effects == [Pay(src="bank", dst="Ann", amount=200, why="salary")]


def test_landing_on_go_bonus_is_a_house_rule_off_by_default():
    """README: house rules are explicit and off by default (e.g. salary 400 for landing on GO)."""
    g = game()
    g.push({"op": "salary", "player": "Ann", "landed": True})
    assert g.cash["Ann"] == 1700
    g = game(go_landing_bonus=True)
    g.push({"op": "salary", "player": "Ann", "landed": True})
    assert g.cash["Ann"] == 1900
    g.push({"op": "salary", "player": "Ann"})
    assert g.cash["Ann"] == 2100


@pytest.mark.parametrize("edition,variant,cash", [
    ("classic-us", "classic", 1500), ("uk", "classic", 1500), ("uk", "speed-die", 2500),
    ("ru", "classic", 1500), ("kyiv", "classic", 1500)])
def test_starting_cash(edition, variant, cash):
    """README table "starting cash": 1500 everywhere, +1000 with the Speed Die
    (uk-2008-speed-die-rules.md, "each player takes an extra $1000")."""
    g = game(edition, variant)
    assert all(c == cash for c in g.cash.values())
    assert g.money_total() == 0


def test_variant_must_be_in_the_rule_book():
    """The Kyiv book describes no short game; the engine refuses to invent one."""
    with pytest.raises(Refused, match="choose one of: classic"):
        game("kyiv", "short")


# ---------------------------------------------------------------- buying and auctions


@pytest.mark.parametrize("edition", EDITIONS)
def test_buy_at_printed_price(edition):
    """us-classic-rules.txt "Buying Property": "he may buy that property from the Bank at its printed price"."""
    g = game(edition)
    g.push({"op": "buy", "player": "Ann", "space": 39})
    assert g.cash["Ann"] == 1100
    assert g.lots[39].owner == "Ann"


def test_buy_refusals():
    g = game()
    own(g, "Ann", 39)
    with pytest.raises(Refused, match="already belongs to Ann") as e:
        g.push({"op": "buy", "player": "Bob", "space": 39})
    assert e.value.rule == "owned"
    with pytest.raises(Refused, match="not a property"):
        g.push({"op": "buy", "player": "Bob", "space": 4})
    drain(g, "Bob", 100)
    with pytest.raises(Refused, match="Bob has \\$100, less than the \\$350 for Park Place"):
        g.push({"op": "buy", "player": "Bob", "space": 37})
    assert g.lots[37].owner is None and g.cash["Bob"] == 100


@pytest.mark.parametrize("edition", EDITIONS)
def test_auction_to_highest_bidder_in_cash(edition):
    """us-classic-rules.txt: "it is sold at auction by the Banker to the highest bidder. The buyer pays
    to the Bank the amount of the bid in cash"; uk-2008: "Auction bids can only be made in cash. Any
    player can start the bidding for as little as $1"."""
    g = game(edition)
    move = g.push({"op": "auction", "space": 1, "winner": "Bob", "bid": 1})
    assert g.lots[1].owner == "Bob" and g.cash["Bob"] == 1499
    assert move.info == {"bid": 1, "price": 60}
    with pytest.raises(Refused, match="at least 1"):
        g.push({"op": "auction", "space": 3, "winner": "Bob", "bid": 0})
    with pytest.raises(Refused, match="not enough cash|could have at most"):  # Cid has nothing to sell or mortgage
        g.push({"op": "auction", "space": 3, "winner": "Cid", "bid": 1501})


@pytest.mark.parametrize("edition", ["classic-us", "ru"])
def test_a_winning_bid_above_the_cash_is_owed_until_the_winner_raises_it(edition):
    """Found playing: the auction took Bob's bid of 160 with 70 in cash ("must raise 90 first"), as it takes any bid
    his sales and mortgages could cover, and Enter then sold nothing: the sale was refused and every bid was gone.
    us-classic-rules.txt: "The buyer pays to the Bank the amount of the bid in cash"; where bids are not in cash
    only, the winner owes the bid to the bank and raises the cash as for any debt (docs/rules.md). Above what he
    could raise: refused, nothing changes."""
    g = game(edition)
    own(g, "Bob", 5)  # a railroad, mortgage value 100
    drain(g, "Bob", 70)
    with pytest.raises(Refused, match=re.escape(f"at most {g.edition.fmt(170)} ")) as refused:
        g.push({"op": "auction", "space": 39, "winner": "Bob", "bid": 171})
    assert refused.value.rule == "cash"
    assert g.lots[39].owner is None and g.cash["Bob"] == 70 and not g.debts.get("Bob")
    move = g.push({"op": "auction", "space": 39, "winner": "Bob", "bid": 160})
    assert g.lots[39].owner == "Bob" and g.cash["Bob"] == 70
    assert [(c.creditor, c.amount, c.why) for c in g.debts["Bob"]] == [("bank", 160, "auction")]
    assert move.parts[-1]["key"] == "log.debt-open"
    with pytest.raises(Refused, match="owes"):  # nothing else until it is paid, as for any debt
        g.push({"op": "auction", "space": 37, "winner": "Bob", "bid": 1})
    g.push({"op": "mortgage", "player": "Bob", "space": 5})
    assert not g.debts.get("Bob") and g.cash["Bob"] == 10
    assert isinstance(g.pop().command, ops.Mortgage) and g.pop() is move  # undone whole: the deed back with the bank
    assert g.lots[39].owner is None and g.cash["Bob"] == 70 and not g.debts.get("Bob")


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
def test_where_bids_are_in_cash_only_a_bid_above_the_cash_is_refused(edition):
    """uk-2008-speed-die-rules.md: "Auction bids can only be made in cash"."""
    g = game(edition)
    own(g, "Bob", 5)
    drain(g, "Bob", 70)
    with pytest.raises(Refused, match="not enough cash"):
        g.push({"op": "auction", "space": 39, "winner": "Bob", "bid": 71})
    assert g.lots[39].owner is None and not g.debts.get("Bob")
    g.push({"op": "auction", "space": 39, "winner": "Bob", "bid": 70})
    assert g.lots[39].owner == "Bob" and g.cash["Bob"] == 0


# ---------------------------------------------------------------- rent on streets


def test_rent_bare_lot():
    """us-classic-rules.txt "Paying Rent": "the owner collects rent ... in accordance with the list
    printed on the Title Deed"."""
    g = game()
    own(g, "Ann", 39)
    g.push({"op": "rent", "payer": "Bob", "space": 39})
    assert (g.cash["Bob"], g.cash["Ann"]) == (1450, 1150)


@pytest.mark.parametrize("edition", EDITIONS)
def test_rent_doubled_on_full_group(edition):
    """us-classic-rules.txt: "the owner may then charge double rent for unimproved properties in that
    color-group"; uk-2008: "This is doubled if the owner owns all sites in its color group"."""
    g = game(edition)
    own(g, "Ann", *DARK_BLUE)
    move = g.push({"op": "rent", "payer": "Bob", "space": 39})
    assert move.info["amount"] == 100


@pytest.mark.parametrize("edition,doubled", [("classic-us", True), ("uk", False), ("ru", False), ("kyiv", False)])
def test_full_group_doubling_with_one_lot_mortgaged(edition, doubled):
    """README table "double rent on unimproved lots of a full colour group": US: "This rule applies to
    unmortgaged MONOPOLY properties even if another property in that color-group is mortgaged"
    (us-classic-rules.txt); UK: "doubled if the owner owns all sites in its color group and none of
    them are mortgaged" (uk-2008-speed-die-rules.md); RU: "if the owner of an entire color group has
    at least one parcel ... mortgaged, he cannot charge you double rent"; Kyiv: "жодне зі знаменитих
    місць не перебуває у заставі"."""
    g = game(edition)
    own(g, "Ann", *DARK_BLUE)
    g.push({"op": "mortgage", "player": "Ann", "space": 37})
    move = g.push({"op": "rent", "payer": "Bob", "space": 39})
    assert move.info["amount"] == (100 if doubled else 50)


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_rent_on_mortgaged_deed(edition):
    """us-classic-rules.txt: "If the property is mortgaged, no rent can be collected"."""
    g = game(edition)
    own(g, "Ann", 39)
    g.push({"op": "mortgage", "player": "Ann", "space": 39})
    with pytest.raises(Refused) as e:
        g.push({"op": "rent", "payer": "Bob", "space": 39})
    assert e.value.rule == "rent-mortgaged"
    assert g.cash["Bob"] == 1500


def test_rent_with_houses_and_hotel():
    """us-classic-rules.txt "Houses": "rents are much higher" — as printed on the deed:
    Boardwalk 200/600/1400/1700, hotel 2000."""
    g = game()
    own(g, "Ann", *DARK_BLUE)
    top_up(g, "Ann", 5000)
    expected = {1: 200, 2: 600, 3: 1400, 4: 1700}
    for n in range(1, 5):
        g.push({"op": "build", "player": "Ann", "space": 37})
        g.push({"op": "build", "player": "Ann", "space": 39})
        top_up(g, "Bob", 3000)
        assert g.push({"op": "rent", "payer": "Bob", "space": 39}).info["amount"] == expected[n]
    g.push({"op": "build", "player": "Ann", "space": 39})
    assert g.push({"op": "rent", "payer": "Bob", "space": 39}).info["amount"] == 2000


def test_rent_refusals():
    g = game()
    with pytest.raises(Refused, match="not owned"):
        g.push({"op": "rent", "payer": "Bob", "space": 39})
    own(g, "Ann", 39)
    with pytest.raises(Refused, match="Ann owns Boardwalk"):
        g.push({"op": "rent", "payer": "Ann", "space": 39})
    with pytest.raises(Refused, match='Unknown player "Zed"'):
        g.push({"op": "rent", "payer": "Zed", "space": 39})
    with pytest.raises(Refused, match="0-39"):
        g.push({"op": "rent", "payer": "Bob", "space": 40})


# ---------------------------------------------------------------- railroads and utilities


@pytest.mark.parametrize("edition", EDITIONS)
def test_railroad_rent_by_count(edition):
    """README, common to all: "railroads/stations rent 25/50/100/200 by how many the owner holds";
    uk-2008 "Railroads: 1 2 3 4 / Rent: $25 $50 $100 $200"."""
    g = game(edition)
    for n, rent in enumerate((25, 50, 100, 200), start=1):
        own(g, "Ann", RAILROADS[n - 1])
        assert g.push({"op": "rent", "payer": "Bob", "space": 5}).info["amount"] == rent


def test_nearest_railroad_card_pays_double():
    """us-classic-rules Chance: "Advance token to the nearest Railroad and pay owner twice the rental"."""
    g = game()
    own(g, "Ann", 5, 15)
    move = g.push({"op": "rent", "payer": "Bob", "space": 15, "card": "nearest-railroad"})
    assert move.info["amount"] == 100
    with pytest.raises(Refused, match=r"for the nearest railroad: Boardwalk \(street\) is not one"):
        own(g, "Ann", 39)
        g.push({"op": "rent", "payer": "Bob", "space": 39, "card": "nearest-railroad"})


@pytest.mark.parametrize("edition", ["uk", "ru", "kyiv"])
def test_no_card_rent_where_the_editions_cards_have_none(edition):
    """The "nearest Railroad ... twice the rental" and "nearest Utility ... ten times" rents are the US Chance
    cards' (classic-us.toml); the UK, RU and Kyiv decks have no such card, and their books say "Roll the dice and
    multiply the result by 4" (uk-2008-speed-die-rules.md): the card's rent is refused there, and the console
    does not ask whether a card sent the token (``ask="nearest-card"``)."""
    g = game(edition)
    own(g, "Ann", 5, 12)
    for cmd in ({"op": "rent", "payer": "Bob", "space": 5, "card": "nearest-railroad"},
                {"op": "rent", "payer": "Bob", "space": 12, "dice": 12, "card": "nearest-utility"}):
        with pytest.raises(Refused, match="No card of this edition sends a token to the nearest") as e:
            g.push(cmd)
        assert e.value.rule == "rent-card"
    assert g.push({"op": "rent", "payer": "Bob", "space": 5}).info["amount"] == 25
    assert g.push({"op": "rent", "payer": "Bob", "space": 12, "dice": 12}).info["amount"] == 48
    card = next(f for f in ops.spec("rent").fields if f.name == "card")
    assert not ops.asked(g, {"op": "rent", "payer": "Bob", "space": 5}, card)
    assert not ops.asked(g, {"op": "rent", "payer": "Bob", "space": 12}, card)
    us = game()
    assert ops.asked(us, {"op": "rent", "payer": "Bob", "space": 5}, card)
    assert ops.asked(us, {"op": "rent", "payer": "Bob", "space": 12}, card)
    assert not ops.asked(us, {"op": "rent", "payer": "Bob", "space": 39}, card)


@pytest.mark.parametrize("edition", EDITIONS)
def test_utility_rent_from_the_dice(edition):
    """README, common to all: "utilities 4x or 10x the dice"; uk-2008: "Roll the dice and multiply the
    result by 4 ... If the owning player owns both utilities, multiply the result by 10!"."""
    g = game(edition)
    own(g, "Ann", 12)
    assert g.push({"op": "rent", "payer": "Bob", "space": 12, "dice": 7}).info["amount"] == 28
    own(g, "Ann", 28)
    assert g.push({"op": "rent", "payer": "Bob", "space": 12, "dice": 7}).info["amount"] == 70


def test_utility_needs_dice_and_card_pays_ten_times_a_fresh_roll():
    """us-classic-rules Chance: "Advance token to nearest Utility ... throw dice and pay owner a total
    ten times the amount thrown" — even when the owner holds only one utility."""
    g = game()
    own(g, "Ann", 28)
    with pytest.raises(Refused, match="worked out from the dice") as e:
        g.push({"op": "rent", "payer": "Bob", "space": 28})
    assert e.value.rule == "rent-dice"
    with pytest.raises(Refused, match="2-12"):
        g.push({"op": "rent", "payer": "Bob", "space": 28, "dice": 13})
    move = g.push({"op": "rent", "payer": "Bob", "space": 28, "dice": 5, "card": "nearest-utility"})
    assert move.info["amount"] == 50


def test_speed_die_utility_roll_counts_three_dice():
    """uk-2008 Speed Die: "Roll all 3 dice to determine the rent for a utility. The Bus and Mr. Monopoly
    count as zero" — so a total up to 15."""
    g = game("uk", "speed-die")
    own(g, "Ann", *UTILITIES)
    assert g.push({"op": "rent", "payer": "Bob", "space": 12, "dice": 15}).info["amount"] == 150


# ---------------------------------------------------------------- taxes


def test_income_tax_choice_flat_or_percent_of_total_worth():
    """us-classic-rules.txt "Income Tax": "he may estimate his tax at $200 and pay the Bank, or he may
    pay 10% of his total worth ... all his cash on hand, printed prices of mortgaged and unmortgaged
    properties and cost price of all buildings he owns"."""
    g = game()
    own(g, "Ann", *DARK_BLUE, 3)  # 750 + 60 printed
    g.push({"op": "build", "player": "Ann", "space": 39})  # a 200 house
    g.push({"op": "mortgage", "player": "Ann", "space": 3})  # +30 cash; Baltic still counts at 60
    worth = g.cash["Ann"] + 350 + 400 + 60 + 200
    move = g.push({"op": "tax", "player": "Ann", "space": 4, "choice": "percent"})
    assert move.info["worth"] == worth
    assert move.info["amount"] == (worth * 10 + 50) // 100
    assert move.info["other_amount"] == 200


def test_income_tax_choice_is_made_before_the_worth_and_recorded():
    """us-classic-rules.txt: "The player must decide which option he will take before he adds up his
    total worth" — the command carries the choice; without it the engine refuses and adds up nothing."""
    g = game()
    with pytest.raises(Refused, match="before the worth is added up") as e:
        g.push({"op": "tax", "player": "Ann", "space": 4})
    assert e.value.rule == "tax-choice"
    move = g.push({"op": "tax", "player": "Ann", "space": 4, "choice": "flat"})
    assert g.cash["Ann"] == 1300
    assert move.info["choice"] == "flat" and move.info["other_amount"] == 150  # 10% of 1500
    assert "would have cost $150" in move.text


@pytest.mark.parametrize("edition,first,second", [("classic-us", None, 75), ("uk", 200, 100), ("ru", 200, 100),
                                                  ("kyiv", 200, 100)])
def test_tax_amounts_as_shown(edition, first, second):
    """README table: income tax "pay the amount shown (200)" in UK/RU/Kyiv; second tax: "Luxury Tax 75",
    "Super Tax 100", "pay the amount shown", "Marshrutka"."""
    g = game(edition)
    if first:
        g.push({"op": "tax", "player": "Ann", "space": 4})
        assert g.cash["Ann"] == 1500 - first
        with pytest.raises(Refused, match="offers no choice"):
            g.push({"op": "tax", "player": "Ann", "space": 4, "choice": "percent"})
    g.push({"op": "tax", "player": "Bob", "space": 38})
    assert g.cash["Bob"] == 1500 - second


def test_tax_percent_rounds_half_up():
    """README "Rounding": any 10% is rounded to a whole unit, halves up."""
    g = game()
    drain(g, "Ann", 1495)
    assert g.push({"op": "tax", "player": "Ann", "space": 4, "choice": "percent"}).info["amount"] == 150
    drain(g, "Bob", 1494)
    assert g.push({"op": "tax", "player": "Bob", "space": 4, "choice": "percent"}).info["amount"] == 149


# ---------------------------------------------------------------- jail fine and transfers


@pytest.mark.parametrize("edition", EDITIONS)
def test_jail_fine_is_50(edition):
    """README, common to all: "jail fine 50"; us-classic-rules.txt "paying a fine of $50"."""
    g = game(edition)
    g.push({"op": "jail_fine", "player": "Cid"})
    assert g.cash["Cid"] == 1450


def test_transfer_with_memo_and_bad_amounts():
    g = game()
    move = g.push({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 30, "memo": "sold a GOOJF card"})
    assert (g.cash["Ann"], g.cash["Bob"]) == (1470, 1530)
    assert "sold a GOOJF card" in move.text
    for amount in (-5, 0, 2.5, "10", True):
        with pytest.raises(Refused) as e:
            g.push({"op": "transfer", "from": "Ann", "to": "Bob", "amount": amount})
        assert e.value.rule == "input"
    with pytest.raises(Refused, match="not enough cash"):
        g.push({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5000})


def test_free_parking_pot_is_a_recorded_house_rule():
    """uk-2008 "PLAY IT RIGHT!": "All tax and penalty fees are payable to the Bank and should not be
    stored under the Free Parking space" — unless the house rule is on, and then it is recorded."""
    g = game()
    with pytest.raises(Refused, match="house rule"):
        g.push({"op": "free_parking", "player": "Ann"})
    g = game(free_parking_pot=True)
    assert g.to_json()["house_rules"]["free_parking_pot"] is True
    g.push({"op": "tax", "player": "Bob", "space": 38})
    g.push({"op": "jail_fine", "player": "Cid"})
    own(g, "Bob", 1)  # buying goes to the bank, not the pot
    assert g.pot == 125
    g.push({"op": "free_parking", "player": "Ann"})
    assert g.cash["Ann"] == 1625 and g.pot == 0
    assert g.money_total() == 0


def test_unknown_op_and_bad_input():
    g = game()
    with pytest.raises(Refused, match='Unknown op "fly"'):
        g.push({"op": "fly"})
    with pytest.raises(Refused, match="missing \"player\""):
        g.push({"op": "salary"})
    with pytest.raises(Refused, match="JSON object"):
        g.push(["salary"])
    assert g.history == []


def test_bank_never_runs_out_and_players_never_go_below_zero():
    """us-classic-rules.txt: "The Bank never 'goes broke'"."""
    g = game()
    for _ in range(200):
        g.push({"op": "salary", "player": "Ann"})
    assert g.cash["Ann"] == 1500 + 200 * 200
    assert g.money_total() == 0
    own(g, "Ann", *BROWN)


def test_want_of_cash_for_buildings_is_said_in_good_english():
    """The rules probe: "the buildings on the Dark Blue group costs $800"; the sentence names the amount first now,
    whatever the thing (one deed, a bid, the buildings of a group)."""
    from banker.i18n import Translator
    from banker.rules.messages import Msg

    said = Translator("en").msg(Msg("cash", player="Ann", cash="$10", amount="$800",
                                    what=Msg("what.buildings", group="Dark Blue")))
    assert said.startswith("Ann has $10, less than the $800 for the buildings on the Dark Blue group"), said
    assert "costs" not in said
