"""The review of a session: what happened, worked out from the logged effects alone.

Pure: given the setup's fresh game state and the log's entries (the dicts the session log
stores: seq, ts, command, effects, parts, undoes), :func:`review` returns the timeline, each
player's cash and net worth after every entry, and the summary a table asks for afterwards
(rent per player, deed and colour group; taxes and fines; auctions against printed prices;
the biggest payments; the bankruptcies). No recomputation of commands: a review reads what
was logged, so it shows the game as it was played.

Choices (docs/review.md): an entry that was undone, and the undo itself, are shown in the
timeline (struck through, with the reason) but left out of every total, since together they
moved nothing; the cash and net-worth series include them, as the table really saw them.
Rent that opened a debt counts when it is paid, against the deed it was charged for: in cash, or in kind (deeds the
creditor accepted against it at an agreed value, RU 2004: a trade's ``debt_credit``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from .state import BANK, POT, GameState, apply_effects
from .valuation import net_worth

#: the payments to the bank (or the Free Parking pot) that are taxes and fines
BANK_CHARGES = ("tax", "fine", "interest")


class LoggedEntry(Protocol):
    """A log entry read as the JSON object it is stored as (the ledger's ``Entry`` is one)."""

    def __getitem__(self, key: str, /) -> Any: ...

    def get(self, key: str, default: Any = None, /) -> Any: ...


#: an entry as the review reads it: a stored JSON object, or the ledger's typed entry
EntryLike: TypeAlias = Mapping[str, Any] | LoggedEntry


@dataclass
class TimelineItem:
    seq: int
    ts: str
    op: str
    players: tuple[str, ...]  # every player the entry names or moves money of
    spaces: tuple[int, ...]  # every space it names or changes
    parts: list[dict[str, Any]]  # the logged description (render with Translator.parts)
    text: str  # the logged English text
    undone_by: int | None = None  # the seq of the undo that took it back
    undo_reason: str | None = None  # that undo's reason
    undoes: int | None = None  # for an undo: the seq it took back
    reason: str | None = None  # for an undo: its reason

    @property
    def undone(self) -> bool:
        return self.undone_by is not None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "op": self.op, "players": list(self.players),
                "spaces": list(self.spaces), "text": self.text, "undone": self.undone, "undone_by": self.undone_by,
                "undo_reason": self.undo_reason, "undoes": self.undoes, "reason": self.reason}


@dataclass
class Payment:
    seq: int
    payer: str
    payee: str
    amount: int
    why: str


@dataclass
class Auction:
    seq: int
    space: int
    winner: str | None  # None: nobody bid, the deed stayed with the bank
    bid: int
    printed: int
    kind: str = "deed"  # "house" or "hotel": a building-shortage auction (the printed price is the building's)

    @property
    def no_bids(self) -> bool:
        return self.winner is None


@dataclass
class TableCount:
    """A count of the table (the ``count`` op): when, and what differed from the bank's figures."""

    seq: int
    ts: str
    counted: int
    differences: list[dict[str, Any]]

    @property
    def agreed(self) -> bool:
        return not self.differences


@dataclass
class Bankruptcy:
    seq: int
    ts: str
    player: str
    creditor: str


@dataclass
class Review:
    players: tuple[str, ...]
    timeline: list[TimelineItem]
    #: after each entry: seqs, and per player their cash and net worth (index-aligned with ``seqs``)
    seqs: list[int]
    cash: dict[str, list[int]]
    worth: dict[str, list[int]]
    rent_paid: dict[str, int] = field(default_factory=dict)
    rent_received: dict[str, int] = field(default_factory=dict)
    rent_by_deed: dict[int, int] = field(default_factory=dict)
    rent_by_group: dict[str, int] = field(default_factory=dict)
    #: per player, per reason (tax, fine, interest): paid to the bank or the pot
    to_bank: dict[str, dict[str, int]] = field(default_factory=dict)
    salary: dict[str, int] = field(default_factory=dict)
    auctions: list[Auction] = field(default_factory=list)
    biggest: list[Payment] = field(default_factory=list)
    bankruptcies: list[Bankruptcy] = field(default_factory=list)
    undone: int = 0
    # following the board (issue #11): data only, the console draws them
    #: landings per space (a board heat map): every move of a token by a roll, a card, Mr. Monopoly or to jail
    #: (a token the banker places by hand is not a landing)
    landings: dict[int, int] = field(default_factory=dict)
    #: the same per player
    player_landings: dict[str, dict[int, int]] = field(default_factory=dict)
    #: rolls that were doubles, per player (a roll in jail included)
    doubles: dict[str, int] = field(default_factory=dict)
    #: times each player was put in jail (sent, or placed there by the banker)
    jailed: dict[str, int] = field(default_factory=dict)
    #: turns each player spent in jail: the rolls made from jail
    jail_turns: dict[str, int] = field(default_factory=dict)
    #: after each entry (index-aligned with ``seqs``): the houses and hotels in the bank
    bank_houses: list[int] = field(default_factory=list)
    bank_hotels: list[int] = field(default_factory=list)
    #: every count of the table that stands, oldest first
    counts: list[TableCount] = field(default_factory=list)

    @property
    def last_count(self) -> TableCount | None:
        return self.counts[-1] if self.counts else None

    @property
    def last_agreed(self) -> TableCount | None:
        """The last count at which the table and the bank agreed."""
        return next((c for c in reversed(self.counts) if c.agreed), None)

    def to_bank_total(self, player: str) -> int:
        """Everything ``player`` paid the bank (or the pot) in taxes, fines and interest."""
        return sum(self.to_bank.get(player, {}).values())

    def to_json(self, state: GameState) -> dict[str, Any]:
        spaces = state.edition.spaces
        return {
            "players": list(self.players),
            "summary": {
                "rent_paid": self.rent_paid, "rent_received": self.rent_received,
                "rent_by_deed": {spaces[p].name: v for p, v in sorted(self.rent_by_deed.items())},
                "rent_by_group": self.rent_by_group,
                "to_bank": self.to_bank, "salary": self.salary,
                "auctions": [{"seq": a.seq, "space": spaces[a.space].name, "kind": a.kind, "winner": a.winner,
                              "bid": a.bid if not a.no_bids else None, "printed": a.printed} for a in self.auctions],
                "biggest_payments": [{"seq": p.seq, "from": p.payer, "to": p.payee, "amount": p.amount, "for": p.why}
                                     for p in self.biggest],
                "bankruptcies": [{"seq": b.seq, "ts": b.ts, "player": b.player, "creditor": b.creditor}
                                 for b in self.bankruptcies],
                "undone_entries": self.undone,
                "landings": {str(p): n for p, n in sorted(self.landings.items())},
                "player_landings": {player: {str(p): n for p, n in sorted(counts.items())}
                                    for player, counts in self.player_landings.items()},
                "doubles": self.doubles, "jailed": self.jailed, "jail_turns": self.jail_turns,
                "counts": [{"seq": c.seq, "ts": c.ts, "counted": c.counted, "agreed": c.agreed,
                            "differences": c.differences} for c in self.counts],
                "standings": [s.to_json() for s in standings(state, self)],
            },
            "series": {"seqs": self.seqs, "cash": self.cash, "net_worth": self.worth,
                       "bank_houses": self.bank_houses, "bank_hotels": self.bank_hotels},
            "timeline": [t.to_json() for t in self.timeline],
        }


#: command keys that name players / spaces
PLAYER_KEYS = ("player", "payer", "winner", "from", "to")
SPACE_KEYS = ("space",)


def _involved(state: GameState, entry: EntryLike) -> tuple[tuple[str, ...], tuple[int, ...]]:
    cmd = entry["command"]
    players: list[str] = []
    spaces: list[int] = []

    def add_player(name: Any) -> None:
        if isinstance(name, str) and name in state.cash and name not in players:
            players.append(name)

    def add_space(pos: Any) -> None:
        if isinstance(pos, int) and not isinstance(pos, bool) and pos not in spaces:
            spaces.append(pos)

    for key in PLAYER_KEYS:
        add_player(cmd.get(key))
    for key in SPACE_KEYS:
        add_space(cmd.get(key))
    for side in ("give", "get"):
        if isinstance(cmd.get(side), Mapping):
            for pos in cmd[side].get("spaces") or ():
                add_space(pos)
    for e in entry["effects"]:
        kind = e["t"]
        if kind == "pay":
            add_player(e["from"])
            add_player(e["to"])
        elif "space" in e:
            add_space(e["space"])
            if kind == "owner":  # a deed that changes hands: both hands (a bankrupt's deeds to the creditor)
                add_player(e.get("old"))
                add_player(e.get("new"))
        elif "player" in e:
            add_player(e["player"])
            if kind == "debt":  # a claim opened or settled: its creditor too (rent that opened a debt names the owner)
                old, new = e.get("old") or [], e.get("new") or []
                for claim in [*(c for c in old if c not in new), *(c for c in new if c not in old)]:
                    if isinstance(claim, list | tuple) and claim:
                        add_player(claim[0])
            elif kind in ("bankrupt", "unbankrupt"):
                add_player(e.get("creditor"))
    return tuple(players), tuple(spaces)


def _undone_by(entries: Iterable[EntryLike]) -> dict[int, EntryLike]:
    """The undo entry that took back each entry undone (by its seq)."""
    undone_by: dict[int, EntryLike] = {}
    for e in entries:
        if e.get("undoes") is not None:
            undone_by[e["undoes"]] = e
    return undone_by


def _item(state: GameState, entry: EntryLike, undone_by: Mapping[int, EntryLike]) -> TimelineItem:
    seq = entry["seq"]
    cmd = entry["command"]
    op = cmd.get("op", "?")
    involved_players, involved_spaces = _involved(state, entry)
    undo = undone_by.get(seq)
    return TimelineItem(seq=seq, ts=entry.get("ts", ""), op=op, players=involved_players, spaces=involved_spaces,
                        parts=list(entry.get("parts") or []), text=entry.get("text", ""),
                        undone_by=undo["seq"] if undo else None,
                        undo_reason=str(undo["command"].get("reason", "")) if undo else None,
                        undoes=entry.get("undoes"),
                        reason=str(cmd.get("reason", "")) if op == "undo" else None)


def table_count(entry: EntryLike) -> TableCount:
    """The count of the table a ``count`` entry recorded."""
    info = entry.get("info") or {}
    return TableCount(entry["seq"], entry.get("ts", ""), int(info.get("counted", 0)), list(info.get("differences", [])))


def timeline_tail(state: GameState, entries: Iterable[EntryLike]) -> list[TimelineItem]:
    """The timeline items of the log's last ``entries`` (the end of the log, as :func:`review` gives them: an
    entry is only ever undone by a later one, so these entries hold every undo of theirs). ``state`` is a game
    of the session's setup (it is only read, for the players' names): what a review shows first of a long log."""
    entries = list(entries)
    undone_by = _undone_by(entries)
    return [_item(state, e, undone_by) for e in entries]


def review(state: GameState, entries: Iterable[EntryLike], biggest: int = 10) -> Review:
    """Review ``entries`` played from ``state`` (a fresh game of the session's setup; it is
    advanced to the end of the log)."""
    entries = list(entries)
    players = tuple(state.players)
    undone_by = _undone_by(entries)
    r = Review(players=players, timeline=[], seqs=[], cash={p: [] for p in players}, worth={p: [] for p in players})
    rent_paid: dict[str, int] = defaultdict(int)
    rent_received: dict[str, int] = defaultdict(int)
    by_deed: dict[int, int] = defaultdict(int)
    to_bank: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    salary: dict[str, int] = defaultdict(int)
    payments: list[Payment] = []
    # rent charged but owed (a debt), in the order the claims are paid: [what is left of it, the deed it was for]
    owed_rent: dict[tuple[str, str], list[list[int]]] = defaultdict(list)
    spaces = state.edition.spaces
    holdings: dict[str, int] = {}  # per player: net worth less cash, as of the last entry that changed it
    landings: dict[int, int] = defaultdict(int)
    player_landings: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    doubles: dict[str, int] = defaultdict(int)
    jailed: dict[str, int] = defaultdict(int)
    jail_turns: dict[str, int] = defaultdict(int)
    for entry in entries:
        seq = entry["seq"]
        cmd = entry["command"]
        op = cmd.get("op", "?")
        item = _item(state, entry, undone_by)
        r.timeline.append(item)
        roller = state.current if op == "roll" else None  # whose roll, and from where: before its effects
        from_jail = roller is not None and state.in_jail.get(roller, False)
        apply_effects(state, entry["effects"])
        r.seqs.append(seq)
        if any(e["t"] != "pay" for e in entry["effects"]) or not holdings:
            # deeds, buildings or debts changed: value them again (most entries only move cash)
            holdings = {p: net_worth(state, p) - state.cash[p] for p in players}
        for p in players:
            r.cash[p].append(state.cash[p])
            r.worth[p].append(state.cash[p] + holdings[p])
        r.bank_houses.append(state.bank_houses)
        r.bank_hotels.append(state.bank_hotels)
        if item.undone or op == "undo":
            if item.undone:
                r.undone += 1
            continue
        if roller is not None:
            dice = cmd.get("dice") or []
            if len(dice) == 2 and dice[0] == dice[1]:
                doubles[roller] += 1
            if from_jail:
                jail_turns[roller] += 1
        for e in entry["effects"]:
            if e["t"] == "position" and e.get("by") != "place":
                landings[e["new"]] += 1
                player_landings[e["player"]][e["new"]] += 1
            elif e["t"] == "in_jail" and e["new"]:
                jailed[e["player"]] += 1
        if op == "bankrupt":
            for e in entry["effects"]:
                if e["t"] == "bankrupt":
                    r.bankruptcies.append(Bankruptcy(seq, item.ts, e["player"], e["creditor"]))
        if op == "auction":
            pos = cmd.get("space")
            r.auctions.append(Auction(seq, pos, cmd.get("winner"), int(cmd.get("bid") or 0), spaces[pos].price or 0))
        elif op == "building_auction":
            pos = cmd.get("space")
            info = entry.get("info") or {}
            r.auctions.append(Auction(seq, pos, cmd.get("player"), int(cmd.get("bid") or 0),
                                      int(info.get("price") or spaces[pos].house_cost or 0), str(info.get("kind", "house"))))
        elif op == "count":
            r.counts.append(table_count(entry))
        rent_space = cmd.get("space") if op == "rent" else None
        # a debt paid in kind (RU 2004): deeds the creditor accepted at an agreed value, counted against the claims
        in_kind = int(cmd.get("debt_credit") or 0) if op == "trade" else 0
        for e in entry["effects"]:
            if e["t"] == "debt" and rent_space is not None:
                # a rent claim added to the payer's debts: remember its deed until it is paid
                old = len(e["old"] or [])
                for creditor, amount, why in (e["new"] or [])[old:]:
                    if why == "rent":
                        owed_rent[(e["player"], creditor)].append([amount, rent_space])
            elif e["t"] == "debt" and in_kind and e["player"] == cmd.get("from"):
                # the trade's own reduction of the claims (before any the cash then settles): rent paid in deeds,
                # the claims to the creditor in the order owed, as the engine counts the credit against them
                creditor = cmd.get("to")
                owed = owed_rent.get((e["player"], creditor)) or []
                for to, amount, why in e["old"] or []:
                    take = min(in_kind, amount) if to == creditor else 0
                    in_kind -= take
                    if not take or why != "rent":
                        continue
                    rent_paid[e["player"]] += take
                    rent_received[creditor] += take
                    if owed:
                        owed[0][0] -= take
                        by_deed[owed[0][1]] += take
                        if owed[0][0] <= 0:
                            owed.pop(0)
            if e["t"] != "pay":
                continue
            src, dst, amount, why = e["from"], e["to"], e["amount"], e.get("for", "")
            payments.append(Payment(seq, src, dst, amount, why))
            if why == "rent":
                deed = rent_space
                queue = owed_rent.get((src, dst))
                if deed is None and queue:
                    deed = queue.pop(0)[1]
                rent_paid[src] += amount
                rent_received[dst] += amount
                if deed is not None:
                    by_deed[deed] += amount
            elif why in BANK_CHARGES and dst in (BANK, POT) and src in state.cash:
                to_bank[src][why] += amount
            elif why == "salary" and src == BANK:
                salary[dst] += amount
    r.rent_paid = {p: rent_paid[p] for p in players if rent_paid[p]}
    r.rent_received = {p: rent_received[p] for p in players if rent_received[p]}
    r.rent_by_deed = dict(sorted(by_deed.items(), key=lambda kv: (-kv[1], kv[0])))
    groups: dict[str, int] = defaultdict(int)
    for pos, amount in by_deed.items():
        groups[spaces[pos].group or spaces[pos].kind] += amount
    r.rent_by_group = dict(sorted(groups.items(), key=lambda kv: (-kv[1], kv[0])))
    r.to_bank = {p: dict(to_bank[p]) for p in players if p in to_bank}
    r.salary = {p: salary[p] for p in players if salary[p]}
    r.landings = dict(sorted(landings.items()))
    r.player_landings = {p: dict(sorted(player_landings[p].items())) for p in players if p in player_landings}
    r.doubles = {p: doubles[p] for p in players if doubles[p]}
    r.jailed = {p: jailed[p] for p in players if jailed[p]}
    r.jail_turns = {p: jail_turns[p] for p in players if jail_turns[p]}
    r.biggest = sorted((p for p in payments if p.payer != p.payee), key=lambda p: (-p.amount, p.seq))[:biggest]
    return r


# --------------------------------------------------------------------------- the standings
@dataclass(frozen=True)
class Standing:
    """A player's place at the end (or so far): ranked by the final valuation, the winner first."""

    rank: int  # 1 for the first; players tied on worth share a rank (unless the winner was decided between them)
    player: str
    worth: int  # the final valuation when the game has ended, else net worth now; 0 for a bankrupt player
    bankrupt: bool
    tied: bool  # another player still in the game has the same worth
    winner: bool
    shares_win: bool = False  # the game ended in a tie the cash did not break: this player shares first place

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "worth": self.worth, "bankrupt": self.bankrupt,
                "tied": self.tied, "winner": self.winner, "shares_win": self.shares_win}


def standings(state: GameState, r: Review) -> list[Standing]:
    """Every player, ranked: the winner first (the engine's, tie-break included), then by the final
    valuation (the game over) or net worth (a game going on), seating order between equals; bankrupt
    players last, the last to go bankrupt first. ``state`` is the game at the end of the review."""
    result = state.result or {}
    valuation: dict[str, int] = dict(result.get("valuation") or {})
    winner = result.get("winner")
    shared = set(result.get("tied") or [])
    went = {p: i for i, p in enumerate(state.bankrupt)}

    def worth(p: str) -> int:
        if p in went:
            return 0
        if p in valuation:
            return int(valuation[p])
        return r.worth[p][-1] if r.worth.get(p) else net_worth(state, p)

    seating = list(state.players)
    ranked = sorted(seating, key=lambda p: (p in went, p != winner, p not in shared, -worth(p), -went.get(p, 0),
                                            seating.index(p)))
    active_worths = [worth(p) for p in ranked if p not in went]
    out: list[Standing] = []
    for i, p in enumerate(ranked):
        tied = p not in went and active_worths.count(worth(p)) > 1
        rank = i + 1
        before = out[-1] if out else None
        if (before is not None and tied and before.tied and before.worth == worth(p) and not before.winner
                and before.shares_win == (p in shared)):
            rank = before.rank  # equal worth, and nothing decided between them: the same place
        out.append(Standing(rank, p, worth(p), p in went, tied, p == winner, p in shared))
    return out


def ties(ranked: list[Standing]) -> list[tuple[list[str], int, str | None, list[str]]]:
    """The groups of players still in the game with the same worth: (players, worth, the winner among them
    if the tie was broken on cash for the win, those among them who share the win when the cash did not break it)."""
    groups: dict[int, list[Standing]] = defaultdict(list)
    for s in ranked:
        if s.tied:
            groups[s.worth].append(s)
    return [([s.player for s in group], worth, next((s.player for s in group if s.winner), None),
             [s.player for s in group if s.shares_win]) for worth, group in groups.items()]
