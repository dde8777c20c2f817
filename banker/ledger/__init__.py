"""The session log: one TinyDB file per game, crash-safe, O(1) per action.

Every action goes through :meth:`SessionWriter.apply`: the rules engine applies it (or
refuses it, writing nothing), then one CRC-checked line is added to the write-ahead
journal ``FILE.journal`` (into room made ahead) and synced before ``apply`` returns. A checkpoint folds the
journal into ``FILE`` (a TinyDB JSON document) by an atomic rename. Opening a session
rebuilds its state from the recorded effects; the rules engine checks them
(``replay_check()``, ``banker audit``). See docs/session-log.md.

Modules: ``format`` (the files, parsing, checksums, the typed :class:`Entry`), ``check`` (the
log followed, and checked by the engine), ``reader`` (:class:`SessionReader`), ``writer``
(:class:`SessionWriter`, :func:`repair`), ``session`` (``Session.open``/``create``), ``audit``,
``review`` (a session read for its review: data; the words are in banker.report).

>>> from banker.ledger import Session                                    # doctest: +SKIP
>>> from banker.rules import Setup                                       # doctest: +SKIP
>>> with Session.create("game.json", Setup("classic-us", "classic", ("Ann", "Bob"))) as s:  # doctest: +SKIP
...     s.apply({"op": "buy", "player": "Ann", "space": 39}).text
'Ann buys Boardwalk for $400'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .check import Finding
from .format import FORMAT, VERSION, Damage, Entry, SessionDamaged, SessionError, TableChanged, journal_path
from .lock import lock_holder
from .log import SessionLog
from .reader import SessionRead, SessionReader, read_entries, read_session, read_session_doc
from .recent import default_session_dir, recent_sessions, session_info
from .session import Session
from .writer import SessionWriter, repair

if TYPE_CHECKING:  # pragma: no cover
    from .tinydb_storage import AtomicJSONStorage


def __getattr__(name: str) -> object:
    """``AtomicJSONStorage``, imported when first asked for (with TinyDB: nothing else here needs it)."""
    if name == "AtomicJSONStorage":
        from .tinydb_storage import AtomicJSONStorage

        return AtomicJSONStorage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMAT", "VERSION", "AtomicJSONStorage", "Damage", "Entry", "Finding", "Session", "SessionDamaged", "SessionError",
    "SessionLog", "SessionRead", "SessionReader", "SessionWriter", "TableChanged", "default_session_dir", "journal_path",
    "lock_holder",
    "read_entries", "read_session", "read_session_doc", "recent_sessions", "repair", "session_info",
]
