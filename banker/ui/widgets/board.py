"""The board as a heat map (the review of a game played in follow mode, issue #11): how often a token landed on
each space, drawn where the space is on the board (GO at the bottom right, the spaces running clockwise).

Given the edition's spaces and the counts (``banker.rules.review``: ``landings``, ``player_landings``); it never
reads the session.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.color import Color
from rich.style import Style
from rich.text import Text

from .table import group_color

if TYPE_CHECKING:  # pragma: no cover
    from banker.rules.edition import Edition

#: a side of the board (corner to corner): the board is SIDE x SIDE cells, 4 * (SIDE - 1) spaces
SIDE = 11
#: a cell's width in characters: the group's mark and a short name on the first line, the count on the second
CELL = 7
#: the heat's colours, from never landed on to the most landed on
COLD, WARM, HOT = (48, 48, 56), (190, 150, 20), (215, 40, 30)


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[\s\-.«»\"/&]+", name) if w]


def short_names(names: Sequence[str], width: int = CELL - 1) -> list[str]:
    """Each name in ``width`` characters: its most telling word, the one fewest names of the board share (the
    longest among them; words of one or two letters only when there is no other): ``Reading Railroad`` ->
    ``Readin``, ``Улица Огарёва`` -> ``Огарёв``, ``Станція метро «Вокзальна»`` -> ``Вокзал``."""
    counts = Counter(w.casefold() for name in names for w in set(_words(name)))
    out = []
    for name in names:
        words = _words(name) or [name]
        long = [w for w in words if len(w) > 2] or words
        best = min(enumerate(long), key=lambda iw: (counts[iw[1].casefold()], -len(iw[1]), iw[0]))[1]
        out.append(best[:width])
    return out


def heat(t: float) -> Color:
    """The colour of a share ``t`` (0..1) of the most landings: dark grey, through amber, to red."""
    low, high, t = (COLD, WARM, t * 2) if t <= 0.5 else (WARM, HOT, (t - 0.5) * 2)
    return Color.from_rgb(*(low[i] + (high[i] - low[i]) * t for i in range(3)))


def grid_position(row: int, col: int) -> int | None:
    """The board position drawn at (row, col) of the grid (None: the middle of the board)."""
    last = SIDE - 1
    if row == last:
        return last - col  # the bottom: GO at the right, then the first side leftwards
    if col == 0:
        return 2 * last - row  # the left side, upwards
    if row == 0:
        return 2 * last + col  # the top, rightwards
    if col == last:
        return (3 * last + row) % (4 * last)  # the right side, downwards
    return None


def heat_map(edition: Edition, counts: Mapping[int, int], legend: Sequence[Text] = ()) -> Text:
    """The board with each space's landings, coloured by how often (the ``legend`` lines in the middle)."""
    spaces = edition.spaces
    short = short_names([s.name for s in spaces])
    for space in spaces:  # the jail corner by its first word (Jail / Just Visiting), not "Visiting"
        if space.kind == "jail":
            short[space.position] = (_words(space.name) or [space.name])[0][: CELL - 1]
    most = max(counts.values(), default=0)
    out = Text(no_wrap=True)
    if len(spaces) != 4 * (SIDE - 1):  # not a square board of 40: one line per space
        for space in spaces:
            n = counts.get(space.position, 0)
            out.append(f"{space.name:<28}{n:>4}\n", Style(bgcolor=heat(n / most if most else 0)))
        return out
    for row in range(SIDE):
        names, numbers = Text(), Text()
        for col in range(SIDE):
            pos = grid_position(row, col)
            if pos is None:
                names.append(" " * CELL)
                numbers.append(" " * CELL)
                continue
            space = spaces[pos]
            n = counts.get(pos, 0)
            bg = heat(n / most if most else 0)
            fg = "black" if most and n / most > 0.35 else "white"
            group = edition.groups.get(space.group or "")
            names.append("▌" if group else " ", Style(color=group_color(edition, space.group) if group else None, bgcolor=bg))
            names.append(f"{short[pos]:<{CELL - 1}}", Style(color=fg, bgcolor=bg))
            numbers.append(f"{n if n else '·':^{CELL}}", Style(color=fg, bgcolor=bg, bold=bool(n)))
        for line in (names, numbers):
            out.append_text(line)
            out.append("\n")
    return _with_legend(out, legend)


def _with_legend(board: Text, legend: Sequence[Text]) -> Text:
    """The legend's lines written into the middle of the board, from its third line on."""
    lines = board.split("\n", allow_blank=True)
    inner = (SIDE - 2) * CELL - 2
    for i, line in enumerate(legend):
        at = 3 + i
        if at >= 2 * (SIDE - 1) - 1:
            break
        row = lines[at]
        text = line.copy()
        text.truncate(inner, overflow="ellipsis", pad=True)
        lines[at] = row[: CELL + 1] + text + row[CELL + 1 + inner:]
    out = Text(no_wrap=True)
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(line)
    return out
