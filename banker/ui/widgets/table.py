"""The table at a glance: one card per player, the bank, the last actions.

Widgets are given the state to show (data flows down); they never change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from banker.rules.turns import describe

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.ledger import Entry
    from banker.rules import GameState

HOUSE = "⌂"


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

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        marks_width = max((marks.cell_len for _name, marks in self.rows), default=0)
        if not self.rows:
            return
        if width - marks_width < 2:
            yield self.table()
            return
        # the columns' widths as the table works them out: the marks as wide as the widest, the names the rest;
        # without marks, the names as wide as the longest (at most the width)
        first = width - marks_width if marks_width else min(width, max(name.cell_len for name, _marks in self.rows))
        # each cell rendered as the table renders it (so the very same segments), without measuring them all first
        style = console.get_style("") + Style.null()
        name_options = options.update(width=first, justify="left", no_wrap=True, overflow="ellipsis", height=None,
                                      highlight=False)
        marks_options = options.update(width=marks_width, justify="right", no_wrap=True, overflow="ellipsis", height=None,
                                       highlight=False)
        empty = Segment("", style)  # the marks' column, when none has any: no width (rich pads the line after it)
        new_line = Segment.line()
        for name, marks in self.rows:
            yield from console.render_lines(name, name_options, style=style)[0]
            if marks_width:
                yield from console.render_lines(marks, marks_options, style=style)[0]
            else:
                yield empty
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table())


class PlayerCard(Vertical):
    """One player's cash, debt, jail cards and deeds grouped by colour: two parts, each re-drawn only when
    what it shows changes (most actions move cash alone: the deeds, most of the card's lines, stay drawn)."""

    DEFAULT_CLASSES = "player-card"

    def __init__(self, player: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.player = player
        self.border_title = player
        self._facts: RenderableType = ""
        self._deeds: RenderableType = ""

    _shown: tuple[object, ...] | None = None
    _shown_deeds: tuple[object, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Static(self._facts, classes="card-facts")
        yield Static(self._deeds, classes="card-deeds")

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
        if key != self._shown:
            self._shown = key
            self._show_facts(state, tr, token)
        if deeds_key != self._shown_deeds:
            self._shown_deeds = deeds_key
            self._deeds = "" if bankrupt else self._deeds_grid(state, tr, deeds)
            if self.is_mounted:
                self.query_one(".card-deeds", Static).update(self._deeds)

    def _show_facts(self, state: GameState, tr: Translator, token: tuple[int, bool, int, bool] | None) -> None:
        p = self.player
        fmt = state.edition.fmt
        current = token is not None and token[3]
        self.set_class(current, "current")
        title = f"▶ {p}" if current else p
        if self.border_title != title:  # setting it, even to the same, re-draws the whole card
            self.border_title = title
        self.set_class(p in state.bankrupt, "bankrupt")
        self.set_class(bool(state.debts.get(p)), "in-debt")
        # one line per fact, never wrapped: a long deed name is cut short, its buildings stay in view
        if p in state.bankrupt:
            facts = Text(tr("player.bankrupt", creditor=tr.account(state.bankrupt_to[p])), "bold red")
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
        if self.is_mounted:
            self.query_one(".card-facts", Static).update(facts)

    def _deeds_grid(self, state: GameState, tr: Translator, deeds: list[int]) -> DeedLines:
        p = self.player
        rows: list[tuple[Text, Text]] = []
        for pos in deeds:
            space = state.edition.spaces[pos]
            lot = state.lots[pos]
            group = space.group or ""
            known = group in state.edition.groups
            color = state.edition.groups[group].color if known else "white"
            name = Text()
            # a full block for a full colour group, a half block for a lone deed of it
            name.append("█" if known and state.owns_group(p, group) else "▌", color)
            name.append(" ")
            name.append(space.name, "dim strike" if lot.mortgaged else "")
            marks = Text()
            if lot.mortgaged:
                marks.append(tr("deed.mortgaged_mark"), "dim")
            elif lot.hotel:
                marks.append(tr("deed.hotel_mark"), "bold red")
            elif lot.houses:
                marks.append(HOUSE * lot.houses, "bold green")
            rows.append((name, marks))
        return DeedLines(rows)


class TurnBar(Static):
    """Follow mode: whose turn it is, the doubles thrown this turn, and what the landing requires (the proposal,
    settled by Enter) or what the player may do before rolling (in jail: the fine or a card). Hidden without
    follow mode."""

    _shown: Text | None = None

    def show(self, state: GameState, tr: Translator) -> None:
        self.display = state.follow and not state.over and state.current is not None
        if not self.display:
            return
        p = state.current or ""
        text = Text()
        text.append(f" ▶ {p} ", "bold reverse")
        text.append(" ")
        due = state.pending
        if due is not None:
            text.append(tr.msg(describe(state, due)), "bold")
            text.append("  " + tr("turn.bar_settle"), "yellow")
            if due.kind in ("buy", "advance") and due.command.get("op") == "buy":
                text.append(tr("turn.bar_auction"), "yellow")
        elif state.in_jail[p]:
            text.append(tr("turn.bar_jail", n=state.jail_turns[p], m=state.edition.rules.jail_attempts),
                        "bold magenta")
            hints = [tr("turn.bar_dice_jail")]
            if state.jail_turns[p] < state.edition.rules.jail_fine_turns:
                hints.append(tr("turn.bar_fine", amount=state.edition.fmt(state.edition.jail_fine)))
            if state.jail_cards_of(p):
                hints.append(tr("turn.bar_card"))
            text.append("  " + " · ".join(hints), "yellow")
        else:
            text.append(tr("turn.bar_roll"), "bold")
            text.append("  " + tr("turn.bar_dice"), "yellow")
        if state.doubles:
            text.append("  " + tr("turn.bar_doubles", n=state.doubles), "cyan")
        if text != self._shown:
            self._shown = text
            self.update(text)


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
        if state.over:
            winner = state.winner or ", ".join((state.result or {}).get("tied", []))
            text.append("\n" + tr("bank.over", winner=winner), "bold green")
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
            line = tr.parts(entry.parts) if entry.parts else entry.text
            style = "dim strike" if entry.seq in undone else ("italic yellow" if entry.undoes else "")
            text.append(f"{entry.seq:>4} ", "dim")
            text.append(line, style)
        if not entries:
            text.append(tr("log.empty"), "dim")
        return text
