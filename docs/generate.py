"""Regenerate what the docs derive from the code: the vocabulary table of docs/commands.md.

    python docs/generate.py [--check]

The table (every op, its keys and what the bank does) is made from the ops themselves
(banker/rules/ops.py, by banker.rules.vocabulary) and written between its markers in
docs/commands.md; the rest of the file is left as it is. ``--check`` writes nothing and exits
with status 1 when the file is not up to date (tests/test_vocabulary.py checks the same).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT.parent) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT.parent))

from banker.rules.vocabulary import updated  # noqa: E402

COMMANDS = ROOT / "commands.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that docs/commands.md is up to date")
    args = parser.parse_args(argv)
    text = COMMANDS.read_text(encoding="utf-8")
    new = updated(text)
    if args.check:
        if new != text:
            print(f"{COMMANDS} is not up to date: run python docs/generate.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        COMMANDS.write_text(new, encoding="utf-8")
        print(f"{COMMANDS}: the vocabulary table was rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
