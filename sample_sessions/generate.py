"""The sample sessions: complete games recorded through the session log, from scripts.

    python sample_sessions/generate.py [--out DIR] [--verbose] [GAME ...]

Each game is a script, ``sample_sessions/scripts/GAME.jsonl``, one JSON object per line:

- line 1, the game: ``{"name": ..., "about": ..., "created": TIME, "setup": {"edition": ...,
  "variant": ..., "players": [...], "house_rules": {...}, "end_time": ...}}``;
- then one line per entry of the log: ``{"ts": TIME, "command": {...}}``, the command exactly as the
  session log records it (a mistake taken back is ``{"op": "undo", "reason": ...}``) and the time
  it is stamped with, optionally with ``"note"`` (what happened at the table, for the reader:
  the throw, the square) and ``"mark"`` (a notable event, listed with its entry number in
  sample_sessions/README.md). TIME is an ISO 8601 time with its offset; times never run backwards.

The times are an evening's: ``--restamp START [--until END] [--seed N]`` rewrites the chosen scripts'
times at a table's pace (:data:`PACE`, seeded draws per kind of entry; with ``--until`` the last entry
is stamped at END, as a timed game ends at its agreed time), then records them.

This driver knows nothing of the board, the dice or the rent: it creates the session
(:class:`banker.ledger.Session`), applies each command at its time and closes it; the rules engine
does the rest. A command the engine refuses stops the script naming the file, the line and the
reason (the script is wrong: nothing is skipped, and no partial session is left). A game must be
over when its script ends. Existing session files are replaced; ``--verbose`` prints every entry
with the players' cash, and each game's notable events with their entry numbers.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parent
if str(ROOT.parent) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT.parent))

from banker.ledger import Session, journal_path  # noqa: E402
from banker.ledger.lock import lock_path  # noqa: E402
from banker.rules import Refused, Setup  # noqa: E402

SCRIPTS = ROOT / "scripts"


class ScriptError(Exception):
    """A script that cannot be read, or that asks for something the engine refuses."""


class Game(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Line 1 of a script: the session's name, what the game shows, when it was created, its setup."""

    name: str
    about: str = ""
    created: str
    setup: dict[str, Any]


class Line(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One entry of the log: the command and its time (and words for the reader)."""

    ts: str
    command: dict[str, Any]
    note: str = ""
    mark: str = ""


@dataclass(frozen=True)
class Script:
    path: Path
    game: Game
    setup: Setup
    lines: tuple[Line, ...]

    @property
    def file(self) -> str:
        """The session file's name: the script's, ending in .json."""
        return self.path.with_suffix(".json").name

    @property
    def marks(self) -> list[tuple[int, str]]:
        """The notable events: (entry number, what it shows)."""
        return [(seq, line.mark) for seq, line in enumerate(self.lines, 1) if line.mark]


def _time(text: str, where: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ScriptError(f"{where}: {text!r} is not an ISO 8601 time") from None
    if when.tzinfo is None:
        raise ScriptError(f"{where}: {text!r} has no UTC offset")
    return when


def load_script(path: Path) -> Script:
    """Read and check a script (its shape and its times; the commands are the engine's to judge)."""
    rows = path.read_text(encoding="utf-8").splitlines()
    if not rows:
        raise ScriptError(f"{path.name}: empty; line 1 is the game, then one line per command")
    try:
        game = msgspec.json.decode(rows[0], type=Game)
        setup = Setup.from_mapping(game.setup)
    except (msgspec.DecodeError, KeyError, TypeError, ValueError) as e:
        raise ScriptError(f"{path.name}: line 1 (the game): {e}") from None
    last = _time(game.created, f"{path.name}: line 1 (the game)")
    lines = []
    for number, row in enumerate(rows[1:], 2):
        where = f"{path.name}: line {number}"
        try:
            line = msgspec.json.decode(row, type=Line)
        except msgspec.DecodeError as e:
            raise ScriptError(f"{where}: {e}") from None
        when = _time(line.ts, where)
        if when < last:
            raise ScriptError(f"{where}: {line.ts} is earlier than the line before it; times never run backwards")
        last = when
        lines.append(line)
    return Script(path, game, setup, tuple(lines))


def scripts() -> list[Script]:
    return [load_script(path) for path in sorted(SCRIPTS.glob("*.jsonl"))]


def write_game(script: Script, out: Path, verbose: bool = False) -> Session:
    """Record ``script`` into ``out/script.file``, replacing it; returns the closed session.

    A closed session keeps an empty journal (its header line) and an empty lock file beside it;
    once the session file is checked to hold every entry, both are removed, so only the TinyDB
    file is left (opening it again recreates them). A script that fails leaves nothing.
    """
    path = out / script.file
    made = (path, journal_path(path), lock_path(path))
    for p in made:
        p.unlink(missing_ok=True)
    session = Session.create(path, script.setup, name=script.game.name, created=script.game.created)
    try:
        for seq, line in enumerate(script.lines, 1):
            try:
                entry = session.apply(line.command, ts=line.ts)
            except Refused as e:
                raise ScriptError(f"{script.path.name}: line {seq + 1} (entry #{seq}) "
                                  f"{json.dumps(line.command, ensure_ascii=False)}: refused by the engine: {e}") from None
            if verbose:
                state = session.state
                cash = ", ".join(f"{p} {state.cash[p]}" for p in state.active_players)
                print(f"  #{seq} {entry['text']}   [{cash}]")
        if not session.state.over:
            raise ScriptError(f"{script.path.name}: the script ends before the game does")
        session.close()
        stored = json.loads(path.read_text(encoding="utf-8"))["entries"]
        if len(stored) != len(script.lines):  # pragma: no cover - the checkpoint failed
            raise ScriptError(f"{script.file}: the session file holds {len(stored)} entries, not {len(script.lines)}")
    except BaseException:
        session.close()
        for p in made:
            p.unlink(missing_ok=True)
        raise
    for p in made[1:]:
        p.unlink(missing_ok=True)
    return session


# --------------------------------------------------------------------------- a table's pace
#: how long a table takes over each kind of entry, in seconds (fewest, most): the throw, the move, the
#: counting out of the notes, the talk. A restamp draws each entry's time from these (seeded)
PACE: dict[str, tuple[int, int]] = {
    "deal": (6, 20), "salary": (25, 70), "buy": (30, 90), "auction": (60, 200), "rent": (30, 95), "tax": (30, 80),
    "card": (30, 90), "jail_fine": (25, 60), "jail_card": (25, 60), "transfer": (20, 70), "build": (15, 50),
    "sell_building": (15, 45), "building_auction": (90, 240), "mortgage": (15, 50), "unmortgage": (20, 60),
    "trade": (150, 420), "bankrupt": (120, 300), "free_parking": (25, 60), "undo": (15, 50), "end_game": (60, 180),
    "count": (120, 300),
}
#: the pace of an op not listed above
DEFAULT_PACE = (30, 90)


def restamp(script: Script, start: datetime, seed: int, until: datetime | None = None) -> list[datetime]:
    """Times for the script's entries at a table's pace from ``start`` (the session's creation): each entry
    a seeded draw from :data:`PACE` after the one before; with ``until``, the draws are scaled so that the
    last entry is stamped then (a timed game ending at its agreed time)."""
    rng = random.Random(seed)
    gaps = [rng.uniform(*PACE.get(str(line.command.get("op")), DEFAULT_PACE)) for line in script.lines]
    if until is not None:
        scale = (until - start).total_seconds() / sum(gaps)
        gaps = [g * scale for g in gaps]
    times, at = [], start
    for gap in gaps:
        at += timedelta(seconds=gap)
        times.append(at)
    return times


def write_restamped(script: Script, start: datetime, seed: int, until: datetime | None = None) -> None:
    """Rewrite the script file with the game created at ``start`` and every entry stamped by :func:`restamp`
    (the lines otherwise as they are)."""
    times = restamp(script, start, seed, until)
    rows = script.path.read_text(encoding="utf-8").splitlines()
    head = json.loads(rows[0])
    head["created"] = start.isoformat(timespec="milliseconds")
    out = [json.dumps(head, ensure_ascii=False)]
    for row, when in zip(rows[1:], times, strict=True):
        line = json.loads(row)
        line["ts"] = when.isoformat(timespec="milliseconds")
        out.append(json.dumps(line, ensure_ascii=False))
    script.path.write_text("\n".join(out) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="where to write the sessions (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true", help="print every entry with the players' cash")
    parser.add_argument("--restamp", metavar="START", help="rewrite the chosen scripts' times at a table's pace from "
                                                           "START (an ISO 8601 time with its offset), then record them")
    parser.add_argument("--until", metavar="END", help="with --restamp: the last entry's time (a timed game's end)")
    parser.add_argument("--seed", type=int, default=1, help="with --restamp: the pace's seed (default: %(default)s)")
    parser.add_argument("games", nargs="*", help="only these games (default: every script in scripts/)")
    args = parser.parse_args(argv)
    try:
        games = scripts()
        names = {s.file: s for s in games} | {s.path.stem: s for s in games}
        unknown = [g for g in args.games if g not in names]
        if unknown:
            parser.error(f"no such game: {', '.join(unknown)}; games: {', '.join(s.path.stem for s in games)}")
        chosen = [names[g] for g in args.games] if args.games else games
        if args.restamp:
            start = _time(args.restamp, "--restamp")
            until = _time(args.until, "--until") if args.until else None
            for script in chosen:
                write_restamped(script, start, args.seed, until)
            chosen = [load_script(script.path) for script in chosen]
        args.out.mkdir(parents=True, exist_ok=True)
        for script in chosen:
            session = write_game(script, args.out, verbose=args.verbose)
            result = session.state.result or {}
            print(f"{script.file}: {len(session.entries)} entries; winner {result.get('winner')} ({result.get('reason')})")
            for seq, label in script.marks:
                print(f"  #{seq} {label}")
    except ScriptError as e:
        print(f"generate.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
