"""Issue #10: the layers inside banker/rules hold, checked on the source itself.

No module of the engine imports inside a function (an import circle hidden there is the one the
issue found), the engine imports nothing from banker.boards, and the modules of banker/rules import
each other without a cycle (imports under TYPE_CHECKING are annotations only and do not count), as
the acyclic_siblings contract of pyproject.toml says for import-linter.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

RULES = Path(__file__).resolve().parent.parent / "banker" / "rules"


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def function_level_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed: set[int] = set()
    for node in tree.body:  # module level: plain imports, and the TYPE_CHECKING block
        if isinstance(node, ast.Import | ast.ImportFrom):
            allowed.add(id(node))
        elif isinstance(node, ast.If) and _type_checking(node):
            allowed.update(id(n) for n in ast.walk(node))
    return [f"{path.name}:{n.lineno}" for n in ast.walk(tree)
            if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in allowed]


def test_no_module_of_the_engine_imports_inside_a_function() -> None:
    found = [where for path in sorted(RULES.glob("*.py")) for where in function_level_imports(path)]
    assert found == []


def test_the_engine_imports_nothing_from_the_boards() -> None:
    graph = grimp.build_graph("banker", exclude_type_checking_imports=True)
    assert not graph.chain_exists(importer="banker.rules", imported="banker.boards", as_packages=True)


def test_the_modules_of_the_engine_import_each_other_without_a_cycle() -> None:
    graph = grimp.build_graph("banker", exclude_type_checking_imports=True)
    modules = sorted(m for m in graph.modules if m.startswith("banker.rules."))
    cycles = [(a, b) for a in modules for b in modules
              if a < b and graph.chain_exists(importer=a, imported=b) and graph.chain_exists(importer=b, imported=a)]
    assert cycles == []
