"""The state of the bank at one moment, and the push/pop of commands onto it.

Modelled on python-chess's ``Board``: :meth:`GameState.push` applies a command (a typed
:mod:`banker.rules.ops` command, or its JSON object) or refuses it with :class:`Refused` leaving
the state untouched; :meth:`GameState.pop` takes the last move back; :meth:`GameState.preview`
is the two together: what a command would do, the state unchanged. Nothing else: undoing with a
reason is the session log's (it pops, then records the reversal).

Every change is an *effect* (:mod:`banker.rules.effects`, such as ``Pay(src="Ann", dst="bank",
amount=200, why="tax")``, stored as ``{"t": "pay", "from": "Ann", "to": "bank", "amount": 200,
"for": "tax"}``); a command's effects are exactly what the session log stores, and popping a move
applies their inverses in reverse order. Which handler runs a command is
:mod:`banker.rules.engine`'s business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

from msgspec import Struct, field

from .edition import Edition, HouseRules, Space, Variant
from .effects import (
    Bankruptcy,
    BankruptcyUndone,
    Claim,
    Dealt,
    Debt,
    Effect,
    Hotel,
    Houses,
    JailCardHolder,
    Mortgaged,
    Owner,
    Pay,
    Pending,
    Result,
    Stock,
    decode_effects,
    invert,
)
from .engine import read, run
from .errors import Refused
from .messages import Msg, render_parts, shown
from .names import (
    BANK,
    FORBIDDEN_CATEGORIES,
    NAME_LIMIT,
    POT,
    RESERVED,
    RESERVED_NAMES,
    TEXT_LIMIT,
    check_text,
    forbidden_char,
    name_key,
    new_players,
)
from .ops import Command, decode
from .raising import max_raisable
from .valuation import net_worth

__all__ = [
    "BANK", "FORBIDDEN_CATEGORIES", "NAME_LIMIT", "POT", "RESERVED", "RESERVED_NAMES", "TEXT_LIMIT", "GameState", "History",
    "Lot", "Move", "Setup", "Tx", "apply_effects", "check_text", "forbidden_char", "invert", "name_key", "new_players",
]


@dataclass
class Lot:
    """What the bank knows about one deed: owner, buildings, mortgage."""

    owner: str | None = None
    houses: int = 0
    hotel: bool = False
    mortgaged: bool = False


@dataclass(frozen=True)
class Setup:
    edition: str
    variant: str
    players: tuple[str, ...]
    house_rules: HouseRules = HouseRules()
    end_time: str | None = None  # the agreed end of a timed game, as given

    def to_mapping(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "variant": self.variant,
            "players": list(self.players),
            "house_rules": self.house_rules.to_mapping(),
            "end_time": self.end_time,
        }

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Setup:
        return cls(
            edition=str(data["edition"]),
            variant=str(data["variant"]),
            players=tuple(data["players"]),
            house_rules=HouseRules.from_mapping(data.get("house_rules")),
            end_time=data.get("end_time"),
        )

    def for_new_game(self) -> Setup:
        """This setup with its players checked by today's rules for a *new* session (NFC names, no
        control or invisible characters, not too long, not the bank's words, no two alike); raises
        :class:`Refused`. Called where a session is created: a recorded session replays with the
        names it was created with, even if they would be refused today."""
        if self.end_time is not None:
            if not isinstance(self.end_time, str):
                raise Refused("input", Msg("input.text", op="new", key="end_time", value=shown(self.end_time)))
            check_text("new", "end_time", self.end_time)
        return replace(self, players=new_players(self.players))


class Move(Struct, frozen=True, kw_only=True):
    """A command applied: what was asked, what changed, and a sentence for the log.

    The sequence number and what a reversal undoes belong to the session log's entry, not here."""

    command: Command
    effects: list[Effect]  # a list, so that msgspec.to_builtins(move.effects) equals the logged JSON
    parts: list[dict[str, Any]]  # the description as message JSONs (banker.rules.messages)
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The description in English (the log stores ``parts`` for other languages)."""
        return render_parts(self.parts)

    @classmethod
    def recorded(cls, command: Command | Mapping[str, Any], effects: Iterable[Effect | Mapping[str, Any]],
                 parts: Iterable[Mapping[str, Any]], info: Mapping[str, Any] | None = None) -> Move:
        """A move as a log recorded it (its command and effects may be the logged JSON objects,
        decoded as a replay: :class:`Refused` if they cannot be)."""
        return cls(command=decode(command, replay=True), effects=decode_effects(effects), parts=[dict(p) for p in parts],
                   info=dict(info or {}))


class History(Sequence[Move]):
    """The stack of moves (:attr:`GameState.history`): a list, except that the moves at its
    bottom may be made only when they are read (``lazy`` of them, by ``load(i)``), so that a
    state restored from a session's checkpoint (banker.rules.snapshot) does not decode every old
    move before it is shown; :meth:`GameState.pop` reads the one it takes back."""

    __slots__ = ("_moves", "_load")

    def __init__(self, moves: Iterable[Move] = (), *, lazy: int = 0, load: Callable[[int], Move] | None = None) -> None:
        if lazy and load is None:
            raise ValueError("a lazy history needs load")
        self._moves: list[Move | None] = [None] * lazy
        self._moves.extend(moves)
        self._load = load

    def _get(self, i: int) -> Move:
        move = self._moves[i]
        if move is None:
            assert self._load is not None
            move = self._moves[i] = self._load(i)
        return move

    def __len__(self) -> int:
        return len(self._moves)

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self._get(k) for k in range(len(self._moves))[i]]
        return self._get(range(len(self._moves))[i])

    def __iter__(self) -> Iterator[Move]:
        return (self._get(i) for i in range(len(self._moves)))

    def append(self, move: Move) -> None:
        self._moves.append(move)

    def pop(self) -> Move:
        if not self._moves:
            raise IndexError("pop from an empty history")
        move = self._get(len(self._moves) - 1)
        self._moves.pop()
        return move

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        made = sum(m is not None for m in self._moves)
        return f"<History of {len(self._moves)} moves, {made} made>"


class Tx:
    """Collects a command's effects, applying each at once so later checks see it."""

    __slots__ = ("state", "effects", "parts", "info", "debt_before")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.effects: list[Effect] = []
        self.parts: list[Msg] = []
        self.info: dict[str, Any] = {}
        self.debt_before = {p: bool(c) for p, c in state.debts.items()}

    def add(self, effect: Effect) -> None:
        self.state.apply(effect)
        self.effects.append(effect)

    def say(self, key: str, **params: Any) -> None:
        """Add a sentence to the command's description."""
        self.parts.append(Msg(key, **params))

    def rollback(self) -> None:
        for e in reversed(self.effects):
            self.state.unapply(e)
        self.effects.clear()

    # -- primitives -------------------------------------------------------------
    def pay(self, src: str, dst: str, amount: int, why: str) -> None:
        if amount > 0:
            self.add(Pay(src=src, dst=dst, amount=amount, why=why))

    def owner(self, pos: int, new: str | None) -> None:
        old = self.state.lots[pos].owner
        if old != new:
            self.add(Owner(space=pos, old=old, new=new))

    def mortgaged(self, pos: int, new: bool) -> None:
        old = self.state.lots[pos].mortgaged
        if old != new:
            self.add(Mortgaged(space=pos, old=old, new=new))

    def houses(self, pos: int, new: int) -> None:
        old = self.state.lots[pos].houses
        if old != new:
            self.add(Houses(space=pos, old=old, new=new))

    def hotel(self, pos: int, new: bool) -> None:
        old = self.state.lots[pos].hotel
        if old != new:
            self.add(Hotel(space=pos, old=old, new=new))

    def stock(self, houses: int = 0, hotels: int = 0) -> None:
        if houses or hotels:
            self.add(Stock(houses=houses, hotels=hotels))

    def jail_card(self, card: str, new: str | None) -> None:
        old = self.state.jail_cards[card]
        if old != new:
            self.add(JailCardHolder(card=card, old=old, new=new))

    def debt(self, player: str, new: Sequence[Claim]) -> None:
        old = list(self.state.debts.get(player, []))
        if old != list(new):
            self.add(Debt(player=player, old=old, new=list(new)))

    def pending(self, pos: int, new: bool) -> None:
        old = pos in self.state.pending_auction
        if old != new:
            self.add(Pending(space=pos, old=old, new=new))

    def dealt(self, player: str, new: int) -> None:
        old = self.state.dealt.get(player, 0)
        if old != new:
            self.add(Dealt(player=player, old=old, new=new))

    def bankrupt(self, player: str, creditor: str) -> None:
        self.add(Bankruptcy(player=player, creditor=creditor))

    def result(self, new: dict[str, Any]) -> None:
        self.add(Result(game="result", old=self.state.result, new=new))


class GameState:
    """The whole bank: cash, deeds, buildings, debts, jail cards, and the history.

    Every attribute is declared here with its type: a session's checkpoint stores the state by
    these declarations (banker.rules.snapshot: all but those made from the setup and the history),
    and a test compares every attribute of a state restored that way with the full replay's."""

    setup: Setup
    edition: Edition
    variant: Variant
    house_rules: HouseRules
    players: tuple[str, ...]
    cash: dict[str, int]
    bank_balance: int
    pot: int
    bank_houses: int
    bank_hotels: int
    lots: dict[int, Lot]
    jail_cards: dict[str, str | None]
    debts: dict[str, list[Claim]]
    bankrupt: list[str]
    bankrupt_to: dict[str, str]
    dealt: dict[str, int]
    pending_auction: set[int]
    result: dict[str, Any] | None
    history: History

    def __init__(self, setup: Setup, edition: Edition, variant: Variant) -> None:
        if variant.id not in edition.variants:
            raise Refused("variant", Msg("setup.variant", edition=edition.name, variant=variant.name.lower(),
                                         variants=list(edition.variants)))
        players = list(setup.players)
        if not edition.min_players <= len(players) <= edition.max_players:
            raise Refused("players", Msg("setup.count", edition=edition.name, low=edition.min_players,
                                         high=edition.max_players, n=len(players)))
        seen: set[str] = set()
        for name in players:
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise Refused("players", Msg("setup.name", name=repr(name)))
            if name.lower() in RESERVED:
                raise Refused("players", Msg("setup.reserved", name=repr(name)))
            if name.casefold() in seen:
                raise Refused("players", Msg("setup.same", name=repr(name)))
            seen.add(name.casefold())
        self.setup = setup
        self.edition = edition
        self.variant = variant
        self.house_rules: HouseRules = setup.house_rules
        self.players: tuple[str, ...] = tuple(players)
        start = edition.start_cash + variant.start_cash_bonus
        self.cash: dict[str, int] = {p: start for p in players}
        self.bank_balance = -start * len(players)  # what the bank has paid out, net
        self.pot = 0
        self.bank_houses = edition.houses
        self.bank_hotels = edition.hotels
        self.lots: dict[int, Lot] = {s.position: Lot() for s in edition.properties}
        self.jail_cards: dict[str, str | None] = {
            c.id: None for c in edition.cards.values() if c.kind == "jail_card"
        }
        self.debts: dict[str, list[Claim]] = {}
        self.bankrupt: list[str] = []
        self.bankrupt_to: dict[str, str] = {}
        self.dealt: dict[str, int] = {}
        self.pending_auction: set[int] = set()
        self.result: dict[str, Any] | None = None
        self.history = History()

    # ----------------------------------------------------------------- effects
    def _money(self, account: str, delta: int) -> None:
        if account == BANK:
            self.bank_balance += delta
        elif account == POT:
            self.pot += delta
        else:
            self.cash[account] += delta
            if self.cash[account] < 0:  # pragma: no cover - an engine bug, never a user error
                raise AssertionError(f"{account}'s cash went below zero")

    def apply(self, e: Effect) -> None:
        """Make one change (the rules are not consulted: see :meth:`push`)."""
        self._change(e, False)

    def unapply(self, e: Effect) -> None:
        """Take one change back."""
        self._change(e, True)

    def _change(self, e: Effect, inverse: bool) -> None:
        if isinstance(e, Pay):
            src, dst = (e.dst, e.src) if inverse else (e.src, e.dst)
            self._money(dst, e.amount)
            self._money(src, -e.amount)
        elif isinstance(e, Stock):
            sign = -1 if inverse else 1
            self.bank_houses += sign * e.houses
            self.bank_hotels += sign * e.hotels
        elif isinstance(e, Owner):
            self.lots[e.space].owner = e.old if inverse else e.new
        elif isinstance(e, Houses):
            self.lots[e.space].houses = e.old if inverse else e.new
        elif isinstance(e, Debt):
            value = e.old if inverse else e.new
            if value:
                self.debts[e.player] = list(value)
            else:
                self.debts.pop(e.player, None)
        elif isinstance(e, Mortgaged):
            self.lots[e.space].mortgaged = e.old if inverse else e.new
        elif isinstance(e, Hotel):
            self.lots[e.space].hotel = e.old if inverse else e.new
        elif isinstance(e, JailCardHolder):
            self.jail_cards[e.card] = e.old if inverse else e.new
        elif isinstance(e, Bankruptcy | BankruptcyUndone):
            if inverse == isinstance(e, Bankruptcy):  # a bankruptcy taken back, or an undone one applied
                self.bankrupt.remove(e.player)
                del self.bankrupt_to[e.player]
            else:
                self.bankrupt.append(e.player)
                self.bankrupt_to[e.player] = e.creditor
        elif isinstance(e, Dealt):
            self.dealt[e.player] = e.old if inverse else e.new
        elif isinstance(e, Pending):
            if e.old if inverse else e.new:
                self.pending_auction.add(e.space)
            else:
                self.pending_auction.discard(e.space)
        elif isinstance(e, Result):
            self.result = e.old if inverse else e.new
        else:  # pragma: no cover
            raise TypeError(f"unknown effect {e!r}")

    # ----------------------------------------------------------------- push/pop
    def push(self, command: Command | Mapping[str, Any], *, replay: bool = False) -> Move:
        """Apply one command; on refusal nothing changes and :class:`Refused` is raised.

        A new command first meets today's input limits (:func:`banker.rules.parse.check_command`:
        amounts a table can hold, text without control characters...), then is decoded strictly
        (:func:`banker.rules.ops.decode`: an unknown key is refused). ``replay=True`` is for a
        command already in a session log: it was accepted when it was recorded, and replays as it did.
        """
        cmd = read(self, command, replay=replay)
        tx = Tx(self)
        try:
            run(self, tx, cmd)
        except BaseException:
            tx.rollback()
            raise
        move = Move(command=cmd, effects=tx.effects, parts=[m.to_json() for m in tx.parts], info=tx.info)
        self.history.append(move)
        return move

    def pop(self) -> Move:
        """Take back the last move (python-chess style); returns it."""
        if not self.history:
            raise Refused("undo-empty", Msg("undo.empty"))
        move = self.history.pop()
        for e in reversed(move.effects):
            self.unapply(e)
        return move

    def preview(self, command: Command | Mapping[str, Any]) -> Move:
        """What :meth:`push` would do, the state left as it was: the same :class:`Move`, or the same
        :class:`Refused` (the confirmation, the trade screen, the bankruptcy preview)."""
        move = self.push(command)
        self.pop()
        return move

    def push_effects(self, command: Command | Mapping[str, Any], effects: Iterable[Effect | Mapping[str, Any]],
                     parts: Iterable[Mapping[str, Any]], info: Mapping[str, Any] | None = None) -> Move:
        """Put a recorded move on the stack from its logged effects, without running the rules
        (opening a session from its log; the replay through the rules is the check). ``pop`` takes
        it back like any other move. ``command`` and ``effects`` may be the logged JSON objects
        (decoded as a replay: :class:`Refused` if they cannot be); on a refusal nothing changes."""
        move = Move.recorded(command, effects, parts, info)
        done: list[Effect] = []
        try:
            for e in move.effects:
                self.apply(e)
                done.append(e)
        except BaseException:
            for e in reversed(done):
                self.unapply(e)
            raise
        self.history.append(move)
        return move

    # ----------------------------------------------------------------- queries
    @property
    def houses_before_hotel(self) -> int:
        return self.variant.houses_before_hotel or self.edition.rules.houses_before_hotel

    @property
    def active_players(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.bankrupt)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> str | None:
        return self.result.get("winner") if self.result else None

    def deeds_of(self, player: str) -> list[int]:
        return [pos for pos, lot in self.lots.items() if lot.owner == player]

    def level(self, pos: int) -> int:
        """Buildings on a lot as a number of steps: a hotel is one step above the houses."""
        lot = self.lots[pos]
        return self.houses_before_hotel + 1 if lot.hotel else lot.houses

    def group_positions(self, group: str | None) -> list[int]:
        return [s.position for s in self.edition.spaces if s.group == group]

    def group_name(self, space: Space) -> str:
        """The name of ``space``'s colour group (a street's; "" for a space of no group)."""
        return self.edition.groups[space.group].name if space.group is not None else ""

    def owns_group(self, player: str, group: str | None) -> bool:
        return all(self.lots[p].owner == player for p in self.group_positions(group))

    def buildings_of(self, player: str) -> tuple[int, int]:
        houses = hotels = 0
        for lot in self.lots.values():
            if lot.owner == player:
                houses += lot.houses
                hotels += lot.hotel
        return houses, hotels

    def debt_total(self, player: str) -> int:
        return sum(c.amount for c in self.debts.get(player, []))

    def money_total(self) -> int:
        """Players' cash + the pot + the bank's ledger balance: always zero."""
        return sum(self.cash.values()) + self.pot + self.bank_balance

    def jail_cards_of(self, player: str) -> list[str]:
        return sorted(c for c, h in self.jail_cards.items() if h == player)

    def houses_out(self) -> int:
        return sum(lot.houses for lot in self.lots.values())

    def hotels_out(self) -> int:
        return sum(lot.hotel for lot in self.lots.values())

    # ------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        """The state as JSON (``banker state --json``; its fields: docs/commands.md)."""
        players = {}
        for p in self.players:
            claims = self.debts.get(p, [])
            debt = None
            if claims:
                debt = {
                    "creditor": claims[0].creditor,
                    "amount": sum(c.amount for c in claims),
                    "claims": [{"creditor": c.creditor, "amount": c.amount, "for": c.why} for c in claims],
                    "can_raise": max_raisable(self, p),
                }
            houses, hotels = self.buildings_of(p)
            players[p] = {
                "cash": self.cash[p],
                "jail_cards": len(self.jail_cards_of(p)),
                "jail_card_ids": self.jail_cards_of(p),
                "jail_card_decks": [self.edition.cards[c].deck for c in self.jail_cards_of(p)],
                "bankrupt": p in self.bankrupt,
                "debt": debt,
                "deeds": sorted(self.deeds_of(p)),
                "houses": houses,
                "hotels": hotels,
                "net_worth": net_worth(self, p),
            }
        spaces = {}
        for pos, lot in sorted(self.lots.items()):
            spaces[str(pos)] = {
                "name": self.edition.spaces[pos].name,
                "owner": lot.owner,
                "houses": lot.houses,
                "hotel": lot.hotel,
                "mortgaged": lot.mortgaged,
            }
        return {
            "edition": self.edition.id,
            "variant": self.variant.id,
            "house_rules": self.house_rules.to_mapping(),
            "players": players,
            "order": list(self.players),
            "spaces": spaces,
            "bank": {"houses": self.bank_houses, "hotels": self.bank_hotels, "paid_out": -self.bank_balance},
            "free_parking_pot": self.pot,
            "pending_auction": sorted(self.pending_auction),
            "bankruptcies": [{"player": p, "creditor": self.bankrupt_to[p]} for p in self.bankrupt],
            "winner": self.winner,
            "result": self.result,
            "actions": len(self.history),
        }


def apply_effects(state: GameState, effects: Iterable[Effect | Mapping[str, Any]]) -> None:
    """Apply logged effects directly (used by reviews and to open a log; replays recompute).
    An effect may be the logged JSON object or a typed :class:`~banker.rules.effects.Effect`."""
    for e in decode_effects(effects):
        state.apply(e)
