"""Fuzz the ``banker`` command with hostile arguments and script lines, many more cases than
``make test`` runs (tests/test_cli_fuzz.py runs 300 of the same generator).

    python bench/fuzz_cli.py [--cases N] [--seed S] [--processes K]

Every case must be refused: exit status non-zero, exactly one line on stderr, no traceback, the
session file and its journal byte for byte as they were (tests/cli_fuzz_cases.py says how the
cases are made). ``--processes K`` also runs K of the cases in a real ``python -m banker`` process
(bytes on the command line and on stdin as a shell would pass them). Prints the cases per kind,
the time taken and every failure; the exit status is 1 if any case failed.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.cli_fuzz_cases import cases, file_bytes, make_odd_files, make_table, problems, run_in_process  # noqa: E402


def run_process(case, work: Path) -> tuple[int, str, str]:
    if case.script is not None:
        (work / "case.jsonl").write_bytes(case.script)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("BANKER_TRACEBACK", None)
    argv = [os.fsencode(a) if isinstance(a, str) else a for a in case.argv]
    done = subprocess.run([sys.executable, "-m", "banker", *argv], input=case.stdin or b"", capture_output=True,
                          env=env, timeout=120)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000, help="how many cases (default 5000)")
    parser.add_argument("--seed", type=int, default=int(time.time()), help="the generator's seed (default: the clock)")
    parser.add_argument("--processes", type=int, default=20, help="how many of them also in a real process (default 20)")
    args = parser.parse_args(argv)
    kinds: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="banker-fuzz-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        make_odd_files(work)
        table = make_table(Path(tmp) / "table.json")
        before = file_bytes(table)
        every = max(1, args.cases // args.processes) if args.processes else 0
        started = time.perf_counter()
        for i, case in enumerate(cases(args.seed, args.cases, table, work)):
            kinds[case.label.split(":")[0]] += 1
            code, out, err = run_in_process(case, work)
            wrong = problems(case, code, out, err, before, file_bytes(table), work)
            if every and i % every == 0:
                pcode, pout, perr = run_process(case, work)
                wrong += [f"(process) {w}" for w in problems(case, pcode, pout, perr, before, file_bytes(table), work)]
            if wrong:
                failures.append(f"case {i} [{case.label}] {case.argv[:2]}: {', '.join(wrong)}; stderr {err[:300]!r}")
                if len(failures) == 1 and file_bytes(table) != before:
                    break  # the files changed: every later case would fail the same way
        seconds = time.perf_counter() - started
    print(f"banker CLI fuzz: {args.cases} cases, seed {args.seed}, {seconds:.1f} s "
          f"({1000 * seconds / max(1, args.cases):.1f} ms a case)")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind}: {n}")
    if failures:
        print(f"{len(failures)} FAILED (rerun with --seed {args.seed}):")
        for line in failures[:50]:
            print("  " + line)
        return 1
    print("every case refused in one line, nothing touched")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
