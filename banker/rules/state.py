"""The state of the bank at one moment, and the push/pop of commands onto it.

Modelled on python-chess's ``Board``: :meth:`GameState.push` applies a command (plain
data, see :mod:`banker.rules.commands`) or refuses it with :class:`Refused` leaving the
state untouched; :meth:`GameState.pop` takes the last command back. Every change is
an *effect* (a small dict such as ``{"t": "pay", "from": "Ann", "to": "bank",
"amount": 200, "for": "tax"}``); a command's effects are exactly what the session log
stores, and undoing applies their inverses in reverse order.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .edition import Edition, HouseRules, Variant
from .errors import Refused
from .messages import Msg, render_parts, shown

BANK = "bank"
POT = "pot"  # the Free Parking pot (house rule)
RESERVED = {BANK, POT}
#: the longest player name a new game accepts, in characters: room for a first name and a
#: patronymic or surname ("Александра Владимировна" is 23), short enough for the console's and
#: the page's columns beside the cash
NAME_LIMIT = 32
#: what the bank and the pot are called in the log and on screen, in every interface language
#: (the engine catalogs' "the-bank"/"the-pot", the console's bank.name/bank.pot; a test keeps this
#: list in step with the catalogs): a new player may not take one of these names, compared as
#: :func:`name_key` compares names.
RESERVED_NAMES = frozenset({
    "bank", "the bank", "pot", "the pot", "free parking pot", "the free parking pot",
    "банк", "касса", "касса стоянки", "касса «бесплатная стоянка»", "каса", "каса «безкоштовне паркування»",
})
#: Unicode categories no name or text of a command may hold: controls (ESC, CR, LF, NUL, DEL, C1),
#: format characters (zero-width spaces and joiners, bidi overrides), lone surrogates (bytes that
#: were not UTF-8), and line / paragraph separators
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def forbidden_char(text: str) -> str | None:
    """The first character of ``text`` that no name or memo may hold, as ``U+XXXX``; else None."""
    for ch in text:
        if unicodedata.category(ch) in FORBIDDEN_CATEGORIES:
            return f"U+{ord(ch):04X}"
    return None


#: the longest text a command or a setup may carry (a memo, an undo reason, a session's name...), in characters
TEXT_LIMIT = 200


def check_text(op: str, key: str, text: str) -> None:
    """Refuse ``text`` (the field ``key`` of ``op``) if it is longer than :data:`TEXT_LIMIT` or holds a
    control or invisible character (see :data:`FORBIDDEN_CATEGORIES`)."""
    if len(text) > TEXT_LIMIT:
        raise Refused("input", Msg("input.too-long", op=op, key=key, n=len(text), limit=TEXT_LIMIT))
    bad = forbidden_char(text)
    if bad:
        raise Refused("input", Msg("input.control", op=op, key=key, char=bad))


def name_key(name: str) -> str:
    """What two names are compared by: NFKC-normalised, case-folded, spaces collapsed
    ("Zoë" typed two ways, "ＡＮＮ" and "ann", "Ann  Lee" and "Ann Lee" are the same name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def new_players(names: Iterable[Any]) -> tuple[str, ...]:
    """The players of a new game by today's rules, NFC-normalised; :class:`Refused` says which
    name is refused and why. Sessions already recorded keep their names (see :meth:`Setup.for_new_game`)."""
    players = list(names)  # how many: the edition's box decides (GameState checks it)
    out: list[str] = []
    seen: dict[str, str] = {}
    for name in players:
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise Refused("players", Msg("setup.name", name=shown(name)))
        bad = forbidden_char(name)
        if bad:
            raise Refused("players", Msg("setup.name-char", name=shown(name), char=bad))
        name = unicodedata.normalize("NFC", name)
        if len(name) > NAME_LIMIT:
            raise Refused("players", Msg("setup.name-long", name=shown(name), n=len(name), limit=NAME_LIMIT))
        key = name_key(name)
        if key in RESERVED_NAMES or key.removeprefix("the ") in RESERVED_NAMES:
            raise Refused("players", Msg("setup.reserved", name=repr(name)))
        if key in seen:
            if name.lower() == seen[key].lower():  # the same letters (once composed)
                raise Refused("players", Msg("setup.same", name=repr(name)))
            raise Refused("players", Msg("setup.same-as", name=repr(name), other=repr(seen[key])))
        seen[key] = name
        out.append(name)
    return tuple(out)


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


@dataclass
class Move:
    """A command applied: what was asked, what changed, and a sentence for the log."""

    command: dict[str, Any]
    effects: list[dict[str, Any]]
    parts: list[dict[str, Any]]  # the description as message JSONs (banker.rules.messages)
    info: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None  # set by the session log
    undoes: int | None = None  # for a reversal: the seq of the undone move

    @property
    def text(self) -> str:
        """The description in English (the log stores ``parts`` for other languages)."""
        return render_parts(self.parts)


class Tx:
    """Collects a command's effects, applying each at once so later checks see it."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.effects: list[dict[str, Any]] = []
        self.parts: list[Msg] = []
        self.info: dict[str, Any] = {}
        self.debt_before = {p: bool(c) for p, c in state.debts.items()}

    def add(self, effect: dict[str, Any]) -> None:
        self.state._apply(effect, inverse=False)
        self.effects.append(effect)

    def say(self, key: str, **params: Any) -> None:
        """Add a sentence to the command's description."""
        self.parts.append(Msg(key, **params))

    def rollback(self) -> None:
        for e in reversed(self.effects):
            self.state._apply(e, inverse=True)
        self.effects.clear()

    # -- primitives -------------------------------------------------------------
    def pay(self, src: str, dst: str, amount: int, why: str) -> None:
        if amount > 0:
            self.add({"t": "pay", "from": src, "to": dst, "amount": amount, "for": why})

    def set(self, kind: str, key: str, subject: Any, old: Any, new: Any) -> None:
        if old != new:
            self.add({"t": kind, key: subject, "old": old, "new": new})

    def owner(self, pos: int, new: str | None) -> None:
        self.set("owner", "space", pos, self.state.lots[pos].owner, new)

    def mortgaged(self, pos: int, new: bool) -> None:
        self.set("mortgaged", "space", pos, self.state.lots[pos].mortgaged, new)

    def houses(self, pos: int, new: int) -> None:
        self.set("houses", "space", pos, self.state.lots[pos].houses, new)

    def hotel(self, pos: int, new: bool) -> None:
        self.set("hotel", "space", pos, self.state.lots[pos].hotel, new)

    def stock(self, houses: int = 0, hotels: int = 0) -> None:
        if houses or hotels:
            self.add({"t": "stock", "houses": houses, "hotels": hotels})

    def jail_card(self, card: str, new: str | None) -> None:
        self.set("jail_card", "card", card, self.state.jail_cards[card], new)

    def debt(self, player: str, new: list[list[Any]]) -> None:
        self.set("debt", "player", player, [list(c) for c in self.state.debts.get(player, [])], new)

    def pending(self, pos: int, new: bool) -> None:
        self.set("pending", "space", pos, pos in self.state.pending_auction, new)


class GameState:
    """The whole bank: cash, deeds, buildings, debts, jail cards, and the history."""

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
        self.house_rules = setup.house_rules
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
        self.debts: dict[str, list[list[Any]]] = {}
        self.bankrupt: list[str] = []
        self.bankrupt_to: dict[str, str] = {}
        self.dealt: dict[str, int] = {}
        self.pending_auction: set[int] = set()
        self.result: dict[str, Any] | None = None
        self.history: list[Move] = []

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

    def _apply(self, e: Mapping[str, Any], inverse: bool) -> None:
        t = e["t"]
        if t == "pay":
            src, dst = (e["to"], e["from"]) if inverse else (e["from"], e["to"])
            self._money(dst, e["amount"])
            self._money(src, -e["amount"])
            return
        if t == "stock":
            sign = -1 if inverse else 1
            self.bank_houses += sign * e["houses"]
            self.bank_hotels += sign * e["hotels"]
            return
        if t == "bankrupt":
            if inverse:
                self.bankrupt.remove(e["player"])
                del self.bankrupt_to[e["player"]]
            else:
                self.bankrupt.append(e["player"])
                self.bankrupt_to[e["player"]] = e["creditor"]
            return
        value = e["old"] if inverse else e["new"]
        if t == "owner":
            self.lots[e["space"]].owner = value
        elif t == "mortgaged":
            self.lots[e["space"]].mortgaged = value
        elif t == "houses":
            self.lots[e["space"]].houses = value
        elif t == "hotel":
            self.lots[e["space"]].hotel = value
        elif t == "jail_card":
            self.jail_cards[e["card"]] = value
        elif t == "debt":
            if value:
                self.debts[e["player"]] = [list(c) for c in value]
            else:
                self.debts.pop(e["player"], None)
        elif t == "dealt":
            self.dealt[e["player"]] = value
        elif t == "pending":
            if value:
                self.pending_auction.add(e["space"])
            else:
                self.pending_auction.discard(e["space"])
        elif t == "result":
            self.result = value
        else:  # pragma: no cover
            raise ValueError(f"unknown effect {t!r}")

    # ----------------------------------------------------------------- push/pop
    def push(self, command: Mapping[str, Any], *, replay: bool = False) -> Move:
        """Apply one command; on refusal nothing changes and :class:`Refused` is raised.

        A new command first meets today's input limits (:func:`banker.rules.parse.check_command`:
        amounts a table can hold, text without control characters...). ``replay=True`` is for a
        command already in a session log: it was accepted when it was recorded, and replays as it did.
        """
        from . import commands, parse  # local import: both depend on this module

        if not isinstance(command, Mapping):
            raise Refused("input", Msg("input.not-object"))
        if not replay:
            parse.check_command(self, command)
        if command.get("op") == "undo":
            return self.undo(command.get("reason"))
        tx = Tx(self)
        try:
            commands.run(self, tx, command)
        except BaseException:
            tx.rollback()
            raise
        move = Move(command=dict(command), effects=tx.effects, parts=[m.to_json() for m in tx.parts], info=tx.info)
        self.history.append(move)
        return move

    def push_effects(self, command: Mapping[str, Any], effects: Iterable[Mapping[str, Any]],
                     parts: Iterable[Mapping[str, Any]], info: Mapping[str, Any] | None = None) -> Move:
        """Put a recorded move on the stack from its logged effects, without running the rules
        (opening a session from its log; the replay through the rules is the check). ``pop`` takes
        it back like any other move."""
        effects = [dict(e) for e in effects]
        apply_effects(self, effects)
        move = Move(command=dict(command), effects=effects, parts=[dict(p) for p in parts], info=dict(info or {}))
        self.history.append(move)
        return move

    def pop(self) -> Move:
        """Take back the last command (python-chess style); returns it."""
        if not self.history:
            raise Refused("undo-empty", Msg("undo.empty"))
        move = self.history.pop()
        for e in reversed(move.effects):
            self._apply(e, inverse=True)
        return move

    def undo(self, reason: Any) -> Move:
        """Undo the last action that still stands, as a reversal with a reason."""
        if not isinstance(reason, str) or not reason.strip():
            raise Refused("undo-reason", Msg("undo.reason"))
        undone = self.pop()
        reversal = Move(
            command={"op": "undo", "reason": reason.strip()},
            effects=[invert(e) for e in reversed(undone.effects)],
            parts=[Msg("log.undone", reason=reason.strip()).to_json(), *undone.parts],
            undoes=undone.seq,
        )
        reversal.info["undone_command"] = undone.command
        return reversal

    def is_legal(self, command: Mapping[str, Any]) -> bool:
        try:
            move = self.push(command)
        except Refused:
            return False
        if move.command.get("op") == "undo":
            # put the undone move back exactly as it was
            self.push(move.info["undone_command"], replay=True)
        else:
            self.pop()
        return True

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

    def lot(self, pos: int) -> Lot:
        return self.lots[pos]

    def deeds_of(self, player: str) -> list[int]:
        return [pos for pos, lot in self.lots.items() if lot.owner == player]

    def level(self, pos: int) -> int:
        """Buildings on a lot as a number of steps: a hotel is one step above the houses."""
        lot = self.lots[pos]
        return self.houses_before_hotel + 1 if lot.hotel else lot.houses

    def group_positions(self, group: str) -> list[int]:
        return [s.position for s in self.edition.spaces if s.group == group]

    def owns_group(self, player: str, group: str) -> bool:
        return all(self.lots[p].owner == player for p in self.group_positions(group))

    def buildings_of(self, player: str) -> tuple[int, int]:
        houses = hotels = 0
        for lot in self.lots.values():
            if lot.owner == player:
                houses += lot.houses
                hotels += lot.hotel
        return houses, hotels

    def debt_total(self, player: str) -> int:
        return sum(c[1] for c in self.debts.get(player, []))

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
        from .valuation import max_raisable, net_worth

        players = {}
        for p in self.players:
            claims = self.debts.get(p, [])
            debt = None
            if claims:
                debt = {
                    "creditor": claims[0][0],
                    "amount": sum(c[1] for c in claims),
                    "claims": [{"creditor": c[0], "amount": c[1], "for": c[2]} for c in claims],
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


def invert(effect: Mapping[str, Any]) -> dict[str, Any]:
    """The effect that takes ``effect`` back (used to log reversals)."""
    e = dict(effect)
    t = e["t"]
    if t == "pay":
        e["from"], e["to"] = effect["to"], effect["from"]
    elif t == "stock":
        e["houses"], e["hotels"] = -effect["houses"], -effect["hotels"]
    elif t == "bankrupt":
        e["t"] = "unbankrupt"
    else:
        e["old"], e["new"] = effect["new"], effect["old"]
    return e


def apply_effects(state: GameState, effects: Iterable[Mapping[str, Any]]) -> None:
    """Apply logged effects directly (used by reviews; replays recompute)."""
    for e in effects:
        if e["t"] == "unbankrupt":
            state._apply({**e, "t": "bankrupt"}, inverse=True)
        else:
            state._apply(e, inverse=False)
