"""Cards, trades, debts, bankruptcy, undo, dealing and the end of the game."""

from __future__ import annotations

import pytest

from banker.rules import Refused
from banker.rules.bankruptcy import preview
from banker.rules.effects import Claim, Pay, invert
from banker.rules.legal import deal_plan, mr_monopoly_target, next_unowned_after, raise_cash_options
from banker.rules.ops import Rent
from banker.rules.raising import max_raisable

from .rules_helpers import BROWN, DARK_BLUE, EDITIONS, drain, game, own, top_up

# ---------------------------------------------------------------- cards


def cards_of(g, kind, deck=None):
    return [c for c in g.edition.cards.values() if c.kind == kind and (deck is None or c.deck == deck)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_money_card_moves_the_printed_amount(edition):
    """us-classic-rules.txt "Chance & Community Chest": the player "follows the instructions" — every card
    that collects or pays moves exactly its printed amount, to or from the bank."""
    g = game(edition)
    for card in cards_of(g, "collect") + cards_of(g, "pay"):
        before = g.cash["Ann"]
        g.push({"op": "card", "player": "Ann", "card": card.id})
        sign = 1 if card.kind == "collect" else -1
        assert g.cash["Ann"] - before == sign * card.effect["amount"], card.id
    assert g.money_total() == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_repairs_counted_from_the_players_buildings(edition):
    """us-classic-rules Chance "Make general repairs on all your property: for each house pay $25, for each
    hotel $100" — counted from the player's own buildings."""
    g = game(edition)
    own(g, "Ann", *DARK_BLUE, *BROWN)
    top_up(g, "Ann", 10_000)
    for _ in range(4):
        for pos in DARK_BLUE:
            g.push({"op": "build", "player": "Ann", "space": pos})
    g.push({"op": "build", "player": "Ann", "space": 39})  # hotel: 4 houses on 37, a hotel on 39
    g.push({"op": "build", "player": "Ann", "space": 1})  # a house on the browns
    for card in cards_of(g, "repairs"):
        before = g.cash["Ann"]
        g.push({"op": "card", "player": "Ann", "card": card.id})
        assert before - g.cash["Ann"] == 5 * card.effect["house"] + card.effect["hotel"], card.id


@pytest.mark.parametrize("edition", EDITIONS)
def test_pay_each_and_collect_from_each_player(edition):
    """us-classic-rules Chance "Pay each player $50"; Community Chest "Collect $50 from every player"."""
    g = game(edition, players=("Ann", "Bob", "Cid", "Dee"))
    for card in cards_of(g, "pay_each_player"):
        amount = card.effect["amount"]
        g.push({"op": "card", "player": "Ann", "card": card.id})
        assert g.cash["Ann"] == 1500 - 3 * amount and g.cash["Bob"] == 1500 + amount
        g.pop()
    for card in cards_of(g, "collect_from_each_player"):
        amount = card.effect["amount"]
        g.push({"op": "card", "player": "Ann", "card": card.id})
        assert g.cash["Ann"] == 1500 + 3 * amount and g.cash["Dee"] == 1500 - amount
        g.pop()
    assert cards_of(g, "pay_each_player") or cards_of(g, "collect_from_each_player")


def test_advance_cards_pay_salary_when_passing_go():
    """us-classic-rules.txt "Go": "Each time a player's token lands on or passes over GO, whether by throw of
    the dice or by drawing a card, the Banker pays him $200 salary"."""
    g = game()
    g.push({"op": "card", "player": "Ann", "card": "ch-go"})
    assert g.cash["Ann"] == 1700
    g.push({"op": "card", "player": "Ann", "card": "ch-illinois"})
    assert g.cash["Ann"] == 1700
    g.push({"op": "card", "player": "Ann", "card": "ch-illinois", "passed_go": True})
    assert g.cash["Ann"] == 1900


@pytest.mark.parametrize(("edition", "card"), [("classic-us", "ch-boardwalk"), ("uk", "ch-mayfair"), ("ru", "ch-arbat"),
                                               ("kyiv", "ch-khreshchatyk")])
def test_an_advance_to_the_last_space_before_go_never_passes_go(edition, card):
    """Found by the RU/UK console probe: "Отправляйтесь на улицу Арбат" with "passed GO" paid 200 т.р., and the card
    list promised a salary "если пройдёте поле «Вперёд»". Arbat is square 39, the last before GO: a token moving
    forward to it never passes GO (ru-2004-rules.md: "Если в процессе движения Вы пройдете через поле “ВПЕРЕД”,
    получите 200 тыс. рублей").
    The salary is refused, the card's words and the console's questions do not offer it."""
    from banker.rules import ops
    from banker.rules.cards import describe_effect

    g = game(edition)
    before = g.to_json()
    with pytest.raises(Refused) as e:
        g.push({"op": "card", "player": "Ann", "card": card, "passed_go": True})
    assert e.value.rule == "card-go" and g.to_json() == before
    g.push({"op": "card", "player": "Ann", "card": card})
    assert g.cash["Ann"] == g.edition.start_cash  # no salary
    assert "GO" not in str(describe_effect(g, g.edition.cards[card]))
    flag = next(f for f in ops.spec("card").fields if f.key == "passed_go")
    assert not ops.asked(g, {"op": "card", "player": "Ann", "card": card}, flag)
    assert ops.asked(g, {"op": "card", "player": "Ann", "card": next(
        c.id for c in g.edition.cards.values() if c.kind == "advance" and 0 < c.effect["to"] < 39)}, flag)
    to_go = next(c.id for c in g.edition.cards.values() if c.kind == "advance" and c.effect["to"] == 0)
    g.push({"op": "card", "player": "Ann", "card": to_go, "passed_go": True})  # as older logs have it: one salary
    assert g.cash["Ann"] == g.edition.start_cash + g.edition.salary


@pytest.mark.parametrize("edition", EDITIONS)
def test_get_out_of_jail_free_kept_used_and_sold(edition):
    """us-classic-rules.txt: "The 'Get Out of Jail Free' card is held until used and then returned to the
    bottom of the deck. If the player who draws it does not wish to use it he may sell it"."""
    g = game(edition)
    card = cards_of(g, "jail_card")[0]
    g.push({"op": "card", "player": "Ann", "card": card.id})
    assert g.jail_cards_of("Ann") == [card.id]
    with pytest.raises(Refused) as e:
        g.push({"op": "card", "player": "Bob", "card": card.id})
    assert e.value.rule == "jail-card-held"
    g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": 1}, "get": {"cash": 40}})
    assert g.jail_cards_of("Bob") == [card.id] and g.cash["Ann"] == 1540
    g.push({"op": "jail_card", "player": "Bob", "use": True})
    assert g.jail_cards[card.id] is None
    with pytest.raises(Refused) as e:
        g.push({"op": "jail_card", "player": "Bob", "use": True})
    assert e.value.rule == "jail-card-none"


@pytest.mark.parametrize("edition,card", [("uk", "cc-fine-or-chance"), ("kyiv", "cc-fare-fine")])
def test_pay_a_fine_or_take_a_chance(edition, card):
    """The UK Community Chest card "Pay a £10 fine or take a Chance" (its Kyiv counterpart, which takes its slot
    in the deck, likewise): both choices. The fine is paid to the bank; taking a Chance moves no money, and the
    Chance card drawn is recorded next. A card without the choice in the command is the fine (logs recorded
    before the choice existed)."""
    g = game(edition)
    assert g.edition.cards[card].choices == ("pay", "draw")
    move = g.push({"op": "card", "player": "Ann", "card": card, "choice": "pay"})
    assert g.cash["Ann"] == 1490 and move.info["choice"] == "pay"
    move = g.push({"op": "card", "player": "Ann", "card": card, "choice": "draw"})
    assert g.cash["Ann"] == 1490 and not [e for e in move.effects if isinstance(e, Pay)]
    deck = g.edition.decks["chance"]
    assert f"takes a {deck} card instead of paying {g.edition.fmt(10)}" in move.text
    g.push({"op": "card", "player": "Ann", "card": card})
    assert g.cash["Ann"] == 1480
    with pytest.raises(Refused) as e:
        g.push({"op": "card", "player": "Ann", "card": card, "choice": "chest"})
    assert e.value.rule == "input" and "pay, draw" in str(e.value)
    drain(g, "Ann", 5)
    g.push({"op": "card", "player": "Ann", "card": card, "choice": "pay"})
    assert g.debts["Ann"] == [Claim("bank", 10, "card")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_card_without_a_choice_takes_none(edition):
    """Only a card that prints a choice takes "choice"; the US and RU decks have no such card."""
    g = game(edition)
    chooser = [c.id for c in g.edition.cards.values() if c.choices]
    assert bool(chooser) == (edition in ("uk", "kyiv"))
    plain = cards_of(g, "pay")[0]
    with pytest.raises(Refused) as e:
        g.push({"op": "card", "player": "Ann", "card": plain.id, "choice": "pay"})
    assert e.value.rule == "input"


def both_jail_cards(edition="classic-us"):
    g = game(edition)
    for card in cards_of(g, "jail_card"):
        g.push({"op": "card", "player": "Ann", "card": card.id})
    assert len(g.jail_cards_of("Ann")) == 2
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_jail_cards_are_cards_not_a_count(edition):
    """uk-2008 "GET OUT OF JAIL FREE": "Put the card to the bottom of the appropriate pile"; a trade is "any
    combination of cash, other property or Get Out of Jail Free cards": which card changes hands is named by its
    deck (or id); a bare count is accepted when it leaves no doubt (old logs)."""
    g = both_jail_cards(edition)
    chance, chest = (cards_of(g, "jail_card", deck)[0].id for deck in ("chance", "chest"))
    with pytest.raises(Refused) as e:
        g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": 1}, "get": {"cash": 30}})
    assert e.value.rule == "jail-card-which"
    move = g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": ["chest"]}, "get": {"cash": 30}})
    assert g.jail_cards_of("Bob") == [chest] and g.jail_cards_of("Ann") == [chance]
    assert g.edition.decks["chest"] in move.text
    g.pop()
    g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": [chance]}})
    assert g.jail_cards_of("Bob") == [chance]
    g.pop()
    g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": 2}})  # both: no doubt
    assert sorted(g.jail_cards_of("Bob")) == sorted([chance, chest])
    g.push({"op": "trade", "from": "Bob", "to": "Ann", "give": {"jail_cards": ["chance", "chest"]}})
    for bad, rule in ((["chance", "chance"], "jail-card-none"), ([chance, "chance"], "jail-card-none"),
                      ([chance, chance], "input"), (["jail"], "input"),
                      ("chance", "input"), (3, "trade-jail-cards")):
        with pytest.raises(Refused) as e:
            g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": bad}})
        assert e.value.rule == rule, bad
    held = g.to_json()["players"]["Ann"]
    assert sorted(held["jail_card_decks"]) == ["chance", "chest"] and sorted(held["jail_card_ids"]) == sorted([chance, chest])


@pytest.mark.parametrize("edition", EDITIONS)
def test_using_a_jail_card_says_which_and_it_goes_back_to_its_own_deck(edition):
    """us-classic-rules.txt: the card "is held until used and then returned to the bottom of the deck" — its own
    deck: with both held, the command says which."""
    g = both_jail_cards(edition)
    chance = cards_of(g, "jail_card", "chance")[0].id
    with pytest.raises(Refused) as e:
        g.push({"op": "jail_card", "player": "Ann", "use": True})
    assert e.value.rule == "jail-card-which"
    move = g.push({"op": "jail_card", "player": "Ann", "use": True, "card": "chance"})
    assert g.jail_cards[chance] is None and move.info["card"] == chance
    assert g.edition.decks["chance"] in move.text
    g.push({"op": "jail_card", "player": "Ann", "use": True})  # one left: no doubt
    assert g.jail_cards_of("Ann") == []


def test_bankruptcy_names_the_jail_cards():
    """The log names each card that changes hands in a bankruptcy (to the creditor, or back to its deck)."""
    g = both_jail_cards()
    drain(g, "Ann", 0)
    g.push({"op": "jail_fine", "player": "Ann"})
    move = g.push({"op": "bankrupt", "player": "Ann"})
    assert ("the Community Chest Get Out of Jail Free card, the Chance Get Out of Jail Free card go back under their "
            "decks") in move.text


@pytest.mark.parametrize("edition,most", [("classic-us", 11), ("uk", 8), ("ru", 8), ("kyiv", 8)])
def test_how_many_players_the_box_allows(edition, most):
    """us-classic-rules.txt "Equipment": "11 MONOPOLY tokens"; uk-2008 "CONTENTS: Gameboard, 8 tokens"; ru-2004
    "8 золотых фишек-люкс"; ua-kyiv "ВМІСТ: ... 8 фішок" — one token a player, and at least two players."""
    names = [f"P{i}" for i in range(most + 1)]
    g = game(edition, players=names[:most])
    assert len(g.players) == most and g.edition.max_players == most
    for n in (1, most + 1):
        with pytest.raises(Refused) as e:
            game(edition, players=names[:n])
        assert e.value.rule == "players"
        if edition == "classic-us":
            assert str(e.value) == f"{g.edition.name} is for 2 to 11 players (one token each), not {n}"


def test_unknown_card():
    g = game()
    with pytest.raises(Refused, match="banker cards --edition classic-us"):
        g.push({"op": "card", "player": "Ann", "card": "nope"})


# ---------------------------------------------------------------- trades


def test_trade_cash_deeds_and_jail_cards():
    """us-classic-rules.txt "Selling Property": "Unimproved properties, railroads and utilities ... may be sold
    to any player as a private transaction for any amount"; uk-2008 "DO A DEAL": "any combination of
    cash, other property or Get Out of Jail Free cards"."""
    g = game()
    own(g, "Ann", 39, 5)
    own(g, "Bob", 37)
    g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [5], "cash": 100},
            "get": {"spaces": [37]}})
    assert g.lots[37].owner == "Ann" and g.lots[5].owner == "Bob"
    assert g.cash["Ann"] == 1500 - 600 - 100


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_trade_of_a_deed_whose_group_has_buildings(edition):
    """us-classic-rules.txt: "no MONOPOLY property can be sold to another player if buildings are standing on
    any properties of that color-group"."""
    g = game(edition)
    own(g, "Ann", *DARK_BLUE)
    g.push({"op": "build", "player": "Ann", "space": 39})
    with pytest.raises(Refused) as e:
        g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [37]}, "get": {"cash": 500}})
    assert e.value.rule == "trade-buildings"


@pytest.mark.parametrize("edition", EDITIONS)
def test_mortgaged_deed_received_costs_ten_percent_or_is_lifted(edition):
    """README, common to all: "a mortgaged deed sold or traded costs the receiver 10% at once unless it lifts
    the mortgage at once"; us-classic-rules.txt: "if you lift the mortgage later you must pay the Bank an
    additional 10% interest as well as the amount of the mortgage"."""
    g = game(edition)
    own(g, "Ann", 39, 37)
    g.push({"op": "mortgage", "player": "Ann", "space": 39})
    g.push({"op": "mortgage", "player": "Ann", "space": 37})
    g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [39, 37]}, "get": {"cash": 100},
            "lift": [37]})
    # Boardwalk (200): 20 interest now; Park Place (175): lifted at once for 175 + 18
    assert g.cash["Bob"] == 1500 - 100 - 20 - 193
    assert g.lots[39].mortgaged and not g.lots[37].mortgaged
    g.push({"op": "unmortgage", "player": "Bob", "space": 39})
    assert g.cash["Bob"] == 1500 - 100 - 20 - 193 - 220


def test_trade_refusals_change_nothing():
    g = game()
    own(g, "Ann", 39)
    before = g.to_json()
    bad = [
        ({"op": "trade", "from": "Ann", "to": "Ann", "give": {"cash": 1}}, "input"),
        ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [37]}}, "trade-owner"),
        ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"cash": 99_999}}, "cash"),
        ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": 1}}, "trade-jail-cards"),
        ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"space": [39]}}, "input"),
        ({"op": "trade", "from": "Ann", "to": "Bob"}, "input"),
        ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [39]}, "lift": [39]}, "trade-lift"),
    ]
    for cmd, rule in bad:
        with pytest.raises(Refused) as e:
            g.push(cmd)
        assert e.value.rule == rule, cmd
    assert g.to_json() == before
    with pytest.raises(Refused) as e:  # in the banker's words, not the script's keys ("from" and "to" must differ)
        g.push(bad[0][0])
    assert str(e.value) == "A trade needs two different players, but both sides are Ann"


# ---------------------------------------------------------------- debts


def indebted(edition="classic-us"):
    """Bob owes Ann 1400 rent on a hotel he cannot cover from 300 cash."""
    g = game(edition)
    own(g, "Ann", *DARK_BLUE)
    top_up(g, "Ann", 10_000)
    for _ in range(4):
        for pos in DARK_BLUE:
            g.push({"op": "build", "player": "Ann", "space": pos})
    g.push({"op": "build", "player": "Ann", "space": 39})  # hotel: rent 2000
    own(g, "Bob", *BROWN, 5)
    drain(g, "Bob", 300)
    g.push({"op": "rent", "payer": "Bob", "space": 39})
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_payment_beyond_cash_opens_a_debt_not_negative_cash(edition):
    """us-classic-rules.txt "Bankruptcy": "You are declared bankrupt if you owe more than you can pay" — until
    then the player owes the debt; cash never goes below zero (README: "players never go below zero")."""
    g = indebted(edition)
    assert g.cash["Bob"] == 300
    assert g.debts["Bob"] == [Claim("Ann", 2000, "rent")]
    debt = g.to_json()["players"]["Bob"]["debt"]
    assert debt["creditor"] == "Ann" and debt["amount"] == 2000


def test_debtor_may_raise_cash_and_the_debt_is_paid_when_covered():
    """uk-2008 "HELP! I'M IN DEBT!": "try to raise the money by selling buildings and/or mortgaging properties"."""
    g = game()
    own(g, "Ann", 39)
    own(g, "Bob", 5, 15, 25)
    drain(g, "Bob", 20)
    g.push({"op": "rent", "payer": "Bob", "space": 39})  # 50 owed, 20 cash
    assert g.debt_total("Bob") == 50
    with pytest.raises(Refused) as e:
        g.push({"op": "buy", "player": "Bob", "space": 1})
    assert e.value.rule == "debt-open"
    options = raise_cash_options(g, "Bob")
    assert [m["space"] for m in options["mortgages"]] == [5, 15, 25]
    assert options["max_raisable"] == 20 + 300 and not options["bankruptcy_unavoidable"]
    with pytest.raises(Refused) as e:
        g.push({"op": "bankrupt", "player": "Bob"})
    assert e.value.rule == "bankrupt-avoidable"
    move = g.push({"op": "mortgage", "player": "Bob", "space": 5})
    assert "Bob" not in g.debts and g.cash["Bob"] == 20 + 100 - 50 and g.cash["Ann"] == 1100 + 50
    assert Pay(src="Bob", dst="Ann", amount=50, why="rent") in move.effects


def test_max_raisable_counts_half_the_buildings_and_the_mortgages():
    """README: "The engine reports the most the debtor could raise (cash + half the buildings + mortgage
    values)"."""
    g = indebted()
    assert max_raisable(g, "Bob") == 300 + 30 + 30 + 100
    assert max_raisable(g, "Ann") == g.cash["Ann"] + 4 * 100 + 5 * 100 + 175 + 200


# ---------------------------------------------------------------- bankruptcy


def test_bankruptcy_to_a_player_us():
    """us-classic-rules.txt "Bankruptcy": buildings "return these to the Bank in exchange for money to the
    extent of one-half the amount paid for them; this cash is given to the creditor"; mortgaged property
    goes to the creditor, who "must at once pay the Bank the amount of interest on the loan"."""
    g = game()
    own(g, "Ann", 39)
    own(g, "Bob", *BROWN, 5)
    top_up(g, "Bob", 100)
    g.push({"op": "build", "player": "Bob", "space": 1})
    g.push({"op": "card", "player": "Bob", "card": "cc-jail-free"})
    g.push({"op": "mortgage", "player": "Bob", "space": 5})
    drain(g, "Bob", 10)
    ann_before = g.cash["Ann"]
    g.push({"op": "card", "player": "Bob", "card": "ch-chairman"})  # pay each player 50: owes 100, has 10
    assert g.debts["Bob"] == [Claim("Ann", 50, "card"), Claim("Cid", 50, "card")]
    assert max_raisable(g, "Bob") == 10 + 25 + 30 + 30  # half the house + the two brown mortgages
    view = preview(g, "Bob")
    assert view["creditor"] == "Ann" and view["debt"] == 100 and view["buildings_value"] == 25
    move = g.push({"op": "bankrupt", "player": "Bob"})
    assert "Bob" in g.bankrupt and g.bankrupt_to["Bob"] == "Ann"
    # Ann gets the house at half (25) and Bob's cash (10), pays 10% (10) on mortgaged Reading Railroad
    assert g.cash["Ann"] == ann_before + 25 + 10 - 10
    assert [g.lots[p].owner for p in (1, 3, 5)] == ["Ann"] * 3
    assert not g.lots[1].mortgaged and g.lots[5].mortgaged and g.lots[1].houses == 0
    assert g.bank_houses == 32 and g.jail_cards_of("Ann") == ["cc-jail-free"]
    assert g.cash["Bob"] == 0 and "Bob" not in g.debts
    assert "bankrupt to Ann" in move.text
    assert g.money_total() == 0


@pytest.mark.parametrize("edition,mortgages_first", [("classic-us", False), ("uk", True), ("ru", False),
                                                      ("kyiv", True)])
def test_bankruptcy_to_a_player_by_edition(edition, mortgages_first):
    """README table "bankrupt to a player": US/RU "the creditor takes everything else"; UK/Kyiv "Pay whatever
    money you were able to raise ... give them all your mortgaged properties and any Get Out of Jail
    Free cards. The player must pay 10% interest on each mortgaged property" (uk-2008 "HELP! I'M IN
    DEBT!") — so every deed is mortgaged first and the creditor pays 10% on each."""
    g = indebted(edition)
    ann = g.cash["Ann"]
    g.push({"op": "bankrupt", "player": "Bob"})
    deeds = [1, 3, 5]
    assert all(g.lots[p].owner == "Ann" for p in deeds)
    if mortgages_first:
        assert all(g.lots[p].mortgaged for p in deeds)
        # cash 300 + mortgages 30+30+100 to Ann; Ann pays 3+3+10 interest
        assert g.cash["Ann"] == ann + 300 + 160 - 16
    else:
        assert not any(g.lots[p].mortgaged for p in deeds)
        assert g.cash["Ann"] == ann + 300


def test_creditor_may_lift_inherited_mortgages_at_once():
    """us-classic-rules.txt: "The new owner who does this may then, at his/her option, pay the principal"."""
    g = indebted()
    g.push({"op": "mortgage", "player": "Bob", "space": 5})
    ann = g.cash["Ann"]
    g.push({"op": "bankrupt", "player": "Bob", "lift": [5]})
    assert not g.lots[5].mortgaged
    assert g.cash["Ann"] == ann + 400 - 10 - 100


LIFT_SHORT = {
    "en": ("Cid has £50, less than the £110 that lifting the mortgage on King's Cross Station costs (the mortgage £100 + "
           "10% £10): keep it mortgaged (only the 10% now), or raise the cash first",
           "Cid has £200 by then, less than the £220 that lifting the mortgage on Mayfair costs (the mortgage £200 + 10% "
           "£20): keep it mortgaged (only the 10% now), or raise the cash first"),
    "ru": ("У игрока Cid £50, а выкуп участка King's Cross Station из залога стоит £110 (залог £100 + 10% £10): "
           "оставьте его в залоге (сейчас только 10%) или сначала соберите деньги",
           "У игрока Cid к этому моменту £200, а выкуп участка Mayfair из залога стоит £220 (залог £200 + 10% £20): "
           "оставьте его в залоге (сейчас только 10%) или сначала соберите деньги"),
    "uk": ("У гравця Cid £50, а викуп ділянки King's Cross Station із застави коштує £110 (застава £100 + 10% £10): "
           "лишіть її в заставі (зараз лише 10%) або спершу зберіть гроші",
           "У гравця Cid на той момент £200, а викуп ділянки Mayfair із застави коштує £220 (застава £200 + 10% £20): "
           "лишіть її в заставі (зараз лише 10%) або спершу зберіть гроші"),
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_lift_at_once_refused_says_its_whole_cost_and_the_cash(lang):
    """us-classic-rules.txt "Mortgages": lifting costs "the amount of the mortgage plus 10% interest"; received in a
    trade or a bankruptcy, the deed may be kept mortgaged, paying the 10% only. Found playing: a bankruptcy's lift
    refused quoted the mortgage alone, with the cash left after the 10% ("Cid has £40, less than the £100 for lifting
    the mortgage"), and advised "mortgage or sell buildings first". The refusal says what lifting costs (the mortgage
    + 10%), what the receiver has when the deed comes, and that it can stay mortgaged."""
    from banker.i18n import Translator

    tr = Translator(lang)
    g = game("uk")
    for cmd in [{"op": "buy", "player": "Bob", "space": 5}, {"op": "buy", "player": "Cid", "space": 37},
                {"op": "mortgage", "player": "Bob", "space": 5},
                {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1400, "memo": "x"},
                {"op": "transfer", "from": "Cid", "to": "Ann", "amount": 1100, "memo": "x"},
                {"op": "rent", "payer": "Bob", "space": 37}]:  # Bob owes Cid rent with nothing: bankrupt to Cid, £50
        g.push(cmd)
    with pytest.raises(Refused) as e:
        g.preview({"op": "bankrupt", "player": "Bob", "lift": [5]})
    assert tr.refusal(e.value) == LIFT_SHORT[lang][0]
    # a trade: Cid has £250 and gives Ann £50 for her mortgaged Mayfair, to lift it at once (£220)
    own(g, "Ann", 39)
    g.push({"op": "mortgage", "player": "Ann", "space": 39})
    top_up(g, "Cid", 200)
    with pytest.raises(Refused) as e:
        g.preview({"op": "trade", "from": "Ann", "to": "Cid", "give": {"spaces": [39]}, "get": {"cash": 50},
                   "lift": [39]})
    assert tr.refusal(e.value) == LIFT_SHORT[lang][1]


@pytest.mark.parametrize("edition,mortgages_first", [("classic-us", False), ("uk", True), ("kyiv", True)])
def test_the_preview_names_every_deed_the_creditor_receives_mortgaged(edition, mortgages_first):
    """Found playing (Kyiv): the creditor was asked "10% now or lift at once" only for the deed already mortgaged;
    the streets the bankruptcy itself mortgages first reach the creditor mortgaged as well, and were charged 10%
    with no choice, though the engine takes a lift of them. The preview names them all, and a lift of one is taken."""
    g = indebted(edition)
    g.push({"op": "mortgage", "player": "Bob", "space": 5})
    view = preview(g, "Bob")
    assert view["mortgaged"] == ([1, 3, 5] if mortgages_first else [5]) and view["final"] is False
    if mortgages_first:
        ann = g.cash["Ann"]
        g.push({"op": "bankrupt", "player": "Bob", "lift": [1]})
        assert not g.lots[1].mortgaged and g.lots[3].mortgaged and g.lots[5].mortgaged
        # Bob's cash (300 + 100 from the railroad, + 30 + 30 from the browns) to Ann; 3 + 3 + 10 interest; 30 lifting
        assert g.cash["Ann"] == ann + 300 + 100 + 60 - 16 - 30


def test_the_bankruptcy_that_ends_a_short_game_asks_nothing_of_the_creditor():
    """us-classic-rules.txt, Short Game rule 3: at the second bankruptcy "play ceases": the creditor takes
    everything as it stands, so no deed is asked about (no interest, nothing to lift)."""
    g = game("classic-us", "short")
    assert preview(g, "Bob")["final"] is False
    drain(g, "Cid")
    g.push({"op": "tax", "player": "Cid", "space": 38})
    g.push({"op": "bankrupt", "player": "Cid"})  # the first bankruptcy: play goes on
    assert preview(g, "Bob")["final"] is True


def _owes_rent_and_holds_a_hotel(edition: str = "classic-us"):
    """Ann holds the dark blues with a hotel on Boardwalk and no cash, and owes Bob $25 rent on his railroad."""
    g = game(edition)
    own(g, "Ann", *DARK_BLUE)
    top_up(g, "Ann", 2000)
    g.push({"op": "build", "player": "Ann", "space": 37, "upto": 5})
    own(g, "Bob", 5)
    drain(g, "Ann")
    g.push({"op": "rent", "payer": "Ann", "space": 5})
    assert g.debts["Ann"] == [Claim("Bob", 25, "rent")]
    return g


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_debt_owed_to_the_bankrupt_by_its_creditor_is_cancelled(edition):
    """us-classic-rules.txt "Bankruptcy": "If your debt is to another player, you must turn over to that player
    all that you have of value": the claim the creditor itself owed the bankrupt is among it, so it lapses (it
    would be owed to itself) and the creditor has no debt left (docs/rules.md)."""
    g = _owes_rent_and_holds_a_hotel(edition)
    drain(g, "Bob")
    g.push({"op": "rent", "payer": "Bob", "space": 39})  # the hotel's rent: more than Bob can raise
    assert g.debts["Bob"][0].creditor == "Ann"
    move = g.push({"op": "bankrupt", "player": "Bob"})
    assert g.bankrupt_to["Bob"] == "Ann"
    assert "Ann" not in g.debts and "Bob" not in g.debts
    assert "Ann's debt of" in move.text and "to Bob is cancelled" in move.text
    with pytest.raises(Refused) as e:  # nothing left to be bankrupt over (it was: "bankrupt to Ann" herself)
        g.push({"op": "bankrupt", "player": "Ann"})
    assert e.value.rule == "bankrupt-no-debt"
    g.push({"op": "sell_building", "player": "Ann", "space": 39})  # her cash is her own again
    assert g.money_total() == 0
    assert g.to_json()["players"]["Ann"]["debt"] is None


def test_a_debt_owed_to_the_bankrupt_by_a_third_player_passes_to_the_creditor():
    """docs/rules.md: "A claim owed *to* a player who goes bankrupt passes to that player's creditor" (who takes
    "all that you have of value")."""
    g = _owes_rent_and_holds_a_hotel()
    own(g, "Cid", *BROWN)
    top_up(g, "Cid", 500)
    g.push({"op": "build", "player": "Cid", "space": 1, "upto": 5})
    drain(g, "Bob")
    g.push({"op": "rent", "payer": "Bob", "space": 3})  # the hotel's 450: more than Bob can raise
    g.push({"op": "bankrupt", "player": "Bob"})
    assert g.bankrupt_to["Bob"] == "Cid"
    assert g.debts["Ann"] == [Claim("Cid", 25, "rent")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_bankruptcy_to_the_bank(edition):
    """us-classic-rules.txt: "you must turn over all assets to the Bank. In this case, the Bank immediately
    sells by auction all property so taken, except buildings"; uk-2008: "mortgaged properties must be put
    up for auction. These are sold unmortgaged (face up). Return any Get Out of Jail Free cards to the
    bottom of the appropriate piles"."""
    g = game(edition)
    own(g, "Bob", *BROWN, 5)
    top_up(g, "Bob", 200)
    g.push({"op": "build", "player": "Bob", "space": 1})
    jail = cards_of(g, "jail_card")[0].id
    g.push({"op": "card", "player": "Bob", "card": jail})
    g.push({"op": "mortgage", "player": "Bob", "space": 5})
    drain(g, "Bob", 0)
    biggest = max(cards_of(g, "pay"), key=lambda c: c.effect["amount"])
    assert biggest.effect["amount"] > max_raisable(g, "Bob") == 25 + 30 + 30
    g.push({"op": "card", "player": "Bob", "card": biggest.id})
    assert g.debts["Bob"][0].creditor == "bank"
    g.push({"op": "bankrupt", "player": "Bob"})
    assert all(g.lots[p].owner is None and not g.lots[p].mortgaged for p in (1, 3, 5))
    assert g.pending_auction == {1, 3, 5}
    assert g.jail_cards[jail] is None and g.bank_houses == 32
    with pytest.raises(Refused) as e:
        g.push({"op": "buy", "player": "Ann", "space": 5})
    assert e.value.rule == "auction-pending"
    g.push({"op": "auction", "space": 5, "winner": "Ann", "bid": 80})
    assert g.pending_auction == {1, 3} and g.lots[5].owner == "Ann"
    g.push({"op": "auction", "space": 1, "winner": None})  # nobody bids: stays with the bank
    assert g.pending_auction == {3} and g.lots[1].owner is None
    g.push({"op": "buy", "player": "Cid", "space": 1})
    assert g.money_total() == 0


def test_ru_debt_paid_in_kind():
    """README table "paying a debt in kind" (RU): "a creditor may accept property instead of cash at any agreed
    value"; ru-2004 translation "Notes for the game"."""
    g = indebted("ru")
    g.push({"op": "trade", "from": "Bob", "to": "Ann", "give": {"spaces": [5]}, "debt_credit": 1800})
    assert g.lots[5].owner == "Ann"
    # 200 left to pay from 300 cash: settled at once
    assert "Bob" not in g.debts and g.cash["Bob"] == 100
    g2 = indebted("classic-us")
    with pytest.raises(Refused) as e:
        g2.push({"op": "trade", "from": "Bob", "to": "Ann", "give": {"spaces": [5]}, "debt_credit": 100})
    assert e.value.rule == "debt-in-kind"


def test_classic_game_ends_when_one_player_is_left():
    """us-classic-rules.txt: "The last player left in the game wins"."""
    g = game(players=("Ann", "Bob"))
    own(g, "Ann", 39)
    drain(g, "Bob", 10)
    g.push({"op": "rent", "payer": "Bob", "space": 39})
    move = g.push({"op": "bankrupt", "player": "Bob"})
    assert g.over and g.winner == "Ann"
    assert "Ann wins" in move.text
    with pytest.raises(Refused) as e:
        g.push({"op": "salary", "player": "Ann"})
    assert e.value.rule == "game-over"


@pytest.mark.parametrize("edition", ["classic-us", "ru"])
def test_short_game_ends_at_the_second_bankruptcy_with_valuation(edition):
    """us-classic-rules.txt Short Game rule 3: "when the second bankruptcy occurs, the game ends ... the
    bankrupt player's turning over to his/her creditor all that he/she has of value, including buildings
    ... (1) cash (2) lots at the price printed (3) mortgaged property at one-half the price (4) houses at
    purchase price (5) hotels at purchase price including the value of the three houses turned in"."""
    g = game(edition, "short", players=("Ann", "Bob", "Cid", "Dee"))
    own(g, "Ann", *DARK_BLUE)
    top_up(g, "Ann", 5000)
    for _ in range(3):
        for pos in DARK_BLUE:
            g.push({"op": "build", "player": "Ann", "space": pos})
    g.push({"op": "build", "player": "Ann", "space": 39})  # hotel after 3 houses
    own(g, "Cid", 5)
    g.push({"op": "mortgage", "player": "Cid", "space": 5})
    for loser in ("Bob", "Dee"):
        drain(g, loser, 0)
        g.push({"op": "rent", "payer": loser, "space": 39})
        g.push({"op": "bankrupt", "player": loser})
    assert g.over and g.result["reason"] == "bankruptcies"
    ann = g.cash["Ann"] + 350 + 400 + 3 * 200 + 4 * 200
    cid = g.cash["Cid"] + 100
    assert g.result["valuation"] == {"Ann": ann, "Cid": cid}
    assert g.winner == "Ann"


def test_short_game_final_bankruptcy_hands_over_buildings():
    """us-classic-rules.txt Short Game rule 3: at the second bankruptcy the creditor receives "all that he/she
    has of value, including buildings"."""
    g = game("classic-us", "short", players=("Ann", "Bob", "Cid"))
    own(g, "Bob", *BROWN)
    g.push({"op": "build", "player": "Bob", "space": 1})
    own(g, "Ann", *DARK_BLUE)  # rent 100 on Boardwalk
    drain(g, "Cid")
    g.push({"op": "rent", "payer": "Cid", "space": 39})
    g.push({"op": "bankrupt", "player": "Cid"})
    drain(g, "Bob")
    g.push({"op": "rent", "payer": "Bob", "space": 39})
    move = g.push({"op": "bankrupt", "player": "Bob"})
    assert g.lots[1].owner == "Ann" and g.lots[1].houses == 1
    # said, so that the banker leaves the house where it stands (the rules probe: the log named only the deeds)
    assert "what stands on it goes to Ann with the deed (Mediterranean Avenue: 1 house)" in move.text, move.text


def test_short_game_values_open_debts_as_paid_on_both_sides():
    """us-classic-rules.txt Short Game rule 3: "when the second bankruptcy occurs, the game ends" and "Each
    remaining player then values his/her property". The second bankruptcy does not wait for another player's
    open debt (a rules corner must not freeze the game: the other debtor may be unable to pay either): a debt
    still open counts as paid, less for the debtor and more for a creditor who plays on (docs/rules.md)."""
    g = game("classic-us", "short", players=("Ann", "Bob", "Cid", "Dee"))
    own(g, "Ann", *BROWN)
    top_up(g, "Ann", 2000)
    for _ in range(4):
        for pos in BROWN:
            g.push({"op": "build", "player": "Ann", "space": pos})  # 4 houses each: 450 on Baltic
    own(g, "Bob", *DARK_BLUE)
    drain(g, "Dee")
    g.push({"op": "tax", "player": "Dee", "space": 38})
    g.push({"op": "bankrupt", "player": "Dee"})
    drain(g, "Bob", 310)
    g.push({"op": "rent", "payer": "Bob", "space": 3})  # 450 owed to Ann, and Bob can raise it
    assert g.debts["Bob"] == [Claim("Ann", 450, "rent")]
    drain(g, "Cid")
    g.push({"op": "tax", "player": "Cid", "space": 38})
    move = g.push({"op": "bankrupt", "player": "Cid"})  # the second bankruptcy: the game ends at once
    assert g.over and g.result["reason"] == "bankruptcies"
    ann = g.cash["Ann"] + 60 + 60 + 8 * 50 + 450
    bob = g.cash["Bob"] + 350 + 400 - 450
    assert g.result["valuation"] == {"Ann": ann, "Bob": bob}
    assert g.winner == ("Ann" if ann > bob else "Bob")
    state = g.to_json()
    assert {p: state["players"][p]["net_worth"] for p in ("Ann", "Bob")} == g.result["valuation"]
    assert f"Ann {g.edition.fmt(ann)}" in move.text


def test_short_game_creditor_pays_its_own_debt_before_it_is_valued():
    """The cash the second bankruptcy hands a creditor pays the creditor's own open debt first, in the same entry
    (as at the end of any command), and the log says so before it names the winner."""
    g = game("classic-us", "short", players=("Ann", "Bob", "Cid"))
    own(g, "Ann", *DARK_BLUE)
    drain(g, "Cid")
    g.push({"op": "tax", "player": "Cid", "space": 38})
    g.push({"op": "bankrupt", "player": "Cid"})
    drain(g, "Ann", 30)
    g.push({"op": "tax", "player": "Ann", "space": 38})  # Luxury Tax 75: Ann owes the bank 75
    drain(g, "Bob", 50)
    g.push({"op": "rent", "payer": "Bob", "space": 37})  # 70 owed to Ann; Bob can raise only his 50
    move = g.push({"op": "bankrupt", "player": "Bob"})  # Ann takes the 50: 80, and pays the bank its 75
    assert g.over and "Ann" not in g.debts and g.cash["Ann"] == 5
    assert move.text.index("Ann pays the debt of $75 to the bank") < move.text.index("Ann wins")
    assert g.result["valuation"] == {"Ann": 5 + 350 + 400}


def test_end_game_by_agreement_and_timed_game():
    """us-classic-rules.txt "TIME LIMIT GAME": "agree upon a definite hour of termination, when the richest
    player will be declared the winner"."""
    g = game("classic-us", "timed")
    own(g, "Cid", 39)
    g.push({"op": "salary", "player": "Cid"})
    move = g.push({"op": "end_game"})
    assert g.result["reason"] == "time"
    assert g.winner == "Cid" and g.result["valuation"]["Cid"] == 1700
    assert "Cid wins" in move.text
    g = game()
    g.push({"op": "end_game"})
    assert g.winner is None and g.result["tied"] == ["Ann", "Bob", "Cid"]


def test_end_game_refused_with_an_open_debt():
    g = indebted()
    with pytest.raises(Refused) as e:
        g.push({"op": "end_game"})
    assert e.value.rule == "end-debt"


# ---------------------------------------------------------------- dealing, speed die


@pytest.mark.parametrize("edition", ["classic-us", "ru"])
def test_short_game_deals_two_deeds_paid_at_printed_price(edition):
    """us-classic-rules.txt Short Game rule 1: "deals out two, one at a time, to each player. The players must
    immediately pay the Bank the printed price of each"."""
    g = game(edition, "short")
    plan = deal_plan(g, seed=7)
    assert [c["player"] for c in plan] == ["Ann", "Bob", "Cid"] * 2
    for cmd in plan:
        g.push(cmd)
    for p in ("Ann", "Bob", "Cid"):
        deeds = g.deeds_of(p)
        assert len(deeds) == 2
        assert g.cash[p] == 1500 - sum(g.edition.spaces[d].price for d in deeds)
    with pytest.raises(Refused, match="already been dealt 2"):
        free = next(pos for pos, lot in g.lots.items() if lot.owner is None)
        g.push({"op": "deal", "player": "Ann", "space": free})
    with pytest.raises(Refused, match="only in the short and timed"):
        game(edition).push({"op": "deal", "player": "Ann", "space": 1})


def test_speed_die_next_unowned_property():
    """uk-2008 Speed Die "Mr. Monopoly": "advance to the next unowned property ... If there are no unowned
    properties left, advance to the next property owned by another player and pay rent"."""
    g = game("uk", "speed-die")
    own(g, "Ann", 37, 39, 1)
    assert next_unowned_after(g, 35) == 3
    assert mr_monopoly_target(g, 35, "Bob") == (3, "buy")
    for pos, lot in g.lots.items():
        if lot.owner is None:
            own(g, "Ann" if pos < 20 else "Cid", pos)
    assert next_unowned_after(g, 35) is None
    assert mr_monopoly_target(g, 35, "Cid") == (37, "rent")


# ---------------------------------------------------------------- undo


def test_pop_takes_the_last_move_back_and_again():
    """README: "undo of the last action, and again of the one before (a reversal entry in the log, never an
    erasure)". The engine pops the last move (the session log records the reversal with its reason:
    tests/test_ledger.py); its inverse effects are the reversal's."""
    g = game()
    g.push({"op": "buy", "player": "Ann", "space": 39})
    g.push({"op": "rent", "payer": "Bob", "space": 39})
    undone = g.pop()
    assert undone.command == Rent(space=39, payer="Bob")
    assert [invert(e) for e in reversed(undone.effects)] == [Pay(src="Ann", dst="Bob", amount=50, why="rent")]
    assert g.cash["Bob"] == 1500 and len(g.history) == 1
    g.pop()
    assert g.lots[39].owner is None and g.cash["Ann"] == 1500
    with pytest.raises(Refused) as e:
        g.pop()
    assert e.value.rule == "undo-empty"


def test_undo_is_not_an_engine_command():
    """Undo with a reason is the session log's operation: the engine refuses it and changes nothing."""
    g = game()
    g.push({"op": "salary", "player": "Ann"})
    with pytest.raises(Refused, match='"undo" is an operation of the session log'):
        g.push({"op": "undo", "reason": "wrong player"})
    assert g.cash["Ann"] == 1700 and len(g.history) == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_interest_a_creditor_cannot_pay_is_said_to_be_owed_not_paid(edition):
    """uk-2008 ("HELP! I'M IN DEBT!"): "The player must pay 10% interest on each mortgaged property". A creditor
    with too little cash owes it to the bank (a debt, rightly); the log said "Bob pays £10 interest" all the same,
    and a banker reading it would take the cash."""
    from banker.i18n import Translator

    g = game(edition)
    own(g, "Bob", 1)
    own(g, "Ann", 39, 37, 5, 15)
    for pos in (39, 37, 5, 15):
        g.push({"op": "mortgage", "player": "Ann", "space": pos})
    drain(g, "Ann")
    drain(g, "Bob")
    top_up(g, "Ann", 1)
    top_up(g, "Bob", 1)
    g.push({"op": "rent", "payer": "Ann", "space": 1})
    move = g.push({"op": "bankrupt", "player": "Ann"})
    owed = [c for c in g.debts["Bob"] if c.why == "interest"]
    assert len(owed) == 4 and g.cash["Bob"] < min(c.amount for c in owed)
    for lang in ("en", "ru", "uk"):
        said = Translator(lang).parts(move.parts)
        assert not any(word in said for word in ("pays", "платит", "сплачує")), said
    said = Translator("en").parts(move.parts)
    assert said.count("Bob owes the bank") == 4, said


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_bankruptcy_names_every_piece_it_moves(edition):
    """The rules probe: the log said only "Ann is bankrupt to Bob …; Bob pays $10 interest on Reading Railroad" while
    4 houses went back to the bank, $100 to Bob for them, $30 of cash and four deeds to Bob: the banker at the table
    moves each by hand (us-classic-rules.txt: "you must return these to the Bank in exchange for money to the extent
    of one-half the amount paid for them; this cash is given to the creditor")."""
    from banker.i18n import Translator

    g = game(edition)
    own(g, "Bob", *DARK_BLUE)
    top_up(g, "Bob", 2000)
    g.push({"op": "build", "player": "Bob", "space": 37, "upto": 5})  # a hotel on each: the rent beyond Ann's all
    own(g, "Ann", *BROWN, 5)
    top_up(g, "Ann", 500)
    g.push({"op": "build", "player": "Ann", "space": BROWN[0], "upto": 2})
    drain(g, "Ann", leave=30)
    g.push({"op": "rent", "payer": "Ann", "space": 39})
    move = g.push({"op": "bankrupt", "player": "Ann"})
    said = Translator("en").parts(move.parts)
    assert f"Ann's cash, {g.edition.fmt(30)}, goes to Bob" in said or "Ann's cash" in said and "goes to Bob" in said, said
    names = ", ".join(g.edition.spaces[p].name for p in sorted((*BROWN, 5)))
    assert f"{names} go to Bob" in said, said
    if not g.edition.rules.bankrupt_to_player_mortgages_first:  # US, RU: the buildings back at half price, paid to Bob
        assert "the bank takes back the buildings (4 houses) and pays Bob" in said, said
    for lang in ("ru", "uk"):
        assert "Bob" in Translator(lang).parts(move.parts)

    g = game(edition)  # to the bank: the cash to the bank
    own(g, "Ann", 5)
    g.push({"op": "mortgage", "player": "Ann", "space": 5})
    drain(g, "Ann", leave=5)
    tax = next(s for s in g.edition.spaces if s.kind == "tax" and not s.tax_percent)
    g.push({"op": "tax", "player": "Ann", "space": tax.position})
    said = Translator("en").parts(g.push({"op": "bankrupt", "player": "Ann"}).parts)
    assert f"Ann's cash, {g.edition.fmt(5)}, goes to the bank" in said, said
