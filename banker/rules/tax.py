"""Tax spaces, including the income-tax choice made before the worth is added up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import parse
from .debts import bank_account, charge
from .errors import Refused
from .valuation import percent, total_worth

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx

CHOICES = ("flat", "percent")


def run_tax(state: GameState, tx: Tx, cmd: Mapping[str, Any]) -> None:
    player = parse.player(state, cmd)
    space = parse.space(state, cmd)
    fmt = state.edition.fmt
    if space.kind != "tax":
        raise Refused("not-a-tax", f"{space.name} is not a tax space")
    choice = cmd.get("choice")
    if space.tax_percent:
        if choice not in CHOICES:
            raise Refused("tax-choice", f"{space.name}: choose \"flat\" ({fmt(space.tax)}) or \"percent\" "
                          f"({space.tax_percent}% of total worth) before the worth is added up")
        # The choice is fixed first; only now is the worth added up.
        worth = total_worth(state, player)
        by_percent = percent(worth, space.tax_percent)
        amount = space.tax if choice == "flat" else by_percent
        other = by_percent if choice == "flat" else space.tax
        tx.info.update(choice=choice, worth=worth, percent_amount=by_percent, flat_amount=space.tax,
                       other_amount=other)
        how = (f"chose {fmt(space.tax)}" if choice == "flat"
               else f"chose {space.tax_percent}% of {fmt(worth)}")
        tail = f"; the other choice would have cost {fmt(other)}"
    else:
        if choice not in (None, "flat"):
            raise Refused("tax-choice", f"{space.name} offers no choice: pay {fmt(space.tax)}")
        amount, how, tail = space.tax, "", ""
    paid = charge(tx, player, bank_account(state, "tax"), amount, "tax")
    tx.info.update(amount=amount)
    tx.text = f"{player} pays {fmt(amount)} {space.name}" + (f" ({how}{tail})" if how else "")
    if not paid:
        tx.text += "; a debt is open"
