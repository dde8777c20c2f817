"""Following the board (issue #11): turns, tokens, rolls and what each landing requires.

In follow mode (``GameState.follow``) the banker types each roll (:class:`~banker.rules.ops.Roll`) and
the bank moves the token, pays the salary when it passes GO, and works out what the landing requires: a
*proposal* (:class:`~banker.rules.effects.Due`, ``GameState.pending``): buy or auction an unowned deed,
the rent with its amount, a tax, a card to draw, the jail fine after the third failed attempt, the Speed
Die's Mr. Monopoly. ``pending.command`` is the exact command that settles it as proposed (with what
``pending.needs`` asks for added); applying it, or any command that settles the same thing (an
``auction`` of the deed instead of ``buy``), clears it and carries the roll on: a card's move and its
landing, Mr. Monopoly's advance, then either the same player rolls again (doubles) or the turn passes.

Everything here changes the state only through effects (``position``, ``in_jail``, ``jail_turns``,
``passed_go``, ``turn``, ``doubles``, ``follow``, ``proposal``), so undoing a roll takes back everything
it caused. The manual ops keep working in follow mode (:func:`follow_up` runs after each of them).

The read-only API the console uses: ``GameState.current`` (whose turn), ``GameState.pending`` (what is
proposed, or None), :func:`describe` (the proposal in words, a :class:`~banker.rules.messages.Msg`),
``GameState.positions`` / ``in_jail`` / ``jail_turns`` / ``doubles``, :func:`doubles_to_roll_on` (the doubles as
shown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct, UnsetType

from . import parse
from .debts import require_no_debt
from .effects import Doubles, Due, InJail, Pay, Proposal, Turn
from .errors import Refused
from .legal import check_jail_release, mr_monopoly_target
from .messages import Msg
from .names import BANK, POT
from .ops import (
    SPEED_FACES,
    Auction,
    Buy,
    Card,
    Command,
    EndTurn,
    FollowMode,
    JailCard,
    JailFine,
    Place,
    Rent,
    Roll,
    Salary,
    Tax,
)
from .rent import rent_due

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Space
    from .state import GameState, Tx

#: "If a player throws doubles three times in succession, he moves his token immediately to the space marked
#: "In Jail"" (us-classic-rules.txt; the same in the UK, RU and Kyiv books)
DOUBLES_TO_JAIL = 3
#: the ops of this module: they make their own moves (``follow_up`` leaves them alone)
TURN_OPS = (Roll, Place, EndTurn, FollowMode)


class Carry(Struct):
    """What a move carries on with once its landing is settled (copied into a :class:`Due`)."""

    roll: int = 0  # the dice total a utility's rent uses (Speed Die: all three dice, Bus and Mr. Monopoly as 0)
    mr_monopoly: bool = False  # the Speed Die's advance still to come
    again: bool = False  # doubles: the same player rolls again
    chain: bool = True  # part of the current player's roll (False: a command out of the turn's order)


# --------------------------------------------------------------------------- queries
def jail_position(state: GameState) -> int:
    """The Jail space of the board."""
    return next(s.position for s in state.edition.spaces if s.kind == "jail")


def doubles_to_roll_on(state: GameState) -> int:
    """The doubles thrown this turn, as the turn's bar and ``banker state`` say them: only while the same player
    rolls again (nothing proposed, or a landing of the turn's roll after which the player rolls again). Once the
    turn's last roll is made (a roll without doubles, or three of a kind, whose free move ends the turn:
    docs/rules.md), the turn passes as soon as that landing is settled and the count no longer bears on it: 0.
    (Found playing: after three of a kind the bar said "1 double this turn" for a turn that was over.)"""
    due = state.pending
    if due is not None and due.chain and not due.again:
        return 0
    return state.doubles


def free_move_asked(state: GameState, dice: tuple[int, int] | list[int], speed: object) -> bool:
    """Whether a roll of the player of the turn, the Speed Die in use, asks where the token goes: three of a kind
    ("you can move your token to any space on the board"), unless it is the third doubles of the turn, which sends
    the token to jail and leaves the Speed Die's result unused ("If you are sent to Jail during your move, your turn
    ends and you do not use the result of the Speed Die"; the roll then needs no ``to``)."""
    d1, d2 = dice
    return d1 == d2 == speed and state.doubles + 1 < DOUBLES_TO_JAIL


def describe(state: GameState, due: Due) -> Msg:
    """What ``due`` asks for, in the banker's words (the console's proposal, a refused roll's reason)."""
    fmt = state.edition.fmt
    space = state.edition.spaces[due.space]
    kind = due.kind
    msg: Msg
    if kind in ("buy", "advance") and state.lots.get(due.space) is not None and state.lots[due.space].owner is None:
        if due.command.get("op") == "auction":
            msg = Msg("due.auction", space=space.name)
        else:
            msg = Msg("due.buy", player=due.player, space=space.name, amount=fmt(space.price))
    elif kind in ("rent", "advance"):
        owner = state.lots[due.space].owner or ""
        if due.amount is None:
            msg = Msg("due.rent-dice", payer=due.player, owner=owner, space=space.name,
                      m=state.edition.rules.nearest_utility_multiplier)
        else:
            msg = Msg("due.rent", payer=due.player, owner=owner, space=space.name, amount=fmt(due.amount))
    elif kind == "tax":
        if due.amount is None:
            msg = Msg("due.tax-choice", player=due.player, space=space.name, flat=fmt(space.tax), pct=space.tax_percent)
        else:
            msg = Msg("due.tax", player=due.player, space=space.name, amount=fmt(due.amount))
    elif kind == "card":
        msg = Msg("due.card", player=due.player, deck=state.edition.decks[due.deck or "chance"])
    else:  # jail_fine
        msg = Msg("due.jail-fine", player=due.player, n=state.jail_turns[due.player], amount=fmt(due.amount or 0),
                  roll=due.roll)
    return Msg("due.mr-monopoly", what=msg) if kind == "advance" else msg


def _dice_text(dice: list[int]) -> str:
    return " + ".join(str(d) for d in dice)


# --------------------------------------------------------------------------- moves
def _pass_turn(state: GameState, tx: Tx, from_player: str | None) -> None:
    nxt = state.next_player(from_player)
    tx.doubles(0)
    tx.turn(nxt)
    if nxt is not None and nxt != from_player:
        tx.say("log.next", player=nxt)


def _collect_salary(state: GameState, tx: Tx, player: str, landed: bool, by: str) -> None:
    amount = state.edition.salary
    if landed and state.house_rules.go_landing_bonus:
        amount *= 2
    tx.pay(BANK, player, amount, "salary")
    if by == "card":
        tx.say("log.card-salary", amount=state.edition.fmt(amount))
    else:
        tx.say("log.salary-landed" if landed and state.house_rules.go_landing_bonus else "log.salary", player=player,
               amount=state.edition.fmt(amount))
    if state.variant.speed_die:
        tx.passed_go(player)


def _forward(state: GameState, tx: Tx, player: str, steps: int, by: str, said: bool = False) -> None:
    """Move ``player``'s token ``steps`` spaces on (salary when it passes or lands on GO). ``said``: the move and
    its space are said already (three of a kind, Mr. Monopoly), so "moves to" is not said a second time."""
    n = len(state.edition.spaces)
    old = state.positions[player]
    new = (old + steps) % n
    tx.position(player, new, by)
    if not said:
        tx.say("log.moves", player=player, space=state.edition.spaces[new].name)
    if steps > 0 and old + steps >= n:
        _collect_salary(state, tx, player, landed=new == 0, by=by)


def _back(state: GameState, tx: Tx, player: str, new: int, by: str) -> None:
    """Move ``player``'s token back to ``new`` (never passing GO)."""
    tx.position(player, new, by)
    tx.say("log.moves-back", player=player, space=state.edition.spaces[new].name)


def send_to_jail(state: GameState, tx: Tx, player: str) -> None:
    """Straight to jail, without salary; the turn ends when it is that player's, and whatever the player's
    landing required is dropped."""
    tx.position(player, jail_position(state), "jail")
    tx.in_jail(player, True)
    tx.jail_turns(player, 0)
    tx.say("log.go-to-jail", player=player)
    if state.pending is not None and state.pending.player == player:
        tx.propose(None)
    if state.current == player:
        _pass_turn(state, tx, player)


def _release(state: GameState, tx: Tx, player: str) -> None:
    tx.in_jail(player, False)
    tx.jail_turns(player, 0)


# --------------------------------------------------------------------------- landings
def _propose(state: GameState, tx: Tx, due: Due) -> None:
    tx.propose(due)
    tx.say("log.due", what=describe(state, due))


def _due(kind: str, player: str, pos: int, amount: int | None, command: dict[str, object], needs: list[str],
         ctx: Carry, deck: str | None = None) -> Due:
    return Due(kind=kind, player=player, space=pos, amount=amount, command=dict(command), needs=needs, roll=ctx.roll,
               deck=deck, mr_monopoly=ctx.mr_monopoly, again=ctx.again, chain=ctx.chain)


def _property_due(state: GameState, player: str, space: Space, ctx: Carry, kind: str | None = None,
                  card: str | None = None) -> Due | None:
    """What landing on a deed requires: buy (or the bank's auction), rent, or nothing (one's own, mortgaged)."""
    pos = space.position
    lot = state.lots[pos]
    if lot.owner is None:
        if pos in state.pending_auction:
            return _due(kind or "buy", player, pos, None, {"op": "auction", "space": pos}, ["winner", "bid"], ctx)
        return _due(kind or "buy", player, pos, space.price, {"op": "buy", "player": player, "space": pos}, [], ctx)
    if lot.owner == player or lot.mortgaged:
        return None
    command: dict[str, object] = {"op": "rent", "payer": player, "space": pos}
    if card is not None:
        command["card"] = card
    if space.kind == "utility" and card == "nearest-utility":
        return _due(kind or "rent", player, pos, None, command, ["dice"], ctx)
    dice = None
    if space.kind == "utility":
        dice = ctx.roll
        command["dice"] = dice
    amount, _how = rent_due(state, pos, dice, card)
    return _due(kind or "rent", player, pos, amount, command, [], ctx)


def land(state: GameState, tx: Tx, player: str, ctx: Carry, card: str | None = None) -> None:
    """Work out what landing where ``player``'s token stands requires, and propose it; when it requires
    nothing, carry the roll on (:func:`carry_on`)."""
    pos = state.positions[player]
    space = state.edition.spaces[pos]
    due: Due | None = None
    if space.kind == "go_to_jail":
        send_to_jail(state, tx, player)
        return
    if space.is_property:
        lot = state.lots[pos]
        if lot.owner not in (None, player) and lot.mortgaged:
            tx.say("log.no-rent-mortgaged", space=space.name)
        due = _property_due(state, player, space, ctx, card=card)
    elif space.kind == "tax":
        command: dict[str, object] = {"op": "tax", "player": player, "space": pos}
        if space.tax_percent:
            due = _due("tax", player, pos, None, command, ["choice"], ctx)
        else:
            due = _due("tax", player, pos, space.tax, command, [], ctx)
    elif space.kind in ("chance", "chest"):
        due = _due("card", player, pos, None, {"op": "card", "player": player}, ["card"], ctx, deck=space.kind)
    elif space.kind == "free_parking" and state.house_rules.free_parking_pot and state.pot:
        amount = state.pot
        tx.pay(POT, player, amount, "free parking")
        tx.say("log.free-parking", player=player, amount=state.edition.fmt(amount))
    if due is not None:
        if ctx.chain or state.pending is None:
            _propose(state, tx, due)
        return
    carry_on(state, tx, player, ctx)


def carry_on(state: GameState, tx: Tx, player: str, ctx: Carry) -> None:
    """The landing is settled: Mr. Monopoly's advance if the Speed Die showed him, then the roll's end (the
    same player rolls again after doubles, else the turn passes)."""
    if not ctx.chain:
        return
    if ctx.mr_monopoly:
        ctx.mr_monopoly = False
        target = mr_monopoly_target(state, state.positions[player], player)
        if target is None:
            tx.say("log.mr-monopoly-none")
        else:
            pos, _what = target
            steps = (pos - state.positions[player]) % len(state.edition.spaces)
            tx.say("log.mr-monopoly", player=player, space=state.edition.spaces[pos].name)
            _forward(state, tx, player, steps, "mr-monopoly", said=True)
            space = state.edition.spaces[pos]
            if state.lots[pos].mortgaged:
                tx.say("log.no-rent-mortgaged", space=space.name)
            due = _property_due(state, player, space, ctx, kind="advance")
            if due is not None:
                _propose(state, tx, due)
                return
    if state.current != player:
        return
    if ctx.again and not state.in_jail[player]:
        tx.say("log.again", player=player)
    else:
        _pass_turn(state, tx, player)


# --------------------------------------------------------------------------- the ops
def _require_follow(state: GameState) -> None:
    if not state.follow:
        raise Refused("follow-off", Msg("turn.follow-off"))


def run_roll(state: GameState, tx: Tx, cmd: Roll) -> None:
    _require_follow(state)
    current = state.current
    assert current is not None  # a game on has an active player
    player = current
    if not isinstance(cmd.player, UnsetType):
        player = parse.player(state, cmd.player, "roll")
        if player != current:
            raise Refused("not-your-turn", Msg("turn.not-yours", player=player, current=current))
    if state.pending is not None:
        raise Refused("pending", Msg("turn.pending", what=describe(state, state.pending)))
    for p in state.active_players:
        require_no_debt(state, p)
    d1, d2 = cmd.dice
    doubles = d1 == d2
    speed = cmd.speed if not isinstance(cmd.speed, UnsetType) else None
    if speed is not None and not state.variant.speed_die:
        raise Refused("speed-die", Msg("turn.no-speed-die", variant=state.variant.name.lower()))
    in_jail = state.in_jail[player]
    use_speed = state.variant.speed_die and state.passed_go[player] and not in_jail
    if use_speed and speed is None:
        raise Refused("speed-die", Msg("turn.speed-missing", player=player))
    if not use_speed:
        speed = None
    triple = speed is not None and d1 == d2 == speed
    if not isinstance(cmd.move, UnsetType) and speed != "bus":
        raise Refused("input", Msg("turn.move-not-bus"))
    if not isinstance(cmd.to, UnsetType) and not triple:
        raise Refused("input", Msg("turn.to-not-triple"))
    tx.info.update(player=player, dice=[d1, d2], doubles=doubles, in_jail=in_jail)
    if use_speed:
        assert speed is not None
        tx.info.update(speed=speed)
        face = Msg(f"speed.{speed}") if isinstance(speed, str) else str(speed)
        tx.say("log.roll-speed", player=player, dice=_dice_text([d1, d2]), speed=face)
    else:
        tx.say("log.roll", player=player, dice=_dice_text([d1, d2]))
        if not isinstance(cmd.speed, UnsetType):
            tx.say("log.speed-jail" if in_jail else "log.speed-ignored", player=player)
    if in_jail:
        _jail_roll(state, tx, player, d1, d2)
        return
    if doubles and state.doubles + 1 >= DOUBLES_TO_JAIL:
        tx.doubles(state.doubles + 1)
        tx.say("log.third-doubles", player=player)
        send_to_jail(state, tx, player)
        return
    if doubles:
        tx.doubles(state.doubles + 1)
    total = d1 + d2 + (speed if isinstance(speed, int) else 0)
    ctx = Carry(roll=total, mr_monopoly=speed == "mr-monopoly", again=doubles and not triple)
    if triple:
        if isinstance(cmd.to, UnsetType):
            raise Refused("input", Msg("turn.to-missing"))
        target = parse.space(state, cmd.to, "roll", "to").position
        tx.say("log.three-of-a-kind", player=player, space=state.edition.spaces[target].name)
        _forward(state, tx, player, (target - state.positions[player]) % len(state.edition.spaces), "three-of-a-kind",
                 said=True)
    elif speed == "bus":
        choices = sorted({d1, d2, d1 + d2})
        if isinstance(cmd.move, UnsetType):
            raise Refused("input", Msg("turn.bus-missing", choices=choices))
        if cmd.move not in choices:
            raise Refused("input", Msg("turn.bus-move", choices=choices, value=cmd.move))
        tx.say("log.bus", player=player, n=cmd.move)
        _forward(state, tx, player, cmd.move, "roll")
    else:
        _forward(state, tx, player, total, "roll")
    land(state, tx, player, ctx)


def _jail_roll(state: GameState, tx: Tx, player: str, d1: int, d2: int) -> None:
    """A roll in jail: an attempt at doubles (only the white dice count)."""
    attempts = state.edition.rules.jail_attempts
    if d1 == d2:
        tx.say("log.jail-out-doubles", player=player)
        _release(state, tx, player)
        _forward(state, tx, player, d1 + d2, "roll")
        land(state, tx, player, Carry(roll=d1 + d2))
        return
    failed = state.jail_turns[player] + 1
    tx.jail_turns(player, failed)
    if failed >= attempts:
        fine = state.edition.jail_fine
        _propose(state, tx, Due(kind="jail_fine", player=player, space=state.positions[player], amount=fine,
                                command={"op": "jail_fine", "player": player}, roll=d1 + d2))
        return
    tx.say("log.jail-stays", player=player, n=failed, m=attempts)
    _pass_turn(state, tx, player)


def run_place(state: GameState, tx: Tx, cmd: Place) -> None:
    player = parse.player(state, cmd.player, "place")
    jail = cmd.jail is True
    jail_pos = jail_position(state)
    if isinstance(cmd.space, UnsetType):
        if not jail:
            raise Refused("input", Msg("input.missing", op="place", key="space"))
        pos = jail_pos
    else:
        pos = parse.space(state, cmd.space, "place").position
        if jail and pos != jail_pos:
            raise Refused("place-jail", Msg("turn.place-jail", space=state.edition.spaces[jail_pos].name, pos=jail_pos,
                                            value=pos))
    if state.positions[player] == pos and state.in_jail[player] == jail:
        raise Refused("place-same", Msg("turn.place-same", player=player, space=state.edition.spaces[pos].name))
    tx.position(player, pos, "place")
    if jail:
        tx.in_jail(player, True)
        tx.say("log.place-jail", player=player)
        if state.pending is not None and state.pending.player == player:
            tx.propose(None)
        if state.follow and state.current == player:
            _pass_turn(state, tx, player)
    else:
        _release(state, tx, player)
        tx.say("log.place", player=player, space=state.edition.spaces[pos].name)


def _drop_pending(state: GameState, tx: Tx) -> None:
    if state.pending is not None:
        tx.say("log.dropped", what=describe(state, state.pending))
        tx.propose(None)


def run_end_turn(state: GameState, tx: Tx, cmd: EndTurn) -> None:
    current = state.current
    _drop_pending(state, tx)
    tx.say("log.end-turn", player=current or "")
    _pass_turn(state, tx, current)


def held_doubles(state: GameState) -> int:
    """The doubles the turn had thrown when follow mode was last switched off (the off move recorded them going to
    0), if that turn is still the one to resume: no turn has passed since (no ``turn`` effect: ``end_turn``, a
    bankruptcy) and its player is still playing and not in jail (going to jail ends the turn). Else 0."""
    current = state.current
    if current is None or current != state.turn or state.in_jail[current]:
        return 0
    for move in reversed(state.history):
        if isinstance(move.command, FollowMode):
            if move.command.on:
                return 0
            return next((e.old for e in move.effects if isinstance(e, Doubles)), 0)
        if any(isinstance(e, Turn) or (isinstance(e, InJail) and e.player == current) for e in move.effects):
            return 0
    return 0


def turn_over_while_off(state: GameState) -> str | None:
    """Why the turn follow mode would resume was already over when follow mode went off, or ended while it was off:
    ``"roll"``, the off move dropped what the landing of that player's roll still required, a roll that gives no
    roll again (no doubles: once settled, by hand, the turn passes, as it would have in follow mode); ``"jail"``,
    the player was put in jail meanwhile (``place`` with ``jail``: going to jail ends the turn, as it does in follow
    mode). None when the turn goes on (doubles to roll again, or nothing was rolled yet) or was passed by hand
    (``end_turn``, a bankruptcy: no turn to end). Found by the rules probe: on again, the same player rolled a
    second time in that turn."""
    current = state.current
    if current is None or current != state.turn:
        return None
    for move in reversed(state.history):
        if isinstance(move.command, FollowMode):
            if move.command.on:
                return None
            dropped = next((e.old for e in move.effects if isinstance(e, Proposal)), None)
            if dropped is not None and dropped.player == current and dropped.chain and not dropped.again:
                return "roll"
            return None
        if any(isinstance(e, Turn) for e in move.effects):
            return None
        if any(isinstance(e, InJail) and e.player == current and e.new for e in move.effects):
            return "jail"
    return None


def run_follow(state: GameState, tx: Tx, cmd: FollowMode) -> None:
    if cmd.on == state.follow:
        raise Refused("follow-same", Msg("turn.follow-same-on" if cmd.on else "turn.follow-same-off"))
    if cmd.on:
        held = held_doubles(state)  # the turn resumes with its doubles (switched off, the count was not followed)
        over = turn_over_while_off(state)
        tx.follow(True)
        current = state.current
        if over is not None and current is not None:  # that turn is over: the next player rolls, as the log says
            nxt = state.next_player(current)
            tx.doubles(0)
            tx.turn(nxt)
            tx.say(f"log.follow-on-over-{over}", player=current, next=nxt or "")
            return
        tx.turn(current)
        tx.doubles(held)
        if state.variant.speed_die:  # the Speed Die counts for whoever has collected a salary already
            paid = {e.dst for move in state.history for e in move.effects if isinstance(e, Pay) and e.why == "salary"}
            for p in state.active_players:
                if p in paid:
                    tx.passed_go(p)
        if held:
            tx.say("log.follow-on-doubles", player=current or "", n=held)
        else:
            tx.say("log.follow-on", player=current or "")
    else:
        _drop_pending(state, tx)
        tx.doubles(0)
        tx.follow(False)
        tx.say("log.follow-off")


# --------------------------------------------------------------------------- the manual ops in follow mode
def _name(state: GameState, name: str) -> str | None:
    try:
        return parse.player(state, name, "", active=False)
    except Refused:
        return None


def settles(state: GameState, due: Due, cmd: Command) -> bool:
    """Whether ``cmd`` settles ``due`` (the proposed command, or another that settles the same thing)."""
    kind = due.kind
    if kind in ("buy", "advance") and due.command.get("op") in ("buy", "auction"):
        if isinstance(cmd, Buy):
            return _name(state, cmd.player) == due.player and cmd.space == due.space
        return isinstance(cmd, Auction) and cmd.space == due.space
    if kind in ("rent", "advance"):
        return isinstance(cmd, Rent) and _name(state, cmd.payer) == due.player and cmd.space == due.space
    if kind == "tax":
        return isinstance(cmd, Tax) and _name(state, cmd.player) == due.player and cmd.space == due.space
    if kind == "card":
        return isinstance(cmd, Card) and _name(state, cmd.player) == due.player
    if kind == "jail_fine":
        return isinstance(cmd, JailFine | JailCard) and _name(state, cmd.player) == due.player
    return False  # pragma: no cover - every kind is above


def _ctx(due: Due | None) -> Carry:
    if due is None:
        return Carry(chain=False)
    return Carry(roll=due.roll, mr_monopoly=due.mr_monopoly, again=due.again, chain=due.chain)


def _card_move(state: GameState, tx: Tx, cmd: Card, player: str, ctx: Carry) -> None:
    """A card's move (follow mode): advance (salary when it passes GO), back, nearest railroad or utility,
    go to jail; a card that prints "draw" and was answered so asks for the next card. Then the landing."""
    card = state.edition.cards[cmd.card]
    e = card.effect
    kind = card.kind
    n = len(state.edition.spaces)
    pos = state.positions[player]
    if kind == "advance":
        to = int(e["to"])
        if e.get("backwards"):
            passes = False
            _back(state, tx, player, to, "card")
        else:
            steps = (to - pos) % n
            passes = steps > 0 and pos + steps >= n
            _check_passed_go(state, cmd, player, passes)
            _forward(state, tx, player, steps, "card")
        land(state, tx, player, ctx)
    elif kind == "advance_nearest":
        wanted = str(e["kind"])
        steps = next(s for s in range(1, n + 1) if state.edition.spaces[(pos + s) % n].kind == wanted)
        _check_passed_go(state, cmd, player, pos + steps >= n)
        _forward(state, tx, player, steps, "card")
        land(state, tx, player, ctx, card=f"nearest-{wanted}")
    elif kind == "back":
        _check_passed_go(state, cmd, player, False)
        _back(state, tx, player, (pos - int(e["spaces"])) % n, "card")
        land(state, tx, player, ctx)
    elif kind == "go_to_jail":
        send_to_jail(state, tx, player)
    elif kind == "pay_or_draw" and cmd.choice == "draw":
        deck = str(e["deck"])
        due = Due(kind="card", player=player, space=pos, command={"op": "card", "player": player}, needs=["card"],
                  roll=ctx.roll, deck=deck, mr_monopoly=ctx.mr_monopoly, again=ctx.again, chain=ctx.chain)
        if ctx.chain or state.pending is None:
            _propose(state, tx, due)
    else:
        carry_on(state, tx, player, ctx)


def _check_passed_go(state: GameState, cmd: Card, player: str, passes: bool) -> None:
    if not isinstance(cmd.passed_go, UnsetType) and cmd.passed_go != passes:
        raise Refused("passed-go", Msg("turn.passed-go", player=player, value="true" if cmd.passed_go else "false"))


def before(state: GameState, cmd: Command) -> None:
    """In follow mode, what a manual op may not do given where the tokens stand (checked before it runs):
    a card from the wrong deck for the card proposed; the jail fine or a jail card for a player not in jail,
    and the fine before rolling on a turn the edition does not allow it."""
    if not state.follow or isinstance(cmd, TURN_OPS):
        return
    due = state.pending
    if isinstance(cmd, Card) and due is not None and due.kind == "card" and settles(state, due, cmd):
        card = state.edition.cards.get(cmd.card)
        if card is not None and due.deck is not None and card.deck != due.deck:
            raise Refused("card-deck", Msg("turn.card-deck", player=due.player, deck=state.edition.decks[due.deck]))
    if isinstance(cmd, JailFine | JailCard):
        player = _name(state, cmd.player)
        if player is None or player in state.bankrupt:
            return  # the handler says what is wrong
        check_jail_release(state, player, fine=isinstance(cmd, JailFine))


def follow_up(state: GameState, tx: Tx, cmd: Command) -> None:
    """After a manual op in follow mode: settle the proposal it answers and carry the roll on; apply a card's
    move; release a player who paid the fine or used a card; pass the turn of a player who went bankrupt."""
    if not state.follow or isinstance(cmd, TURN_OPS) or state.over:
        return
    due = state.pending
    if due is not None and settles(state, due, cmd):
        tx.propose(None)
        player = due.player
        ctx = _ctx(due)
        if due.kind == "card":
            assert isinstance(cmd, Card)
            _card_move(state, tx, cmd, player, ctx)
        elif due.kind == "jail_fine":
            tx.say("log.jail-free", player=player)
            _release(state, tx, player)
            _forward(state, tx, player, due.roll, "roll")
            land(state, tx, player, Carry(roll=due.roll))
        else:
            carry_on(state, tx, player, ctx)
    elif isinstance(cmd, Card):
        drew = _name(state, cmd.player)
        if drew is not None:
            _card_move(state, tx, cmd, drew, _ctx(None))
    elif isinstance(cmd, Salary) and state.variant.speed_die:  # the salary by hand: the player has passed GO
        paid = _name(state, cmd.player)
        if paid is not None:
            tx.passed_go(paid)
    elif isinstance(cmd, JailFine | JailCard):
        freed = _name(state, cmd.player)
        if freed is not None and state.in_jail[freed]:
            tx.say("log.jail-free", player=freed)
            _release(state, tx, freed)
    if state.pending is not None and state.pending.player in state.bankrupt:
        tx.propose(None)
    if state.turn is not None and state.turn in state.bankrupt:
        _pass_turn(state, tx, state.turn)


__all__ = ["SPEED_FACES", "TURN_OPS", "before", "carry_on", "describe", "follow_up", "free_move_asked", "held_doubles",
           "jail_position", "land", "run_end_turn", "run_follow", "run_place", "run_roll", "send_to_jail", "settles",
           "turn_over_while_off"]
