"""Bench: the players' page under load -- what 50 phones polling cost the banker, and how fast they are answered.

On loopback, in this process as in the console: a writer records an action every 100 ms (salaries,
transfers with memos, undos) into a game under way, while the page server (``TableServer``) serves
50 clients polling ``state.json`` every 500 ms from a process of their own
(``tests/tableview_load_client.py``, half of them with the ETag, as the page does). Reports the time
``Session.apply`` takes with and without the clients, and the latency of the requests.

    python bench/tableview.py [--seconds 30] [--clients 50] [--runs 3]

Prints markdown tables (docs/speed.md and docs/tableview.md quote them). The test
``tests/test_tableview_load.py`` runs the same load for correctness only (every request answered,
nothing stuck, every client sees the last action): no timing is judged there.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from banker.ledger import Session  # noqa: E402
from banker.rules import Setup  # noqa: E402
from banker.tableview.server import TableServer  # noqa: E402
from tests.ui_helpers import midgame_commands  # noqa: E402  (the tests' game under way)

CLIENT = ROOT / "tests" / "tableview_load_client.py"
PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve")
POLL = 0.5  # the page's own polling interval
EVERY = 0.1  # an action every 100 ms
TARGET_MS = 50  # the console's speed target for committing an action


def actions():
    n = 0
    while True:
        a, b = PLAYERS[n % 5], PLAYERS[(n + 2) % 5]
        yield {"op": "salary", "player": a}
        yield {"op": "transfer", "from": a, "to": b, "amount": 10 + n % 7, "memo": f"<b>round {n}</b>"}
        if n % 3 == 0:
            yield {"op": "undo", "reason": "bench"}
        n += 1


def run(folder: Path, seconds: float, clients: int, tag: str) -> dict:
    """One run: actions for ``seconds`` with ``clients`` polling (0: no page server at all)."""
    game = folder / f"{tag}.json"
    with Session.create(game, Setup("classic-us", "classic", PLAYERS), name="Bench") as s:
        for cmd in midgame_commands(PLAYERS)[:-1]:  # without the last rent: no debt, every action legal
            s.apply(cmd)
    times: list[float] = []
    summary: dict = {}
    with Session.open(game) as writer:
        server = TableServer(game, host="127.0.0.1").start() if clients else None
        proc = None
        try:
            if server is not None:
                cap = int(clients * (seconds + 150) / POLL * 1.5)
                proc = subprocess.Popen([sys.executable, str(CLIENT), server.url, str(clients), str(POLL), str(cap)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                time.sleep(POLL)  # the clients start
            todo = actions()
            started = time.monotonic()
            next_at = started
            while time.monotonic() < started + seconds:
                next_at += EVERY
                time.sleep(max(0.0, next_at - time.monotonic()))
                cmd = next(todo)
                began = time.perf_counter()
                writer.apply(cmd)
                times.append(time.perf_counter() - began)
            if proc is not None:
                out, _ = proc.communicate(input=f"final {len(writer.entries)}\n", timeout=300)
                summary = json.loads(out)
                summary["answered"] = server.answered
        finally:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
            if server is not None:
                server.stop()
    ms = sorted(t * 1000 for t in times)
    return {"actions": len(ms), "median": statistics.median(ms), "p99": ms[int(0.99 * (len(ms) - 1))], "max": ms[-1],
            **summary}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of actions per run (default 30)")
    parser.add_argument("--clients", type=int, default=50, help="clients polling the page (default 50)")
    parser.add_argument("--runs", type=int, default=3, help="runs with the clients, and as many without (default 3)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="banker-bench-tableview-") as tmp:
        for i in range(args.runs):
            rows.append(("without the page", run(Path(tmp), args.seconds, 0, f"alone-{i}")))
            rows.append((f"{args.clients} clients polling", run(Path(tmp), args.seconds, args.clients, f"load-{i}")))
    print(f"## The players' page under load ({platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}; loopback)")
    print()
    print(f"An action every {EVERY * 1000:.0f} ms for {args.seconds:g} s; the clients poll every {POLL * 1000:.0f} ms, "
          "half with the ETag.")
    print()
    print("| run | actions | `Session.apply` median / p99 / worst ms | requests | failed | "
          "request latency median / p99 / worst ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, r in rows:
        lat = r.get("latency_ms")
        requests = f"{r['requests']:,}" if lat else "–"
        failed = str(r["failed"]) if lat else "–"
        latency = f"{lat['median']:.2f} / {lat['p99']:.2f} / {lat['max']:.2f}" if lat else "–"
        print(f"| {label} | {r['actions']} | {r['median']:.2f} / {r['p99']:.2f} / {r['max']:.2f} | {requests} | "
              f"{failed} | {latency} |")
    worst = max(r["max"] for label, r in rows if "polling" in label)
    print()
    print(f"Target: every action committed well within the console's {TARGET_MS} ms with the clients polling: worst "
          f"{worst:.1f} ms ({'met' if worst < TARGET_MS else 'NOT met'})")
    loaded = [r for label, r in rows if "polling" in label]
    bad = sum(r["failed"] for r in loaded) + sum(r["stuck"] for r in loaded)
    unseen = sum(1 for r in loaded for v in r["last_seen"] if v != r["final"])
    print(f"Every request answered: {'yes' if not bad else f'NO ({bad} failed or stuck)'}; every client saw the last "
          f"action: {'yes' if not unseen else f'NO ({unseen} did not)'}.")
    return 0 if not bad and not unseen else 1


if __name__ == "__main__":
    sys.exit(main())
