"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def session_path(tmp_path: Path) -> Path:
    """Where a test's session file goes (not created)."""
    return tmp_path / "game.json"


@pytest.fixture
def file_bytes():
    """``file_bytes(path)``: the bytes of a session file and of its journal (None for a
    missing one), to assert that something left them untouched."""

    def snapshot(path: Path) -> dict[str, bytes | None]:
        out: dict[str, bytes | None] = {}
        for p in (path, path.with_name(path.name + ".journal")):
            out[p.name] = p.read_bytes() if p.exists() else None
        return out

    return snapshot
