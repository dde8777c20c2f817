"""A session read for its review: the setup document, the entries, the review's figures
(:func:`banker.rules.review.review` over the recorded effects) and the final state. Data only:
the words (exports, headings) are banker.report's."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from banker.rules import GameState
from banker.rules.review import Review, review

from .check import game, restore
from .format import Entry
from .reader import read_session
from .said import Said


@dataclass
class SessionReview:
    """A session read for review: its setup document, the review, the final state and the entries."""

    doc: dict[str, Any]
    review: Review
    state: GameState
    entries: list[Entry]
    #: what is damaged in the file, when something is (the review is of what can be read): said by its readers
    damage_message: Said | None = None
    #: the session file, when read from one: a session created without a name is called by it, as the console and
    #: ``banker state`` call it (``SessionLog.name``)
    path: Path | None = None

    @property
    def name(self) -> str:
        """The session's name as given at creation, else the file name without suffix."""
        name = self.doc.get("name")
        if isinstance(name, str) and name:
            return name
        return self.path.stem if self.path is not None else ""


def load_review(path: str | os.PathLike[str]) -> SessionReview:
    """Read the session at ``path`` (read-only, no lock) and review it."""
    read = read_session(path)
    state = game(read.path, read.setup)
    try:
        reviewed = review(state, [e.to_json() for e in read.entries])
    except Exception:  # a hand-edited effect the state cannot take: the entry named, as opening names it
        restore(read.path, game(read.path, read.setup), [], read.entries, [])
        raise  # every entry can be followed: the review's own fault, reported as one
    return SessionReview(read.doc, reviewed, state, read.entries, read.damage_message, Path(read.path))


__all__ = ["SessionReview", "load_review"]
