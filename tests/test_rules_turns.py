"""Issue #11, follow the board: turns, tokens, rolls, and what each landing requires, on all four editions.

Each test quotes the rule book it pins (shared/rules/); where the books are silent the choice is in
docs/rules.md ("Following the board").
"""

from __future__ import annotations

import json

import pytest

from banker.boards import game_from_setup
from banker.i18n import Translator
from banker.rules import HouseRules, Refused, Setup
from banker.rules.effects import InJail, Position, Proposal, Turn
from banker.rules.legal import check_jail_release, legal_actions
from banker.rules.turns import describe, doubles_to_roll_on
from tests.rules_helpers import EDITIONS, own, top_up

JAIL = 10


def follow_game(edition: str = "classic-us", variant: str = "classic", players=("Ann", "Bob", "Cid"), **house_rules):
    return game_from_setup(Setup(edition, variant, tuple(players), HouseRules.from_mapping(house_rules or None),
                                 follow=True))


def roll(g, a: int, b: int, **extra):
    return g.push({"op": "roll", "dice": [a, b], **extra})


def place(g, player: str, space: int, **extra):
    return g.push({"op": "place", "player": player, "space": space, **extra})


def snap(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def settle(g, **extra):
    """Apply what is proposed, with ``extra`` for what it needs."""
    return g.push({**g.pending.command, **extra})


# --------------------------------------------------------------------------- turns and tokens
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_first_player_rolls_first_and_the_turn_passes_to_the_left(edition):
    """us-classic-rules.txt: "After he has completed his play, the turn to play passes to the left."
    uk-2008: "When you finish your move and action, pass the dice to the player on your left." RU: "Следующим
    ходит игрок, сидящий слева от него". Kyiv: "передайте кості гравцю ліворуч від вас". The seating order is
    the player list (docs/rules.md)."""
    g = follow_game(edition)
    assert g.to_json()["turn"] == "Ann" and g.to_json()["follow"] is True
    move = roll(g, 1, 3)  # to 4: a tax space everywhere
    assert g.positions["Ann"] == 4 and g.pending is not None
    assert "Ann rolls 1 + 3" in move.text
    settle(g, **({"choice": "flat"} if g.pending.needs == ["choice"] else {}))
    assert g.current == "Bob" and g.doubles == 0
    roll(g, 2, 3)  # Bob to 5, a railroad: buy proposed
    g.push({"op": "auction", "space": 5, "winner": None})
    assert g.current == "Cid"
    roll(g, 4, 6)  # Cid to 10: just visiting, nothing required
    assert g.pending is None and g.current == "Ann" and not g.in_jail["Cid"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_passing_go_pays_the_salary_in_the_same_entry(edition):
    """us-classic-rules.txt: "Each time a player's MONOPOLY token lands on or passes over "GO", whether by throw
    of the dice or by drawing a card, the Banker pays him $200 salary." UK: "If your move took you onto or past
    the GO space, collect $200"; RU: "Всякий раз, когда Вы останавливаетесь или проходите через поле
    “ВПЕРЕД”"; Kyiv: "Якщо в процесі ви пройшли ділянку СТАРТ або спинилися на ній, отримайте a200"."""
    g = follow_game(edition)
    place(g, "Ann", 38)
    cash = g.cash["Ann"]
    move = roll(g, 1, 2)  # 38 + 3 = 1: past GO
    assert g.positions["Ann"] == 1 and g.cash["Ann"] == cash + 200
    assert any(e.__class__.__name__ == "Pay" and e.why == "salary" for e in move.effects)
    assert g.pending.kind == "buy" and g.pending.command == {"op": "buy", "player": "Ann", "space": 1}


def test_landing_exactly_on_go_follows_the_house_rule():
    """The house rule `go_landing_bonus` (docs/rules.md) doubles the salary for landing exactly on GO; without it
    landing on GO pays the plain salary ("lands on or passes over")."""
    plain = follow_game()
    place(plain, "Ann", 35)
    roll(plain, 2, 3)
    assert plain.positions["Ann"] == 0 and plain.cash["Ann"] == 1700 and plain.current == "Bob"
    bonus = follow_game(go_landing_bonus=True)
    place(bonus, "Ann", 35)
    move = roll(bonus, 2, 3)
    assert bonus.cash["Ann"] == 1900 and "for landing on GO" in move.text


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_unowned_deed_is_proposed_for_sale_or_auction(edition):
    """US: "Whenever a player lands on an unowned MONOPOLY property he may buy that property from the Bank at its
    printed price ... If he does not wish to buy ... it is sold at auction". UK: "If you don't want to pay the
    listed price, the property goes up for auction." RU/Kyiv likewise ("выставить ее на аукцион")."""
    g = follow_game(edition)
    roll(g, 3, 5)  # to 8
    due = g.to_json()["pending"]
    price = g.edition.spaces[8].price
    assert due == {"kind": "buy", "player": "Ann", "space": 8, "amount": price,
                   "command": {"op": "buy", "player": "Ann", "space": 8}, "needs": []}
    with pytest.raises(Refused, match="First settle"):
        roll(g, 1, 2)
    g.push({"op": "auction", "space": 8, "winner": "Cid", "bid": 10})
    assert g.pending is None and g.lots[8].owner == "Cid" and g.current == "Bob"


@pytest.mark.parametrize("edition", EDITIONS)
def test_rent_is_proposed_with_its_amount(edition):
    """US: "When a player lands on MONOPOLY property owned by another player the owner collects rent from him";
    railroads by how many are owned (UK "Rent depends on how many railroads the other player owns"); utilities
    from the dice of the roll that brought the player there (RU: "в соответствии с количеством очков, которые
    выпали на кубиках, когда Вы сделали ход, приведший Вас на это поле"); a mortgaged deed: "If the property is
    mortgaged, no rent can be collected.\""""
    g = follow_game(edition)
    own(g, "Bob", 5, 15, 12)
    roll(g, 2, 3)  # Ann to 5: Bob holds two railroads
    assert g.to_json()["pending"] == {"kind": "rent", "player": "Ann", "space": 5, "amount": 50,
                                      "command": {"op": "rent", "payer": "Ann", "space": 5}, "needs": []}
    bob = g.cash["Bob"]
    settle(g)
    assert g.cash["Ann"] == 1450 and g.cash["Bob"] == bob + 50 and g.current == "Bob"
    g.push({"op": "end_turn"})
    assert g.current == "Cid"
    roll(g, 6, 6)  # Cid to 12, a utility owned by Bob: 4 x 12 (doubles: Cid rolls again)
    assert g.pending.amount == 48 and g.pending.command["dice"] == 12
    settle(g)
    assert g.current == "Cid" and g.doubles == 1
    g.push({"op": "mortgage", "player": "Bob", "space": 15})
    roll(g, 1, 2)  # Cid 12 -> 15: mortgaged, nothing to pay, the turn passes
    assert g.pending is None and g.current == "Ann"


def test_the_us_income_tax_asks_for_the_choice_first_and_other_taxes_their_amount():
    """us-classic-rules.txt: "he may estimate his tax at $200 and pay the Bank, or he may pay 10% of his total
    worth ... The player must decide which option he will take before he adds up his total worth."
    uk-2008: "If you land on one of these spaces, you must pay the Bank the amount shown.\""""
    g = follow_game()
    roll(g, 1, 3)
    assert g.to_json()["pending"] == {"kind": "tax", "player": "Ann", "space": 4, "amount": None,
                                      "command": {"op": "tax", "player": "Ann", "space": 4}, "needs": ["choice"]}
    with pytest.raises(Refused):
        settle(g)  # without the choice
    settle(g, choice="percent")
    assert g.cash["Ann"] == 1350 and g.current == "Bob"
    uk = follow_game("uk")
    roll(uk, 1, 3)
    assert uk.pending.amount == 200 and uk.pending.needs == []
    place(uk, "Bob", 35)
    uk.push({"op": "tax", "player": "Ann", "space": 4})
    roll(uk, 1, 2)
    assert uk.pending.kind == "tax" and uk.pending.amount == uk.edition.spaces[38].tax


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_card_is_drawn_and_its_move_applied(edition):
    """US: "he takes the top card from the deck indicated, follows the instructions"; "whether by throw of the dice
    or by drawing a card, the Banker pays him $200 salary". RU: "Если в процессе движения Вы пройдете через поле
    “ВПЕРЕД”, получите 200 тыс. рублей." The card comes from the deck of the space."""
    g = follow_game(edition)
    roll(g, 3, 4)  # to 7, Chance
    assert g.to_json()["pending"] == {"kind": "card", "player": "Ann", "space": 7, "amount": None,
                                      "command": {"op": "card", "player": "Ann"}, "needs": ["card"]}
    with pytest.raises(Refused, match="comes from that deck"):
        g.push({"op": "card", "player": "Ann", "card": "cc-go"})
    card = next(c.id for c in g.edition.cards.values() if c.deck == "chance" and dict(c.effect) == {"type": "advance",
                                                                                                     "to": 24})
    cash = g.cash["Ann"]
    settle(g, card=card)  # 7 -> 24: no GO on the way
    assert g.positions["Ann"] == 24 and g.cash["Ann"] == cash
    assert g.pending.kind == "buy" and g.pending.space == 24
    g.push({"op": "auction", "space": 24, "winner": None})
    assert g.current == "Bob"
    place(g, "Bob", 33)
    roll(g, 1, 2)  # Bob to 36, Chance; advance to 11 passes GO
    card = next(c.id for c in g.edition.cards.values() if c.deck == "chance" and dict(c.effect) == {"type": "advance",
                                                                                                     "to": 11})
    settle(g, card=card)
    assert g.positions["Bob"] == 11 and g.cash["Bob"] == 1700 and g.pending.kind == "buy"


@pytest.mark.parametrize("edition", EDITIONS)
def test_back_three_spaces_lands_again(edition):
    """The "Go back three spaces" card (every edition's Chance deck): from Chance at 7 to the tax space at 4, which
    then requires its tax; no salary going back."""
    g = follow_game(edition)
    roll(g, 3, 4)
    settle(g, card="ch-back-3")
    assert g.positions["Ann"] == 4 and g.pending.kind == "tax" and g.cash["Ann"] == 1500


@pytest.mark.parametrize("edition", EDITIONS)
def test_go_to_jail_card_keeps_the_salary_already_collected(edition):
    """US: "When you are sent to Jail you cannot collect your $200 salary in that move"; docs/rules.md: a roll that
    passes GO and then draws "Go to Jail" keeps the salary it already collected."""
    g = follow_game(edition)
    place(g, "Ann", 36)
    roll(g, 2, 4)  # 36 + 6 = 2: past GO to Community Chest
    assert g.cash["Ann"] == 1700 and g.pending.kind == "card"
    move = settle(g, card="cc-jail")
    assert g.positions["Ann"] == JAIL and g.in_jail["Ann"] and g.cash["Ann"] == 1700 and g.current == "Bob"
    assert not any(getattr(e, "why", "") == "salary" for e in move.effects)


def test_the_nearest_railroad_and_utility_cards():
    """The US Chance cards "Advance token to the nearest Railroad and pay owner twice the rental" and "Advance token
    to nearest Utility. If owned, throw dice and pay owner a total ten times the amount thrown" (classic-us.toml):
    double rent, and a fresh roll asked for (`needs: ["dice"]`)."""
    g = follow_game()
    own(g, "Bob", 15, 28)
    roll(g, 3, 4)  # Ann to 7
    settle(g, card="ch-railroad-1")
    assert g.positions["Ann"] == 15
    assert g.to_json()["pending"] == {"kind": "rent", "player": "Ann", "space": 15, "amount": 50,
                                      "command": {"op": "rent", "payer": "Ann", "space": 15, "card": "nearest-railroad"},
                                      "needs": []}
    settle(g)
    assert g.current == "Bob"
    g.push({"op": "end_turn"})
    place(g, "Cid", 20)
    roll(g, 1, 1)  # Cid to 22, Chance (doubles)
    settle(g, card="ch-utility")
    assert g.positions["Cid"] == 28
    assert g.to_json()["pending"] == {"kind": "rent", "player": "Cid", "space": 28, "amount": None,
                                      "command": {"op": "rent", "payer": "Cid", "space": 28, "card": "nearest-utility"},
                                      "needs": ["dice"]}
    assert "10 x a fresh roll" in str(describe(g, g.pending))
    settle(g, dice=7)
    assert g.cash["Cid"] == 1430 and g.current == "Cid" and g.doubles == 1  # the doubles still roll again


@pytest.mark.parametrize("edition", EDITIONS)
def test_go_to_jail_space_without_salary_and_the_turn_ends(edition):
    """US: "you must move directly into Jail. Your turn ends when you are sent to Jail." UK: "As soon as you are sent
    to Jail, your turn ends". RU: "Ваш ход оканчивается, когда Вас отправляют в Тюрьму." Kyiv: "Якщо ви потрапили
    до в’язниці, ваш хід закінчено\" — even after doubles."""
    g = follow_game(edition)
    place(g, "Ann", 26)
    cash = g.cash["Ann"]
    roll(g, 2, 2)  # to 30: Go to Jail, with doubles
    assert g.positions["Ann"] == JAIL and g.in_jail["Ann"] and g.cash["Ann"] == cash
    assert g.current == "Bob" and g.doubles == 0 and g.pending is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_doubles_roll_again_and_the_third_goes_to_jail(edition):
    """US: "If a player throws doubles ... Retaining the dice, he throws again ... If a player throws doubles three
    times in succession, he moves his token immediately to the space marked "In Jail"". RU: "Если же у Вас выпало
    одинаковое число очков на обоих кубиках три раза подряд, Вы сразу же попадаете в тюрьму." Kyiv: "Якщо ви
    викинете дубль тричі поспіль за один хід, ви маєте йти до в’язниці.\""""
    g = follow_game(edition)
    roll(g, 1, 1)  # to 2, Community Chest
    settle(g, card=next(c.id for c in g.edition.cards.values() if c.deck == "chest" and c.kind == "collect"))
    assert g.current == "Ann" and g.doubles == 1
    roll(g, 5, 5)  # to 12, a utility
    g.push({"op": "auction", "space": 12, "winner": None})
    assert g.current == "Ann" and g.doubles == 2
    move = roll(g, 3, 3)
    assert g.positions["Ann"] == JAIL and g.in_jail["Ann"] and g.current == "Bob"
    assert "third doubles" in move.text and g.doubles == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_jail_attempts_doubles_free_and_move_without_another_roll(edition):
    """US: "throwing doubles on any of your next three turns; if you succeed in doing this you immediately move
    forward the number of spaces shown by your doubles throw; even though you had thrown doubles, you do not take
    another turn". UK: "if you get a double, move out of Jail and round the board using this roll"."""
    g = follow_game(edition)
    place(g, "Ann", JAIL, jail=True)
    assert g.current == "Bob"  # put in jail on her turn: it ends
    g.push({"op": "end_turn"})
    g.push({"op": "end_turn"})
    roll(g, 1, 2)
    assert g.positions["Ann"] == JAIL and g.jail_turns["Ann"] == 1 and g.current == "Bob"
    g.push({"op": "end_turn"})
    g.push({"op": "end_turn"})
    roll(g, 4, 4)  # doubles: out, to 18
    assert not g.in_jail["Ann"] and g.positions["Ann"] == 18 and g.jail_turns["Ann"] == 0
    g.push({"op": "auction", "space": 18, "winner": None})
    assert g.current == "Bob"  # no extra roll


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_third_failed_attempt_makes_the_fine_due_then_the_token_moves(edition):
    """US: "If you do not throw doubles by your third turn, you must pay the $50 fine. You then get out of Jail and
    immediately move forward the number of spaces shown by your throw." UK: "If you do not get a double on your third
    roll, you must pay $50 to the Bank then move the number of spaces rolled." RU: "должны выйти из нее и уплатить
    50 тыс. рублей, прежде чем Вы сможете передвинуть Вашу фишку". Kyiv: "ви маєте сплатити a50 у банк та рухатися"."""
    g = follow_game(edition, players=("Ann", "Bob"))
    place(g, "Ann", JAIL, jail=True)
    for _ in range(2):
        g.push({"op": "end_turn"})
        roll(g, 1, 2)
        assert g.in_jail["Ann"]
    g.push({"op": "end_turn"})
    roll(g, 2, 3)
    fine = g.edition.jail_fine
    assert g.to_json()["pending"] == {"kind": "jail_fine", "player": "Ann", "space": JAIL, "amount": fine,
                                      "command": {"op": "jail_fine", "player": "Ann"}, "needs": []}
    assert g.positions["Ann"] == JAIL and g.jail_turns["Ann"] == 3
    with pytest.raises(Refused, match="First settle"):
        roll(g, 1, 2)
    settle(g)
    assert not g.in_jail["Ann"] and g.positions["Ann"] == 15 and g.cash["Ann"] == 1500 - fine
    assert g.pending.kind == "buy"  # the landing of that roll


def test_the_us_fine_before_rolling_only_on_the_first_two_turns_uk_on_any():
    """US: "paying a fine of $50 before you roll the dice on either of your next two turns" (classic-us.toml
    `jail_fine_turns = 2`); UK: "Pay $50 at the start of your next turn, then roll and move as normal", with no
    limit (uk.toml `jail_fine_turns = 3`). Paying frees the token; it then rolls as normal."""
    for edition, allowed in (("classic-us", False), ("uk", True)):
        g = follow_game(edition, players=("Ann", "Bob"))
        place(g, "Ann", JAIL, jail=True)
        for _ in range(2):
            g.push({"op": "end_turn"})
            roll(g, 1, 2)
        g.push({"op": "end_turn"})
        assert g.jail_turns["Ann"] == 2
        if allowed:
            g.push({"op": "jail_fine", "player": "Ann"})
            assert not g.in_jail["Ann"]
        else:
            with pytest.raises(Refused, match="rolled first"):
                g.push({"op": "jail_fine", "player": "Ann"})
    g = follow_game(players=("Ann", "Bob"))
    place(g, "Ann", JAIL, jail=True)
    g.push({"op": "end_turn"})
    g.push({"op": "jail_fine", "player": "Ann"})
    roll(g, 3, 3)  # out by the fine: doubles roll again as normal
    assert g.positions["Ann"] == 16 and g.current == "Ann"
    with pytest.raises(Refused, match="not in jail"):
        g.push({"op": "jail_fine", "player": "Bob"})


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_get_out_of_jail_free_card_frees_the_token(edition):
    """US: "You get out of Jail by ... (2) using the "Get Out of Jail Free" card if you have it". UK: "Use a Get
    Out of Jail Free card if you have one ... then roll and move.\""""
    g = follow_game(edition, players=("Ann", "Bob"))
    card = next(c.id for c in g.edition.cards.values() if c.kind == "jail_card")
    g.push({"op": "card", "player": "Ann", "card": card})
    place(g, "Ann", JAIL, jail=True)
    g.push({"op": "end_turn"})
    g.push({"op": "jail_card", "player": "Ann", "use": True})
    assert not g.in_jail["Ann"] and g.positions["Ann"] == JAIL


@pytest.mark.parametrize("edition", EDITIONS)
def test_legal_actions_offer_the_jail_fine_and_card_only_to_whom_the_engine_takes_them(edition):
    """Found by the rules probe: in follow mode the console's `f` and `j` offered players not in jail, then refused
    them. The engine's own check (:func:`check_jail_release`, what ``before`` refuses) says who may pay the fine or use
    a card, and :func:`legal_actions` offers only those: every jail action offered is accepted, every one left out
    refused. US: the fine "before you roll the dice on either of your next two turns"; without follow mode the bank
    does not know where the tokens stand and refuses nobody."""
    g = follow_game(edition, players=("Ann", "Bob", "Cid"))
    card = next(c.id for c in g.edition.cards.values() if c.kind == "jail_card")
    g.push({"op": "card", "player": "Bob", "card": card})  # Bob holds a card, not in jail
    g.push({"op": "card", "player": "Cid", "card": next(c.id for c in g.edition.cards.values()
                                                         if c.kind == "jail_card" and c.id != card)})
    place(g, "Cid", JAIL, jail=True)

    def jail_offers(state):
        return {(c["op"], c["player"]) for c in legal_actions(state) if c["op"] in ("jail_fine", "jail_card")}

    assert jail_offers(g) == {("jail_fine", "Cid"), ("jail_card", "Cid")}
    for p in ("Ann", "Bob"):
        with pytest.raises(Refused, match="not in jail"):
            check_jail_release(g, p, fine=True)
        with pytest.raises(Refused, match="not in jail"):
            g.preview({"op": "jail_fine", "player": p})
    with pytest.raises(Refused, match="not in jail"):
        g.preview({"op": "jail_card", "player": "Bob", "use": True})
    for cmd in legal_actions(g):
        if cmd["op"] in ("jail_fine", "jail_card"):
            g.preview(cmd)
    check_jail_release(g, "Cid", fine=True)
    limit = g.edition.rules.jail_fine_turns
    while g.jail_turns["Cid"] < limit and g.jail_turns["Cid"] < 2:  # failed attempts, the fine never paid
        while g.current != "Cid":
            g.push({"op": "end_turn"})
        roll(g, 1, 2)
    if g.jail_turns["Cid"] >= limit:  # US: the third attempt is rolled first, the card still frees the token
        with pytest.raises(Refused, match="rolled first"):
            g.preview({"op": "jail_fine", "player": "Cid"})
        assert jail_offers(g) == {("jail_card", "Cid")}
    else:
        assert jail_offers(g) == {("jail_fine", "Cid"), ("jail_card", "Cid")}
    g.push({"op": "follow", "on": False})
    assert jail_offers(g) >= {("jail_fine", "Ann"), ("jail_fine", "Bob"), ("jail_card", "Bob")}


@pytest.mark.parametrize("edition", EDITIONS)
def test_in_jail_a_player_still_collects_rent_and_builds(edition):
    """US: "Even though you are in Jail, you may buy and sell MONOPOLY properties, buy and sell houses and hotels and
    collect rents." UK: "You can do the following even when it isn't your turn – even if you're in Jail!\""""
    g = follow_game(edition)
    own(g, "Bob", 1, 3)
    place(g, "Bob", JAIL, jail=True)
    g.push({"op": "build", "player": "Bob", "space": 1})
    roll(g, 1, 2)  # Ann to 3
    assert g.pending.kind == "rent" and g.pending.amount == 2 * g.edition.spaces[3].rent[0]
    settle(g)
    assert g.in_jail["Bob"]


# --------------------------------------------------------------------------- the Speed Die (uk, speed-die)
def speed_game():
    g = follow_game("uk", "speed-die")
    for p in g.players:
        place(g, p, 39)
    return g


def test_the_speed_die_is_not_used_before_passing_go():
    """uk-2008-speed-die-rules.md: "Do not use the Speed Die until you pass GO for the first time." A face given
    before then is ignored and the entry says so (docs/rules.md)."""
    g = follow_game("uk", "speed-die")
    move = roll(g, 1, 2, speed=3)
    assert g.positions["Ann"] == 3 and "does not count yet" in move.text


def test_the_speed_die_adds_one_to_three():
    """uk-2008-speed-die-rules.md: "1, 2 or 3: Add this to the roll of the two white dice." Utility rent: "Roll all 3
    dice to determine the rent for a utility. The Bus and Mr. Monopoly count as zero.\""""
    g = speed_game()
    own(g, "Bob", 12)
    _passed(g)  # Ann on 4
    with pytest.raises(Refused, match="Speed Die counts"):
        roll(g, 3, 2)
    roll(g, 3, 2, speed=3)  # 4 + 8 = 12, Bob's utility: 4 x (3 + 2 + 3)
    assert g.positions["Ann"] == 12 and g.pending.amount == 32 and g.pending.command["dice"] == 8


def _passed(g):
    """Every player past GO once: each rolls 39 -> 4 (Income Tax, 200) and pays."""
    for _ in g.players:
        roll(g, 2, 3)  # 39 -> 4, Income Tax: passes GO
        settle(g)
    assert all(g.passed_go.values())


def test_the_bus_moves_one_white_die_or_both():
    """uk-2008-speed-die-rules.md: "Bus: You can choose to move the value of one or both of the white dice. So if you
    rolled a 1 and a 5, you could move 1 space, 5 spaces or 6 spaces.\""""
    g = speed_game()
    _passed(g)
    with pytest.raises(Refused, match="say how far"):
        roll(g, 1, 5, speed="bus")
    with pytest.raises(Refused, match=r"one of 1, 5, 6"):
        roll(g, 1, 5, speed="bus", move=4)
    with pytest.raises(Refused, match="only for the Bus"):
        roll(g, 1, 5, speed=2, move=1)
    roll(g, 1, 5, speed="bus", move=1)
    assert g.positions["Ann"] == 5


def test_mr_monopoly_advances_after_the_landing_settles():
    """uk-2008-speed-die-rules.md: "Mr. Monopoly: Move the sum of the white dice as normal and take the action for
    the space you land on. Then advance to the next unowned property and either buy it or put it up for auction. If
    there are no unowned properties left, advance to the next property owned by another player and pay rent.\""""
    g = speed_game()
    _passed(g)
    roll(g, 2, 3, speed="mr-monopoly")  # 4 -> 9, unowned: buy it first
    assert g.pending.kind == "buy" and g.pending.space == 9
    settle(g)
    assert g.to_json()["pending"] == {"kind": "advance", "player": "Ann", "space": 11, "amount": 140,
                                      "command": {"op": "buy", "player": "Ann", "space": 11}, "needs": []}
    assert g.positions["Ann"] == 11 and str(describe(g, g.pending)).startswith("Mr. Monopoly: ")
    g.push({"op": "auction", "space": 11, "winner": "Bob", "bid": 5})
    assert g.current == "Bob"
    # every deed owned: the next one owned by another player, and its rent
    g2 = speed_game()
    _passed(g2)
    for pos in list(g2.lots):
        if g2.lots[pos].owner is None:
            own(g2, "Cid" if pos > 20 else "Ann", pos)
    roll(g2, 2, 3, speed="mr-monopoly")  # Ann 4 -> 9 (her own): then the next deed of another player, 21
    assert g2.pending.kind == "advance" and g2.pending.space == 21 and g2.pending.command["op"] == "rent"


@pytest.mark.parametrize(("lang", "advance", "move"), [
    ("en", "Ann advances to The Angel Islington", "moves to"),
    ("ru", "Ann переходит на поле The Angel Islington", "идёт на поле"),
    ("uk", "Ann переходить на поле The Angel Islington", "іде на поле"),
])
def test_mr_monopolys_advance_and_three_of_a_kind_say_the_move_once(lang, advance, move):
    """Mr. Monopoly's advance, and three of a kind's move, name the space in their own sentence: the token's move
    is not said a second time after it (found playing: "Mr. Monopoly: Ann advances to The Angel Islington; Ann moves
    to The Angel Islington")."""
    tr = Translator(lang)
    g = speed_game()
    _passed(g)
    place(g, "Ann", 2)
    roll(g, 1, 2, speed="mr-monopoly")  # 2 -> 5, King's Cross Station, unowned: buy first
    said = tr.parts(settle(g).parts)  # then Mr. Monopoly advances to the next unowned deed, The Angel Islington
    assert g.pending.kind == "advance" and g.positions["Ann"] == 6
    assert advance in said and said.count("The Angel Islington") == 2 and move not in said, said  # the advance, the due
    g2 = speed_game()
    _passed(g2)
    said = tr.parts(roll(g2, 2, 2, speed=2, to=20).parts)  # three of a kind: to Free Parking, nothing to settle
    assert said.count(g2.edition.spaces[20].name) == 1, said


def test_three_of_a_kind_moves_anywhere_and_ends_the_turn():
    """uk-2008-speed-die-rules.md: "If you roll three-of-a-kind (each die shows the same number), you can move your
    token to any space on the board." The book does not say whether the turn goes on; the banker's choice: it ends
    (docs/rules.md)."""
    g = speed_game()
    _passed(g)
    with pytest.raises(Refused, match="say the space"):
        roll(g, 2, 2, speed=2)
    with pytest.raises(Refused, match="only for three of a kind"):
        roll(g, 2, 3, speed=2, to=39)
    roll(g, 2, 2, speed=2, to=39)
    assert g.positions["Ann"] == 39 and g.pending.kind == "buy"
    assert g.doubles == 1 and doubles_to_roll_on(g) == 0  # the turn's last roll: its doubles are not shown
    settle(g)
    assert g.current == "Bob" and g.doubles == 0


def test_three_of_a_kind_as_the_third_doubles_goes_to_jail_without_the_free_move():
    """uk-2008-speed-die-rules.md: "Only the white dice are counted when rolling doubles." "If you are sent to Jail
    during your move, your turn ends and you do not use the result of the Speed Die." Three of a kind thrown as the
    third doubles of a turn is the third doubles: jail, and no space is asked for the free move (docs/rules.md)."""
    g = speed_game()
    _passed(g)
    for white, face in ((1, 3), (2, 1)):  # two doubles, each rolled on
        roll(g, white, white, speed=face)
        settle(g)
    assert g.current == "Ann" and g.doubles == 2
    move = roll(g, 3, 3, speed=3)  # three of a kind, without "to": none is needed
    assert "third doubles" in move.text and "three of a kind" not in move.text
    assert g.in_jail["Ann"] and g.positions["Ann"] == JAIL and g.current == "Bob" and g.pending is None


def test_speed_die_doubles_count_white_dice_and_jail_ignores_the_speed_die():
    """uk-2008-speed-die-rules.md: "Only the white dice are counted when rolling doubles." "If you are sent to Jail
    during your move, your turn ends and you do not use the result of the Speed Die." "Only roll the white dice when
    attempting to get out of Jail.\""""
    g = speed_game()
    _passed(g)
    roll(g, 1, 1, speed=3)  # white doubles: 4 + 5 = 9, rolls again
    settle(g)
    assert g.current == "Ann" and g.doubles == 1
    place(g, "Ann", 25)
    roll(g, 2, 3, speed="mr-monopoly")  # 25 -> 30: Go to Jail; Mr. Monopoly is not used
    assert g.in_jail["Ann"] and g.pending is None and g.current == "Bob"
    g.push({"op": "end_turn"})
    g.push({"op": "end_turn"})
    move = roll(g, 1, 2, speed=3)  # an attempt: white dice only
    assert "only the white dice" in move.text and g.positions["Ann"] == JAIL


def test_no_speed_die_in_a_game_without_it():
    g = follow_game()
    with pytest.raises(Refused, match="no Speed Die"):
        roll(g, 1, 2, speed=1)


# --------------------------------------------------------------------------- the bank's hands
def test_undo_of_a_roll_restores_everything():
    """docs/rules.md: undo takes back a roll and everything it caused (salary, the token, the proposal, the turn)."""
    g = follow_game()
    place(g, "Ann", 36)
    before = snap(g)
    roll(g, 3, 3)  # past GO to 2, Community Chest, doubles
    assert g.cash["Ann"] == 1700
    g.pop()
    assert snap(g) == before


@pytest.mark.parametrize("edition", EDITIONS)
def test_place_moves_a_token_and_proposes_nothing(edition):
    """docs/rules.md: `place` moves a token where it stands on the table and proposes nothing; `"jail": true` puts
    it in jail and, on that player's turn, ends the turn."""
    g = follow_game(edition)
    move = place(g, "Ann", 39)
    assert g.positions["Ann"] == 39 and g.pending is None and g.current == "Ann"
    assert [type(e) for e in move.effects] == [Position]
    with pytest.raises(Refused, match="already stands there"):
        place(g, "Ann", 39)
    with pytest.raises(Refused, match="not on space 5"):
        place(g, "Ann", 5, jail=True)
    place(g, "Ann", JAIL, jail=True)
    assert g.in_jail["Ann"] and g.current == "Bob"
    place(g, "Ann", JAIL)  # just visiting: out of jail
    assert not g.in_jail["Ann"]


def test_follow_mode_off_and_on_and_end_turn():
    """docs/rules.md: follow mode is a logged setting; off, the bank moves no token; `end_turn` passes the turn by hand
    and drops what was proposed."""
    g = follow_game()
    roll(g, 3, 5)
    move = g.push({"op": "end_turn"})
    assert g.pending is None and g.current == "Bob" and "dropped" in move.text
    g.push({"op": "follow", "on": False})
    with pytest.raises(Refused, match="Follow mode is off"):
        roll(g, 1, 2)
    with pytest.raises(Refused, match="already off"):
        g.push({"op": "follow", "on": False})
    g.push({"op": "buy", "player": "Bob", "space": 9})  # manual ops as always
    assert g.positions["Bob"] == 0
    g.push({"op": "follow", "on": True})
    roll(g, 1, 2)
    assert g.positions["Bob"] == 3


def two_doubles(g):
    """Ann throws doubles twice (1+1 to Community Chest, 5+5 to the Electric Company): one more is jail."""
    roll(g, 1, 1)
    settle(g, card=next(c.id for c in g.edition.cards.values() if c.deck == "chest" and c.kind == "collect"))
    roll(g, 5, 5)
    g.push({"op": "auction", "space": 12, "winner": None})
    assert g.current == "Ann" and g.doubles == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_follow_mode_off_and_on_keeps_the_doubles_of_the_turn(edition):
    """docs/rules.md: follow mode switched off and on again within a turn keeps its doubles (found by a probe: off
    and on reset the count, and a player who had thrown doubles twice threw a third without going to jail). Off, the
    count is not followed (0); on again, the turn resumes with its doubles, said in the log; undone, it is off again."""
    g = follow_game(edition)
    two_doubles(g)
    g.push({"op": "follow", "on": False})
    assert g.doubles == 0
    g.push({"op": "transfer", "from": "Bob", "to": "Ann", "amount": 10, "memo": "a bet"})  # manual ops as always
    on = g.push({"op": "follow", "on": True})
    assert g.current == "Ann" and g.doubles == 2 and "2 doubles" in on.text
    before = snap(g)
    g.pop()
    assert g.doubles == 0 and not g.follow
    g.push({"op": "follow", "on": True})
    assert snap(g) == before
    move = roll(g, 3, 3)  # the third doubles of the turn
    assert g.positions["Ann"] == JAIL and g.in_jail["Ann"] and g.current == "Bob"
    assert "third doubles" in move.text and g.doubles == 0


def test_follow_mode_on_again_after_the_turn_has_ended_has_no_doubles():
    """docs/rules.md: the doubles are the turn's: passed by hand (`end_turn`) or ended in jail (`place` with `jail`)
    while follow mode was off, the turn follow mode resumes has thrown none."""
    for ended in ({"op": "end_turn"}, {"op": "place", "player": "Ann", "space": JAIL, "jail": True}):
        g = follow_game()
        two_doubles(g)
        g.push({"op": "follow", "on": False})
        g.push(ended)
        on = g.push({"op": "follow", "on": True})
        assert g.doubles == 0 and "doubles" not in on.text, ended
        assert g.current == "Bob"  # in jail, the turn ended (test_follow_mode_on_again_after_a_roll_without_doubles...)
    g = follow_game()  # off and on with no doubles thrown: nothing to keep
    roll(g, 1, 2)
    g.push({"op": "follow", "on": False})
    # nothing to keep; that roll had no doubles, so its turn passes (the test below)
    assert [type(e).__name__ for e in g.push({"op": "follow", "on": True}).effects] == ["Follow", "Turn"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_follow_mode_on_again_after_a_roll_without_doubles_passes_the_turn(edition):
    """Found by the rules probe: Ann rolled 1 + 2 (Baltic Avenue, buy proposed), follow mode went off (the proposal
    dropped), the banker recorded the purchase by hand, and on again said "Ann rolls next": Ann would roll twice in
    one turn. US: "After he has completed his play, the turn to play passes to the left"; only doubles give another
    throw ("If you throw doubles, you move your token as usual ... and throw again"). On again, a turn whose roll had
    no doubles is over, and so is one whose player was put in jail meanwhile (follow mode itself passes the turn
    then): the next player rolls, and the entry says why. A roll with doubles still gives the roll again, with its
    doubles (test_follow_mode_off_and_on_keeps_the_doubles_of_the_turn)."""
    g = follow_game(edition)
    roll(g, 1, 2)  # Ann to Baltic Avenue: buy proposed, no doubles
    assert g.pending.kind == "buy" and g.current == "Ann"
    g.push({"op": "follow", "on": False})
    g.push({"op": "buy", "player": "Ann", "space": 3})
    on = g.push({"op": "follow", "on": True})
    assert g.current == "Bob" and g.doubles == 0
    if edition == "classic-us":
        assert on.text == "Follow mode on: Ann's roll this turn had no doubles, so the turn is over: Bob rolls next"
    assert "Bob" in Translator("ru").parts(on.parts) and "Bob" in Translator("uk").parts(on.parts)
    with pytest.raises(Refused, match="It is Bob's turn to roll, not Ann's"):
        roll(g, 1, 2, player="Ann")
    g.pop()
    assert not g.follow and g.turn == "Ann"  # undone: as it was
    g = follow_game(edition)  # off and on at once: the turn passes too, the dropped landing recorded by hand after
    roll(g, 1, 2)
    off = g.push({"op": "follow", "on": False})
    assert "dropped" in off.text or g.pending is None
    g.push({"op": "follow", "on": True})
    assert g.current == "Bob" and g.pending is None
    g.push({"op": "buy", "player": "Ann", "space": 3})
    assert g.current == "Bob"
    g = follow_game(edition)  # doubles: the same player rolls again, with the double kept
    roll(g, 1, 1)
    assert g.pending is not None and g.pending.kind == "card"
    g.push({"op": "follow", "on": False})
    on = g.push({"op": "follow", "on": True})
    assert g.current == "Ann" and g.doubles == 1 and "1 double" in on.text


def test_it_must_be_the_players_turn():
    g = follow_game()
    with pytest.raises(Refused, match="It is Ann's turn to roll, not Bob's"):
        roll(g, 1, 2, player="Bob")
    roll(g, 1, 2, player="ann")
    assert g.positions["Ann"] == 3


def test_bankrupt_players_are_skipped():
    """US: "A bankrupt player must immediately retire from the game"; the turn skips a bankrupt player."""
    g = follow_game(players=("Ann", "Bob", "Cid"))
    own(g, "Ann", 37, 39)
    for _ in range(5):
        for pos in (37, 39):
            top_up(g, "Ann", 400)
            g.push({"op": "build", "player": "Ann", "space": pos})
    g.push({"op": "end_turn"})
    place(g, "Bob", 35)
    roll(g, 1, 3)  # Bob to 39, hotel rent 2000
    settle(g)
    assert g.debts.get("Bob")
    g.push({"op": "bankrupt", "player": "Bob"})
    assert g.current == "Cid" and "Bob" in g.bankrupt
    roll(g, 1, 2)
    g.push({"op": "end_turn"})
    assert g.current == "Ann"


def test_a_roll_is_refused_while_a_debt_is_open():
    """docs/rules.md: the next roll waits while a debt is open (raise the cash or go bankrupt first)."""
    g = follow_game()
    place(g, "Ann", 35)
    g.push({"op": "transfer", "from": "Ann", "to": "bank", "amount": 1500, "memo": "drain"})
    roll(g, 1, 2)  # to 38, Luxury Tax 75
    settle(g)
    assert g.debts["Ann"] and g.current == "Bob"
    with pytest.raises(Refused, match="Ann owes"):
        roll(g, 1, 2)


def test_a_session_without_follow_mode_records_nothing_new():
    """Sessions created without --follow behave exactly as before: the manual ops make only the effects they always
    made (no token, turn or proposal effects)."""
    g = game_from_setup(Setup("classic-us", "classic", ("Ann", "Bob")))
    assert "follow" not in g.setup.to_mapping()
    moves = [g.push(c) for c in ({"op": "buy", "player": "Ann", "space": 1}, {"op": "salary", "player": "Bob"},
                                 {"op": "card", "player": "Bob", "card": "ch-go"}, {"op": "jail_fine", "player": "Bob"})]
    for move in moves:
        assert not any(isinstance(e, Position | InJail | Turn | Proposal) for e in move.effects)
    assert g.cash["Bob"] == 1500 + 200 + 200 - 50


def test_a_card_out_of_the_turns_order_moves_the_token_without_passing_the_turn():
    """A card recorded by hand for a player who has no card to draw still moves the token (follow mode follows the
    board), and the turn stays where it is (docs/rules.md)."""
    g = follow_game()
    place(g, "Cid", 7)
    g.push({"op": "card", "player": "Cid", "card": "ch-go"})
    assert g.positions["Cid"] == 0 and g.cash["Cid"] == 1700 and g.current == "Ann"
    with pytest.raises(Refused, match="passed_go"):
        g.push({"op": "card", "player": "Cid", "card": next(c.id for c in g.edition.cards.values()
                                                             if dict(c.effect) == {"type": "advance", "to": 24}),
                "passed_go": True})


def test_the_review_counts_landings_doubles_and_jail_time():
    """Issue #11: the review gains the landings per space (a heat map) and per player, the doubles and the jail
    time, from the logged effects alone (banker/rules/review.py)."""
    from banker.rules.effects import to_json
    from banker.rules.ops import encode
    from banker.rules.review import review

    g = follow_game(players=("Ann", "Bob"))
    roll(g, 3, 5)  # Ann to 8
    g.push({"op": "auction", "space": 8, "winner": None})
    roll(g, 2, 2)  # Bob to 4, doubles
    settle(g, choice="flat")
    place(g, "Bob", JAIL, jail=True)  # placed by hand: jailed, not a landing
    roll(g, 1, 2)  # Ann 8 -> 11
    g.push({"op": "auction", "space": 11, "winner": None})
    roll(g, 1, 2)  # Bob in jail: an attempt
    entries = [{"seq": i, "ts": "", "command": encode(m.command), "effects": to_json(m.effects), "parts": m.parts}
               for i, m in enumerate(g.history, 1)]
    r = review(follow_game(players=("Ann", "Bob")), entries)
    assert r.landings == {4: 1, 8: 1, 11: 1}
    assert r.player_landings == {"Ann": {8: 1, 11: 1}, "Bob": {4: 1}}
    assert r.doubles == {"Bob": 1} and r.jailed == {"Bob": 1} and r.jail_turns == {"Bob": 1}


def test_the_speed_die_counts_for_a_salary_paid_by_hand():
    """The Speed Die counts "after you pass GO for the first time" (uk-2008-speed-die-rules.md): a salary recorded by
    hand (or before follow mode was switched on) says the player has passed GO."""
    g = follow_game("uk", "speed-die")
    g.push({"op": "salary", "player": "Ann"})
    assert g.passed_go["Ann"] and not g.passed_go["Bob"]
    off = game_from_setup(Setup("uk", "speed-die", ("Ann", "Bob")))
    off.push({"op": "salary", "player": "Bob"})
    off.push({"op": "follow", "on": True})
    assert off.passed_go == {"Ann": False, "Bob": True}
