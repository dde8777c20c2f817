"""The table at a glance: one card per player, the bank, the last actions.

Widgets are given the state to show (data flows down); they never change it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len, set_cell_size
from rich.color import Color, ColorParseError
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.styled import Styled
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual, visualize
from textual.widgets import Static

from banker.i18n import visible

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.ledger import Entry
    from banker.rules import GameState
    from banker.rules.edition import Edition

HOUSE = "⌂"
#: the mark of a deed of no colour group, and of one whose group's colour cannot be drawn (:func:`group_color`)
NO_COLOR = "white"


def group_color(edition: Edition, group: str | None) -> str:
    """The colour a deed of ``group`` is marked with wherever the console draws it (the players' cards, the review's
    rents and deeds, the heat map): its board's colour when the console can draw it, else :data:`NO_COLOR`. A session
    recorded on a board file whose colour Rich cannot read (taken before banker.boards checked colours, or the file
    edited since: a session opens on its board as it was) stopped the table screen with "MissingStyle: Failed to get
    style 'notacolor'" as soon as a deed of that group was owned."""
    found = edition.groups.get(group or "")
    if found is None:
        return NO_COLOR
    try:
        Color.parse(found.color)  # cached by Rich
    except ColorParseError:
        return NO_COLOR
    return found.color


class DeedLines:
    """A player's deeds, one a line: the name on the left (cut short with "…" when it does not fit) and its
    buildings or mortgage mark on the right; laid out cell for cell as ``rich``'s ``Table.grid(expand=True)``
    with a ``ratio=1, no_wrap, overflow="ellipsis"`` column and a ``justify="right", no_wrap`` one lays them out
    (tests/test_quick_open.py compares them), in one pass: the table measures every cell before drawing any,
    which was most of the cost of drawing the cards of a long game."""

    def __init__(self, rows: list[tuple[Text, Text]]) -> None:
        self.rows = rows

    def table(self) -> Table:
        """The same lines as a ``rich`` table (what is drawn where one pass cannot lay them out: too narrow)."""
        grid = Table.grid(expand=True)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        for name, marks in self.rows:
            grid.add_row(name, marks)
        return grid

    def columns(self, width: int) -> tuple[int, int] | None:
        """The two columns' widths at ``width``, as the table works them out: the marks as wide as the widest, the
        names the rest; without marks, the names as wide as the longest (at most the width). None when there are
        no lines, or too narrow a width for one pass (the table's own layout then)."""
        rows = self.rows
        marks_width = max((marks.cell_len for _name, marks in rows), default=0)
        if not rows or width - marks_width < 2:
            return None
        first = (width - marks_width if marks_width
                 else min(width, max(fitted(name, width).cell_len for name, _marks in rows)))  # as the names are drawn
        return first, marks_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns = self.columns(options.max_width)
        if columns is None:
            if self.rows:
                yield self.table()
            return
        first, marks_width = columns
        # each cell rendered as the table renders it (so the very same segments), without measuring them all first
        style = console.get_style("") + Style.null()
        name_options = options.update(width=first, justify="left", no_wrap=True, overflow="ellipsis", height=None,
                                      highlight=False)
        marks_options = options.update(width=marks_width, justify="right", no_wrap=True, overflow="ellipsis", height=None,
                                       highlight=False)
        empty = Segment("", style)  # the marks' column, when none has any: no width (rich pads the line after it)
        new_line = Segment.line()
        for name, marks in self.rows:
            yield from console.render_lines(fitted(name, first), name_options, style=style)[0]
            if marks_width:
                yield from console.render_lines(marks, marks_options, style=style)[0]
            else:
                yield empty
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table())

    def strips(self, console: Console, width: int, base: Style) -> list[Strip]:
        """The lines as a card draws them at ``width`` over its own style ``base``: cell for cell what Textual
        makes of this renderable in a ``Static`` (rendered through ``rich`` over ``base``, cut to lines), made
        cell by cell without ``rich``'s rendering of each cell (tests/test_quick_open.py compares them)."""
        columns = self.columns(width)
        if columns is None:
            if not self.rows:
                return []
            # too narrow for one pass: rich's table, as drawn in a Static
            options = console.options.update(width=width, height=None, highlight=False)
            segments = console.render(Styled(self.table(), base), options)
            return [Strip(line) for line in Segment.split_and_crop_lines(segments, width, include_new_lines=False,
                                                                        pad=False)]
        first, marks_width = columns
        style = base + console.get_style("") + Style.null()  # the line's own style, under the table's
        lines: list[Strip] = []
        for name, marks in self.rows:
            cells = _cell(console, fitted(name, first), first, style, right=False)
            if marks_width:
                cells += _cell(console, marks, marks_width, style, right=True)
            lines.append(Strip(cells, first + marks_width))
        return lines


def fitted(name: Text, width: int) -> Text:
    """A deed's line (its colour mark, a space, its name) for a column ``width`` wide: a name too long that quotes
    its own (Kyiv's «Станція метро «Арсенальна»», «Міжнародний аеропорт «Жуляни»») keeps the quoted part, which
    tells it from its fellows; cut short, every station read "Станція метро «…". Any other name as it is (the
    cell cuts it with "…")."""
    if name.cell_len <= width:
        return name
    plain = name.plain
    start, end = plain.find("«", 2), plain.rfind("»")
    if start <= 2 or end < start:
        return name
    return name[:2] + name[start:end + 1]


def _cell(console: Console, text: Text, width: int, style: Style, right: bool) -> list[Segment]:
    """One cell of a deed's line, ``width`` wide: ``text`` cut short with "…" when longer, padded with blanks
    on its right (a name) or on its left (the marks), its spans' styles over ``style``; as ``rich`` lays out a
    ``no_wrap`` cell with ``overflow="ellipsis"``. A deed's texts (one character a cell, no style of their own,
    spans one after the other, as ``Text.append`` makes them) are cut and styled here directly; any other text
    goes through ``rich``'s own ``Text`` (the same cells, slower)."""
    plain = text.plain
    spans = text.spans
    n = len(plain)
    if (width < 2 or text.style or cell_len(plain) != n or "\n" in plain or "\t" in plain
            or (right and plain[-1:].isspace()) or any(a.end > b.start for a, b in zip(spans, spans[1:], strict=False))):
        return _cell_by_rich(console, text, width, style, right)
    chars = plain if n <= width else plain[:width - 1] + "…"
    end = len(chars)  # a span over the last character kept covers the "…" that replaces it
    pad = width - end
    segments: list[Segment] = []
    if right and pad:
        segments.append(Segment(" " * pad, style))
    pos = 0
    get_style = console.get_style
    for span in spans:
        start, stop = span.start, min(span.end, end)
        if stop <= start:
            continue
        if start > pos:
            segments.append(Segment(chars[pos:start], style))
        segments.append(Segment(chars[start:stop], style + get_style(span.style)))
        pos = stop
    if pos < end:
        segments.append(Segment(chars[pos:], style))
    if pad and not right:
        segments.append(Segment(" " * pad, style))
    return segments


def _cell_by_rich(console: Console, text: Text, width: int, style: Style, right: bool) -> list[Segment]:
    line = text.copy()
    if right:
        line.rstrip()
        line.truncate(width, overflow="ellipsis")
        line.pad_left(width - line.cell_len)
    else:
        line.truncate(width, overflow="ellipsis", pad=True)
    if line.style and not line.spans:  # rich renders a text's own style only along with spans (a table joins
        line.stylize(line.style)  # its cells' lines, which makes that style a span)
    add = style.__add__
    return [Segment(part, add(part_style)) for part, part_style, _control in line.render(console, end="")]


class PlayerCard(ScrollView, can_focus=False):
    """One player's cash, debt, jail cards and deeds grouped by colour, in one widget that draws its own lines
    (Textual's line API) and scrolls when they do not fit. Its two parts, the facts above the deeds, are each
    laid out again only when what they show changes: most actions move cash alone, and the deeds, most of the
    card's lines, keep the lines drawn for them. One widget and not a column of two: a long game's table has
    its four to eleven cards on screen before anything else, and each widget costs Textual its styling, its
    layout and its own drawing (issue #14). It never takes the focus (a click on it leaves every letter an
    action key); the mouse wheel scrolls it."""

    DEFAULT_CLASSES = "player-card"

    def __init__(self, player: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.player = player
        self.border_title = Content(visible(player))  # a name, never markup ("[/x]Bo")
        self._title = visible(player)
        self._facts = Text()
        self._deeds = DeedLines([])
        #: the lines drawn of each part, with the width and the style they were drawn at (``None``: to be drawn again)
        self._facts_lines: tuple[int, VisualStyle, list[Strip]] | None = None
        self._deeds_lines: tuple[int, VisualStyle, list[Strip]] | None = None
        #: both parts' lines one after the other, and a blank line, as last drawn (Textual asks for each line)
        self._drawn: tuple[int, VisualStyle, list[Strip], Strip] | None = None

    _shown: tuple[object, ...] | None = None
    _shown_deeds: tuple[object, ...] | None = None

    @property
    def content(self) -> Group:
        """What the card shows, its two parts one above the other."""
        return Group(self._facts, self._deeds)

    def show(self, state: GameState, tr: Translator) -> None:
        p = self.player
        # what the card shows, cheaply: an unchanged card is not re-rendered (most actions touch one or two)
        deeds = sorted(state.deeds_of(p))
        lots = state.lots
        # follow mode: the token's space, jail, whose turn (nothing of it without follow mode)
        follow = state.follow and not state.over
        token = (state.positions[p], state.in_jail[p], state.jail_turns[p], state.current == p) if follow else None
        bankrupt = p in state.bankrupt
        key = (tr.lang, token, bankrupt, state.bankrupt_to.get(p), state.cash[p], tuple(state.debts.get(p, ())),
               len(state.jail_cards_of(p)))
        deeds_key = (tr.lang, bankrupt, tuple((pos, lots[pos].houses, lots[pos].hotel, lots[pos].mortgaged,
                                               state.owns_group(p, state.edition.spaces[pos].group or "")) for pos in deeds))
        facts_changed, deeds_changed = key != self._shown, deeds_key != self._shown_deeds
        if not (facts_changed or deeds_changed):
            return
        width = self.line_width
        facts_before = len(self.facts_lines(width)) if width else 0
        if facts_changed:
            self._shown = key
            self._show_facts(state, tr, token)
            self._facts_lines = None
        if deeds_changed:
            self._shown_deeds = deeds_key
            self._deeds = DeedLines([]) if bankrupt else self._deeds_grid(state, tr, deeds)
            self._deeds_lines = None
        self._drawn = None
        if not deeds_changed and width and len(self.facts_lines(width)) == facts_before:
            self.refresh_lines(0, facts_before)  # the facts alone: the deeds' lines stay as drawn
        else:
            self._fit()
            self.refresh()

    @property
    def line_width(self) -> int:
        """How wide the card's lines are: its inside, less its scroll bar when it shows one (0: not laid out yet)."""
        return self.scrollable_content_region.width

    def _fit(self) -> None:
        """As many lines to scroll through as the two parts have at the card's width."""
        width = self.line_width
        facts = len(self.facts_lines(width)) if width else self._facts.plain.count("\n") + 1
        height = facts + len(self._deeds.rows)
        if self.virtual_size.height != height:
            self.virtual_size = Size(0, height)

    def on_resize(self) -> None:
        self._fit()

    def facts_lines(self, width: int) -> list[Strip]:
        """The facts (cash, debts, jail cards, the token's space) drawn at ``width``, as a ``Static`` draws them:
        drawn again only when they, the width or the card's style change."""
        style = self.visual_style
        if self._facts_lines is None or self._facts_lines[:2] != (width, style):
            self._facts_lines = (width, style, Visual.to_strips(self, visualize(self, self._facts), width, None, style))
        return self._facts_lines[2]

    def deeds_lines(self, width: int) -> list[Strip]:
        """The deeds drawn at ``width``: drawn again only when they, the width or the card's style change."""
        style = self.visual_style
        if self._deeds_lines is None or self._deeds_lines[:2] != (width, style):
            self._deeds_lines = (width, style, self._deeds.strips(self.app.console, width, style.rich_style))
        return self._deeds_lines[2]

    def _lines(self) -> tuple[list[Strip], Strip, int]:
        """The card's lines as drawn at its width and in its style (drawn again when they, the width or the style
        change), the blank line below them, and how far the card is scrolled."""
        width, style = self.line_width, self.visual_style
        drawn = self._drawn
        if drawn is None or drawn[0] != width or drawn[1] != style:
            # below the card's lines: its background alone, as Textual fills a widget's padding (one run of blanks)
            base, background = self.background_colors
            blank = Strip.blank(width, VisualStyle(background=base + background).rich_style)
            drawn = self._drawn = (width, style, [*self.facts_lines(width), *self.deeds_lines(width)], blank)
        return drawn[2], drawn[3], self.scroll_offset.y

    #: the card's lines for the lines Textual is drawing now (:meth:`render_lines`), else None
    _drawing: tuple[list[Strip], Strip, int] | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        # the lines Textual asks for now (a line at a time, :meth:`render_line`) come from one look at the card's width,
        # style and scroll: each look costs Textual a region's arithmetic and a style's comparison, and a new table
        # asked it for every line of every card before its first frame (issue #14: 4 M instructions for four cards)
        self._drawing = self._lines()
        try:
            return super().render_lines(crop)
        finally:
            self._drawing = None

    def render_line(self, y: int) -> Strip:
        lines, blank, scrolled = self._drawing or self._lines()
        y += scrolled
        return lines[y] if y < len(lines) else blank

    def _show_facts(self, state: GameState, tr: Translator, token: tuple[int, bool, int, bool] | None) -> None:
        p = self.player
        fmt = state.edition.fmt
        current = token is not None and token[3]
        self.set_class(current, "current")
        title = f"▶ {visible(p)}" if current else visible(p)
        if self._title != title:  # setting it, even to the same, re-draws the whole card
            self._title = title
            self.border_title = Content(title)
        self.set_class(p in state.bankrupt, "bankrupt")
        self.set_class(bool(state.debts.get(p)), "in-debt")
        # a line per fact (one too long for a narrow card wraps, never cut); below them a line per deed, its name
        # cut short when long, its buildings always in view
        if p in state.bankrupt:
            facts = Text(tr("player.bankrupt", creditor=tr.account(state.bankrupt_to[p], in_text=True)), "bold red")
        else:
            facts = Text(fmt(state.cash[p]), "bold")
            for creditor, amount, _why in state.debts.get(p, []):
                facts.append("\n" + tr("player.owes", amount=fmt(amount), creditor=tr.account(creditor)), "bold red")
            if token is not None:
                if state.in_jail[p]:
                    facts.append("\n" + tr("follow.in_jail", n=state.jail_turns[p]), "bold magenta")
                else:
                    facts.append("\n" + tr("follow.on_space", space=state.edition.spaces[state.positions[p]].name), "italic")
            jail = len(state.jail_cards_of(p))
            if jail:
                facts.append("\n" + tr("player.jail_cards", n=jail), "cyan")
        self._facts = facts

    def _deeds_grid(self, state: GameState, tr: Translator, deeds: list[int]) -> DeedLines:
        p = self.player
        rows: list[tuple[Text, Text]] = []
        for pos in deeds:
            space = state.edition.spaces[pos]
            lot = state.lots[pos]
            group = space.group or ""
            known = group in state.edition.groups
            color = group_color(state.edition, group)
            name = Text()
            # a full block for a full colour group, a half block for a lone deed of it
            name.append("█" if known and state.owns_group(p, group) else "▌", color)
            name.append(" ")
            name.append(space.name, "dim strike" if lot.mortgaged else "")
            # a blank before the mark, so that a name that fills its column never runs into it ("Connecticut AvenueH",
            # "Reading Railroad(M)" read as one word: found by the rules probe)
            marks = Text(" " if lot.mortgaged or lot.hotel or lot.houses else "")
            if lot.mortgaged:
                marks.append(tr("deed.mortgaged_mark"), "dim")
            elif lot.hotel:
                marks.append(tr("deed.hotel_mark"), "bold red")
            elif lot.houses:
                marks.append(HOUSE * lot.houses, "bold green")
            rows.append((name, marks))
        return DeedLines(rows)


def _name_cuts(name: str) -> Iterator[str]:
    """``name`` cut short, longest first: before each space between its words, then (when not even its first word fits,
    or it is one long word) character by character, down to its first character."""
    for gap in reversed(list(re.finditer(r"\s+", name))):
        if name[:gap.start()].strip():
            yield name[:gap.start()].rstrip()
    first = name.split()[0] if name.split() else name
    for size in range(cell_len(first) - 1, 0, -1):
        yield set_cell_size(first, size).rstrip()


def header_line(width: int, lead: Text, full: str, short: Callable[[str], str], name: str, mark: str) -> Text:
    """The table's header for a line ``width`` cells wide: ``lead`` (a timed game's countdown, or that the time is up)
    never cut, then the session as ``full`` says it (name, edition, variant, count of actions); where that does not fit,
    as ``short`` says it (the name ``name`` and the count), the name cut short with "…" if need be, and with neither
    the session's ``mark`` alone (read-only): the mark stays whatever else is left out."""
    line = Text(no_wrap=True, overflow="ellipsis")  # never wrapped: a line one high shows only the first of its lines
    line.append_text(lead)
    tail = f" · {mark}" if mark else ""
    room = width - lead.cell_len
    said = next((said for said in (full, short(name)) if cell_len(said + tail) <= room), None)
    if said is None:
        # the name as long as the room leaves, cut after a whole word where it fits ("The long Friday evening…", not
        # "…evening gam…"), else character by character (a single long word: at least its first character and "…")
        said = next((cut for prefix in _name_cuts(name)
                     if cell_len((cut := short(prefix + "…")) + tail) <= room), None)
    if said is None:
        said, tail = mark, ""
    line.append(said + tail)
    return line


class TableHeader(Static):
    """The table's header, one line: a timed game's countdown first (it must never be cut off), then the session, as
    much of it as the width holds (:func:`header_line`; found in tmux at 80x24: once the time was up, the line was cut
    after "Monopoly — US", the variant and the count of actions lost, the edition cut mid-name). Drawn at the width
    of the moment, so a resized terminal gets the line that fits it."""

    _lead = Text()
    _session: tuple[str, Callable[[str], str], str, str] = ("", str, "", "")

    def show_lead(self, lead: Text) -> None:
        """The countdown (or that the time is up), as it stands; an empty text for a game without a time limit."""
        if lead != self._lead:
            self._lead = lead
            self.refresh()

    def show_session(self, full: str, short: Callable[[str], str], name: str, mark: str) -> None:
        """The session: as said whole, as said short with the name given (cut short), the name, the read-only mark."""
        self._session = (full, short, name, mark)
        self.refresh()

    def render(self) -> Text:
        full, short, name, mark = self._session
        return header_line(self.size.width or 10**6, self._lead, full, short, name, mark)  # 0: not laid out yet


class PlayersPanel(Horizontal):
    """A card per player, in seating order."""

    def __init__(self, players: tuple[str, ...], shown: tuple[GameState, Translator] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.players = players
        self._first = shown  # what the cards show from the start (their first layout then has them)

    def compose(self) -> ComposeResult:
        for i, p in enumerate(self.players):
            card = PlayerCard(p, id=f"player-{i}")
            if self._first is not None:
                card.show(*self._first)
            yield card
        self._first = None

    def show(self, state: GameState, tr: Translator) -> None:
        for card in self.query(PlayerCard):
            card.show(state, tr)


class BankPanel(Static):
    """What the bank holds: houses and hotels left, the pot, deeds awaiting auction."""

    _shown: Text | None = None

    def show(self, state: GameState, tr: Translator) -> None:
        text = Text()
        text.append(tr("bank.houses", n=state.bank_houses, total=state.edition.houses))
        text.append("\n" + tr("bank.hotels", n=state.bank_hotels, total=state.edition.hotels))
        if state.house_rules.free_parking_pot:
            text.append("\n" + tr("bank.pot_amount", amount=state.edition.fmt(state.pot)))
        if state.pending_auction:
            names = ", ".join(state.edition.spaces[p].name for p in sorted(state.pending_auction))
            text.append("\n" + tr("bank.pending", names=names), "yellow")
        if state.over:  # who won, or who tied (found playing: "Game over: Zoë" did not say she won)
            tied = [visible(p) for p in (state.result or {}).get("tied", [])]
            text.append("\n" + tr.game_over(visible(state.winner) if state.winner else None, tied), "bold green")
        if text != self._shown:
            self._shown = text
            self.update(text)


class LogPanel(Static):
    """The last actions, newest at the bottom; undone ones struck through. As many as its height holds: worked out
    when it is drawn, when its height is known (so its first frame already holds them all)."""

    _entries: Sequence[Entry] = ()
    _tr: Translator | None = None

    def show_entries(self, entries: Sequence[Entry], tr: Translator) -> None:
        """Show the last of ``entries`` (the session's own list: read again each time the panel is drawn)."""
        self._entries = entries
        self._tr = tr
        self.refresh()

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        tr = self._tr
        if tr is None:
            return text
        entries = self._entries
        shown = entries[-max(3, self.size.height or 6):]
        # an undo always comes after what it undoes: the undone among the shown are undone by shown entries
        undone = {e.undoes for e in shown if e.undoes}
        for entry in shown:
            if text:
                text.append("\n")
            line = tr.entry(entry)
            style = "dim strike" if entry.seq in undone else ("italic yellow" if entry.undoes else "")
            text.append(f"{entry.seq:>4} ", "dim")
            text.append(line, style)
        if not entries:
            text.append(tr("log.empty"), "dim")
        return text
