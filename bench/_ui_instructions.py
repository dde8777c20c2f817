"""Bench: the work before the console's first frame, counted in instructions (valgrind's callgrind), not timed.

On a shared machine the start-to-frame times of ``bench/ui.py`` move by a few hundredths of the ratio from one run
to the next, more than a cut of one or two milliseconds is worth: such a cut cannot be seen in them. callgrind
counts the instructions the process runs, which come out the same within some 0.3% from one run to the next,
whatever else the machine is doing; it is for comparing two versions of the code, and for seeing which part of
the start a difference is in. It is not the issue's target (a time), and the ratio it gives is not the time's:
the instructions leave out what the process waits for and count what its threads run side by side.

Each case is ``bench/ui.py``'s child (the same command, the same first frame: every player and the last action),
run under callgrind twice, ending at once (``os._exit``) where it is counted to: once its modules are imported
(Textual's and the console's), once at the first frame. The empty Textual app is the baseline, as in ui.py.

    python bench/_ui_instructions.py [--actions 20000] [--dir /some/disk]

Not run by ``make bench`` (bench/run_all.py leaves out names starting with "_"): it needs valgrind (Debian's
package ``valgrind``) and takes about two minutes. The runs go one at a time.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import ui  # noqa: E402  (bench/ui.py: the child, the session's markers, making a session)

#: callgrind's summary line: "==123== Collected : 1234567"
COLLECTED = re.compile(rb"Collected\s*:\s*(\d+)")
#: where a child is counted to (bench/ui.py's BENCH_EXIT_AT)
POINTS = ("imported", "frame")


def count(args: list[str], point: str) -> int:
    """The instructions one child runs until ``point``, under callgrind."""
    env = {**os.environ, "BENCH_EXIT_AT": point,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *args],
                          capture_output=True, env=env, cwd=ROOT, timeout=600)
    found = COLLECTED.search(proc.stderr)
    if proc.returncode or found is None:
        raise SystemExit(f"bench/_ui_instructions.py: child {args[2:3]} failed (exit {proc.returncode}):\n"
                         f"{proc.stderr.decode(errors='replace')[-3000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=ui.LONG, help="actions in the long session (default 20,000)")
    parser.add_argument("--dir", help="where to write the sessions (default: a temp folder)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/_ui_instructions.py: valgrind is not installed (Debian: apt-get install valgrind)")
    compileall.compile_dir(str(ROOT / "banker"), quiet=1)  # as ui.py: the modules compiled, as pip leaves them
    size = f"{ui.SIZE[0]},{ui.SIZE[1]}"
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="banker-bench-instructions-") as tmp:
        sessions = {"banker, 0-action session": Path(tmp) / "game-0.json",
                    f"banker, {args.actions:,}-action session": Path(tmp) / f"game-{args.actions}.json"}
        for (_label, path), n in zip(sessions.items(), (0, args.actions), strict=True):
            ui.make_session(path, n, ui.SEED + n)
        cases = {"empty Textual app (one Static)": ["-c", ui.CHILD, "empty", "-", json.dumps(["Hello from an empty app"]), size]}
        for label, path in sessions.items():
            cases[label] = ["-c", ui.CHILD, "banker", str(path), json.dumps(ui.markers_for(path)), size]
        counts = {label: {point: count(child, point) for point in POINTS} for label, child in cases.items()}
    empty = counts["empty Textual app (one Static)"]
    print("## Instructions before the console's first frame (callgrind; not a time)")
    print()
    print(f"Headless {ui.SIZE[0]}×{ui.SIZE[1]}, `bench/ui.py`'s child ended at once where it is counted to; "
          "millions of instructions, × the empty app's.")
    print()
    print("| process | to the modules imported | then to the first frame | to the first frame | × empty app |")
    print("|---|---:|---:|---:|---:|")
    for label, got in counts.items():
        print(f"| {label} | {got['imported'] / 1e6:,.1f} | {(got['frame'] - got['imported']) / 1e6:,.1f} | "
              f"{got['frame'] / 1e6:,.1f} | {got['frame'] / empty['frame']:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
