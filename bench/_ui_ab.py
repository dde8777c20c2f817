"""Bench: the console's first frame from two checkouts, interleaved, next to an empty Textual app.

Each round starts three fresh processes, in turn: the empty Textual app (one Static), then the console on a
20,000-action session from this checkout and from the other one (``--before``; their order alternates from
round to round), each with ``bench/ui.py``'s child (the same clock, the same first frame: every player and
the last action). Each console runs from its own checkout (its folder first on the path and as the working
directory), with its bytecode compiled first. A change worth a few ms is lost in the spread of a handful of
runs on a shared machine; many interleaved rounds give medians to compare.

    python bench/_ui_ab.py --before /path/to/a/checkout/of/int [--rounds 40] [--actions 20000]

Not run by ``make bench`` (bench/run_all.py leaves out names starting with "_"): it needs the other checkout.

Prints each case's median start → first frame, × the empty app's, and the two parts (interpreter + imports,
app start → frame).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import ui  # noqa: E402  (bench/ui.py: the child, spawn, the session's markers)
from record import record_game  # noqa: E402


def spawn(args: list[str], root: Path) -> dict:
    """``ui.spawn`` with the child run from ``root`` (its folder first on the path: ``-c`` puts the working
    directory there)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    real = subprocess.Popen

    def popen(cmd, **kwargs):
        return real(cmd, **{**kwargs, "cwd": root})

    ui.subprocess.Popen = popen
    try:
        return ui.spawn(args, env)
    finally:
        ui.subprocess.Popen = real


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="another checkout of banker (the code to compare with)")
    parser.add_argument("--rounds", type=int, default=40, help="rounds of three processes (after one warm-up)")
    parser.add_argument("--actions", type=int, default=ui.LONG, help="actions in the session (default 20,000)")
    args = parser.parse_args()
    roots = {"before": Path(args.before).resolve(), "after": ROOT}
    for root in roots.values():
        compileall.compile_dir(str(root / "banker"), quiet=1)
    size = f"{ui.SIZE[0]},{ui.SIZE[1]}"
    with tempfile.TemporaryDirectory(prefix="banker-bench-ab-") as tmp:
        session = Path(tmp) / f"game-{args.actions}.json"
        record_game(session, args.actions, ui.SEED + args.actions)
        marks = json.dumps(ui.markers_for(session))
        empty = ("empty", ["-c", ui.CHILD, "empty", "-", json.dumps(["Hello from an empty app"]), size], ROOT)
        consoles = [(name, ["-c", ui.CHILD, "banker", str(session), marks, size], root) for name, root in roots.items()]
        results: dict[str, list[dict]] = {"empty": [], "before": [], "after": []}
        for _name, a, root in [empty, *consoles]:  # warm-up
            spawn(a, root)
        for i in range(args.rounds):
            for name, a, root in [empty, *(consoles if i % 2 == 0 else consoles[::-1])]:
                results[name].append(spawn(a, root))
    base = statistics.median(r["total"] for r in results["empty"])
    print(f"Start → first frame, {args.actions:,}-action session, {args.rounds} interleaved rounds "
          f"(before: {roots['before']}; after: {ROOT})")
    print()
    print("| process | median ms | × empty app | interpreter + imports ms | app start → frame ms |")
    print("|---|---:|---:|---:|---:|")
    for name, rs in results.items():
        total = statistics.median(r["total"] for r in rs)
        print(f"| {name} | {total:.0f} | {total / base:.2f} | {statistics.median(r['imports'] for r in rs):.0f} | "
              f"{statistics.median(r['app'] for r in rs):.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
