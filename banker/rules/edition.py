"""Editions, variants and house rules as data.

An :class:`Edition` is built from a plain mapping (parsed from a board file under
``banker/boards/``) and validated here, so that a mistake in a board file is refused
with a message naming the file, the space and the problem. Every difference between
the rule books is a field of :class:`EditionRules` or :class:`Variant`; the engine never
asks which edition it is playing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .errors import BoardError

PROPERTY_KINDS = ("street", "railroad", "utility")
SPACE_KINDS = PROPERTY_KINDS + ("go", "jail", "free_parking", "go_to_jail", "tax", "chance", "chest")
DECKS = ("chance", "chest")
CARD_EFFECTS = {
    # type: required integer fields
    "collect": ("amount",),
    "pay": ("amount",),
    "pay_each_player": ("amount",),
    "collect_from_each_player": ("amount",),
    "repairs": ("house", "hotel"),
    "advance": ("to",),
    "advance_nearest": (),
    "back": ("spaces",),
    "go_to_jail": (),
    "jail_card": (),
    # a choice printed on the card: pay the amount to the bank, or draw a card of ``deck``
    "pay_or_draw": ("amount",),
}
#: from this size on an amount is shown as a power of ten (see Money)
HUGE_AMOUNT = 10**30
HOTEL_SALES = ("break_down", "exchange", "exchange_or_whole")
BANKRUPT_TO_BANK = ("auction_all",)


@dataclass(frozen=True)
class Group:
    id: str
    name: str
    color: str


@dataclass(frozen=True)
class Space:
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


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    text: str
    effect: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return str(self.effect["type"])

    @property
    def moves_money(self) -> bool:
        t = self.kind
        if t == "advance":
            return True  # salary when passing GO
        return t not in ("back", "go_to_jail", "jail_card", "advance_nearest")

    @property
    def choices(self) -> tuple[str, ...]:
        """The choices printed on the card (``"choice"`` in the command), or () for none."""
        return ("pay", "draw") if self.kind == "pay_or_draw" else ()


@dataclass(frozen=True)
class EditionRules:
    """The quirks that differ between rule books (see shared/rules/README.md)."""

    #: double rent on unmortgaged lots of a full group even if another lot is mortgaged
    monopoly_rent_with_mortgaged_lot: bool = False
    houses_before_hotel: int = 4
    #: what selling a hotel means: "break_down" (a hotel counts as five houses and
    #: may be broken down to what the bank can supply), "exchange" (half its price,
    #: exchanged for the houses it replaced), "exchange_or_whole" (exchange, or sell
    #: the hotel with its houses at once for half of all of them)
    hotel_sale: str = "exchange"
    #: a hotel sold whole (not exchanged for houses) takes every hotel of its group with it,
    #: in one sale (RU 2004: "Все Отели одной цветовой группы должны продаваться одновременно")
    hotels_sold_whole_together: bool = False
    #: lowest bid in a building-shortage auction: "one" or "printed" (house cost)
    building_auction_start: str = "one"
    property_auction_min_bid: int = 1
    #: bankrupt to a player: raise everything first (sell buildings, mortgage every
    #: deed; the creditor receives the cash and the mortgaged deeds), as UK/Kyiv read
    bankrupt_to_player_mortgages_first: bool = False
    #: a creditor may accept deeds instead of cash at an agreed value (RU 2004)
    debt_payable_in_kind: bool = False
    railroad_rent: tuple[int, ...] = (25, 50, 100, 200)
    utility_multipliers: tuple[int, ...] = (4, 10)
    nearest_railroad_multiplier: int = 2
    nearest_utility_multiplier: int = 10
    interest_percent: int = 10


@dataclass(frozen=True)
class Money:
    symbol: str = "$"
    format: str = "{symbol}{amount}"
    thousands: str = ","
    unit: str = ""

    def __call__(self, amount: int) -> str:
        sign = "-" if amount < 0 else ""
        if abs(amount) >= HUGE_AMOUNT:
            # only in a log written before amounts were bounded (banker.rules.parse.amount_limit):
            # shown as its size, never converted whole (Python refuses ints of over 4,300 digits)
            digits = f"≈10^{int(math.log10(abs(amount)))}"
        else:
            digits = f"{abs(amount):,}".replace(",", self.thousands)
        return sign + self.format.format(symbol=self.symbol, amount=digits)


@dataclass(frozen=True)
class Edition:
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

    def space(self, position: int) -> Space:
        return self.spaces[position]

    @property
    def properties(self) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces if s.is_property)

    def group_lots(self, group: str) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces if s.group == group)

    def fmt(self, amount: int) -> str:
        return self.money(amount)

    def deck_cards(self, deck: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards.values() if c.deck == deck)


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    #: deeds dealt to each player at the start, paid at the printed price
    deal_deeds: int = 0
    #: replaces the edition's houses before a hotel when set
    houses_before_hotel: int | None = None
    start_cash_bonus: int = 0
    #: the game ends at this many bankruptcies (0: when one player is left)
    end_at_bankruptcy: int = 0
    #: the game ends at an agreed time
    timed: bool = False
    speed_die: bool = False
    description: str = ""


@dataclass(frozen=True)
class HouseRules:
    """House rules: off by default, recorded in the session when on."""

    #: taxes, fines and card payments to the bank go to a pot on Free Parking,
    #: collected by whoever lands there
    free_parking_pot: bool = False
    #: salary doubled for landing exactly on GO
    go_landing_bonus: bool = False

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> HouseRules:
        data = dict(data or {})
        unknown = sorted(set(data) - set(cls.names()))
        if unknown:
            raise ValueError(
                f"unknown house rule {', '.join(unknown)}; known: {', '.join(cls.names())}"
            )
        for k, v in data.items():
            if not isinstance(v, bool):
                raise ValueError(f"house rule {k} must be true or false, not {v!r}")
        return cls(**data)

    def to_mapping(self) -> dict[str, bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# --------------------------------------------------------------------------- loading


class _Check:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> None:
        raise BoardError(f"{self.source}: {where}: {problem}")

    def int_(self, data: Mapping[str, Any], key: str, where: str, minimum: int = 0) -> int:
        if key not in data:
            self.fail(where, f"missing {key}")
        value = data[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            self.fail(where, f"{key} must be a whole number >= {minimum}, not {value!r}")
        return value

    def str_(self, data: Mapping[str, Any], key: str, where: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(where, f"missing {key}")
        return value


def _space(check: _Check, raw: Mapping[str, Any], groups: Mapping[str, Group]) -> Space:
    pos = raw.get("position")
    where = f"space {pos}" if pos is not None else "a space"
    pos = check.int_(raw, "position", where)
    kind = raw.get("kind")
    if kind not in SPACE_KINDS:
        check.fail(where, f"unknown kind {kind!r}; one of {', '.join(SPACE_KINDS)}")
    name = check.str_(raw, "name", where)
    where = f"space {pos} ({name})"
    kw: dict[str, Any] = {"position": pos, "kind": kind, "name": name,
                          "name_editable": bool(raw.get("name_editable", False))}
    if kind in PROPERTY_KINDS:
        kw["price"] = check.int_(raw, "price", where, 1)
        kw["mortgage"] = check.int_(raw, "mortgage", where, 1)
    if kind == "street":
        group = raw.get("group")
        if group not in groups:
            check.fail(where, f"unknown group {group!r}; groups are {', '.join(groups)}")
        kw["group"] = group
        rent = raw.get("rent")
        if not isinstance(rent, list) or len(rent) != 6:
            check.fail(where, "missing rent: a street needs 6 rents (bare lot, 1-4 houses, hotel)")
        for r in rent:
            if not isinstance(r, int) or isinstance(r, bool) or r < 0:
                check.fail(where, f"rent must be whole numbers, not {r!r}")
        kw["rent"] = tuple(rent)
        kw["house_cost"] = check.int_(raw, "house_cost", where, 1)
    elif kind in ("railroad", "utility"):
        kw["group"] = kind
    elif kind == "tax":
        kw["tax"] = check.int_(raw, "tax", where, 1)
        if "tax_percent" in raw:
            kw["tax_percent"] = check.int_(raw, "tax_percent", where, 1)
    return Space(**kw)


def _card(check: _Check, raw: Mapping[str, Any], spaces: tuple[Space, ...]) -> Card:
    cid = raw.get("id", "?")
    where = f"card {cid}"
    cid = check.str_(raw, "id", where)
    deck = raw.get("deck")
    if deck not in DECKS:
        check.fail(where, f"deck must be one of {', '.join(DECKS)}, not {deck!r}")
    text = check.str_(raw, "text", where)
    effect = raw.get("effect")
    if not isinstance(effect, Mapping) or effect.get("type") not in CARD_EFFECTS:
        check.fail(where, f"effect.type must be one of {', '.join(CARD_EFFECTS)}")
    for key in CARD_EFFECTS[effect["type"]]:
        check.int_(effect, key, where + " effect", 0)
    if effect["type"] == "advance":
        to = effect["to"]
        if not 0 <= to < len(spaces):
            check.fail(where, f"advance to {to}: no such space")
    if effect["type"] == "advance_nearest" and effect.get("kind") not in ("railroad", "utility"):
        check.fail(where, "advance_nearest needs kind = railroad or utility")
    if effect["type"] == "pay_or_draw" and effect.get("deck") not in DECKS:
        check.fail(where, f"pay_or_draw needs deck = {' or '.join(DECKS)}")
    return Card(id=cid, deck=deck, text=text, effect=dict(effect))


def edition_from_dict(data: Mapping[str, Any], source: str = "<data>") -> Edition:
    """Build and validate an edition; raises :class:`BoardError` naming the problem."""
    check = _Check(source)
    eid = check.str_(data, "id", "header")
    money_raw = data.get("money") or {}
    if not isinstance(money_raw, Mapping):
        check.fail("money", "must be a table")
    money = Money(
        symbol=str(money_raw.get("symbol", "$")),
        format=str(money_raw.get("format", "{symbol}{amount}")),
        thousands=str(money_raw.get("thousands", ",")),
        unit=str(money_raw.get("unit", "")),
    )
    try:
        money(1500)
    except (KeyError, IndexError, ValueError) as exc:
        check.fail("money", f"bad format {money.format!r}: {exc}")
    rules_raw = dict(data.get("rules") or {})
    known = {f.name for f in fields(EditionRules)}
    unknown = sorted(set(rules_raw) - known)
    if unknown:
        check.fail("rules", f"unknown rule {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    for key in ("railroad_rent", "utility_multipliers"):
        if key in rules_raw:
            rules_raw[key] = tuple(rules_raw[key])
    rules = EditionRules(**rules_raw)
    if rules.hotel_sale not in HOTEL_SALES:
        check.fail("rules", f"hotel_sale must be one of {', '.join(HOTEL_SALES)}")
    if rules.building_auction_start not in ("one", "printed"):
        check.fail("rules", "building_auction_start must be one or printed")
    if len(rules.utility_multipliers) != 2:
        check.fail("rules", "utility_multipliers needs two numbers (one utility, both)")

    groups: dict[str, Group] = {}
    for raw in data.get("groups") or []:
        gid = check.str_(raw, "id", "a group")
        groups[gid] = Group(id=gid, name=check.str_(raw, "name", f"group {gid}"),
                            color=str(raw.get("color", "white")))
    raw_spaces = data.get("spaces") or []
    if len(raw_spaces) != 40:
        check.fail("spaces", f"a board has 40 spaces, this file has {len(raw_spaces)}")
    spaces = tuple(_space(check, raw, groups) for raw in raw_spaces)
    for i, s in enumerate(spaces):
        if s.position != i:
            check.fail(f"space {s.position} ({s.name})", f"listed at place {i}: positions must run 0-39 in order")
    if spaces[0].kind != "go":
        check.fail("space 0", "must be GO")
    for gid in groups:
        if not any(s.group == gid for s in spaces):
            check.fail(f"group {gid}", "no street belongs to it")
    cards: dict[str, Card] = {}
    for raw in data.get("cards") or []:
        card = _card(check, raw, spaces)
        if card.id in cards:
            check.fail(f"card {card.id}", "id used twice")
        cards[card.id] = card
    decks_raw = data.get("decks") or {}
    decks = {d: str(decks_raw.get(d, d.title())) for d in DECKS}
    variants = tuple(data.get("variants") or ("classic",))
    min_players = check.int_(data, "min_players", "header", 2) if "min_players" in data else 2
    max_players = check.int_(data, "max_players", "header", min_players) if "max_players" in data else 8
    return Edition(
        id=eid,
        name=check.str_(data, "name", "header"),
        language=str(data.get("language", "en")),
        rule_book=str(data.get("rule_book", "")),
        variants=variants,
        money=money,
        start_cash=check.int_(data, "start_cash", "header", 1),
        salary=check.int_(data, "salary", "header", 0),
        jail_fine=check.int_(data, "jail_fine", "header", 0),
        houses=check.int_(data, "houses", "header", 0),
        hotels=check.int_(data, "hotels", "header", 0),
        rules=rules,
        groups=groups,
        spaces=spaces,
        cards=cards,
        decks=decks,
        source=source,
        min_players=min_players,
        max_players=max_players,
    )


def variant_from_dict(data: Mapping[str, Any], source: str = "<data>") -> Variant:
    known = {f.name for f in fields(Variant)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise BoardError(f"{source}: variant {data.get('id', '?')}: unknown setting {', '.join(unknown)}")
    try:
        return Variant(**data)
    except TypeError as exc:
        raise BoardError(f"{source}: variant {data.get('id', '?')}: {exc}") from None
