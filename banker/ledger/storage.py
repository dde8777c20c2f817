"""Durable file writes: temp file + fsync + rename + directory fsync.

:class:`AtomicJSONStorage` is a TinyDB :class:`~tinydb.storages.Storage` whose
``write`` replaces the whole file atomically, so the file on disk is always either
the previous complete JSON document or the new one, never a mixture. The session log
writes its checkpoint through it in a single ``write`` call.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from tinydb.storages import Storage


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable (a no-op where unsupported)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(directory, flags)
    except OSError:  # pragma: no cover - platforms that cannot open a directory
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems that refuse fsync on a directory
        pass
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written (a write may be short)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def temp_path(path: Path) -> Path:
    """A fresh hidden temp file name next to ``path`` (same directory, same file system)."""
    return path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")


def is_temp_of(candidate: Path, path: Path) -> bool:
    """Whether ``candidate`` is a temp file :func:`temp_path` made for ``path``."""
    name = candidate.name
    return name.startswith(f".{path.name}.") and name.endswith(".tmp")


def write_durably(path: Path, data: bytes, *, replace: bool = True) -> None:
    """Write ``data`` to ``path`` so that a crash at any instant leaves either the old
    file (or none) or the complete new one.

    The bytes go to a temp file in the same directory, which is flushed and fsynced,
    then renamed over ``path`` (``os.replace`` is atomic on POSIX), then the directory
    is fsynced so the rename itself survives a power cut. With ``replace=False`` the
    file must not exist yet: the temp file is hard-linked into place, which fails with
    :class:`FileExistsError` instead of overwriting anything.
    """
    path = Path(path)
    tmp = temp_path(path)
    mode = 0o644
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def _link_new(tmp: Path, path: Path) -> None:
    try:
        os.link(tmp, path)  # atomic, and refuses to overwrite
    except FileExistsError:
        raise
    except OSError:  # pragma: no cover - a file system without hard links
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def dumps(data: Any) -> bytes:
    """The JSON of a TinyDB document, as TinyDB's own JSONStorage would read it back.

    ASCII-only, so plain ``tinydb.TinyDB(path)`` reads it whatever the locale's encoding.
    """
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode("ascii")


class AtomicJSONStorage(Storage):
    """A TinyDB storage that writes the whole database atomically (temp + fsync + rename).

    TinyDB's default :class:`~tinydb.storages.JSONStorage` rewrites its file in place,
    so a crash in the middle of a write leaves a torn file. This one never does. It
    keeps no file open between calls.
    """

    def __init__(self, path: str | os.PathLike[str], **_: Any) -> None:
        super().__init__()
        self.path = Path(path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        if not raw.strip():
            return None
        return json.loads(raw)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        write_durably(self.path, dumps(data))

    def close(self) -> None:
        pass
