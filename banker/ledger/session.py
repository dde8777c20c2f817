"""Opening and creating sessions: ``Session.open(path)`` gives the writer,
``Session.open(path, readonly=True)`` a reader, ``Session.create(path, setup)`` a new session's
writer. The reader and the writer are two classes (banker.ledger.reader, banker.ledger.writer)
sharing :class:`~banker.ledger.log.SessionLog`; this is only where a caller picks one.
"""

from __future__ import annotations

import os
from typing import Literal, overload

from banker.rules import Setup

from .reader import SessionReader
from .writer import SessionWriter


class Session:
    """The two ways into a session log.

    >>> with Session.create("game.json", Setup("classic-us", "classic", ("Ann", "Bob"))) as s:  # doctest: +SKIP
    ...     s.apply({"op": "buy", "player": "Ann", "space": 39}).text
    'Ann buys Boardwalk for $400'
    """

    @overload
    @classmethod
    def open(cls, path: str | os.PathLike[str], readonly: Literal[False] = False) -> SessionWriter: ...

    @overload
    @classmethod
    def open(cls, path: str | os.PathLike[str], readonly: Literal[True]) -> SessionReader: ...

    @overload
    @classmethod
    def open(cls, path: str | os.PathLike[str], readonly: bool, *,
             defer_table: bool = False) -> SessionReader | SessionWriter: ...

    @classmethod
    def open(cls, path: str | os.PathLike[str], readonly: bool = False, *,
             defer_table: bool = False) -> SessionReader | SessionWriter:
        """Open an existing session: the writer (:meth:`SessionWriter.open`), or with ``readonly`` a
        reader (:meth:`SessionReader.open`, no lock, nothing modified). Both rebuild the state from
        the recorded effects; ``replay_check()`` checks them with the rules. ``defer_table`` (a writer's):
        the checkpoint's entries are left on the disk until needed (:meth:`SessionWriter.check_table`)."""
        return SessionReader.open(path) if readonly else SessionWriter.open(path, defer_table=defer_table)

    @classmethod
    def create(cls, path: str | os.PathLike[str], setup: Setup, name: str | None = None, *,
               created: str | None = None) -> SessionWriter:
        """Start a new session at ``path`` (which must not exist): its writer (:meth:`SessionWriter.create`)."""
        return SessionWriter.create(path, setup, name=name, created=created)


__all__ = ["Session"]
