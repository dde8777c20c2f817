"""Follow mode in a real terminal (tmux, issue #11): a few turns typed as a banker types them, the session FILE
checked after each; and the keystrokes of each target of the issue COUNTED, from the idle table to the action
committed (the sequences are the ones docs/console.md gives).

The targets (issue #11, Acceptance): a roll that lands on another player's street, rent paid: at most 4 keys in
all; passing GO: no extra key; buying the deed landed on: at most 1 key after the roll; manual salary for the
current player: at most 2 keys.

tmux is a system tool: `.ci/run` installs it; without it these tests are skipped on a developer's machine and fail
under CI=true (tests/test_ui_terminal.py says it once for both).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from banker.ledger import Session
from banker.rules import Setup

from .test_ui_terminal import BANKER, Terminal
from .ui_helpers import file_entries, file_state

#: the sequences docs/console.md gives, key by key (tmux's key names)
RENT_KEYS = ["3", "5", "Enter", "Enter"]
ROLL_KEYS = ["1", "3", "Enter"]  # the roll alone; passing GO adds nothing
BUY_KEYS = ["Enter"]  # after the roll
SALARY_KEYS = ["s", "Enter"]
#: seconds to wait for the file to show an action: a deadline against a hang, not a speed claim
WAIT = 60.0


@pytest.fixture
def terminal(tmp_path: Path):
    term = Terminal(tmp_path)
    yield term
    term.kill_server()


def follow_session(path: Path, commands: list[dict]) -> Path:
    with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob", "Cid"), follow=True), name="friday") as s:
        for cmd in commands:
            s.apply(cmd)
    return path


def wait_entries(path: Path, n: int) -> list[dict]:
    """The file's entries once it has ``n`` (the action committed)."""
    deadline = time.monotonic() + WAIT
    entries = file_entries(path)
    while len(entries) < n and time.monotonic() < deadline:
        time.sleep(0.1)
        entries = file_entries(path)
    assert len(entries) >= n, f"the file has {len(entries)} entries, not {n}"
    return entries


class Counter:
    """Sends keys one at a time (as a banker presses them) and counts them."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.count = 0

    def press(self, *keys: str) -> None:
        for key in keys:
            self.terminal.keys(key)
            self.count += 1


def test_keystrokes_from_the_idle_table_to_the_action(tmp_path: Path, terminal: Terminal) -> None:
    # Bob owns Vermont Avenue; Ann (at GO) rolls first
    path = follow_session(tmp_path / "keys.json", [
        {"op": "place", "player": "Bob", "space": 8}, {"op": "buy", "player": "Bob", "space": 8}])
    terminal.start([*BANKER, "open", str(path), "--lang", "en"], tmp_path)
    terminal.wait_for("Last actions")
    terminal.wait_for("Ann")
    seen = len(file_entries(path))

    # 1. a roll onto another player's street, the rent paid: 3 5 Enter Enter
    keys = Counter(terminal)
    keys.press(*RENT_KEYS[:3])
    terminal.wait_for("Ann → Bob  $6")  # the proposal, with the amount
    keys.press(*RENT_KEYS[3:])
    entries = wait_entries(path, seen + 2)
    assert [e["command"]["op"] for e in entries[-2:]] == ["roll", "rent"]
    assert file_state(path)["players"]["Ann"]["cash"] == 1494
    assert keys.count == len(RENT_KEYS) <= 4
    seen = len(entries)
    terminal.wait_for("Bob rolls next")

    # 2. passing GO: Bob, placed on Park Place (37), rolls 1 3: GO passed, Mediterranean Avenue; the salary is in
    # the roll's own entry, with no key of its own
    terminal.keys("P")
    terminal.wait_for("type to filter")
    terminal.keys("Enter")  # Bob, whose turn it is, first
    terminal.type("park")
    terminal.keys("Enter")
    terminal.wait_for("Bob's token")
    terminal.keys("Enter")
    seen = len(wait_entries(path, seen + 1))
    before = file_state(path)["players"]["Bob"]["cash"]
    keys = Counter(terminal)
    keys.press(*ROLL_KEYS)
    entries = wait_entries(path, seen + 1)
    roll = entries[-1]
    assert roll["command"]["op"] == "roll" and "salary" in roll["text"]
    assert file_state(path)["players"]["Bob"]["cash"] == before + 200
    assert keys.count == len(ROLL_KEYS)  # the roll's keys, nothing for the salary
    seen = len(entries)

    # 3. buying the deed landed on: one key after the roll
    terminal.wait_for("Bob → Bank  $60")
    keys = Counter(terminal)
    keys.press(*BUY_KEYS)
    entries = wait_entries(path, seen + 1)
    assert entries[-1]["command"] == {"op": "buy", "player": "Bob", "space": 1}
    assert keys.count == len(BUY_KEYS) <= 1
    seen = len(entries)
    terminal.wait_for("Cid rolls next")

    # 4. a salary by hand for the player whose turn it is (Cid): s Enter
    keys = Counter(terminal)
    keys.press(SALARY_KEYS[0])
    terminal.wait_for("Bank → Cid")
    keys.press(*SALARY_KEYS[1:])
    entries = wait_entries(path, seen + 1)
    assert entries[-1]["command"] == {"op": "salary", "player": "Cid"}
    assert keys.count == len(SALARY_KEYS) <= 2


def test_a_few_turns_typed_fast_in_a_terminal(tmp_path: Path, terminal: Terminal) -> None:
    """The dice and Enter sent in one burst (faster than the roll's question opens): nothing is lost or taken as
    another action; then the proposal's Enter. The file is checked after each step."""
    path = follow_session(tmp_path / "turns.json", [])
    terminal.start([*BANKER, "open", str(path), "--lang", "en"], tmp_path)
    terminal.wait_for("Last actions")
    terminal.type("35")
    terminal.keys("Enter")
    terminal.wait_for("Ann → Bank  $100")
    state = file_state(path)
    assert state["players"]["Ann"]["position"] == 8 and state["pending"]["kind"] == "buy"
    terminal.keys("Enter")
    terminal.wait_for("Bob rolls next")
    assert file_state(path)["spaces"]["8"]["owner"] == "Ann"
    # Bob: 4 4, Vermont Avenue: the rent; doubles, Bob again
    terminal.type("4 4")
    terminal.keys("Enter")
    terminal.wait_for("Bob → Ann  $6")
    terminal.keys("Enter")
    terminal.wait_for("Bob rolls again")
    state = file_state(path)
    assert state["players"]["Bob"]["cash"] == 1494 and state["turn"] == "Bob" and state["doubles"] == 1
    # Bob: 1 2, St. Charles Place: left for later (Escape), then Enter on the table buys it
    terminal.type("12")
    terminal.keys("Enter")
    terminal.wait_for("Bob → Bank  $140")
    terminal.keys("Escape")
    terminal.wait_for("Left for later")
    assert file_state(path)["pending"]["kind"] == "buy"
    terminal.keys("Enter")
    terminal.wait_for("Bob → Bank  $140")
    terminal.keys("Enter")
    terminal.wait_for("Cid rolls next")
    state = file_state(path)
    assert state["spaces"]["11"]["owner"] == "Bob" and state["players"]["Bob"]["cash"] == 1354
    assert state["turn"] == "Cid" and state["pending"] is None
