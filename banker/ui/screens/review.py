"""The review of a session: timeline with filters, charts, summary, count the table, audit.

Read-only: it is given the session's entries and reviews them through
:func:`banker.rules.review.review` (figures from the logged effects); it never writes.
Opened from the table (`v`, also for a game in progress) or by `banker review FILE`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Input, Select, Static, TabbedContent, TabPane

from banker.boards import game_from_setup
from banker.i18n import visible
from banker.ledger import Entry
from banker.ledger.review import SessionReview
from banker.ledger.said import clip
from banker.report import why_text
from banker.report.export import count_text, end_text, house_rules_text, rank_text, ties_text
from banker.rules import GameState
from banker.rules.count import Difference, difference_msg
from banker.rules.review import Review, review, standings, table_count, timeline_tail

from ..keys import with_layouts
from ..match import fold
from ..widgets.board import heat_map
from ..widgets.footer import BankFooter
from ..widgets.prose import Prose
from ..widgets.table import group_color
from .base import BankerScreen

#: the most characters of the session's name the review's header shows ("…" after them)
NAME_SHOWN = 48

#: the most ticks of a chart's vertical axis: room for them in the smallest terminal (and the same ticks
#: whatever the size the chart has when it is drawn)
CHART_TICKS = 4
#: the most points a chart draws (a long game is sampled evenly)
CHART_POINTS = 400
#: a log longer than this opens its review in two steps (issue #14: the first frame of a long game's review):
#: first the header and the timeline's last this many entries, read alone; then the whole review, worked out
#: in a thread from every entry, takes their place (the timeline, the filters, the summary, the charts)
QUICK_ENTRIES = 60
#: the fewest lines a chart is drawn in (plotext needs its title, axes and legend, and a few lines for the plot)
CHART_LINES = 12
#: each player's colour in the charts, in seating order (textual-plotext's own sequence), given with
#: every line: otherwise plotext picks them from whatever theme is set when the line is added, which
#: depends on whether the plot was drawn once before (on a busy machine, it may not have been)
CHART_COLORS = ((0, 130, 200), (60, 180, 75), (230, 25, 75), (255, 225, 25), (245, 130, 48), (145, 30, 180),
                (70, 240, 240), (240, 50, 230))


#: the tabs' keys, shown as one group in the footer
TABS = Binding.Group("review.tabs_keys")


class ReviewScreen(BankerScreen[None]):
    """The session reviewed. ``standalone``: opened by `banker review` (closing it quits)."""

    # every tab by a visible key (its number); the search box by one key (/); while the search box has the
    # focus, letters and digits are typed there, never taken as these keys (check_action)
    # the tabs' keys first, Escape last: on 80 columns the footer's end is cut off, and Escape is known without it
    BINDINGS: ClassVar[list[BindingType]] = [
        # one group in the footer, "1 2 3 4 5 6 tabs" (each tab's title carries its number): with a word for each, the
        # footer at 80 columns had no room left for Escape and quit
        Binding("1", "tab('timeline')", "review.tab_timeline", group=TABS),
        Binding("2", "tab('charts')", "review.tab_charts", group=TABS),
        Binding("3", "tab('summary')", "review.tab_summary", group=TABS),
        Binding("4", "tab('count')", "review.key_count", group=TABS),
        Binding("5", "audit", "review.tab_audit", group=TABS), Binding("6", "tab('board')", "turn.review_tab", group=TABS),
        Binding(with_layouts("slash"), "search", "evening.search", key_display="/"),
        Binding(with_layouts("c"), "tab('count')", "Count", show=False),
        Binding(with_layouts("a"), "audit", "Audit", show=False),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, standalone: bool = False) -> None:
        super().__init__()
        self.standalone = standalone
        session = self.app.current_session
        self.path = session.path
        self.setup = session.setup
        self.info = dict(session.info)
        self.logged = session.entries  # a long log's old entries are decoded as they are read
        self.count = len(self.logged)
        self.charts_drawn = False  # the charts are made when their tab is first shown
        #: the search's folded text of each line (see :meth:`searched`), for the lines it was folded from
        self._folded_for: list[str] | None = None
        self._folded: dict[int, str] = {}
        #: the whole review is in place (at once for a short log; for a long one, once worked out in a thread)
        self.complete = False
        self.state = game_from_setup(self.setup)
        if self.count <= QUICK_ENTRIES:
            entries = list(self.logged)
            self.ops = sorted({e["command"].get("op", "?") for e in entries})
            self._put_in_place(self.state, entries, review(self.state, entries))
        else:
            # the first frame: what every entry is (its op, what it undoes) read alone, the counts of the table
            # that stand, and the timeline's last entries; the state stays the setup's until the review is in
            briefs = self.logged.briefs()
            undone = {u for _, u in briefs if u is not None}
            self.ops = sorted({op for op, _ in briefs})
            tail = [self.logged[i] for i in range(self.count - QUICK_ENTRIES, self.count)]
            first = Review(players=tuple(self.state.players), timeline=timeline_tail(self.state, tail), seqs=[],
                           cash={}, worth={}, counts=[table_count(self.logged[i]) for i, (op, _) in enumerate(briefs)
                                                      if op == "count" and i + 1 not in undone])
            self.review = first
            self.sr = SessionReview(self.info, first, self.state, tail)
            self.lines = self._lines(first)

    def _lines(self, r: Review) -> list[str]:
        return [self.app.tr.entry(i) for i in r.timeline]

    def _put_in_place(self, state: GameState, entries: list[Entry], r: Review, lines: list[str] | None = None) -> None:
        self.state = state
        self.review = r
        self.sr = SessionReview(self.info, r, state, entries)
        self.lines = self._lines(r) if lines is None else lines
        self.complete = True

    @work(thread=True, exclusive=True, group="review")
    def work_out(self) -> None:
        """The whole review of a long log, in a thread (the first frame showed its end): then put in place."""
        state = game_from_setup(self.setup)
        entries = list(self.logged)
        r = review(state, entries)
        lines = self._lines(r)
        try:
            self.app.call_from_thread(self._show_complete, state, entries, r, lines)
        except RuntimeError:  # the console closed meanwhile
            pass

    def _show_complete(self, state: GameState, entries: list[Entry], r: Review, lines: list[str]) -> None:
        if not self.is_attached:
            return
        self._put_in_place(state, entries, r, lines)
        self.query_one("#review-timeline", DataTable).anchor(False)  # from now on the cursor places the view
        self.query_one("#review-header", Static).update(self.header())
        self.fill_timeline(keep_cursor=True)
        self.query_one("#review-summary", Static).update(self.summary())
        self.query_one("#review-count", Static).update(self.count_the_table())
        chosen = self.query_one("#board-player", Select).value
        self.query_one("#review-heat", Static).update(self.board_heat(chosen if isinstance(chosen, str) else None))
        self.query_one("#review-board-players", Static).update(self.board_players())
        if self.query("#chart-cash"):
            self.call_after_refresh(self.draw_charts)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        tr = self.app.tr
        yield Static(self.header(), id="review-header")
        with TabbedContent(id="review-tabs"):
            with TabPane(f"1 {tr('review.tab_timeline')}", id="timeline"):
                with Horizontal(id="review-filters"):
                    if self.complete:
                        yield from self.filters()
                    else:  # a long log: the two choices come just after the first frame (see on_mount)
                        yield Static(classes="filter-pending")
                        yield Static(classes="filter-pending")
                    yield Input(placeholder=tr("review.filter_text"), id="filter-text")
                yield DataTable(id="review-timeline", cursor_type="row", zebra_stripes=True)
            with TabPane(f"2 {tr('review.tab_charts')}", id="charts"):
                # the plots are made when the tab is first shown; a short terminal scrolls them, each kept tall enough to
                # be read (three squeezed into 80x24 drew no line at all, and an axis upside down)
                yield VerticalScroll(id="charts-box")  # focused when shown: the keys scroll it, as the other tabs
            with TabPane(f"3 {tr('review.tab_summary')}", id="summary"):
                with VerticalScroll():
                    yield Static(self.summary() if self.complete else "", id="review-summary")
            with TabPane(f"4 {tr('review.tab_count')}", id="count"):
                with VerticalScroll():
                    yield Static(self.count_the_table() if self.complete else "", id="review-count")
            with TabPane(f"5 {tr('review.tab_audit')}", id="audit"):
                with VerticalScroll():
                    yield Static(tr("review.audit_hint"), id="review-audit")
            with TabPane(f"6 {tr('turn.review_tab')}", id="board"):
                with VerticalScroll(id="review-board"):
                    if self.complete:
                        yield self.board_choice()
                    else:  # a long log: the choice comes with the timeline's, just after the first frame
                        yield Static(classes="filter-pending")
                    yield Static(self.board_heat(None) if self.complete else "", id="review-heat")
                    yield Static(self.board_players() if self.complete else "", id="review-board-players")
        yield BankFooter()

    def header(self) -> Text:
        """The session, its setup (edition, variant, house rules, the agreed end, the players) and when the
        table was last counted."""
        tr = self.app.tr
        session = self.app.current_session
        state = self.state
        # a long name cut with "…": the header keeps its three lines over the tabs
        name = clip(visible(session.name), NAME_SHOWN)
        text = Text(tr("review.header", name=name, edition=state.edition.name, n=self.count), "bold")
        end = end_text(self.sr)
        values = {"variant": tr(f"variant.{state.variant.id}"), "rules": house_rules_text(self.sr, tr),
                  "players": ", ".join(state.players)}
        text.append("\n" + (tr("evening.setup_end", end=end, **values) if end else tr("evening.setup", **values)))
        last = self.review.last_count
        text.append("\n" + tr("evening.last_count") + ": ", "dim")
        text.append(count_text(self.sr, tr), "green" if last is not None and last.agreed else
                    ("yellow" if last is not None else "dim"))
        return text

    def filters(self) -> list[Select[Any]]:
        """The timeline's choices: a player, a kind of action."""
        tr = self.app.tr
        return [Select([(Text(p), p) for p in self.state.players], prompt=tr("review.all_players"), id="filter-player"),
                Select([(tr.get(f"action.{op}", op), op) for op in self.ops], prompt=tr("review.all_actions"),
                       id="filter-op")]

    def board_choice(self) -> Select[str]:
        """The board tab's choice: everyone's landings, or one player's."""
        return Select([(Text(p), p) for p in self.state.players], prompt=self.app.tr("review.all_players"),
                      id="board-player")

    def on_mount(self) -> None:
        table = self.query_one("#review-timeline", DataTable)
        tr = self.app.tr
        table.add_columns("#", tr("review.col_action"))
        self.fill_timeline()
        table.focus()
        if not self.complete:  # a long log: the choices and its whole review once the first frame is drawn
            # the tail is shown from its end in the very first frame: the cursor's own scroll waits for a refresh
            # after the table is measured, and that came frames later, behind the whole review's thread
            table.anchor()
            # (the first refresh after mounting is the App's start, whose frame is not shown: after the next)
            self.call_after_refresh(self.call_after_refresh, self._after_first_frame)

    async def _after_first_frame(self) -> None:
        if not self.is_attached or self.app.return_code is not None:  # closed at once (exit sets the return code)
            return
        # the choices' widgets (Textual's Select, a module of its own) cost a tenth of the first frame: they come now
        pending = list(self.query(".filter-pending"))
        await self.query_one("#review-filters").mount(*self.filters(), before="#filter-text")
        await self.query_one("#review-board").mount(self.board_choice(), before="#review-heat")
        for placeholder in pending:
            await placeholder.remove()
        self.work_out()  # the complete review queries the choices: they are in place

    # ---------------------------------------------------------------- timeline
    def matches(self, i: int, player: Any, op: Any, text: str) -> bool:
        item = self.review.timeline[i]
        if player is not None and player is not Select.NULL and player not in item.players:
            return False
        if op is not None and op is not Select.NULL and item.op != op:
            return False
        if text and text not in self.searched(i):
            return False
        return True

    def searched(self, i: int) -> str:
        """What the search box looks in for the ``i``-th entry: its line and the names of the spaces it touches, folded
        as names are compared (case, ё as е, apostrophes: "рублевское" finds Рублёвское, "в'язниц" finds В’язниця);
        folded once for each line shown, not at every key."""
        if self._folded_for is not self.lines:
            self._folded_for, self._folded = self.lines, {}
        found = self._folded.get(i)
        if found is None:
            spaces = " ".join(self.state.edition.spaces[p].name for p in self.review.timeline[i].spaces)
            found = self._folded[i] = fold(f"{self.lines[i]} {spaces}")
        return found

    def fill_timeline(self, keep_cursor: bool = False) -> None:
        """The timeline's rows, as the filters say; the cursor on the last (or, ``keep_cursor``, on the entry it
        was on when that is still shown)."""
        tr = self.app.tr
        table = self.query_one("#review-timeline", DataTable)
        on = self.shown[table.cursor_row] if keep_cursor and 0 <= table.cursor_row < len(self.shown) else None
        chosen = {s.id: s.value for s in self.query(Select)}  # (none yet on a long log's first frame)
        player, op = chosen.get("filter-player"), chosen.get("filter-op")
        text = fold(self.query_one("#filter-text", Input).value)
        table.clear()
        rows = []
        self.shown: list[int] = []  # the seq on each row
        for i, item in enumerate(self.review.timeline):
            if not self.matches(i, player, op, text):
                continue
            self.shown.append(item.seq)
            line = Text(self.lines[i], no_wrap=True, overflow="ellipsis")
            if item.undone:
                line.stylize("strike dim")
                line.append("  " + tr("review.undone_note", seq=item.undone_by, reason=item.undo_reason or ""),
                            "italic yellow")
            elif item.op == "undo":
                line.stylize("italic yellow")
            rows.append((Text(str(item.seq), "dim", justify="right"), line))
        if not rows and self.review.timeline:  # the filters leave nothing: said, not an empty table under its header
            rows.append((Text(""), Text(tr("review.no_match"), "dim italic")))
        table.add_rows(rows)
        if self.shown:
            last = len(rows) - 1
            table.move_cursor(row=self.shown.index(on) if on is not None and on in self.shown and on != self.shown[-1]
                              else last)

    @on(Select.Changed, "#filter-player")
    @on(Select.Changed, "#filter-op")
    @on(Input.Changed, "#filter-text")
    def refilter(self) -> None:
        self.fill_timeline()

    # ------------------------------------------------------------ the board (follow mode)
    @on(Select.Changed, "#board-player")
    def board_player(self, event: Select.Changed) -> None:
        player = event.value if isinstance(event.value, str) else None
        self.query_one("#review-heat", Static).update(self.board_heat(player))

    def board_heat(self, player: str | None) -> Text:
        """The landings per space as a heat map of the board: everyone's, or one player's."""
        tr = self.app.tr
        r = self.review
        counts = r.player_landings.get(player, {}) if player else r.landings
        if not r.landings:
            return Text(tr("turn.review_none"), "dim italic")
        legend = [Text(tr("turn.review_heat_title") + (f" · {player}" if player else ""), "bold"),
                  Text(tr("turn.review_total", n=sum(counts.values())))]
        if counts:
            top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
            legend.append(Text(tr("turn.review_most"), "dim"))
            legend += [Text(f"  {self.state.edition.spaces[pos].name}: {n}") for pos, n in top]
        return heat_map(self.state.edition, counts, legend)

    def board_players(self) -> Table | Text:
        """Per player: landings, the space most landed on, doubles, times sent to jail, turns spent there."""
        tr = self.app.tr
        r = self.review
        if not r.landings and not r.doubles and not r.jailed:
            return Text("")
        table = Table(title=tr("turn.review_players"), title_justify="left")
        table.add_column(tr("review.player"))
        for col in ("landings", "most", "doubles", "jailed", "jail_turns"):
            table.add_column(tr(f"turn.review_col_{col}"), justify="left" if col == "most" else "right")
        spaces = self.state.edition.spaces
        for p in self.state.players:
            counts = r.player_landings.get(p, {})
            most = max(counts.items(), key=lambda kv: (kv[1], -kv[0]), default=None)
            table.add_row(Text(p), str(sum(counts.values())), Text(f"{spaces[most[0]].name} ({most[1]})") if most else "—",
                          str(r.doubles.get(p, 0)), str(r.jailed.get(p, 0)), str(r.jail_turns.get(p, 0)))
        return table

    # ------------------------------------------------------------------ charts
    @on(TabbedContent.TabActivated)
    def tab_shown(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "charts" and not self.query("#chart-cash"):
            # plotext is imported only now: the review's first frame does not wait for it
            from ..widgets.chart import ChartPlot

            self.query_one("#charts-box").mount(ChartPlot(id="chart-cash"), ChartPlot(id="chart-worth"),
                                                ChartPlot(id="chart-stock"))
            self.call_after_refresh(self.fit_charts)
            self.call_after_refresh(self.draw_charts)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_charts)

    def fit_charts(self) -> None:
        """The three charts share the tab's height, each at least :data:`CHART_LINES` tall: on a short terminal they
        scroll (squeezed into 80x24 they drew no line at all, and an axis upside down)."""
        box = self.query("#charts-box")
        if not box:
            return
        height = box.first().size.height
        if height:
            each = max(CHART_LINES, height // 3)
            for plot in box.first().children:
                plot.styles.height = each

    def draw_charts(self) -> None:
        from ..widgets.chart import ChartPlot

        if not self.complete:  # a long log's review is still being worked out: drawn when it is in place
            return
        tr = self.app.tr
        r = self.review
        n = len(r.seqs)
        step = max(1, -(-n // CHART_POINTS))
        idx = list(range(0, n, step))
        if n and idx[-1] != n - 1:
            idx.append(n - 1)
        xs = [r.seqs[i] for i in idx]
        fmt = self.state.edition.fmt
        for widget_id, series, title in (("#chart-cash", r.cash, tr("review.chart_cash")),
                                         ("#chart-worth", r.worth, tr("review.chart_worth"))):
            plot = self.query_one(widget_id, ChartPlot)
            plt = plot.plt
            plt.clear_data()
            plot.full_title, plot.ticks = title, 0
            plt.xlabel("#")
            if xs:
                for k, p in enumerate(r.players):
                    plt.plot(xs, [series[p][i] for i in idx], label=p, marker="braille",
                             color=CHART_COLORS[k % len(CHART_COLORS)])
                ticks = money_ticks([series[p][i] for p in r.players for i in idx], CHART_TICKS)
                labels = [fmt(t) for t in ticks]
                plot.ticks = max(len(t) for t in labels)  # the title fitted beside them as the plot is drawn
                plt.yticks([float(t) for t in ticks], labels)  # the edition's money, not plotext's 1416.7
                plt.ylim(ticks[0], ticks[-1])  # the axis spans its ticks: the top one on the frame, not on the title
                plt.xticks([float(x) for x in seq_ticks(xs)], [str(x) for x in seq_ticks(xs)])
            plot.refresh()
        # the bank's building stock: what a shortage looks like over the evening
        plot = self.query_one("#chart-stock", ChartPlot)
        plt = plot.plt
        plt.clear_data()
        plt.title(tr("evening.chart_stock"))
        plt.xlabel("#")
        if xs:
            plt.plot(xs, [r.bank_houses[i] for i in idx], label=tr("evening.houses"), marker="braille",
                     color=CHART_COLORS[1])
            plt.plot(xs, [r.bank_hotels[i] for i in idx], label=tr("evening.hotels"), marker="braille",
                     color=CHART_COLORS[2])
            ticks = money_ticks([0, self.state.edition.houses], CHART_TICKS)
            plt.yticks([float(t) for t in ticks], [str(t) for t in ticks])
            plt.ylim(ticks[0], ticks[-1])
            plt.xticks([float(x) for x in seq_ticks(xs)], [str(x) for x in seq_ticks(xs)])
        plot.refresh()
        self.charts_drawn = True

    # ----------------------------------------------------------------- summary
    def summary(self) -> Table:
        tr = self.app.tr
        r, state = self.review, self.state
        fmt = state.edition.fmt
        spaces = state.edition.spaces
        out = Table.grid(padding=(0, 0), expand=True)  # the standings spread over a wide screen
        # the standings: ranked by the final valuation (or net worth while the game goes on), the winner first
        # six columns of money: the table says once what they are in ("Amounts in $", "Суммы в т.р."), each cell the
        # number alone, never split ("4 317" over "т.р." in every cell at 80 columns, the names cut to "Итогов…")
        money = state.edition.money
        # no rules nor padding between the columns (a space apart, a line under the headers; spread over the width
        # a wider screen has): eight columns of words such as "Получено аренды" fit 80 columns whole, where ruled and
        # padded they were cut to "Получе…" and a name to "Конста…"
        players = Table(title=tr("evening.standings") if state.over else tr("review.players_title"),
                        title_justify="left", expand=True, box=box.SIMPLE_HEAD, padding=(0, 0),
                        caption=tr("review.amounts_in", currency=money.currency()), caption_justify="left")
        players.add_column(tr("evening.rank"), justify="right")
        players.add_column(tr("review.player"), overflow="fold")  # a long word of a name goes on, never "Конста…"
        players.add_column(tr("evening.valuation") if state.over else tr("review.net_worth"), justify="right")
        for col in ("cash", "rent_received", "rent_paid", "to_bank", "salary"):
            players.add_column(tr(f"review.{col}"), justify="right")
        ranked = standings(state, r)
        for st in ranked:
            p = st.player
            name = Text(p, "strike" if st.bankrupt else ("bold green" if st.winner else ""))
            players.add_row(rank_text(st), name, *(Prose(money.number(amount)) for amount in (
                st.worth, r.cash[p][-1] if r.cash[p] else state.cash[p], r.rent_received.get(p, 0),
                r.rent_paid.get(p, 0), r.to_bank_total(p), r.salary.get(p, 0))))
        out.add_row(players)
        for line in ties_text(ranked, tr, fmt):
            out.add_row(Text(f"{tr('evening.ties')}: {line}", "yellow"))
        deeds = Table(title=tr("review.best_deeds"), title_justify="left")
        deeds.add_column(tr("review.deed"))
        deeds.add_column(tr("review.rent"), justify="right")
        for pos, amount in list(r.rent_by_deed.items())[:10]:
            deeds.add_row(Text(spaces[pos].name), fmt(amount))
        groups = Table(title=tr("review.by_group"), title_justify="left")
        groups.add_column(tr("review.group"))
        groups.add_column(tr("review.rent"), justify="right")
        for group, amount in r.rent_by_group.items():
            groups.add_row(Text("█ ", group_color(state.edition, group)) + Text(tr.group(state.edition, group)),
                           fmt(amount))
        side = Table.grid(padding=(0, 2))
        side.add_row(deeds, groups)
        out.add_row(side)
        if r.auctions:
            auctions = Table(title=tr("review.auctions"), title_justify="left")
            for col in ("seq", "deed", "winner", "bid", "printed"):
                auctions.add_column(tr(f"review.{col}"), justify="right" if col in ("seq", "bid", "printed") else "left")
            for a in r.auctions:
                label = spaces[a.space].name
                if a.kind != "deed":  # a building-shortage auction
                    label = tr("evening.shortage", space=label, kind=tr(f"evening.{a.kind}"))
                if a.no_bids:
                    auctions.add_row(str(a.seq), Text(label), Text(tr("evening.no_bids_short"), "dim italic"), "—",
                                     fmt(a.printed))
                else:
                    auctions.add_row(str(a.seq), Text(label), Text(a.winner or ""), fmt(a.bid), fmt(a.printed))
            out.add_row(auctions)
        biggest = Table(title=tr("review.biggest"), title_justify="left")
        for col in ("seq", "from", "to", "amount", "why"):
            biggest.add_column(tr(f"review.{col}"), justify="right" if col in ("seq", "amount") else "left")
        for pay in r.biggest:
            biggest.add_row(str(pay.seq), Text(tr.account(pay.payer)), Text(tr.account(pay.payee)), fmt(pay.amount),
                            why_text(tr, pay.why))
        out.add_row(biggest)
        if r.bankruptcies:
            text = Text(tr("review.bankruptcies") + "\n", "bold")
            for b in r.bankruptcies:
                text.append(tr("review.bankruptcy_line", seq=b.seq, ts=b.ts[:16].replace("T", " "), player=b.player,
                               creditor=self.app.tr.account(b.creditor, in_text=True)) + "\n")
            out.add_row(text)
        return out

    # ---------------------------------------------------------- count the table
    def count_the_table(self) -> Text:
        """What should be on the table: the bank's houses and hotels, each player's deeds."""
        tr = self.app.tr
        state = self.state  # reviewed to the end of the log: the table as it stands
        text = Text()
        r = self.review
        text.append(tr("evening.counts_title") + ": ", "bold")
        text.append(count_text(self.sr, tr) + "\n", "green" if r.last_count and r.last_count.agreed else "yellow")
        for c in r.counts[:-1][-4:] if r.counts else []:  # the earlier counts, the latest few
            text.append("  " + tr("evening.count_agreed" if c.agreed else "evening.count_differed", seq=c.seq,
                                  time=c.ts[11:16], n=len(c.differences)) + "\n", "dim")
        last = r.last_count
        if last is not None:
            for d in last.differences:
                text.append("  • " + tr.msg(difference_msg(Difference.from_json(d), state.edition.fmt)) + "\n", "yellow")
        text.append(tr("evening.count_hint") + "\n\n", "dim italic")
        text.append(tr("review.count_intro") + "\n\n", "dim")
        text.append(tr("review.count_bank", houses=tr("review.count_houses", n=state.bank_houses),
                       hotels=tr("review.count_hotels", n=state.bank_hotels)) + "\n", "bold")
        unowned = [pos for pos, lot in sorted(state.lots.items()) if lot.owner is None]
        text.append(tr("review.count_unowned", n=len(unowned)) + "\n\n")
        for p in state.players:
            deeds = sorted(state.deeds_of(p))
            houses, hotels = state.buildings_of(p)
            if p in state.bankrupt:
                continue
            text.append(tr("review.count_player", player=p, deeds=tr("review.count_deeds", n=len(deeds)),
                           houses=tr("review.count_houses", n=houses), hotels=tr("review.count_hotels", n=hotels)) + "\n",
                        "bold")
            for pos in deeds:
                space = state.edition.spaces[pos]
                lot = state.lots[pos]
                group = space.group or ""
                color = group_color(state.edition, group)
                text.append("  █ ", color)
                text.append(space.name, "dim" if lot.mortgaged else "")
                if lot.mortgaged:
                    text.append(f"  {tr('deed.mortgaged')}", "dim")
                elif lot.hotel:
                    text.append(f"  {tr('deed.hotel_mark')}", "bold red")
                elif lot.houses:
                    text.append(f"  {'⌂' * lot.houses}", "bold green")
                text.append("\n")
            text.append("\n")
        return text

    # ------------------------------------------------------------------- audit
    def action_audit(self) -> None:
        self.show_tab("audit")
        self.query_one("#review-audit", Static).update(self.app.tr("review.audit_running"))
        self.run_audit()

    @work(thread=True, exclusive=True, group="audit")
    def run_audit(self) -> None:
        from banker.ledger import SessionError
        from banker.ledger.audit import audit
        from banker.report import problem_text

        tr = self.app.tr
        try:
            report = audit(self.path)
        except SessionError as e:
            text = Text(tr.session(e), "bold red")
        else:
            if report.ok:
                text = Text(tr("review.audit_ok", n=report.entries), "bold green")
            else:
                text = Text(tr("review.audit_problems", n=len(report.problems)) + "\n\n", "bold red")
                for problem in report.problems:
                    text.append(f"  {problem_text(problem, tr)}\n")
        self.app.call_from_thread(self.query_one("#review-audit", Static).update, text)

    # ------------------------------------------------------------------- keys
    def action_tab(self, tab: str) -> None:
        self.show_tab(tab)

    def show_tab(self, tab: str) -> None:
        """Show the tab ``tab``. A widget of another tab that has the focus (a timeline filter just chosen) lets it go
        first: Textual would hand the focus to the next widget of that hidden tab, and the tabs switch to the
        widget that takes the focus, so the key seemed to do nothing."""
        tabs = self.query_one(TabbedContent)
        focused = self.focused
        if focused is not None and tab != tabs.active:
            pane = next((a for a in focused.ancestors if isinstance(a, TabPane)), None)
            if pane is not None and pane.id != tab:
                self.set_focus(None)
        tabs.active = tab
        if self.focused is None:  # the keys scroll what the tab shows: the timeline's entries, as when the review
            # opens; another tab's page (its arrows, Page Up/Down, Home/End: a mouse wheel alone scrolled the charts)
            if tab == "timeline":
                self.query_one("#review-timeline", DataTable).focus()
            elif scroll := self.query_one(f"TabPane#{tab}").query(VerticalScroll):
                scroll.first().focus()

    def action_search(self) -> None:
        """The search box of the timeline (its tab shown first)."""
        self.show_tab("timeline")
        self.query_one("#filter-text", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # typing in the search box: letters and digits are the search, never a tab's key ("baltic" is not a, c)
        if isinstance(self.focused, Input) and action in ("tab", "audit", "search"):
            return False
        return True

    def action_close(self) -> None:
        """Escape: out of the search box first (the search stays), then the review closes."""
        if isinstance(self.focused, Input):
            self.query_one("#review-timeline", DataTable).focus()
            return
        if self.standalone:
            self.app.exit()
        else:
            self.dismiss()


def seq_ticks(xs: list[int], count: int = 5) -> list[int]:
    """Entry numbers for the horizontal axis: whole numbers, the first and the last among them."""
    if not xs:
        return []
    first, last = xs[0], xs[-1]
    step = max(1, (last - first) // max(1, count - 1))
    ticks = list(range(first, last, step))
    return [*ticks[: count - 1], last] if ticks and ticks[-1] != last else ticks or [last]


def money_ticks(values: list[int], count: int = 5) -> list[int]:
    """About ``count`` round values spanning ``values`` (the money axis' ticks): 0, 500, 1000... or 0, 2000..."""
    low, high = min(values + [0]), max(values + [1])
    span = high - low
    raw = span / max(1, count - 1)
    magnitude = 10 ** max(0, len(str(int(raw))) - 1)
    step = max(1, int(next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)))
    start = (low // step) * step
    ticks = list(range(start, high + step, step))
    while len(ticks) > count:  # never more than there is room for: every other one
        ticks = ticks[::2]
    return ticks
