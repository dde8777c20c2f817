"""Bench: the cost of recording an action in the session log, as the game grows.

Records N actions (default 1000, 5000, 20000) into a fresh session through
``Session.apply`` -- a realistic mix of salaries, purchases, rents, building, selling,
mortgages, transfers, cards, taxes and an undo now and then, every one legal -- and
reports the cost per action (median and p99) in the first and last 10% of the game, next to a bare
``os.write`` + ``os.fsync`` of each last-10% action's own journal line appended to a file, made in blocks
between the actions (every ``--block`` actions, so that both see the disk in the same moment), and beside
that the same line written into zeros fsynced ahead + ``os.fdatasync`` (the journal's own way of writing
it: banker.ledger.writer.JOURNAL_ROOM),
the checkpoint time, the time to open the session cold (FILE + journal) and after the
checkpoint (both rebuild the state from the recorded effects), and the rules engine's check
of the whole log (``replay_check``, which the console runs in the background). For comparison
it measures TinyDB's default JSONStorage, which rewrites the whole file on every insert.

    python bench/record.py [--sizes 1000,5000,20000] [--dir /some/disk] [--block 50]

Prints markdown tables (docs/session-log.md quotes them).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tinydb import TinyDB  # noqa: E402

import banker.ledger.writer as writer_module  # noqa: E402
from banker.ledger import Session, journal_path  # noqa: E402
from banker.ledger.journal import lines_end  # noqa: E402
from banker.ledger.writer import sync_data  # noqa: E402
from banker.rules import Refused, Setup  # noqa: E402
from banker.rules.building import legal_builds, legal_sales  # noqa: E402
from banker.rules.mortgage import legal_mortgages, legal_unmortgages  # noqa: E402

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
SETUP = Setup("classic-us", "classic", PLAYERS)

#: how often each kind of action comes up at the table
MIX = {
    "salary": 14, "buy": 8, "rent": 22, "build": 9, "sell": 4, "mortgage": 4, "unmortgage": 4,
    "transfer": 10, "card": 10, "tax": 5, "jail_fine": 4, "trade": 2, "undo": 4,
}


class Table:
    """Makes up legal commands from the session's current state."""

    def __init__(self, session: Session, seed: int) -> None:
        self.session = session
        self.rng = random.Random(seed)
        self.kinds = list(MIX)
        self.weights = [MIX[k] for k in self.kinds]
        edition = session.state.edition
        self.cards = [c.id for c in edition.cards.values()]
        self.taxes = [s.position for s in edition.spaces if s.kind == "tax"]

    @property
    def state(self):
        return self.session.state

    def top_up(self, player: str, low: int = 1500) -> dict | None:
        if self.state.cash[player] < low:
            return {"op": "transfer", "from": "bank", "to": player, "amount": 2000, "memo": "from the bank"}
        return None

    def next(self) -> dict:
        """A command that should be legal now (the rare one that is not is refused)."""
        rng, state = self.rng, self.state
        player = rng.choice(PLAYERS)
        kind = rng.choices(self.kinds, self.weights)[0]
        if kind in ("rent", "card", "tax", "jail_fine", "buy", "build", "unmortgage", "trade"):
            topped = self.top_up(player)
            if topped:
                return topped
        if kind == "salary":
            return {"op": "salary", "player": player, "landed": rng.random() < 0.1}
        if kind == "buy":
            free = [s for s in state.edition.properties if state.lots[s.position].owner is None]
            if free:
                # prefer lots that complete a group someone has started: groups fill up, houses follow
                mine = [s for s in free if s.group and any(state.lots[p].owner == player
                                                           for p in state.group_positions(s.group))]
                space = rng.choice(mine or free)
                return {"op": "buy", "player": player, "space": space.position}
        if kind == "rent":
            owned = [pos for pos, lot in state.lots.items() if lot.owner not in (None, player) and not lot.mortgaged]
            if owned:
                pos = rng.choice(owned)
                cmd = {"op": "rent", "payer": player, "space": pos}
                if state.edition.spaces[pos].kind == "utility":
                    cmd["dice"] = rng.randint(2, 12)
                return cmd
        if kind == "build":
            builds = legal_builds(state, player)
            if builds:
                return {"op": "build", "player": player, "space": rng.choice(builds)[0]}
        if kind == "sell":
            sales = legal_sales(state, player)
            if sales:
                return {"op": "sell_building", "player": player, "space": rng.choice(sales)[0]}
        if kind == "mortgage":
            options = legal_mortgages(state, player)
            if options:
                return {"op": "mortgage", "player": player, "space": rng.choice(options)[0]}
        if kind == "unmortgage":
            options = legal_unmortgages(state, player)
            if options:
                return {"op": "unmortgage", "player": player, "space": rng.choice(options)[0]}
        if kind == "card":
            return {"op": "card", "player": player, "card": rng.choice(self.cards), "passed_go": rng.random() < 0.3}
        if kind == "tax":
            return {"op": "tax", "player": player, "space": rng.choice(self.taxes), "choice": rng.choice(("flat", "percent"))}
        if kind == "jail_fine":
            if state.jail_cards_of(player) and rng.random() < 0.5:
                return {"op": "jail_card", "player": player, "use": True}
            return {"op": "jail_fine", "player": player}
        if kind == "trade":
            other = rng.choice([p for p in PLAYERS if p != player])
            deeds = [pos for pos in state.deeds_of(other) if not any(
                state.level(p) for p in (state.group_positions(state.edition.spaces[pos].group)
                                         if state.edition.spaces[pos].group else [pos]))]
            if deeds:
                pos = rng.choice(deeds)
                return {"op": "trade", "from": player, "to": other, "give": {"cash": min(state.cash[player], 150)},
                        "get": {"spaces": [pos]}}
        if kind == "undo" and state.history:
            return {"op": "undo", "reason": "misheard"}
        # a transfer (and the fallback when the kind drawn has nothing to do now)
        other = rng.choice([p for p in PLAYERS if p != player])
        if state.cash[player] > 50:
            return {"op": "transfer", "from": player, "to": other, "amount": rng.randint(1, 50), "memo": "deal"}
        return {"op": "transfer", "from": "bank", "to": player, "amount": 500, "memo": "from the bank"}


def record_game(path: Path, n: int, seed: int) -> None:
    """A game of ``n`` recorded actions (this bench's mix), closed cleanly (checkpointed): the long games
    bench/ui.py and bench/open.py open."""
    session = Session.create(path, SETUP, name=f"bench {n}")
    table = Table(session, seed)
    while len(session.entries) < n:
        try:
            session.apply(table.next())
        except Refused:
            continue
    session.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def record(folder: Path, n: int, seed: int, block: int = 50) -> dict:
    path = folder / f"bench-{n}.json"
    session = Session.create(path, SETUP, name=f"bench {n}")
    table = Table(session, seed)
    costs: list[float] = []
    refused = 0
    kinds: dict[str, int] = {}
    tenth = max(1, n // 10)
    jpath = journal_path(path)
    # The physical limit, measured beside the actions: each action of the last 10% has its own journal line written
    # and fsynced again by a bare os.write + os.fsync appended to a file on the same disk, and written the journal's
    # way (into zeros fsynced ahead, + fdatasync), so that the figures see the disk in the same moment (a shared
    # disk's sync time drifts over a run). They are made in blocks: after every ``block`` actions, their lines, the
    # two bare ways in turn (which goes first alternates). A sync made right after another file's is not what it is
    # in a game: measured here, a line written into the journal's room waited some 0.05 ms longer just after another
    # file's fsync (a line of the bare file after each action: docs/speed.md, "Ninth round"), and an fsync made right
    # after another of the same kind is quicker than one made after some work (the sixth round), so the blocks keep the
    # actions' syncs among their own and give the bare ones the quickest conditions: the strict baseline.
    bare: list[float] = []
    room: list[float] = []
    # each action's own sync, timed inside it (the journal's ``sync_data``, wrapped for this run): the action's time
    # is that and the rest, the Python of the rules and the log and the write
    synced: list[float] = []

    def timed_sync(fd: int) -> None:
        t0 = time.perf_counter()
        try:
            sync_data(fd)
        finally:
            synced.append((time.perf_counter() - t0) * 1000)
    bare_fd = os.open(folder / f"bare-{n}.bin", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    room_fd = os.open(folder / f"room-{n}.bin", os.O_WRONLY | os.O_CREAT, 0o644)
    first_at = lines_at = 0  # where the journal's lines ended at the last 10%'s start, and end now (the room after)
    pending = 0  # actions of the last 10% whose lines wait for their bare writes
    blocks = 0

    def beside() -> None:
        nonlocal lines_at, pending, blocks
        with open(jpath, "rb") as f:  # the lines of the block's actions: from where the lines ended
            f.seek(lines_at)
            data = f.read()
        lines = data[:lines_end(data)].splitlines(keepends=True)[:pending]
        assert len(lines) == pending and all(line.endswith(b"\n") for line in lines)
        # each line goes where it stands in the journal, counted from the last 10%'s start
        at = list(itertools.accumulate(map(len, lines), initial=lines_at - first_at))
        for way in ("bare", "room") if blocks % 2 == 0 else ("room", "bare"):
            for line, offset in zip(lines, at[:-1], strict=True):
                if way == "bare":
                    bare.append(bare_fsync(bare_fd, line))
                else:
                    room.append(room_fdatasync(room_fd, line, offset))
        lines_at = first_at + at[-1]
        pending = 0
        blocks += 1

    own_syncs: list[float] = []  # the last 10%'s, one per action timed (a refused one syncs nothing)
    writer_module.sync_data = timed_sync
    try:
        while len(costs) < n:
            cmd = table.next()
            late = len(costs) >= n - tenth
            if late and not lines_at:
                first_at = lines_at = lines_end(jpath.read_bytes())
                os.write(room_fd, bytes(tenth * 4096))  # room for every line of the last 10%, made ahead
                os.fsync(room_fd)
            synced.clear()
            t0 = time.perf_counter()
            try:
                session.apply(cmd)
            except Refused:
                refused += 1
                continue
            costs.append((time.perf_counter() - t0) * 1000)
            kinds[cmd["op"]] = kinds.get(cmd["op"], 0) + 1
            if late:
                own_syncs.append(sum(synced))
                pending += 1
                if pending == block:
                    beside()
        if pending:
            beside()
    finally:
        writer_module.sync_data = sync_data
        os.close(bare_fd)
        os.close(room_fd)
    journal_bytes = jpath.stat().st_size

    t0 = time.perf_counter()
    cold = Session.open(path, readonly=True)  # FILE (setup only) + the whole journal
    open_cold = time.perf_counter() - t0
    assert len(cold.entries) == n
    expected = cold.state.to_json()

    t0 = time.perf_counter()
    session.checkpoint()
    checkpoint = time.perf_counter() - t0

    t0 = time.perf_counter()
    warm = Session.open(path, readonly=True)  # everything in FILE
    open_warm = time.perf_counter() - t0
    assert warm.state.to_json() == expected == session.state.to_json()

    t0 = time.perf_counter()
    assert warm.replay_check() == []  # the rules engine's check (the console runs it in the background)
    check = time.perf_counter() - t0
    session.close()

    t0 = time.perf_counter()
    writer = Session.open(path)  # takes the lock, nothing to recover
    open_writer = time.perf_counter() - t0
    writer.close()
    return {
        "n": n,
        "first_median": statistics.median(costs[:tenth]),
        "first_p99": percentile(costs[:tenth], 99),
        "last_median": statistics.median(costs[-tenth:]),
        "last_p99": percentile(costs[-tenth:], 99),
        "bare_median": statistics.median(bare),
        "bare_p99": percentile(bare, 99),
        "room_median": statistics.median(room),
        "room_p99": percentile(room, 99),
        "own_sync_median": statistics.median(own_syncs),
        "rest_median": statistics.median(c - s for c, s in zip(costs[-tenth:], own_syncs, strict=True)),
        "checkpoint": checkpoint * 1000,
        "open_cold": open_cold * 1000,
        "open_warm": open_warm * 1000,
        "open_writer": open_writer * 1000,
        "check": check * 1000,
        "file_mb": path.stat().st_size / 1e6,
        "journal_mb": journal_bytes / 1e6,
        "refused": refused,
        "kinds": kinds,
        "undos": sum(1 for e in writer.entries if e.undoes is not None),
    }


def bare_fsync(fd: int, line: bytes) -> float:
    """The physical limit: ms of one ``os.write`` + ``os.fsync`` of ``line`` (an action's journal line, the same
    bytes) appended to a file on the same disk."""
    t0 = time.perf_counter()
    os.write(fd, line)
    os.fsync(fd)
    return (time.perf_counter() - t0) * 1000


def room_fdatasync(fd: int, line: bytes, at: int) -> float:
    """ms of one ``os.pwrite`` of ``line`` at ``at``, into zeros written and fsynced ahead, + ``os.fdatasync``: the
    journal's own way of writing a line, with nothing else around it."""
    t0 = time.perf_counter()
    os.pwrite(fd, line, at)
    sync_data(fd)  # fdatasync, as the journal's (fsync where there is none)
    return (time.perf_counter() - t0) * 1000


def tinydb_insert(folder: Path, docs: list[dict], size: int, samples: int) -> tuple[float, float]:
    """Median and p99 ms of one ``TinyDB.insert`` (default JSONStorage) into a table of ``size`` docs."""
    path = folder / f"tinydb-{size}.json"
    base = size - samples
    table = {str(i + 1): docs[i % len(docs)] for i in range(base)}
    path.write_text(json.dumps({"_default": table}))
    db = TinyDB(path)  # the default: JSONStorage, whole file rewritten on each insert
    costs = []
    for i in range(samples):
        t0 = time.perf_counter()
        db.insert(docs[(base + i) % len(docs)])
        costs.append((time.perf_counter() - t0) * 1000)
    db.close()
    assert len(TinyDB(path)) == size
    return statistics.median(costs), percentile(costs, 99)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,20000", help="game lengths to record (comma-separated)")
    parser.add_argument("--dir", help="where to write the sessions (default: a temp folder); the disk matters")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--block", type=int, default=50, help="actions between two runs of the bare writes of their "
                        "lines (1: after each action)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="banker-bench-") as tmp:
        folder = Path(tmp)
        results = [record(folder, n, args.seed + n, max(1, args.block)) for n in sizes]
        docs = [e.to_json() for e in Session.open(folder / f"bench-{sizes[0]}.json", readonly=True).entries]
        baseline = [(size, *tinydb_insert(folder, docs, size, samples)) for size, samples in
                    ((1000, 100), (5000, 30), (20000, 10))]
    print(f"## Session log: cost per recorded action ({platform.system()} {platform.machine()}, "
          f"Python {platform.python_version()}, sessions on {args.dir or tempfile.gettempdir()})")
    print()
    print("| actions | first 10%: median / p99 ms | last 10%: median / p99 ms | bare write+fsync of the same "
          "lines: median / p99 ms | the same into room made ahead + fdatasync: median / p99 ms | checkpoint ms | "
          "open FILE+journal ms | open after checkpoint ms | engine check ms | FILE MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['n']:,} | {r['first_median']:.2f} / {r['first_p99']:.2f} | {r['last_median']:.2f} / "
              f"{r['last_p99']:.2f} | {r['bare_median']:.2f} / {r['bare_p99']:.2f} | {r['room_median']:.2f} / "
              f"{r['room_p99']:.2f} | {r['checkpoint']:.0f} | {r['open_cold']:.0f} | {r['open_warm']:.0f} | "
              f"{r['check']:.0f} | {r['file_mb']:.1f} |")
    print()
    big = results[-1]
    flat = big["last_median"] / big["first_median"]
    limit = big["last_median"] / big["bare_median"]
    print(f"Target: the per-action cost flat, action {big['n']:,} (last 10%) within 1.5x action 1 (first 10%): "
          f"{flat:.2f}x ({'met' if flat <= 1.5 else 'NOT met'})")
    print()
    print(f"Target: the per-action cost within 1.5x a bare os.write+os.fsync of the same bytes on the same disk: "
          f"{limit:.2f}x ({'met' if limit <= 1.5 else 'NOT met'})")
    print()
    print(f"Beside it (no target): the per-action cost against the same line written the journal's way (into zeros "
          f"fsynced ahead, then fdatasync), the disk's own part of an action: {big['last_median'] / big['room_median']:.2f}x")
    print()
    print(f"Where an action's time goes (no target; last 10% of {big['n']:,}): its own fdatasync, timed inside it, "
          f"median {big['own_sync_median']:.3f} ms; the rest (the rules, the entry's text, its encoding and sum, "
          f"the write) median {big['rest_median']:.3f} ms")
    print()
    mix = results[-1]["kinds"]
    print(f"Mix of the {results[-1]['n']:,}-action game: " + ", ".join(f"{k} {v}" for k, v in sorted(
        mix.items(), key=lambda kv: -kv[1])) + f"; {results[-1]['undos']} undone; refused (not recorded, not timed): "
          f"{results[-1]['refused']}.")
    print()
    print("## TinyDB default JSONStorage, for comparison: one insert")
    print()
    print("| docs in the table | median ms | p99 ms |")
    print("|---:|---:|---:|")
    for size, median, p99 in baseline:
        print(f"| {size:,} | {median:.1f} | {p99:.1f} |")
    print()
    print(f"(bench/record.py ran in {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
