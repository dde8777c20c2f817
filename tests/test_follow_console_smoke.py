"""Issue #11: the new ops reach the console without a crash until its follow mode is built (the console helper's
work): the roll key asks for the dice and records the roll; the command line takes `roll 35`."""

from __future__ import annotations

from pathlib import Path

from banker.ledger import Session
from banker.rules import Setup
from banker.ui.app import BankerApp

from .ui_helpers import Banker, file_state


async def test_a_roll_from_the_key_and_from_the_command_line(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    with Session.create(game, Setup("classic-us", "classic", ("Ann", "Bob"), follow=True)):
        pass
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("3")
        await b.type(" 5")
        await b.key("enter")  # the roll is recorded; the proposal (buy) is shown: left for later here
        await b.settle()
        await b.key("escape")
        state = file_state(game)
        assert state["players"]["Ann"]["position"] == 8 and state["pending"]["kind"] == "buy"
        await b.command("buy ann vermont")
        await b.confirm()
        await b.command("roll 12")
        await b.settle()
        await b.key("escape")
        state = file_state(game)
        assert state["turn"] == "Bob" and state["players"]["Bob"]["position"] == 3 and state["pending"]["kind"] == "buy"
