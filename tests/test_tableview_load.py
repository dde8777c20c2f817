"""The players' page under load, on loopback: 50 clients polling state.json for 30 s while the
banker records an action every 100 ms. Every action must still commit within the console's
speed target (50 ms) and the server must answer every request.

The server runs in this process, beside the writer, as it does in the console; the clients run in
a process of their own (tests/tableview_load_client.py), as the phones at the table do. Bounded:
30 s (BANKER_LOAD_SECONDS to change it), 50 clients, and a hard cap on the number of requests.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from banker.ledger import Session
from banker.tableview.server import TableServer

from .ui_helpers import make_session, midgame_commands

SECONDS = float(os.environ.get("BANKER_LOAD_SECONDS", "30"))
CLIENTS = 50
POLL = 0.5  # the page's own polling interval
CAP = int(CLIENTS * SECONDS / POLL * 1.5) + 100  # the hard cap on requests
EVERY = 0.1  # an action every 100 ms
TARGET = 0.050  # the console's speed target for committing an action
PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve")
CLIENT = Path(__file__).with_name("tableview_load_client.py")


def actions():
    """Legal for ever: salaries, transfers with memos, and undos."""
    n = 0
    while True:
        a, b = PLAYERS[n % 5], PLAYERS[(n + 2) % 5]
        yield {"op": "salary", "player": a}
        yield {"op": "transfer", "from": a, "to": b, "amount": 10 + n % 7, "memo": f"<b>round {n}</b>"}
        if n % 3 == 0:
            yield {"op": "undo", "reason": "load test"}
        n += 1


def test_fifty_clients_polling_while_the_banker_records_actions(tmp_path: Path) -> None:
    game = make_session(tmp_path / "load.json", PLAYERS, commands=midgame_commands(PLAYERS)[:-1], name="Load")
    times: list[float] = []
    with Session.open(game) as writer, TableServer(game, host="127.0.0.1") as server:
        clients = subprocess.Popen([sys.executable, str(CLIENT), server.url, str(SECONDS), str(CLIENTS), str(POLL),
                                    str(CAP)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            started = time.monotonic()
            next_at = started + 0.5  # the clients start
            todo = actions()
            # actions for all but the last 2 s, so every client sees the last one
            while time.monotonic() < started + SECONDS - 2.0:
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at += EVERY
                cmd = next(todo)
                began = time.perf_counter()
                writer.apply(cmd)
                times.append(time.perf_counter() - began)
            out, err = clients.communicate(timeout=SECONDS + 60)
        finally:
            if clients.poll() is None:
                clients.kill()
                clients.wait()
        final = len(writer.entries)
        answered = server.answered
    summary = json.loads(out)
    figures = {"actions": len(times), "apply_ms": {"median": round(statistics.median(times) * 1000, 2),
                                                   "p99": round(sorted(times)[int(0.99 * len(times))] * 1000, 2),
                                                   "max": round(max(times) * 1000, 2)},
               "answered_by_server": answered, **{k: v for k, v in summary.items() if k != "last_seen"}}
    print("\ntable view load:", json.dumps(figures))
    assert err == "" and summary["stuck"] == 0
    # every action committed within the console's speed target
    assert len(times) >= (SECONDS - 2.5) / EVERY * 0.9
    assert max(times) < TARGET, figures
    # every request answered, and answered well
    assert summary["failed"] == 0, summary["failures"]
    assert set(summary["statuses"]) <= {"200", "304"}, summary["statuses"]
    assert summary["requests"] >= CLIENTS * SECONDS / POLL * 0.8, figures
    assert summary["requests"] <= CAP
    assert answered >= summary["requests"]
    assert summary["latency_ms"]["p99"] < 250, figures
    # and every client saw the last action
    assert set(summary["last_seen"]) == {final}, summary["last_seen"]
