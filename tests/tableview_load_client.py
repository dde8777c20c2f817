"""Clients for the players' page load test (tests/test_tableview_load.py), in a process of their own
as phones are: ``python tableview_load_client.py URL SECONDS CLIENTS INTERVAL CAP``.

Each client thread polls ``state.json`` every INTERVAL seconds for SECONDS seconds (at most CAP
requests in all), on a kept-alive connection as a browser does; half of them send the ETag they
last saw (the page's way, mostly answered 304), half always take the whole document. Prints one
JSON summary: requests by status, failures, latencies, and the last version each client saw.
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


def main(url: str, seconds: float, clients: int, interval: float, cap: int) -> dict:
    parts = urlsplit(url)
    path = parts.path + "state.json"
    start = time.monotonic()
    end = start + seconds
    lock = threading.Lock()
    statuses: Counter[str] = Counter()
    failures: list[str] = []
    latencies: list[float] = []
    last_seen = [0] * clients
    sent = [0]

    def client(i: int) -> None:
        rng = random.Random(i)
        conn: http.client.HTTPConnection | None = None
        etag = None
        time.sleep(rng.random() * interval)  # not all in step
        while time.monotonic() < end:
            with lock:
                if sent[0] >= cap:
                    return
                sent[0] += 1
            began = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
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
            time.sleep(max(0.0, interval - took))
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 30)
    latencies.sort()

    def pct(q: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000, 2) if latencies else 0.0

    return {"requests": sum(statuses.values()), "statuses": dict(statuses), "failures": failures[:20],
            "failed": len(failures), "latency_ms": {"median": pct(0.5), "p99": pct(0.99), "max": pct(1.0)},
            "last_seen": last_seen, "seconds": round(time.monotonic() - start, 2),
            "stuck": sum(t.is_alive() for t in threads)}


if __name__ == "__main__":
    url, seconds, clients, interval, cap = sys.argv[1:6]
    print(json.dumps(main(url, float(seconds), int(clients), float(interval), int(cap))), flush=True)
