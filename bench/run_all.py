"""Run every bench script (bench/*.py except this one) and print a summary table.

    python bench/run_all.py [NAME ...]      (``make bench``)

Each script runs in its own process from the project root, its output passed through
as it comes; the exit status is non-zero if any script failed. Each script's "Target: ..." lines (a
figure next to its target, "(met)" or "(NOT met)") are summed up at the end. Names select scripts
(``record`` or ``record.py``); by default all of them run, in alphabetical order.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: how a script's "Target: ..." line ends: its verdict, "(met)" or "(NOT met)", maybe with a full stop after it
VERDICT = re.compile(r"\s*\((met|NOT met)\)\.?$")


def scripts(selected: list[str]) -> list[Path]:
    found = sorted(p for p in HERE.glob("*.py") if p.name != Path(__file__).name and not p.name.startswith("_"))
    if not selected:
        return found
    wanted = {s.removesuffix(".py") for s in selected}
    unknown = wanted - {p.stem for p in found}
    if unknown:
        raise SystemExit(f"run_all: no bench script {', '.join(sorted(unknown))}; "
                         f"there are: {', '.join(p.stem for p in found)}")
    return [p for p in found if p.stem in wanted]


def main(argv: list[str]) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    results = []
    targets: list[tuple[str, str]] = []
    for script in scripts(argv):
        print(f"\n### bench/{script.name}\n", flush=True)
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:  # passed through as it comes; the targets' lines kept for the summary
            print(line, end="", flush=True)
            if line.startswith("Target: "):
                targets.append((script.name, line.removeprefix("Target: ").strip()))
        status = proc.wait()
        results.append((script.name, status, time.perf_counter() - started))
    print("\n## Bench scripts\n")
    print("| script | result | seconds |")
    print("|---|---|---:|")
    for name, status, seconds in results:
        print(f"| bench/{name} | {'ok' if status == 0 else f'FAILED (exit {status})'} | {seconds:.1f} |")
    if targets:
        # each line ends "(met)" or "(NOT met)"; read as written, so a line in another form is never counted met
        verdicts = [(name, VERDICT.search(text)) for name, text in targets]
        met = sum(1 for _, found in verdicts if found and found.group(1) == "met")
        print(f"\n## Targets (issue #14): {met} of {len(targets)} met\n")
        print("| script | target: figure | met |")
        print("|---|---|---|")
        for (name, text), (_, found) in zip(targets, verdicts, strict=True):
            said = "yes" if found and found.group(1) == "met" else "**no**" if found else "**unreadable**"
            print(f"| bench/{name} | {text[:found.start()] if found else text} | {said} |")
    return 0 if all(status == 0 for _, status, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
