"""The property auction, run by the console: the bidders, the current bid, who has passed.

Raise the highlighted bidder's bid with ``1`` (+1), ``2`` (+10), ``3`` (+50) or type one (``b``);
``p`` passes; ``w`` takes the last bid back where the edition lets it (US: not UK/Kyiv, where "the
last player to bid must buy"); Enter sells to the highest bidder (or, with no bid, leaves the deed
with the bank: ``winner: null``). Each bid is checked against what the bidder has: above the cash
and within what sales and mortgages could raise, it is taken and flagged (refused where the edition
auctions for cash only); above that, refused. Dismissed with the auction command, or None (Escape);
the command carries the auction as it was left (``_bidding``: every bid, who passed, the bidder
highlighted), which the confirmation takes off before recording it. Opened again after the banker stepped
back from the confirmation (``previous``: the command it gave), it comes back exactly as it was left,
so Enter sells it again and ``w`` takes the last bid back to the one before.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from banker.rules.bidding import Bidding, bid_refusal

from ..keys import with_layouts
from ..widgets.prose import Prose
from .dialogs import AskScreen, ConfirmScreen, Dialog, dialog_title

#: the widest a bidder's name is shown, in cells
NAME_CELLS = 24


class AuctionScreen(Dialog[dict[str, Any] | None]):
    """The auction of the deed at ``space``; dismissed with its command (None: cancelled)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "bid(1)", "auction.plus1"), Binding("2", "bid(10)", "auction.plus10"),
        Binding("3", "bid(50)", "auction.plus50"), Binding(with_layouts("b"), "typed", "auction.typed"),
        Binding(with_layouts("p"), "pass_", "auction.pass"), Binding(with_layouts("w"), "withdraw", "auction.withdraw"),
        Binding("enter", "sold", "auction.sold", priority=True), Binding("escape", "cancel", "Cancel")]

    def __init__(self, space: int, previous: dict[str, Any] | None = None, back: bool = False) -> None:
        super().__init__(back)
        self.space = space
        self.previous = previous

    # ------------------------------------------------------------------ the game's figures
    @property
    def state(self) -> Any:
        return self.app.current_session.state

    def fmt(self, amount: int) -> str:
        return str(self.state.edition.fmt(amount))

    def compose(self) -> ComposeResult:
        state = self.state
        tr = self.app.tr
        rules = state.edition.rules
        self.bidding = Bidding(list(state.active_players), rules.property_auction_min_bid)
        self.left_at: int | None = None  # the bidder highlighted when the banker stepped back here
        left = (self.previous or {}).get("_bidding")
        if left is not None:  # the auction as it was left: every bid, who passed
            self.bidding.bids = [(who, amount) for who, amount in left["bids"]]
            self.bidding.passed = {p for p in left["passed"] if p in self.bidding.bidders}
            self.left_at = left["at"]
        deed = state.edition.spaces[self.space]
        with Vertical(classes="dialog auction"):
            yield dialog_title(tr("auction.title", space=deed.name, price=self.fmt(deed.price)))
            yield Static(id="auction-rules", classes="dialog-note", markup=False)
            yield OptionList(id="bidders", markup=False)
            yield Static(id="auction-bid")
            yield Static(id="auction-error", classes="dialog-error", markup=False)

    def on_mount(self) -> None:
        tr = self.app.tr
        rules = self.state.edition.rules
        said = [tr("auction.opens", amount=self.fmt(rules.property_auction_min_bid))]
        if rules.auction_cash_only:
            said.append(tr("auction.cash_only"))
        if rules.auction_last_bidder_buys:
            said.append(tr("auction.last_buys"))
        self.query_one("#auction-rules", Static).update(" · ".join(said))
        self.refresh_view(self.left_at)
        self.query_one("#bidders", OptionList).focus()

    def refresh_view(self, highlight: int | None = None) -> None:
        tr = self.app.tr
        state = self.state
        bidding = self.bidding
        options = self.query_one("#bidders", OptionList)
        keep = options.highlighted if highlight is None else highlight
        options.clear_options()
        high = bidding.high
        # the names in one column as wide as the longest (by the cells they take: an emoji takes two), at most
        # NAME_CELLS; a longer name is cut short with "…", never run into the cash
        width = min(max((cell_len(p) for p in bidding.bidders), default=0), NAME_CELLS)
        for i, p in enumerate(bidding.bidders):
            name = p if cell_len(p) <= width else set_cell_size(p, width - 1) + "…"
            line = Text(set_cell_size(name, width) + "  ")
            line.append(f"{self.fmt(state.cash[p]):>10}")
            if p in bidding.passed:
                line.append("  " + tr("auction.passed"), "dim italic")
            elif high is not None and high[0] == p:
                line.append("  " + tr("auction.high", amount=self.fmt(high[1])), "bold green")
                if high[1] > state.cash[p]:
                    line.append("  " + tr("auction.must_raise", amount=self.fmt(high[1] - state.cash[p])), "bold yellow")
            else:
                last = next((amount for who, amount in reversed(bidding.bids) if who == p), None)
                if last is not None:
                    line.append("  " + tr("auction.last_bid", amount=self.fmt(last)), "dim")
            options.add_option(Option(line, id=str(i)))
        options.highlighted = keep if keep is not None else 0
        if high is None:
            said = Text(tr("auction.no_bid", amount=self.fmt(bidding.opening)))
        else:
            said = Text(tr("auction.current", amount=self.fmt(high[1]), player=high[0]), "bold")
        self.query_one("#auction-bid", Static).update(Prose(said))

    def bidder(self) -> str | None:
        options = self.query_one("#bidders", OptionList)
        if options.highlighted is None:
            return None
        return self.bidding.bidders[options.highlighted]

    def error(self, text: str) -> None:
        self.query_one("#auction-error", Static).update(text)

    # ------------------------------------------------------------------ bids
    def check(self, bidder: str, amount: int) -> str | None:
        """Why ``bidder`` may not bid ``amount`` (None: the bid stands): the engine's reason, in words."""
        refusal = bid_refusal(self.state, self.bidding, bidder, amount)
        if refusal is None:
            return None
        reason, figures = refusal
        shown = {k: self.fmt(v) for k, v in figures.items()}
        return self.app.tr(f"auction.{reason}", player=bidder, **shown)

    def place(self, bidder: str, amount: int) -> None:
        why = self.check(bidder, amount)
        if why:
            self.error(why)
            return
        self.error("")
        self.bidding.raise_to(bidder, amount)
        self.refresh_view()

    def action_bid(self, step: int) -> None:
        bidder = self.bidder()
        if bidder is None:
            return
        high = self.bidding.high
        self.place(bidder, high[1] + step if high else max(step, self.bidding.opening))

    def action_typed(self) -> None:
        bidder = self.bidder()
        if bidder is None:
            return
        tr = self.app.tr

        def typed(value: int | None) -> None:
            if value is not None:
                self.place(bidder, value)

        # a bid the bidder cannot make is refused in the box, the amount kept to correct: the box closed, and the
        # digits typed again became the auction's keys (1 is +1)
        self.app.push_screen(AskScreen(tr("auction.typed_title", player=bidder),
                                       tr("auction.typed_prompt", amount=self.fmt(self.bidding.lowest_next)),
                                       True, 1, None, check=lambda amount: self.check(bidder, amount)), typed)

    def action_pass_(self) -> None:
        bidder = self.bidder()
        if bidder is None:
            return
        high = self.bidding.high
        if high is not None and high[0] == bidder:
            self.error(self.app.tr("auction.high_cannot_pass", player=bidder))
            return
        self.error("")
        self.bidding.passed.add(bidder)
        self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # where the last bid binds (UK, Kyiv: "the last player to bid must buy"), no bid is taken back: the key is
        # not offered (the rules line above the bidders says why)
        if action == "withdraw" and self.state.edition.rules.auction_last_bidder_buys:
            return False
        return True

    def action_withdraw(self) -> None:
        if not self.bidding.bids:
            return
        self.bidding.bids.pop()
        self.error("")
        self.refresh_view()

    def action_sold(self) -> None:
        high = self.bidding.high
        left = {"bids": tuple(self.bidding.bids), "passed": tuple(sorted(self.bidding.passed)),
                "at": self.query_one("#bidders", OptionList).highlighted}
        if high is None:
            self.dismiss({"op": "auction", "space": self.space, "winner": None, "_bidding": left})
        else:
            self.dismiss({"op": "auction", "space": self.space, "winner": high[0], "bid": high[1], "_bidding": left})

    def action_cancel(self) -> None:
        """Escape: out of the auction; with bids made, only once the banker says so (one Escape lost them all)."""
        high = self.bidding.high
        if high is None:
            self.dismiss(None)
            return
        tr = self.app.tr

        def leave(sure: bool | None) -> None:
            if sure:
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen(tr("auction.leave_title"), [tr("auction.leave", player=high[0],
                                                                             amount=self.fmt(high[1]))],
                                           confirm=tr("auction.leave_yes"), danger=True), leave)
