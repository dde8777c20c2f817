"""Issue #13: counting the table (the ``count`` op). The bank holds the houses and hotels "prior to purchase"
(us-classic-rules.txt, THE BANK: "Besides the Bank's money, the Bank holds the Title Deed cards and houses and
hotels prior to purchase and use by the players"); a count compares what is on the table with the bank's figures,
moves nothing, and is recorded with every difference."""

from __future__ import annotations

import pytest

from banker.boards import new_game
from banker.ledger import Session
from banker.rules import Refused, Setup
from banker.rules.count import differences, expected, sources


def game():
    g = new_game("classic-us", "classic", ["Ann", "Bob"])
    for cmd in ({"op": "buy", "player": "Ann", "space": 1}, {"op": "buy", "player": "Ann", "space": 3},
                {"op": "build", "player": "Ann", "space": 1}):
        g.push(cmd)
    return g


def test_a_count_that_agrees_moves_nothing():
    g = game()
    before = g.to_json()
    move = g.push({"op": "count", "houses": 31, "hotels": 12, "deeds": {"Ann": 2, "Bob": 0}, "cash": {"Bob": 1500}})
    assert move.effects == [] and move.info == {"counted": 5, "differences": []}
    assert move.text == "The table is counted: all 5 figures counted agree with the bank's"
    assert {k: v for k, v in g.to_json().items() if k != "actions"} == {k: v for k, v in before.items() if k != "actions"}


def test_each_difference_is_recorded_and_said():
    g = game()
    move = g.push({"op": "count", "houses": 32, "deeds": {"ann": 1}, "cash": {"Ann": 1300}})
    assert move.info["differences"] == [
        {"figure": "houses", "player": None, "counted": 32, "expected": 31},
        {"figure": "deeds", "player": "Ann", "counted": 1, "expected": 2},
        {"figure": "cash", "player": "Ann", "counted": 1300, "expected": 1330}]
    assert move.text == ("The table is counted: 3 differences (houses in the bank: 32 counted, 31 by the bank's figures, "
                         "Ann's deeds: 1 counted, 2 by the bank's figures, Ann's cash: $1,300 counted, $1,330 by the "
                         "bank's figures)")
    assert [d.figure for d in differences(g, [("hotels", None, 11)])] == ["hotels"] and expected(g, "hotels") == 12


@pytest.mark.parametrize("cmd,message", [
    ({"op": "count"}, "give at least one figure"),
    ({"op": "count", "houses": -1}, '"houses" must be at least 0'),
    ({"op": "count", "deeds": {"Ann": -2}}, '"deeds.Ann" must be at least 0'),
    ({"op": "count", "deeds": [2]}, '"deeds" is a number for each player'),
    ({"op": "count", "cash": {"Zed": 5}}, 'Unknown player "Zed"'),
    ({"op": "count", "deeds": {"Ann": 1, "ANN": 1}}, "Ann is named twice"),
    ({"op": "count", "houses": 3, "rent": 1}, 'unknown key'),
])
def test_a_count_that_is_not_one_is_refused(cmd, message):
    with pytest.raises(Refused, match=message):
        game().push(cmd)


def test_the_entries_behind_a_figure(tmp_path):
    """What explains the bank's figure: the standing entries that changed it (an undone entry and its undo do not)."""
    with Session.create(tmp_path / "g.json", Setup("classic-us", "classic", ("Ann", "Bob"))) as s:
        for cmd in ({"op": "buy", "player": "Ann", "space": 1}, {"op": "buy", "player": "Ann", "space": 3},
                    {"op": "build", "player": "Ann", "space": 1}, {"op": "build", "player": "Ann", "space": 3},
                    {"op": "undo", "reason": "wrong lot"}, {"op": "trade", "from": "Ann", "to": "Bob",
                                                             "give": {"cash": 10}, "get": {"cash": 5}}):
            s.apply(cmd)
        entries = [e.to_json() for e in s.entries]
        assert [(x.seq, x.change) for x in sources(entries, "houses")] == [(3, -1)]
        assert [(x.seq, x.change, x.space) for x in sources(entries, "deeds", "Ann")] == [(1, 1, 1), (2, 1, 3)]
        assert [(x.seq, x.change) for x in sources(entries, "cash", "Bob")] == [(6, 5)]
        # the count is an entry like any other: undone with a reason, replayed, audited
        s.apply({"op": "count", "houses": 30})
        s.apply({"op": "undo", "reason": "counted the box twice"})
        assert s.replay_check() == []
