"""Clients for the players' page under load (tests/test_tableview_load.py, bench/tableview.py), in a
process of their own as phones are: ``python tableview_load_client.py URL CLIENTS INTERVAL CAP``.

Each client thread polls ``state.json`` every INTERVAL seconds (at most CAP requests in all), on a
kept-alive connection as a browser does; half of them send the ETag they last saw (the page's way,
mostly answered 304), half always take the whole document. They poll until the line ``final N``
arrives on standard input (the version of the last action recorded), then each goes on until it
has seen version N (or GRACE seconds have passed: then it reports what it saw last). Prints one
JSON summary: requests by status and by client, failures, latencies, and the last version each
client saw. No wall-clock bound is judged here: the caller decides what the figures mean.
"""

from __future__ import annotations

import http.client
import json
import random
import sys
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

#: seconds a client may take, after the last action, to see it (a deadline against a hang, not a speed)
GRACE = 120.0


def main(url: str, clients: int, interval: float, cap: int, final_line=sys.stdin.readline) -> dict:
    parts = urlsplit(url)
    path = parts.path + "state.json"
    start = time.monotonic()
    lock = threading.Lock()
    statuses: Counter[str] = Counter()
    failures: list[str] = []
    latencies: list[float] = []
    last_seen = [0] * clients
    per_client = [0] * clients
    sent = [0]
    final: list[int | None] = [None]  # the version every client must see before it stops
    told = threading.Event()
    deadline = [float("inf")]

    def done(i: int) -> bool:
        if not told.is_set():
            return False
        return final[0] is None or last_seen[i] >= final[0] or time.monotonic() > deadline[0]

    def client(i: int) -> None:
        rng = random.Random(i)
        conn: http.client.HTTPConnection | None = None
        etag = None
        time.sleep(rng.random() * interval)  # not all in step
        while not done(i):
            with lock:
                if sent[0] >= cap:
                    return
                sent[0] += 1
            began = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
                headers = {"If-None-Match": etag} if etag and i % 2 == 0 else {}
                conn.request("GET", path, headers=headers)
                resp = conn.getresponse()
                body = resp.read()
                status = str(resp.status)
                if status == "200":
                    etag = resp.getheader("ETag")
                    last_seen[i] = json.loads(body)["version"]
                if (resp.getheader("Connection") or "").lower() == "close":
                    conn.close()
                    conn = None
            except Exception as e:  # every failure is reported, none retried silently
                status = "failed"
                with lock:
                    failures.append(f"client {i}: {type(e).__name__}: {e}")
                if conn is not None:
                    conn.close()
                conn = None
            took = time.monotonic() - began
            with lock:
                statuses[status] += 1
                latencies.append(took)
                per_client[i] += 1
            time.sleep(max(0.0, interval - took))
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    line = final_line().split()
    final[0] = int(line[1]) if len(line) == 2 and line[0] == "final" else None
    polled = round(time.monotonic() - start, 2)
    deadline[0] = time.monotonic() + GRACE
    told.set()
    for t in threads:
        t.join(timeout=GRACE + 30)
    latencies.sort()

    def pct(q: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000, 2) if latencies else 0.0

    return {"requests": sum(statuses.values()), "statuses": dict(statuses), "failures": failures[:20],
            "failed": len(failures), "latency_ms": {"median": pct(0.5), "p99": pct(0.99), "max": pct(1.0)},
            "per_client": per_client, "last_seen": last_seen, "final": final[0], "seconds": polled,
            "stuck": sum(t.is_alive() for t in threads)}


if __name__ == "__main__":
    url, clients, interval, cap = sys.argv[1:5]
    print(json.dumps(main(url, int(clients), float(interval), int(cap))), flush=True)
