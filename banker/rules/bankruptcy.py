"""Bankruptcy (to a player or to the bank) and the end of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import Struct

from . import parse
from .building import describe_level, run_sell_building
from .cards import jail_card_name
from .debts import settle, spend, who
from .effects import Claim, Debt, Mortgaged, Owner, Pay
from .errors import Refused
from .messages import Msg
from .mortgage import require_lift_cash, run_mortgage
from .names import BANK, POT
from .ops import Bankrupt, EndGame, SellBuilding
from .raising import RaisePlan, raise_plan
from .valuation import building_sale_value, interest, net_worth

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx


def _owe(tx: Tx, payer: str, creditor: str, amount: int, why: str) -> bool:
    """A payment that may add to a debt already open (interest due on an inheritance): whether it was paid (else it
    is owed)."""
    state = tx.state
    claims = state.debts.get(payer, [])
    if not claims and state.cash[payer] >= amount:
        tx.pay(payer, creditor, amount, why)
        return True
    if amount > 0:
        tx.debt(payer, [*claims, Claim(creditor, amount, why)])
    return False


def preview(state: GameState, player: str, lift: list[int] | None = None) -> dict[str, Any]:
    """What bankruptcy would move, without moving it: for the banker to check first (``lift``:
    the mortgaged deeds the creditor lifts at once).

    ``mortgaged``: the deeds that reach the creditor mortgaged, those the bankruptcy itself mortgages
    included (UK, Kyiv: everything is raised first); ``lift_terms``: for each of them, what keeping it
    mortgaged or lifting it costs the creditor (:class:`LiftTerms`; none to the bank); ``final``: the
    bankruptcy that ends a short game, where the creditor takes everything as it stands (no interest,
    nothing to lift).

    The preview is the real thing applied and taken back (:meth:`GameState.preview`), so it
    cannot disagree with it.
    """
    claims = state.debts.get(player, [])
    creditor = claims[0].creditor if claims else None
    deeds = state.deeds_of(player)
    out: dict[str, Any] = {
        "player": player,
        "creditor": BANK if creditor == POT else creditor,
        "debt": sum(c.amount for c in claims),
        "can_raise": state.cash[player] + raise_plan(state, player).total,
        "cash": state.cash[player],
        "cash_given": state.cash[player],  # what cash goes to the creditor: UK/Kyiv, after the sales and mortgages
        "buildings_value": 0,  # what the bank pays for the buildings in the bankruptcy itself
        "deeds": deeds,
        "mortgaged": [p for p in deeds if state.lots[p].mortgaged],
        "lift_terms": {},
        "final": _final(state),
        "jail_cards": state.jail_cards_of(player),
        "effects": [],
        "parts": [],
        "refused": None,
    }
    try:
        move = state.preview(Bankrupt(player=player, lift=lift) if lift else Bankrupt(player=player))
    except Refused as e:
        out["refused"] = e
        return out
    out["buildings_value"] = sum(e.amount for e in move.effects if isinstance(e, Pay) and e.why == "sell building")
    mortgaged = set(out["mortgaged"])
    for effect in move.effects:  # what the bankruptcy mortgages before the deeds go (a lift comes after)
        if isinstance(effect, Owner):
            break
        if isinstance(effect, Mortgaged) and effect.new:
            mortgaged.add(effect.space)
    out["mortgaged"] = sorted(mortgaged)
    if out["creditor"] != BANK and creditor is not None and not out["final"]:
        out["lift_terms"] = _lift_terms(state, creditor, out["mortgaged"], move.effects)
    out["effects"] = move.effects
    out["cash_given"] = sum(e.amount for e in move.effects if isinstance(e, Pay) and e.src == player
                            and e.why == "bankruptcy")
    out["parts"] = move.parts
    return out


class LiftTerms(Struct, frozen=True):
    """What a mortgaged deed a bankruptcy hands to a player costs that creditor, and what the creditor has when it
    comes (the console's question for each such deed: keep it mortgaged, or lift it at once)."""

    interest: int  # the 10% due at once, whichever is chosen
    principal: int  # the mortgage's value, paid on top of the 10% to lift it
    cash: int  # the creditor's cash when the deed's 10% falls due (the bankrupt's cash received, the deeds before paid)
    debt: tuple[Claim, ...]  # what the creditor owes then (its own debts; a 10% it could not pay before)

    @property
    def lift(self) -> int:
        """What lifting it costs at once, in cash: the 10% and the mortgage's value."""
        return self.interest + self.principal

    @property
    def interest_paid(self) -> bool:
        """Whether the 10% is paid at once (else it is owed to the bank: a debt)."""
        return not self.debt and self.cash >= self.interest


def _lift_terms(state: GameState, creditor: str, mortgaged: list[int], effects: list[Any]) -> dict[int, LiftTerms]:
    """For each mortgaged deed the creditor receives (``mortgaged``, in the board's order), what it costs the creditor
    and what the creditor has when it comes, read from the bankruptcy's ``effects`` (:func:`preview`): each 10% is the
    creditor's payment of interest to the bank, or its claim when it owes it, one for each mortgaged deed in the
    board's order (:func:`_to_player`), after the deeds have gone over."""
    spaces = state.edition.spaces
    deeds = iter(mortgaged)
    cash, debt = state.cash[creditor], tuple(state.debts.get(creditor, []))
    handed = False
    out: dict[int, LiftTerms] = {}
    for e in effects:
        handed = handed or (isinstance(e, Owner) and e.new == creditor)
        rate = None
        if handed and isinstance(e, Pay) and e.src == creditor and e.dst == BANK and e.why == "interest":
            rate = e.amount
        elif (handed and isinstance(e, Debt) and e.player == creditor and len(e.new) == len(e.old) + 1
              and e.new[-1].creditor == BANK and e.new[-1].why == "interest"):
            rate = e.new[-1].amount
        if rate is not None:
            pos = next(deeds, None)
            if pos is not None:
                out[pos] = LiftTerms(rate, spaces[pos].mortgage, cash, debt)
        if isinstance(e, Pay):
            cash += (e.amount if e.dst == creditor else 0) - (e.amount if e.src == creditor else 0)
        elif isinstance(e, Debt) and e.player == creditor:
            debt = tuple(e.new)
    return out


def _final(state: GameState) -> bool:
    """Whether the next bankruptcy ends the game (the short game's: "play ceases")."""
    return bool(state.variant.end_at_bankruptcy) and len(state.bankrupt) + 1 >= state.variant.end_at_bankruptcy


def run_bankrupt(state: GameState, tx: Tx, cmd: Bankrupt) -> None:
    p = parse.player(state, cmd.player, "bankrupt")
    fmt = state.edition.fmt
    claims = state.debts.get(p)
    if not claims:
        raise Refused("bankrupt-no-debt", Msg("bankrupt.no-debt", player=p))
    total = sum(c.amount for c in claims)
    plan = raise_plan(state, p)
    can = state.cash[p] + plan.total
    if can >= total:
        raise Refused("bankrupt-avoidable", Msg("bankrupt.avoidable", player=p, can=fmt(can), debt=fmt(total)))
    creditor = claims[0].creditor
    if creditor == POT:
        creditor = BANK
    lift = parse.positions(state, cmd.lift, "bankrupt lift")
    if lift and creditor == BANK:
        raise Refused("input", Msg("input.bank-lift"))
    final = _final(state)
    tx.say("log.bankrupt", player=p, creditor=who(creditor), debt=fmt(total), can=fmt(can))
    tx.debt(p, [])
    # claims that others owe the bankrupt player go to its creditor ("all that you have of value"); what the
    # creditor itself owed the bankrupt is cancelled: it would be owed to itself (docs/rules.md)
    for q in state.players:  # in seating order: the effects never depend on the order the debts were opened in
        qclaims = state.debts.get(q, [])
        owed = [c for c in qclaims if c.creditor == p]
        if not owed:
            continue
        if q == creditor:
            tx.debt(q, [c for c in qclaims if c.creditor != p])
            tx.say("log.debt-cancelled", player=q, amount=fmt(sum(c.amount for c in owed)), creditor=p)
        else:
            tx.debt(q, [Claim(creditor, c.amount, c.why) if c.creditor == p else c for c in qclaims])
    if creditor == BANK:
        _to_bank(state, tx, p, final)
    else:
        _to_player(state, tx, p, creditor, lift, final, plan)
    tx.bankrupt(p, creditor)
    if final:
        settle(tx)  # what the creditor takes pays its own debts first, as at the end of any command
        finish(state, tx, "bankruptcies")
    elif len(state.active_players) == 1:
        finish(state, tx, "last player")


def _jail_cards_to(state: GameState, tx: Tx, p: str, to: str | None) -> None:
    """Every Get Out of Jail Free card the bankrupt holds goes to ``to`` (None: back under its
    own deck), each named in the log."""
    cards = state.jail_cards_of(p)
    for card in cards:
        tx.jail_card(card, to)
    if cards:
        names = [jail_card_name(state, card) for card in cards]
        if to is None:
            tx.say("log.bankrupt-jail-cards-back", cards=names, n=len(cards))
        else:
            tx.say("log.bankrupt-jail-cards", cards=names, player=to, n=len(cards))


def _to_player(state: GameState, tx: Tx, p: str, c: str, lift: list[int], final: bool, plan: RaisePlan) -> None:
    deeds = state.deeds_of(p)
    fmt = state.edition.fmt
    start = state.cash[c]  # the creditor's cash before the bankruptcy (a lift refused says it "by then")
    if final:
        # Short game: play ceases and the creditor takes everything as it stands,
        # buildings included (us-classic-rules.txt, Short Game rule 3).
        _deeds_to(state, tx, p, c, deeds)  # in this order: the log's effects, which a replay must give again
        _jail_cards_to(state, tx, p, c)
        _cash_to(state, tx, p, c)
        return
    if state.edition.rules.bankrupt_to_player_mortgages_first:
        # "Pay whatever money you were able to raise": the sales and mortgages that raise the
        # most (raise_plan), made now; buildings the bank could not take back (a hotel with no
        # houses in the bank to exchange it for) stay on their deeds and go with them.
        for step in plan.steps:
            if isinstance(step, SellBuilding):
                run_sell_building(state, tx, step)
            else:
                run_mortgage(state, tx, step)
    else:
        _said_buildings(state, tx, [_return_buildings(state, tx, pos, paid_to=c) for pos in deeds], c)
    _cash_to(state, tx, p, c)
    _deeds_to(state, tx, p, c, deeds)
    _jail_cards_to(state, tx, p, c)
    for pos in lift:
        if pos not in deeds or not state.lots[pos].mortgaged:
            raise Refused("bankrupt-lift", Msg("bankrupt.lift", space=state.edition.spaces[pos].name, player=c))
    for pos in deeds:
        if not state.lots[pos].mortgaged:
            continue
        space = state.edition.spaces[pos]
        rate = interest(state, space.mortgage)
        had, owed = state.cash[c], bool(state.debts.get(c))  # when the deed comes, before its 10%
        paid = _owe(tx, c, BANK, rate, "interest")
        # said as it went: a creditor short of cash owes the interest (a debt), never "pays" it
        tx.say("log.bankrupt-interest" if paid else "log.bankrupt-interest-owed", player=c, amount=fmt(rate),
               space=space.name)
        if pos in lift:
            require_lift_cash(state, c, pos, had, owed, then=had != start)
            spend(tx, c, BANK, space.mortgage, "unmortgage", Msg("what.lift", space=space.name))
            tx.mortgaged(pos, False)
            tx.say("log.bankrupt-lifts", player=c, space=space.name, amount=fmt(space.mortgage))


def _return_buildings(state: GameState, tx: Tx, pos: int, paid_to: str | None) -> tuple[int, int, int]:
    """The lot's buildings back to the bank (paid at half price to ``paid_to``): (houses, hotels, the price paid)."""
    lot = state.lots[pos]
    if not (lot.houses or lot.hotel):
        return 0, 0, 0
    value = building_sale_value(state, pos)
    returned = (lot.houses, int(lot.hotel), value if paid_to else 0)
    tx.stock(houses=lot.houses, hotels=int(lot.hotel))
    tx.houses(pos, 0)
    tx.hotel(pos, False)
    if paid_to:
        tx.pay(BANK, paid_to, value, "sell building")
    return returned


# what a bankruptcy moves, each said in the log: the banker at the table moves it by hand (the buildings back to the
# box and their price to the creditor, the cash, the deeds), so the log names every piece of it
def _said_buildings(state: GameState, tx: Tx, returned: list[tuple[int, int, int]], paid_to: str | None) -> None:
    houses, hotels, paid = (sum(r[i] for r in returned) for i in range(3))
    if not houses and not hotels:
        return
    what = [Msg("level.houses", n=houses)] if houses else []
    what += [Msg("bankrupt.hotels", n=hotels)] if hotels else []
    if paid_to is None:
        tx.say("log.bankrupt-buildings-back", what=what)
    else:
        tx.say("log.bankrupt-buildings", what=what, player=paid_to, amount=state.edition.fmt(paid))


def _cash_to(state: GameState, tx: Tx, p: str, to: str) -> None:
    cash = state.cash[p]
    tx.pay(p, to, cash, "bankruptcy")
    if cash > 0:
        if to == BANK:
            tx.say("log.bankrupt-cash-bank", player=p, amount=state.edition.fmt(cash))
        else:
            tx.say("log.bankrupt-cash", player=p, amount=state.edition.fmt(cash), creditor=to)


def _deeds_to(state: GameState, tx: Tx, p: str, to: str, deeds: list[int]) -> None:
    for pos in deeds:
        tx.owner(pos, to)
    if deeds:
        tx.say("log.bankrupt-deeds", spaces=[state.edition.spaces[pos].name for pos in sorted(deeds)], player=to,
               n=len(deeds))
    # the buildings still standing go with their deeds (a UK/Kyiv hotel the bank had no houses to exchange for, or
    # everything at the short game's final bankruptcy): said, or the banker at the table puts them back in the box
    lots = [Msg("bankrupt.lot", space=state.edition.spaces[pos].name, what=describe_level(state, pos))
            for pos in sorted(deeds) if state.level(pos)]
    if lots:
        tx.say("log.bankrupt-buildings-stay", lots=lots, player=to, n=len(lots))


def _to_bank(state: GameState, tx: Tx, p: str, final: bool) -> None:
    deeds = state.deeds_of(p)
    returned = []
    for pos in deeds:
        returned.append(_return_buildings(state, tx, pos, paid_to=None))
        tx.owner(pos, None)
        tx.mortgaged(pos, False)
        if not final:
            tx.pending(pos, True)  # the bank auctions every deed, unmortgaged
    _said_buildings(state, tx, returned, None)
    _jail_cards_to(state, tx, p, None)  # each back to the bottom of its own deck
    _cash_to(state, tx, p, BANK)
    if deeds and not final:
        tx.say("log.bank-auctions", spaces=[state.edition.spaces[pos].name for pos in deeds])


def finish(state: GameState, tx: Tx, reason: str) -> None:
    """The game ends: every remaining player valued (a debt still open counts as paid, on both sides: the short
    game's second bankruptcy does not wait for the other debtors; docs/rules.md), the winner named."""
    values = {p: net_worth(state, p) for p in state.active_players}
    best = max(values.values())
    top = [p for p, v in values.items() if v == best]
    if len(top) > 1:  # tie: more cash wins; the books are silent (docs/rules.md)
        most_cash = max(state.cash[p] for p in top)
        top = [p for p in top if state.cash[p] == most_cash]
    winner = top[0] if len(top) == 1 else None
    result = {"reason": reason, "valuation": values, "winner": winner, "tied": top if winner is None else []}
    tx.result(result)
    fmt = state.edition.fmt
    standings = [Msg("log.standing", player=p, amount=fmt(v)) for p, v in sorted(values.items(), key=lambda kv: -kv[1])]
    outcome = Msg("log.wins", player=winner) if winner else Msg("log.tie", players=top)
    tx.say("log.game-ends", reason=Msg(f"reason.{reason}"), outcome=outcome, standings=standings)


def run_end_game(state: GameState, tx: Tx, cmd: EndGame) -> None:
    debtors = state.debtors
    if debtors:
        raise Refused("end-debt", Msg("end.debt", players=debtors, n=len(debtors)))
    tx.say("log.end")
    finish(state, tx, "time" if state.variant.timed else "agreed")
