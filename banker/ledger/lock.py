"""One writer per session: an exclusive ``flock`` on ``<FILE>.lock``.

The lock file holds the writer's pid and host name so that a refused second writer can
say who holds the session. The kernel drops the lock when the holder's process ends,
however it ends, so a crash never leaves a session locked.
"""

from __future__ import annotations

import fcntl
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


class LockBusy(Exception):
    """The session is open for writing elsewhere; ``holder`` says by whom, if known."""

    def __init__(self, holder: dict[str, Any] | None) -> None:
        super().__init__("locked")
        self.holder = holder


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _read_holder(fd: int) -> dict[str, Any] | None:
    try:
        raw = os.pread(fd, 4096, 0)
        info = json.loads(raw) if raw.strip() else None
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) else None


class WriterLock:
    """An acquired writer lock; :meth:`release` gives it up (idempotent)."""

    def __init__(self, path: Path, fd: int, created: bool) -> None:
        self.path = path
        self.fd: int | None = fd
        self.created = created

    @classmethod
    def acquire(cls, session_path: Path) -> WriterLock:
        """Lock ``session_path`` for writing; :class:`LockBusy` if another writer has it.

        Raises :class:`OSError` when the lock file cannot be created or opened.
        """
        path = lock_path(session_path)
        created = False
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            created = True
        except FileExistsError:
            fd = os.open(path, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            holder = _read_holder(fd)
            os.close(fd)
            if isinstance(e, BlockingIOError):
                raise LockBusy(holder) from None
            raise
        info = {"pid": os.getpid(), "host": os.uname().nodename,
                "since": datetime.now(UTC).isoformat(timespec="seconds")}
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(info).encode() + b"\n", 0)
        except OSError:  # pragma: no cover - the lock holds even if the note cannot be written
            pass
        return cls(path, fd, created)

    def release(self, discard: bool = False) -> None:
        """Give up the lock; with ``discard`` also remove a lock file this lock created."""
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        try:
            if discard and self.created:
                os.unlink(self.path)  # still locked: nobody else can be using it
            else:
                os.ftruncate(fd, 0)
        except OSError:  # pragma: no cover
            pass
        finally:
            os.close(fd)  # closing the descriptor drops the flock


def lock_holder(session_path: Path) -> dict[str, Any] | None:
    """Who holds the writer lock on ``session_path`` (``{"pid", "host", "since"}``, or
    ``{}`` when the holder is unknown), or None when nobody does."""
    path = lock_path(Path(session_path))
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_holder(fd) or {}
        except OSError:  # pragma: no cover
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def describe_holder(name: str, holder: dict[str, Any] | None) -> str:
    if holder and holder.get("pid"):
        who = f"process {holder['pid']} on host {holder.get('host') or 'unknown'}"
    else:
        who = "another process"
    return f"session {name} is open for writing by {who}; close it there first, or open it read-only"
