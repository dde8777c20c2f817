"""The vocabulary table of docs/commands.md, generated from the ops (:mod:`banker.rules.ops`).

Pure text: :func:`table` is the Markdown table of every op (its keys, each with its meaning,
``?`` marking an optional one, and what the bank does); :func:`updated` puts it between the
markers of a document. ``python docs/generate.py`` rewrites docs/commands.md with it, and a
test (tests/test_vocabulary.py) checks that the file holds exactly this table.
"""

from __future__ import annotations

from .ops import SPECS, FieldSpec

BEGIN = "<!-- ops: generated from banker/rules/ops.py by `python docs/generate.py`; edit the ops, not this table -->"
END = "<!-- /ops -->"


def _key(f: FieldSpec) -> str:
    return f"`{f.key}{'?' if f.optional else ''}`: {f.doc}"


def table() -> str:
    """Every op as a row: the op, its keys, what the bank does."""
    rows = ["| op | keys | what the bank does |", "|---|---|---|"]
    for op, spec in SPECS.items():
        keys = "; ".join(_key(f) for f in spec.fields)
        rows.append(f"| `{op}` | {keys} | {spec.doc} |")
    return "\n".join(rows) + "\n"


def updated(document: str) -> str:
    """``document`` with the table between its markers replaced by :func:`table`; ValueError
    when the markers are missing."""
    start = document.find(BEGIN)
    end = document.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the document has no {BEGIN!r} ... {END!r} markers")
    return document[: start + len(BEGIN)] + "\n" + table() + document[end:]
