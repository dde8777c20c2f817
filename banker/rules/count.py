"""Counting the table: what the banker finds on the table against what the bank's figures say.

The books leave the pieces to the players and the Banker ("The Bank holds ... the Houses and Hotels
prior to purchase", us-classic-rules.txt, THE BANK); a table that keeps its money in an app still has
the houses and hotels in the box, the deeds in front of the players and, at some tables, paper money.
A count (the ``count`` op: :class:`banker.rules.ops.Count`) records what was found, figure by figure;
no money moves and nothing changes hands: the entry keeps every difference (``info["differences"]``),
so the review shows when the table and the bank last agreed.

:func:`differences` compares; :func:`sources` names the log entries that made a figure what the bank
says it is (what a banker reads to find the mistake: the build nobody put on the board, the deed
still in the box).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from msgspec import UNSET, Struct

from . import parse
from .errors import Refused
from .messages import Msg

if TYPE_CHECKING:  # pragma: no cover
    from .ops import Count
    from .state import GameState, Tx

#: the figures a count may hold, in the order a banker counts them
FIGURES = ("houses", "hotels", "deeds", "cash")


class Difference(Struct, frozen=True):
    """One figure the table and the bank disagree on (``player`` for a player's deeds or cash)."""

    figure: str  # houses, hotels, deeds, cash
    counted: int
    expected: int
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"figure": self.figure, "player": self.player, "counted": self.counted, "expected": self.expected}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Difference:
        return cls(str(data["figure"]), int(data["counted"]), int(data["expected"]), data.get("player"))


def expected(state: GameState, figure: str, player: str | None = None) -> int:
    """What the bank's figures say the table holds: houses or hotels in the bank, a player's deeds or cash."""
    if figure == "houses":
        return state.bank_houses
    if figure == "hotels":
        return state.bank_hotels
    assert player is not None
    if figure == "deeds":
        return len(state.deeds_of(player))
    return state.cash[player]


def counted_figures(state: GameState, cmd: Count) -> list[tuple[str, str | None, int]]:
    """The figures of a count as (figure, player, counted), players read by name (:class:`Refused` for a
    player who is not at the table); at least one figure."""
    out: list[tuple[str, str | None, int]] = []
    for figure in ("houses", "hotels"):
        value = getattr(cmd, figure)
        if value is not UNSET:
            out.append((figure, None, value))
    for figure in ("deeds", "cash"):
        by_player = getattr(cmd, figure)
        if by_player is UNSET:
            continue
        seen: set[str] = set()
        for name, value in by_player.items():
            p = parse.player(state, name, "count", figure)
            if p in seen:
                raise Refused("input", Msg("count.twice", figure=figure, player=p))
            seen.add(p)
            out.append((figure, p, value))
    if not out:
        raise Refused("input", Msg("count.empty"))
    return out


def differences(state: GameState, figures: Iterable[tuple[str, str | None, int]]) -> list[Difference]:
    """Every counted figure that is not what the bank's figures say."""
    return [Difference(figure, value, expected(state, figure, p), p) for figure, p, value in figures
            if value != expected(state, figure, p)]


def difference_msg(d: Difference, fmt: Any) -> Msg:
    """One difference in words: what was counted and what the bank has."""
    if d.figure in ("houses", "hotels"):
        return Msg(f"count.diff-{d.figure}", counted=d.counted, expected=d.expected)
    if d.figure == "deeds":
        return Msg("count.diff-deeds", player=d.player, counted=d.counted, expected=d.expected)
    return Msg("count.diff-cash", player=d.player, counted=fmt(d.counted), expected=fmt(d.expected))


def run_count(state: GameState, tx: Tx, cmd: Count) -> None:
    figures = counted_figures(state, cmd)
    found = differences(state, figures)
    tx.info["counted"] = len(figures)
    tx.info["differences"] = [d.to_json() for d in found]
    if not found:
        tx.say("log.count-agrees", n=len(figures))
    else:
        tx.say("log.count-differs", n=len(found), differences=[difference_msg(d, state.edition.fmt) for d in found])


# --------------------------------------------------------------------------- where a figure comes from
class Source(Struct, frozen=True):
    """A log entry that changed a figure: its seq and by how much (a deed: +1 when it came, -1 when it went)."""

    seq: int
    change: int
    space: int | None = None  # the deed that came or went


def sources(entries: Iterable[Mapping[str, Any]], figure: str, player: str | None = None) -> list[Source]:
    """The standing entries (not undone, not undos) of a session log that changed ``figure`` (houses or
    hotels in the bank; a player's deeds or cash), oldest first: what explains the bank's figure.

    ``entries`` are the log's entries as stored (``seq``, ``effects``, ``undoes``)."""
    entries = list(entries)
    undone = {e.get("undoes") for e in entries if e.get("undoes") is not None}
    out: list[Source] = []
    for entry in entries:
        seq = entry["seq"]
        if seq in undone or entry.get("undoes") is not None:
            continue
        change = 0
        space = None
        for e in entry["effects"]:
            t = e["t"]
            if figure in ("houses", "hotels") and t == "stock":
                change += int(e.get(figure, 0))
            elif figure == "deeds" and t == "owner":
                if e["new"] == player and e["old"] != player:
                    change += 1
                    space = e["space"]
                elif e["old"] == player and e["new"] != player:
                    change -= 1
                    space = e["space"]
            elif figure == "cash" and t == "pay":
                if e["to"] == player:
                    change += int(e["amount"])
                if e["from"] == player:
                    change -= int(e["amount"])
        if change:
            out.append(Source(seq, change, space))
    return out
