"""Hostile input for the ``banker`` command: a seeded generator shared by ``tests/test_cli_fuzz.py``
(a few hundred cases in ``make test``) and ``bench/fuzz_cli.py`` (as many as asked).

Every case is built to be refused: a script line carries at least one poison (a number no table
holds, a control character, JSON nested too deep, text too long, a wrong type, an unknown op or
player, bytes that are not UTF-8, broken JSON...), and hostile arguments name what cannot be
(players a new game refuses, files that are not sessions, options that do not exist). Whatever
the case, ``banker`` must answer with a non-zero exit status and exactly one line on stderr, no
traceback, and leave the session file and its journal byte for byte as they were.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from banker.cli import main
from banker.ledger import Session
from banker.rules import Setup

PLAYERS = ("Ann", "Bob", "Cid")
LIMIT = 1_200_000
#: a table with a little history: deeds, houses, a mortgage, a jail card
SETUP_COMMANDS: list[dict[str, Any]] = [
    {"op": "buy", "player": "Ann", "space": 1},
    {"op": "buy", "player": "Ann", "space": 3},
    {"op": "build", "player": "Ann", "space": 1},
    {"op": "buy", "player": "Bob", "space": 5},
    {"op": "mortgage", "player": "Bob", "space": 5},
    {"op": "buy", "player": "Cid", "space": 12},
    {"op": "card", "player": "Cid", "card": "cc-jail-free"},
    {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 10, "memo": "lunch"},
]
#: commands that would be applied as they are: each case poisons one
VALID: list[dict[str, Any]] = [
    {"op": "salary", "player": "Ann"},
    {"op": "buy", "player": "Bob", "space": 39},
    {"op": "auction", "space": 37, "winner": "Cid", "bid": 10},
    {"op": "rent", "payer": "Bob", "space": 1},
    {"op": "rent", "payer": "Ann", "space": 12, "dice": 7},
    {"op": "tax", "player": "Cid", "space": 4, "choice": "flat"},
    {"op": "transfer", "from": "Ann", "to": "bank", "amount": 25, "memo": "fine"},
    {"op": "transfer", "from": "bank", "to": "Cid", "amount": 5},
    {"op": "jail_fine", "player": "Bob"},
    {"op": "build", "player": "Ann", "space": 3},
    {"op": "trade", "from": "Ann", "to": "Cid", "give": {"cash": 20, "spaces": [3]}, "get": {"jail_cards": 1}},
    {"op": "unmortgage", "player": "Bob", "space": 5},
    {"op": "undo", "reason": "wrong player"},
]
AMOUNT_KEYS = {"amount", "bid"}
PLAYER_KEYS = {"player", "payer", "winner", "from", "to"}
#: characters no name or text may hold
BAD_CHARS = ["\x1b", "\r", "\n", "\x00", "\x7f", "\x9b", "\u202e", "\u200b", "\u2066", "\ufeff", "\udcff", "\u2028",
             "\x07", "\x08", "\t", "\u200d", "\u061c"]
JUNK_TEXT = "abcxyzАБВґї€😀 '\"\\<>&%{}[]:,#-_."


def make_table(path: Path) -> Path:
    with Session.create(path, Setup("classic-us", "classic", PLAYERS), name="Fuzz") as session:
        for cmd in SETUP_COMMANDS:
            session.apply(cmd)
    return path


def file_bytes(path: Path) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    for p in (path, path.with_name(path.name + ".journal")):
        out[p.name] = p.read_bytes() if p.exists() else None
    return out


# --------------------------------------------------------------------------- poisons
def _junk(rng: random.Random, low: int = 1, high: int = 12) -> str:
    return "".join(rng.choice(JUNK_TEXT) for _ in range(rng.randint(low, high)))


def _huge(rng: random.Random) -> int:
    sign = rng.choice((1, -1))
    kind = rng.random()
    if kind < 0.3:
        return sign * (LIMIT + rng.randint(1, 10**6))
    if kind < 0.8:
        return sign * 10 ** rng.randint(7, 30)
    return sign * int("9" * rng.randint(31, 4300))


def _path_keys(cmd: dict[str, Any]) -> list[str]:
    return [k for k in cmd if k != "op"]


def poison_huge_number(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    keys = _path_keys(cmd) + ["extra"]
    key = rng.choice(keys)
    if key in ("give", "get"):
        cmd[key] = dict(cmd[key]) if isinstance(cmd[key], dict) else {}
        cmd[key]["cash"] = _huge(rng)
    else:
        cmd[key] = _huge(rng)
    return f"huge number in {key}", cmd


def poison_control_character(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    bad = rng.choice(BAD_CHARS)
    strings = [k for k, v in cmd.items() if isinstance(v, str)]
    key = rng.choice(strings + ["memo", "reason", "new_key"])
    if rng.random() < 0.15:  # in a key's name
        cmd["k" + bad + "ey"] = 1
        return f"control character U+{ord(bad):04X} in a key", cmd
    text = cmd.get(key) if isinstance(cmd.get(key), str) else _junk(rng)
    at = rng.randint(0, len(text))
    cmd[key] = text[:at] + bad + text[at:]
    return f"control character U+{ord(bad):04X} in {key}", cmd


def poison_long_text(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    key = rng.choice(["memo", "reason", "note", "op", *[k for k, v in cmd.items() if isinstance(v, str)]])
    cmd[key] = _junk(rng, 1, 3) * rng.randint(201, 2000)
    if len(cmd[key]) <= 200:
        cmd[key] = cmd[key] + "x" * 201
    return f"long text in {key}", cmd


def poison_deep(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    depth = rng.choice([9, 12, 50, 500, 5000, 100_000])
    key = rng.choice(["give", "extra", "lift", "player"])
    # written as text: a 100,000-deep value cannot be built by json.dumps
    return f"nested {depth} deep in {key}", ("RAW", cmd, key, depth, rng.choice(("[", "{")))


def poison_too_many(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    cmd[rng.choice(["lift", "extra"])] = list(range(rng.randint(201, 3000)))
    return "too many values", cmd


def poison_op(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    choice = rng.randrange(6)
    if choice == 0:
        del cmd["op"]
    else:
        cmd["op"] = ["x-" + _junk(rng), 7, None, [cmd["op"]], {"op": cmd["op"]}, True][choice - 1]
    return "bad op", cmd


def poison_wrong_type(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    wrong = rng.choice(["10", 2.5, True, False, None, [], {}, -5, 0, "", "Ann"])
    keys = [k for k in cmd if k in AMOUNT_KEYS]
    if keys:
        cmd[rng.choice(keys)] = wrong
        return f"wrong type {wrong!r} for an amount", cmd
    cmd["op"] = "transfer"
    cmd.update({"from": "Ann", "to": "Bob", "amount": wrong})
    return f"wrong type {wrong!r} for transfer amount", cmd


def poison_unknown_player(rng: random.Random, cmd: dict[str, Any]) -> tuple[str, Any]:
    keys = [k for k in cmd if k in PLAYER_KEYS]
    name = "zz" + _junk(rng)
    if not keys:
        cmd["op"], cmd["player"] = "salary", name
        return "unknown player", cmd
    key = rng.choice(keys)
    cmd[key] = rng.choice([name, 42, ["Ann"], {"name": "Ann"}, True] + ([] if key == "winner" else [None]))
    return f"unknown player in {key}", cmd


POISONS: list[Callable[[random.Random, dict[str, Any]], tuple[str, Any]]] = [
    poison_huge_number, poison_control_character, poison_long_text, poison_deep, poison_too_many, poison_op,
    poison_wrong_type, poison_unknown_player,
]


def _raw_nested(cmd: dict[str, Any], key: str, depth: int, bracket: str) -> bytes:
    inner = json.dumps(cmd, ensure_ascii=False)[:-1]
    opening, closing = (("[" * depth), ("]" * depth)) if bracket == "[" else (('{"a":' * depth), ("}" * depth))
    sep = ", " if len(cmd) else ""
    return f'{inner}{sep}"{key}": {opening}1{closing}}}'.encode()


def hostile_line(rng: random.Random) -> tuple[str, bytes]:
    """One script line the engine must refuse (a label saying why, the line's bytes)."""
    kind = rng.random()
    if kind < 0.08:  # not a JSON object at all
        value = rng.choice(["[1, 2]", "42", '"salary"', "null", "true", "[]", '[{"op": "salary", "player": "Ann"}]'])
        return "not an object", value.encode()
    if kind < 0.16:  # broken JSON
        text = json.dumps(rng.choice(VALID))
        cut = rng.randint(1, len(text) - 1)
        junk = rng.choice(["", "}", "{", ",", "'", "\\", "NaN", "\x00", "]"])
        line = text[:cut] + junk
        try:
            json.loads(line)
        except ValueError:
            return "broken JSON", line.encode("utf-8", "surrogatepass")
        return "broken JSON", (line + "{").encode()
    if kind < 0.21:  # numbers JSON does not have, or that no int should be made of
        value = rng.choice(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "9" * rng.randint(31, 6000)])
        return f"bad number {value[:12]}", f'{{"op": "transfer", "from": "bank", "to": "Ann", "amount": {value}}}'.encode()
    if kind < 0.26:  # bytes that are not UTF-8 inside a valid-looking line
        bad = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"])
        return "not UTF-8", b'{"op": "salary", "player": "A' + bad + b'nn"}'
    cmd = json.loads(json.dumps(rng.choice(VALID)))
    label, poisoned = rng.choice(POISONS)(rng, cmd)
    if isinstance(poisoned, tuple) and poisoned and poisoned[0] == "RAW":
        _raw, base, key, depth, bracket = poisoned
        return label, _raw_nested(base, key, depth, bracket)
    return label, json.dumps(poisoned, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


# --------------------------------------------------------------------------- arguments
def hostile_argv(rng: random.Random, session: Path, work: Path) -> tuple[str, list[str]]:
    """Arguments ``banker`` must refuse, touching nothing (``work`` holds the odd files they name)."""
    fresh = str(work / f"new-{rng.randrange(10**9)}.json")
    choice = rng.randrange(12)
    if choice == 0:  # a new game's players
        bad = rng.choice(BAD_CHARS)
        players = rng.choice([
            "Ann,B" + bad + "ob", "Ann,the bank", "Ann,Bank", "Ann,БАНК", "Ann,касса", "Ann,pot", "Ann,ann",
            "Ann,ＡＮＮ", "Zoë,Zoe\u0308", "Ann," + "x" * rng.randint(33, 20_000), "Ann", "", ",,,",
            ",".join(f"P{i}" for i in range(rng.randint(12, 40))),  # more than any box seats (US: 11)
            "Ann,Bob,A\udcffnn",
        ])
        return "new: bad players", ["new", fresh, "--players", players]
    if choice == 1:
        return "new: the file exists", ["new", str(session), "--players", "Ann,Bob"]
    if choice == 2:
        option = rng.choice([["--edition", "x-" + _junk(rng)], ["--variant", "x-" + _junk(rng)],
                             ["--house-rule", "x-" + _junk(rng)], ["--edition", str(work)],
                             ["--edition", str(work / "nothing.toml")]])
        return "new: bad option", ["new", fresh, "--players", "Ann,Bob", *option]
    if choice == 3:
        return "unknown command", [rng.choice(["x-" + _junk(rng), "pay", "STATE", "--nope", "-x"])]
    if choice == 4:
        cmd = rng.choice(["state", "log", "audit", "export", "open", "review", "apply"])
        extra = {"export": ["--format", "json"], "apply": [str(work / "script.jsonl")]}.get(cmd, [])
        return f"{cmd}: an unknown option", [cmd, str(session), *extra, "--x" + _junk(rng).replace(" ", "")]
    if choice == 5:  # files that are not sessions
        name = rng.choice(["missing.json", "dir", "text.json", "binary.json", "empty.json", "list.json", "deep.json",
                           "huge-number.json", "not-utf8.json"])
        cmd = rng.choice(["state", "log", "audit", "apply", "export"])
        extra = {"export": ["--format", "markdown", "--out", str(work / "out")],
                 "apply": [str(work / "script.jsonl")]}.get(cmd, [])
        return f"{cmd}: {name}", [cmd, str(work / name), *extra]
    if choice == 6:  # scripts that cannot be read
        name = rng.choice(["missing.jsonl", "dir", "binary.json", "not-utf8.json"])
        return f"apply: script {name}", ["apply", str(session), str(work / name)]
    if choice == 7:
        return "serve: bad port", ["serve", str(session), "--port", rng.choice(["-1", "65536", "http", "1e3", "٣", "99999999"])]
    if choice == 8:
        return "serve: not a session", ["serve", str(work / rng.choice(["missing.json", "text.json", "dir"]))]
    if choice == 9:
        return "cards: bad edition", ["cards", "--edition", rng.choice(["x-" + _junk(rng), str(work), "../../etc/passwd"])]
    if choice == 10:
        return "export: csv to stdout", ["export", str(session), "--format", "csv", "--out", "-"]
    return "bad --lang", [rng.choice(["open", "review", "export"]), str(session), "--lang", _junk(rng, 2, 3) + "x"]


def make_odd_files(work: Path) -> None:
    (work / "dir").mkdir(exist_ok=True)
    (work / "text.json").write_text("just some notes\n", encoding="utf-8")
    (work / "binary.json").write_bytes(bytes(range(256)) * 4)
    (work / "empty.json").write_bytes(b"")
    (work / "list.json").write_text("[1, 2, 3]", encoding="utf-8")
    (work / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (work / "huge-number.json").write_text('{"session": ' + "9" * 5000 + "}", encoding="utf-8")
    (work / "not-utf8.json").write_bytes(b'{"session": "\xff\xfe"}\n')
    (work / "script.jsonl").write_text('{"op": "salary", "player": "Zed"}\n', encoding="utf-8")


# --------------------------------------------------------------------------- running
@dataclass
class Case:
    label: str
    argv: list[str]
    script: bytes | None = None  # written to a file, given as SCRIPT
    stdin: bytes | None = None  # given on standard input, SCRIPT being -


def cases(seed: int, n: int, session: Path, work: Path) -> Iterator[Case]:
    rng = random.Random(seed)
    for _ in range(n):
        kind = rng.random()
        if kind < 0.6:
            label, line = hostile_line(rng)
            before = rng.choice([b"", b"\n", b"# a comment\n", b"   \n\n"])
            yield Case(f"script: {label}", ["apply", str(session), str(work / "case.jsonl")], script=before + line + b"\n")
        elif kind < 0.75:
            label, line = hostile_line(rng)
            yield Case(f"stdin: {label}", ["apply", str(session), "-"], stdin=line + b"\n")
        else:
            label, argv = hostile_argv(rng, session, work)
            yield Case(label, argv)


@contextlib.contextmanager
def _stdin(data: bytes | None) -> Iterator[None]:
    if data is None:
        yield
        return
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved


def run_in_process(case: Case, work: Path) -> tuple[int, str, str]:
    if case.script is not None:
        (work / "case.jsonl").write_bytes(case.script)
    out, err = io.StringIO(), io.StringIO()
    with _stdin(case.stdin), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(case.argv)
    return code, out.getvalue(), err.getvalue()


def problems(case: Case, code: int, out: str, err: str, before: dict[str, bytes | None],
             after: dict[str, bytes | None], work: Path) -> list[str]:
    """What is wrong with how ``banker`` answered ``case`` (nothing, when it is right)."""
    found = []
    if code == 0:
        found.append("exit status 0")
    lines = err.splitlines()
    if len(lines) != 1:
        found.append(f"{len(lines)} lines on stderr")
    if "Traceback" in err or "Traceback" in out:
        found.append("a traceback")
    if any(c in err for c in ("\x1b", "\r", "\x00", "\x9b")):
        found.append("a raw control character on stderr")
    if after != before:
        found.append("the session files changed")
    leftovers = [p.name for p in work.glob("new-*")]
    if leftovers:
        found.append(f"left files behind: {leftovers}")
    return found
