"""The session log: one TinyDB file per game, crash-safe, O(1) per action.

Every action goes through :meth:`Session.apply`: the rules engine applies it (or
refuses it, writing nothing), then one CRC-checked line is appended to the write-ahead
journal ``FILE.journal`` and fsynced before ``apply`` returns. A checkpoint folds the
journal into ``FILE`` (a TinyDB JSON document) by an atomic rename. Opening a session
replays it through the engine. See docs/session-log.md.

>>> from banker.ledger import Session                                    # doctest: +SKIP
>>> from banker.rules import Setup                                       # doctest: +SKIP
>>> with Session.create("game.json", Setup("classic-us", "classic", ("Ann", "Bob"))) as s:  # doctest: +SKIP
...     s.apply({"op": "buy", "player": "Ann", "space": 39})["text"]
'Ann buys Boardwalk for $400'
"""

from __future__ import annotations

from .lock import lock_holder
from .recent import default_session_dir, recent_sessions, session_info
from .session import (
    FORMAT,
    VERSION,
    Session,
    SessionDamaged,
    SessionError,
    journal_path,
    read_entries,
    read_session,
    read_session_doc,
    repair,
)
from .storage import AtomicJSONStorage

__all__ = [
    "FORMAT", "VERSION", "AtomicJSONStorage", "Session", "SessionDamaged", "SessionError", "default_session_dir",
    "journal_path", "lock_holder", "read_entries", "read_session", "read_session_doc", "recent_sessions", "repair",
    "session_info",
]
