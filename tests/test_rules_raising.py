"""Raising cash: the most a debtor can raise is what a legal sequence of sales and mortgages raises
(the bank's house stock included), and a debtor who cannot cover the debt may always go bankrupt."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.rules import Refused
from banker.rules.bankruptcy import preview
from banker.rules.legal import legal_actions, raise_cash_options
from banker.rules.ops import Mortgage, SellBuilding
from banker.rules.raising import max_raisable, raise_plan, raised_by

from .rules_helpers import BROWN, EDITIONS, GREEN, ORANGE, drain, game, own, top_up

BOB_LOTS = [6, 8, 9] + GREEN + ORANGE  # 9 lots: 36 houses' worth, more than the bank has


def hotels_on(g, player, lots):
    """``player`` owns ``lots`` (a whole group) and puts a hotel on each, evenly."""
    own(g, player, *lots)
    top_up(g, player, 2000)
    for _ in range(g.houses_before_hotel + 1):
        for pos in lots:
            g.push({"op": "build", "player": player, "space": pos})
    assert all(g.lots[p].hotel for p in lots)


def bank_keeps(g, houses):
    """Bob builds on three groups until the bank has only ``houses`` houses."""
    own(g, "Bob", *BOB_LOTS)
    top_up(g, "Bob", 50_000)
    for _round in range(4):
        for pos in BOB_LOTS:
            if g.bank_houses > houses:
                g.push({"op": "build", "player": "Bob", "space": pos})
    assert g.bank_houses == houses


def owes_tax(g, player, cash=0):
    """``player`` keeps ``cash`` and lands on the first tax space (200 in every edition, the flat choice)."""
    drain(g, player, cash)
    g.push({"op": "tax", "player": player, "space": 4, **({"choice": "flat"} if g.edition.spaces[4].tax_percent else {})})
    assert g.debt_total(player) == 200


def play_plan(g, player):
    """Push the plan's steps; returns what they raised (then the caller pops them)."""
    plan = raise_plan(g, player)
    raised = 0
    for cmd, amount in zip(plan.steps, plan.proceeds, strict=True):
        move = g.push(cmd)
        assert raised_by(move, player) == amount
        raised += amount
    return plan, raised


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
def test_hotels_the_bank_cannot_take_back_do_not_block_bankruptcy(edition):
    """Issue #8 point 2, the deadlock: UK/Kyiv hotels are "sold for half the listed price and immediately
    exchanged for 4 houses" (uk-2008 "SELL BUILDINGS"; ua-kyiv "Готелі продаються за половину ... та
    замінюються на 4 будинки"), so with no houses in the bank they cannot be sold, the group cannot be
    mortgaged ("You must sell all buildings on a color group to the Bank before you can mortgage one of
    its sites"), and "If you still don't have enough money, you are BANKRUPT" — the bankruptcy must be
    accepted (it was refused: "Ann can still raise £310")."""
    g = game(edition)
    hotels_on(g, "Ann", BROWN)
    bank_keeps(g, 0)
    owes_tax(g, "Ann")
    refused = []
    for cmd in ({"op": "sell_building", "player": "Ann", "space": 1},
                {"op": "sell_building", "player": "Ann", "space": 3, "all": True},
                {"op": "mortgage", "player": "Ann", "space": 1},
                {"op": "end_game"}):
        with pytest.raises(Refused) as e:
            g.push(cmd)
        refused.append(e.value.rule)
    assert refused == ["hotel-sale-stock", "hotel-sale-stock", "mortgage-buildings", "end-debt"]
    assert max_raisable(g, "Ann") == 0
    assert g.to_json()["players"]["Ann"]["debt"]["can_raise"] == 0
    view = raise_cash_options(g, "Ann")
    assert view["bankruptcy_unavoidable"] and not view["sales"] and not view["mortgages"] and not view["plan"]
    assert {"op": "bankrupt", "player": "Ann"} in list(legal_actions(g, "Ann"))
    assert preview(g, "Ann")["refused"] is None
    move = g.push({"op": "bankrupt", "player": "Ann"})
    assert f"could raise only {g.edition.fmt(0)}" in move.text
    assert "Ann" in g.bankrupt and g.bank_hotels == 12 and g.pending_auction == set(BROWN)


@pytest.mark.parametrize("edition", ["classic-us", "ru"])
def test_us_and_ru_hotels_can_always_go_back(edition):
    """The same table in the US and RU: a US hotel "equals five houses" and comes down to what the bank has
    (nothing: it goes back whole); an RU hotel is sold whole with its houses ("Банк платит Вам половину
    стоимости Отеля плюс половину стоимости четырех Домов") — so the figure counts them, it is reached
    by legal commands, and bankruptcy stays refused."""
    g = game(edition)
    hotels_on(g, "Ann", BROWN)
    bank_keeps(g, 0)
    owes_tax(g, "Ann")
    assert max_raisable(g, "Ann") == 2 * 5 * 25 + 30 + 30
    with pytest.raises(Refused) as e:
        g.push({"op": "bankrupt", "player": "Ann"})
    assert e.value.rule == "bankrupt-avoidable"
    plan, raised = play_plan(g, "Ann")
    assert raised == 310 and "Ann" not in g.debts and g.cash["Ann"] == 110
    assert all(g.lots[p].mortgaged for p in BROWN)


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
def test_selling_houses_elsewhere_first_lets_the_hotels_go(edition):
    """uk-2008: hotels are "exchanged for 4 houses", and "Houses must be sold evenly": with no houses in the
    bank, Ann's eight houses on the light blues go back first, and then the bank has the houses the two brown
    hotels are exchanged for, one after the other; the figure counts the whole sequence, and the sequence
    really raises it. With only four houses to give back, one hotel could go and the other not."""
    g = game(edition)
    hotels_on(g, "Ann", BROWN)
    own(g, "Ann", 6, 8, 9)
    for pos in (6, 8, 9, 6, 8, 9, 6, 8):
        g.push({"op": "build", "player": "Ann", "space": pos})
    own(g, "Bob", *GREEN, *ORANGE, 11, 13, 14)
    top_up(g, "Bob", 50_000)
    for _round in range(4):
        for pos in [*GREEN, *ORANGE, 11, 13, 14]:
            if g.bank_houses:
                g.push({"op": "build", "player": "Bob", "space": pos})
    assert g.bank_houses == 0
    owes_tax(g, "Ann")
    buildings = 2 * 5 * 25 + 8 * 25
    mortgages = 30 + 30 + 50 + 50 + 60
    assert max_raisable(g, "Ann") == buildings + mortgages
    plan = raise_plan(g, "Ann")
    assert plan.steps[0] == SellBuilding(player="Ann", space=6, all=True)
    _plan, raised = play_plan(g, "Ann")
    assert raised == buildings + mortgages
    assert not any(g.level(p) for p in BROWN + [6, 8, 9]) and g.bank_houses == 8
    for _ in plan.steps:
        g.pop()
    g.push({"op": "sell_building", "player": "Ann", "space": 6})  # four houses fewer to give back
    for pos in (8, 9, 6):
        g.push({"op": "sell_building", "player": "Ann", "space": pos})
    g.push({"op": "build", "player": "Bob", "space": 31})
    g.push({"op": "build", "player": "Bob", "space": 32})
    g.push({"op": "build", "player": "Bob", "space": 34})
    g.push({"op": "build", "player": "Bob", "space": 16})
    assert g.bank_houses == 0 and sum(g.lots[p].houses for p in (6, 8, 9)) == 4
    assert max_raisable(g, "Ann") == g.cash["Ann"] + 4 * 25 + 25 + 50 + 50 + 60


def hotels_and_rent_to_cid(edition: str, houses: int):
    """Ann with a hotel on each brown, no cash, and ``houses`` in the bank, after Mayfair's rent (50) to Cid."""
    g = game(edition)
    hotels_on(g, "Ann", BROWN)
    own(g, "Cid", 39)
    top_up(g, "Cid", 1000)
    bank_keeps(g, houses)
    drain(g, "Ann", 0)
    g.push({"op": "rent", "payer": "Ann", "space": 39})  # 50 to Cid
    return g


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
def test_what_part_of_a_hotel_group_can_raise(edition):
    """With four houses in the bank one brown hotel can be exchanged (+£25), and then the other one can't:
    the figure counts the one exchange and no mortgage; bankruptcy for a debt of 200 is accepted, and the
    creditor — a player — receives what was raised and the deeds with the building that could not be sold
    ("Pay whatever money you were able to raise", uk-2008 "HELP! I'M IN DEBT!")."""
    g = hotels_and_rent_to_cid(edition, houses=4)
    assert max_raisable(g, "Ann") == 25
    cid = g.cash["Cid"]
    move = g.push({"op": "bankrupt", "player": "Ann"})
    assert g.cash["Cid"] == cid + 25
    assert [g.lots[p].owner for p in BROWN] == ["Cid", "Cid"]
    assert sorted((g.lots[p].hotel, g.lots[p].houses) for p in BROWN) == [(False, 4), (True, 0)]
    assert g.bank_houses == 0 and g.money_total() == 0
    assert "could raise only" in move.text


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_raise_cash_view_names_the_buildings_that_cannot_be_sold(edition):
    """A UK/Kyiv hotel with fewer than 4 houses in the bank cannot be sold ("immediately exchanged for 4 houses",
    uk-2008): the view lists it with the engine's reason (``blocked``) rather than nothing; a US hotel breaks down
    into the houses the bank has and an RU hotel is sold whole, so nothing is blocked there."""
    g = game(edition)
    hotels_on(g, "Ann", BROWN)
    bank_keeps(g, 2)
    owes_tax(g, "Ann", cash=0)
    view = raise_cash_options(g, "Ann")
    blocked = [(b["space"], b["refused"].rule) for b in view["blocked"]]
    if g.edition.rules.hotel_sale == "exchange":
        assert blocked == [(p, "hotel-sale-stock") for p in BROWN] and not view["sales"]
    else:
        assert blocked == [] and view["sales"]


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
def test_a_hotel_that_goes_with_its_deed_is_named(edition):
    """The rules probe: a UK bankruptcy to a player with two brown hotels and 2 houses in the bank said only "Old Kent
    Road, Whitechapel Road go to Bob", and a banker moving the pieces by hand would put the hotels back in the box.
    uk-2008 "HELP! I'M IN DEBT!": "Pay whatever money you were able to raise ... give them all your ... properties";
    a hotel the bank cannot exchange ("Hotels are sold ... and are immediately exchanged for 4 houses") stays on its
    deed, and the log says so, in every language."""
    from banker.i18n import Translator

    g = hotels_and_rent_to_cid(edition, houses=2)
    move = g.push({"op": "bankrupt", "player": "Ann"})
    assert all(g.lots[p].hotel and g.lots[p].owner == "Cid" for p in BROWN)
    names = [g.edition.spaces[p].name for p in BROWN]
    en = Translator("en").parts(move.parts)
    assert f"what stands on them goes to Cid with the deeds ({names[0]}: a hotel, {names[1]}: a hotel)" in en, en
    assert "переходят игроку Cid вместе с участками" in Translator("ru").parts(move.parts)
    assert "переходять гравцеві Cid разом із ділянками" in Translator("uk").parts(move.parts)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_figure_is_the_old_one_when_everything_can_be_sold(edition):
    """With houses in the bank nothing changes: half of every building and every mortgage value."""
    g = game(edition)
    hotels_on(g, "Ann", BROWN)
    own(g, "Ann", 5)
    owes_tax(g, "Ann", cash=20)
    assert max_raisable(g, "Ann") == 20 + 250 + 60 + 100
    _plan, raised = play_plan(g, "Ann")
    assert raised == 410 and g.cash["Ann"] == 20 + 410 - 200


def test_nothing_is_raised_after_the_end():
    """After the end only undo is accepted (docs/rules.md): nothing can be raised then."""
    g = game()
    own(g, "Ann", 5)
    g.push({"op": "end_game"})
    assert max_raisable(g, "Ann") == g.cash["Ann"] and not raise_plan(g, "Ann").steps


# ---------------------------------------------------------------- the plan is the most there is


def legal(g, cmd) -> bool:
    try:
        g.preview(cmd)
    except Refused:
        return False
    return True


def best_by_search(g, player):
    """The most any sequence of legal sales raises, by trying every sale (each hotel to every number of
    houses, whole groups) from every state, plus the mortgages legal at the end (mortgages never change
    what can be sold: a group with a mortgage has no buildings and gets none while raising cash)."""
    hbh = g.houses_before_hotel
    memo: dict = {}

    def key():
        return tuple((p, g.lots[p].houses, g.lots[p].hotel) for p in sorted(g.deeds_of(player))), g.bank_houses

    def best():
        k = key()
        if k in memo:
            return memo[k]
        result = sum(g.edition.spaces[p].mortgage for p in g.deeds_of(player) if legal(g, Mortgage(player=player, space=p)))
        for pos in g.deeds_of(player):
            if g.edition.spaces[pos].kind != "street" or not g.level(pos):
                continue
            options = [{}, {"all": True}] + ([{"houses": n} for n in range(hbh + 1)] if g.lots[pos].hotel else [])
            for extra in options:
                try:
                    move = g.push({"op": "sell_building", "player": player, "space": pos, **extra})
                except Refused:
                    continue
                result = max(result, raised_by(move, player) + best())
                g.pop()
        memo[k] = result
        return result

    return best()


GROUPS = {"brown": [1, 3], "pink": [11, 13, 14], "dark_blue": [37, 39]}


@st.composite
def holdings(draw, edition, variant="classic"):
    """Ann: up to two groups built evenly to random heights (hotels included) and a railroad; Bob takes the
    bank's houses down to a random stock."""
    g = game(edition, variant, players=("Ann", "Bob"))
    names = draw(st.sampled_from([("brown", "dark_blue"), ("dark_blue", "pink"), ("brown", "pink"), ("pink",),
                                  ("brown",)]))
    top_up(g, "Ann", 10_000)
    hbh = g.houses_before_hotel
    for name in names:
        lots = GROUPS[name]
        own(g, "Ann", *lots)
        full = len(lots) * (hbh + 1)  # a hotel on every lot
        # the interesting heights often: hotels everywhere, one hotel short, one hotel, houses only
        interesting = st.sampled_from([full, full - 1, len(lots) * hbh + 1, len(lots) * hbh])
        height = draw(st.one_of(interesting, interesting, st.integers(0, full)))
        for _ in range(height):
            lowest = min(lots, key=lambda p: (g.level(p), p))
            g.push({"op": "build", "player": "Ann", "space": lowest})
    if draw(st.booleans()):
        own(g, "Ann", 5)
    keep = draw(st.one_of(st.sampled_from([0, 4, 8]), st.sampled_from([3, 7]), st.integers(0, 12)))
    own(g, "Bob", *BOB_LOTS)
    top_up(g, "Bob", 50_000)
    for _round in range(g.houses_before_hotel):
        for pos in BOB_LOTS:
            if g.bank_houses > keep:
                g.push({"op": "build", "player": "Bob", "space": pos})
    drain(g, "Ann", draw(st.integers(0, 50)))
    return g


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
def test_a_group_that_can_be_sold_whole_goes_before_a_dearer_one_that_cannot(edition):
    """Two dark-blue hotels need eight houses in the bank to be exchanged one after the other; a pink group with
    one hotel needs four, and gives back twelve. With four in the bank, exchanging a dark-blue hotel first (the
    dearest sale) would leave nothing else to sell; selling the pinks first lets everything go."""
    g = game(edition, players=("Ann", "Bob"))
    top_up(g, "Ann", 10_000)
    own(g, "Ann", 37, 39, 11, 13, 14)
    for pos in [37, 39] * 5 + [11, 13, 14] * 4 + [11]:
        g.push({"op": "build", "player": "Ann", "space": pos})
    bank_keeps(g, 4)
    plan = raise_plan(g, "Ann")
    assert plan.steps[0] == SellBuilding(player="Ann", space=11, all=True)
    assert plan.total == 10 * 100 + 13 * 50 + (70 + 70 + 80) + (175 + 200) == best_by_search(g, "Ann")


def check_plan_against_search(g):
    before = g.to_json()
    plan = raise_plan(g, "Ann")
    assert plan.total == best_by_search(g, "Ann")
    _plan, raised = play_plan(g, "Ann")
    assert raised == plan.total
    for _ in plan.steps:
        g.pop()
    assert g.to_json() == before


@pytest.mark.parametrize("edition", ["uk", "kyiv"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_plan_raises_as_much_as_any_sequence_where_hotels_need_houses(edition, data):
    """raise_plan against an exhaustive search of every sequence of legal sales on small states (two groups,
    any heights, any house stock) where a hotel is sold only by exchanging it for houses: it raises exactly
    the most there is, and its steps do raise it (the order matters here: see the module docstring of
    banker.rules.raising)."""
    check_plan_against_search(data.draw(holdings(edition)))


@pytest.mark.parametrize("edition,variant", [("classic-us", "classic"), ("classic-us", "short"), ("ru", "classic"),
                                             ("ru", "short")])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_plan_raises_as_much_as_any_sequence(edition, variant, data):
    """The same where a hotel can always go back (US: broken down to what the bank has, RU: sold whole)."""
    check_plan_against_search(data.draw(holdings(edition, variant)))
