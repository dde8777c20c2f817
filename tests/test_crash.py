"""Crash safety: a writer killed with SIGKILL at random instants never loses an
acknowledged action and never leaves a torn session.

A child process opens the session and applies actions in a loop, printing each seq
after ``apply()`` returned (the acknowledgement). The parent kills it at a random
moment, sometimes in rounds where the child checkpoints every other action (so many
kills land inside a checkpoint), then checks the files: they open as a valid
session holding every acknowledged seq (at most one more), and replaying the stored
commands afresh gives the same state. Set CRASH_SEED to replay a run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from banker.ledger import Session, journal_path
from banker.rules import Setup, game_from_setup

ROOT = Path(__file__).resolve().parent.parent
SETUP = Setup("classic-us", "classic", ("Ann", "Bob", "Cid"))
ROUNDS = 30
TIME_BUDGET = 40.0  # seconds; the rounds stop early (after at least 10) past it

CHILD = r"""
import sys
from banker.ledger import Session
from banker.rules import Refused

path, every = sys.argv[1], int(sys.argv[2])
CYCLE = [
    {"op": "salary", "player": "Ann"},
    {"op": "buy", "player": "Ann", "space": 37},
    {"op": "buy", "player": "Ann", "space": 39},
    {"op": "rent", "payer": "Bob", "space": 39},
    {"op": "transfer", "from": "Ann", "to": "Cid", "amount": 7, "memo": "loan"},
    {"op": "build", "player": "Ann", "space": 39},
    {"op": "build", "player": "Ann", "space": 37},
    {"op": "rent", "payer": "Cid", "space": 37},
    {"op": "salary", "player": "Bob"},
    {"op": "undo", "reason": "crash test"},
    {"op": "sell_building", "player": "Ann", "space": 39},
    {"op": "buy", "player": "Bob", "space": 5},
    {"op": "mortgage", "player": "Bob", "space": 5},
    {"op": "unmortgage", "player": "Bob", "space": 5},
    {"op": "transfer", "from": "bank", "to": "Bob", "amount": 150, "memo": "top-up"},
    {"op": "transfer", "from": "bank", "to": "Cid", "amount": 150, "memo": "top-up"},
]
s = Session.open(path)
out = sys.stdout
out.write(f"ready {len(s.entries)}\n")
out.flush()
i = 0
while True:
    cmd = CYCLE[i % len(CYCLE)]
    i += 1
    try:
        entry = s.apply(cmd)
    except Refused:
        continue
    out.write(f"{entry['seq']}\n")  # acknowledged: apply() returned
    out.flush()
    if every and entry["seq"] % every == 0:
        out.write("checkpoint\n")
        out.flush()
        s.checkpoint()
        out.write("checkpointed\n")
        out.flush()
"""


def _wait_ready(child: subprocess.Popen, out: Path) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = out.read_text()
        if text.startswith("ready ") and "\n" in text:
            return int(text.split("\n", 1)[0].split()[1])
        if child.poll() is not None:
            raise AssertionError(f"the writer died before it was ready:\n{text}")
        time.sleep(0.005)
    raise AssertionError("the writer did not start in 30 s")


def _check_session(path: Path, acked: int, context: str) -> list[dict]:
    """The session must open, hold seqs 1..n with acked <= n <= acked + 1, and replay
    to the state a fresh engine reaches from the stored commands."""
    # FILE itself is always a complete JSON document (the checkpoint never tears it)
    json.loads(path.read_bytes())
    with Session.open(path, readonly=True) as reader:
        entries = reader.entries
        seqs = [e["seq"] for e in entries]
        assert seqs == list(range(1, len(entries) + 1)), context
        assert acked <= len(entries) <= acked + 1, f"{context}: {acked} acknowledged, {len(entries)} in the session"
        fresh = game_from_setup(SETUP)
        for e in entries:
            move = fresh.push(e["command"])
            assert move.effects == e["effects"], f"{context}: entry {e['seq']} replays differently"
        assert reader.state.to_json() == fresh.to_json(), context
        state = reader.state.to_json()
    # the next writer recovers (drops a torn line, checkpoints) without losing anything
    with Session.open(path) as writer:
        assert writer.entries == entries, context
        assert writer.state.to_json() == state, context
    assert len(journal_path(path).read_bytes().splitlines()) == 1, context  # all folded into FILE
    return entries


def test_sigkill_at_random_moments_never_loses_an_acknowledged_action(tmp_path):
    seed = int(os.environ.get("CRASH_SEED", time.time_ns() % 2**32))
    rng = random.Random(seed)
    started = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    path = tmp_path / "game.json"
    kills_in_checkpoint = 0
    rounds = 0
    total_acked = 0
    for rnd in range(ROUNDS):
        if rnd % 3 == 0:  # a few rounds on the same file, so recovery meets a grown session
            path = tmp_path / f"game-{rnd}.json"
            Session.create(path, SETUP).close()
        every = rng.choice((2, 3)) if rnd % 2 else 0
        out = tmp_path / f"acks-{rnd}.txt"
        with open(out, "w") as sink:
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(every)], cwd=ROOT, env=env,
                                     stdout=sink, stderr=subprocess.PIPE)
        try:
            before = _wait_ready(child, out)
            time.sleep(rng.uniform(0.005, 0.25))
        finally:
            child.send_signal(signal.SIGKILL)
            _, err = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL, f"the writer stopped on its own: {err.decode()[-2000:]}"
        lines = out.read_text().splitlines()
        acks = [int(x) for x in lines[1:] if x.isdigit()]
        acked = max(acks, default=before)
        assert acks == list(range(before + 1, acked + 1))
        if lines[-1] == "checkpoint":
            kills_in_checkpoint += 1
        context = f"seed {seed}, round {rnd} (checkpoint every {every}), {len(acks)} actions acknowledged"
        _check_session(path, acked, context)
        total_acked += len(acks)
        rounds += 1
        if time.monotonic() - started > TIME_BUDGET and rounds >= 10:
            break
    print(f"\ncrash test: seed {seed}, {rounds} rounds, {total_acked} acknowledged actions, "
          f"{kills_in_checkpoint} kills inside a checkpoint, {time.monotonic() - started:.1f} s")
    assert total_acked > rounds  # the writer got real work done between kills
    assert kills_in_checkpoint >= 1, f"seed {seed}: no kill landed inside a checkpoint"
