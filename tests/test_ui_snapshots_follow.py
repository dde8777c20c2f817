"""Snapshots of follow mode in the console (issue #11), in English and Russian: the table with whose turn it is,
every token, a player in jail, and the proposal of what a landing requires (the rent with its amount); the
review's board heat map. As in tests/test_ui_snapshots.py: plain ``def`` tests, cursors frozen; update after a
deliberate change with ``--snapshot-update`` and look at the SVG.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.screen import ModalScreen

from banker.ledger import Session
from banker.rules import Refused, Setup
from banker.ui.app import BankerApp

from .test_ui_snapshots import BOARD, NAME, PLAYERS, still, tab


def follow_game(tmp_path: Path, lang: str, commands: list[dict[str, Any]]) -> Path:
    path = tmp_path / "follow.json"
    with Session.create(path, Setup(BOARD[lang], "classic", PLAYERS[lang], follow=True), name=NAME[lang]) as s:
        for cmd in commands:
            s.apply(cmd)
    return path


def a_few_turns(players: tuple[str, ...]) -> list[dict[str, Any]]:
    """Ann buys the 8th space; Bob pays her rent, throws doubles three times and goes to jail; Cid buys the 3rd
    space, Dee the first railroad; Eve lands on Cid's deed: the rent is proposed."""
    a, b, c, d, _e = players
    return [{"op": "roll", "dice": [3, 5]}, {"op": "buy", "player": a, "space": 8},
            {"op": "roll", "dice": [4, 4]}, {"op": "rent", "payer": b, "space": 8},
            {"op": "roll", "dice": [6, 6]}, {"op": "roll", "dice": [5, 5]},
            {"op": "roll", "dice": [1, 2]}, {"op": "buy", "player": c, "space": 3},
            {"op": "roll", "dice": [2, 3]}, {"op": "buy", "player": d, "space": 5},
            {"op": "roll", "dice": [1, 2]}]


async def proposal_open(pilot) -> None:
    """Enter on the table: the proposal of what the landing requires."""
    await pilot.pause()
    await pilot.press("enter")
    for _ in range(50):
        await pilot.pause()
        if isinstance(pilot.app.screen, ModalScreen):
            break
    await still(pilot)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_table_in_follow_mode_with_a_proposal(snap_compare, tmp_path: Path, lang: str) -> None:
    """Whose turn (the bar, the card's border), every token's space, Bob in jail, the rent proposed with its
    amount: Enter pays it."""
    path = follow_game(tmp_path, lang, a_few_turns(PLAYERS[lang]))
    assert snap_compare(BankerApp(path, lang=lang), terminal_size=(100, 30), run_before=proposal_open)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_table_in_follow_mode_at_80x24(snap_compare, tmp_path: Path, lang: str) -> None:
    """The smallest terminal, five players: the turn bar and the tokens stay readable."""
    path = follow_game(tmp_path, lang, a_few_turns(PLAYERS[lang]))
    assert snap_compare(BankerApp(path, lang=lang), terminal_size=(80, 24), run_before=still)


def played(tmp_path: Path, lang: str, rolls: int = 150, seed: int = 11) -> Path:
    """A game followed for ``rolls`` rolls of seeded dice, each landing settled as proposed (cards by a seeded
    draw, the income tax flat, a deed the player cannot pay for left to the bank)."""
    rnd = random.Random(seed)
    path = tmp_path / "played.json"
    with Session.create(path, Setup(BOARD[lang], "classic", PLAYERS[lang][:4], follow=True), name=NAME[lang]) as s:
        done = 0
        while done < rolls:
            state = s.state
            due = state.pending
            if due is None:
                s.apply({"op": "roll", "dice": [rnd.randint(1, 6), rnd.randint(1, 6)]})
                done += 1
                continue
            cmd = dict(due.command)
            if "card" in due.needs:
                deck = sorted(c.id for c in state.edition.cards.values() if c.deck == due.deck and c.id not in state.jail_cards
                              and not c.choices)
                cmd["card"] = rnd.choice(deck)
            if "choice" in due.needs:
                cmd["choice"] = "flat"
            if "dice" in due.needs:
                cmd["dice"] = rnd.randint(2, 12)
            if "winner" in due.needs:
                cmd["winner"] = None
            try:
                s.apply(cmd)
            except Refused:
                s.apply({"op": "end_turn"})  # cannot pay as proposed (a debt, a deed too dear): the turn passes
            if s.state.over:
                break
    return path


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_review_board_heat_map(snap_compare, tmp_path: Path, lang: str) -> None:
    """The landings per space drawn on the board (GO at the bottom right), the most landed on in the middle; below,
    per player: landings, the space most landed on, doubles, times sent to jail, turns spent there."""
    app = BankerApp(played(tmp_path, lang), lang=lang, review=True)
    assert snap_compare(app, terminal_size=(100, 50), run_before=tab("6"))
