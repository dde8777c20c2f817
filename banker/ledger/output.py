"""Files the program writes besides the session log (exports): never over anything by surprise.

:func:`write_new_files` writes a set of files all or nothing:

- every target is checked before any byte is written; an existing one is refused
  (:class:`OutputExists`) unless ``force`` is given;
- the files given in ``protect`` (the session file, its journal and its lock, see
  :func:`session_files`) are refused even with ``force`` (:class:`OutputProtected`), however
  the target names them: ``./friday.json``, ``sub/../friday.json``, a symbolic link to one of
  them, a hard link to one of them; and ``force`` never replaces any banker session, journal
  or lock file either;
- every file is written to a hidden temp file in the target's folder and fsynced, then each is put in place
  with ``os.link`` (which refuses to replace anything, even a file that appeared a moment
  ago) or, with ``force`` over an existing file, ``os.replace``; then the folder is fsynced.
  A file seen under the target's name is always complete. A symbolic link at the target is
  replaced itself, never written through;
- if one file cannot be written, no target is touched (the temp files are removed); if one cannot be put in
  place, the files this call created are removed again.

See docs/session-log.md ("Every file banker writes").
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from .format import is_session_data, journal_path, why
from .journal import JOURNAL_FORMAT
from .lock import lock_path
from .said import Said
from .storage import fsync_dir, write_all


class OutputError(Exception):
    """A file that cannot be written; the message is one line naming it, and ``key`` and ``params`` (of the
    catalogs' ``[session]`` table) say it again for the translator, as a :class:`SessionError` does."""

    def __init__(self, path: Path, said: Said) -> None:
        super().__init__(said.text)
        self.path = path
        self.key = said.key
        self.params = said.params


class OutputExists(OutputError):
    """The target exists and ``force`` was not given."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, Said(f"{path} already exists", "output.exists", path=path))


#: what a protected file is (:class:`OutputProtected`'s ``kind``), in English; ``{owner}``: its session file's name
PROTECTED_WORDS = {"session": "the session file {owner} itself", "journal": "the journal of {owner}",
                   "lock": "the lock file of {owner}", "other_session": "a banker session",
                   "other_journal": "a banker journal"}

#: a protected file: its kind (a key of :data:`PROTECTED_WORDS`) and its session file's name ("" when not known)
Protected = tuple[str, str]


class OutputProtected(OutputError):
    """The target is a session's own file: never replaced, not even with ``force``. ``kind`` says which (a key of
    :data:`PROTECTED_WORDS`: "session", "journal" or "lock" of the session ``owner`` names, or a file that reads as
    "other_session" or "other_journal"), for the command line to say in the banker's language."""

    def __init__(self, path: Path, protected: Protected) -> None:
        self.kind, self.owner = protected
        what = PROTECTED_WORDS[self.kind].format(owner=self.owner)
        super().__init__(path, Said(f"{path} is {what}", "output.protected", path=path, what=what))


def session_files(session: str | os.PathLike[str]) -> dict[Path, Protected]:
    """A session's own files, each with what it is."""
    path = Path(session)
    return {path: ("session", path.name), journal_path(path): ("journal", path.name), lock_path(path): ("lock", path.name)}


def _entry(path: Path) -> str:
    """The directory entry ``path`` names, absolute, with the folders' links resolved but not the
    last component (``sub/../x`` and ``./x`` are ``x``; a link named ``x`` stays ``x``)."""
    return os.path.join(os.path.realpath(path.parent), path.name)


def _ids(path: Path) -> set[tuple[int, int]]:
    """(device, inode) of what ``path`` names and of what it points to, for those that exist."""
    out = set()
    for look in (os.lstat, os.stat):
        try:
            st = look(path)
        except OSError:
            continue
        out.add((st.st_dev, st.st_ino))
    return out


def protected_reason(target: Path, protect: Mapping[Path, Protected]) -> Protected | None:
    """What ``target`` is among the ``protect`` files (or None): by name, by where a link at
    ``target`` leads, and by inode (a hard link)."""
    names = {_entry(target), os.path.realpath(target)}
    ids = _ids(target)
    for path, what in protect.items():
        if _entry(path) in names or os.path.realpath(path) in names:
            return what
        try:
            st = os.stat(path)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in ids:
            return what
    return None


def _banker_file(target: Path) -> Protected | None:
    """Whether an existing ``target`` is a banker session, journal or lock file (of any session)."""
    name = target.name
    for suffix, kind in ((".journal", "journal"), (".lock", "lock")):
        if name.endswith(suffix) and len(name) > len(suffix):
            owner = target.with_name(name[: -len(suffix)])
            if os.path.lexists(owner):
                return kind, owner.name
    try:
        with open(target, "rb") as f:
            head = f.read(4096)
            if head.lstrip()[:1] != b"{" and JOURNAL_FORMAT.encode() in head.split(b"\n", 1)[0]:
                return "other_journal", ""
            if head.lstrip()[:1] != b"{":
                return None
            data = json.loads(head + f.read())
    except (OSError, ValueError):
        return None
    return ("other_session", "") if is_session_data(data) else None


def _check(target: Path, protect: Mapping[Path, Protected], force: bool) -> bool:
    """Refuse ``target`` or say whether it exists (and ``force`` will replace it)."""
    what = protected_reason(target, protect)
    if what is not None:
        raise OutputProtected(target, what)
    if not os.path.lexists(target):
        if not target.parent.is_dir():
            if os.path.lexists(target.parent):  # a file where the folder would be (--out friday.json/x)
                raise OutputError(target, Said(f"cannot write {target}: {target.parent} is a file, not a folder",
                                               "output.parent_not_folder", path=target, folder=target.parent))
            raise OutputError(target, Said(f"cannot write {target}: the folder {target.parent} does not exist",
                                           "output.missing_folder", path=target, folder=target.parent))
        return False
    try:
        st = os.stat(target)
    except OSError:
        st = None  # a dangling link: replaced by the file, with force
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(target, Said(f"{target} is a folder", "output.folder", path=target))
    if not force:
        raise OutputExists(target)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(target, Said(f"{target} is not an ordinary file; it is never replaced", "output.not_ordinary",
                                       path=target))
    what = _banker_file(target)
    if what is not None:
        raise OutputProtected(target, what)
    return True


def _temp(target: Path) -> Path:
    # not ".tmp": a session writer removes the ".<its name>.*.tmp" files it finds as its own leftovers
    return target.with_name(f".{target.name}.{os.getpid()}-{os.urandom(4).hex()}.part")


def _staged(target: Path, data: bytes) -> Path:
    """``data`` written whole and fsynced to a hidden temp file beside ``target`` (removed again if that fails)."""
    tmp = _temp(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _put(target: Path, staged: tuple[Path, bytes], replace: bool) -> None:
    """The staged temp file (and its bytes) put in place at ``target``: replacing it, or never over anything."""
    tmp, data = staged
    try:
        if replace:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)  # atomic, and never replaces anything
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links: an exclusive create instead
                _create_exclusive(target, data)
            os.unlink(tmp)
    except BaseException:
        _remove(tmp)
        raise
    fsync_dir(target.parent)


def _create_exclusive(target: Path, data: bytes) -> None:
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _cannot_write(target: Path, e: OSError) -> OutputError:
    # why, in the banker's language for the usual reasons (the system's own words otherwise)
    return OutputError(target, Said(f"cannot write {target}: {e.strerror}", "output.cannot_write", path=target,
                                    error=why(e)))


def write_new_files(files: Mapping[Path, bytes], *, protect: Mapping[Path, Protected] | None = None,
                    force: bool = False) -> None:
    """Write every file of ``files`` ({path: bytes}), all or nothing (see the module docstring).

    Every file is written whole to its temp file before any is put in place: a disk that fills or fails while
    one is written leaves every target as it was (``--force`` over last week's two CSV files replaced the
    timeline and kept the old summary when the second could not be written).

    Raises :class:`OutputProtected`, :class:`OutputExists` or :class:`OutputError` (one line,
    naming the file) before writing anything, or when a write fails, after removing what it wrote.
    """
    protect = protect or {}
    targets = [Path(t) for t in files]
    replacing = {t: _check(t, protect, force) for t in targets}
    staged: dict[Path, tuple[Path, bytes]] = {}
    created: list[Path] = []
    try:
        for target, data in zip(targets, files.values(), strict=True):
            try:
                staged[target] = (_staged(target, data), data)
            except OSError as e:
                raise _cannot_write(target, e) from None
        for target in targets:
            if replacing[target]:
                _check(target, protect, force)  # again, just before: nothing became protected meanwhile
            try:
                _put(target, staged[target], replace=replacing[target])
            except FileExistsError:  # appeared since the check
                raise OutputExists(target) from None
            except OSError as e:
                raise _cannot_write(target, e) from None
            del staged[target]
            if not replacing[target]:
                created.append(target)
    except BaseException:
        for tmp, _ in staged.values():
            _remove(tmp)
        for path in created:
            _remove(path)
        raise


__all__ = ["OutputError", "OutputExists", "OutputProtected", "protected_reason", "session_files", "write_new_files"]
