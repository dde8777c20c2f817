"""Finding sessions: the default folder and the list of recent sessions (the resume list)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from .format import SessionError, journal_path, resolve
from .reader import read_session_doc


def default_session_dir() -> Path:
    """Where sessions live unless told otherwise (the platform's user data folder)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("banker"))


def session_info(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A summary of one session file, read-only; :class:`SessionError` if it is not one.

    Keys: path, name, id, created, date, modified, edition, variant, players,
    house_rules, actions, last (the last entry, for its sentence in the interface's language), last_text (its
    stored English), last_ts.
    """
    path = Path(path)
    doc, entries = read_session_doc(path)
    mtimes = []
    for p in (path, journal_path(resolve(path))):
        try:
            mtimes.append(os.stat(p).st_mtime)
        except OSError:
            pass
    modified = datetime.fromtimestamp(max(mtimes)).isoformat(sep=" ", timespec="seconds") if mtimes else ""
    created = doc.get("created") or ""
    last = entries[-1] if entries else None
    return {
        "path": str(path),
        "name": doc.get("name") or path.stem,
        "id": doc.get("id"),
        "created": created,
        "date": created[:10],
        "modified": modified,
        "edition": doc.get("edition"),
        "variant": doc.get("variant"),
        "players": list(doc.get("players", [])),
        "house_rules": dict(doc.get("house_rules") or {}),
        "actions": len(entries),
        "last": last,
        "last_text": last.text if last else None,
        "last_ts": last.ts if last else None,
    }


def _marked(path: Path) -> bool:
    """Whether the file begins as a banker session does (its format marker in the first bytes): one cut short or
    damaged is still the evening's game, not another program's file."""
    try:
        with open(path, "rb") as f:
            return b'"banker-session"' in f.read(4096)
    except OSError:
        return False


def recent_sessions(directory: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    """Every session file (``*.json``) in ``directory`` (default: :func:`default_session_dir`),
    most recently changed first, as :func:`session_info` dicts. Files that are not sessions are
    skipped; a session that cannot be read (damaged, too large, written by a newer banker) is
    listed with its ``error`` (the :class:`SessionError`), not left out: a game never seems to
    vanish. Nothing is modified."""
    folder = Path(directory) if directory is not None else default_session_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob("*.json"):
        if path.name.startswith(".") or not path.is_file():
            continue
        try:
            found.append(session_info(path))
        except SessionError as e:
            if e.key == "not_session" and not _marked(path):  # another program's JSON in the folder
                continue
            try:
                modified = datetime.fromtimestamp(os.stat(path).st_mtime).isoformat(sep=" ", timespec="seconds")
            except OSError:  # pragma: no cover - gone meanwhile
                continue
            found.append({"path": str(path), "name": path.stem, "modified": modified, "players": [], "error": e})
    found.sort(key=lambda info: (info["modified"], info["path"]), reverse=True)
    return found
