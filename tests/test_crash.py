"""Crash safety: a writer killed with SIGKILL at random instants never loses an
acknowledged action and never leaves a torn session.

A child process opens the session and applies actions in a loop, printing each seq
after ``apply()`` returned (the acknowledgement). The parent kills it at a random
moment once it has acknowledged an action, in half of the rounds while the child
checkpoints every two or three actions (so many kills land inside a checkpoint), then
checks the files: they open as a valid session holding every acknowledged seq (at most
one more), and the rules engine replaying the stored commands afresh (the log's check) finds
every entry as recorded and reaches the same state. Two rounds
do not leave it to chance: the child stops inside a checkpoint (after the temp file is
written, before the rename; after the rename, before the journal is emptied) and is
killed there, so the test always covers both, however fast or busy the machine is.
Set CRASH_SEED to replay a run.
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
from banker.ledger.check import replay_check
from banker.rules import Setup

ROOT = Path(__file__).resolve().parent.parent
SETUP = Setup("classic-us", "classic", ("Ann", "Bob", "Cid"))
ROUNDS = 30
TIME_BUDGET = 40.0  # seconds; the rounds stop early (after at least 10) past it: fewer rounds, never a failure
#: rounds (among the first 10, which always run) where the writer is killed inside a checkpoint for sure
STALLS = {1: "before-rename", 5: "after-rename"}

CHILD = r"""
import sys
from banker.ledger import Session
from banker.rules import Refused

path, every, stall = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = None
if stall:  # stop for good inside the first checkpoint after a few actions, saying so (the parent kills)
    import os, time
    from pathlib import Path
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if s is not None and Path(dst) == Path(path) and s.entries and s.entries[-1]["seq"] > before + 3:
            if stall == "after-rename":
                real_replace(src, dst, *args, **kwargs)
            out.write(f"stalled {stall}\n")
            out.flush()
            while True:
                time.sleep(60)
        return real_replace(src, dst, *args, **kwargs)

    os.replace = replace
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
before = len(s.entries)
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


#: seconds to wait for the writer to start, or to reach a point: a deadline against a hang, not a speed claim
WAIT = 120


def _wait_for_line(child: subprocess.Popen, out: Path, ok) -> str:
    """The writer's output once ``ok(text)`` holds (polled every 5 ms)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        text = out.read_text()
        if ok(text):
            return text
        if child.poll() is not None:
            raise AssertionError(f"the writer died on its own:\n{text[-2000:]}")
        time.sleep(0.005)
    raise AssertionError(f"the writer did not get there in {WAIT} s:\n{out.read_text()[-2000:]}")


def _wait_ready(child: subprocess.Popen, out: Path) -> int:
    text = _wait_for_line(child, out, lambda t: t.startswith("ready ") and "\n" in t)
    return int(text.split("\n", 1)[0].split()[1])


def _acked(text: str) -> bool:
    """At least one action acknowledged after "ready"."""
    return any(line.isdigit() for line in text.split("\n")[1:-1])


def _check_session(path: Path, acked: int, context: str) -> list[dict]:
    """The session must open, hold seqs 1..n with acked <= n <= acked + 1, and the engine
    replaying the stored commands afresh must find them as recorded and reach the same state."""
    # FILE itself is always a complete JSON document (the checkpoint never tears it)
    json.loads(path.read_bytes())
    with Session.open(path, readonly=True) as reader:
        entries = reader.entries
        seqs = [e["seq"] for e in entries]
        assert seqs == list(range(1, len(entries) + 1)), context
        assert acked <= len(entries) <= acked + 1, f"{context}: {acked} acknowledged, {len(entries)} in the session"
        findings, fresh = replay_check(path, SETUP, entries)
        assert findings == [], f"{context}: {findings}"
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
        stall = STALLS.get(rnd, "")
        out = tmp_path / f"acks-{rnd}.txt"
        with open(out, "w") as sink:
            if stall:
                every = every or 2  # a checkpoint to stop in
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(every), stall], cwd=ROOT, env=env,
                                     stdout=sink, stderr=subprocess.PIPE)
        try:
            before = _wait_ready(child, out)
            if stall:
                _wait_for_line(child, out, lambda t: t.endswith(f"stalled {stall}\n"))  # noqa: B023
            else:
                _wait_for_line(child, out, _acked)  # real work done before the kill, however busy the machine
                time.sleep(rng.uniform(0.005, 0.25))
        finally:
            child.send_signal(signal.SIGKILL)
            _, err = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL, f"the writer stopped on its own: {err.decode()[-2000:]}"
        lines = out.read_text().splitlines()
        acks = [int(x) for x in lines[1:] if x.isdigit()]
        acked = max(acks, default=before)
        assert acks == list(range(before + 1, acked + 1)) and acks, lines[-5:]
        if lines[-1] == "checkpoint" or lines[-1].startswith("stalled"):
            kills_in_checkpoint += 1
        context = f"seed {seed}, round {rnd} (checkpoint every {every}), {len(acks)} actions acknowledged"
        _check_session(path, acked, context)
        total_acked += len(acks)
        rounds += 1
        if time.monotonic() - started > TIME_BUDGET and rounds >= 10:
            break
    print(f"\ncrash test: seed {seed}, {rounds} rounds, {total_acked} acknowledged actions, "
          f"{kills_in_checkpoint} kills inside a checkpoint, {time.monotonic() - started:.1f} s")
    assert kills_in_checkpoint >= len(STALLS)  # the two stalled rounds at least, whatever the timing
