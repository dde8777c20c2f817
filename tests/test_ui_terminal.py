"""The console in a real terminal (tmux): play a few actions with keys, kill the process
with SIGKILL, start it again, and find the same table.

tmux is a system tool: `.ci/run` installs it. Without it the test is skipped on a
developer's machine, and fails in CI (CI=true), so it can never be skipped there silently.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .ui_helpers import file_entries, file_state, make_session

TMUX = shutil.which("tmux")
if TMUX is None:
    if os.environ.get("CI"):
        raise RuntimeError("tmux is needed by tests/test_ui_terminal.py: `.ci/run` installs it with apt-get")
    pytest.skip("tmux is not installed (apt-get install tmux); CI installs it and runs this test",
                allow_module_level=True)

BANKER = [sys.executable, "-m", "banker"]
#: seconds to wait for the terminal to show something: a deadline against a hang, not a speed claim
WAIT = 60.0


class Terminal:
    """A tmux session of its own (its own server socket), 100x30."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.starts = 0
        self.socket = str(tmp / "tmux.sock")
        self.name = "banker"

    def tmux(self, *args: str, check: bool = True) -> str:
        done = subprocess.run([TMUX, "-S", self.socket, *args], capture_output=True, text=True, check=False)
        if check and done.returncode:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def start(self, command: list[str], cwd: Path) -> None:
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        line = "exec " + " ".join(_quote(c) for c in command)
        # each start has a server of its own: the server of a killed pane exits once its last session
        # closes, and a new client racing that exit on the same socket fails ("server exited unexpectedly")
        self.starts += 1
        self.socket = str(self.tmp / f"tmux{self.starts}.sock")
        subprocess.run([TMUX, "-S", self.socket, "new-session", "-d", "-s", self.name, "-x", "100", "-y", "30",
                        "-c", str(cwd), line], check=True, env=env)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name, check=False)

    def wait_for(self, text: str, timeout: float = WAIT) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared on the terminal; it shows:\n{screen}")

    def wait_until(self, ok, timeout: float = WAIT) -> str:
        """The screen once ``ok(screen)`` holds, or the last one seen (for the caller's assert)."""
        deadline = time.monotonic() + timeout
        screen = self.screen()
        while not ok(screen) and time.monotonic() < deadline:
            time.sleep(0.1)
            screen = self.screen()
        return screen

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.tmux("send-keys", "-t", self.name, *(["-l"] if literal else []), *keys)
        time.sleep(0.15)

    def type(self, text: str) -> None:
        self.keys(text, literal=True)

    def pid(self) -> int:
        return int(self.tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip())

    def wait_closed(self, timeout: float = WAIT) -> None:
        """Until the pane's process is gone (tmux closes the session with it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if subprocess.run([TMUX, "-S", self.socket, "has-session", "-t", self.name], capture_output=True).returncode:
                return
            time.sleep(0.1)
        raise AssertionError("the killed process's terminal is still open")

    def kill_server(self) -> None:
        self.tmux("kill-server", check=False)


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def table_part(screen: str) -> list[str]:
    """The table: everything above the message line (the players, the bank, the last actions)."""
    lines = screen.splitlines()
    return [line.rstrip() for line in lines[:-3]]


@pytest.fixture
def terminal(tmp_path: Path):
    term = Terminal(tmp_path)
    yield term
    term.kill_server()


def test_kill_and_restart_finds_the_same_table(tmp_path: Path, terminal: Terminal) -> None:
    path = make_session(tmp_path / "friday.json", name="friday")
    terminal.start([*BANKER, "open", str(path), "--lang", "en"], tmp_path)
    terminal.wait_for("Last actions")

    # buy Boardwalk with the dialogs: b, the player, the deed, confirm
    terminal.keys("b")
    terminal.wait_for("type to filter")  # the dialog is up (the footer always shows "Buy")
    terminal.type("ann")
    terminal.keys("Enter")
    terminal.type("boardw")
    terminal.keys("Enter")
    terminal.wait_for("Boardwalk → Ann")
    terminal.keys("Enter")
    terminal.wait_for("Ann buys Boardwalk for $400")
    # rent from the command line: the amount is the engine's
    terminal.keys(":")
    terminal.type("rent boardwalk bob")
    terminal.keys("Enter")
    terminal.wait_for("Bob → Ann")
    terminal.keys("Enter")
    terminal.wait_for("Bob pays Ann $50 rent on Boardwalk")
    terminal.keys("Escape")
    # a salary from the keys
    terminal.keys("s")
    terminal.wait_for("type to filter")
    terminal.type("cid")
    terminal.keys("Enter")
    terminal.wait_for("Bank → Cid")
    terminal.keys("Enter")
    before = terminal.wait_for("Cid collects $200 salary")
    assert "$1,150" in before and "$1,450" in before and "$1,700" in before

    # the power cut: SIGKILL, no chance to close or checkpoint
    os.kill(terminal.pid(), signal.SIGKILL)
    terminal.wait_closed()
    assert [e["command"]["op"] for e in file_entries(path)] == ["buy", "rent", "salary"]
    state = file_state(path)
    assert {p: v["cash"] for p, v in state["players"].items()} == {"Ann": 1150, "Bob": 1450, "Cid": 1700}

    # start again: the same table
    terminal.start([*BANKER, "open", str(path), "--lang", "en"], tmp_path)
    terminal.wait_for("Cid collects $200 salary")
    after = terminal.wait_until(lambda screen: table_part(screen) == table_part(before))
    assert table_part(after) == table_part(before)
