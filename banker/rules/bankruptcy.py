"""Bankruptcy (to a player or to the bank) and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import spend, who
from .errors import Refused
from .state import BANK, POT
from .valuation import building_sale_value, interest, max_raisable, valuation

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx


def _owe(tx: Tx, payer: str, creditor: str, amount: int, why: str) -> None:
    """A payment that may add to a debt already open (interest due on an inheritance)."""
    state = tx.state
    claims = [list(c) for c in state.debts.get(payer, [])]
    if not claims and state.cash[payer] >= amount:
        tx.pay(payer, creditor, amount, why)
    elif amount > 0:
        tx.debt(payer, claims + [[creditor, amount, why]])


def preview(state: GameState, player: str) -> dict[str, Any]:
    """What bankruptcy would move, without moving it: for the banker to check first."""
    claims = state.debts.get(player, [])
    creditor = claims[0][0] if claims else None
    deeds = state.deeds_of(player)
    return {
        "player": player,
        "creditor": creditor,
        "debt": sum(c[1] for c in claims),
        "can_raise": max_raisable(state, player),
        "cash": state.cash[player],
        "buildings_value": sum(building_sale_value(state, p) for p in deeds),
        "deeds": deeds,
        "mortgaged": [p for p in deeds if state.lots[p].mortgaged],
        "jail_cards": state.jail_cards_of(player),
    }


def run_bankrupt(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    p = parse.player(state, cmd)
    fmt = state.edition.fmt
    claims = state.debts.get(p)
    if not claims:
        raise Refused("bankrupt-no-debt", f"{p} has no open debt: bankruptcy follows a debt that cannot be paid")
    total = sum(c[1] for c in claims)
    can = max_raisable(state, p)
    if can >= total:
        raise Refused("bankrupt-avoidable", f"{p} can still raise {fmt(can)} (selling buildings, mortgaging) for a "
                      f"debt of {fmt(total)}: bankruptcy is only for a debt that cannot be paid")
    creditor = claims[0][0]
    if creditor == POT:
        creditor = BANK
    lift = parse.positions(state, cmd.get("lift"), "bankrupt lift")
    if lift and creditor == BANK:
        raise Refused("input", "bankrupt: \"lift\" is the creditor's choice, and here the creditor is the bank")
    final = bool(state.variant.end_at_bankruptcy) and len(state.bankrupt) + 1 >= state.variant.end_at_bankruptcy
    tx.debt(p, [])
    # claims that others owe the bankrupt player go to its creditor
    for q, qclaims in list(state.debts.items()):
        if any(c[0] == p for c in qclaims):
            tx.debt(q, [[creditor if c[0] == p else c[0], c[1], c[2]] for c in qclaims])
    if creditor == BANK:
        _to_bank(state, tx, p, final)
    else:
        _to_player(state, tx, p, creditor, lift, final)
    tx.add({"t": "bankrupt", "player": p, "creditor": creditor})
    tx.text = f"{p} is bankrupt to {who(state, creditor)} (debt {fmt(total)}, could raise only {fmt(can)})" + tx.text
    if final:
        finish(state, tx, "bankruptcies")
    elif len(state.active_players) == 1:
        finish(state, tx, "last player")


def _to_player(state: GameState, tx: Tx, p: str, c: str, lift: list[int], final: bool) -> None:
    deeds = state.deeds_of(p)
    fmt = state.edition.fmt
    notes = []
    if final:
        # Short game: play ceases and the creditor takes everything as it stands,
        # buildings included (us-classic-rules.txt, Short Game rule 3).
        for pos in deeds:
            tx.owner(pos, c)
        for card in state.jail_cards_of(p):
            tx.jail_card(card, c)
        tx.pay(p, c, state.cash[p], "bankruptcy")
        return
    if state.edition.rules.bankrupt_to_player_mortgages_first:
        # "Pay whatever money you were able to raise": everything is raised first.
        for pos in deeds:
            _return_buildings(state, tx, pos, paid_to=p)
        for pos in deeds:
            if not state.lots[pos].mortgaged:
                tx.mortgaged(pos, True)
                tx.pay(BANK, p, state.edition.spaces[pos].mortgage, "mortgage")
    else:
        for pos in deeds:
            _return_buildings(state, tx, pos, paid_to=c)
    tx.pay(p, c, state.cash[p], "bankruptcy")
    for pos in deeds:
        tx.owner(pos, c)
    for card in state.jail_cards_of(p):
        tx.jail_card(card, c)
    for pos in lift:
        if pos not in deeds or not state.lots[pos].mortgaged:
            raise Refused("bankrupt-lift", f"\"lift\" names {state.edition.spaces[pos].name}, not a mortgaged deed "
                          f"{c} receives")
    for pos in deeds:
        if not state.lots[pos].mortgaged:
            continue
        space = state.edition.spaces[pos]
        rate = interest(state, space.mortgage)
        _owe(tx, c, BANK, rate, "interest")
        notes.append(f"{c} pays {fmt(rate)} interest on {space.name}")
        if pos in lift:
            spend(tx, c, BANK, space.mortgage, "unmortgage", f"lifting the mortgage on {space.name}")
            tx.mortgaged(pos, False)
            notes.append(f"and lifts it for {fmt(space.mortgage)}")
    if notes:
        tx.text = "; " + "; ".join(notes)


def _return_buildings(state: GameState, tx: Tx, pos: int, paid_to: str | None) -> None:
    lot = state.lots[pos]
    if not (lot.houses or lot.hotel):
        return
    value = building_sale_value(state, pos)
    tx.stock(houses=lot.houses, hotels=int(lot.hotel))
    tx.houses(pos, 0)
    tx.hotel(pos, False)
    if paid_to:
        tx.pay(BANK, paid_to, value, "sell building")


def _to_bank(state: GameState, tx: Tx, p: str, final: bool) -> None:
    deeds = state.deeds_of(p)
    for pos in deeds:
        _return_buildings(state, tx, pos, paid_to=None)
        tx.owner(pos, None)
        tx.mortgaged(pos, False)
        if not final:
            tx.pending(pos, True)  # the bank auctions every deed, unmortgaged
    for card in state.jail_cards_of(p):
        tx.jail_card(card, None)  # back to the bottom of its deck
    tx.pay(p, BANK, state.cash[p], "bankruptcy")
    if deeds and not final:
        names = ", ".join(state.edition.spaces[pos].name for pos in deeds)
        tx.text = f"; the bank auctions {names}"


def finish(state: GameState, tx: Tx, reason: str) -> None:
    values = {p: valuation(state, p) for p in state.active_players}
    best = max(values.values())
    top = [p for p, v in values.items() if v == best]
    if len(top) > 1:  # tie: more cash wins; the books are silent (docs/rules.md)
        most_cash = max(state.cash[p] for p in top)
        top = [p for p in top if state.cash[p] == most_cash]
    winner = top[0] if len(top) == 1 else None
    result = {"reason": reason, "valuation": values, "winner": winner, "tied": top if winner is None else []}
    tx.set("result", "game", "result", None, result)
    fmt = state.edition.fmt
    standings = ", ".join(f"{p} {fmt(v)}" for p, v in sorted(values.items(), key=lambda kv: -kv[1]))
    end = f"{winner} wins" if winner else f"a tie between {' and '.join(top)}"
    tx.text += f". The game ends ({reason}): {end}. Valuation: {standings}"


def run_end_game(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    debtors = [p for p in state.active_players if state.debts.get(p)]
    if debtors:
        raise Refused("end-debt", f"{', '.join(debtors)} still owe(s) money: settle the debt or declare "
                      f"bankruptcy before ending the game")
    reason = "time" if state.variant.timed else "agreed"
    tx.text = "End of game"
    finish(state, tx, reason)
