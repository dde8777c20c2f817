"""The command vocabulary, defined once: one typed structure per op.

A command is one JSON object with an ``"op"`` and its keys: what the table screen sends, what
``banker apply`` reads, what the session log stores. Here each op is a msgspec ``Struct``
(tagged by ``"op"``, unknown keys refused, frozen); :data:`Command` is their union. The field
names are the JSON keys (``src`` is stored as ``"from"``, ``dst`` as ``"to"``). An optional key
that is left out stays out (:data:`msgspec.UNSET`), so :func:`encode` gives back exactly the keys
that were given.

Everything else about the vocabulary is derived from these classes, never written again:

- :func:`decode`: strict for a new command (an unknown key, a missing key or a wrong type is
  refused naming the key), lenient for a command already in a session log (``replay=True``:
  unknown keys dropped);
- :data:`SPECS`: each op's one-line description (its docstring) and, per field, its kind
  (player, account, space, amount, dice, text, flag, choice...), its description and when it is
  needed (:func:`needed`) or asked for (:func:`asked`): what the console asks for, how the
  quick-entry line (``banker.ui.quick``) fills it, and the vocabulary table of docs/commands.md
  (``python -m banker.rules.vocabulary``).

Decoding checks shapes and types; the handlers (``banker.rules.engine``) check meaning (the
player exists, the space is a street...).

>>> decode({"op": "salary", "player": "Ann"})
Salary(player='Ann', landed=UNSET)
>>> encode(Transfer(src="bank", dst="Ann", amount=20))
{'op': 'transfer', 'from': 'bank', 'to': 'Ann', 'amount': 20}
"""

from __future__ import annotations

import functools
import inspect as pyinspect
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, cast

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType, field

from .errors import Refused
from .messages import Msg, shown

if TYPE_CHECKING:  # pragma: no cover
    from .edition import Space
    from .state import GameState


def _k(kind: str, doc: str, **extra: Any) -> Meta:
    """A field's metadata: its kind (how it is asked for and typed in) and one line saying what it is."""
    return Meta(description=doc, extra={"kind": kind, **extra})


#: a whole number of at least 1 (an amount, a bid), of at least 0 (a count of houses, cash in a trade)
Positive: TypeAlias = Annotated[int, Meta(ge=1)]
Natural: TypeAlias = Annotated[int, Meta(ge=0)]
#: one white die
Die: TypeAlias = Annotated[int, Meta(ge=1, le=6)]
#: the Speed Die's faces (uk-2008-speed-die-rules.md: 1, 2, 3, the Bus, Mr. Monopoly)
SPEED_FACES: tuple[int | str, ...] = (1, 2, 3, "bus", "mr-monopoly")
SpeedFace: TypeAlias = Literal[1, 2, 3, "bus", "mr-monopoly"]


class Op(Struct, tag_field="op", forbid_unknown_fields=True, frozen=True, kw_only=True, omit_defaults=True):
    """The base of every command."""


class TradeSide(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, omit_defaults=True):
    """What one side of a trade hands over (any part may be left out)."""

    cash: Annotated[Natural | UnsetType, _k("amount", "cash handed over")] = UNSET
    spaces: Annotated[list[int] | None | UnsetType, _k("positions", "deeds handed over, by position")] = UNSET
    jail_cards: Annotated[int | list[str] | UnsetType, _k(
        "jail-cards", "Get Out of Jail Free cards, by deck (\"chance\", \"chest\") or id, or a count")] = UNSET


# --------------------------------------------------------------------------- the ops
class Roll(Op, tag="roll", frozen=True):
    """follow mode: the current player's roll. The bank moves the token, pays the salary when it passes GO, and
    proposes what the landing requires (`pending` in `banker state --json`); doubles roll again, the third goes to
    jail; in jail it is an attempt at doubles. Refused while the landing of the last roll still requires something.
    With the Speed Die (from the first roll after passing GO): `speed`, with `move` for the Bus and `to` for three of
    a kind (see [rules.md](rules.md))"""

    dice: Annotated[list[Die], Meta(min_length=2, max_length=2), _k("roll", "the two white dice, such as [3, 5]")]
    player: Annotated[str | UnsetType, _k("player", "whose roll (refused unless it is that player's turn)")] = UNSET
    speed: Annotated[SpeedFace | UnsetType, _k(
        "speed", "the Speed Die's face", values=("1", "2", "3", "bus", "mr-monopoly"), when="speed-die")] = UNSET
    move: Annotated[Positive | UnsetType, _k("amount", "the Bus: spaces moved (one white die or both)",
                                             when="bus")] = UNSET
    to: Annotated[int | UnsetType, _k("space", "three of a kind: the space moved to", spaces="board",
                                      when="three-of-a-kind")] = UNSET


class Salary(Op, tag="salary", frozen=True):
    """pays the salary (200) for passing GO; `"landed": true` doubles it when the `go_landing_bonus` house rule is on"""

    player: Annotated[str, _k("player", "who collects")]
    landed: Annotated[bool | UnsetType, _k("flag", "landed exactly on GO", word="landed", ask="go-bonus")] = UNSET


class Buy(Op, tag="buy", frozen=True):
    """sells an unowned deed at the printed price; refused if the player cannot pay, or the deed is waiting for the
    bank's auction"""

    player: Annotated[str, _k("player", "who buys")]
    space: Annotated[int, _k("space", "the deed", spaces="property")]


class Auction(Op, tag="auction", frozen=True):
    """the auction of an unowned deed: `winner` pays `bid` (at least the edition's lowest bid, 1); a bid above the
    winner's cash is owed to the bank as a debt where bids are not in cash only (US, RU) and the winner's sales and
    mortgages could raise it, else refused. `"winner": null` records that nobody bid: the deed stays with the bank"""

    space: Annotated[int, _k("space", "the deed", spaces="property")]
    winner: Annotated[str | None, _k("player", "who won (null: nobody bid)")]
    bid: Annotated[Positive | UnsetType, _k("amount", "the winning bid", when="winner", required=True)] = UNSET


class Deal(Op, tag="deal", frozen=True):
    """short and timed games: a deed dealt at the start, paid at the printed price (2 each)"""

    player: Annotated[str, _k("player", "who is dealt the deed")]
    space: Annotated[int, _k("space", "the deed", spaces="property")]


class Rent(Op, tag="rent", frozen=True):
    """rent to the owner, worked out from the deed: full group, houses, hotel, railroads by count. Utilities need
    `dice` (the roll, 2-12). `card` is `"nearest-railroad"` (twice the rent) or `"nearest-utility"` (10 times `dice`,
    a fresh roll) for the two Chance cases, on an edition whose cards have them (US). Mortgaged deeds collect nothing"""

    space: Annotated[int, _k("space", "the deed landed on", spaces="property")]
    payer: Annotated[str, _k("player", "who landed and pays")]
    card: Annotated[str | None | UnsetType, _k(
        "card-case", "sent there by a Chance card", values=("nearest-railroad", "nearest-utility"), word="nearest",
        ask="nearest-card")] = UNSET
    dice: Annotated[int | None | UnsetType, _k("dice", "the dice total (a utility)", when="utility")] = UNSET


class Tax(Op, tag="tax", frozen=True):
    """a tax space. Where the board offers a percentage (US Income Tax: $200 or 10%), `choice` is required, `"flat"`
    or `"percent"`, and is fixed before the worth is added up"""

    space: Annotated[int, _k("space", "the tax space", spaces="tax", default="only")]
    player: Annotated[str, _k("player", "who landed and pays")]
    choice: Annotated[str | None | UnsetType, _k(
        "choice", "flat or percent, where the board offers both", values=("flat", "percent"), when="percent-tax")] = UNSET


class Card(Op, tag="card", frozen=True):
    """a Chance / Community Chest card by id (`banker cards`): collects, pays, pays each player, collects from each,
    repairs counted from the player's buildings; an advance card pays the salary when it says GO or with
    `"passed_go": true`; a Get Out of Jail Free card is kept. A card that prints a choice (UK `cc-fine-or-chance` "Pay a
    £10 fine or take a Chance", Kyiv `cc-fare-fine`) takes `"choice": "pay"` (the fine; the default, as older logs have
    it) or `"draw"` (no money moves; record the card drawn next). `choice` on any other card is refused"""

    player: Annotated[str, _k("player", "who drew the card")]
    card: Annotated[str, _k("card", "the card's id")]
    passed_go: Annotated[bool | UnsetType, _k(
        "flag", "the advance passed GO (salary)", word="passed", ask="advance-card")] = UNSET
    choice: Annotated[str | None | UnsetType, _k(
        "choice", "pay or draw, on a card that prints the choice", values=("pay", "draw"), ask="choice-card")] = UNSET


class JailFine(Op, tag="jail_fine", frozen=True):
    """pays the fine (50) to leave jail"""

    player: Annotated[str, _k("player", "who pays the fine")]


class JailCard(Op, tag="jail_card", frozen=True):
    """uses a held Get Out of Jail Free card (`"use": true`); `card` names it by deck (`"chance"`, `"chest"`) or id,
    and is required when the player holds cards of both decks. It goes back under its own deck"""

    player: Annotated[str, _k("player", "who uses the card")]
    use: Annotated[bool | UnsetType, _k("flag", "`true`: the card is used", fill=True, required=True)] = UNSET
    card: Annotated[str | None | UnsetType, _k(
        "jail-card", "which card, by deck or id", ask="several-jail-cards")] = UNSET


class Transfer(Op, tag="transfer", frozen=True):
    """money between two players, or with `"bank"` on either side (corrections, house deals); `memo` is shown in the
    log"""

    src: Annotated[str, _k("account", "who pays (a player or the bank)")] = field(name="from")
    dst: Annotated[str, _k("account", "who receives (a player or the bank)")] = field(name="to")
    amount: Annotated[int, Meta(ge=1), _k("amount", "how much")]
    memo: Annotated[str | UnsetType, _k("text", "what it is for", ask="always")] = UNSET


class Count(Op, tag="count", frozen=True):
    """the table counted: what the banker found in the bank's box (houses, hotels) and in each player's hand (deeds,
    and cash where the table plays with paper money), each figure optional (at least one). No money moves: the entry
    records every difference from the bank's figures, so a review shows when the table and the bank last agreed"""

    houses: Annotated[Natural | UnsetType, _k("amount", "houses counted in the bank")] = UNSET
    hotels: Annotated[Natural | UnsetType, _k("amount", "hotels counted in the bank")] = UNSET
    deeds: Annotated[dict[str, Natural] | UnsetType, _k("counts", "deeds counted in each player's hand, by player")] = UNSET
    cash: Annotated[dict[str, Natural] | UnsetType, _k("counts", "cash counted in each player's hand (paper money)")] = UNSET


class Build(Op, tag="build", frozen=True):
    """one house (or the hotel after four houses; three in the short game) on a street: the full group owned, no lot of
    it mortgaged, built evenly, from the bank's stock. With `each` (that many on every lot of the group) or `upto`
    (every lot of the group brought up to that many), several buildings in one action and one payment, built evenly,
    each step checked as a single build; refused as a whole when the bank's stock cannot supply them, or while houses
    or hotels are short (then they go one at a time or by the shortage auction)"""

    player: Annotated[str, _k("player", "the owner", default="owner")]
    space: Annotated[int, _k("space", "the street", spaces="street")]
    each: Annotated[Positive | UnsetType, _k(
        "amount", "builds this many on every lot of the space's group, evenly, in one action")] = UNSET
    upto: Annotated[Positive | UnsetType, _k(
        "amount", "builds evenly until every lot of the group has this many (a hotel counts one more than the houses "
        "before it)")] = UNSET


class SellBuilding(Op, tag="sell_building", frozen=True):
    """sells one building back at half price, evenly. For a hotel, `houses` says how many houses stay on the lot, as
    the edition allows: US, 4 by default and fewer only while the group stays even (a shortage of houses in the bank
    brings it down to what the bank has); UK/Kyiv, 4 (exchanged; refused when the bank has fewer); RU, 4 (swapped, while
    the bank has them) or 0 (sold whole, and every hotel of the group with it). `"all": true` sells every building of
    the space's group in one action, each step a legal sale (not with `houses`)"""

    player: Annotated[str, _k("player", "the owner", default="owner")]
    space: Annotated[int, _k("space", "the street", spaces="street")]
    houses: Annotated[Natural | UnsetType, _k("amount", "houses left on the lot when its hotel is sold")] = UNSET
    all: Annotated[bool | UnsetType, _k("flag", "every building of the group", word="all")] = UNSET


class BuildingAuction(Op, tag="building_auction", frozen=True):
    """when houses or hotels run short: the winner puts the building on the lot for the bid (the lowest bid is 1 or
    the printed price, per the edition). Refused when there is no shortage: two or more players must be able to build
    that kind of building now and the bank must hold fewer than they could take (see [rules.md](rules.md))"""

    player: Annotated[str, _k("player", "who won", default="owner")]
    space: Annotated[int, _k("space", "the street built on", spaces="street")]
    bid: Annotated[int, Meta(ge=1), _k("amount", "the winning bid")]


class Mortgage(Op, tag="mortgage", frozen=True):
    """the bank lends the printed mortgage value; no buildings may stand on the group"""

    player: Annotated[str, _k("player", "the owner", default="owner")]
    space: Annotated[int, _k("space", "the deed", spaces="property")]


class Unmortgage(Op, tag="unmortgage", frozen=True):
    """lifts a mortgage for the value plus 10%"""

    player: Annotated[str, _k("player", "the owner", default="owner")]
    space: Annotated[int, _k("space", "the deed", spaces="property")]


class Trade(Op, tag="trade", frozen=True):
    """an exchange between two players. `give` is what `from` hands over, `get` what `to` hands over; each is
    `{"cash": n, "spaces": [positions], "jail_cards": [cards]}` (any part may be left out, not both sides empty); a
    jail card is named by its deck (`"chance"`, `"chest"`) or its id, and a bare count (`"jail_cards": 1`) is accepted
    when it leaves no doubt which cards are meant. No deed of a group with buildings moves. A received mortgaged deed
    costs its receiver 10% at once, or its full lift when listed in `lift`. `debt_credit` (only in editions where a
    debt may be paid in deeds, RU 2004) counts the deeds against what `from` owes `to`"""

    src: Annotated[str, _k("player", "the first player")] = field(name="from")
    dst: Annotated[str, _k("player", "the second player")] = field(name="to")
    give: Annotated[TradeSide | None | UnsetType, _k("trade-side", "what `from` hands over", required=True)] = UNSET
    get: Annotated[TradeSide | None | UnsetType, _k("trade-side", "what `to` hands over", required=True)] = UNSET
    lift: Annotated[list[int] | None | UnsetType, _k("positions", "mortgaged deeds received and lifted at once")] = UNSET
    debt_credit: Annotated[Natural | UnsetType, _k(
        "amount", "how much of `from`'s debt to `to` the deeds pay")] = UNSET


class Bankrupt(Op, tag="bankrupt", frozen=True):
    """the debtor who cannot raise enough goes bankrupt to its creditor: to a player (deeds, cash and cards go over;
    the creditor pays 10% on mortgaged deeds, or lifts the ones listed in `lift`) or to the bank (deeds back to the
    bank for auction). Refused while a legal sequence of sales and mortgages could still raise the debt; accepted
    whenever none can (see "Raising cash" in [rules.md](rules.md))"""

    player: Annotated[str, _k("player", "the debtor")]
    lift: Annotated[list[int] | None | UnsetType, _k("positions", "mortgaged deeds the creditor lifts at once")] = UNSET


class FreeParking(Op, tag="free_parking", frozen=True):
    """with the `free_parking_pot` house rule: the player collects the pot (taxes, fines and card payments)"""

    player: Annotated[str, _k("player", "who landed on Free Parking")]


class Undo(Op, tag="undo", frozen=True):
    """takes back the last action that still stands, logged as its own entry with the reason and the seq it undoes.
    Undo twice undoes the two last actions. `seq` takes back an earlier entry that still stands, when no later entry
    depends on it (the engine replays the later ones without it: refused, naming those that do, when any of them would
    go differently). The only op accepted after the game has ended"""

    reason: Annotated[str, _k("text", "what went wrong")]
    seq: Annotated[Positive | UnsetType, _k("entry", "the entry to take back (default: the last that stands)")] = UNSET


class EndGame(Op, tag="end_game", frozen=True):
    """ends the game now (the time limit, or agreed at the table): every player is valued and the winner named.
    Refused while a debt is open"""


class EndTurn(Op, tag="end_turn", frozen=True):
    """passes the turn by hand to the next player in seating order (bankrupt players skipped); whatever the
    landing still required is dropped"""


class Place(Op, tag="place", frozen=True):
    """puts a token where it stands on the table: no money moves and nothing is proposed. `"jail": true` puts it in
    jail (and ends the turn when it is that player's); a token placed without it is out of jail"""

    player: Annotated[str, _k("player", "whose token")]
    space: Annotated[int | UnsetType, _k("space", "where it stands (0-39)", spaces="board", when="not-jail")] = UNSET
    jail: Annotated[bool | UnsetType, _k("flag", "in jail, not just visiting", word="jail", ask="jail-space")] = UNSET


class FollowMode(Op, tag="follow", frozen=True):
    """switches follow mode on or off (`banker new --follow` starts with it on). Off, the bank moves no token and
    proposes nothing; on again, the tokens stand where they were last placed and the turn resumes with the doubles
    it had thrown (none if it has ended since)"""

    on: Annotated[bool, _k("flag", "on (true) or off (false)", word="on")]


#: every command (``Undo`` is the session log's; the rules engine refuses it), in the order the console lists
#: them (its palette and help screen) and docs/commands.md's table
Command: TypeAlias = (Roll | Salary | Buy | Auction | Rent | Tax | Card | JailFine | JailCard | Transfer | Count
                      | Build | SellBuilding | BuildingAuction | Mortgage | Unmortgage | Trade | Bankrupt | Undo | EndGame
                      | Deal | FreeParking | EndTurn | Place | FollowMode)
#: ops carried out by the session log rather than by the rules engine
LOG_OPS = frozenset({"undo"})


# --------------------------------------------------------------------------- what derives from them
class FieldSpec(Struct, frozen=True):
    """One key of an op, as the console, the quick-entry line and the docs see it."""

    name: str  # the attribute (``src``)
    key: str  # the JSON key (``"from"``)
    kind: str  # player, account, space, amount, dice, text, flag, choice, card, card-case, jail-card, positions, counts...
    doc: str
    required: bool  # must be in the JSON object
    shown_required: bool  # shown without "?" in the docs (needed whenever it applies: an auction's bid)
    minimum: int | None = None  # amounts
    spaces: str | None = None  # space fields: "property", "street" or "tax"
    values: tuple[str, ...] = ()  # choices
    word: str | None = None  # flags: the quick-entry keyword that sets it
    when: str | None = None  # needed when this condition holds (see CONDITIONS)
    ask: str | None = None  # asked for by the console when this condition holds
    default: str | None = None  # quick entry: "owner" (the deed's owner), "only" (the board's only such space)
    fill: Any = None  # a value the console and the quick line put in (``"use": true``)

    @property
    def optional(self) -> bool:
        """Shown as ``key?`` in the docs."""
        return not self.shown_required


class OpSpec(Struct, frozen=True):
    op: str
    cls: type[Struct]
    doc: str  # what the bank does, one paragraph (the class docstring)
    fields: tuple[FieldSpec, ...]
    log_op: bool  # carried out by the session log (undo), not the rules engine


def _specs(cls: type[Struct]) -> tuple[FieldSpec, ...]:
    out = []
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    for f in info.fields:
        t = f.type
        extra: dict[str, Any] = {}
        doc = ""
        minimum = None
        while isinstance(t, msgspec.inspect.Metadata):
            extra.update(t.extra or {})
            doc = (t.extra_json_schema or {}).get("description", doc)
            t = t.type
        for member in (t.types if isinstance(t, msgspec.inspect.UnionType) else (t,)):
            if isinstance(member, msgspec.inspect.IntType) and member.ge is not None:
                minimum = member.ge
        out.append(FieldSpec(
            name=f.name, key=f.encode_name, kind=extra["kind"], doc=doc,
            required=f.required, shown_required=f.required or bool(extra.get("required")), minimum=minimum,
            spaces=extra.get("spaces"), values=tuple(extra.get("values", ())), word=extra.get("word"),
            when=extra.get("when"), ask=extra.get("ask"), default=extra.get("default"), fill=extra.get("fill")))
    return tuple(out)


def _doc(cls: type) -> str:
    return " ".join((pyinspect.getdoc(cls) or "").split())


def _tag_of(cls: type[Struct]) -> str:
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str)
    return tag


_CLASSES: dict[str, type[Struct]] = {_tag_of(cls): cls for cls in typing.get_args(Command)}
#: every op's name, in the order of :data:`Command`
OPS: tuple[str, ...] = tuple(_CLASSES)
#: each op's JSON keys (read off the classes: no type is resolved at import)
_KEYS: dict[str, frozenset[str]] = {op: frozenset(cls.__struct_encode_fields__) for op, cls in _CLASSES.items()}
#: every key of every op, and ``op``: a command whose keys are all here has none a check must quote
FIELD_KEYS: frozenset[str] = frozenset({"op"}.union(*_KEYS.values()))

#: every op, in the order of :data:`Command` (made on first use: resolving every field's type
#: costs the console's start about 10 ms, and the first frame needs none of it)
SPECS: dict[str, OpSpec]


@functools.cache
def _lazy() -> dict[str, Any]:
    specs = {op: OpSpec(op, cls, _doc(cls), _specs(cls), op in LOG_OPS) for op, cls in _CLASSES.items()}
    hints = {cls: typing.get_type_hints(cls, include_extras=True) for cls in [*_CLASSES.values(), TradeSide]}
    return {"SPECS": specs, "_HINTS": hints, "_TRADE_SIDE": _specs(TradeSide)}


def __getattr__(name: str) -> Any:
    if name == "SPECS":
        return _lazy()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _specs_now() -> dict[str, OpSpec]:
    specs: dict[str, OpSpec] = _lazy()["SPECS"]
    return specs


def op_of(cmd: Struct) -> str:
    """The op of a command (``"salary"``)."""
    tag = type(cmd).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


def spec(op: str) -> OpSpec:
    """The spec of ``op`` (a KeyError for an op that does not exist: a programming error)."""
    return _specs_now()[op]


# --------------------------------------------------------------------------- decoding
def decode(obj: Any, *, replay: bool = False) -> Command:
    """The typed command for a JSON object; :class:`Refused` (rule ``"input"``) names what is wrong.

    Strict for a new command: an unknown key, a missing key and a value of the wrong type are
    refused, naming the key. ``replay=True`` is for a command already in a session log: it was
    accepted when it was recorded, so keys the engine did not know then are dropped."""
    if type(obj) is not dict:  # else a JSON object, nearly every command
        if isinstance(obj, Op):
            return cast(Command, obj)  # already typed (every Op is one of Command)
        if not isinstance(obj, Mapping):
            raise Refused("input", Msg("input.not-object"))
    if "op" not in obj:
        raise Refused("input", Msg("input.no-op", ops=list(OPS)))
    op = obj.get("op")
    if not isinstance(op, str) or op not in _CLASSES:
        raise Refused("input", Msg("input.unknown-op", op=shown(op), ops=list(OPS)))
    cls = _CLASSES[op]
    if replay:
        keys = _KEYS[op]
        if any(k not in keys and k != "op" for k in obj):
            obj = {k: v for k, v in obj.items() if k in keys or k == "op"}
    try:
        return cast(Command, msgspec.convert(obj, cls))
    except msgspec.ValidationError as e:
        raise _refusal(op, cls, obj, e) from None


def encode(cmd: Struct) -> dict[str, Any]:
    """The JSON object of a command (what the session log stores): only the keys that were given."""
    out: dict[str, Any] = msgspec.to_builtins(cmd)
    return out


def _refusal(op: str, cls: type[Struct], obj: Mapping[str, Any], error: msgspec.ValidationError) -> Refused:
    """Why ``obj`` is not a ``cls``, in the banker's words: the first unknown key, missing key or wrong value."""
    specs = _specs_now()[op].fields
    keys = _KEYS[op]
    for key in obj:
        if key != "op" and key not in keys:
            named = key if isinstance(key, str) and len(key) <= 30 else shown(key, 30)
            if not specs:
                return Refused("input", Msg("input.unknown-key-none", op=op, key=named))
            return Refused("input", Msg("input.unknown-key", op=op, key=named, keys=[f.key for f in specs]))
    for f in specs:
        if f.required and f.key not in obj:
            return Refused("input", Msg("input.missing", op=op, key=f.key))
    hints = _lazy()["_HINTS"][cls]
    for f in specs:
        if f.key in obj:
            wrong = _wrong_value(op, f, f.key, obj[f.key], hints[f.name])
            if wrong is not None:
                return wrong
    # not found above (should not happen): msgspec's own words, in English
    return Refused("input", Msg("input.invalid", op=op, problem=str(error)))


def _wrong_value(op: str, f: FieldSpec, path: str, value: Any, hint: Any) -> Refused | None:
    try:
        msgspec.convert(value, hint)
        return None
    except msgspec.ValidationError:
        pass
    kind = f.kind
    if kind in ("player", "account"):
        return Refused("input", Msg("input.player-type", op=op, key=path, value=shown(value)))
    if kind == "space":
        return Refused("input", Msg("input.space", op=op, key=path, value=shown(value)))
    if kind in ("amount", "dice", "entry"):
        if isinstance(value, int) and not isinstance(value, bool) and f.minimum is not None and value < f.minimum:
            return Refused("input", Msg("input.at-least", op=op, key=path, minimum=f.minimum, value=shown(value)))
        return Refused("input", Msg("input.whole", op=op, key=path, value=shown(value)))
    if kind == "flag":
        return Refused("input", Msg("input.flag", op=op, key=path, value=shown(value)))
    if kind == "roll":
        return Refused("input", Msg("input.roll", op=op, key=path, value=shown(value)))
    if kind == "speed":
        return Refused("input", Msg("input.speed", op=op, key=path, faces=list(f.values), value=shown(value)))
    if kind == "positions":
        return Refused("input", Msg("input.positions", what=f"{op} {path}", value=shown(value)))
    if kind == "jail-cards" or kind == "jail-card":
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            return Refused("input", Msg("input.at-least", op=op, key=path, minimum=0, value=shown(value)))
        return Refused("input", Msg("input.jail-cards", op=op, value=shown(value)))
    if kind == "counts":
        if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
            for k, v in value.items():
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    return Refused("input", Msg("input.at-least", op=op, key=f"{path}.{k}", minimum=0, value=shown(v)))
        return Refused("input", Msg("input.counts", op=op, key=path, value=shown(value)))
    if kind == "trade-side":
        if not isinstance(value, Mapping):
            return Refused("input", Msg("input.trade-side", label=path))
        unknown = sorted(str(k) for k in value if k not in {s.key for s in _lazy()["_TRADE_SIDE"]})
        if unknown:
            return Refused("input", Msg("input.trade-keys", label=path, keys=unknown))
        side_hints = _lazy()["_HINTS"][TradeSide]
        for s in _lazy()["_TRADE_SIDE"]:
            if s.key in value:
                wrong = _wrong_value(op, s, f"{path}.{s.key}", value[s.key], side_hints[s.name])
                if wrong is not None:
                    return wrong
        return None
    return Refused("input", Msg("input.text", op=op, key=path, value=shown(value)))


# --------------------------------------------------------------------------- when a field is needed
def _space(state: GameState, cmd: Mapping[str, Any]) -> Space | None:
    pos = cmd.get("space")
    if isinstance(pos, int) and not isinstance(pos, bool) and 0 <= pos < len(state.edition.spaces):
        return state.edition.spaces[pos]
    return None


def _card_effect(state: GameState, cmd: Mapping[str, Any]) -> tuple[str, Mapping[str, Any], tuple[str, ...]] | None:
    cid = cmd.get("card")
    card = state.edition.cards.get(cid) if isinstance(cid, str) else None
    return (card.kind, card.effect, tuple(card.choices)) if card else None


def _several_jail_cards(state: GameState, cmd: Mapping[str, Any]) -> bool:
    player = cmd.get("player")
    return isinstance(player, str) and player in state.cash and len(state.jail_cards_of(player)) > 1


def _speed_die(state: GameState, cmd: Mapping[str, Any]) -> bool:
    """The roll is one the Speed Die counts in: the variant has it, the roller has passed GO, and is not in jail."""
    if not state.variant.speed_die:
        return False
    player = cmd.get("player")
    roller = player if isinstance(player, str) and player in state.cash else state.current
    return roller is not None and state.passed_go[roller] and not state.in_jail[roller]


def _three_of_a_kind(state: GameState, cmd: Mapping[str, Any]) -> bool:
    dice = cmd.get("dice")
    return isinstance(dice, list) and len(dice) == 2 and dice[0] == dice[1] == cmd.get("speed") and _speed_die(state, cmd)


def _advance_card(state: GameState, cmd: Mapping[str, Any]) -> bool:
    card = _card_effect(state, cmd)
    return card is not None and card[0] == "advance" and state.edition.may_pass_go_to(card[1]["to"])


#: the conditions under which a field is needed (``when``) or asked for (``ask``), on the command so far
CONDITIONS: dict[str, Callable[[GameState, Mapping[str, Any]], bool]] = {
    "always": lambda state, cmd: True,
    "winner": lambda state, cmd: "winner" not in cmd or cmd["winner"] is not None,  # unless nobody bid
    "utility": lambda state, cmd: (s := _space(state, cmd)) is not None and s.kind == "utility",
    # a railroad or utility where a card of the edition sends a token to the nearest one (US Chance only)
    "nearest-card": lambda state, cmd: (s := _space(state, cmd)) is not None and s.kind in state.edition.nearest_cards(),
    "percent-tax": lambda state, cmd: (s := _space(state, cmd)) is not None and bool(s.tax_percent),
    "go-bonus": lambda state, cmd: state.house_rules.go_landing_bonus,
    "advance-card": _advance_card,
    "choice-card": lambda state, cmd: (c := _card_effect(state, cmd)) is not None and bool(c[2]),
    "several-jail-cards": _several_jail_cards,
    "speed-die": _speed_die,
    "bus": lambda state, cmd: cmd.get("speed") == "bus" and _speed_die(state, cmd),
    "three-of-a-kind": _three_of_a_kind,
    "not-jail": lambda state, cmd: cmd.get("jail") is not True,
    # a token put on the Jail corner: in jail, or just visiting (the console asks which)
    "jail-space": lambda state, cmd: (s := _space(state, cmd)) is not None and s.kind == "jail",
}


def needed(state: GameState, cmd: Mapping[str, Any], f: FieldSpec) -> bool:
    """Whether the command so far (``cmd``, a JSON object) cannot go without ``f``: a required key,
    or one its condition makes needed (the dice on a utility, the choice on the US Income Tax)."""
    if f.required:
        return True
    return f.when is not None and CONDITIONS[f.when](state, cmd)


def asked(state: GameState, cmd: Mapping[str, Any], f: FieldSpec) -> bool:
    """Whether the console asks for ``f`` when ``cmd`` lacks it: what is needed, and the optional keys
    a banker is asked about (landed on GO under that house rule, the memo of a transfer...)."""
    return needed(state, cmd, f) or (f.ask is not None and CONDITIONS[f.ask](state, cmd))


def missing(state: GameState, cmd: Mapping[str, Any]) -> list[str]:
    """The keys a command so far still needs, in the op's order (an unknown op: none)."""
    op = cmd.get("op")
    if not isinstance(op, str) or op not in _CLASSES:
        return []
    return [f.key for f in _specs_now()[op].fields if f.key not in cmd and needed(state, cmd, f)]
