"""Rent: streets (full-group doubling per the edition), houses, hotels, railroads by
count, utilities from the dice, and the two card cases."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import charge
from .errors import Refused

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx

CARD_CASES = ("nearest-railroad", "nearest-utility")


def dice_range(state: GameState) -> tuple[int, int]:
    # With the Speed Die all three dice count for a utility, Bus and Mr. Monopoly as 0
    # (uk-2008-speed-die-rules.md, "What else?").
    return (2, 15) if state.variant.speed_die else (2, 12)


def rent_due(state: GameState, pos: int, dice: int | None = None, card: str | None = None) -> tuple[int, str]:
    """The rent for landing on ``pos`` and how it was worked out.

    Raises :class:`Refused` when no rent is due (unowned or mortgaged) or the dice are
    needed and missing.
    """
    space = state.edition.spaces[pos]
    lot = state.lots[pos]
    fmt = state.edition.fmt
    rules = state.edition.rules
    if lot.owner is None:
        raise Refused("rent-unowned", f"{space.name} is not owned: no rent is due (buy it or auction it)")
    if lot.mortgaged:
        raise Refused("rent-mortgaged", f"{space.name} is mortgaged: no rent is collected on a mortgaged deed")
    if card is not None and card not in CARD_CASES:
        raise Refused("input", f"rent: \"card\" must be one of {', '.join(CARD_CASES)}, not {card!r}")
    if card == "nearest-railroad" and space.kind != "railroad":
        raise Refused("rent-card", f"The nearest-railroad card applies to a railroad, and {space.name} is a {space.kind}")
    if card == "nearest-utility" and space.kind != "utility":
        raise Refused("rent-card", f"The nearest-utility card applies to a utility, and {space.name} is a {space.kind}")
    owner = lot.owner
    group = [state.lots[p] for p in state.group_positions(space.group)] if space.group else [lot]
    if space.kind == "street":
        if lot.hotel:
            return space.rent[5], f"hotel rent {fmt(space.rent[5])}"
        if lot.houses:
            n = lot.houses
            return space.rent[n], f"rent with {n} house{'s' * (n > 1)} {fmt(space.rent[n])}"
        full = all(g.owner == owner for g in group)
        if full and (rules.monopoly_rent_with_mortgaged_lot or not any(g.mortgaged for g in group)):
            return 2 * space.rent[0], f"double rent for the full group: 2 x {fmt(space.rent[0])}"
        if full:
            return space.rent[0], f"rent {fmt(space.rent[0])} (not doubled: a lot of the group is mortgaged)"
        return space.rent[0], f"rent {fmt(space.rent[0])}"
    if space.kind == "railroad":
        count = sum(1 for g in group if g.owner == owner)
        base = rules.railroad_rent[count - 1]
        if card == "nearest-railroad":
            m = rules.nearest_railroad_multiplier
            return m * base, f"{m} x {fmt(base)} for {count} railroad{'s' * (count > 1)} (card)"
        return base, f"{fmt(base)} for {count} railroad{'s' * (count > 1)}"
    # utility
    low, high = dice_range(state)
    if dice is None:
        raise Refused("rent-dice", f"Rent on {space.name} is worked out from the dice: enter the dice total ({low}-{high})")
    if not isinstance(dice, int) or isinstance(dice, bool) or not low <= dice <= high:
        raise Refused("input", f"rent: \"dice\" must be a dice total {low}-{high}, not {dice!r}")
    count = sum(1 for g in group if g.owner == owner)
    if card == "nearest-utility":
        m = rules.nearest_utility_multiplier
        return m * dice, f"{m} x the roll of {dice} (card)"
    m = rules.utility_multipliers[min(count, 2) - 1]
    return m * dice, f"{m} x the roll of {dice} ({count} utilit{'ies' if count > 1 else 'y'})"


def run_rent(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    payer = parse.player(state, cmd, "payer")
    space = parse.prop(state, cmd)
    owner = state.lots[space.position].owner
    if owner == payer:
        raise Refused("rent-own", f"{payer} owns {space.name}: no rent to pay")
    dice = cmd.get("dice")
    card = cmd.get("card")
    amount, how = rent_due(state, space.position, dice, card)
    paid = charge(tx, payer, owner, amount, "rent")
    fmt = state.edition.fmt
    tx.info.update(amount=amount, how=how, owner=owner)
    tx.text = f"{payer} pays {owner} {fmt(amount)} rent on {space.name} ({how})"
    if not paid:
        tx.text += f"; {payer} has only {fmt(state.cash[payer])}: a debt is open"
