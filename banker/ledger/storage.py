"""Durable file writes: temp file + fsync + rename + directory fsync.

A file so written is always either the previous complete document or the new one, never
a mixture: the session log writes its checkpoint this way. TinyDB's own storage with the same
writes is :class:`banker.ledger.tinydb_storage.AtomicJSONStorage` (a module of its own, so that
opening a session does not import TinyDB).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from .said import Said

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


def write_at(fd: int, data: bytes, offset: int) -> None:
    """:func:`write_all` at ``offset`` (the fd is left standing after the bytes written; ``os.pwrite`` would not
    be there on Windows)."""
    os.lseek(fd, offset, os.SEEK_SET)
    write_all(fd, data)


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
    """A file that is not a plain file of a sane size: the message says which and why. ``key`` (of the
    catalogs' ``[session]`` table) and ``params`` say it again for the translator, as a
    :class:`~banker.ledger.format.SessionError` does; ``str()`` stays English."""

    def __init__(self, message: str, *, key: str, **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _kind(mode: int) -> Said:
    if stat.S_ISDIR(mode):
        return Said("a folder", "kind_folder")
    if stat.S_ISFIFO(mode):
        return Said("a named pipe (FIFO)", "kind_fifo")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Said("a device", "kind_device")
    if stat.S_ISSOCK(mode):
        return Said("a socket", "kind_socket")
    return Said("not a regular file", "kind_not_regular")


def _not_regular(path: Path, mode: int) -> FileRefused:
    kind = _kind(mode)
    return FileRefused(f"{path} is {kind}, not a file banker reads", key="file_not_regular", path=path, kind=kind)


def open_regular(path: Path, limit: int, *, nofollow: bool = False) -> tuple[int, os.stat_result]:
    """The regular file at ``path`` opened for reading, without ever blocking: its file descriptor (the
    caller's to close) and its ``fstat``.

    Refuses (:class:`FileRefused`) a folder, a FIFO, a device or a socket, before reading a
    byte (a FIFO is opened non-blocking, so it never waits for a writer), and a file over
    ``limit`` bytes. With ``nofollow`` a symbolic link is refused too.
    :class:`FileNotFoundError` and other :class:`OSError` propagate.
    """
    try:
        st = os.stat(path, follow_symlinks=not nofollow)
    except OSError:
        st = None
    if st is not None:
        if nofollow and stat.S_ISLNK(st.st_mode):
            raise FileRefused(f"{path} is a symbolic link", key="file_symlink", path=path)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
    fd = os.open(path, _READ_FLAGS | (getattr(os, "O_NOFOLLOW", 0) if nofollow else 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
        if st.st_size > limit:
            size, most = _size(st.st_size), _size(limit)
            raise FileRefused(f"{path} is {size}, more than banker reads in such a file ({most})", key="file_too_big",
                              path=path, size=size, limit=most)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_regular(path: Path, limit: int, *, nofollow: bool = False, offset: int = 0) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``path`` (from ``offset`` on) and its ``fstat``, read
    without ever blocking: :func:`open_regular`'s refusals, and a file that grows past ``limit``
    while it is read (``/dev/zero``-like files cannot fill the memory).
    """
    fd, st = open_regular(path, limit, nofollow=nofollow)
    try:
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
                most = _size(limit)
                raise FileRefused(f"{path} is larger than banker reads in such a file ({most})", key="file_grew",
                                  path=path, limit=most)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def _size(n: int) -> Said:
    if n >= 2**20:
        return Said(f"{n / 2**20:.1f} MB", "size_mb", size=f"{n / 2**20:.1f}")
    return Said(f"{n} bytes" if n != 1 else "1 byte", "size_bytes", n=n)


def dumps(data: Any) -> bytes:
    """The JSON of a TinyDB document, as TinyDB's own JSONStorage would read it back.

    ASCII-only, so plain ``tinydb.TinyDB(path)`` reads it whatever the locale's encoding.
    """
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode("ascii")
