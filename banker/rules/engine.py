"""Which handler carries out which command: the dispatch table, outside the state.

:meth:`banker.rules.state.GameState.push` reads a command (:func:`read`: the input limits of a
new command, then :func:`banker.rules.ops.decode`) and runs it (:func:`run`): the handler for its
type applies the command's effects through a transaction, and every debt the cash now covers is
settled. A handler takes the typed command (``run_salary(state, tx, cmd: Salary)``), checks what
the command means (the player exists, the space is a street...) and refuses with :class:`Refused`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from . import ops, parse
from .bankruptcy import run_bankrupt, run_end_game
from .building import run_build, run_building_auction, run_sell_building
from .cards import run_card, run_jail_card
from .commands import run_auction, run_buy, run_deal, run_free_parking, run_jail_fine, run_salary, run_transfer
from .count import run_count
from .debts import settle
from .errors import Refused
from .messages import Msg
from .mortgage import run_mortgage, run_unmortgage
from .rent import run_rent
from .tax import run_tax
from .trade import run_trade
from .turns import before, follow_up, run_end_turn, run_follow, run_place, run_roll

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, Tx

Handler = Callable[["GameState", "Tx", Any], None]

#: the handler of every op the rules engine carries out (``undo`` is the session log's)
HANDLERS: dict[type[ops.Op], Handler] = {
    ops.Roll: run_roll,
    ops.Salary: run_salary,
    ops.Buy: run_buy,
    ops.Auction: run_auction,
    ops.Deal: run_deal,
    ops.Rent: run_rent,
    ops.Tax: run_tax,
    ops.Card: run_card,
    ops.JailFine: run_jail_fine,
    ops.JailCard: run_jail_card,
    ops.Transfer: run_transfer,
    ops.Count: run_count,
    ops.Build: run_build,
    ops.SellBuilding: run_sell_building,
    ops.BuildingAuction: run_building_auction,
    ops.Mortgage: run_mortgage,
    ops.Unmortgage: run_unmortgage,
    ops.Trade: run_trade,
    ops.Bankrupt: run_bankrupt,
    ops.FreeParking: run_free_parking,
    ops.EndGame: run_end_game,
    ops.EndTurn: run_end_turn,
    ops.Place: run_place,
    ops.FollowMode: run_follow,
}


def read(state: GameState, command: ops.Command | Mapping[str, Any], *, replay: bool = False) -> ops.Command:
    """The typed command for ``command``: a new one first meets the input limits
    (:func:`banker.rules.parse.check_command`), then is decoded strictly; a replayed one is
    decoded leniently (:func:`banker.rules.ops.decode`)."""
    if type(command) is not dict:  # else a JSON object, nearly every command (read without the checks below)
        if isinstance(command, ops.Op):
            if not replay:
                parse.check_command(state, ops.encode(command))
            return ops.decode(command)
        if not isinstance(command, Mapping):
            raise Refused("input", Msg("input.not-object"))
    if not replay:
        parse.check_command(state, command)
    return ops.decode(command, replay=replay)


def run(state: GameState, tx: Tx, cmd: ops.Command) -> None:
    """Carry out ``cmd`` on ``tx`` (in follow mode, with what it means for the tokens and the turn:
    :mod:`banker.rules.turns`), then settle every debt the cash now covers."""
    handler = HANDLERS.get(type(cmd))
    if handler is None:
        raise Refused("input", Msg("input.log-op", op=ops.op_of(cmd)))
    if state.over:
        raise Refused("game-over", Msg("game-over", winner=state.winner or Msg("game-over.nobody")))
    before(state, cmd)  # follow mode: what the tokens' places forbid (banker.rules.turns)
    handler(state, tx, cmd)
    follow_up(state, tx, cmd)  # follow mode: the proposal it settles, a card's move, the turn
    settle(tx)
