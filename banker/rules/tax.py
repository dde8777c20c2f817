"""Tax spaces, including the income-tax choice made before the worth is added up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import parse
from .debts import bank_account, charge
from .errors import Refused
from .messages import Msg
from .ops import Tax
from .valuation import percent, total_worth

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx

CHOICES = ("flat", "percent")


def run_tax(state: GameState, tx: Tx, cmd: Tax) -> None:
    player = parse.player(state, cmd.player, "tax")
    space = parse.space(state, cmd.space, "tax")
    fmt = state.edition.fmt
    if space.kind != "tax":
        raise Refused("not-a-tax", Msg("tax.not", space=space.name))
    choice = cmd.choice if isinstance(cmd.choice, str) else None
    if space.tax_percent:
        if choice not in CHOICES:
            raise Refused("tax-choice", Msg("tax.choose", space=space.name, flat=fmt(space.tax), pct=space.tax_percent))
        # The choice is fixed first; only now is the worth added up.
        worth = total_worth(state, player)
        by_percent = percent(worth, space.tax_percent)
        amount = space.tax if choice == "flat" else by_percent
        other = by_percent if choice == "flat" else space.tax
        tx.info.update(choice=choice, worth=worth, percent_amount=by_percent, flat_amount=space.tax,
                       other_amount=other)
        if choice == "flat":
            tx.say("log.tax-flat", player=player, amount=fmt(amount), space=space.name, flat=fmt(space.tax),
                   other=fmt(other))
        else:
            tx.say("log.tax-percent", player=player, amount=fmt(amount), space=space.name, pct=space.tax_percent,
                   worth=fmt(worth), other=fmt(other))
    else:
        if choice not in (None, "flat"):
            raise Refused("tax-choice", Msg("tax.no-choice", space=space.name, amount=fmt(space.tax)))
        amount = space.tax
        tx.say("log.tax", player=player, amount=fmt(amount), space=space.name)
    tx.info.update(amount=amount)
    if not charge(tx, player, bank_account(state, "tax"), amount, "tax"):
        tx.say("log.debt-open", player=player, cash=fmt(state.cash[player]))
