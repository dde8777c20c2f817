"""The players' page under load, on loopback: 50 clients polling state.json while the banker records
an action every 100 ms. Every action is recorded, every request is answered (200 or 304, no failure),
no client is left stuck, and every client ends up seeing the last action.

No wall-clock bound is asserted: how fast the actions commit and the requests are answered is
measured by ``bench/tableview.py`` (``make bench``; the figures are in docs/speed.md and
docs/tableview.md), so a busy machine can make this test slower, never make it fail.

The server runs in this process, beside the writer, as it does in the console; the clients run in
a process of their own (tests/tableview_load_client.py), as the phones at the table do. Bounded:
10 s of actions (BANKER_LOAD_SECONDS to change it), 50 clients, a hard cap on the number of requests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from banker.ledger import Session
from banker.tableview.server import TableServer

from .ui_helpers import make_session, midgame_commands

SECONDS = float(os.environ.get("BANKER_LOAD_SECONDS", "10"))
CLIENTS = 50
POLL = 0.5  # the page's own polling interval
EVERY = 0.1  # an action every 100 ms
PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve")
CLIENT = Path(__file__).with_name("tableview_load_client.py")
#: the hard cap on requests: what 50 clients polling every 500 ms make in the actions' time and the
#: client's whole grace period after it, and half as many again
CAP = int(CLIENTS * (SECONDS + 120) / POLL * 1.5)


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
    recorded = []
    with Session.open(game) as writer, TableServer(game, host="127.0.0.1") as server:
        first = len(writer.entries)
        clients = subprocess.Popen([sys.executable, str(CLIENT), server.url, str(CLIENTS), str(POLL), str(CAP)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            started = time.monotonic()
            todo = actions()
            while time.monotonic() < started + SECONDS:
                time.sleep(EVERY)
                recorded.append(writer.apply(next(todo))["seq"])
            final = len(writer.entries)
            # the clients go on until each has seen the last action (their own deadline is 120 s)
            out, err = clients.communicate(input=f"final {final}\n", timeout=300)
        finally:
            if clients.poll() is None:
                clients.kill()
                clients.wait()
        answered = server.answered
    summary = json.loads(out)
    print("\ntable view load (figures only; bench/tableview.py measures):",
          json.dumps({k: v for k, v in summary.items() if k not in ("last_seen", "per_client")}))
    assert err == ""
    # every action recorded, in order, while the page was served
    assert recorded == list(range(first + 1, final + 1)) and final > first
    # every request answered, and answered well; nothing stuck
    assert summary["stuck"] == 0
    assert summary["failed"] == 0, summary["failures"]
    assert set(summary["statuses"]) <= {"200", "304"}, summary["statuses"]
    assert summary["requests"] <= CAP and answered >= summary["requests"]
    assert all(n > 0 for n in summary["per_client"]), summary["per_client"]  # no client left unserved
    # and every client saw the last action
    assert summary["final"] == final
    assert set(summary["last_seen"]) == {final}, summary["last_seen"]
