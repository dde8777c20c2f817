"""Helpers for the session-log tests: edit a session file as a person or a tool would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def reseal(data: dict) -> dict:
    """Make the checksums anew over ``data`` (a parsed session file), as a forger or a file
    written by another engine version would have them: consistent, so only the rules can
    object to its contents. The checkpoint's snapshot, made over the entries as they were, is
    dropped (such a file opens by replaying every entry, as one from before the snapshots)."""
    from banker.ledger import checksum

    data.pop("snapshot", None)
    doc = data["session"]["1"]
    prev = checksum.seed(doc.get("id"))
    entries = data.get("entries", {})
    for key in sorted(entries, key=int):
        entry = entries[key]
        if isinstance(entry, dict):
            entry.pop("sum", None)
            prev = checksum.entry_sum(entry, prev)
            entry["sum"] = checksum.fmt(prev)
    if doc.get("version", 1) >= 2:
        doc["checkpoint"] = {"entries": len(entries), "last": checksum.fmt(prev)}
        doc["sum"] = checksum.fmt(checksum.doc_sum(doc))
    return data


def edit_file(path: Path, change, *, reseal_it: bool = True) -> None:
    """Change the parsed session file with ``change(data)`` and write it back (compact JSON,
    as a text editor or ``jq`` would leave it), with its checksums made anew unless told not."""
    data = json.loads(path.read_text())
    change(data)
    if reseal_it:
        reseal(data)
    path.write_text(json.dumps(data))


def journal_lines(path: Path) -> list[bytes]:
    """The journal's lines (each with its newline, the header first), without the room the writer made ahead of
    them (the NUL bytes at its end, banker.ledger.journal)."""
    from banker.ledger import journal_path
    from banker.ledger.journal import lines_end

    data = journal_path(path).read_bytes()
    return data[:lines_end(data)].splitlines(keepends=True)


def write_at_lines_end(path: Path, data: bytes) -> None:
    """Write ``data`` into the journal where its lines end, over the room made ahead (the zeros after it kept): what
    a writer does, so a line it dies writing, or a damaged one, is found where the writer would have left it."""
    from banker.ledger import journal_path
    from banker.ledger.journal import lines_end

    jpath = journal_path(path)
    with open(jpath, "r+b") as f:
        f.seek(lines_end(f.read()))
        f.write(data)


#: the project's folder: what a child process puts on its import path
ROOT = Path(__file__).resolve().parent.parent


def busy_writer(path: Path, actions: int = 300) -> subprocess.Popen[str]:
    """A writer in another process on the session ``path`` (made already, of Ann, Bob and Cid), once it holds the
    session: it records ``actions`` transfers as fast as it can, checkpointing every seventh."""
    code = """
import sys
from banker.ledger import Session
with Session.open(sys.argv[1]) as s:
    print("ready", flush=True)
    for i in range(int(sys.argv[2])):
        s.apply({"op": "transfer", "from": "bank", "to": ["Ann", "Bob", "Cid"][i % 3], "amount": 1 + i})
        if i % 7 == 0:
            s.checkpoint()
"""
    child = subprocess.Popen([sys.executable, "-c", code, str(path), str(actions)], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child
