"""Issue #10: the vocabulary table of docs/commands.md is generated from the ops, never written by hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from banker.rules import ops
from banker.rules.vocabulary import BEGIN, END, table, updated

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ROOT / "docs" / "commands.md"


def test_docs_commands_holds_the_table_the_ops_make() -> None:
    text = COMMANDS.read_text(encoding="utf-8")
    assert updated(text) == text, "docs/commands.md is out of date: run python docs/generate.py"
    assert text.count(BEGIN) == text.count(END) == 1


def test_the_table_says_every_op_its_keys_and_what_it_does() -> None:
    rows = table().splitlines()[2:]
    assert [row.split("|")[1].strip(" `") for row in rows] == list(ops.OPS)
    salary = rows[list(ops.OPS).index("salary")]
    assert "`player`: who collects; `landed?`: landed exactly on GO" in salary
    assert ops.spec("salary").doc in salary
    trade = rows[list(ops.OPS).index("trade")]
    assert "`from`: the first player" in trade and "`debt_credit?`" in trade


def test_the_generator_checks_and_rewrites_only_the_table() -> None:
    assert subprocess.run([sys.executable, str(ROOT / "docs" / "generate.py"), "--check"], cwd=ROOT).returncode == 0
    with pytest.raises(ValueError, match="markers"):
        updated("no table here")
    stale = f"before\n{BEGIN}\n| stale |\n{END}\nafter\n"
    assert updated(stale) == f"before\n{BEGIN}\n{table()}{END}\nafter\n"
