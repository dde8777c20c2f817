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
from typing import Any, overload

import msgspec
from msgspec import Struct, field
from msgspec.structs import replace

from .edition import Edition, HouseRules, Space, Variant
from .effects import (
    Bankruptcy,
    BankruptcyUndone,
    Claim,
    Dealt,
    Debt,
    Doubles,
    Due,
    Effect,
    Follow,
    Hotel,
    Houses,
    InJail,
    JailCardHolder,
    JailTurns,
    Mortgaged,
    Owner,
    PassedGo,
    Pay,
    Pending,
    Position,
    Proposal,
    Result,
    Stock,
    Turn,
    decode_effects,
    invert,
)
from .engine import read, run
from .errors import Refused
from .messages import Msg, Named, quoted, render_parts, shown
from .names import (
    BANK,
    FORBIDDEN_CATEGORIES,
    NAME_LIMIT,
    POT,
    RESERVED,
    RESERVED_NAMES,
    TEXT_LIMIT,
    check_name_shape,
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


class Lot(Struct):
    """What the bank knows about one deed: owner, buildings, mortgage."""

    owner: str | None = None
    houses: int = 0
    hotel: bool = False
    mortgaged: bool = False


class Setup(Struct, frozen=True):
    edition: str
    variant: str
    players: tuple[str, ...]
    house_rules: HouseRules = HouseRules()
    #: the agreed end of a timed game: ISO 8601 to the minute with its offset (banker.ledger.clock); sessions
    #: recorded before kept the words as given ("22:30")
    end_time: str | None = None
    #: follow mode (issue #11): the bank follows the tokens from the rolls the banker types
    follow: bool = False
    #: a board file's fingerprint (``edition`` is then its absolute path): the game is refused on a board whose
    #: data changed since (banker.boards.game_from_setup); None for the editions banker ships
    board: str | None = None

    def to_mapping(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "edition": self.edition,
            "variant": self.variant,
            "players": list(self.players),
            "house_rules": self.house_rules.to_mapping(),
            "end_time": self.end_time,
        }
        if self.follow:  # only when on: a session without it is stored exactly as before
            out["follow"] = True
        if self.board is not None:  # likewise: only a game on a board file has it
            out["board"] = self.board
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Setup:
        return cls(
            edition=str(data["edition"]),
            variant=str(data["variant"]),
            players=tuple(data["players"]),
            house_rules=HouseRules.from_mapping(data.get("house_rules")),
            end_time=data.get("end_time"),
            follow=data.get("follow") is True,
            board=data["board"] if isinstance(data.get("board"), str) else None,
        )

    def for_new_game(self) -> Setup:
        """This setup with its players checked by today's rules for a *new* session (NFC names, no
        control or invisible characters, not too long, not the bank's words, no two alike); raises
        :class:`Refused`. Called where a session is created: a recorded session replays with the
        names it was created with, even if they would be refused today."""
        end = self.end_time
        if end is not None:
            if not isinstance(end, str):
                raise Refused("input", Msg("input.text", op="new", key="end_time", value=shown(end)))
            check_text("new", "end_time", end)  # its form, a time with its offset: banker.ledger.clock.check_stored
        return replace(self, players=new_players(self.players), end_time=end)


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

    def _make_from(self, i: int) -> None:
        """Make every move from ``i`` up (``load`` knows a move by where it stood when the state was
        restored: the moves above a change of the stack must be made before they shift)."""
        for k in range(i, len(self._moves)):
            self._get(k)

    def __delitem__(self, i: int) -> None:
        """Take move ``i`` out (an undo of an earlier entry: :meth:`GameState.remove`)."""
        i = range(len(self._moves))[i]
        self._make_from(i)
        del self._moves[i]

    def insert(self, i: int, move: Move) -> None:
        """Put ``move`` back at ``i`` (:meth:`GameState.put_back`)."""
        self._make_from(min(i, len(self._moves)))
        self._moves.insert(i, move)

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
        self.debt_before = {p: bool(c) for p, c in state.debts.items()} if state.debts else {}

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

    # -- following the board (banker.rules.turns) -------------------------------
    def position(self, player: str, new: int, by: str) -> None:
        old = self.state.positions[player]
        if old != new:
            self.add(Position(player=player, old=old, new=new, by=by))

    def in_jail(self, player: str, new: bool) -> None:
        old = self.state.in_jail[player]
        if old != new:
            self.add(InJail(player=player, old=old, new=new))

    def jail_turns(self, player: str, new: int) -> None:
        old = self.state.jail_turns[player]
        if old != new:
            self.add(JailTurns(player=player, old=old, new=new))

    def passed_go(self, player: str) -> None:
        if not self.state.passed_go[player]:
            self.add(PassedGo(player=player, old=False, new=True))

    def turn(self, new: str | None) -> None:
        old = self.state.turn
        if old != new:
            self.add(Turn(old=old, new=new))

    def doubles(self, new: int) -> None:
        old = self.state.doubles
        if old != new:
            self.add(Doubles(old=old, new=new))

    def follow(self, new: bool) -> None:
        old = self.state.follow
        if old != new:
            self.add(Follow(old=old, new=new))

    def propose(self, new: Due | None) -> None:
        old = self.state.pending
        if old != new:
            self.add(Proposal(old=old, new=new))

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
    # following the board (issue #11)
    follow: bool
    turn: str | None
    doubles: int
    positions: dict[str, int]
    in_jail: dict[str, bool]
    jail_turns: dict[str, int]
    passed_go: dict[str, bool]
    pending: Due | None
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
        for name in map(check_name_shape, players):
            if name.lower() in RESERVED:
                raise Refused("players", Msg("setup.reserved", name=quoted(name)))
            if name.casefold() in seen:
                raise Refused("players", Msg("setup.same", name=quoted(name)))
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
        #: each colour group's positions in the board's order (None: the spaces of no group), read for every rent
        self._groups: dict[str | None, tuple[int, ...]] = {
            group: tuple(s.position for s in edition.group_lots(group))
            for group in dict.fromkeys(s.group for s in edition.spaces)}
        self.jail_cards: dict[str, str | None] = {
            c.id: None for c in edition.cards.values() if c.kind == "jail_card"
        }
        self.debts: dict[str, list[Claim]] = {}
        self.bankrupt: list[str] = []
        self.bankrupt_to: dict[str, str] = {}
        self.dealt: dict[str, int] = {}
        self.pending_auction: set[int] = set()
        self.result: dict[str, Any] | None = None
        # following the board (issue #11; banker.rules.turns): plain attributes, changed only by effects
        #: follow mode: the bank moves the tokens from the rolls the banker types
        self.follow: bool = setup.follow
        #: the player who rolls next, as recorded (see :attr:`current`, which skips a bankrupt player)
        self.turn: str | None = players[0] if players else None
        #: doubles thrown in the current turn
        self.doubles = 0
        #: each token's space (0-39); every token starts on GO
        self.positions: dict[str, int] = {p: 0 for p in players}
        self.in_jail: dict[str, bool] = {p: False for p in players}
        #: failed attempts (rolls without doubles) while in jail
        self.jail_turns: dict[str, int] = {p: 0 for p in players}
        #: the Speed Die: who has passed GO once (kept only in a game with the Speed Die)
        self.passed_go: dict[str, bool] = {p: False for p in players}
        #: what the landing still requires (None: nothing); see banker.rules.turns
        self.pending: Due | None = None
        self.history = History()

    def check_new(self) -> None:
        """What a *new* game's setup must also meet (a recorded session opens as it was): an agreed end
        exactly when the variant has a time limit (variants.toml ``timed``; us-classic-rules.txt, TIME
        LIMIT GAME: "Before starting, agree upon a definite hour of termination")."""
        if self.setup.end_time is not None and not self.variant.timed:
            raise Refused("end-time", Msg("end-time.untimed", variant=self.variant.id))
        if self.variant.timed and self.setup.end_time is None:
            raise Refused("end-time", Msg("end-time.needed"))

    # ----------------------------------------------------------------- effects
    def _money(self, account: str, delta: int) -> None:
        if account == BANK:
            self.bank_balance += delta
        elif account == POT:
            self.pot += delta
        else:
            # checked before the change: a refused change leaves the cash as it was (GameState.push_effects, trying a
            # recorded payment that no longer applies, undoes only the changes made)
            cash = self.cash[account] + delta
            if cash < 0:
                raise AssertionError(f"{account}'s cash went below zero")
            self.cash[account] = cash

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
            try:
                self._money(src, -e.amount)
            except AssertionError:  # a payment the payer cannot make: none of it is made
                self._money(dst, -e.amount)
                raise
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
        elif isinstance(e, Position):
            self.positions[e.player] = e.old if inverse else e.new
        elif isinstance(e, InJail):
            self.in_jail[e.player] = e.old if inverse else e.new
        elif isinstance(e, JailTurns):
            self.jail_turns[e.player] = e.old if inverse else e.new
        elif isinstance(e, PassedGo):
            self.passed_go[e.player] = e.old if inverse else e.new
        elif isinstance(e, Turn):
            self.turn = e.old if inverse else e.new
        elif isinstance(e, Doubles):
            self.doubles = e.old if inverse else e.new
        elif isinstance(e, Follow):
            self.follow = e.old if inverse else e.new
        elif isinstance(e, Proposal):
            self.pending = e.old if inverse else e.new
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

    def dependents(self, index: int) -> list[int]:
        """The later moves (indices in :attr:`history`) that depend on move ``index``: replayed
        through the rules without it, each is refused, makes other changes (a payment it could
        no longer afford, a deed it no longer finds, a debt of another size...) or would be
        recorded otherwise than the rules give it with move ``index`` in place (its description
        or figures: a count of the table that agreed and would no longer, an income tax's worth).
        The state is left as it was."""
        later = self.history[index + 1:]
        for _ in later:
            self.pop()
        try:
            kept = self._again(later)  # what the rules give each with move ``index`` in place: the description to keep
            target = self.pop()
            try:
                without = self._again(later)
            finally:
                self.put_back(len(self.history), target)
        finally:
            for move in later:
                self.put_back(len(self.history), move)
        out: list[int] = []
        for i, (move, with_it, again) in enumerate(zip(later, kept, without, strict=True)):
            if again is None or msgspec.to_builtins(again.effects) != msgspec.to_builtins(move.effects):
                out.append(index + 1 + i)
            elif with_it is not None and msgspec.to_builtins((with_it.parts, with_it.info)) != msgspec.to_builtins(
                    (again.parts, again.info)):
                # the same changes, said or counted otherwise: the log would keep what is no longer so (a count
                # recorded as agreeing with the bank after the house it counted was taken back)
                out.append(index + 1 + i)
        return out

    def _again(self, later: Sequence[Move]) -> list[Move | None]:
        """Each of ``later`` (moves taken off the top of the stack) run again through the rules in turn on the
        state as it stands, each then followed as it was recorded, so that each is judged on its own: the moves
        the rules give (None where they refuse it, or where its recorded changes no longer even apply: the moves
        after it then follow without it). The state is left as it was."""
        out: list[Move | None] = []
        pushed = 0
        try:
            for move in later:
                again: Move | None
                try:
                    again = self.push(move.command, replay=True)
                except Refused:
                    again = None
                else:
                    self.pop()
                out.append(again)
                try:  # the log goes on as recorded
                    self.push_effects(move.command, move.effects, move.parts, move.info)
                    pushed += 1
                except Exception:  # its recorded changes no longer apply (nothing of them is applied): it is not what
                    # was recorded, and the ones after it are judged without it, each on its own as ever (all of them
                    # were named before, and the banker was told to undo entries that depend on neither)
                    out[-1] = None
        finally:
            for _ in range(pushed):
                self.pop()
        return out

    def take_out(self, index: int, labels: Sequence[Any] | None = None) -> Move:
        """Take back move ``index`` of :attr:`history`, not only the last, when no later move depends on
        it (:meth:`dependents`); returns it. Refused (``undo-depends``) naming the moves that do, by
        ``labels`` (what the caller calls each move of the history: the log's seqs), else by index."""
        self.check_take_out(index, labels)
        return self.remove(index)

    def check_take_out(self, index: int, labels: Sequence[Any] | None = None) -> None:
        """What :meth:`take_out` would refuse, the state left as it was: nothing at ``index``, or the later moves
        that depend on it (named by ``labels``). The console asks it before its confirmation."""
        if not 0 <= index < len(self.history):
            raise Refused("undo-empty", Msg("undo.empty"))
        names = list(labels) if labels is not None else list(range(len(self.history)))
        if index < len(self.history) - 1:
            deps = self.dependents(index)
            if deps:
                raise Refused("undo-depends", Msg("undo.depends", seq=names[index], entries=[names[i] for i in deps],
                                                  n=len(deps)))

    def remove(self, index: int) -> Move:
        """Take move ``index`` out of the history and its changes off the state, the rules not
        consulted (a recorded undo of an earlier entry, opening a log; :meth:`take_out` checks)."""
        move = self.history[index]
        for e in reversed(move.effects):
            self.unapply(e)
        del self.history[index]
        return move

    def put_back(self, index: int, move: Move) -> None:
        """Put a move taken out by :meth:`remove` back at ``index`` of the history, its changes applied."""
        for e in move.effects:
            self.apply(e)
        self.history.insert(index, move)

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
    def current(self) -> str | None:
        """The player who rolls next: the recorded turn, or when that player is bankrupt the next
        player in seating order who is not (None once nobody is left)."""
        return self.next_player(self.turn, include=True)

    def next_player(self, after: str | None, include: bool = False) -> str | None:
        """The next player in seating order after ``after`` who is not bankrupt (``after`` itself
        when ``include`` and it is still playing)."""
        active = self.active_players
        if not active:
            return None
        if after not in self.players:
            return active[0]
        if include and after in active:
            return after
        i = self.players.index(after)
        n = len(self.players)
        for step in range(1, n + 1):
            p = self.players[(i + step) % n]
            if p not in self.bankrupt:
                return p
        return None  # pragma: no cover - active is not empty

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> str | None:
        return self.result.get("winner") if self.result else None

    def deeds_of(self, player: str) -> list[int]:
        """The positions of ``player``'s deeds, in the board's order."""
        return sorted(pos for pos, lot in self.lots.items() if lot.owner == player)

    def level(self, pos: int) -> int:
        """Buildings on a lot as a number of steps: a hotel is one step above the houses."""
        lot = self.lots[pos]
        return self.houses_before_hotel + 1 if lot.hotel else lot.houses

    def group_positions(self, group: str | None) -> list[int]:
        return list(self._groups.get(group, ()))

    def group_name(self, space: Space) -> str:
        """The name of ``space``'s colour group (a street's; "" for a space of no group)."""
        return self.edition.groups[space.group].name if space.group is not None else ""

    def group_said(self, space: Space) -> Named | str:
        """``space``'s colour group as a parameter of the engine's messages (:meth:`Edition.group_said`)."""
        return self.edition.group_said(space.group) if space.group is not None else ""

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

    @property
    def debtors(self) -> list[str]:
        """The players with a debt open, in seating order (no roll is taken, nor the game ended, while there is one)."""
        return [p for p in self.active_players if self.debts.get(p)]

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
                "position": self.positions[p],
                "in_jail": self.in_jail[p],
                "jail_turns": self.jail_turns[p],
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
            "follow": self.follow,
            "turn": self.current,
            "doubles": self.doubles,
            "pending": self.pending.to_json() if self.pending else None,
        }


def apply_effects(state: GameState, effects: Iterable[Effect | Mapping[str, Any]]) -> None:
    """Apply logged effects directly (used by reviews and to open a log; replays recompute).
    An effect may be the logged JSON object or a typed :class:`~banker.rules.effects.Effect`."""
    for e in decode_effects(effects):
        state.apply(e)
