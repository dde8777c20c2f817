"""The rules engine and the session log stay free of the UI (as Harlequin's import-hygiene test).

`banker/rules` is pure game logic: no Textual, no TinyDB, no file or network I/O.
`banker/ledger` may use TinyDB but never Textual. The UI reaches TinyDB only through the ledger.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "banker"


def imported_modules(package: str) -> set[str]:
    names: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("module", ["banker.rules", "banker.ledger", "banker.boards"])
def test_importing_the_core_loads_no_textual(module):
    code = f"import sys, {module}; bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')); print(bad)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]", f"{module} pulls in {out}"


def test_rules_source_imports_no_io_or_ui():
    forbidden = {"textual", "tinydb", "rich", "os", "io", "socket", "http", "pathlib", "shutil", "sqlite3", "time",
                 "datetime", "platformdirs", "qrcode"}
    assert imported_modules("rules") & forbidden == set()
    rules_text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules").rglob("*.py"))
    assert "open(" not in rules_text


def test_ledger_source_imports_no_textual():
    assert imported_modules("ledger") & {"textual", "rich"} == set()


def test_ui_never_touches_tinydb_directly():
    ui = ROOT / "ui"
    if ui.exists():
        assert "tinydb" not in imported_modules("ui")
