"""How long the most a debtor can raise takes to work out (banker.rules.raising.raise_plan).

The figure is shown by the console's raise-cash view and bankruptcy preview, and the players' page
asks for it through ``state.to_json()`` on every change, so it must stay quick even in a heavy state:
here a UK debtor with hotels on four groups and houses on three more, the bank down to four houses (so
the order of the sales matters), on a board with eight players.

    python bench/raising.py       (``make bench``)
"""

from __future__ import annotations

import statistics
import time

from banker.boards import new_game
from banker.rules.legal import legal_actions, raise_cash_options
from banker.rules.raising import raise_plan

PLAYERS = tuple(f"P{i}" for i in range(1, 9))
HOTELS = [(1, 3), (11, 13, 14), (21, 23, 24), (37, 39)]
HOUSES = [(6, 8, 9), (16, 18, 19), (26, 27, 29)]


def heavy_state():
    g = new_game("uk", "classic", PLAYERS)
    g.push({"op": "transfer", "from": "bank", "to": "P1", "amount": 100_000, "memo": "bench"})
    for lots in HOTELS:
        for pos in lots:
            g.push({"op": "buy", "player": "P1", "space": pos})
        for _ in range(5):
            for pos in lots:
                g.push({"op": "build", "player": "P1", "space": pos})
    for lots in HOUSES:
        for pos in lots:
            g.push({"op": "buy", "player": "P1", "space": pos})
        for _ in range(2):
            for pos in lots:
                g.push({"op": "build", "player": "P1", "space": pos})
    g.push({"op": "transfer", "from": "bank", "to": "P2", "amount": 100_000, "memo": "bench"})
    for pos in (31, 32, 34):
        g.push({"op": "buy", "player": "P2", "space": pos})
    while g.bank_houses > 4:
        low = min((31, 32, 34), key=lambda p: (g.level(p), p))
        g.push({"op": "build", "player": "P2", "space": low})
    g.push({"op": "transfer", "from": "P1", "to": "bank", "amount": g.cash["P1"], "memo": "bench"})
    g.push({"op": "rent", "payer": "P1", "space": 34})
    assert g.debts.get("P1")
    return g


def timed(label: str, fn, runs: int = 30) -> None:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    print(f"| {label} | {statistics.median(samples):.1f} | {max(samples):.1f} |")


def main() -> None:
    g = heavy_state()
    plan = raise_plan(g, "P1")
    print(f"debtor P1: {len(plan.steps)} steps raise {g.edition.fmt(plan.total)}; bank houses {g.bank_houses}\n")
    print("| what | median ms | max ms |")
    print("|---|---:|---:|")
    timed("raise_plan (the figure)", lambda: raise_plan(g, "P1"))
    timed("state.to_json() (the players' page)", g.to_json)
    timed("raise_cash_options (the raise-cash view)", lambda: raise_cash_options(g, "P1"))
    timed("legal_actions (every player)", lambda: list(legal_actions(g)))


if __name__ == "__main__":
    main()
