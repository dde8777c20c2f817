"""Durable file writes: temp file + fsync + rename + directory fsync.

:class:`AtomicJSONStorage` is a TinyDB :class:`~tinydb.storages.Storage` whose
``write`` replaces the whole file atomically, so the file on disk is always either
the previous complete JSON document or the new one, never a mixture. The session log
writes its checkpoint through it in a single ``write`` call.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

#: errors that mean "this file system cannot sync a directory at all" (not that a sync failed)
_DIR_SYNC_UNSUPPORTED = {errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable.

    A failed sync raises :class:`OSError`: the caller's step is not durable and must stop
    there. Only where directories cannot be synced at all is this a no-op: on Windows
    (no directory handles; NTFS journals its renames) and on file systems that answer
    ``EINVAL``/``ENOTSUP`` to a directory fsync.
    """
    if os.name == "nt":  # pragma: no cover
        return
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in _DIR_SYNC_UNSUPPORTED:
            raise
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written (a write may be short)."""
    n = os.write(fd, data)
    if n == len(data):  # nearly always: one write
        return
    view = memoryview(data)[n:]
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


class FileRefused(Exception):
    """A file that is not a plain file of a sane size: the message says which and why."""


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_regular(path: Path, limit: int, *, nofollow: bool = False, offset: int = 0) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``path`` (from ``offset`` on) and its ``fstat``, read
    without ever blocking.

    Refuses (:class:`FileRefused`) a folder, a FIFO, a device or a socket, before reading a
    byte (a FIFO is opened non-blocking, so it never waits for a writer), and a file over
    ``limit`` bytes (checked on the size and again while reading: ``/dev/zero``-like files
    cannot fill the memory). With ``nofollow`` a symbolic link is refused too.
    :class:`FileNotFoundError` and other :class:`OSError` propagate.
    """
    try:
        st = os.stat(path, follow_symlinks=not nofollow)
    except OSError:
        st = None
    if st is not None:
        if nofollow and stat.S_ISLNK(st.st_mode):
            raise FileRefused(f"{path} is a symbolic link")
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(f"{path} is {_kind(st.st_mode)}, not a file banker reads")
    fd = os.open(path, _READ_FLAGS | (getattr(os, "O_NOFOLLOW", 0) if nofollow else 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(f"{path} is {_kind(st.st_mode)}, not a file banker reads")
        if st.st_size > limit:
            raise FileRefused(f"{path} is {_size(st.st_size)}, more than banker reads in such a file ({_size(limit)})")
        if offset:
            os.lseek(fd, offset, os.SEEK_SET)
        chunks = []
        got = 0
        while True:
            chunk = os.read(fd, max(65536, min(st.st_size - got + 1, limit + 1 - got)))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if got > limit:
                raise FileRefused(f"{path} is larger than banker reads in such a file ({_size(limit)})")
        return b"".join(chunks), st
    finally:
        os.close(fd)


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n} bytes"


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
        data: dict[str, dict[str, Any]] = json.loads(raw)
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        write_durably(self.path, dumps(data))

    def close(self) -> None:
        pass
