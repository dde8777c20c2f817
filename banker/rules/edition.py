"""Editions, variants and house rules as data, validated by a schema.

A board file (``banker/boards/*.toml``, parsed by :mod:`banker.boards`) is checked against the
msgspec structs below, strictly: a string where a number is wanted, a value outside an
enumeration (``Literal``), an unknown key or a table where a list belongs is refused with a
:class:`BoardError` naming the file, the place (the space, the card, the group, the table) and
the problem. The cross-checks a schema cannot say (forty spaces in order, GO first, every group
used, card ids unique, cards moving to real spaces) follow in :func:`edition_from_dict`.

Every difference between the rule books is a field of :class:`EditionRules` or :class:`Variant`;
the engine never asks which edition it is playing.

No ``from __future__ import annotations`` here: the structs' annotations are real types, not strings,
so msgspec reads them as they are the first time an edition is converted (with strings it evaluated
some 120 of them, about 1 ms of every console's start: the edition is built before the first frame).
"""

import math
import re
import string
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, get_args

import msgspec
import msgspec.inspect as mi
from msgspec import Meta, Struct, field
from msgspec.structs import replace

from .errors import BoardError
from .messages import EN, Named, shown
from .names import FORBIDDEN_CATEGORIES, forbidden_char, name_key

# --------------------------------------------------------------------------- the vocabulary

PropertyKind = Literal["street", "railroad", "utility"]
DeckId = Literal["chance", "chest"]
HotelSale = Literal["break_down", "exchange", "exchange_or_whole"]
BuildingAuctionStart = Literal["one", "printed"]

PROPERTY_KINDS: tuple[str, ...] = get_args(PropertyKind)
#: from this size on an amount is shown as a power of ten (see Money)
HUGE_AMOUNT = 10**30

#: a whole number >= 0 (an amount, a count)
Count = Annotated[int, Meta(ge=0)]
#: a whole number >= 1 (a price, a house cost)
Positive = Annotated[int, Meta(ge=1)]
#: text that is not blank
Text = Annotated[str, Meta(pattern=r"\S")]


class _Schema(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Every table of a board file: unknown keys refused, nothing changed once read."""


# --------------------------------------------------------------------------- public types


class Group(_Schema, frozen=True, kw_only=True):
    """A colour group (``[[groups]]``)."""

    id: Text
    name: Text
    #: a colour for the interface: ``#rrggbb`` or a terminal colour name (Rich reads it; checked by banker.boards)
    color: str = "white"


#: how many plural forms a word has in each language an edition may give words in (English one, other;
#: Russian and Ukrainian one, few, many: banker.rules.messages.plural_index)
PLURAL_FORMS: Mapping[str, int] = {"en": 2, "ru": 3, "uk": 3}


class Word(_Schema, frozen=True, kw_only=True):
    """What an edition calls a kind of deed in one language (``[words.<lang>.railroad]``): Kyiv's
    railroads are metro stations, its utilities airports."""

    #: the forms after a number: English ``[one, other]`` ("1 airport", "2 airports"); Russian and
    #: Ukrainian ``[one, few, many]`` ("1 станція метро", "2 станції метро", "5 станцій метро")
    forms: tuple[Text, ...]
    #: the deeds of this kind together, as a heading ("Станції метро"): their line in the review's rent by group
    group: Text


class KindWords(_Schema, frozen=True, kw_only=True):
    """An edition's words in one language (``[words.<lang>]``), for the deeds of no colour group."""

    railroad: Word | None = None
    utility: Word | None = None


class Space(Struct, frozen=True):
    position: int
    kind: str
    name: str
    group: str | None = None
    price: int = 0
    rent: tuple[int, ...] = ()
    house_cost: int = 0
    mortgage: int = 0
    tax: int = 0
    tax_percent: int = 0
    name_editable: bool = False

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS


class Card(Struct, frozen=True):
    id: str
    deck: str
    text: str
    #: the effect as written in the file (``{"type": "advance", "to": 1, "backwards": True}``), its
    #: defaults left out; validated by the effect structs below
    effect: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return str(self.effect["type"])

    @property
    def choices(self) -> tuple[str, ...]:
        """The choices printed on the card (``"choice"`` in the command), or () for none."""
        return ("pay", "draw") if self.kind == "pay_or_draw" else ()


class EditionRules(_Schema, frozen=True, kw_only=True):
    """The quirks that differ between rule books (see shared/rules/README.md): ``[rules]``."""

    #: double rent on unmortgaged lots of a full group even if another lot is mortgaged
    monopoly_rent_with_mortgaged_lot: bool = False
    houses_before_hotel: Positive = 4
    #: what selling a hotel means: "break_down" (a hotel counts as five houses and
    #: may be broken down to what the bank can supply), "exchange" (half its price,
    #: exchanged for the houses it replaced), "exchange_or_whole" (exchange, or sell
    #: the hotel with its houses at once for half of all of them)
    hotel_sale: HotelSale = "exchange"
    #: a hotel sold whole (not exchanged for houses) takes every hotel of its group with it,
    #: in one sale (RU 2004: "Все Отели одной цветовой группы должны продаваться одновременно")
    hotels_sold_whole_together: bool = False
    #: lowest bid in a building-shortage auction: "one" or "printed" (house cost)
    building_auction_start: BuildingAuctionStart = "one"
    property_auction_min_bid: Positive = 1
    #: a deed's auction is for cash only: a bid above the bidder's cash is refused (UK "Auction bids can only be
    #: made in cash", Kyiv "Аукціон проходить лише за готівку"); else a bid the bidder could raise is taken, flagged
    auction_cash_only: bool = False
    #: the last bid binds: "If no one makes a higher bid, the last player to bid must buy the property" (UK, Kyiv);
    #: else the console lets a bid be taken back
    auction_last_bidder_buys: bool = False
    #: bankrupt to a player: raise everything first (sell buildings, mortgage every
    #: deed; the creditor receives the cash and the mortgaged deeds), as UK/Kyiv read
    bankrupt_to_player_mortgages_first: bool = False
    #: a creditor may accept deeds instead of cash at an agreed value (RU 2004)
    debt_payable_in_kind: bool = False
    #: the rent by how many railroads the owner holds: one number per railroad on the board
    railroad_rent: tuple[Count, ...] = (25, 50, 100, 200)
    #: the dice multiplier with one utility, with both
    utility_multipliers: tuple[Count, Count] = (4, 10)
    nearest_railroad_multiplier: Count = 2
    nearest_utility_multiplier: Count = 10
    interest_percent: Count = 10
    #: jail (follow mode, issue #11): how many rolls for doubles a jailed player has; after the last one
    #: fails the fine is due and the token moves by that roll
    jail_attempts: Positive = 3
    #: on how many of those turns the fine may be paid (or a card used) before rolling: all of them
    #: unless the book says fewer (US: "before you roll the dice on either of your next two turns")
    jail_fine_turns: Positive = 3


class Money(_Schema, frozen=True, kw_only=True):
    """How an amount is written (``[money]``)."""

    symbol: str = "$"
    format: str = "{symbol}{amount}"
    thousands: str = ","
    unit: str = ""

    def __call__(self, amount: int) -> str:
        sign = "-" if amount < 0 else ""  # before the symbol: "-$1,500"
        return sign + self.format.format(symbol=self.symbol, amount=self.number(abs(amount)))

    def number(self, amount: int) -> str:
        """The amount as written without its symbol or unit ("1 500" of "1 500 т.р.", "-1,500" of "-$1,500"): in a
        table whose column names the money (:meth:`currency`)."""
        sign = "-" if amount < 0 else ""
        if abs(amount) >= HUGE_AMOUNT:
            # only in a log written before amounts were bounded (banker.rules.parse.amount_limit):
            # shown as its size, never converted whole (Python refuses ints of over 4,300 digits)
            return f"{sign}≈10^{int(math.log10(abs(amount)))}"
        return sign + f"{abs(amount):,}".replace(",", self.thousands)

    def currency(self) -> str:
        """What an amount is written with besides its number ("$", "т.р.", "M"), for a column's name."""
        return self.format.format(symbol=self.symbol, amount="").strip()


class Edition(Struct, frozen=True):
    id: str
    name: str
    language: str
    rule_book: str
    variants: tuple[str, ...]
    money: Money
    start_cash: int
    salary: int
    jail_fine: int
    houses: int
    hotels: int
    rules: EditionRules
    groups: Mapping[str, Group]
    spaces: tuple[Space, ...]
    cards: Mapping[str, Card]
    decks: Mapping[str, str]
    source: str = "<data>"
    #: how many may play: the box's tokens (us-classic-rules.txt "11 MONOPOLY tokens"; UK, RU
    #: and Kyiv boxes hold 8); a game needs two
    min_players: int = 2
    max_players: int = 8
    #: the edition's own words by language (``[words]``: Kyiv's metro stations and airports); none for the others
    words: Mapping[str, KindWords] = field(default_factory=dict)

    @property
    def tax_choice(self) -> bool:
        """Whether a tax space prints a choice of a percentage of total worth (the US board's income tax): the
        others print one amount."""
        return any(space.tax_percent for space in self.spaces)

    @property
    def properties(self) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces if s.is_property)

    def group_lots(self, group: str | None) -> tuple[Space, ...]:
        """The spaces of colour group ``group`` in the board's order (``None``: the spaces of no group)."""
        return tuple(s for s in self.spaces if s.group == group)

    def fmt(self, amount: int) -> str:
        return self.money(amount)

    def kind_forms(self, kind: str) -> dict[str, tuple[str, ...]]:
        """The edition's words for a ``kind`` of deed ("railroad", "utility") by language: plural forms
        (:class:`banker.rules.messages.Counted`); {} when the edition says it as every edition does."""
        out = {}
        for lang, words in self.words.items():
            word = getattr(words, kind, None)
            if word is not None:
                out[lang] = word.forms
        return out

    def group_said(self, group: str) -> Named | str:
        """The colour group ``group`` as a message says it: the board's own name in the board's language, the
        catalogs' word for that colour in another (a Russian banker on the US board read "строит в группе «Brown»":
        found by the rules probe); a group the catalogs have no word for, the board's name in every language."""
        name = self.groups[group].name
        key = f"group.{group}"
        return Named(key, {self.language: [name]}) if key in EN else name

    def kind_group(self, kind: str, lang: str) -> str | None:
        """The edition's heading for the deeds of a ``kind`` ("Станції метро") in ``lang``, or None."""
        words = self.words.get(lang)
        word = getattr(words, kind, None) if words is not None else None
        return word.group if word is not None else None

    def may_pass_go_to(self, position: int) -> bool:
        """Whether a token moving forward to ``position`` may pass GO on the way: not to GO itself (it lands there)
        and not to the last space before GO (Boardwalk, Арбат: every start is behind it)."""
        return position not in (0, len(self.spaces) - 1)

    def nearest_cards(self) -> frozenset[str]:
        """The kinds of deed ("railroad", "utility") a card of the edition sends a token to the nearest of, to pay
        the card's own rent (US Chance: "Advance token to the nearest Railroad and pay owner twice the rental");
        none on the UK, RU and Kyiv decks."""
        return frozenset(str(c.effect["kind"]) for c in self.cards.values() if c.kind == "advance_nearest")

    def deck_cards(self, deck: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards.values() if c.deck == deck)


class Variant(_Schema, frozen=True, kw_only=True):
    """A way to play (``[[variant]]`` in variants.toml)."""

    id: Text
    name: Text
    #: deeds dealt to each player at the start, paid at the printed price
    deal_deeds: Count = 0
    #: replaces the edition's houses before a hotel when set
    houses_before_hotel: Positive | None = None
    start_cash_bonus: Count = 0
    #: the game ends at this many bankruptcies (0: when one player is left)
    end_at_bankruptcy: Count = 0
    #: the game ends at an agreed time
    timed: bool = False
    speed_die: bool = False
    description: str = ""


class HouseRules(_Schema, frozen=True, kw_only=True):
    """House rules: off by default, recorded in the session when on."""

    #: taxes, fines and card payments to the bank go to a pot on Free Parking,
    #: collected by whoever lands there
    free_parking_pot: bool = False
    #: salary doubled for landing exactly on GO
    go_landing_bonus: bool = False

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return cls.__struct_fields__

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> "HouseRules":
        """The house rules recorded in a session or asked for; raises :class:`ValueError` naming
        an unknown rule or a value that is not true or false."""
        if data is not None and not isinstance(data, Mapping):
            raise ValueError(f"house rules must be a table of rule: true or false, not {shown(data)}")
        data = dict(data or {})
        unknown = sorted(set(data) - set(cls.names()))
        if unknown:
            raise ValueError(
                f"unknown house rule {', '.join(map(str, unknown))}; known: {', '.join(cls.names())}"
            )
        try:
            return msgspec.convert(data, cls, strict=True)
        except msgspec.ValidationError:
            k, v = next((k, v) for k, v in data.items() if not isinstance(v, bool))
            raise ValueError(f"house rule {k} must be true or false, not {v!r}") from None

    def to_mapping(self) -> dict[str, bool]:
        return {name: getattr(self, name) for name in self.names()}


# --------------------------------------------------------------------------- the file's schema
# What a board file holds, table by table; turned into the public types above once read.


class _SpaceFile(_Schema, tag_field="kind", frozen=True, kw_only=True):
    position: Count
    name: Text
    #: the name is this project's choice, not the rule book's
    name_editable: bool = False


class _Go(_SpaceFile, tag="go", frozen=True, kw_only=True):
    pass


class _Jail(_SpaceFile, tag="jail", frozen=True, kw_only=True):
    pass


class _FreeParking(_SpaceFile, tag="free_parking", frozen=True, kw_only=True):
    pass


class _GoToJail(_SpaceFile, tag="go_to_jail", frozen=True, kw_only=True):
    pass


class _ChanceSpace(_SpaceFile, tag="chance", frozen=True, kw_only=True):
    pass


class _ChestSpace(_SpaceFile, tag="chest", frozen=True, kw_only=True):
    pass


class _Tax(_SpaceFile, tag="tax", frozen=True, kw_only=True):
    tax: Positive
    #: only where the player may pay this percentage of total worth instead
    tax_percent: Positive | None = None


class _Street(_SpaceFile, tag="street", frozen=True, kw_only=True):
    group: Text
    price: Positive
    #: bare lot, 1-4 houses, hotel
    rent: Annotated[tuple[Count, ...], Meta(min_length=6, max_length=6)]
    house_cost: Positive
    mortgage: Positive


class _Railroad(_SpaceFile, tag="railroad", frozen=True, kw_only=True):
    price: Positive
    mortgage: Positive


class _Utility(_SpaceFile, tag="utility", frozen=True, kw_only=True):
    price: Positive
    mortgage: Positive


_SpaceEntry = _Go | _Jail | _FreeParking | _GoToJail | _Tax | _ChanceSpace | _ChestSpace | _Street | _Railroad | _Utility


class _Effect(_Schema, tag_field="type", omit_defaults=True, frozen=True, kw_only=True):
    pass


class _Collect(_Effect, tag="collect", frozen=True, kw_only=True):
    amount: Count


class _Pay(_Effect, tag="pay", frozen=True, kw_only=True):
    amount: Count


class _PayEachPlayer(_Effect, tag="pay_each_player", frozen=True, kw_only=True):
    amount: Count


class _CollectFromEachPlayer(_Effect, tag="collect_from_each_player", frozen=True, kw_only=True):
    amount: Count


class _Repairs(_Effect, tag="repairs", frozen=True, kw_only=True):
    house: Count
    hotel: Count


class _Advance(_Effect, tag="advance", frozen=True, kw_only=True):
    to: Count
    #: the token moves back to ``to`` ("Go back to Old Kent Road"): it never passes GO
    backwards: bool = False


class _AdvanceNearest(_Effect, tag="advance_nearest", frozen=True, kw_only=True):
    kind: Literal["railroad", "utility"]


class _Back(_Effect, tag="back", frozen=True, kw_only=True):
    spaces: Count


class _GoToJailCard(_Effect, tag="go_to_jail", frozen=True, kw_only=True):
    pass


class _JailCard(_Effect, tag="jail_card", frozen=True, kw_only=True):
    pass


class _PayOrDraw(_Effect, tag="pay_or_draw", frozen=True, kw_only=True):
    """A choice printed on the card: pay the amount to the bank, or draw a card of ``deck``."""

    amount: Count
    deck: DeckId


_EffectEntry = (_Collect | _Pay | _PayEachPlayer | _CollectFromEachPlayer | _Repairs | _Advance | _AdvanceNearest | _Back
                | _GoToJailCard | _JailCard | _PayOrDraw)


class _CardFile(_Schema, frozen=True, kw_only=True):
    id: Text
    deck: DeckId
    text: Text
    effect: _EffectEntry


class _Decks(_Schema, frozen=True, kw_only=True):
    chance: Text = "Chance"
    chest: Text = "Chest"


class _EditionFile(_Schema, frozen=True, kw_only=True):
    id: Text
    name: Text
    language: Text = "en"
    rule_book: str = ""
    variants: tuple[Text, ...] = ("classic",)
    start_cash: Positive
    salary: Count
    jail_fine: Count
    houses: Count
    hotels: Count
    min_players: Annotated[int, Meta(ge=2)] = 2
    max_players: Annotated[int, Meta(ge=2)] = 8
    money: Money = field(default_factory=Money)
    rules: EditionRules = field(default_factory=EditionRules)
    decks: _Decks = field(default_factory=_Decks)
    groups: tuple[Group, ...] = ()
    words: dict[str, KindWords] = field(default_factory=dict)
    spaces: tuple[_SpaceEntry, ...] = ()
    cards: tuple[_CardFile, ...] = ()


class _VariantsFile(_Schema, frozen=True, kw_only=True):
    variant: tuple[Variant, ...] = ()


# --------------------------------------------------------------------------- schema errors in words

_T = TypeVar("_T")
_AT = " - at `"
#: the lists of a file whose items are named in a message (a space by position and name, the others by id)
_PLACES = {"spaces": "space", "cards": "card", "groups": "group", "variant": "variant"}
_TABLES = ("money", "rules", "decks", "words")


def _convert(data: Mapping[str, Any], schema: type[_T], source: str) -> _T:
    """``data`` as ``schema``, strictly; a mismatch raises :class:`BoardError` in words."""
    try:
        return msgspec.convert(dict(data), schema, strict=True)
    except msgspec.ValidationError as e:
        where, problem = _explain(str(e), data, mi.type_info(schema))
        raise BoardError(f"{source}: {where}: {problem}", "invalid", source=source, where=where, problem=problem) from None


def _segments(path: str) -> list[str | int]:
    """msgspec's path (``$.spaces[3].rent``, ``$.words[...].railroad``: a table's key it does not name) as keys and
    indexes; the unnamed key as ``...``."""
    found = re.findall(r"\.([^.\[]+)|\[(\d+)\]|\[(\.\.\.)\]", path)
    return [name or (int(index) if index else "...") for name, index, _ in found]


def _named_keys(segs: list[str | int], data: Any, schema: mi.Type) -> list[str | int]:
    """``segs`` with each key msgspec leaves unnamed (``...``, in a table of tables such as ``[words.<lang>]``) found:
    the first key of that table whose value does not convert ("?" when none can be told)."""
    out: list[str | int] = []
    for s in segs:
        if s == "...":
            table, (t, _) = _value_at(data, out), _type_at(schema, out, data)
            cls = t.value_type.cls if isinstance(t, mi.DictType) and isinstance(t.value_type, mi.StructType) else None
            s = next((k for k, v in table.items() if not _converts(v, cls)), "?") if cls and isinstance(table, Mapping) else "?"
        out.append(s)
    return out


def _converts(value: Any, cls: type) -> bool:
    try:
        msgspec.convert(value, cls, strict=True)
    except msgspec.ValidationError:
        return False
    return True


def _explain(error: str, data: Mapping[str, Any], schema: mi.Type) -> tuple[str, str]:
    """msgspec's ``Expected `int`, got `str` - at `$.rules.houses_before_hotel``` as
    ``("rules", "houses_before_hotel must be a whole number >= 1, not '4'")``."""
    text, _, path = error.partition(_AT)
    segs = _named_keys(_segments(path.rstrip("`")), data, schema) if path else []
    named = re.fullmatch(r"Object (contains unknown|missing required) field `(.*)`", text, re.DOTALL)
    if named:  # the path is the table; the key is in the message
        segs.append(named.group(2))
    where, key = _place(segs, data)
    expected, parent = _type_at(schema, segs, data)
    value = _value_at(data, segs)
    if named and named.group(1) == "contains unknown":
        known = ", ".join(_keys(parent, _value_at(data, segs[:-1]))) if parent is not None else ""
        return where, f"unknown field {key}" + (f"; known: {known}" if known else "")
    wanted = _describe(expected, str(segs[-1]) if segs else "") if expected is not None else text
    if named:
        return where, f"missing {key}: {wanted}"
    return where, f"{key + ' ' if key else ''}must be {wanted}, not {_show(value)}"


def _place(segs: Sequence[str | int], data: Mapping[str, Any]) -> tuple[str, str]:
    """Where in the file ``segs`` points (a space, a card, a table, the header) and the key there."""
    def key(rest: Sequence[str | int]) -> str:
        return "".join(f" item {s + 1}" if isinstance(s, int) else (f".{s}" if i else s) for i, s in enumerate(rest))

    if len(segs) >= 2 and segs[0] in _PLACES and isinstance(segs[1], int):
        what = _PLACES[str(segs[0])]
        item = _value_at(data, segs[:2])
        item = item if isinstance(item, Mapping) else {}
        if what == "space":
            pos, name = item.get("position"), item.get("name")
            where = _space_place(pos, name) if type(pos) is int else f"space listed at place {segs[1]}"
        else:
            ident = item.get("id")
            readable = isinstance(ident, str) and ident.strip() and not forbidden_char(ident)
            where = f"{what} {ident}" if readable else f"{what} {segs[1] + 1} in the file"
        return where, key(segs[2:])
    if len(segs) >= 2 and segs[0] in _TABLES:
        return str(segs[0]), key(segs[1:])
    return "header", key(segs)


def _space_place(position: int, name: Any) -> str:
    """A space as a refusal names it: ``space 1 (Old Kent Road)``; by its position alone where its name would not read
    as one line (a control or invisible character in it: the refusal is then about the name)."""
    return f"space {position} ({name})" if isinstance(name, str) and not forbidden_char(name) else f"space {position}"


def _value_at(data: Any, segs: Sequence[str | int]) -> Any:
    for s in segs:
        if isinstance(s, int) and isinstance(data, list) and s < len(data):
            data = data[s]
        elif isinstance(s, str) and isinstance(data, Mapping) and s in data:
            data = data[s]
        else:
            return None
    return data


def _member(t: mi.Type, value: Any) -> mi.Type:
    """The struct of a tagged union that ``value`` names by its tag, the type of an optional one (``Word | None``), or
    the union itself."""
    if isinstance(t, mi.UnionType) and isinstance(value, Mapping):
        for member in t.types:
            if isinstance(member, mi.StructType) and member.tag_field and value.get(member.tag_field) == member.tag:
                return member
    if isinstance(t, mi.UnionType):
        given = [m for m in t.types if not isinstance(m, mi.NoneType)]
        if len(given) == 1:
            return given[0]
    return t


def _type_at(schema: mi.Type, segs: Sequence[str | int], data: Any) -> tuple[mi.Type | None, mi.Type | None]:
    """The schema's type at ``segs`` and the table (struct) holding it."""
    t: mi.Type | None = schema
    parent: mi.Type | None = None
    for s in segs:
        if t is None:
            return None, None
        t = _member(t, data)
        parent = t
        if isinstance(s, int):
            if isinstance(t, (mi.ListType, mi.VarTupleType)):
                t = t.item_type
            elif isinstance(t, mi.TupleType) and s < len(t.item_types):
                t = t.item_types[s]
            else:
                t = None
        elif isinstance(t, mi.StructType):
            t = next((f.type for f in t.fields if f.encode_name == s), None)
        elif isinstance(t, mi.DictType):  # a table of tables ([words.<lang>]): any key
            t = t.value_type
        elif isinstance(t, mi.UnionType) and (tags := _tags(t)) and s == tags[0]:
            t = mi.LiteralType(tuple(tags[1:]))
        else:
            t = None
        data = _value_at(data, [s])
    return t, parent


def _tags(t: mi.UnionType) -> list[str]:
    """[tag field, tag, tag, ...] of a tagged union of structs (or [])."""
    members = [m for m in t.types if isinstance(m, mi.StructType) and m.tag_field]
    if not members:
        return []
    return [str(members[0].tag_field)] + [str(m.tag) for m in members]


def _keys(t: mi.Type, value: Any) -> list[str]:
    t = _member(t, value)
    if isinstance(t, mi.StructType):
        return ([t.tag_field] if t.tag_field else []) + [f.encode_name for f in t.fields]
    return []


def _bounds(t: mi.IntType) -> str:
    if t.ge is not None:
        return f" >= {t.ge}"
    return ""


def _describe(t: mi.Type, key: str = "", plural: bool = False) -> str:
    """What a value of type ``t`` is, in words ("a whole number >= 1", "one of one, printed")."""
    if isinstance(t, mi.Metadata):
        return _describe(t.type, key, plural)
    if isinstance(t, mi.IntType):
        return ("whole numbers" if plural else "a whole number") + _bounds(t)
    if isinstance(t, mi.BoolType):
        return "true or false"
    if isinstance(t, mi.StrType):
        return ("texts" if plural else "text") + (" (not blank)" if t.pattern else "")
    if isinstance(t, mi.LiteralType):
        return "one of " + ", ".join(map(str, t.values))
    if isinstance(t, mi.UnionType):
        if _tags(t):
            return "tables" if plural else f"a table with {_tags(t)[0]} = one of " + ", ".join(_tags(t)[1:])
        others = [m for m in t.types if not isinstance(m, mi.NoneType)]
        if len(others) == 1:  # TOML has no null: None is a key left out
            return _describe(others[0], key, plural) + " (or left out)"
    if isinstance(t, mi.StructType):
        return "tables" if plural else f"a table ([{key}] or {{ ... }})" if key else "a table"
    if isinstance(t, (mi.ListType, mi.VarTupleType)):
        item = t.item_type
        if isinstance(item, mi.StructType) or (isinstance(item, mi.UnionType) and _tags(item)):
            return f"a list of tables ([[{key}]])" if key else "a list of tables"
        n = f"{t.min_length} " if t.min_length is not None and t.min_length == t.max_length else ""
        return f"a list of {n}{_describe(item, plural=True)}"
    if isinstance(t, mi.TupleType) and t.item_types:
        return f"a list of {len(t.item_types)} {_describe(t.item_types[0], plural=True)}"
    return str(t)


def _show(value: Any) -> str:
    """A value as the file wrote it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list of tables" if value and all(isinstance(v, Mapping) for v in value) else repr(value)
    if isinstance(value, str | int | float):
        return repr(value)
    return str(value)


# --------------------------------------------------------------------------- loading


def _space(raw: _SpaceEntry) -> Space:
    kind = str(raw.__struct_config__.tag)
    space = Space(position=raw.position, kind=kind, name=raw.name, name_editable=raw.name_editable)
    if isinstance(raw, _Street):
        return replace(space, group=raw.group, price=raw.price, rent=raw.rent, house_cost=raw.house_cost,
                       mortgage=raw.mortgage)
    if isinstance(raw, _Railroad | _Utility):
        return replace(space, group=kind, price=raw.price, mortgage=raw.mortgage)
    if isinstance(raw, _Tax):
        return replace(space, tax=raw.tax, tax_percent=raw.tax_percent or 0)
    return space


#: the longest ``[money]`` texts a board may give (a sign, a separator, a unit word, the pattern around them)
MONEY_TEXT = {"symbol": 8, "thousands": 2, "unit": 24, "format": 40}


def _money_problem(money: Money) -> str | None:
    """Why ``[money]`` cannot write amounts (None: it can). The format is text around ``{amount}`` (once) and
    ``{symbol}``, nothing else: a field's spec, conversion, index or attribute (``{symbol:>1000000000}``,
    ``{amount.__class__}``) would pad an amount to a gigabyte or show the program's insides; each text is short
    (and, as every text of a board file, free of control characters: :func:`_control_text`)."""
    for name, most in MONEY_TEXT.items():
        text = getattr(money, name)
        if len(text) > most:
            return f"{name} is at most {most} characters, not {len(text)}"
    try:
        parts = list(string.Formatter().parse(money.format))
    except ValueError as exc:
        return f"bad format {money.format!r}: {exc}"
    names = [name for _text, name, _spec, _conv in parts if name is not None]
    if any(name not in ("symbol", "amount") or spec or conv for _text, name, spec, conv in parts if name is not None):
        return f"bad format {money.format!r}: only {{symbol}} and {{amount}}, with nothing after the name (no : or !)"
    if names.count("amount") != 1:
        return f"bad format {money.format!r}: {{amount}} must be in it once"
    return None


def _terminal_control(text: str) -> str | None:
    """The first character of ``text`` that drives a terminal (ESC, BEL, the other C0 and C1 controls; a line break or
    a tab in a card's text is fine), as ``U+XXXX``; else None."""
    for ch in text:
        code = ord(ch)
        if (code < 0x20 and ch not in "\t\n\r") or 0x7F <= code <= 0x9F:
            return f"U+{code:04X}"
    return None


def file_quoted(text: str, bad: int = 0, limit: int = 60) -> str:
    """``text`` quoted as a refusal of a board file shows it: its letters as they are («Троєщина» is not
    ``\\u0422\\u0440...``), only a control or invisible character escaped (``\\x1b``, ``\\u202e``, ``\\n``), and a long
    text cut to ``limit`` characters around the character at index ``bad`` (the one the refusal is about)."""
    start = max(0, min(bad - limit // 2, len(text) - limit))
    part = text[start:start + limit]
    shown_part = "".join(repr(c)[1:-1] if unicodedata.category(c) in FORBIDDEN_CATEGORIES else c for c in part)
    return "'" + ("…" if start else "") + shown_part + ("…" if start + limit < len(text) else "") + "'"


def control_text(data: Any) -> tuple[str, str] | None:
    """The first text of a board file's data (a space's name, a card's text...) holding a character that drives a
    terminal, and where, said as the file's other mistakes are (``space 1``, ``card cc-bank-error``, ``decks``): it would
    reach the terminal with every line that names it (``banker cards``, the log). The text is quoted readably
    (:func:`file_quoted`). Checked where a board file is taken for a new game or listed (banker.boards.check_board), not on
    every read: a session recorded on a board opens as it was."""
    stack: list[tuple[list[str | int], Any]] = [([], data)]
    while stack:
        segs, value = stack.pop()
        if isinstance(value, Mapping):
            bad_key = next((k for k in value if isinstance(k, str) and _terminal_control(k)), None)
            if bad_key is not None:  # a key is text too
                return _control_found(data, segs, bad_key, is_key=True)
            items: list[tuple[str | int, Any]] = [(k, v) for k, v in value.items() if isinstance(k, str)]
        elif isinstance(value, list | tuple):
            items = list(enumerate(value))
        elif isinstance(value, str) and _terminal_control(value):
            return _control_found(data, segs, value)
        else:
            continue
        stack.extend((segs + [k], v) for k, v in reversed(items))
    return None


def _control_found(data: Any, segs: list[str | int], text: str, is_key: bool = False) -> tuple[str, str]:
    """Where ``text`` (the value at ``segs``, or a key of the table there) is and what to fix."""
    bad = next(i for i, c in enumerate(text) if _terminal_control(c))
    where, key = _place(segs, data) if segs and isinstance(data, Mapping) else ("header", "")
    what = f"{key} key" if is_key and key else "key" if is_key else key
    fine = " (a line break or a tab in a card's text is fine)" if segs[:1] == ["cards"] and not is_key else ""
    said = file_quoted(text, bad)
    return where, f"{what + ' ' if what else ''}{said} holds a control character ({_terminal_control(text)}): remove it{fine}"


#: the longest name of a space or a group a board file taken for a new game may give (the longest printed: 35 characters,
#: Kyiv's «Станція метро «Майдан Незалежності»»); a name is one line of the deed's card, the log and the players' page
NAME_LIMIT = 48


def line_problem(key: str, text: str, limit: int = NAME_LIMIT, it: str = "it") -> str | None:
    """Why ``text``, the ``key`` of a board or variants file, is not one line of plain text of at most ``limit``
    characters (a control or invisible character: :func:`forbidden_char`), said as the file's refusals say it; else
    None. ``it``: how the sentence names the text ("a name")."""
    bad = forbidden_char(text)
    if bad:
        return f"{key} holds a control or invisible character ({bad}): {it} is one line of plain text"
    if len(text) > limit:
        return f"{key} has {len(text)} characters, at most {limit}"
    return None


def name_problem(edition: Edition) -> tuple[str, str] | None:
    """The first name of a space or a colour group the table could not read, and where: a control or invisible character
    (a line break split every sentence naming the space in two, a right-to-left override showed «Троєщина» backwards, a
    zero-width space made two names look the same), a name longer than :data:`NAME_LIMIT`, or the name of another deed
    or group (compared as players' names are: case, composed forms and spaces aside), which the command line and the log
    could not tell apart. Checked with :func:`control_text`, where a board file is taken for a new game."""
    seen: dict[str, int] = {}
    for space in edition.spaces:
        problem = line_problem("name", space.name, it="a name")
        if problem:
            return f"space {space.position}", problem
        if space.kind in ("street", "railroad", "utility"):
            other = seen.setdefault(name_key(space.name), space.position)
            if other != space.position:
                return (_space_place(space.position, space.name),
                        f"name is also the name of space {other}: each deed needs a name of its own")
    named: dict[str, str] = {}
    for group in edition.groups.values():
        problem = line_problem("name", group.name, it="a name")
        if problem:
            return f"group {group.id}", problem
        first = named.setdefault(name_key(group.name), group.id)
        if first != group.id:
            return (f"group {group.id} ({group.name})",
                    f"name is also the name of group {first}: each group needs a name of its own")
    return None


#: the longest edition name or rule book's file name a board file taken for a new game may give (the longest shipped: 37
#: characters, "Monopoly — US classic (Atlantic City)"): the name heads the table screen and starts the refusal of a
#: player count
TITLE_LIMIT = 80
#: the longest text of a card (the longest printed: 161 characters, the US "Advance token to the nearest Railroad...")
CARD_TEXT_LIMIT = 400


def text_problem(edition: Edition) -> tuple[str, str] | None:
    """The first text of a board besides the names of its spaces and groups (:func:`name_problem`) that the table could
    not read, and where: the edition's name, id, language or rule book, a deck's name, a group's or a card's id, or the
    edition's words holding a control or invisible character (a line break, a right-to-left override, a zero-width
    space: each is said on one line, in headings and sentences), or longer than a name (:data:`NAME_LIMIT`;
    :data:`TITLE_LIMIT` for the edition's name and rule book), or a card's text longer than :data:`CARD_TEXT_LIMIT`
    (a 100,000-character edition name, deck name or card text was taken). Checked with :func:`control_text` where a
    board file is taken for a new game or listed."""
    header = [line_problem("name", edition.name, TITLE_LIMIT), line_problem("id", edition.id),
              line_problem("language", edition.language), line_problem("rule_book", edition.rule_book, TITLE_LIMIT)]
    places: list[tuple[str, list[str | None]]] = [("header", header),
                                                  ("decks", [line_problem(k, v) for k, v in edition.decks.items()])]
    places += [(f"group {i + 1} in the file", [line_problem("id", gid)]) for i, gid in enumerate(edition.groups)]
    for i, card in enumerate(edition.cards.values()):
        problem = line_problem("id", card.id)
        places.append((f"card {card.id}" if problem is None else f"card {i + 1} in the file",
                       [problem, f"text has {len(card.text)} characters, at most {CARD_TEXT_LIMIT}"
                        if len(card.text) > CARD_TEXT_LIMIT else None]))
    for lang, words in edition.words.items():
        for kind in ("railroad", "utility"):
            word = getattr(words, kind)
            if word is not None:
                places.append((f"words.{lang}.{kind}", [line_problem(f"forms item {n + 1}", form) for n, form in
                                                         enumerate(word.forms)] + [line_problem("group", word.group)]))
    for where, problems in places:
        problem = next((p for p in problems if p), None)
        if problem:
            return where, problem
    return None


#: the most start cash a board file taken for a new game may give (every edition prints 1500; a board in a small unit,
#: 15,000,000 of a "Here & Now" or a thousand times that, passes): the largest amount a command may carry is 800 times
#: it (banker.rules.parse.amount_limit), at most 8 * 10**14 so, below 2**53: every amount stays exact on the players'
#: page (a JavaScript number) and in a JSON export
START_CASH_LIMIT = 10**12
#: how many times the start cash one amount of a board (a price, a rent, a house cost, a tax, the salary, a fine, a card's
#: amount) may be: the largest printed is Boardwalk's hotel rent, 2000 of 1500; twenty times leaves room for a house
#: rule's dearer rents or smaller start cash, and refuses a number with zeros too many (or a start cash with zeros too few)
AMOUNT_TIMES_START = 20
#: the largest percentage of a board (``tax_percent``, ``interest_percent``): a tax of more than a player's whole worth,
#: interest of more than the mortgage itself, is a slip (printed: 10 and 10)
PERCENT_LIMIT = 100
#: the largest multiplier of the rules (``utility_multipliers``, ``nearest_*_multiplier``; printed: 4, 10, 2, 10)
MULTIPLIER_LIMIT = 100
#: the largest stock of houses or of hotels (a box holds 32 and 12; a house rule of as many as wanted writes 999)
BUILDINGS_LIMIT = 1000
#: a street's six rents, as a refusal names them
RENT_NAMES = ("bare lot rent", "1-house rent", "2-house rent", "3-house rent", "4-house rent", "hotel rent")
#: the most players a board may seat (``max_players``): the largest box holds 11 tokens (us-classic-rules.txt "11 MONOPOLY
#: tokens"; UK, RU and Kyiv 8), and the table screen puts every player's card side by side: at 120 columns twelve cards
#: still show each cash amount on one line, sixteen split it and cut every name to a letter
PLAYERS_LIMIT = 12
#: the most rolls for doubles a jailed player may have (``jail_attempts``; printed: 3 in every book): a few turns, not
#: a game spent in jail
JAIL_ATTEMPTS_LIMIT = 10


def _n(value: int) -> str:
    """A whole number of the file as written (a huge one as its size: Python refuses to write ints of 4,300 digits)."""
    return str(value) if abs(value) < HUGE_AMOUNT else f"≈10^{int(math.log10(abs(value)))}"


def _ns(values: Iterable[int]) -> str:
    """A list of whole numbers of the file as written (``[2, 10, 30, 90, 160, 250]``)."""
    return "[" + ", ".join(map(_n, values)) + "]"


def number_problem(edition: Edition) -> tuple[str, str] | None:
    """The first number of a board no real board prints and the game would do nonsense with, and where: a mortgage above
    the price (buy for 60, mortgage for 3000), rents that fall as buildings are added, a tax or an interest of more than
    100%, more houses before a hotel than a deed has rents for (the rent of a fifth house was looked up past the deed's
    six rents, and banker crashed), a start cash no table counts (:data:`START_CASH_LIMIT`), an amount of more than
    :data:`AMOUNT_TIMES_START` times the start cash, a salary above the start cash, a house dearer than every deed, more
    than :data:`BUILDINGS_LIMIT` houses or hotels, a multiplier above :data:`MULTIPLIER_LIMIT`, more players than
    :data:`PLAYERS_LIMIT` (a max_players of 10**9 was taken), more than :data:`JAIL_ATTEMPTS_LIMIT` rolls in jail or more
    turns to pay the fine before rolling than rolls (10**12 was taken), a card moving a token back 0 spaces or a whole
    lap or more (10**9 was taken). The limits are generous:
    every shipped board and a house rule's board (dearer rents, no interest, as many houses as wanted) pass. Checked with
    :func:`name_problem` where a board file is taken for a new game or listed, never when a recorded session opens."""
    start = edition.start_cash
    if start > START_CASH_LIMIT:
        return "header", (f"start_cash {_n(start)} is more than {START_CASH_LIMIT:,}: no table counts that much; "
                          "write the start cash as the board prints it (1500 on every edition banker ships)")
    most = AMOUNT_TIMES_START * start

    def too_much(what: str, value: int) -> str | None:
        if value <= most:
            return None
        return (f"{what} {_n(value)} is more than {most}, {AMOUNT_TIMES_START} times the start cash {start}: no board "
                f"prints so large an amount; correct the number (or start_cash)")

    def falls(what: str, values: Sequence[int], names: Sequence[str], why: str) -> str | None:
        for i in range(1, len(values)):
            if values[i] < values[i - 1]:
                return (f"{what} {_ns(values)}: the {names[i]} {_n(values[i])} is less than the {names[i - 1]} "
                        f"{_n(values[i - 1])}: a rent never falls as {why}")
        return None

    header = [f"salary {_n(edition.salary)} is more than start_cash {start}: passing GO pays at most what a player "
              "starts with (printed: 200 of 1500)" if edition.salary > start else None,
              too_much("jail_fine", edition.jail_fine)]
    header += [f"{name} {_n(count)} is more than {BUILDINGS_LIMIT}: the bank's stock (32 houses and 12 hotels in a box; "
               f"write 999 for as many as wanted)" for name, count in (("houses", edition.houses), ("hotels", edition.hotels))
               if count > BUILDINGS_LIMIT]
    header.append(f"max_players {_n(edition.max_players)} is more than {PLAYERS_LIMIT}: the table screen shows every "
                  f"player's card side by side (the largest box holds 11 tokens)" if edition.max_players > PLAYERS_LIMIT
                  else None)
    rules = edition.rules
    rents = len(RENT_NAMES) - 2
    railroad_names = [f"rent for {n} railroad{'s' if n > 1 else ''}" for n in range(1, len(rules.railroad_rent) + 1)]
    rule_problems = [
        f"houses_before_hotel {_n(rules.houses_before_hotel)} is more than {rents}: a deed prints the rent for 1 to "
        f"{rents} houses, then a hotel's" if rules.houses_before_hotel > rents else None,
        f"interest_percent {_n(rules.interest_percent)} is more than {PERCENT_LIMIT}: lifting a mortgage costs at most "
        "twice the mortgage (printed: 10)" if rules.interest_percent > PERCENT_LIMIT else None,
        f"jail_attempts {_n(rules.jail_attempts)} is more than {JAIL_ATTEMPTS_LIMIT}: a jailed player rolls for doubles "
        "on a few turns, then pays the fine (printed: 3)" if rules.jail_attempts > JAIL_ATTEMPTS_LIMIT else None,
        f"jail_fine_turns {_n(rules.jail_fine_turns)} is more than jail_attempts {_n(rules.jail_attempts)}: the fine may "
        "be paid before rolling on at most every turn in jail (printed: 2 or 3 of 3)"
        if rules.jail_fine_turns > rules.jail_attempts else None,
        too_much("property_auction_min_bid", rules.property_auction_min_bid),
        falls("railroad_rent", rules.railroad_rent, railroad_names, "more railroads are held"),
        *(too_much(f"railroad_rent {_ns(rules.railroad_rent)}: the {name}", rent)
          for name, rent in zip(railroad_names, rules.railroad_rent, strict=True)),
        (f"utility_multipliers {_ns(rules.utility_multipliers)}: the multiplier for both utilities is less than for one"
         if rules.utility_multipliers[1] < rules.utility_multipliers[0] else None),
        *(f"{name} {_n(m)} is more than {MULTIPLIER_LIMIT}: a rent is at most {MULTIPLIER_LIMIT} times {of}"
          for name, m, of in (("utility_multipliers", max(rules.utility_multipliers), "the dice (printed: 4 and 10)"),
                              ("nearest_railroad_multiplier", rules.nearest_railroad_multiplier,
                               "the railroad's rent (printed: 2)"),
                              ("nearest_utility_multiplier", rules.nearest_utility_multiplier, "the dice (printed: 10)"))
          if m > MULTIPLIER_LIMIT),
    ]
    for where, problems in (("header", header), ("rules", rule_problems)):
        problem = next((p for p in problems if p), None)
        if problem:
            return where, problem

    dearest = max((s.price for s in edition.spaces if s.is_property), default=0)
    for space in edition.spaces:
        where = _space_place(space.position, space.name)
        problems = []
        if space.is_property:
            problems += [too_much("price", space.price),
                         f"mortgage {_n(space.mortgage)} is more than the price {space.price}: a mortgage is at most the "
                         "price (printed: half of it)" if space.mortgage > space.price else None]
        if space.kind == "street":
            problems += [f"house_cost {_n(space.house_cost)} is more than the dearest deed on the board ({dearest}): a "
                         "house costs at most that (printed: at most half the deed's price)"
                         if space.house_cost > dearest else None,
                         falls("rent", space.rent, RENT_NAMES, "buildings are added"),
                         *(too_much(f"rent {_ns(space.rent)}: the {name}", rent)
                           for name, rent in zip(RENT_NAMES, space.rent, strict=False))]
        if space.kind == "tax":
            problems += [too_much("tax", space.tax),
                         f"tax_percent {_n(space.tax_percent)} is more than {PERCENT_LIMIT}: a tax is at most a player's "
                         "whole worth (printed: 10)" if space.tax_percent > PERCENT_LIMIT else None]
        problem = next((p for p in problems if p), None)
        if problem:
            return where, problem
    last = len(edition.spaces) - 1
    for card in edition.cards.values():
        back = card.effect.get("spaces") if card.kind == "back" else None
        if isinstance(back, int) and not 1 <= back <= last:
            return f"card {card.id}", (f"effect.spaces {_n(back)}: a card moves a token back 1 to {last} spaces, fewer "
                                       f"than the board's {last + 1} (printed: 3)")
        for key in ("amount", "house", "hotel"):
            value = card.effect.get(key)
            if isinstance(value, int):
                problem = too_much(f"effect.{key}", value)
                if problem:
                    return f"card {card.id}", problem
    return None


def layout_problem(edition: Edition) -> tuple[str, str] | None:
    """The first space of a board the game cannot play on, and where: no jail or two (every ``place`` of a token, every
    "go to jail", looks the one jail up: a board without one stopped banker at the first), a second GO (a token is paid
    for passing space 0 alone), a Chance or Community Chest space (or a card's "or draw") whose deck has no card (the
    card it asks for could never be given). Checked with :func:`number_problem` where a board file is taken for a new
    game or listed, never when a recorded session opens."""
    jails = [s for s in edition.spaces if s.kind == "jail"]
    if not jails:
        return "spaces", 'no space is the jail (kind = "jail"): a token sent to jail needs one (printed: space 10)'
    if len(jails) > 1:
        return (_space_place(jails[1].position, jails[1].name),
                f"is a second jail (the first is space {jails[0].position}): a board has one jail")
    second_go = next((s for s in edition.spaces[1:] if s.kind == "go"), None)
    if second_go is not None:
        return (_space_place(second_go.position, second_go.name),
                "is a second GO: GO is space 0 alone (a token passing it is paid the salary)")
    for deck in ("chance", "chest"):
        if edition.deck_cards(deck):
            continue
        space = next((s for s in edition.spaces if s.kind == deck), None)
        card = next((c for c in edition.cards.values() if c.effect.get("deck") == deck), None)
        none = f"a {deck} card ({edition.decks[deck]}), but the file has none: give the deck its cards (printed: 16)"
        if space is not None:
            return _space_place(space.position, space.name), f"draws {none}"
        if card is not None:
            return f"card {card.id}", f"may draw {none}"
    return None


def edition_from_dict(data: Mapping[str, Any], source: str = "<data>") -> Edition:
    """Build and validate an edition; raises :class:`BoardError` naming the problem."""
    file = _convert(data, _EditionFile, source)

    def fail(where: str, problem: str) -> BoardError:
        return BoardError(f"{source}: {where}: {problem}", "invalid", source=source, where=where, problem=problem)


    problem = _money_problem(file.money)
    if problem:
        raise fail("money", problem)
    if file.max_players < file.min_players:
        raise fail("header", f"min_players {_n(file.min_players)} is more than max_players {_n(file.max_players)}: a game "
                             f"is for min_players to max_players players (printed: 2 to 8, or to 11)")

    groups: dict[str, Group] = {}
    for group in file.groups:
        if group.id in groups:
            raise fail(f"group {group.id}", "id used twice")
        groups[group.id] = group
    if len(file.spaces) != 40:
        raise fail("spaces", f"a board has 40 spaces, this file has {len(file.spaces)}")
    spaces = tuple(_space(raw) for raw in file.spaces)
    for i, s in enumerate(spaces):
        if s.position != i:
            raise fail(_space_place(s.position, s.name), f"listed at place {i}: positions must run 0-39 in order")
        if s.kind == "street" and s.group not in groups:
            known = ", ".join(g if len(g) <= NAME_LIMIT else g[:NAME_LIMIT] + "…" for g in groups)  # one line, not 100 KB
            raise fail(_space_place(s.position, s.name), f"unknown group {s.group!r}; groups are {known}")
    if spaces[0].kind != "go":
        raise fail("space 0", "must be GO")
    for gid in groups:
        if not any(s.group == gid for s in spaces):
            raise fail(f"group {gid}", "no street belongs to it")
    railroads = sum(1 for s in spaces if s.kind == "railroad")
    if railroads and len(file.rules.railroad_rent) != railroads:
        raise fail("rules", f"railroad_rent must be a list of {railroads} whole numbers >= 0 (one rent for each railroad "
                            f"held), not {list(file.rules.railroad_rent)!r}")

    for lang, words in file.words.items():
        if lang not in PLURAL_FORMS:
            raise fail(f"words.{lang}", f"unknown language; words are given for {', '.join(PLURAL_FORMS)}")
        for kind in ("railroad", "utility"):
            word = getattr(words, kind)
            if word is not None and len(word.forms) != PLURAL_FORMS[lang]:
                raise fail(f"words.{lang}.{kind}", f"forms must be {PLURAL_FORMS[lang]} plural forms in {lang}, "
                                                   f"not {len(word.forms)}")

    cards: dict[str, Card] = {}
    for raw in file.cards:
        if raw.id in cards:
            raise fail(f"card {raw.id}", "id used twice")
        effect = raw.effect
        if isinstance(effect, _Advance) and effect.to >= len(spaces):
            raise fail(f"card {raw.id}", f"advance to {effect.to}: no such space")
        cards[raw.id] = Card(id=raw.id, deck=raw.deck, text=raw.text, effect=msgspec.to_builtins(effect))
    return Edition(
        id=file.id,
        name=file.name,
        language=file.language,
        rule_book=file.rule_book,
        variants=file.variants,
        money=file.money,
        start_cash=file.start_cash,
        salary=file.salary,
        jail_fine=file.jail_fine,
        houses=file.houses,
        hotels=file.hotels,
        rules=file.rules,
        groups=groups,
        spaces=spaces,
        cards=cards,
        decks={"chance": file.decks.chance, "chest": file.decks.chest},
        source=source,
        min_players=file.min_players,
        max_players=file.max_players,
        words=dict(file.words),
    )


#: the most deeds a variant may deal each player at the start (``deal_deeds``; printed: 2): a board's 28 deeds dealt
#: between two players
DEAL_LIMIT = 14
#: the longest description of a variant (the longest shipped: some 190 characters)
DESCRIPTION_LIMIT = 400


def variant_problem(variant: Variant) -> str | None:
    """Why ``variant`` (a ``[[variant]]`` of variants.toml) cannot be played, or None: its id or name not one line of
    plain text of at most :data:`NAME_LIMIT` characters (each is said in messages and typed on the command line), a
    description of more than :data:`DESCRIPTION_LIMIT` characters, or a number no rule book prints and the game would do
    nonsense with: more than :data:`DEAL_LIMIT` deeds dealt (10**9 had the deal's plan count through a billion rounds),
    more than 4 houses before a hotel (the rent of a sixth house was looked up past a deed's six rents), a start cash
    bonus no table counts (:data:`START_CASH_LIMIT`), an end at more bankruptcies than :data:`PLAYERS_LIMIT` players can
    have. Checked on every read of variants.toml (:func:`variants_from_dict`): the file is banker's own."""
    for key, article in (("id", "an"), ("name", "a")):
        problem = line_problem(key, getattr(variant, key), it=f"{article} {key}")
        if problem:
            return problem
    if len(variant.description) > DESCRIPTION_LIMIT:
        return f"description has {len(variant.description)} characters, at most {DESCRIPTION_LIMIT}"
    rents = len(RENT_NAMES) - 2
    hbh = variant.houses_before_hotel
    most_bankrupt = PLAYERS_LIMIT - 1
    problems = [
        f"deal_deeds {_n(variant.deal_deeds)} is more than {DEAL_LIMIT}: a board's 28 deeds dealt between two players "
        "(printed: 2)" if variant.deal_deeds > DEAL_LIMIT else None,
        f"houses_before_hotel {_n(hbh)} is more than {rents}: a deed prints the rent for 1 to {rents} houses, then a "
        "hotel's (printed: 3 in the short game)" if hbh is not None and hbh > rents else None,
        f"start_cash_bonus {_n(variant.start_cash_bonus)} is more than {START_CASH_LIMIT:,}: no table counts that much "
        "(printed: 1000 with the Speed Die)" if variant.start_cash_bonus > START_CASH_LIMIT else None,
        f"end_at_bankruptcy {_n(variant.end_at_bankruptcy)} is more than {most_bankrupt}: of at most {PLAYERS_LIMIT} "
        f"players, one is left at the {most_bankrupt}th bankruptcy (printed: 2; 0 ends the game when one is left)"
        if variant.end_at_bankruptcy > most_bankrupt else None,
    ]
    return next((p for p in problems if p), None)


def variants_from_dict(data: Mapping[str, Any], source: str = "<data>") -> dict[str, Variant]:
    """The variants of a variants file (``[[variant]]`` tables) by id; raises :class:`BoardError` naming the file, the
    variant and the problem: a mistake of the schema, a text holding a control character (:func:`control_text`), a
    name or a number the game cannot play with (:func:`variant_problem`), an id used twice."""
    def fail(where: str, problem: str) -> BoardError:
        return BoardError(f"{source}: {where}: {problem}", "invalid", source=source, where=where, problem=problem)

    out: dict[str, Variant] = {}
    variants = _convert(data, _VariantsFile, source).variant
    control = control_text(data)
    if control:
        raise fail(*control)
    for i, variant in enumerate(variants):
        where = f"variant {variant.id}" if line_problem("id", variant.id) is None else f"variant {i + 1} in the file"
        problem = variant_problem(variant)
        if problem:
            raise fail(where, problem)
        if variant.id in out:
            raise fail(where, "id used twice")
        out[variant.id] = variant
    return out
