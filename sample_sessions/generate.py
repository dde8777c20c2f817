"""The sample sessions: complete games played through the real engine and session log.

    python sample_sessions/generate.py [--out DIR] [--verbose] [--draft] [GAME ...]

Each game is a fixed script, an evening at the table told turn by turn. ``Evening.turn``
moves a token by the dice thrown and records what the bank does about it: the salary for
passing GO, the rent on a deed another player owns (looked up on the game as it stands),
the tax, the card drawn, buying or auctioning an unowned deed. Everything else the players
do between throws (building, mortgaging, trading, a mistake and its undo, a bankruptcy) is a
command of its own. Every command is checked against the engine as the script is played,
then applied to a fresh TinyDB session with ``Session.apply``; a command the engine refuses
stops the script with the game, the step and the reason (the script is wrong: nothing is
skipped). Existing session files are replaced. ``--verbose`` prints every throw and action
with the players' cash; ``--draft`` plays on a scratch state only, for a script being written.

The notable events are marked (``Evening.mark``) and printed with their entry numbers;
sample_sessions/README.md lists them, and tests/test_sample_sessions.py checks that it does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
if str(ROOT.parent) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT.parent))

from banker.boards import game_from_setup  # noqa: E402
from banker.ledger import Session, journal_path  # noqa: E402
from banker.ledger.lock import lock_path  # noqa: E402
from banker.rules import GameState, Refused, Setup  # noqa: E402
from banker.rules.messages import Msg, render_parts  # noqa: E402

Command = dict[str, Any]
NOBODY = "nobody"  # auction=NOBODY: nobody bids, the deed stays with the bank

#: "advance" cards that move the token backwards: they never pass GO
BACKWARD_CARDS = {"cc-old-kent-road", "cc-zhitnaya", "cc-troieshchyna"}


class ScriptError(Exception):
    """The script asks for something the engine refuses, or the table could not do."""


class Evening:
    """One game at the table: the tokens, the turn order and the commands, each checked
    against the engine as it is added (a scratch :class:`GameState`)."""

    def __init__(self, game: str, setup: Setup) -> None:
        self.game = game
        self.setup = setup
        self.state: GameState = game_from_setup(setup)
        self.edition = self.state.edition
        self.pos = {p: 0 for p in setup.players}
        self.jailed: set[str] = set()
        self.last: str | None = None  # whose turn it was
        self.commands: list[Command] = []
        self.marks: list[tuple[int, str]] = []  # (entry number, what it shows)
        self.trace: list[str] = []
        self.max_roll = 15 if self.state.variant.speed_die else 12  # the Speed Die adds up to 3
        self.min_roll = 2

    # ------------------------------------------------------------------ commands
    def do(self, cmd: Command) -> Evening:
        """Record one command; the engine must accept it."""
        step = len(self.commands) + 1
        try:
            move = self.state.push(cmd)
        except Refused as e:
            raise ScriptError(f"{self.game}: step {step} {cmd}: refused by the engine: {e}") from None
        self.commands.append(cmd)
        cash = ", ".join(f"{p} {self.state.cash[p]}" for p in self.state.active_players)
        debts = {p: self.state.debt_total(p) for p in self.state.players if self.state.debts.get(p)}
        self.trace.append(f"  #{step} {move.text}   [{cash}]" + (f" DEBT {debts}" if debts else ""))
        return self

    def mark(self, label: str) -> Evening:
        """Name the last command as a notable event (printed, and listed in the README)."""
        self.marks.append((len(self.commands), label))
        return self

    def salary(self, player: str) -> Evening:
        return self.do({"op": "salary", "player": player})

    def build(self, player: str, *spaces: int) -> Evening:
        for s in spaces:
            self.do({"op": "build", "player": player, "space": s})
        return self

    def sell(self, player: str, *spaces: int, houses: int | None = None) -> Evening:
        for s in spaces:
            cmd: Command = {"op": "sell_building", "player": player, "space": s}
            if houses is not None:
                cmd["houses"] = houses
            self.do(cmd)
        return self

    def mortgage(self, player: str, *spaces: int) -> Evening:
        for s in spaces:
            self.do({"op": "mortgage", "player": player, "space": s})
        return self

    def unmortgage(self, player: str, *spaces: int) -> Evening:
        for s in spaces:
            self.do({"op": "unmortgage", "player": player, "space": s})
        return self

    def trade(self, a: str, b: str, give: dict[str, Any] | None = None, get: dict[str, Any] | None = None,
              lift: list[int] | None = None, debt_credit: int | None = None) -> Evening:
        cmd: Command = {"op": "trade", "from": a, "to": b, "give": give or {}, "get": get or {}}
        if lift:
            cmd["lift"] = lift
        if debt_credit:
            cmd["debt_credit"] = debt_credit
        return self.do(cmd)

    def building_auction(self, player: str, space: int, bid: int) -> Evening:
        return self.do({"op": "building_auction", "player": player, "space": space, "bid": bid})

    def auction(self, space: int, winner: str | None, bid: int | None = None) -> Evening:
        if winner is None:
            return self.do({"op": "auction", "space": space, "winner": None})
        return self.do({"op": "auction", "space": space, "winner": winner, "bid": bid})

    def deal(self, player: str, *spaces: int) -> Evening:
        for s in spaces:
            self.do({"op": "deal", "player": player, "space": s})
        return self

    def transfer(self, src: str, dst: str, amount: int, memo: str) -> Evening:
        return self.do({"op": "transfer", "from": src, "to": dst, "amount": amount, "memo": memo})

    def bankrupt(self, player: str, lift: list[int] | None = None) -> Evening:
        cmd: Command = {"op": "bankrupt", "player": player}
        if lift:
            cmd["lift"] = lift
        return self.do(cmd)

    def undo(self, reason: str) -> Evening:
        # issue #10: undo is the session log's; on the engine it is a pop (the log records the reversal)
        step = len(self.commands) + 1
        try:
            undone = self.state.pop()
        except Refused as e:
            raise ScriptError(f"{self.game}: step {step} undo: refused by the engine: {e}") from None
        self.commands.append({"op": "undo", "reason": reason})
        text = render_parts([Msg("log.undone", reason=reason).to_json(), *undone.parts])
        cash = ", ".join(f"{p} {self.state.cash[p]}" for p in self.state.active_players)
        debts = {p: self.state.debt_total(p) for p in self.state.players if self.state.debts.get(p)}
        self.trace.append(f"  #{step} {text}   [{cash}]" + (f" DEBT {debts}" if debts else ""))
        return self

    def end_game(self) -> Evening:
        return self.do({"op": "end_game"})

    # ------------------------------------------------------------------ the board
    def _next_player(self) -> str:
        active = self.state.active_players
        if self.last is None:
            return active[0]
        order = self.state.players
        i = order.index(self.last)
        for step in range(1, len(order) + 1):
            p = order[(i + step) % len(order)]
            if p in active:
                return p
        raise AssertionError("no player left")  # pragma: no cover

    def _take_turn(self, player: str, again: bool) -> None:
        debtors = [p for p in self.state.players if self.state.debts.get(p)]
        if debtors:
            raise ScriptError(f"{self.game}: step {len(self.commands) + 1}: {player} throws while "
                              f"{', '.join(debtors)} still owes: settle or go bankrupt first")
        expected = self.last if again else self._next_player()
        if player != expected:
            raise ScriptError(f"{self.game}: step {len(self.commands) + 1}: it is {expected}'s turn, not {player}'s")
        self.last = player

    def stay(self, player: str) -> Evening:
        """A turn in jail without doubles: the token stays."""
        self._take_turn(player, False)
        if player not in self.jailed:
            raise ScriptError(f"{self.game}: {player} is not in jail")
        self.trace.append(f"{player} stays in jail")
        return self

    def turn(self, player: str, roll: int, *, again: bool = False,
             buy: bool = False, auction: tuple[str, int] | str | None = None, card: str | None = None,
             choice: str | None = None, dice: int | None = None, fine: bool = False, jail_card: bool = False,
             rent: bool = True, mr_monopoly: bool | str | tuple[str, int] = False) -> Evening:
        """``player`` throws ``roll`` and the bank does what the square asks: the salary when
        passing GO, the rent, the tax (``choice`` for the US Income Tax), the card drawn
        (``card``), or the purchase / auction of an unowned deed (``buy``, ``auction=(winner,
        bid)`` or ``auction=NOBODY``). ``dice`` is the fresh throw for a card sending to the
        nearest utility; ``rent=False`` when the owner forgot to ask before the next throw;
        ``again`` for the throw after doubles. Out of jail: ``fine`` (paid first), ``jail_card``,
        or neither (doubles). ``mr_monopoly``: the Speed Die showed Mr. Monopoly, the token
        goes on to the next unowned deed, bought (``"buy"``) or auctioned (``(winner, bid)``),
        or, when none is left, to the next deed of another player, whose rent is paid (``True``)."""
        self._take_turn(player, again)
        start = self.pos[player]
        if not self.min_roll <= roll <= self.max_roll:
            raise ScriptError(f"{self.game}: step {len(self.commands) + 1}: {player} cannot throw {roll}")
        if player in self.jailed:
            if fine:
                self.do({"op": "jail_fine", "player": player})
            elif jail_card:
                self.do({"op": "jail_card", "player": player, "use": True})
            self.jailed.discard(player)
        elif fine or jail_card:
            raise ScriptError(f"{self.game}: {player} is not in jail")
        new = start + roll
        self.trace.append(f"{player} throws {roll}: {start} -> {new % 40} {self.edition.spaces[new % 40].name}")
        if new >= 40:
            self.salary(player)
        self.pos[player] = new % 40
        opts = dict(buy=buy, auction=auction, card=card, choice=choice, dice=dice, rent=rent)
        self._land(player, roll, opts)
        if mr_monopoly:
            self._mr_monopoly(player, mr_monopoly)
        unused = [k for k in ("buy", "auction", "card") if opts[k]]
        if unused:
            raise ScriptError(f"{self.game}: step {len(self.commands) + 1}: {player} lands on "
                              f"{self.edition.spaces[self.pos[player]].name}: {', '.join(unused)} not used")
        return self

    def _decide(self, player: str, pos: int, opts: dict[str, Any]) -> None:
        """An unowned deed: bought or auctioned, as the script says."""
        if opts["buy"]:
            self.do({"op": "buy", "player": player, "space": pos})
        elif opts["auction"] == NOBODY:
            self.auction(pos, None)
        elif opts["auction"]:
            winner, bid = opts["auction"]
            self.auction(pos, winner, bid)
        else:
            raise ScriptError(f"{self.game}: step {len(self.commands) + 1}: {player} lands on the unowned "
                              f"{self.edition.spaces[pos].name} ({pos}): buy it or auction it")
        opts["buy"] = opts["auction"] = None

    def _land(self, player: str, roll: int, opts: dict[str, Any], card_case: str | None = None) -> None:
        pos = self.pos[player]
        space = self.edition.spaces[pos]
        if pos == 30:
            self.pos[player] = 10
            self.jailed.add(player)
            self.trace.append(f"{player} goes to jail")
            return
        if space.is_property:
            lot = self.state.lots[pos]
            if lot.owner is None:
                self._decide(player, pos, opts)
            elif lot.owner != player and not lot.mortgaged and opts["rent"]:
                cmd: Command = {"op": "rent", "payer": player, "space": pos}
                if space.kind == "utility":
                    cmd["dice"] = opts["dice"] if card_case else roll
                if card_case:
                    cmd["card"] = card_case
                self.do(cmd)
            return
        if space.kind == "tax":
            cmd = {"op": "tax", "player": player, "space": pos}
            if space.tax_percent:
                cmd["choice"] = opts["choice"]
            self.do(cmd)
            return
        if space.kind not in ("chance", "chest"):
            return
        card_id = opts["card"]
        opts["card"] = None
        card = self.edition.cards.get(card_id or "")
        if card is None or card.deck != space.kind:
            raise ScriptError(f"{self.game}: step {len(self.commands) + 1}: {player} draws a {space.kind} card: "
                              f"which one? (got {card_id!r})")
        e = card.effect
        cmd = {"op": "card", "player": player, "card": card.id}
        if card.kind == "advance" and e["to"] != 0 and e["to"] < pos and card.id not in BACKWARD_CARDS:
            cmd["passed_go"] = True
        self.do(cmd)
        if card.kind == "advance":
            self.pos[player] = e["to"]
            if e["to"]:
                self._land(player, roll, opts)
        elif card.kind == "advance_nearest":
            kind = e["kind"]
            target = next((pos + k) % 40 for k in range(1, 41) if self.edition.spaces[(pos + k) % 40].kind == kind)
            if target < pos:
                self.salary(player)
            self.pos[player] = target
            self._land(player, roll, opts, card_case=f"nearest-{kind}")
        elif card.kind == "back":
            self.pos[player] = (pos - e["spaces"]) % 40
            self._land(player, roll, opts)
        elif card.kind == "go_to_jail":
            self.pos[player] = 10
            self.jailed.add(player)

    def _mr_monopoly(self, player: str, decision: bool | str | tuple[str, int]) -> None:
        from banker.rules.legal import mr_monopoly_target

        target = mr_monopoly_target(self.state, self.pos[player], player)
        if target is None:
            return
        pos, _what = target
        if self.pos[player] > pos:
            self.salary(player)
        self.pos[player] = pos
        self.trace.append(f"{player}: Mr. Monopoly -> {pos} {self.edition.spaces[pos].name}")
        opts = dict(buy=decision == "buy", auction=decision if isinstance(decision, tuple) else None, card=None,
                    choice=None, dice=None, rent=True)
        self._land(player, 0, opts)
        if opts["buy"] or opts["auction"]:
            raise ScriptError(f"{self.game}: step {len(self.commands) + 1}: Mr. Monopoly takes {player} to "
                              f"{self.edition.spaces[pos].name}, owned: nothing to buy")

    def check_over(self) -> None:
        if not self.state.over:
            raise ScriptError(f"{self.game}: the script ends before the game does")


@dataclass(frozen=True)
class Game:
    file: str  # the session file's name in sample_sessions/
    name: str  # the session's name
    setup: Setup
    play: Callable[[Evening], None]  # the script

    def evening(self, complete: bool = True) -> Evening:
        """The game played on a scratch state: its commands, marks and trace."""
        evening = Evening(self.file, self.setup)
        try:
            self.play(evening)
            if complete:
                evening.check_over()
        except ScriptError as e:
            e.evening = evening  # type: ignore[attr-defined]
            raise
        return evening

    def commands(self) -> list[Command]:
        return self.evening().commands


# =============================================================================== the games
# Board positions (the same on every board; names here are the US ones).
GO, MEDITERRANEAN, BALTIC, INCOME_TAX, READING, ORIENTAL, VERMONT, CONNECTICUT = 0, 1, 3, 4, 5, 6, 8, 9
JAIL, ST_CHARLES, ELECTRIC, STATES, VIRGINIA, PENN_RR, ST_JAMES, TENNESSEE, NEW_YORK = 10, 11, 12, 13, 14, 15, 16, 18, 19
KENTUCKY, INDIANA, ILLINOIS, BO_RR, ATLANTIC, VENTNOR, WATER, MARVIN = 21, 23, 24, 25, 26, 27, 28, 29
PACIFIC, NORTH_CAROLINA, PENNSYLVANIA, SHORT_LINE, PARK_PLACE, LUXURY_TAX, BOARDWALK = 31, 32, 34, 35, 37, 38, 39


def us_shortage(t: Evening) -> None:
    """US classic, four players: the housing shortage and its auction, a game to the last player."""
    A, B, C, D = "Ann", "Bob", "Cid", "Dee"
    # --- the first times round the board: everybody buys what they land on
    t.turn(A, 9, buy=True)                       # Connecticut Avenue
    t.turn(B, 7, card="ch-dividend")
    t.turn(C, 6, buy=True)                       # Oriental Avenue
    t.turn(D, 5, buy=True)                       # Reading Railroad
    t.turn(A, 7, buy=True)                       # St. James Place
    t.turn(B, 8, buy=True)                       # Pennsylvania Railroad
    t.turn(C, 8, buy=True)                       # Virginia Avenue
    t.turn(D, 6, buy=True)                       # St. Charles Place
    t.turn(A, 3, buy=True)                       # New York Avenue
    t.turn(B, 6, buy=True)                       # Kentucky Avenue
    t.turn(C, 10, buy=True)                      # Illinois Avenue
    t.turn(D, 7, buy=True)                       # Tennessee Avenue
    t.turn(A, 8, buy=True)                       # Ventnor Avenue
    t.turn(B, 2, buy=True)                       # Indiana Avenue
    t.turn(C, 11, buy=True)                      # Short Line
    t.turn(D, 8, buy=True)                       # Atlantic Avenue
    t.turn(A, 10, buy=True)                      # Park Place
    t.turn(B, 6, buy=True)                       # Marvin Gardens
    t.turn(C, 4, buy=True)                       # Boardwalk
    t.turn(D, 7, card="cc-bank-error")
    t.turn(A, 5, card="cc-doctor")               # round GO to Community Chest
    t.turn(B, 2, auction=(D, 260))               # Pacific Avenue: Bob passes, Dee wins it
    t.turn(C, 6)                                 # round GO to Reading Railroad: rent to Dee
    t.turn(D, 9, card="cc-xmas")
    t.turn(A, 10, buy=True)                      # Electric Company
    t.turn(B, 9)                                 # lands on GO
    t.turn(C, 8, buy=True)                       # States Avenue
    t.turn(D, 6, buy=True)                       # Vermont Avenue
    t.turn(A, 9)                                 # Kentucky Avenue: rent to Bob
    t.turn(B, 4, choice="percent")               # Income Tax: 10% of his worth is less than $200
    t.mark("Income Tax: Bob chooses 10% ($177)")
    t.turn(C, 9, card="ch-back-3")               # back to New York Avenue: rent to Ann
    t.turn(D, 7)                                 # Pennsylvania Railroad: rent to Bob
    t.turn(A, 7, auction=(B, 120))               # Water Works: Ann is short, Bob takes it at auction
    t.turn(B, 8)                                 # Electric Company: 4 x 8 to Ann
    t.turn(C, 6, buy=True)                       # B. & O. Railroad
    t.turn(D, 10)                                # B. & O.: Cid has two railroads now
    t.mortgage(A, CONNECTICUT)                   # Ann keeps some cash in hand
    t.turn(A, 4, auction=(D, 280))               # North Carolina Avenue: Dee outbids Bob
    t.turn(B, 5, card="cc-life-insurance")
    t.turn(C, 8, card="cc-school")
    t.mortgage(C, ILLINOIS)
    t.turn(D, 9, auction=(B, 250))               # Pennsylvania Avenue: Bob blocks Dee's greens
    # --- the trading break: four colour groups change hands
    t.trade(A, D, give={"spaces": [VENTNOR]}, get={"spaces": [TENNESSEE]})
    t.mark("Ann completes the oranges in a swap with Dee")
    t.trade(B, D, give={"spaces": [MARVIN]}, get={"spaces": [READING], "cash": 100})
    t.trade(C, B, give={"spaces": [ILLINOIS]}, get={"cash": 250, "spaces": [WATER]}, lift=[ILLINOIS])
    t.mark("trade of a mortgaged deed: Bob lifts Illinois Avenue at once")
    t.trade(A, C, give={"spaces": [CONNECTICUT]}, get={"cash": 150})
    t.mark("trade of a mortgaged deed: Cid pays the 10% on Connecticut Avenue")
    t.trade(D, C, give={"spaces": [VERMONT]}, get={"spaces": [STATES]})
    # --- the first houses
    t.unmortgage(C, CONNECTICUT)                 # the 10% again: he pays it twice for the deal
    t.build(C, ORIENTAL, VERMONT, CONNECTICUT)
    t.build(A, ST_JAMES, TENNESSEE, NEW_YORK)
    t.mortgage(B, PENNSYLVANIA)
    t.build(B, KENTUCKY)
    t.turn(A, 8)                                 # GO
    t.turn(B, 9)                                 # Atlantic Avenue: double rent, Dee holds the yellows
    t.turn(C, 6)                                 # his own Boardwalk
    t.turn(D, 6)                                 # GO
    t.turn(A, 7, card="ch-railroad-1")           # to the Pennsylvania Railroad, double rent to Bob
    t.turn(B, 8)                                 # his own Pennsylvania Avenue
    t.turn(C, 7)                                 # round GO to his own Oriental Avenue
    t.turn(D, 9)                                 # Connecticut Avenue: a house on it
    t.turn(A, 4)                                 # her own New York Avenue
    t.turn(B, 8, card="cc-stock")                # round GO
    t.turn(C, 10)                                # St. James Place
    t.turn(D, 7)                                 # St. James Place
    t.build(A, ST_JAMES, TENNESSEE, NEW_YORK)
    t.build(D, ATLANTIC, VENTNOR, MARVIN)
    t.turn(A, 8)                                 # Ventnor Avenue
    t.turn(B, 6)                                 # Vermont Avenue
    t.turn(C, 5)                                 # Kentucky Avenue
    t.turn(D, 8)                                 # Illinois Avenue
    t.turn(A, 3)                                 # Go to Jail
    t.turn(B, 6)                                 # Virginia Avenue
    t.turn(C, 9)                                 # Go to Jail
    t.turn(D, 10)                                # Pennsylvania Avenue: mortgaged, no rent
    t.turn(A, 6, fine=True)                      # pays to get out; St. James Place
    t.turn(B, 5)                                 # New York Avenue
    t.stay(C)
    t.turn(D, 8, card="cc-opera")                # round GO
    t.turn(A, 9)                                 # B. & O. Railroad
    t.turn(B, 7)                                 # Atlantic Avenue
    t.turn(C, 8, fine=True)                      # out of jail onto Tennessee Avenue: $250 he does not have
    t.mortgage(C, BOARDWALK)                     # the debt is paid from the mortgage
    t.mark("Cid raises a rent by mortgaging Boardwalk")
    t.turn(D, 6)                                 # Vermont Avenue
    t.turn(A, 10)                                # Short Line
    t.turn(B, 7, card="cc-hospital")
    t.turn(C, 4, card="ch-building-loan")
    t.turn(D, 8)                                 # St. James Place
    t.turn(A, 7, card="cc-inherit")              # round GO
    t.turn(B, 8, buy=True)                       # round GO to Mediterranean Avenue
    t.turn(C, 6)                                 # his own Water Works
    t.turn(D, 9)                                 # B. & O. Railroad
    t.turn(A, 8)                                 # Just Visiting
    t.turn(B, 7)                                 # Vermont Avenue
    t.turn(C, 7)                                 # his own Short Line
    t.turn(D, 5)                                 # Go to Jail
    t.build(A, ST_JAMES, TENNESSEE, NEW_YORK)
    t.build(C, ORIENTAL, VERMONT, CONNECTICUT)
    t.turn(A, 7, card="cc-services")
    t.turn(B, 6)                                 # Virginia Avenue
    t.turn(C, 9, choice="flat")                  # round GO to Income Tax: 10% of his worth would be more
    t.mark("Income Tax: Cid chooses the flat $200")
    t.turn(D, 7, fine=True, card="cc-tax-refund")
    t.turn(A, 6)                                 # Indiana Avenue
    t.turn(B, 6)                                 # Free Parking
    t.do({"op": "rent", "payer": C, "space": ELECTRIC, "dice": 6})
    t.undo("wrong throw typed: Cid threw 8, not 6")
    t.mark("undo: a utility rent typed with the wrong throw")
    t.turn(C, 8)                                 # Electric Company, 4 x 8
    t.turn(D, 7)                                 # Illinois Avenue
    t.build(A, ST_JAMES, TENNESSEE, NEW_YORK)    # four houses on every orange
    t.build(C, ORIENTAL, VERMONT, CONNECTICUT)
    t.turn(A, 9)                                 # North Carolina Avenue
    t.turn(B, 8)                                 # Water Works
    t.turn(C, 5, card="cc-beauty")
    t.turn(D, 9, card="cc-jail-free")            # kept
    t.turn(A, 6)                                 # Luxury Tax
    t.turn(B, 6)                                 # his own (mortgaged) Pennsylvania Avenue
    t.turn(C, 5, card="ch-poor-tax")
    t.turn(D, 8)                                 # round GO to Mediterranean Avenue
    t.mortgage(D, ST_CHARLES, STATES)            # the pinks pay for the yellow houses
    t.build(D, ATLANTIC, VENTNOR)
    t.turn(A, 4, card="cc-go")                   # round GO, and straight back to it
    t.turn(B, 7)                                 # round GO to his own Mediterranean Avenue
    t.turn(C, 6)                                 # his own Water Works
    t.turn(D, 6, card="ch-chairman")             # $50 to each player
    t.turn(A, 9)                                 # Connecticut Avenue: three houses
    t.turn(B, 6, card="ch-reading")              # his own railroad
    t.turn(C, 4)                                 # North Carolina Avenue
    t.build(C, ORIENTAL, VERMONT, CONNECTICUT)   # the light blues full: 12 houses held
    t.turn(D, 8)                                 # Pennsylvania Railroad
    # --- two houses left in the bank, and Bob and Dee want three: the bank auctions them one at a time
    t.trade(D, B, give={"jail_cards": 1}, get={"cash": 50})
    t.mark("Dee sells her Get Out of Jail Free card to Bob for $50")
    t.building_auction(D, MARVIN, 170)
    t.mark("building shortage: Dee wins the next-to-last house at auction ($170 for a $150 house)")
    t.building_auction(B, INDIANA, 160)
    t.mark("building shortage: Bob wins the last house in the bank at auction")
    # --- the bank has no houses left; nobody builds until someone sells
    t.turn(A, 8, card="cc-street-repairs")       # $40 for each of her 12 houses
    t.mortgage(A, PARK_PLACE)                    # she mortgages rather than sell a house nobody could rebuild
    t.mark("street repairs: Ann's $480 debt paid by mortgaging Park Place")
    t.turn(B, 9)                                 # Virginia Avenue
    t.turn(C, 7)                                 # his own (mortgaged) Boardwalk
    t.turn(D, 4)                                 # New York Avenue with four houses: $800 against her $64
    t.sell(D, ATLANTIC, VENTNOR, MARVIN, ATLANTIC, VENTNOR, MARVIN)
    t.mortgage(D, PACIFIC, NORTH_CAROLINA)
    t.mark("Dee raises an $800 rent: six houses sold back, two greens mortgaged")
    # the six houses are back in the bank: Bob buys three at the printed price
    t.build(B, ILLINOIS)
    t.build(B, KENTUCKY)
    t.undo("Bob asked for Illinois Avenue; the banker clicked Kentucky")
    t.mark("undo: a house built on the wrong lot")
    t.build(B, ILLINOIS)
    t.build(A, NEW_YORK)                         # Ann's first hotel gives four houses back to the bank
    t.unmortgage(A, PARK_PLACE)
    t.turn(A, 5, card="ch-jail-free")            # kept
    t.turn(B, 8, card="ch-st-charles")           # round GO to St. Charles Place, mortgaged: no rent
    t.turn(C, 6)                                 # round GO to Reading Railroad
    t.turn(D, 7)                                 # her own Atlantic Avenue
    t.turn(A, 6)                                 # Water Works
    t.turn(B, 9)                                 # Free Parking
    t.turn(C, 4)                                 # his own Connecticut Avenue
    t.turn(D, 9)                                 # Short Line: $50 against her $14
    t.mortgage(D, ATLANTIC)
    t.turn(A, 4)                                 # North Carolina Avenue, mortgaged
    t.turn(B, 7)                                 # Ventnor Avenue: still double rent with Atlantic mortgaged (US rule)
    t.turn(C, 6)                                 # Pennsylvania Railroad
    t.turn(D, 8, auction=(B, 80))                # round GO to Baltic Avenue: Dee cannot spare the cash
    t.turn(A, 5)                                 # her own Park Place
    t.turn(B, 9, card="ch-illinois")             # round GO to his own Illinois Avenue
    t.turn(C, 10)                                # his own B. & O. Railroad
    t.turn(D, 6)                                 # Connecticut Avenue, four houses: $450
    t.mortgage(D, VENTNOR)
    t.turn(A, 6)                                 # round GO to Baltic Avenue: Bob owns both browns
    t.turn(B, 8)                                 # North Carolina Avenue, mortgaged
    t.turn(C, 7)                                 # North Carolina Avenue, mortgaged
    t.turn(D, 7)                                 # St. James Place, four houses: $750; she could raise $158
    t.bankrupt(D, lift=[ATLANTIC, VENTNOR])
    t.mark("Dee bankrupt to Ann, who lifts two inherited yellow mortgages at once")
    # --- three players left
    t.build(C, ORIENTAL, VERMONT, CONNECTICUT)   # hotels: the twelve light-blue houses go back to the bank
    t.turn(A, 8)                                 # her own (mortgaged) St. Charles Place
    t.turn(B, 9)                                 # round GO to his own Mediterranean Avenue
    t.turn(C, 8)                                 # GO
    t.build(A, ATLANTIC, VENTNOR)
    t.turn(A, 7)                                 # her own Tennessee Avenue
    t.turn(B, 10)                                # St. Charles Place, mortgaged
    t.turn(C, 6)                                 # his own Oriental Avenue
    t.trade(A, C, give={"spaces": [ST_CHARLES, STATES]}, get={"cash": 300})
    t.mark("trade of two mortgaged pinks: Cid pays the 10% on each")
    t.unmortgage(C, ST_CHARLES, STATES)
    t.build(C, ST_CHARLES, STATES, VIRGINIA)
    t.build(A, MARVIN)
    t.turn(A, 9)                                 # her own Ventnor Avenue
    t.turn(B, 8)                                 # New York Avenue: the hotel, $1,000
    t.sell(B, ILLINOIS, KENTUCKY, INDIANA, ILLINOIS)
    t.mark("Bob sells his four red houses to pay a hotel rent")
    t.turn(C, 8)                                 # his own Virginia Avenue
    t.turn(A, 7)                                 # Pennsylvania Avenue, mortgaged
    t.turn(B, 6)                                 # B. & O. Railroad
    t.mortgage(B, READING)
    t.turn(C, 6)                                 # Free Parking
    t.turn(A, 4)                                 # Luxury Tax
    t.turn(B, 8, card="cc-jail")
    t.turn(C, 7)                                 # Ventnor Avenue
    t.turn(A, 8)                                 # round GO to Oriental Avenue: Cid's hotel
    t.turn(B, 6, jail_card=True)                 # out with the card he bought from Dee: St. James Place, $750
    t.bankrupt(B)
    t.mark("Bob bankrupt to Ann: she pays 10% on the two mortgaged deeds she inherits")
    # --- Ann and Cid, head to head
    t.build(A, KENTUCKY, INDIANA, ILLINOIS, KENTUCKY, INDIANA, ILLINOIS)
    t.turn(C, 8)                                 # his own Short Line
    t.build(C, ST_CHARLES, STATES, VIRGINIA)
    t.turn(A, 6)                                 # her own Electric Company
    t.turn(C, 5)                                 # GO
    t.turn(A, 7)                                 # her own New York Avenue
    t.turn(C, 7, card="ch-utility", dice=9)      # to Ann's Electric Company: ten times a fresh throw
    t.turn(A, 9)                                 # Water Works
    t.turn(C, 9)                                 # Kentucky Avenue: two houses
    t.turn(A, 4)                                 # her own (mortgaged) North Carolina Avenue
    t.turn(C, 6)                                 # Ventnor Avenue
    t.build(A, ATLANTIC, VENTNOR)
    t.turn(A, 8)                                 # GO
    t.turn(C, 9, card="ch-repairs")              # $25 a house, $100 a hotel: $450
    t.mortgage(C, WATER, BO_RR, SHORT_LINE)
    t.mark("general repairs: Cid mortgages his utility and railroads to pay $450")
    t.turn(A, 9)                                 # Connecticut Avenue: Cid's hotel, $600
    t.mortgage(A, PARK_PLACE, PENN_RR)
    t.turn(C, 6, card="cc-doctor")               # round GO
    t.build(C, ST_CHARLES, STATES, VIRGINIA)     # three houses on every pink
    t.turn(A, 10)                                # her own New York Avenue
    t.turn(C, 9)                                 # his own St. Charles Place
    t.turn(A, 7)                                 # her own Atlantic Avenue
    t.turn(C, 5)                                 # St. James Place: $750
    t.sell(C, ST_CHARLES, STATES, VIRGINIA, ST_CHARLES, STATES)
    t.turn(A, 8)                                 # her own (mortgaged) Pennsylvania Avenue
    t.turn(C, 8)                                 # Illinois Avenue: $300
    t.sell(C, VIRGINIA, ST_CHARLES, STATES, VIRGINIA)
    t.mortgage(C, ST_CHARLES)
    t.turn(A, 6)                                 # GO
    t.turn(C, 6)                                 # Go to Jail
    t.turn(A, 7, card="ch-dividend")
    t.stay(C)
    t.turn(A, 9)                                 # her own St. James Place
    t.stay(C)
    t.turn(A, 3)                                 # her own New York Avenue
    t.do({"op": "jail_fine", "player": C})       # the third turn in jail: the fine, with $19 in hand
    t.sell(C, CONNECTICUT, ORIENTAL)             # hotels exchanged for four houses each, half the hotel paid
    t.turn(C, 9)                                 # New York Avenue: Ann's hotel, $1,000
    t.bankrupt(C)
    t.mark("Cid bankrupt to Ann: Ann wins")


def uk_bank_bankruptcy(t: Evening) -> None:
    """UK 2008 with the Speed Die, four players: a bankruptcy to the bank and the auctions of the
    deeds it takes back; both taxes; a Get Out of Jail Free card kept, sold and used."""
    HAT, IAN, JES, KIT = "Hattie", "Ian", "Jess", "Kit"
    WHITECHAPEL, EUSTON, PENTONVILLE, WHITEHALL, NORTHUMBERLAND, MARYLEBONE = 3, 8, 9, 13, 14, 15
    BOW, MARLBOROUGH, VINE, STRAND, FLEET, TRAFALGAR = 16, 18, 19, 21, 23, 24
    LEICESTER, COVENTRY, PICCADILLY, REGENT, OXFORD, BOND, LIVERPOOL_ST, PARK_LANE, MAYFAIR = 26, 27, 29, 31, 32, 34, 35, 37, 39
    # --- the first times round: with the Speed Die the board fills up fast
    t.turn(HAT, 6, buy=True)                     # The Angel Islington
    t.turn(IAN, 9, buy=True)                     # Pentonville Road
    t.turn(JES, 5, buy=True)                     # King's Cross Station
    t.turn(KIT, 8, buy=True)                     # Euston Road
    t.turn(HAT, 11, card="cc-annuity")
    t.turn(IAN, 4, buy=True)                     # Whitehall
    t.turn(JES, 12, card="cc-jail-free")         # kept for later
    t.mark("Jess keeps a Get Out of Jail Free card")
    t.turn(KIT, 6, buy=True)                     # Northumberland Avenue
    t.turn(HAT, 7, buy=True)                     # Trafalgar Square
    t.turn(IAN, 3, buy=True, mr_monopoly="buy")  # Bow Street, and Mr. Monopoly on to Marlborough Street
    t.turn(JES, 2, buy=True)                     # Vine Street
    t.turn(KIT, 7, buy=True)                     # Strand
    t.turn(HAT, 5, buy=True)                     # Piccadilly
    t.turn(IAN, 8, buy=True)                     # Leicester Square
    t.turn(JES, 9, buy=True)                     # Water Works
    t.turn(KIT, 11, buy=True)                    # Oxford Street
    t.turn(HAT, 10, buy=True)                    # Mayfair
    t.turn(IAN, 11, buy=True)                    # Park Lane
    t.turn(JES, 10)                              # Super Tax
    t.mark("Super Tax £100")
    t.turn(KIT, 3, buy=True)                     # Liverpool Street Station
    t.turn(HAT, 5)                               # round GO to Income Tax
    t.mark("Income Tax £200")
    t.turn(IAN, 8)                               # round GO to King's Cross: rent to Jess
    t.turn(JES, 7)                               # round GO to her own King's Cross
    t.turn(KIT, 12, card="ch-crossword")         # round GO
    t.turn(HAT, 7, buy=True)                     # Pall Mall
    t.turn(IAN, 10, buy=True)                    # Marylebone Station
    t.turn(JES, 7, buy=True)                     # Electric Company
    t.turn(KIT, 3, mr_monopoly="buy")            # Just Visiting; Mr. Monopoly sends him to Fleet Street
    t.turn(HAT, 12)                              # Fleet Street
    t.turn(IAN, 7, card="ch-jail")
    t.turn(JES, 13, buy=True)                    # Fenchurch St. Station
    t.turn(KIT, 8, buy=True)                     # Regent Street
    t.turn(HAT, 11, buy=True)                    # Bond Street
    t.do({"op": "jail_fine", "player": IAN})
    t.mark("Ian pays the jail fine")
    t.turn(IAN, 9)                               # Vine Street
    t.turn(JES, 8, card="cc-birthday")           # £10 from each player
    t.turn(KIT, 9)                               # GO
    t.turn(HAT, 6)                               # GO
    t.turn(IAN, 8, buy=True)                     # Coventry Street
    t.turn(JES, 6)                               # Mayfair
    t.turn(KIT, 3, buy=True)                     # Whitechapel Road
    t.turn(HAT, 2, card="cc-doctor")
    t.turn(IAN, 4)                               # Regent Street
    t.turn(JES, 6)                               # round GO to her own King's Cross
    t.turn(KIT, 9)                               # Electric Company
    # --- the trading break
    t.trade(JES, IAN, give={"spaces": [VINE]}, get={"spaces": [MARYLEBONE], "cash": 150})
    t.trade(IAN, HAT, give={"spaces": [PARK_LANE]}, get={"spaces": [PICCADILLY]})
    t.trade(HAT, KIT, give={"spaces": [TRAFALGAR, BOND]}, get={"cash": 520})
    t.trade(KIT, JES, give={"spaces": [LIVERPOOL_ST]}, get={"cash": 250})
    # --- building: Hattie on the dark blues, Ian on the oranges, Kit on the reds
    t.build(HAT, PARK_LANE, MAYFAIR, PARK_LANE, MAYFAIR, PARK_LANE, MAYFAIR)
    t.mortgage(IAN, PENTONVILLE, WHITEHALL)
    t.build(IAN, BOW, MARLBOROUGH, VINE, BOW, MARLBOROUGH, VINE)
    t.build(KIT, STRAND, FLEET, TRAFALGAR, STRAND, FLEET, TRAFALGAR)
    t.turn(HAT, 9)                               # her own Pall Mall
    t.turn(IAN, 10, buy=True, mr_monopoly=True)  # round GO to Old Kent Road, the last deed; Mr. Monopoly: rent
    t.turn(JES, 11)                              # Bow Street: two houses
    t.trade(JES, KIT, give={"jail_cards": 1}, get={"cash": 40})
    t.mark("Jess sells her Get Out of Jail Free card to Kit")
    t.turn(KIT, 6)                               # Marlborough Street: two houses
    t.mortgage(KIT, WHITECHAPEL)
    t.turn(HAT, 8)                               # Vine Street: two houses
    t.turn(IAN, 12)                              # Marylebone Station: four stations, £200 to Jess
    t.turn(JES, 7)                               # Fleet Street: two houses
    t.turn(KIT, 12)                              # Go to Jail
    t.turn(HAT, 10)                              # Piccadilly: Ian holds the yellows, double rent
    t.turn(IAN, 9)                               # Trafalgar Square: two houses
    t.turn(JES, 8)                               # Regent Street: Kit holds the greens, double rent
    t.do({"op": "jail_card", "player": KIT, "use": True})
    t.mark("Kit uses the Get Out of Jail Free card he bought from Jess")
    t.turn(KIT, 8)                               # Marlborough Street
    t.turn(HAT, 8)                               # her own Park Lane
    t.turn(IAN, 12, card="ch-speeding")
    t.turn(JES, 6)                               # Park Lane: three houses, £1,100
    t.turn(KIT, 7)                               # Fenchurch St. Station: £200 to Jess
    t.build(IAN, LEICESTER, COVENTRY, PICCADILLY)
    t.turn(HAT, 7)                               # round GO to Income Tax
    t.turn(IAN, 9)                               # round GO to King's Cross
    t.turn(JES, 9)                               # round GO to The Angel Islington
    t.turn(KIT, 9)                               # his own Bond Street
    t.turn(HAT, 10)                              # Northumberland Avenue
    t.turn(IAN, 11)                              # his own Bow Street
    t.turn(JES, 10)                              # Bow Street
    t.turn(KIT, 8, card="cc-insurance")          # round GO
    t.build(HAT, PARK_LANE, MAYFAIR)             # four houses on each
    t.turn(HAT, 8, card="ch-dividend")
    t.turn(IAN, 7)                               # Fleet Street: two houses
    t.turn(JES, 9)                               # her own Fenchurch St. Station
    t.turn(KIT, 12)                              # his own Northumberland Avenue
    t.turn(HAT, 9)                               # Regent Street
    t.turn(IAN, 6)                               # his own Piccadilly
    t.turn(JES, 7)                               # Oxford Street
    t.turn(KIT, 9)                               # his own Fleet Street
    t.turn(HAT, 8)                               # her own Mayfair
    t.turn(IAN, 9)                               # Super Tax
    t.turn(JES, 3)                               # her own Liverpool Street Station
    t.turn(KIT, 14)                              # Park Lane: four houses, £1,300
    t.sell(KIT, STRAND, FLEET, TRAFALGAR, STRAND, FLEET, TRAFALGAR)
    t.mortgage(KIT, REGENT)
    t.mark("Kit raises £1,300: six red houses sold and Regent Street mortgaged")
    t.turn(HAT, 8, card="ch-building-loan")      # round GO
    t.turn(IAN, 7)                               # round GO to King's Cross
    t.turn(JES, 8)                               # round GO to Whitechapel Road, mortgaged
    t.turn(KIT, 12)                              # round GO to Pentonville Road, mortgaged
    t.turn(HAT, 9)                               # Bow Street
    t.turn(IAN, 11)                              # his own Bow Street
    t.turn(JES, 13)                              # Bow Street
    t.turn(KIT, 7)                               # Bow Street
    t.turn(HAT, 9)                               # Fenchurch St. Station
    t.turn(IAN, 8)                               # Trafalgar Square: the reds all unmortgaged, double rent
    t.turn(JES, 9)                               # her own Fenchurch St. Station
    t.turn(KIT, 9)                               # Fenchurch St. Station: £200
    t.mortgage(KIT, OXFORD)
    t.turn(HAT, 12)                              # her own Park Lane
    t.turn(IAN, 11)                              # Liverpool Street Station
    t.turn(JES, 4)                               # Piccadilly
    t.turn(KIT, 10)                              # Liverpool Street Station: £200
    t.mortgage(KIT, BOND, STRAND)
    t.build(HAT, PARK_LANE, MAYFAIR)             # hotels on the dark blues
    t.turn(HAT, 8)                               # round GO to King's Cross
    t.turn(IAN, 9)                               # round GO to Income Tax
    t.turn(JES, 8)                               # Park Lane: the hotel
    t.turn(KIT, 12, card="ch-school")            # round GO
    t.turn(HAT, 9)                               # Northumberland Avenue
    t.turn(IAN, 12)                              # his own Bow Street
    t.turn(JES, 12)                              # round GO to Pentonville Road, mortgaged
    t.turn(KIT, 12)                              # Vine Street
    t.mortgage(KIT, FLEET)
    t.turn(HAT, 8, card="ch-drunk")
    t.turn(IAN, 9)                               # Fenchurch St. Station
    t.turn(JES, 10)                              # Vine Street
    t.turn(KIT, 7)                               # Leicester Square
    t.mortgage(KIT, TRAFALGAR)
    t.turn(HAT, 6)                               # Water Works
    t.turn(IAN, 8, card="cc-stock")
    t.turn(JES, 10)                              # Piccadilly
    t.turn(KIT, 7, card="cc-hospital")
    t.mortgage(KIT, NORTHUMBERLAND)
    t.turn(HAT, 10)                              # Super Tax
    t.turn(IAN, 5)                               # Super Tax
    t.turn(JES, 6)                               # her own Liverpool Street Station
    t.turn(KIT, 5)                               # Super Tax: £100; he has £28 and Euston Road's £50 mortgage
    t.bankrupt(KIT)
    t.mark("Kit bankrupt to the bank: his nine deeds go back for auction")
    # --- the bank auctions Kit's deeds, unmortgaged, one by one
    t.auction(WHITECHAPEL, IAN, 75).mark("auction of Kit's deeds: Whitechapel Road to Ian (the browns)")
    t.auction(EUSTON, None).mark("auction: nobody bids for Euston Road; it stays with the bank")
    t.auction(NORTHUMBERLAND, IAN, 90)
    t.auction(STRAND, JES, 230)
    t.auction(FLEET, HAT, 250)                   # Hattie keeps Jess from the reds
    t.auction(TRAFALGAR, HAT, 260)
    t.auction(REGENT, HAT, 320)
    t.auction(OXFORD, HAT, 340)
    t.auction(BOND, IAN, 400).mark("auction: Ian outbids Hattie for Bond Street, the last of Kit's deeds")
    # --- three players go on
    t.turn(HAT, 9, card="ch-marylebone")         # round GO, then to Marylebone Station: £200 to Jess
    t.turn(IAN, 11)                              # round GO to his own Pentonville Road
    t.turn(JES, 13, buy=True)                    # round GO to Euston Road: no longer waiting for an auction
    t.mark("Jess buys Euston Road, left with the bank, at the printed price")
    t.trade(IAN, HAT, give={"spaces": [BOND]}, get={"cash": 650})
    t.mark("Ian sells Bond Street to Hattie: she holds the greens")
    t.unmortgage(IAN, PENTONVILLE, WHITEHALL)
    t.build(IAN, LEICESTER, COVENTRY, PICCADILLY)  # two houses on each yellow
    t.build(HAT, REGENT, OXFORD, BOND, REGENT, OXFORD, BOND)
    t.turn(HAT, 8)                               # her own Fleet Street
    t.turn(IAN, 7)                               # his own Bow Street
    t.turn(JES, 9, card="cc-inherit")
    t.turn(HAT, 9)                               # her own Oxford Street
    t.turn(IAN, 9)                               # Fenchurch St. Station
    t.turn(JES, 6)                               # Fleet Street: Jess holds the Strand, so no double rent
    t.turn(HAT, 8)                               # GO
    t.turn(IAN, 11, card="ch-street-repairs")    # £40 for each of his twelve houses
    t.turn(JES, 8)                               # Regent Street: two houses
    # --- past midnight: the table agrees to stop and count
    t.end_game()
    t.mark("end of the game by agreement: the bank values every player")


def ru_short(t: Evening) -> None:
    """Russian edition, the short game: two deeds dealt to each player, hotels after three
    houses, a debt paid partly in a deed, and the end at the second bankruptcy."""
    AL, MA, DM, OL = "Алексей", "Марина", "Дмитрий", "Ольга"
    ZHITNAYA, VARSHAVKA, OGAREVA, PARKOVAYA, ELEKTROSTANTSIYA, SRETENKA, KURSKAYA = 1, 6, 8, 9, 12, 13, 15
    RYAZANSKIY, VAVILOVA, RUBLEVKA, TVERSKAYA, PUSHKINSKAYA, MAYAKOVSKAYA, KAZANSKAYA = 16, 18, 19, 21, 23, 24, 25
    GRUZINSKIY, NOVINSKIY, VODOPROVOD, KUTUZOVSKIY, BRONNAYA, ARBAT = 26, 27, 28, 34, 37, 39
    # --- the deal: the deeds shuffled, two to each player, paid at the printed price
    t.deal(AL, RYAZANSKIY).deal(MA, VARSHAVKA).deal(DM, RUBLEVKA).deal(OL, TVERSKAYA)
    t.deal(AL, KUTUZOVSKIY).deal(MA, KAZANSKAYA).deal(DM, ARBAT).deal(OL, VODOPROVOD)
    t.mark("the deal: two deeds to each player")
    # --- round the board
    t.turn(AL, 11, buy=True)                     # Улица Полянка
    t.turn(MA, 8, buy=True)                      # Улица Огарёва
    t.turn(DM, 7, card="ch-dividend")
    t.turn(OL, 6)                                # Варшавское шоссе: rent to Марина
    t.turn(AL, 7, buy=True)                      # Улица Вавилова
    t.turn(MA, 9, card="cc-annuity")
    t.turn(DM, 8, buy=True)                      # Курская железная дорога
    t.turn(OL, 3, auction=(MA, 130))             # Первая Парковая: Ольга passes, Марина completes the light blues
    t.turn(AL, 8, buy=True)                      # Улица Грузинский Вал
    t.turn(MA, 6, auction=(OL, 230))             # Пушкинская улица: Марина passes, Ольга takes it
    t.turn(DM, 12, buy=True)                     # Новинский бульвар
    t.turn(OL, 4, buy=True)                      # Улица Сретенка
    t.turn(AL, 10, card="ch-crossword")
    t.turn(MA, 9, buy=True)                      # Гоголевский бульвар
    t.turn(DM, 10, buy=True)                     # Улица Малая Бронная: with the Арбат, the dark blues
    t.turn(OL, 11, buy=True)                     # Площадь Маяковского: with Тверская and Пушкинская, the reds
    t.trade(DM, AL, give={"spaces": [RUBLEVKA]}, get={"spaces": [GRUZINSKIY], "cash": 150})
    t.mark("Алексей completes the oranges; Дмитрий takes a yellow and cash")
    t.build(MA, VARSHAVKA, OGAREVA, PARKOVAYA, VARSHAVKA, OGAREVA, PARKOVAYA)
    t.build(AL, RYAZANSKIY, VAVILOVA, RUBLEVKA)
    t.build(OL, TVERSKAYA, PUSHKINSKAYA, MAYAKOVSKAYA)
    t.turn(AL, 9, auction=(MA, 210))             # round GO to Рижская железная дорога: Марина outbids him
    t.turn(MA, 12)                               # round GO to Подоходный налог
    t.turn(DM, 9)                                # round GO to Варшавское шоссе: two houses
    t.turn(OL, 9, card="cc-birthday")            # 10 т.р. from each player
    t.turn(AL, 6)                                # Улица Полянка, his own
    t.turn(MA, 9)                                # Улица Сретенка: rent to Ольга
    t.mortgage(DM, NOVINSKIY, GRUZINSKIY)        # the yellows pay for houses on the dark blues
    t.build(DM, BRONNAYA, ARBAT)
    t.turn(DM, 9)                                # his own Курская железная дорога
    t.turn(OL, 8, buy=True)                      # round GO to Житная улица
    t.turn(AL, 7)                                # his own Улица Вавилова
    t.turn(MA, 9, card="ch-speeding")
    t.turn(DM, 6)                                # Улица Тверская: one house
    t.turn(OL, 8)                                # Первая Парковая улица: two houses
    t.turn(AL, 7)                                # Казанская железная дорога: two railways
    t.turn(MA, 8)                                # Отправляйтесь в тюрьму
    t.turn(DM, 5)                                # his own (mortgaged) Грузинский Вал
    t.turn(OL, 7)                                # Рязанский проспект: one house
    t.turn(AL, 7)                                # Гоголевский бульвар
    t.turn(MA, 8, fine=True)                     # pays the fine: Улица Вавилова
    t.turn(DM, 10, card="ch-repairs")            # 25 т.р. for each of his two houses
    t.turn(OL, 8)                                # her own Площадь Маяковского
    t.turn(AL, 9)                                # round GO to Житная улица
    t.turn(MA, 11, buy=True)                     # Смоленская площадь
    t.turn(DM, 12)                               # round GO to Улица Огарёва: two houses
    t.turn(OL, 10)                               # Кутузовский проспект
    t.build(AL, RYAZANSKIY, VAVILOVA, RUBLEVKA)
    t.build(MA, VARSHAVKA, OGAREVA, PARKOVAYA)   # three houses each
    t.turn(AL, 8)                                # Первая Парковая улица: three houses, 300 т.р.
    t.mortgage(AL, KUTUZOVSKIY)
    t.turn(MA, 6, buy=True)                      # Ленинградская железная дорога: her third railway
    t.turn(DM, 8)                                # Рязанский проспект: two houses
    t.turn(OL, 6)                                # GO
    t.turn(AL, 12)                               # Улица Тверская: one house
    t.turn(MA, 7, card="cc-shares")              # round GO
    t.turn(DM, 9)                                # Казанская железная дорога: 100 т.р., and he has 20
    t.trade(DM, MA, give={"spaces": [KURSKAYA]}, debt_credit=100)
    t.mark("a debt paid in kind (RU rule): Дмитрий gives Марина the Курская railway for the 100 т.р. he owes")
    t.turn(OL, 8)                                # Улица Огарёва: three houses
    t.turn(AL, 9)                                # Отправляйтесь в тюрьму
    t.build(MA, VARSHAVKA, OGAREVA, PARKOVAYA)   # hotels after three houses in the short game
    t.mark("short game: Марина's hotels after three houses")
    t.turn(MA, 9)                                # Улица Полянка
    t.turn(DM, 12)                               # his own Улица Малая Бронная
    t.turn(OL, 11)                               # Рублёвское шоссе: two houses
    t.mortgage(OL, SRETENKA)
    t.turn(AL, 8, fine=True)                     # his own Улица Вавилова
    t.turn(MA, 4)                                # her own Курская железная дорога
    t.turn(DM, 5, card="cc-doctor")              # round GO
    t.turn(OL, 6)                                # Казанская железная дорога: four railways, 200 т.р.
    t.sell(OL, TVERSKAYA, PUSHKINSKAYA, MAYAKOVSKAYA)
    t.turn(AL, 9)                                # Новинский бульвар, mortgaged
    t.turn(MA, 4)                                # Рублёвское шоссе
    t.turn(DM, 7)                                # Первая Парковая улица: Марина's hotel, 600 т.р.
    t.sell(DM, BRONNAYA, ARBAT)
    t.mortgage(DM, ARBAT, BRONNAYA)
    t.mark("Дмитрий raises 600 т.р.: his two houses sold, the dark blues mortgaged")
    t.turn(OL, 11, card="ch-building-loan")      # Шанс
    t.build(AL, RYAZANSKIY, VAVILOVA, RUBLEVKA)  # three houses on each orange
    t.do({"op": "tax", "player": MA, "space": 38})
    t.undo("it is Алексей on Сверхналог, not Марина")
    t.mark("undo: a tax charged to the wrong player")
    t.turn(AL, 11)                               # Сверхналог
    t.turn(MA, 9)                                # Водопровод: 4 x 9 to Ольга
    t.turn(DM, 12)                               # Улица Тверская: Ольга holds the reds, double rent
    t.turn(OL, 8)                                # round GO to Подоходный налог
    t.turn(AL, 7)                                # round GO to Рижская: Марина's four railways, 200 т.р.
    t.turn(MA, 6)                                # Кутузовский проспект, mortgaged
    t.turn(DM, 9)                                # Отправляйтесь в тюрьму
    t.turn(OL, 8, buy=True)                      # Электростанция: with the Водопровод, both utilities
    t.turn(AL, 11)                               # his own Рязанский проспект
    t.turn(MA, 8, card="cc-inherit")             # round GO
    t.turn(DM, 8, fine=True)                     # out of jail onto Улица Вавилова: three houses, 550 т.р.
    t.bankrupt(DM)
    t.mark("first bankruptcy: Дмитрий to Алексей, who pays 10% on four mortgaged deeds")
    t.turn(OL, 7)                                # Рублёвское шоссе: three houses, 600 т.р.
    t.mortgage(OL, TVERSKAYA, PUSHKINSKAYA, MAYAKOVSKAYA, VODOPROVOD, ELEKTROSTANTSIYA, ZHITNAYA)
    t.mark("Ольга mortgages everything to pay 600 т.р.")
    t.build(AL, RYAZANSKIY, VAVILOVA, RUBLEVKA)  # hotels
    t.turn(AL, 9)                                # Казанская железная дорога: 200 т.р. to Марина
    t.turn(MA, 8)                                # Just visiting
    t.turn(OL, 5)                                # her own (mortgaged) Площадь Маяковского
    t.turn(AL, 8, card="cc-tax-refund")
    t.turn(MA, 6)                                # Рязанский проспект: Алексей's hotel, 950 т.р.
    t.turn(OL, 4)                                # her own Водопровод, mortgaged
    t.unmortgage(AL, ARBAT, BRONNAYA)            # the dark blues he took from Дмитрий
    t.build(AL, BRONNAYA, ARBAT)
    t.turn(AL, 6)                                # his own Улица Арбат
    t.turn(MA, 12)                               # Водопровод, mortgaged: no rent
    t.turn(OL, 12)                               # GO: 200 т.р., all she has
    t.turn(AL, 8, card="ch-rizhskaya")           # round GO and on to Рижская: 200 т.р. to Марина
    t.turn(MA, 9)                                # Улица Малая Бронная: one house
    t.turn(OL, 7, card="ch-back-3")              # back to Подоходный налог
    t.turn(AL, 9, buy=True)                      # Ростовская набережная, the last deed in the bank
    t.build(AL, BRONNAYA, ARBAT)
    t.turn(MA, 9)                                # round GO to her own Варшавское шоссе
    t.turn(OL, 4)                                # Улица Огарёва: Марина's hotel, 550 т.р.; she has 25 and nothing to sell
    t.bankrupt(OL)
    t.mark("second bankruptcy: Ольга to Марина; the short game ends and the bank values the rest")


def kyiv_agreed_end(t: Evening) -> None:
    """Kyiv, classic game (the only variant its rule book describes), four players: a mortgaged
    deed traded, mistakes undone, a bankruptcy to a player under the Kyiv rule (everything is
    raised and mortgaged first), and the end agreed at the table, valued by the bank."""
    OE, TA, OK, BO = "Олена", "Тарас", "Оксана", "Богдан"
    DARNYTSIA, HIDROPARK, ZHULIANY, TRUKHANIV, VDNH = 6, 11, 12, 13, 14
    HOLOSIIV, BOTSAD, MARIINSKYI, POSHTOVA, KONTRAKTOVA, PEIZAZHNA, TEATRALNA = 16, 18, 19, 21, 23, 24, 25
    MYKHAILIVSKA, BORYSPIL, VOLODYMYRSKA, BESSARABSKA, LAVRA, MAIDAN, ANDRIIVSKYI, KHRESHCHATYK = (
        26, 28, 31, 32, 34, 35, 37, 39)
    # --- the first rounds: everybody buys
    t.turn(OE, 8, buy=True)                      # Оболонь
    t.turn(TA, 11, buy=True)                     # Гідропарк
    t.turn(OK, 6, buy=True)                      # Дарниця
    t.turn(BO, 9, buy=True)                      # Русанівка
    t.turn(OE, 9, card="cc-bank-error")
    t.turn(TA, 5, buy=True)                      # Голосіївський парк
    t.turn(OK, 12, buy=True)                     # Ботанічний сад імені Гришка
    t.turn(BO, 5, buy=True)                      # ВДНГ
    t.turn(OE, 4, buy=True)                      # Поштова площа
    t.turn(TA, 8, buy=True)                      # Пейзажна алея
    t.turn(OK, 8, buy=True)                      # Михайлівська площа
    t.turn(BO, 10)                               # Пейзажна алея: rent to Тарас
    t.turn(OE, 6, buy=True)                      # Софійська площа
    t.turn(TA, 8, buy=True)                      # Бессарабська площа
    t.turn(OK, 5, buy=True)                      # Володимирська гірка
    t.turn(BO, 11, buy=True)                     # Станція метро «Майдан Незалежності»
    t.turn(OE, 12, buy=True)                     # Хрещатик
    t.turn(TA, 5, buy=True)                      # Андріївський узвіз
    t.turn(OK, 3, buy=True)                      # Києво-Печерська лавра
    t.turn(BO, 7, card="cc-annuity")             # round СТАРТ
    t.turn(OE, 6, buy=True)                      # round СТАРТ to Станція метро «Вокзальна»
    t.turn(TA, 9)                                # round СТАРТ to Дарниця
    t.turn(OK, 4)                                # Маршрутка
    t.turn(BO, 11, buy=True)                     # Труханів острів
    t.turn(OE, 10, buy=True)                     # Станція метро «Арсенальна»
    t.turn(TA, 7)                                # Труханів острів
    t.turn(OK, 5, buy=True)                      # round СТАРТ to Борщагівка
    t.turn(BO, 10, buy=True)                     # Контрактова площа
    t.turn(OE, 4, buy=True)                      # Маріїнський парк
    t.turn(TA, 9, card="ch-dividend")
    t.turn(OK, 9, buy=True)                      # Міжнародний аеропорт «Жуляни»
    t.turn(BO, 6, buy=True)                      # Золоті ворота
    t.turn(OE, 9, buy=True)                      # Міжнародний аеропорт «Бориспіль»
    t.turn(TA, 3, buy=True)                      # Станція метро «Театральна»
    t.turn(OK, 8)                                # Безкоштовне паркування
    t.turn(BO, 7, card="ch-crossword")
    t.turn(OE, 4)                                # Бессарабська площа
    t.turn(TA, 11, card="ch-jail")
    t.turn(OK, 10)                               # Йдіть до в’язниці
    t.turn(BO, 5, buy=True)                      # round СТАРТ to Троєщина, the last deed
    # --- the trades
    t.mortgage(OE, POSHTOVA)                     # Олена is short of cash
    t.trade(TA, BO, give={"spaces": [PEIZAZHNA]}, get={"spaces": [TRUKHANIV, VDNH]})
    t.mark("Тарас completes the pinks")
    t.trade(OE, BO, give={"spaces": [POSHTOVA]}, get={"spaces": [MAIDAN], "cash": 100})
    t.mark("trade of a mortgaged deed: Богдан takes Поштова площа and pays the bank 10%")
    t.trade(TA, OE, give={"spaces": [ANDRIIVSKYI]}, get={"spaces": [MARIINSKYI], "cash": 150})
    t.trade(TA, OK, give={"spaces": [BESSARABSKA]}, get={"spaces": [BOTSAD]})
    t.mark("Тарас completes the oranges, Оксана the greens")
    # --- building
    t.build(TA, HIDROPARK, TRUKHANIV, VDNH)
    t.unmortgage(BO, POSHTOVA)
    t.build(BO, POSHTOVA, KONTRAKTOVA, PEIZAZHNA)
    t.turn(OE, 8)                                # СТАРТ
    t.turn(TA, 6, fine=True)                     # his own Голосіївський парк
    t.turn(OK, 8, fine=True)                     # Ботанічний сад: Тарас holds the oranges, double rent
    t.turn(BO, 8)                                # his own Русанівка
    t.turn(OE, 6)                                # Дарниця
    t.turn(TA, 8)                                # Пейзажна алея: one house
    t.turn(OK, 11)                               # Золоті ворота
    t.turn(BO, 5)                                # ВДНГ: one house
    t.turn(OE, 7)                                # Труханів острів: one house
    t.turn(TA, 12, card="ch-speeding")
    t.turn(OK, 5)                                # her own Києво-Печерська лавра
    t.turn(BO, 9)                                # his own Контрактова площа
    t.mortgage(OK, MYKHAILIVSKA, ZHULIANY)
    t.build(OK, VOLODYMYRSKA)
    t.turn(OE, 9, card="ch-building-loan")
    t.turn(TA, 8)                                # round СТАРТ to Метро: M200
    t.do({"op": "rent", "payer": TA, "space": KHRESHCHATYK})
    t.undo("it is Оксана on Хрещатик; Тарас is on Метро")
    t.mark("undo: rent charged to the wrong player")
    t.turn(OK, 5)                                # Хрещатик: Олена holds the dark blues, double rent
    t.turn(BO, 8)                                # Володимирська гірка: one house
    t.build(OE, ANDRIIVSKYI, KHRESHCHATYK)
    t.turn(OE, 7)                                # Золоті ворота
    t.turn(TA, 9)                                # his own Труханів острів
    t.turn(OK, 7)                                # round СТАРТ to her own Дарниця
    t.turn(BO, 9)                                # СТАРТ
    t.salary(BO)
    t.undo("Богдан was already paid for СТАРТ")
    t.mark("undo: a salary paid twice")
    t.turn(OE, 8)                                # her own Андріївський узвіз
    t.turn(TA, 11)                               # Пейзажна алея: one house
    t.turn(OK, 10)                               # Голосіївський парк: double rent
    t.turn(BO, 9)                                # his own Русанівка
    t.turn(OE, 6)                                # round СТАРТ to Борщагівка
    t.turn(TA, 7)                                # Володимирська гірка: one house
    t.sell(TA, HIDROPARK)
    t.turn(OK, 8)                                # Пейзажна алея: one house
    t.turn(BO, 7)                                # Голосіївський парк
    t.turn(OE, 8)                                # Гідропарк: one house
    t.turn(TA, 8)                                # Хрещатик: one house, M200
    t.sell(TA, TRUKHANIV, VDNH)
    t.mortgage(TA, TEATRALNA)
    t.mark("Тарас raises M200: two pink houses sold back, a metro station mortgaged")
    t.build(BO, POSHTOVA, KONTRAKTOVA, PEIZAZHNA)
    t.build(OE, ANDRIIVSKYI, KHRESHCHATYK)
    t.turn(OK, 11)                               # Станція метро «Майдан Незалежності»: three stations
    t.turn(BO, 6, card="ch-drunk")
    t.turn(OE, 9)                                # Безкоштовне паркування
    t.turn(TA, 9)                                # round СТАРТ to Оболонь
    t.turn(OK, 7, card="cc-birthday")            # round СТАРТ; M10 from each player
    t.turn(BO, 8)                                # Йдіть до в’язниці
    t.turn(OE, 4)                                # Пейзажна алея: two houses, M300
    t.mortgage(OE, BORYSPIL)
    t.turn(TA, 5)                                # his own Труханів острів
    t.turn(OK, 10)                               # her own (mortgaged) Жуляни
    t.stay(BO)
    t.turn(OE, 9, card="cc-tax-refund")
    t.turn(TA, 11)                               # Пейзажна алея: M300
    t.mortgage(TA, HIDROPARK)
    t.turn(OK, 9)                                # Поштова площа: two houses
    t.turn(BO, 7, fine=True, card="cc-inherit")
    t.turn(OE, 6)                                # her own Хрещатик
    t.turn(TA, 12, card="ch-khreshchatyk")       # to Хрещатик: two houses, M600; he could raise M473
    t.bankrupt(TA, lift=[HOLOSIIV, BOTSAD, MARIINSKYI])
    t.mark("Тарас bankrupt to Олена, Kyiv rule: everything mortgaged first; she pays 10% and lifts the oranges")
    # --- three players left
    t.build(BO, POSHTOVA, KONTRAKTOVA, PEIZAZHNA)
    t.turn(OK, 8)                                # Золоті ворота
    t.turn(BO, 7)                                # his own Пейзажна алея
    t.turn(OE, 5)                                # round СТАРТ to Метро: M200
    t.trade(OE, BO, give={"spaces": [HIDROPARK, TRUKHANIV, VDNH]}, get={"cash": 250},
            lift=[HIDROPARK, TRUKHANIV, VDNH])
    t.mark("trade of three mortgaged pinks: Богдан lifts them at once")
    t.build(OE, HOLOSIIV, BOTSAD, MARIINSKYI)
    t.turn(OK, 6)                                # Станція метро «Майдан Незалежності»: four stations
    t.turn(BO, 10)                               # Києво-Печерська лавра
    t.turn(OE, 7)                                # Гідропарк
    t.turn(OK, 8)                                # round СТАРТ to her own Борщагівка
    t.turn(BO, 9)                                # round СТАРТ to Борщагівка
    t.turn(OE, 8)                                # her own Маріїнський парк
    t.build(BO, HIDROPARK)
    t.turn(OK, 10)                               # Труханів острів
    t.turn(BO, 11)                               # his own ВДНГ
    t.turn(OE, 7)                                # Михайлівська площа, mortgaged
    t.turn(OK, 11)                               # Пейзажна алея: three houses, M750
    t.sell(OK, VOLODYMYRSKA)
    t.mortgage(OK, VOLODYMYRSKA, BESSARABSKA, LAVRA)
    t.mark("Оксана raises M750: her green house sold, the greens mortgaged")
    t.turn(BO, 9)                                # his own Контрактова площа
    t.turn(OE, 8)                                # Києво-Печерська лавра, mortgaged
    t.turn(OK, 8)                                # her own (mortgaged) Бессарабська площа
    t.build(BO, TRUKHANIV, VDNH, POSHTOVA, KONTRAKTOVA, PEIZAZHNA)
    t.turn(BO, 8)                                # Володимирська гірка, mortgaged
    t.turn(OE, 6)                                # СТАРТ
    t.turn(OK, 6)                                # Маршрутка: M100
    t.mortgage(OK, DARNYTSIA)
    t.turn(BO, 9)                                # СТАРТ
    t.turn(OE, 5)                                # her own Станція метро «Вокзальна»
    t.turn(OK, 8)                                # round СТАРТ to her own Дарниця
    # --- the last metro: the table agrees to stop and let the bank count
    t.end_game()
    t.mark("the end agreed at the table: the bank values the three players")

def us_timed(t: Evening) -> None:
    """US classic, the time-limit game, three players: two deeds dealt to each, an agreed end
    at 22:30, and the richest player by the bank's valuation wins."""
    E, F, G = "Eve", "Finn", "Gus"
    # --- the deal
    t.deal(E, ST_JAMES).deal(F, KENTUCKY).deal(G, ORIENTAL)
    t.deal(E, PARK_PLACE).deal(F, READING).deal(G, WATER)
    t.mark("the deal: two deeds to each player; the game ends at 22:30")
    t.turn(E, 8, buy=True)                       # Vermont Avenue
    t.turn(F, 9, buy=True)                       # Connecticut Avenue
    t.turn(G, 7, card="ch-dividend")
    t.turn(E, 10, buy=True)                      # Tennessee Avenue
    t.turn(F, 12)                                # his own Kentucky Avenue
    t.turn(G, 6, buy=True)                       # States Avenue
    t.turn(E, 6, buy=True)                       # Illinois Avenue
    t.turn(F, 5, buy=True)                       # Atlantic Avenue
    t.turn(G, 9, card="ch-back-3", buy=True)     # back to New York Avenue, and buys it
    t.turn(E, 4)                                 # Water Works: 4 x 4 to Gus
    t.turn(F, 7, card="cc-xmas")
    t.turn(G, 8, buy=True)                       # Ventnor Avenue
    t.turn(E, 11, buy=True)                      # Boardwalk: with Park Place, the dark blues
    t.mortgage(E, ILLINOIS)
    t.turn(F, 8, buy=True)                       # round GO to Mediterranean Avenue
    t.turn(G, 4, buy=True)                       # Pacific Avenue
    t.turn(E, 7)                                 # round GO to Oriental Avenue
    t.turn(F, 10, buy=True)                      # St. Charles Place
    t.turn(G, 9)                                 # GO
    t.turn(E, 8, buy=True)                       # Virginia Avenue
    t.turn(F, 12, buy=True)                      # Indiana Avenue
    t.turn(G, 4, choice="percent")               # Income Tax: 10% of his worth
    t.mark("Income Tax: Gus chooses 10% ($177)")
    t.turn(E, 5)                                 # New York Avenue
    t.turn(F, 9, auction=(G, 250))               # North Carolina Avenue: Finn passes, Gus bids $250
    t.undo("the bid was $205, not $250")
    t.mark("undo: an auction bid typed wrong")
    t.auction(NORTH_CAROLINA, G, 205)
    # --- trades
    t.trade(E, F, give={"spaces": [ILLINOIS]}, get={"cash": 200}, lift=[ILLINOIS])
    t.mark("trade of a mortgaged deed: Finn lifts Illinois Avenue at once")
    t.trade(G, E, give={"spaces": [NEW_YORK]}, get={"spaces": [VIRGINIA]})
    t.trade(F, G, give={"spaces": [ST_CHARLES]}, get={"cash": 160})
    t.build(E, ST_JAMES, TENNESSEE, NEW_YORK)
    t.build(F, KENTUCKY, INDIANA)
    t.turn(G, 9)                                 # his own States Avenue
    t.turn(E, 9)                                 # Water Works
    t.turn(F, 4, card="ch-go")                   # Chance: advance to GO
    t.turn(G, 8)                                 # Kentucky Avenue: one house
    t.turn(E, 6, auction=(F, 160))               # Pennsylvania Avenue: Eve has $36; Finn bids $160
    t.turn(F, 5)                                 # his own Reading Railroad
    t.turn(G, 7)                                 # his own Water Works
    t.turn(E, 8, card="cc-bank-error")           # round GO
    t.turn(F, 10, buy=True)                      # Pennsylvania Railroad
    t.turn(G, 6)                                 # Pennsylvania Avenue
    t.turn(E, 9)                                 # St. Charles Place: Gus holds the pinks
    t.turn(F, 10, auction=(E, 150))              # B. & O. Railroad: Finn is short; Eve takes it at auction
    t.turn(G, 8, card="cc-stock")                # round GO
    t.build(G, ST_CHARLES, STATES)
    t.turn(E, 8)                                 # her own New York Avenue
    t.turn(F, 4, auction=NOBODY)                 # Marvin Gardens: nobody has the cash to bid
    t.turn(G, 11)                                # his own States Avenue
    t.turn(E, 6)                                 # her own B. & O. Railroad
    t.turn(F, 7, card="ch-illinois")             # round GO to his own Illinois Avenue
    t.turn(G, 8)                                 # Kentucky Avenue: one house, $90
    t.mortgage(G, PACIFIC)
    t.turn(E, 10, buy=True)                      # Short Line
    t.turn(F, 8)                                 # North Carolina Avenue
    t.turn(G, 7)                                 # his own Water Works
    t.turn(E, 7, card="cc-doctor")               # round GO
    t.turn(F, 9)                                 # round GO to Mediterranean Avenue, his own
    t.build(F, ILLINOIS, KENTUCKY)
    t.turn(G, 6)                                 # Pennsylvania Avenue
    t.turn(E, 10, buy=True)                      # Electric Company
    t.turn(F, 4)                                 # his own Reading Railroad
    t.turn(G, 9, buy=True)                       # round GO to Baltic Avenue
    t.turn(E, 7)                                 # her own New York Avenue
    t.turn(F, 8)                                 # States Avenue: one house
    t.turn(G, 11)                                # his own Virginia Avenue
    t.turn(E, 5)                                 # Illinois Avenue: one house, $100
    t.sell(E, ST_JAMES)
    t.turn(F, 8)                                 # his own Kentucky Avenue
    t.turn(G, 9)                                 # Indiana Avenue: one house
    t.turn(E, 5, auction=(G, 200))               # Marvin Gardens: Eve cannot buy it; Gus wins the auction
    t.turn(F, 9)                                 # Go to Jail
    t.turn(G, 10, card="cc-life-insurance")
    t.trade(G, F, give={"spaces": [NORTH_CAROLINA, PACIFIC]}, get={"spaces": [ATLANTIC], "cash": 100})
    t.mark("Gus and Finn swap for the yellows and the greens; Finn pays 10% on mortgaged Pacific Avenue")
    t.turn(E, 8)                                 # her own Park Place
    t.turn(F, 7, fine=True, card="cc-tax-refund")
    t.turn(G, 9, card="cc-beauty")               # round GO
    t.build(G, ATLANTIC, VENTNOR)
    t.turn(E, 5, card="cc-services")             # round GO
    t.turn(F, 4)                                 # his own Kentucky Avenue
    t.turn(G, 9)                                 # his own St. Charles Place
    t.turn(E, 8)                                 # Just Visiting
    t.turn(F, 8)                                 # Marvin Gardens: Gus holds the yellows, double rent
    t.turn(G, 12)                                # Indiana Avenue: one house
    t.turn(E, 6)                                 # her own St. James Place
    t.turn(F, 10)                                # Boardwalk: Eve holds the dark blues, double rent
    t.turn(G, 7)                                 # Go to Jail
    t.turn(E, 9)                                 # her own B. & O. Railroad
    t.turn(F, 8, card="ch-poor-tax")             # round GO
    t.turn(G, 8, fine=True)                      # Tennessee Avenue: one house
    t.mortgage(G, BALTIC)
    t.turn(E, 7)                                 # North Carolina Avenue: Finn's greens, Pacific mortgaged (US: still double)
    t.turn(F, 8)                                 # his own Pennsylvania Railroad
    t.turn(G, 8)                                 # his own Atlantic Avenue
    t.turn(E, 8)                                 # GO
    t.turn(F, 9)                                 # his own Illinois Avenue
    t.turn(G, 6)                                 # North Carolina Avenue
    t.sell(G, VENTNOR)
    t.turn(E, 4, choice="flat")                  # Income Tax: 10% of her worth would be more
    t.mark("Income Tax: Eve chooses the flat $200")
    t.turn(F, 11)                                # Short Line: two railroads
    t.turn(G, 7)                                 # Boardwalk
    t.sell(G, ATLANTIC)
    t.build(E, ST_JAMES, ST_JAMES, TENNESSEE, NEW_YORK)
    t.turn(E, 3, card="ch-jail-free")            # kept, and never needed before the end
    t.turn(F, 7, card="cc-inherit")              # round GO
    t.turn(G, 8, card="ch-building-loan")        # round GO
    t.turn(E, 9)                                 # her own St. James Place
    t.turn(F, 12)                                # Virginia Avenue: Gus holds the pinks
    t.turn(G, 6)                                 # his own States Avenue
    t.turn(E, 8)                                 # Illinois Avenue: one house
    t.turn(F, 9)                                 # his own Indiana Avenue
    t.turn(G, 5)                                 # Tennessee Avenue: two houses
    t.build(F, INDIANA, ILLINOIS)                # two houses on every red
    t.unmortgage(F, PACIFIC)
    t.build(F, PACIFIC)
    t.turn(E, 7)                                 # Pacific Avenue: a house on it now
    t.turn(F, 8)                                 # his own Pacific Avenue
    t.turn(G, 9)                                 # his own Ventnor Avenue
    t.turn(E, 5, card="ch-reading")              # round GO to Reading Railroad: two railroads
    t.turn(F, 6)                                 # Park Place
    t.turn(G, 10)                                # Park Place
    t.turn(E, 9)                                 # Virginia Avenue
    t.turn(F, 8)                                 # round GO to his own Reading Railroad
    t.turn(G, 9)                                 # round GO to his own Oriental Avenue
    t.turn(E, 7)                                 # Kentucky Avenue: two houses
    t.turn(F, 8)                                 # States Avenue: one house
    t.turn(G, 11, card="cc-hospital")
    t.turn(E, 8)                                 # Marvin Gardens: Gus's yellows, double rent
    t.turn(F, 6)                                 # New York Avenue: two houses
    t.turn(G, 8)                                 # B. & O. Railroad: two railroads
    # --- 22:30: time is up
    t.end_game()
    t.mark("the agreed time: the bank values every player and names the winner")


GAMES: list[Game] = [
    Game("classic-us-shortage.json", "Friday at Ann's: the housing shortage",
         Setup("classic-us", "classic", ("Ann", "Bob", "Cid", "Dee")), us_shortage),
    Game("uk-bank-bankruptcy.json", "Saturday in Islington: Kit goes to the bank",
         Setup("uk", "speed-die", ("Hattie", "Ian", "Jess", "Kit")), uk_bank_bankruptcy),
    Game("ru-short.json", "Короткая игра у Марины",
         Setup("ru", "short", ("Алексей", "Марина", "Дмитрий", "Ольга")), ru_short),
    Game("kyiv-agreed-end.json", "Вечір на Подолі",
         Setup("kyiv", "classic", ("Олена", "Тарас", "Оксана", "Богдан")), kyiv_agreed_end),
    Game("classic-us-timed.json", "Tuesday, till half past ten",
         Setup("classic-us", "timed", ("Eve", "Finn", "Gus"), end_time="22:30"), us_timed),
]


# =============================================================================== writing
def write_game(game: Game, out: Path) -> tuple[Session, Evening]:
    """Play ``game`` into ``out/game.file``, replacing it; returns the closed session and the
    evening it was played from.

    A closed session keeps an empty journal (its header line) and an empty lock file beside
    it; once the session file is checked to hold every entry, both are removed, so only the
    TinyDB file is left (opening it again recreates them).
    """
    evening = game.evening()
    path = out / game.file
    leftovers = (journal_path(path), lock_path(path))
    for p in (path, *leftovers):
        p.unlink(missing_ok=True)
    session = Session.create(path, game.setup, name=game.name)
    try:
        for step, cmd in enumerate(evening.commands, 1):
            try:
                session.apply(cmd)
            except Refused as e:
                raise ScriptError(f"{game.file}: step {step} {cmd}: refused by the engine: {e}") from None
    finally:
        session.close()
    stored = json.loads(path.read_text(encoding="utf-8"))["entries"]
    if len(stored) != len(evening.commands):  # pragma: no cover - the checkpoint failed
        raise ScriptError(f"{game.file}: the session file holds {len(stored)} entries, not {len(evening.commands)}")
    for p in leftovers:
        p.unlink(missing_ok=True)
    return session, evening


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="where to write the sessions (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true", help="print every throw and action")
    parser.add_argument("--draft", action="store_true", help="play on a scratch state only (an unfinished script)")
    parser.add_argument("games", nargs="*", help="only these files (default: all)")
    args = parser.parse_args(argv)
    chosen = [g for g in GAMES if not args.games or g.file in args.games or g.file.removesuffix(".json") in args.games]
    unknown = set(args.games) - {g.file for g in GAMES} - {g.file.removesuffix(".json") for g in GAMES}
    if unknown:
        parser.error(f"no such game: {', '.join(sorted(unknown))}; games: {', '.join(g.file for g in GAMES)}")
    if not args.draft:
        args.out.mkdir(parents=True, exist_ok=True)
    for game in chosen:
        try:
            if args.draft:
                evening = game.evening(complete=False)
                entries = len(evening.commands)
            else:
                session, evening = write_game(game, args.out)
                entries = len(session.entries)
        except ScriptError as e:
            if args.verbose and hasattr(e, "evening"):
                print("\n".join(e.evening.trace))
            print(f"generate.py: {e}", file=sys.stderr)
            return 1
        if args.verbose:
            print("\n".join(evening.trace))
        result = evening.state.result or {}
        print(f"{game.file}: {entries} entries; winner {result.get('winner')} ({result.get('reason')})")
        for seq, label in evening.marks:
            print(f"  #{seq} {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
