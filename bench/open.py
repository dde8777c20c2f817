"""Bench: `banker state` on a long game against a new one (issue #14: opening costs the same
whatever the game's length).

Records a 20,000-action game (record.py's realistic mix) and a new session (no action), both
closed cleanly (checkpointed: the snapshot is in FILE), then times ``banker state FILE`` in fresh
processes, interleaved (each first in every other round), from the spawn to the exit, after compiling
banker's bytecode (as an installed banker has it). Also times the open `banker state` makes (``SessionReader.open(path,
on_disk=True)``) in-process on each, and each process's CPU time beside its wall time.

    python bench/open.py [--runs 31] [--actions 20000] [--dir /some/disk]

Prints a markdown table and the target line (`make bench` collects the "Target:" lines).
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
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

from banker.ledger import SessionReader  # noqa: E402

TARGET = 1.2
#: the `banker` command, as its console script runs it
CLI = "import sys; from banker.cli import main; sys.exit(main())"


def compile_bytecode() -> None:
    """banker's modules compiled, as pip leaves an installed package (a process started with
    PYTHONDONTWRITEBYTECODE would otherwise compile every module on every start)."""
    compileall.compile_dir(str(ROOT / "banker"), quiet=1)


def time_state(path: Path, env: dict[str, str]) -> tuple[float, float]:
    """``banker state FILE`` in a fresh process: the wall time from the spawn to the exit, and the CPU time the
    process used (user + system: what a machine busy with other work does not add to), in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", CLI, "state", str(path)], check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    wall = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def time_open(path: Path, runs: int) -> float:
    """The open `banker state` makes (a look: the checkpoint's table checked, left on the disk), in-process."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        SessionReader.open(path, on_disk=True).close()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=31, help="processes per case (after one warm-up)")
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
        cpu: dict[str, list[float]] = {label: [] for label in cases}
        for path in cases.values():
            time_state(path, env)  # warm-up: the disk cache
        for run in range(args.runs):
            # each case first in every other round: neither always runs just after the other
            for label, path in (list(cases.items()) if run % 2 == 0 else list(cases.items())[::-1]):
                wall, used = time_state(path, env)
                results[label].append(wall)
                cpu[label].append(used)
        opens = {label: time_open(path, 5) for label, path in cases.items()}
        size = long.stat().st_size
    print(f"## Opening a session: `banker state` ({args.runs} fresh processes per case, interleaved)")
    print()
    print("| session | `banker state`: median / worst ms | its CPU time: median ms | the open in-process: median ms |")
    print("|---|---:|---:|---:|")
    for label, times in results.items():
        print(f"| {label} | {statistics.median(times):.0f} / {max(times):.0f} | {statistics.median(cpu[label]):.0f} | "
              f"{opens[label]:.1f} |")
    base, big = (statistics.median(results[label]) for label in cases)
    ratio = big / base
    cpu_base, cpu_big = (statistics.median(cpu[label]) for label in cases)
    print()
    print(f"Target: `banker state` on {args.actions:,} actions within {TARGET}x a new session's: {ratio:.2f}x "
          f"({'met' if ratio <= TARGET else 'NOT met'})")
    print()
    print(f"(in CPU time, which other work on the machine does not add to: {cpu_big / cpu_base:.2f}x; the target is "
          "judged on the wall time above)")
    print()
    print(f"(FILE of the long game: {size / 2**20:.1f} MB; bench/open.py ran in {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
