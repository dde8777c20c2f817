"""Text that never leaves a number at the end of a line, away from what follows it.

Russian and Ukrainian amounts are written with spaces ("1 500 т.р.", a Kyiv "M1 500"), and every language puts a
space between a number and its noun ("2 дома", "1 будинок", "4 houses"). Textual and rich wrap a text at any
space (a no-break one too: their word pattern is ``\\s``), so a dialog could read "… платит 1" on one line and
"500 т.р." on the next. :class:`Prose` is a rich renderable (what Textual's ``Static``, ``Label`` and an
``OptionList``'s options draw as any other) that wraps its text itself, to the width it is drawn at, breaking only
at a space that does not follow a digit. Written here because neither library lets a text say where it may
break; the amounts themselves stay as the edition writes them (they are stored in the log: a changed separator
would make every earlier entry differ from its replay).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

#: where a line may break: after a run of spaces that does not follow a digit
BREAK = re.compile(r"(?<![0-9]) +")
#: a word and the spaces after it
WORD = re.compile(r"[^ ]+ *| +")


def pieces(plain: str) -> Iterator[tuple[int, int]]:
    """Where each piece of one paragraph starts and ends: the pieces a line may not break within (each with the
    spaces it may break after)."""
    start = 0
    for space in BREAK.finditer(plain):
        yield start, space.end()
        start = space.end()
    if start < len(plain):
        yield start, len(plain)


def break_offsets(plain: str, width: int) -> list[int]:
    """Where to break the one paragraph ``plain`` so that each line fits ``width`` cells: between pieces; a piece
    wider than a line alone at its own spaces, and a word wider than a line where the line is full."""
    width = max(1, width)
    offsets: list[int] = []
    used = 0  # cells on the line so far (with the spaces after its last piece)

    def place(start: int, end: int, words: bool) -> None:
        nonlocal used
        text = plain[start:end]
        shown = cell_len(text.rstrip(" "))
        if used and used + shown > width:
            offsets.append(start)
            used = 0
        if shown <= width:
            used += cell_len(text)
        elif words:  # a piece wider than a line: at its own spaces ("1 500 т.р." on a line of 6)
            for word in WORD.finditer(text):
                place(start + word.start(), start + word.end(), False)
        else:  # a word wider than a line: folded where the line is full
            for i, ch in enumerate(text):
                if used and used + cell_len(ch) > width and ch != " ":
                    offsets.append(start + i)
                    used = 0
                used += cell_len(ch)

    for start, end in pieces(plain):
        place(start, end, True)
    return offsets


class Prose:
    """A text wrapped at the spaces a number does not need (see the module): lines as long as the width allows."""

    def __init__(self, text: Text | str) -> None:
        self.text = text if isinstance(text, Text) else Text(text)

    def lines(self, width: int) -> list[Text]:
        out: list[Text] = []
        for paragraph in self.text.split("\n", allow_blank=True):
            for line in paragraph.divide(break_offsets(paragraph.plain, width)):
                line.rstrip()
                out.append(line)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        for line in self.lines(options.max_width):
            line.no_wrap = True  # it fits: wrapped here, never again
            if options.justify:  # a table's column of numbers: to the right
                line.justify = options.justify
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest_piece = widest_paragraph = 0
        for paragraph in self.text.plain.split("\n"):
            widest_paragraph = max(widest_paragraph, cell_len(paragraph.rstrip(" ")))
            for start, end in pieces(paragraph):
                widest_piece = max(widest_piece, cell_len(paragraph[start:end].rstrip(" ")))
        return Measurement(widest_piece, widest_paragraph).clamp(max_width=options.max_width)

    @property
    def plain(self) -> str:
        return self.text.plain

    def __str__(self) -> str:
        return self.text.plain
