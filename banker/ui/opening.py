"""The session named on the command line, opened in a thread of its own while the console loads and starts.

Reading and checking a session file mostly waits on the disk and on ``zlib``, which let the interpreter go on
meanwhile: ``banker open FILE`` starts the opening before it loads Textual and the console's code (some 150 ms
of the interpreter's time, which the opening shares), and hands it to the console; a :class:`BankerApp` made
without one starts its own when it runs. This module loads neither Textual nor the console's code, so that the
command can start the opening first (issue #14).
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from banker.ledger import Session, SessionReader, SessionWriter

#: the interpreter's switch interval (``sys.setswitchinterval``) while a session opens in its thread: the thread
#: waits on the disk and on zlib, then needs the interpreter back for a moment while the console's start keeps it
#: busy; at Python's default (5 ms) each return could wait that long, and the console's first screen waits for the
#: thread (issue #14: a 20,000-action game's first frame came 4-6 ms sooner, measured with bench/_ui_ab.py)
OPENING_SWITCH_INTERVAL = 0.0002


class Opening:
    """``Session.open(path, readonly)`` run in a thread of its own; :meth:`result` waits for it and gives the
    session, or raises what opening raised, as a call in this thread would have. While it opens, the interpreter
    switches threads more often (:data:`OPENING_SWITCH_INTERVAL`); the thread puts the interval back when done."""

    def __init__(self, path: Path, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self._session: SessionReader | SessionWriter | None = None
        self._error: Exception | None = None
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._interval, OPENING_SWITCH_INTERVAL))
        self._thread = threading.Thread(target=self._run, name="banker-open", daemon=True)
        try:
            self._thread.start()
        except BaseException:
            sys.setswitchinterval(self._interval)
            raise

    def _run(self) -> None:
        try:
            # a writer's checkpoint entries are left on the disk: read and checked once the first frame is drawn
            # (BankerApp.check_replay), not while the console starts (9 MB at 20,000 actions)
            self._session = Session.open(self.path, readonly=self.readonly, defer_table=not self.readonly)
        except Exception as e:  # given to the caller of result(), in its thread
            self._error = e
        finally:
            sys.setswitchinterval(self._interval)

    def result(self) -> SessionReader | SessionWriter:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._session is not None
        return self._session

    def discard(self) -> None:
        """Not wanted after all: the session, once open, is closed (a writer lets go of its lock)."""
        self._thread.join()
        if self._session is not None:
            self._session.close()


__all__ = ["OPENING_SWITCH_INTERVAL", "Opening"]
