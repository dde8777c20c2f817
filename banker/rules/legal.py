"""Legal actions you can ask for (as python-chess's ``board.legal_moves``).

The engine does not track tokens on the board, so "legal" means legal for the bank
now: e.g. buying is offered for every unowned deed the player can afford, since the
banker knows where the token landed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .building import legal_builds, legal_group_sales, legal_sales, single_sales
from .errors import Refused
from .messages import Msg
from .mortgage import legal_mortgages, legal_unmortgages
from .ops import encode
from .raising import raise_plan

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState


def raise_cash_options(state: GameState, player: str) -> dict[str, Any]:
    """The "raise cash" view for a debtor: every legal sale (one building, or a whole group at
    once) and mortgage with its proceeds, the most that can be raised in all (cash + what the
    best legal sequence raises, see :mod:`banker.rules.raising`) and that sequence; ``blocked``: the
    buildings that stand and cannot be sold now, each with the engine's refusal (:func:`single_sales`)."""
    singles = single_sales(state, player)  # once, split: those that may be made, those refused
    sales = [{"op": "sell_building", "player": player, "space": pos, "proceeds": got}
             for pos, got in singles if not isinstance(got, Refused)]
    groups = [{"op": "sell_building", "player": player, "space": pos, "all": True, "proceeds": amount}
              for pos, amount in legal_group_sales(state, player)]
    mortgages = [{"op": "mortgage", "player": player, "space": pos, "proceeds": amount}
                 for pos, amount in legal_mortgages(state, player)]
    debt = state.debt_total(player)
    plan = raise_plan(state, player)
    can = state.cash[player] + plan.total
    return {
        "player": player,
        "debt": debt,
        "cash": state.cash[player],
        "sales": sales,
        "group_sales": groups,
        "mortgages": mortgages,
        "blocked": [{"op": "sell_building", "player": player, "space": pos, "refused": got}
                    for pos, got in singles if isinstance(got, Refused)],
        "plan": [{**encode(cmd), "proceeds": amount} for cmd, amount in zip(plan.steps, plan.proceeds, strict=True)],
        "max_raisable": can,
        "bankruptcy_unavoidable": bool(debt) and can < debt,
    }


def check_jail_release(state: GameState, player: str, fine: bool) -> None:
    """In follow mode, what the jail fine (``fine``) or a jail card for ``player`` is refused for, given where the
    tokens stand: raises that :class:`Refused` (the check :func:`banker.rules.turns.before` makes; the console asks
    it of each player its pickers offer). A player not in jail (unless the fine is what the bank proposes after the
    third failed attempt); the fine once the player has tried the edition's number of rolls in jail. Without follow
    mode the bank does not know where the tokens stand: nothing is refused here."""
    if not state.follow:
        return
    due = state.pending
    if due is not None and due.kind == "jail_fine" and due.player == player:
        return
    if not state.in_jail[player]:
        raise Refused("not-in-jail", Msg("turn.not-in-jail", player=player))
    limit = state.edition.rules.jail_fine_turns
    if fine and state.jail_turns[player] >= limit:
        raise Refused("jail-roll-first", Msg("turn.jail-roll-first", player=player, n=state.jail_turns[player], m=limit))


def _releases(state: GameState, player: str, fine: bool) -> bool:
    try:
        check_jail_release(state, player, fine)
    except Refused:
        return False
    return True


def legal_actions(state: GameState, player: str | None = None) -> Iterator[dict[str, Any]]:
    """Commands that would be accepted now (rent on utilities needs the dice: omitted)."""
    if state.over:
        return
    players = [player] if player else list(state.active_players)
    for p in players:
        cash = state.cash[p]
        in_debt = bool(state.debts.get(p))
        yield {"op": "salary", "player": p}
        if not in_debt and _releases(state, p, fine=True):
            yield {"op": "jail_fine", "player": p}
        for card in state.jail_cards_of(p) if _releases(state, p, fine=False) else ():
            yield {"op": "jail_card", "player": p, "use": True, "card": card}
        for pos, lot in sorted(state.lots.items()):
            space = state.edition.spaces[pos]
            if lot.owner is None and not in_debt:
                if pos not in state.pending_auction and space.price <= cash:
                    yield {"op": "buy", "player": p, "space": pos}
                if cash >= state.edition.rules.property_auction_min_bid:
                    yield {"op": "auction", "space": pos, "winner": p, "bid": min(cash, space.price)}
            elif lot.owner not in (None, p) and not lot.mortgaged and space.kind != "utility" and not in_debt:
                yield {"op": "rent", "payer": p, "space": pos}
        for pos, _kind, _price in legal_builds(state, p):
            yield {"op": "build", "player": p, "space": pos}
        for pos, _ in legal_sales(state, p):
            yield {"op": "sell_building", "player": p, "space": pos}
        for pos, _ in legal_group_sales(state, p):
            yield {"op": "sell_building", "player": p, "space": pos, "all": True}
        for pos, _ in legal_mortgages(state, p):
            yield {"op": "mortgage", "player": p, "space": pos}
        for pos, _ in legal_unmortgages(state, p):
            yield {"op": "unmortgage", "player": p, "space": pos}
        if in_debt and cash + raise_plan(state, p).total < state.debt_total(p):
            yield {"op": "bankrupt", "player": p}
    if not any(state.debts.get(p) for p in state.active_players):
        yield {"op": "end_game"}


def next_unowned_after(state: GameState, position: int) -> int | None:
    """Speed Die, Mr. Monopoly: the next unowned property after ``position`` (wrapping
    round the board), or None when every deed is owned."""
    n = len(state.edition.spaces)
    for step in range(1, n + 1):
        pos = (position + step) % n
        if pos in state.lots and state.lots[pos].owner is None:
            return pos
    return None


def mr_monopoly_target(state: GameState, position: int, player: str) -> tuple[int, str] | None:
    """Where Mr. Monopoly sends ``player``: ``(pos, "buy")`` for the next unowned property,
    else ``(pos, "rent")`` for the next property owned by another player
    (uk-2008-speed-die-rules.md, "Mr. Monopoly")."""
    pos = next_unowned_after(state, position)
    if pos is not None:
        return pos, "buy"
    n = len(state.edition.spaces)
    for step in range(1, n + 1):
        p = (position + step) % n
        if p in state.lots and state.lots[p].owner not in (None, player):
            return p, "rent"
    return None


def deal_plan(state: GameState, seed: int | None = None) -> list[dict[str, Any]]:
    """Shuffle the title deeds and deal the variant's number to each player, one at a
    time in seating order (us-classic-rules.txt, Short Game rule 1): the deal commands.
    ``seed`` makes the shuffle repeatable; the app passes a random one."""
    per = state.variant.deal_deeds
    deck = sorted(pos for pos, lot in state.lots.items() if lot.owner is None)
    random.Random(seed).shuffle(deck)
    plan = []
    for _round in range(per):
        for p in state.active_players:
            if state.dealt.get(p, 0) + _round >= per or not deck:
                continue
            plan.append({"op": "deal", "player": p, "space": deck.pop()})
    return plan
