"""Property-based tests: random command sequences on every edition and variant.

Invariants (README "Common to all" and the issue's acceptance list): money is conserved (players +
pot + the bank's ledger), the 32/12 building stock is conserved, no cash below zero, a refused
command changes nothing, undo after any command restores the state before it, and replaying the
log (undo entries included) gives the same state.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.boards import new_game
from banker.rules import Refused
from banker.rules.bankruptcy import preview
from banker.rules.effects import Debt, Pay
from banker.rules.legal import legal_actions, raise_cash_options

# every variant each rule book describes (the editions' `variants` lists; tests/test_boards.py checks them)
COMBOS = [("classic-us", "classic"), ("classic-us", "short"), ("classic-us", "timed"), ("uk", "classic"),
          ("uk", "speed-die"), ("ru", "classic"), ("ru", "short"), ("ru", "timed"), ("kyiv", "classic")]
#: in a test's log: the last move taken back (the session log's undo pops the engine)
UNDO = object()


def snapshot(g):
    return json.dumps(g.to_json(), sort_keys=True), len(g.history)


def check_invariants(g):
    assert g.money_total() == 0
    assert g.houses_out() + g.bank_houses == g.edition.houses
    assert g.hotels_out() + g.bank_hotels == g.edition.hotels
    assert all(c >= 0 for c in g.cash.values())
    assert g.bank_houses >= 0 and g.bank_hotels >= 0 and g.pot >= 0
    for lot in g.lots.values():
        assert not (lot.hotel and lot.houses)
        if lot.owner is None:
            assert not (lot.houses or lot.hotel or lot.mortgaged)
        if lot.mortgaged:
            assert not (lot.houses or lot.hotel)
    for p in g.bankrupt:
        assert g.cash[p] == 0 and not g.deeds_of(p) and p not in g.debts


def candidates(g, data):
    """Legal actions plus a sample of commands that may well be refused."""
    out = list(legal_actions(g))
    players = list(g.players)
    props = list(g.lots)
    ints = st.integers(min_value=-5, max_value=600)
    p, q = data.draw(st.sampled_from(players)), data.draw(st.sampled_from(players))
    pos = data.draw(st.sampled_from(props))
    out += [
        {"op": "rent", "payer": p, "space": pos, "dice": data.draw(st.integers(1, 16))},
        {"op": "rent", "payer": p, "space": pos, "card": data.draw(st.sampled_from(["nearest-railroad",
                                                                                    "nearest-utility"])),
         "dice": data.draw(st.integers(2, 12))},
        {"op": "tax", "player": p, "space": data.draw(st.sampled_from([4, 38])),
         "choice": data.draw(st.sampled_from(["flat", "percent", None]))},
        {"op": "card", "player": p, "card": data.draw(st.sampled_from(sorted(g.edition.cards))),
         "passed_go": data.draw(st.booleans())},
        {"op": "transfer", "from": p, "to": data.draw(st.sampled_from(players + ["bank"])),
         "amount": data.draw(ints), "memo": "x"},
        {"op": "sell_building", "player": p, "space": pos, "houses": data.draw(st.integers(0, 4))},
        {"op": "building_auction", "player": p, "space": pos, "bid": data.draw(ints)},
        {"op": "bankrupt", "player": p, "lift": data.draw(st.lists(st.sampled_from(props), max_size=2))},
        {"op": "jail_fine", "player": p},
        {"op": "deal", "player": p, "space": pos},
        {"op": "undo", "reason": "property test"},
        {"op": "undo", "reason": "property test"},
        {"op": "trade", "from": p, "to": q,
         "give": {"cash": data.draw(st.integers(0, 300)),
                  "spaces": data.draw(st.lists(st.sampled_from(g.deeds_of(p) or props), max_size=2, unique=True)),
                  "jail_cards": data.draw(st.integers(0, 1))},
         "get": {"spaces": data.draw(st.lists(st.sampled_from(g.deeds_of(q) or props), max_size=2, unique=True))},
         "lift": data.draw(st.lists(st.sampled_from(props), max_size=1)),
         "debt_credit": data.draw(st.integers(0, 100))},
    ]
    return [c for c in out if c["op"] != "end_game" or data.draw(st.integers(0, 30)) == 0]


@pytest.mark.parametrize("edition,variant", COMBOS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_sequences_keep_every_invariant(edition, variant, data):
    players = ("Ann", "Bob", "Cid", "Dee")[: data.draw(st.integers(2, 4))]
    g = new_game(edition, variant, players, {"free_parking_pot": data.draw(st.booleans())})
    log: list = []  # every accepted command, and UNDO for each move taken back, as the session log keeps them
    for _step in range(data.draw(st.integers(10, 60))):
        if g.over and not data.draw(st.booleans()):
            break
        cmd = data.draw(st.sampled_from(candidates(g, data)))
        before = snapshot(g)
        if cmd["op"] == "undo":  # the session log's undo: the engine pops the last move
            if g.history:
                g.pop()
                check_invariants(g)
                log.append(UNDO)
            continue
        try:
            move = g.push(cmd)
        except Refused:
            assert snapshot(g) == before, f"refused {cmd} changed the state"
            continue
        after = snapshot(g)
        check_invariants(g)
        # undo after any command restores the state before it; redoing gives the same again
        g.pop()
        assert snapshot(g) == before, f"undo of {cmd} did not restore the state"
        g.push(cmd)
        assert snapshot(g) == after
        log.append(move.command)
    replay = new_game(edition, variant, players, g.house_rules)
    for cmd in log:
        if cmd is UNDO:
            replay.pop()
        else:
            replay.push(cmd)
    assert snapshot(replay) == snapshot(g)


def rent_of(g, payer, pos):
    """The rent ``payer`` would pay on ``pos`` (applied and taken back), or 0 when it is refused."""
    try:
        move = g.preview({"op": "rent", "payer": payer, "space": pos})
    except Refused:
        return 0
    return sum(e.amount for e in move.effects if isinstance(e, Pay)) or max(
        (c.amount for c in g.debts.get(payer, [])), default=0)


def long_game_step(g, data):
    """One command of a long two-player game, steered so that it reaches buildings and debts: a debtor raises
    cash or goes bankrupt; else a build is made when one is legal; else a deed is bought (completing a group its
    buyer has begun, when one is begun); else the poorer player lands on the dearest lot of the other."""
    acts = list(legal_actions(g))
    debtors = [p for p in g.active_players if g.debts.get(p)]
    if debtors:
        p = debtors[0]
        raising = [a for a in acts if a.get("player") == p and a["op"] in ("sell_building", "mortgage", "bankrupt")]
        # issue #8 point 2: a debtor always has a legal way forward
        assert raising, f"{p} owes {g.debts[p]} and has no legal sale, mortgage or bankruptcy"
        return data.draw(st.sampled_from(raising))
    builds = [a for a in acts if a["op"] == "build"]
    if builds:
        return data.draw(st.sampled_from(builds))
    buys = [a for a in acts if a["op"] == "buy"]
    if buys:
        begun = [a for a in buys if any(g.lots[q].owner == a["player"]
                                        for q in g.group_positions(g.edition.spaces[a["space"]].group))]
        return data.draw(st.sampled_from(begun or buys))
    for payer in sorted(g.active_players, key=lambda p: (g.cash[p], p)):
        rents = [(rent_of(g, payer, a["space"]), a["space"]) for a in acts
                 if a["op"] == "rent" and a["payer"] == payer]
        if rents:
            return {"op": "rent", "payer": payer, "space": max(rents)[1]}
    return data.draw(st.sampled_from(acts))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_long_games_reach_buildings_and_debts(data):
    """Drive games far enough to exercise building, debts and bankruptcy (a sanity check that the random
    sequences above are not only trivial ones): every game gets a building and a debt, and legal_actions offers
    only what push accepts."""
    g = new_game("classic-us", "classic", ("Ann", "Bob"))
    built = debts = 0
    for _ in range(300):
        if g.over:
            break
        cmd = long_game_step(g, data)
        try:
            move = g.push(cmd)
        except Refused as e:  # legal_actions must only offer what push accepts
            raise AssertionError(f"legal_actions offered {cmd}, refused: {e}") from None
        check_invariants(g)
        built += cmd["op"] == "build"
        debts += any(isinstance(e, Debt) and e.new and not e.old for e in move.effects)
        if built and debts and g.over:
            break
    assert built, "no building was ever built"
    assert debts, "no debt was ever opened"


# ---------------------------------------------------------------- issue #8 point 2: the bank never deadlocks

BOB_GROUPS = [[6, 8, 9], [31, 32, 34], [16, 18, 19]]  # 36 houses' worth: Bob can take the bank's last house
ANN_GROUPS = [(1, 3), (11, 13, 14), (37, 39), (21, 23, 24)]


@st.composite
def indebted_game(draw, edition, variant):
    """A random state with an open debt: Ann holds random groups built evenly to random heights, a railroad
    perhaps, a few cash; Bob builds on his groups down to a random bank stock; then Ann owes rent, a tax or the
    jail fine she cannot pay."""
    g = new_game(edition, variant, ("Ann", "Bob", "Cid"))
    hbh = g.houses_before_hotel
    top_up = {"op": "transfer", "from": "bank", "amount": 100_000, "memo": "setup"}
    g.push({**top_up, "to": "Ann"})
    g.push({**top_up, "to": "Bob"})
    for lots in draw(st.lists(st.sampled_from(ANN_GROUPS), min_size=1, max_size=3, unique=True)):
        for pos in lots:
            g.push({"op": "buy", "player": "Ann", "space": pos})
        full = len(lots) * (hbh + 1)
        for _ in range(draw(st.one_of(st.sampled_from([full, full - 1, len(lots) * hbh]), st.integers(0, full)))):
            g.push({"op": "build", "player": "Ann", "space": min(lots, key=lambda p: (g.level(p), p))})
    for pos in draw(st.lists(st.sampled_from([5, 12, 15]), unique=True)):
        g.push({"op": "buy", "player": "Ann", "space": pos})
    for lots in BOB_GROUPS:
        for pos in lots:
            g.push({"op": "buy", "player": "Bob", "space": pos})
    keep = draw(st.one_of(st.sampled_from([0, 3, 4, 8]), st.integers(0, 32)))
    bob = [p for lots in BOB_GROUPS for p in lots]
    for _round in range(hbh):
        for pos in bob:
            if g.bank_houses > keep:
                g.push({"op": "build", "player": "Bob", "space": pos})
    debt = draw(st.sampled_from(["rent", "tax", "fine"]))
    if debt == "rent":
        charge = {"op": "rent", "payer": "Ann", "space": max(bob, key=lambda p: (g.level(p), p))}
    elif debt == "tax":
        charge = {"op": "tax", "player": "Ann", "space": 4}
        if g.edition.spaces[4].tax_percent:
            charge["choice"] = "flat"
    else:
        charge = {"op": "jail_fine", "player": "Ann"}
    amount = sum(e.amount for e in g.push(charge).effects if isinstance(e, Pay))
    g.pop()
    cash = draw(st.integers(0, min(amount - 1, 100)))
    g.push({"op": "transfer", "from": "Ann", "to": "bank", "amount": g.cash["Ann"] - cash, "memo": "setup"})
    g.push(charge)
    return g


@pytest.mark.parametrize("edition,variant", COMBOS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_debtor_can_always_raise_cash_or_go_bankrupt(edition, variant, data):
    """Issue #8 point 2, on every edition and variant: with a debt open, either a legal action raises cash or
    `bankrupt` is accepted; bankruptcy is accepted exactly when the most that can be raised is below the debt;
    and that figure (the one the state JSON, the raise-cash view and the bankruptcy preview report) is what a
    sequence of legal commands actually raises."""
    g = data.draw(indebted_game(edition, variant))
    debt = g.debt_total("Ann")
    assert debt > g.cash["Ann"]
    view = raise_cash_options(g, "Ann")
    can = view["max_raisable"]
    assert g.to_json()["players"]["Ann"]["debt"]["can_raise"] == can == preview(g, "Ann")["can_raise"]
    raising = [a for a in legal_actions(g, "Ann") if a["op"] in ("sell_building", "mortgage")]
    before = snapshot(g)
    try:
        g.push({"op": "bankrupt", "player": "Ann"})
        accepted = True
        g.pop()
    except Refused as e:
        assert e.rule == "bankrupt-avoidable"
        accepted = False
    assert accepted == (can < debt) == view["bankruptcy_unavoidable"]
    assert accepted or raising
    assert ({"op": "bankrupt", "player": "Ann"} in legal_actions(g, "Ann")) == accepted
    # the figure is reached by legal commands, one by one
    raised = 0
    for step in view["plan"]:
        cmd = {k: v for k, v in step.items() if k != "proceeds"}
        move = g.push(cmd)
        got = sum(e.amount for e in move.effects if isinstance(e, Pay) and e.src == "bank" and e.dst == "Ann")
        assert got == step["proceeds"]
        raised += got
        check_invariants(g)
    assert view["cash"] + raised == can
    assert ("Ann" in g.debts) == (can < debt)
    assert not [a for a in legal_actions(g, "Ann") if a["op"] in ("sell_building", "mortgage")]
    for _ in view["plan"]:
        g.pop()
    assert snapshot(g) == before
