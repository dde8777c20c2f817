"""Rent: streets (full-group doubling per the edition), houses, hotels, railroads by
count, utilities from the dice, and the two card cases."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import parse
from .debts import charge
from .errors import Refused
from .messages import Counted, Msg, shown
from .ops import Rent

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx

CARD_CASES = ("nearest-railroad", "nearest-utility")


def dice_range(state: GameState) -> tuple[int, int]:
    # With the Speed Die all three dice count for a utility, Bus and Mr. Monopoly as 0
    # (uk-2008-speed-die-rules.md, "What else?").
    return (2, 15) if state.variant.speed_die else (2, 12)


def rent_due(state: GameState, pos: int, dice: int | None = None, card: str | None = None) -> tuple[int, Msg]:
    """The rent for landing on ``pos`` and how it was worked out.

    Raises :class:`Refused` when no rent is due (unowned or mortgaged) or the dice are
    needed and missing.
    """
    space = state.edition.spaces[pos]
    lot = state.lots[pos]
    fmt = state.edition.fmt
    rules = state.edition.rules
    if lot.owner is None:
        raise Refused("rent-unowned", Msg("rent.unowned", space=space.name))
    if lot.mortgaged:
        raise Refused("rent-mortgaged", Msg("rent.mortgaged", space=space.name))
    if card is not None and card not in CARD_CASES:
        raise Refused("input", Msg("input.rent-card", cards=list(CARD_CASES), value=shown(card)))
    wanted = {"nearest-railroad": "railroad", "nearest-utility": "utility"}.get(card or "")
    if wanted and wanted not in state.edition.nearest_cards():
        raise Refused("rent-card", Msg("rent.no-card", wanted=parse.kind_word(state.edition, wanted)))
    if wanted and space.kind != wanted:
        raise Refused("rent-card", Msg("rent.card-kind", wanted=parse.kind_word(state.edition, wanted), space=space.name,
                                       kind=parse.kind_word(state.edition, space.kind)))
    owner = lot.owner
    group = [state.lots[p] for p in state.group_positions(space.group)] if space.group else [lot]
    if space.kind == "street":
        if lot.hotel:
            return space.rent[5], Msg("how.hotel", amount=fmt(space.rent[5]))
        if lot.houses:
            n = lot.houses
            return space.rent[n], Msg("how.houses", n=n, amount=fmt(space.rent[n]))
        full = all(g.owner == owner for g in group)
        if full and (rules.monopoly_rent_with_mortgaged_lot or not any(g.mortgaged for g in group)):
            return 2 * space.rent[0], Msg("how.double", amount=fmt(space.rent[0]))
        if full:
            return space.rent[0], Msg("how.not-doubled", amount=fmt(space.rent[0]))
        return space.rent[0], Msg("how.bare", amount=fmt(space.rent[0]))
    count = sum(1 for g in group if g.owner == owner)
    # the edition's own words for its railroads and utilities (Kyiv: metro stations, airports), when it has them
    forms = state.edition.kind_forms(space.kind)
    if space.kind == "railroad":
        base = rules.railroad_rent[count - 1]
        if card == "nearest-railroad":
            m = rules.nearest_railroad_multiplier
            if forms:
                return m * base, Msg("how.railroads-card-of", m=m, amount=fmt(base),
                                     count=Counted("count.railroads", count, forms))
            return m * base, Msg("how.railroads-card", m=m, amount=fmt(base), n=count)
        if forms:
            return base, Msg("how.railroads-of", amount=fmt(base), count=Counted("count.railroads", count, forms))
        return base, Msg("how.railroads", amount=fmt(base), n=count)
    # a utility: the dice decide
    low, high = dice_range(state)
    if dice is None:
        raise Refused("rent-dice", Msg("rent.dice", space=space.name, low=low, high=high))
    if not isinstance(dice, int) or isinstance(dice, bool) or not low <= dice <= high:
        raise Refused("input", Msg("input.dice", low=low, high=high, value=shown(dice)))
    if card == "nearest-utility":
        m = rules.nearest_utility_multiplier
        return m * dice, Msg("how.utility-card", m=m, dice=dice)
    m = rules.utility_multipliers[min(count, 2) - 1]
    if forms:
        return m * dice, Msg("how.utility-of", m=m, dice=dice, count=Counted("count.utilities", count, forms))
    return m * dice, Msg("how.utility", m=m, dice=dice, n=count)


def run_rent(state: GameState, tx: Tx, cmd: Rent) -> None:
    payer = parse.player(state, cmd.payer, "rent", "payer")
    space = parse.prop(state, cmd.space, "rent")
    owner = state.lots[space.position].owner
    if owner == payer:
        raise Refused("rent-own", Msg("rent.own", player=payer, space=space.name))
    dice = cmd.dice if isinstance(cmd.dice, int) else None
    card = cmd.card if isinstance(cmd.card, str) else None
    amount, how = rent_due(state, space.position, dice, card)
    assert owner is not None  # rent_due refuses an unowned deed
    paid = charge(tx, payer, owner, amount, "rent")
    fmt = state.edition.fmt
    tx.info.update(amount=amount, owner=owner)
    tx.say("log.rent", payer=payer, owner=owner, amount=fmt(amount), space=space.name, how=how)
    if not paid:
        tx.say("log.debt-open", player=payer, cash=fmt(state.cash[payer]))
