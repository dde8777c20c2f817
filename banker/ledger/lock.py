"""One writer per session: an exclusive lock on ``<FILE>.lock``, bound to that file.

The lock itself is an exclusive ``flock`` on Linux and macOS (taken here the way filelock's
portable descriptor lock takes it there: the same call, the same answers read as "held
elsewhere"), and filelock's descriptor lock (``LockFileEx``) where there is no ``fcntl``
(Windows); filelock is imported only there, or for the soft lock below, as it costs a
console's start some 10 ms it does not otherwise need. It is taken on a descriptor this module opens: never through a
symbolic link (``O_NOFOLLOW``), only on a regular file owned by the user, never truncated
by a contender. After locking, the path must still name the very file that was locked
(device and inode), else the lock guards nothing and is taken again: a lock file deleted
or replaced under a waiting writer never lets two writers in.

The lock file says who holds it: its first line is a fixed label, its second line the
holder's ``{"pid", "host", "since"}``, written right after the lock is taken and cleared
before it is given up. A refused writer reads that line; when it is empty, half written
or names a process of this host that is no longer running (a holder killed mid-game
leaves its line behind), the new holder is still starting, or could not write its line (a
full disk): the refused writer waits a moment for the line and otherwise says that another
process holds the session without having said who, and why that may be. The kernel drops the lock
when the holder's process ends, however it ends, so a crash never leaves a session locked.

On Linux and macOS the writer also locks its journal (:func:`guard_journal`): the journal
is never replaced while a writer runs, so deleting ``FILE.lock`` under a running writer
still leaves the next writer refused. (Windows refuses to delete a file that is open.)

Where the system or the file system has no lock at all (no ``fcntl``, or a file system
answering ``ENOSYS``), filelock's :class:`~filelock.SoftFileLock` is used instead: an
exclusively created marker ``<FILE>.lock.held`` with the holder's pid, broken only when
that process is provably gone.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    import fcntl as _fcntl
except ImportError:  # Windows (or a Python without it): filelock's lock, see _lock_fd
    _fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:  # pragma: no cover
    import filelock

from .format import Said

#: the lock file's first line (filelock locks byte 0 on Windows: the holder's line comes after it)
LABEL = b"banker writer lock; the writer holding it, if any, is on the next line\n"
#: how long a contender waits for a starting holder to write its line (seconds)
STARTING_WAIT = 0.5
#: how many times a lock taken on a file no longer at the path is taken again
REBIND_TRIES = 20
_NOTE_MAX = 4096


class LockBusy(Exception):
    """The session is open for writing elsewhere; ``holder`` says by whom (None: it is starting)."""

    def __init__(self, holder: dict[str, Any] | None) -> None:
        super().__init__("locked")
        self.holder = holder


class LockUnsafe(Exception):
    """The lock file is not a plain file of this user's: refuse rather than lock through it."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.text)
        self.said = said


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def soft_marker_path(path: Path) -> Path:
    """The marker of the fallback lock, next to the lock file (``<FILE>.lock.held``)."""
    return path.with_name(path.name + ".lock.held")


def _flags(*names: str) -> int:
    out = 0
    for name in names:
        out |= getattr(os, name, 0)
    return out


def _unsafe(path: Path, what: Said) -> LockUnsafe:
    return LockUnsafe(Said(f"{path} is {what}, not the plain lock file banker makes; nothing was written through it "
                           "(remove it if no banker has this session open, then try again)", "lock_not_plain", path=path,
                           what=what))


def _open_lock_file(path: Path, create: bool) -> tuple[int, bool] | None:
    """A descriptor on the lock file at ``path`` and whether this call created it; None when
    ``create`` is false and there is none. Never follows a symbolic link; refuses anything but
    a regular file owned by this user."""
    base = _flags("O_NOFOLLOW", "O_CLOEXEC", "O_NONBLOCK", "O_BINARY")
    created = False
    try:
        if create:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | base, 0o644)
                created = True
            except FileExistsError:
                fd = os.open(path, os.O_RDWR | base)
        else:
            fd = os.open(path, os.O_RDONLY | base)
    except FileNotFoundError:
        if create:
            raise
        return None
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(path):
            raise _unsafe(path, Said("a symbolic link", "kind_symlink")) from None
        if os.path.isdir(path):
            raise _unsafe(path, Said("a folder", "kind_folder")) from None
        if e.errno in (errno.ENXIO, errno.EWOULDBLOCK):  # a FIFO or socket without a peer
            raise _unsafe(path, Said("a special file", "kind_special")) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _unsafe(path, Said("a folder", "kind_folder") if stat.S_ISDIR(st.st_mode)
                          else Said("a special file (a pipe or a device)", "kind_pipe"))
        if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
            raise _unsafe(path, Said(f"another user's file (uid {st.st_uid})", "kind_other_user", uid=st.st_uid))
    except BaseException:
        os.close(fd)
        raise
    return fd, created


def _foreign(fd: int) -> bool:
    """Whether the file open on ``fd`` holds what no banker lock file ever holds (a project's ``poetry.lock``
    beside a session named ``poetry``, a session file named ``X.json.lock``): a lock file is empty, the label
    (whole or partly written) with or without a holder's line, or a holder's line alone (the first format)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        head = os.read(fd, _NOTE_MAX)
    except OSError:  # pragma: no cover - unreadable here: the lock decides as before
        return False
    if not head.strip(b"\0") or head.startswith(LABEL) or LABEL.startswith(head.rstrip(b"\0")):
        return False  # empty (or the zeros a power cut can leave), the label whole or partly written
    if head.startswith(b'{"pid"'):  # the first format's holder line, whole or cut short
        return False
    try:
        info = json.loads(head.partition(b"\n")[0])
    except ValueError:
        return True
    return not (isinstance(info, dict) and "pid" in info)


def _refuse_foreign(session_path: Path, path: Path) -> LockUnsafe:
    return LockUnsafe(Said(f"{path} holds something else, not a banker lock, and banker keeps the lock of "
                           f"{session_path.name} there; nothing was written to it (give the session another name, "
                           "such as one ending in .json, or move that file away)", "lock_foreign", path=path,
                           name=session_path.name))


def _still_named(path: Path, fd: int) -> bool:
    """Whether ``path`` still names the file open on ``fd`` (same device and inode)."""
    try:
        on_disk = os.lstat(path)
    except OSError:
        return False
    held = os.fstat(fd)
    return stat.S_ISREG(on_disk.st_mode) and (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)


def _host() -> str:
    return os.uname().nodename if hasattr(os, "uname") else os.environ.get("COMPUTERNAME", "")


def _note() -> bytes:
    info = {"pid": os.getpid(), "host": _host(),
            "since": datetime.now(UTC).isoformat(timespec="seconds")}
    return LABEL + json.dumps(info).encode() + b"\n"


def _write_note(fd: int, data: bytes) -> OSError | None:
    """Put the holder's line in the lock file (best effort: the lock holds without it); the error when it could not
    be written (a full disk), for the holder to say: refused writers then say the holder has not said who it is
    (describe_holder), and only the holder's banker can be told why (WriterLock.unnamed)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.ftruncate(fd, len(data))
    except OSError as e:
        return e
    return None


def _read_note(fd: int) -> dict[str, Any] | None:
    """The holder's line, if it is complete (read past byte 0, which Windows keeps locked)."""
    try:
        os.lseek(fd, 1, os.SEEK_SET)
        raw = os.read(fd, _NOTE_MAX)
    except OSError:
        return None
    label = LABEL[1:]
    if not raw.startswith(label):
        return None
    line, newline, _ = raw[len(label):].partition(b"\n")
    if not newline:
        return None
    try:
        info = json.loads(line)
    except ValueError:
        return None
    return info if isinstance(info, dict) and isinstance(info.get("pid"), int) else None


def _alive(holder: dict[str, Any]) -> bool:
    """False when the line names a process of this host that is gone (a stale line)."""
    if holder.get("host") != _host() or os.name != "posix":
        return True  # cannot tell: believe it
    try:
        os.kill(holder["pid"], 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, another user's
        return True
    return True


#: the errnos of a nonblocking ``flock`` that another process holds (some file systems say EACCES), as filelock reads them
_HELD_ELSEWHERE = frozenset({errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK})


def _lock_fd(fd: int) -> bool:
    """Try the native lock once: True when taken, False when another process holds it;
    OSError(ENOSYS) when there is no native lock here."""
    if _fcntl is None:
        import filelock

        return filelock.lock_descriptor(fd, blocking=False)
    try:
        _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in _HELD_ELSEWHERE:
            return False
        raise
    return True


def _unlock_fd(fd: int) -> None:
    if _fcntl is None:
        import filelock

        filelock.unlock_descriptor(fd)
    else:
        _fcntl.flock(fd, _fcntl.LOCK_UN)


def _no_native_lock(e: OSError) -> bool:
    return e.errno in (errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP)


class WriterLock:
    """An acquired writer lock; :meth:`release` gives it up (idempotent)."""

    def __init__(self, path: Path, fd: int, created: bool, soft: filelock.BaseFileLock | None = None,
                 unnamed: OSError | None = None) -> None:
        self.path = path
        self.fd: int | None = fd
        self.created = created
        self.soft = soft
        #: why the holder's line could not be written in the lock file (None: it was): the lock holds all the same,
        #: but every other opener is told only that a process "has not written its name"
        self.unnamed = unnamed

    @classmethod
    def acquire(cls, session_path: Path) -> WriterLock:
        """Lock ``session_path`` for writing; :class:`LockBusy` if another writer has it.

        Raises :class:`LockUnsafe` when the lock file is a link, a folder, a special file or
        another user's, and :class:`OSError` when it cannot be created or opened.
        """
        path = lock_path(session_path)
        deadline = time.monotonic() + STARTING_WAIT
        rebinds = 0
        while True:
            fd, created = _open_lock_file(path, create=True)  # type: ignore[misc]
            try:
                got = _lock_fd(fd)
            except OSError as e:
                if not _no_native_lock(e):
                    os.close(fd)
                    raise
                return cls._acquire_soft(session_path, path, fd, created)
            except BaseException:
                os.close(fd)
                raise
            if got:
                if _still_named(path, fd):
                    if not created and _foreign(fd):  # never written over: it is not banker's
                        _unlock_fd(fd)
                        os.close(fd)
                        raise _refuse_foreign(session_path, path)
                    unnamed = _write_note(fd, _note())
                    return cls(path, fd, created, unnamed=unnamed)
                os.close(fd)  # locked a file that is no longer the lock file: take the one there now
                rebinds += 1
                if rebinds > REBIND_TRIES:
                    raise OSError(errno.EBUSY, "the lock file keeps being replaced", str(path))
                continue
            holder = _read_note(fd)
            os.close(fd)
            if holder is not None and _alive(holder):
                raise LockBusy(holder)
            if time.monotonic() >= deadline:
                raise LockBusy(None)
            time.sleep(0.02)  # the holder is starting (or a reader is probing): its line comes in a moment

    @classmethod
    def _acquire_soft(cls, session_path: Path, path: Path, fd: int, created: bool) -> WriterLock:
        import filelock

        soft = filelock.SoftFileLock(str(soft_marker_path(session_path)), timeout=0, is_singleton=False)
        try:
            soft.acquire(timeout=0)
        except filelock.Timeout:
            holder = _read_note(fd)
            os.close(fd)
            raise LockBusy(holder if holder is not None and _alive(holder) else None) from None
        except BaseException:
            os.close(fd)
            raise
        if not created and _foreign(fd):
            os.close(fd)
            soft.release()
            raise _refuse_foreign(session_path, path)
        unnamed = _write_note(fd, _note())
        return cls(path, fd, created, soft, unnamed)

    def release(self, discard: bool = False) -> None:
        """Give up the lock; with ``discard`` also remove a lock file this lock created."""
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        try:
            if discard and self.created:
                # still locked: a contender that opened it meanwhile finds it gone from the path and starts over
                os.unlink(self.path)
            else:
                os.ftruncate(fd, len(LABEL))  # the holder's line goes first: nobody is named once it is free
        except OSError:  # pragma: no cover
            pass
        finally:
            os.close(fd)  # closing the descriptor drops the lock
            if self.soft is not None:
                soft, self.soft = self.soft, None
                try:
                    soft.release()
                except OSError:  # pragma: no cover - its marker already gone: nothing is held
                    pass


def guard_journal(fd: int) -> bool:
    """The writer's second lock, on its open journal: False when another process holds it.

    Only where locks are advisory (Linux, macOS): there readers read the journal unhindered,
    and a writer that got in because ``FILE.lock`` was deleted under a running writer is
    still refused here. On Windows a locked range cannot even be read, and an open file
    cannot be deleted, so this is not needed and not done.
    """
    if os.name != "posix":
        return True
    try:
        return _lock_fd(fd)
    except OSError as e:
        if _no_native_lock(e):
            return True
        raise


def lock_holder(session_path: Path) -> dict[str, Any] | None:
    """Who holds the writer lock on ``session_path`` (``{"pid", "host", "since"}``, or
    ``{}`` when the holder has not said yet), or None when nobody does."""
    session_path = Path(session_path)
    if os.path.islink(session_path):  # the lock is named after the real file (see session.resolve)
        session_path = Path(os.path.realpath(session_path))
    path = lock_path(session_path)
    try:
        opened = _open_lock_file(path, create=False)
    except (OSError, LockUnsafe):
        return None
    if opened is None:
        return None
    fd = opened[0]
    try:
        try:
            free = _lock_fd(fd)
        except OSError as e:
            if not _no_native_lock(e):
                return None
            holder = _read_note(fd)
            if os.path.lexists(soft_marker_path(session_path)) and holder is not None and _alive(holder):
                return holder
            return None
        if free:
            _unlock_fd(fd)
            return None
        holder = _read_note(fd)
        return holder if holder is not None and _alive(holder) else {}
    finally:
        os.close(fd)


def describe_holder(name: str, holder: dict[str, Any] | None) -> Said:
    if holder and holder.get("pid"):
        host = holder.get("host")
        who = holder_clause(name, holder).text
        text = f"session {name} is open for writing by {who}; close it there first (`banker review` shows it read-only meanwhile)"
        if host:
            return Said(text, "locked_by", name=name, pid=holder["pid"], host=host)
        return Said(text, "locked_by_unknown_host", name=name, pid=holder["pid"])
    # the lock is held, by a process that has not said who it is: one just starting (its line comes a moment after
    # its lock), or one that could not write its line at all (a full disk: _write_note) and holds it for as long
    # as it runs; only the first passes by itself
    lock = f"{name}.lock"
    return Said(f"session {name} is open for writing by another process, which has not written its name in {lock} "
                "(it may be just starting, or the disk may be full); try again in a moment, and if this stays so, close "
                "the other banker or free some space (`banker review` shows it read-only meanwhile)", "locked_unnamed",
                name=name, lock=lock)


def holder_clause(name: str, holder: dict[str, Any]) -> Said:
    """Who holds the lock (``holder``: :func:`lock_holder`'s answer, not None), as a clause of another sentence:
    "process 4242 on host vm", or another process that has not said who it is."""
    if holder.get("pid"):
        if holder.get("host"):
            return Said(f"process {holder['pid']} on host {holder['host']}", "holder_pid_host", pid=holder["pid"],
                        host=holder["host"])
        return Said(f"process {holder['pid']} on host unknown", "holder_pid", pid=holder["pid"])
    lock = f"{name}.lock"
    return Said(f"another process, which has not written its name in {lock}", "holder_unnamed", lock=lock)


__all__ = ["LockBusy", "LockUnsafe", "WriterLock", "describe_holder", "guard_journal", "holder_clause", "lock_holder",
           "lock_path", "soft_marker_path"]
