"""A property auction under way, as the console runs it: the bids, who has passed, and whether a bid may
stand. Pure (no Textual): the console's auction screen words the answers; the auction itself is recorded
by the ``auction`` op once the deed is sold (or left with the bank)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .raising import beyond_reach

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState


@dataclass
class Bidding:
    """The auction so far: the bids in order (bidder, amount) and who has passed."""

    bidders: list[str]
    opening: int  # the lowest first bid (the edition's property_auction_min_bid)
    bids: list[tuple[str, int]] = field(default_factory=list)
    passed: set[str] = field(default_factory=set)

    @property
    def high(self) -> tuple[str, int] | None:
        return self.bids[-1] if self.bids else None

    @property
    def lowest_next(self) -> int:
        return self.bids[-1][1] + 1 if self.bids else self.opening

    def raise_to(self, bidder: str, amount: int) -> None:
        self.bids.append((bidder, amount))

    @property
    def in_play(self) -> list[str]:
        return [p for p in self.bidders if p not in self.passed]


def bid_refusal(state: GameState, bidding: Bidding, bidder: str, amount: int) -> tuple[str, dict[str, Any]] | None:
    """Why ``bidder`` may not bid ``amount`` now, as a reason and its figures (None: the bid stands):
    ``has_passed``; ``too_low`` (``amount``: the lowest next bid); ``over_cash`` where the edition auctions
    for cash only (``cash``); ``over_raise`` above what the bidder's sales and mortgages could raise
    (``amount``: that most); ``owes`` while the bidder has a debt open (``amount``: all it owes), for the ``auction`` op
    refuses a winner in debt (as any purchase), and a bid taken here would be refused only at the sale, the dialog
    closed and every bid lost. A bid above the cash but within that is allowed (the console flags it)."""
    if bidder in bidding.passed:
        return "has_passed", {}
    if state.debts.get(bidder):
        return "owes", {"amount": state.debt_total(bidder)}
    if amount < bidding.lowest_next:
        return "too_low", {"amount": bidding.lowest_next}
    return beyond_reach(state, bidder, amount)
