"""Effects: every change a command makes to the bank, one small typed record each.

A command's effects are exactly what the session log stores (``effects`` of an entry), as
JSON objects tagged by ``"t"``; undoing a move applies their inverses (:func:`invert`) in
reverse order. The JSON is the same as it always was, so every log ever written decodes:
``{"t": "pay", "from": "Ann", "to": "bank", "amount": 200, "for": "tax"}`` is a :class:`Pay`
(``src``, ``dst``, ``amount``, ``why``). A debt is a list of :class:`Claim` s, each stored as
``[creditor, amount, why]``.

>>> decode_effects([{"t": "pay", "from": "bank", "to": "Ann", "amount": 200, "for": "salary"}])
[Pay(src='bank', dst='Ann', amount=200, why='salary')]
>>> invert(Pay(src="bank", dst="Ann", amount=200, why="salary"))
Pay(src='Ann', dst='bank', amount=200, why='salary')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Annotated, Any

import msgspec
from msgspec import Struct, field
from msgspec.structs import replace

from .errors import Refused
from .messages import Msg


class Claim(Struct, array_like=True, frozen=True):
    """One claim of an open debt: who is owed, how much, and what for (rent, tax, card...).

    Stored in the log as the JSON array ``[creditor, amount, why]``, and unpacked as that triple
    (``for creditor, amount, why in state.debts[player]``)."""

    creditor: str
    amount: int
    why: str

    def __iter__(self) -> Iterator[Any]:
        return iter((self.creditor, self.amount, self.why))


class Effect(Struct, tag_field="t", frozen=True, kw_only=True):
    """One change to the bank; the subclasses are tagged by ``"t"``, as the log stores them."""


class Pay(Effect, tag="pay", frozen=True):
    """Money moves from one account to another (a player, ``"bank"``, ``"pot"``)."""

    src: str = field(name="from")
    dst: str = field(name="to")
    #: never negative: money the other way round is the other way round (a hand-edited -5 rent was taken as it was)
    amount: Annotated[int, msgspec.Meta(ge=0)]
    why: str = field(name="for")


class Owner(Effect, tag="owner", frozen=True):
    space: int
    old: str | None
    new: str | None


class Mortgaged(Effect, tag="mortgaged", frozen=True):
    space: int
    old: bool
    new: bool


class Houses(Effect, tag="houses", frozen=True):
    space: int
    old: int
    new: int


class Hotel(Effect, tag="hotel", frozen=True):
    space: int
    old: bool
    new: bool


class Stock(Effect, tag="stock", frozen=True):
    """The bank's stock of buildings changes by ``houses`` and ``hotels`` (negative: taken from it)."""

    houses: int
    hotels: int


class JailCardHolder(Effect, tag="jail_card", frozen=True):
    """Who holds a Get Out of Jail Free card (None: it is in its deck)."""

    card: str
    old: str | None
    new: str | None


class Debt(Effect, tag="debt", frozen=True):
    """A player's open claims, before and after (an empty list: no debt)."""

    player: str
    old: list[Claim]
    new: list[Claim]


class Pending(Effect, tag="pending", frozen=True):
    """Whether a deed waits for the bank's auction (after a bankruptcy to the bank)."""

    space: int
    old: bool
    new: bool


class Dealt(Effect, tag="dealt", frozen=True):
    """How many deeds a player has been dealt (short and timed games)."""

    player: str
    old: int
    new: int


class Bankruptcy(Effect, tag="bankrupt", frozen=True):
    player: str
    creditor: str


class BankruptcyUndone(Effect, tag="unbankrupt", frozen=True):
    """The inverse of :class:`Bankruptcy` (only in the log's reversal entries)."""

    player: str
    creditor: str


class Result(Effect, tag="result", frozen=True):
    """The end of the game: the result (reason, valuation, winner, tied); ``game`` is always ``"result"``."""

    game: str
    old: dict[str, Any] | None
    new: dict[str, Any] | None


# --------------------------------------------------------------------------- following the board (issue #11)
class Due(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What the landing still requires (``GameState.pending``): the public part is ``kind`` (``"buy"``,
    ``"rent"``, ``"tax"``, ``"card"``, ``"jail_fine"``, ``"advance"``), ``player``, ``space``, ``amount``
    (None until it is known), ``command`` (the exact command that settles it as proposed) and ``needs`` (what
    the banker must still add to it: ``"choice"``, ``"card"``, ``"dice"``). The rest is the roll it comes from,
    which the engine carries on once it is settled: ``roll`` (the dice total: a utility's rent, or the move
    after the jail fine), ``deck`` (a card's deck), ``mr_monopoly`` (the Speed Die's advance still to come),
    ``again`` (doubles: the same player rolls again) and ``chain`` (it belongs to the current player's roll:
    settling it carries the turn on; False for a proposal made by a command out of the turn's order)."""

    kind: str
    player: str
    space: int
    amount: int | None = None
    command: dict[str, Any] = field(default_factory=dict)
    needs: list[str] = field(default_factory=list)
    roll: int = 0
    deck: str | None = None
    mr_monopoly: bool = False
    again: bool = False
    chain: bool = True

    def to_json(self) -> dict[str, Any]:
        """The public part, as ``banker state --json`` shows it."""
        return {"kind": self.kind, "player": self.player, "space": self.space, "amount": self.amount,
                "command": dict(self.command), "needs": list(self.needs)}


class Position(Effect, tag="position", frozen=True):
    """A token moves from space ``old`` to ``new``; ``by`` says how: ``"roll"``, ``"card"``, ``"mr-monopoly"``,
    ``"three-of-a-kind"``, ``"jail"`` (sent to jail) or ``"place"`` (put there by the banker)."""

    player: str
    old: int
    new: int
    by: str


class InJail(Effect, tag="in_jail", frozen=True):
    player: str
    old: bool
    new: bool


class JailTurns(Effect, tag="jail_turns", frozen=True):
    """Failed attempts (rolls without doubles) of a player in jail."""

    player: str
    old: int
    new: int


class PassedGo(Effect, tag="passed_go", frozen=True):
    """The Speed Die: whether the player has passed GO once (the die is used from the next roll)."""

    player: str
    old: bool
    new: bool


class Turn(Effect, tag="turn", frozen=True):
    """Whose turn it is (the player who rolls next)."""

    old: str | None
    new: str | None


class Doubles(Effect, tag="doubles", frozen=True):
    """Doubles thrown in the current turn."""

    old: int
    new: int


class Follow(Effect, tag="follow", frozen=True):
    """Follow mode on or off."""

    old: bool
    new: bool


class Proposal(Effect, tag="proposal", frozen=True):
    """What the landing still requires (:class:`Due`), before and after (None: nothing)."""

    old: Due | None
    new: Due | None


#: every effect, as decoded from a log
AnyEffect = (Pay | Owner | Mortgaged | Houses | Hotel | Stock | JailCardHolder | Debt | Pending | Dealt | Bankruptcy
             | BankruptcyUndone | Result | Position | InJail | JailTurns | PassedGo | Turn | Doubles | Follow | Proposal)
#: the effects of following the board: each is ``old``/``new`` and taken back by swapping them
TURN_EFFECTS = (Position, InJail, JailTurns, PassedGo, Turn, Doubles, Follow, Proposal)


def invert(effect: Effect | Mapping[str, Any]) -> Effect:
    """The effect that takes ``effect`` back (a reversal entry of the log holds these); a logged JSON
    object is decoded first."""
    effect = decode_effect(effect)
    if isinstance(effect, Pay):
        return replace(effect, src=effect.dst, dst=effect.src)
    if isinstance(effect, Stock):
        return replace(effect, houses=-effect.houses, hotels=-effect.hotels)
    if isinstance(effect, Bankruptcy):
        return BankruptcyUndone(player=effect.player, creditor=effect.creditor)
    if isinstance(effect, BankruptcyUndone):
        return Bankruptcy(player=effect.player, creditor=effect.creditor)
    if isinstance(effect, Owner | Mortgaged | Houses | Hotel | JailCardHolder | Debt | Pending | Dealt | Result
                  | Position | InJail | JailTurns | PassedGo | Turn | Doubles | Follow | Proposal):
        return replace(effect, old=effect.new, new=effect.old)
    raise TypeError(f"not an effect: {effect!r}")  # pragma: no cover


class _Logged(Struct):
    """Logged effects, decoded in one call: msgspec keeps what it learns of a Struct type, not of a bare
    union, so this wrapper makes decoding a log about thirty times faster."""

    effects: list[AnyEffect]


def decode_effect(data: Effect | Mapping[str, Any]) -> Effect:
    """One effect from its logged JSON object (an :class:`Effect` passes as it is)."""
    if isinstance(data, Effect):
        return data
    return decode_effects([data])[0]


def decode_effects(data: Iterable[Effect | Mapping[str, Any]]) -> list[Effect]:
    """Logged effects (JSON objects, or effects already decoded) as typed effects; :class:`Refused`
    (rule ``"effect"``) when one is not an effect."""
    items = list(data)
    typed = [e for e in items if isinstance(e, Effect)]
    if len(typed) == len(items):
        return typed
    try:
        logged = msgspec.convert({"effects": [msgspec.to_builtins(e) if isinstance(e, Effect) else e for e in items]},
                                 _Logged)
    except msgspec.ValidationError as e:
        raise Refused("effect", Msg("input.effect", problem=str(e))) from None
    return list(logged.effects)


def to_json(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """The effects as the log stores them (plain dicts, lists and scalars: ``msgspec.to_builtins``)."""
    out: list[dict[str, Any]] = msgspec.to_builtins(list(effects))
    return out
