"""Bench: `banker state` on a long game against a new one (issue #14: opening costs the same
whatever the game's length).

Records a 20,000-action game (record.py's realistic mix) and a new session (no action), both
closed cleanly (checkpointed: the snapshot is in FILE), then times ``banker state FILE`` in fresh
processes, interleaved, from the spawn to the exit, after compiling banker's bytecode (as an
installed banker has it). Also times ``Session.open(readonly=True)`` in-process on each.

    python bench/open.py [--runs 15] [--actions 20000] [--dir /some/disk]

Prints a markdown table and the target line (`make bench` collects the "Target:" lines).
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from record import record_game  # noqa: E402

from banker.ledger import Session  # noqa: E402

TARGET = 1.2
#: the `banker` command, as its console script runs it
CLI = "import sys; from banker.cli import main; sys.exit(main())"


def compile_bytecode() -> None:
    """banker's modules compiled, as pip leaves an installed package (a process started with
    PYTHONDONTWRITEBYTECODE would otherwise compile every module on every start)."""
    compileall.compile_dir(str(ROOT / "banker"), quiet=1)


def time_state(path: Path, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", CLI, "state", str(path)], check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - t0) * 1000


def time_open(path: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        Session.open(path, readonly=True).close()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="processes per case (after one warm-up)")
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--dir", help="where to write the sessions (default: a temp folder)")
    args = parser.parse_args()
    started = time.perf_counter()
    compile_bytecode()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="banker-bench-open-") as tmp:
        new, long = Path(tmp) / "new.json", Path(tmp) / "long.json"
        record_game(new, 0, 1)
        record_game(long, args.actions, 2)
        cases = {"new session (no action)": new, f"{args.actions:,}-action session": long}
        results: dict[str, list[float]] = {label: [] for label in cases}
        for path in cases.values():
            time_state(path, env)  # warm-up: the disk cache
        for _ in range(args.runs):
            for label, path in cases.items():
                results[label].append(time_state(path, env))
        opens = {label: time_open(path, 5) for label, path in cases.items()}
        size = long.stat().st_size
    print(f"## Opening a session: `banker state` ({args.runs} fresh processes per case, interleaved)")
    print()
    print("| session | `banker state`: median / worst ms | `Session.open` in-process: median ms |")
    print("|---|---:|---:|")
    for label, times in results.items():
        print(f"| {label} | {statistics.median(times):.0f} / {max(times):.0f} | {opens[label]:.1f} |")
    base, big = (statistics.median(results[label]) for label in cases)
    ratio = big / base
    print()
    print(f"Target: `banker state` on {args.actions:,} actions within {TARGET}x a new session's: {ratio:.2f}x "
          f"({'met' if ratio <= TARGET else 'NOT met'})")
    print()
    print(f"(FILE of the long game: {size / 2**20:.1f} MB; bench/open.py ran in {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
