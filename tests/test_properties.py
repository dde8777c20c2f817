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

from banker.rules import Refused, new_game
from banker.rules.legal import legal_actions

# every variant each rule book describes (the editions' `variants` lists; tests/test_boards.py checks them)
COMBOS = [("classic-us", "classic"), ("classic-us", "short"), ("classic-us", "timed"), ("uk", "classic"),
          ("uk", "speed-die"), ("ru", "classic"), ("ru", "short"), ("ru", "timed"), ("kyiv", "classic")]


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
    log = []  # every accepted command, undo entries included, as the session log keeps them
    for _step in range(data.draw(st.integers(10, 60))):
        if g.over and not data.draw(st.booleans()):
            break
        cmd = data.draw(st.sampled_from(candidates(g, data)))
        before = snapshot(g)
        try:
            move = g.push(cmd)
        except Refused:
            assert snapshot(g) == before, f"refused {cmd} changed the state"
            continue
        after = snapshot(g)
        check_invariants(g)
        if cmd["op"] != "undo":
            # undo after any command restores the state before it; redoing gives the same again
            g.pop()
            assert snapshot(g) == before, f"undo of {cmd} did not restore the state"
            g.push(cmd)
            assert snapshot(g) == after
        log.append(move.command)
    replay = new_game(edition, variant, players, g.house_rules)
    for cmd in log:
        replay.push(cmd)
    assert snapshot(replay) == snapshot(g)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_long_games_reach_buildings_and_debts(data):
    """Drive games far enough to exercise building, debts and bankruptcy (a sanity check that the random
    sequences above are not only trivial ones)."""
    g = new_game("classic-us", "classic", ("Ann", "Bob"))
    for _ in range(150):
        if g.over:
            break
        acts = list(legal_actions(g))
        builds = [a for a in acts if a["op"] in ("build", "buy", "rent", "bankrupt")]
        cmd = data.draw(st.sampled_from(builds or acts))
        try:
            g.push(cmd)
        except Refused as e:  # legal_actions must only offer what push accepts
            raise AssertionError(f"legal_actions offered {cmd}, refused: {e}") from None
        check_invariants(g)
