"""Issue #11, property-based: random games in follow mode, rolls and settlements, on every edition and variant.

Invariants: every token stays on the board (0-39); money (players + pot + the bank's ledger) and the 32/12
building stock are conserved; a refused command changes nothing; undo of any move (a roll included) restores
the state before it; replaying the commands gives the same state; a token in jail stands on the Jail space and
moves only as the jail rules say (doubles, the fine or a card, the fine due after the last failed attempt) or
when the banker places it.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.boards import game_from_setup
from banker.rules import HouseRules, Refused, Setup
from banker.rules.effects import InJail, Position
from banker.rules.ops import JailCard, JailFine, Place, Roll
from banker.rules.turns import jail_position
from tests.test_properties import COMBOS, check_invariants


def snapshot(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def next_command(g, data) -> dict:
    """What a table might do next: mostly what the bank proposes, else a roll, sometimes something by hand."""
    d = st.integers(1, 6)
    due = g.pending
    players = list(g.active_players)
    choice = data.draw(st.integers(0, 19))
    if due is not None and choice < 16:
        cmd = dict(due.command)
        if due.kind in ("buy", "advance") and cmd["op"] == "buy" and choice % 3 == 0:
            return {"op": "auction", "space": due.space, "winner": None}
        if "choice" in due.needs:
            cmd["choice"] = data.draw(st.sampled_from(["flat", "percent"]))
        if "card" in due.needs:
            deck = due.deck or "chance"
            cards = sorted(c.id for c in g.edition.cards.values() if c.deck == deck)
            cmd["card"] = data.draw(st.sampled_from(cards))
            card = g.edition.cards[cmd["card"]]
            if card.choices:
                cmd["choice"] = data.draw(st.sampled_from(card.choices))
        if "dice" in due.needs:
            cmd["dice"] = data.draw(st.integers(2, 12))
        if "winner" in due.needs:
            cmd["winner"] = None
        return cmd
    if choice < 17:
        cmd: dict = {"op": "roll", "dice": [data.draw(d), data.draw(d)]}
        if g.variant.speed_die:
            speed = data.draw(st.sampled_from([1, 2, 3, "bus", "mr-monopoly"]))
            cmd["speed"] = speed
            a, b = cmd["dice"]
            if speed == "bus":
                cmd["move"] = data.draw(st.sampled_from([a, b, a + b]))
            if a == b == speed:
                cmd["to"] = data.draw(st.integers(0, 39))
        return cmd
    p = data.draw(st.sampled_from(players))
    return data.draw(st.sampled_from([
        {"op": "jail_fine", "player": p},
        {"op": "place", "player": p, "space": data.draw(st.integers(0, 39))},
        {"op": "place", "player": p, "jail": True},
        {"op": "end_turn"},
        {"op": "undo"},
    ]))


def check_jail(g, before_jail: dict[str, bool], cmd: dict, move) -> None:
    jail = jail_position(g)
    for p, jailed in g.in_jail.items():
        if jailed:
            assert g.positions[p] == jail, p
    typed = move.command
    for e in move.effects:
        if isinstance(e, Position) and before_jail.get(e.player) and e.by != "jail":
            left = any(isinstance(x, InJail) and x.player == e.player and not x.new for x in move.effects)
            assert isinstance(typed, Place) or (left and isinstance(typed, Roll | JailFine | JailCard)), (cmd, e)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combo=st.sampled_from(COMBOS), data=st.data())
def test_random_games_in_follow_mode_keep_every_invariant(combo, data):
    edition, variant = combo
    players = ("Ann", "Bob", "Cid")
    rules = HouseRules(go_landing_bonus=data.draw(st.booleans()), free_parking_pot=data.draw(st.booleans()))
    g = game_from_setup(Setup(edition, variant, players, rules, follow=True))
    history: list[dict] = []
    if g.variant.speed_die:  # the Speed Die counts after passing GO: start the tokens near it
        for p in players:
            history.append({"op": "place", "player": p, "space": data.draw(st.integers(31, 39))})
            g.push(history[-1])
    for _ in range(data.draw(st.integers(5, 60))):
        if g.over:
            break
        cmd = next_command(g, data)
        if cmd["op"] == "undo":
            if history:
                g.pop()
                history.pop()
            continue
        before = snapshot(g)
        jailed = dict(g.in_jail)
        try:
            move = g.push(cmd)
        except Refused:
            assert snapshot(g) == before, cmd
            continue
        history.append(cmd)
        check_invariants(g)
        assert all(0 <= pos < 40 for pos in g.positions.values())
        check_jail(g, jailed, cmd, move)
        assert g.pending is None or g.pending.player in g.active_players
        assert g.current is None or g.current in g.active_players
        # undo of this move (a roll and all it caused) restores the state before it
        after = snapshot(g)
        g.pop()
        assert snapshot(g) == before, cmd
        g.push(cmd)
        assert snapshot(g) == after
    # replaying the commands gives the same state
    replay = game_from_setup(Setup(edition, variant, players, rules, follow=True))
    for cmd in history:
        replay.push(cmd, replay=True)
    assert snapshot(replay) == snapshot(g)
    # and so do the logged effects alone (how a session opens)
    opened = game_from_setup(Setup(edition, variant, players, rules, follow=True))
    for move in g.history:
        opened.push_effects(move.command, move.effects, move.parts, move.info)
    assert snapshot(opened) == snapshot(g)
