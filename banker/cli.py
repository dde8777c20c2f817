"""The ``banker`` command: sessions from the shell, and the Textual app.

    banker new game.json --players Ann,Bob,Cid      start a session
    banker apply game.json moves.jsonl              apply a JSON-lines script (- for stdin)
    banker state game.json [--json]                 balances, deeds, buildings
    banker log game.json                            the log, one action a line
    banker cards --edition classic-us [--json]      the edition's cards
    banker open game.json / banker                  the table screen (Textual)
    banker serve game.json [--host H] [--port P]    the players' read-only page (QR code)
    banker export game.json --format json           game.export.json (never over an existing file)
    banker repair game.json [--yes]                 resolve a damaged session (see docs/session-log.md)

Every refusal is one line on stderr and a non-zero exit status; the session files are
then exactly as they were. See docs/commands.md.
"""

from __future__ import annotations

from banker.ui import loading  # isort: skip  (first: the collector paused while the command's modules load)

import argparse
import errno
import io
import json
import math
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from banker.cliparse import EXIT_USAGE, Parser, UsageExit, choose_lang, command_in, lang_in, say_error, terminal_safe
from banker.i18n import LANGS, Translator
from banker.ledger import Session, SessionError, SessionLog, SessionReader, SessionWriter, read_session
from banker.ledger import repair as repair_session
from banker.ledger.clock import clock_text, parse_end, stored
from banker.ledger.format import is_session_data, why
from banker.ledger.lock import WriterLock
from banker.ledger.storage import FileRefused, read_regular
from banker.rules import BoardError, GameState, HouseRules, Refused, Setup
from banker.rules.messages import quoted
from banker.rules.names import text_fault, typed_players

loading.done()  # the command's modules are loaded: the collector back on (banker.ui.loading)

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_INTERNAL = 70  # a bug in banker (sysexits' EX_SOFTWARE): reported in one line


def local_now() -> datetime:
    """The table's clock: now, in the machine's time zone (tests put a frozen clock here)."""
    return datetime.now().astimezone()


class CliError(Exception):
    """A problem with what was asked, reported as one line (``key``: its sentence in the catalogs' ``[cli]``
    table, or ``table.key`` of another, said in the banker's language; else the text given, already said)."""

    def __init__(self, text: str = "", key: str | None = None, **params: object) -> None:
        if key is not None and "." not in key:
            key = f"cli.{key}"
        super().__init__(text or Translator("en")(key or "", **params))
        self.key = key
        self.params = params

    def text(self, tr: Translator) -> str:
        """Said in ``tr``'s language; a parameter that is a session log's sentence or error (a ``Said``, an
        ``OutputError``, a refusal) said in it too."""
        return tr(self.key, **{k: tr.session(v) if hasattr(v, "key") else v for k, v in self.params.items()}) \
            if self.key else str(self)


def translator(args: argparse.Namespace) -> Translator:
    """The banker's language: ``--lang`` (given before or after the subcommand), else the locale's
    (:func:`banker.cliparse.choose_lang`, which the parser's words follow too)."""
    return Translator(choose_lang(getattr(args, "lang", None)))


def _variant_text(tr: Translator, state: GameState) -> str:
    """The variant as a sentence says it ("short game")."""
    return tr.get(f"cli.variant_{state.variant.id}", state.variant.name.lower())


def _cut(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _silence_stdout() -> None:
    """Point standard output at /dev/null (after a broken pipe), so that Python's own flush at exit
    neither fails nor prints a second line."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout (tests)
        pass


# --------------------------------------------------------------------------- new

def _check_option_text(option: str, text: str) -> None:
    """Refuse an option's text that is too long or holds a control or invisible character, naming the option
    (the engine's own words said "new: "--name" ...", after the command's "banker new:")."""
    fault = text_fault(text)
    if fault is not None:
        kind, params = fault
        raise CliError(key=f"cli_said.option_{kind}", option=option, **params)

def cmd_new(args: argparse.Namespace) -> int:
    players = typed_players(args.players)
    if players is None:
        raise CliError(key="cli_said.empty_player", players=terminal_safe(args.players))
    wanted: dict[str, bool] = {}
    for item in args.house_rule or []:
        for rule in item.split(","):
            if rule.strip():
                wanted[rule.strip().replace("-", "_")] = True
    unknown = sorted(set(wanted) - set(HouseRules.names()))
    if unknown:
        raise CliError(key="cli_said.unknown_house_rule", rules=", ".join(unknown), known=", ".join(HouseRules.names()))
    rules = HouseRules.from_mapping(wanted)
    if args.name is not None:
        _check_option_text("--name", args.name)  # shown in the resume list, on the page, by banker state
    end = None
    if args.end_time is not None:  # "22:30" or "90m", said now: stored as the time it names
        _check_option_text("--end-time", args.end_time)
        end = parse_end(args.end_time, local_now())
    setup = Setup(args.edition, args.variant, players, rules, stored(end) if end else None,
                  follow=args.follow)
    tr = translator(args)
    with Session.create(args.file, setup, name=args.name) as session:
        if session.lock_unnamed is not None:  # said on stderr, as `banker apply` says it; the session is made
            say_error("banker new: " + tr.session(session.lock_unnamed))
        state = session.state
        on = [r for r, v in rules.to_mapping().items() if v]
        said = [tr("cli.created", file=args.file, edition=state.edition.name, variant=_variant_text(tr, state),
                   players=", ".join(state.players), amount=state.edition.fmt(state.cash[state.players[0]]))]
        if on:
            said.append(tr("cli.created_rules", rules=", ".join(tr.get(f"house_rule.{r}", r) for r in on)))
        if state.follow:
            said.append(tr("cli.created_follow", player=state.current))
        if end is not None:
            said.append(tr("cli.created_end", time=clock_text(end)))
        print(terminal_safe("; ".join(said)))
    return EXIT_OK


# --------------------------------------------------------------------------- apply
#: a number written with more digits than this is refused while the line is read (the engine
#: bounds every amount far below; this only keeps int() of a 5,000-digit literal out)
MAX_DIGITS = 30


class _LineError(Exception):
    """A script line that cannot be read as a command: the reason (a key of the catalogs: ``table.key``, or ``key`` of
    the ``[cli]`` table), for ``line N: ...``."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, tr: Translator) -> str:
        """The reason in the banker's language (a parameter that is a :class:`_LineError` too, a clause, likewise)."""
        params = {k: v.text(tr) if isinstance(v, _LineError) else v for k, v in self.params.items()}
        return tr(self.key if "." in self.key else f"cli.{self.key}", **params)


#: the most a script file may hold, as a session file (a script is read whole before its first line is applied)
MAX_SCRIPT_BYTES = 64 * 2**20
#: the longest line of a script: a command is a few hundred bytes (a trade of every deed, a long memo, a few KB);
#: a longer line is refused by its number, never read into memory whole (``/dev/zero`` through standard input)
MAX_LINE_BYTES = 2**20


def _script_lines(source: str) -> Iterable[str | bytes]:
    if source == "-":
        # bytes, decoded line by line: a line that is not UTF-8 is refused by number, and the
        # lines before it are applied as they arrive (typed live)
        return _lines_of(getattr(sys.stdin, "buffer", sys.stdin))
    path = Path(source)
    try:
        # a plain file of a sane size, read without blocking (a FIFO, a device, a folder refused by what it is);
        # split at line feeds only: a U+2028 or U+0085 inside a JSON string is not a new line; each line decoded on
        # its own, as from standard input: a line that is not UTF-8 is refused by its number, the lines before it
        # applied (docs/commands.md; the whole file was refused, naming no line)
        data, _st = read_regular(path, MAX_SCRIPT_BYTES)
        return data.split(b"\n")
    except FileNotFoundError:
        raise CliError(key="no_script", file=source) from None
    except IsADirectoryError:
        raise CliError(key="script_dir", file=source) from None
    except FileRefused as e:
        raise CliError(key="script_refused", why=e) from None
    except OSError as e:
        key = "cannot_read_denied" if e.errno in (errno.EACCES, errno.EPERM) else "cannot_read"
        raise CliError(key=key, file=source, reason=why(e)) from None


def _lines_of(stream: Any) -> Iterator[str | bytes]:
    """Standard input's lines as they arrive, each read up to one byte past :data:`MAX_LINE_BYTES` (that line is then
    refused by its number, and nothing after it read)."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        yield line
        if len(line) > MAX_LINE_BYTES:
            return


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _LineError("digits", n=len(text.lstrip("-")))
    return int(text)


def _json_constant(name: str) -> float:
    raise _LineError("constant", name=name)


def _json_float(text: str) -> float:
    """A JSON number with a fraction or an exponent; one too large for a float (``1e400``: infinity) refused as a
    number of that size is (it was taken, then refused as "cannot be recorded as JSON", in English)."""
    value = float(text)
    if value in (math.inf, -math.inf):
        raise _LineError("huge_number", number=_cut(text, 40))
    return value


#: what :func:`_read_command` returns for a blank or comment line (JSON's null is a line to refuse)
_SKIP = object()


def _read_command(raw: str | bytes) -> object:
    """One script line as a command (``_SKIP`` for a blank or comment line); :class:`_LineError` says why not."""
    if len(raw) > MAX_LINE_BYTES:
        raise _LineError("line_too_long", mb=MAX_LINE_BYTES // 2**20)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _LineError("not_utf8") from None
    line = raw.strip().lstrip("\ufeff")
    if not line or line.startswith("#"):
        return _SKIP
    try:
        return json.loads(line, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant,
                          object_pairs_hook=_json_object)
    except RecursionError:
        raise _LineError("too_deep") from None
    except json.JSONDecodeError as e:  # what kind of mistake, in our words (the json module's are English), and where
        raise _LineError("cli_json.at", problem=_json_problem(e.msg), column=e.colno) from None
    except ValueError:  # pragma: no cover - json.loads raises JSONDecodeError for every malformed text
        raise _LineError("cli_json.not_json") from None


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object of a script line; a key given twice is refused (JSON keeps the last one silently: ``"amount": 10,
    "amount": 20`` would record 20, a typo reaching the log)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _LineError("cli_json.twice", name=key)
        out[key] = value
    return out


#: the json module's messages (Lib/json/decoder.py and its C scanner, as they begin) and the ``[cli_json]`` key
#: that says each; another (a future Python's wording) is said as "a mistake", still with its column
JSON_PROBLEMS = (
    ("Expecting value", "value"),
    ("Expecting property name", "name"),
    ("Expecting ':'", "colon"),
    ("Expecting ','", "comma"),
    ("Unterminated string", "string"),
    ("Invalid control character", "control"),
    ("Invalid \\", "escape"),  # "Invalid \escape", "Invalid \uXXXX escape"
    ("Extra data", "extra"),
    ("Illegal trailing comma", "trailing_comma"),
)


def _json_problem(message: str) -> _LineError:
    """The kind of a JSON mistake (json's English ``message``) as a clause of the ``[cli_json]`` table."""
    key = next((key for start, key in JSON_PROBLEMS if message.startswith(start)), "other")
    return _LineError(f"cli_json.{key}")


def _write_line(text: str, tr: Translator) -> str | None:
    """Print one applied action; the reason when standard output cannot take it (closed pipe, full disk)."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()  # each line at once: a closed pipe is seen at the line it happens
    except OSError as e:
        _silence_stdout()
        return tr("cli.pipe_closed") if isinstance(e, BrokenPipeError) else tr.session(why(e))
    return None


def _refusal(tr: Translator, e: Exception) -> str:
    if isinstance(e, Refused):
        return tr.refusal(e)
    if isinstance(e, BoardError):
        return tr.board(e)
    return tr.session(e) if isinstance(e, SessionError) else str(e)


def cmd_apply(args: argparse.Namespace) -> int:
    tr = translator(args)
    lines = _script_lines(args.script)  # a missing script is refused before the session is touched
    session = Session.open(args.file)
    if session.lock_unnamed is not None:  # said once, on stderr; the script is applied all the same
        say_error("banker apply: " + tr.session(session.lock_unnamed))
    try:
        status = _apply_lines(session, lines, tr)
    finally:
        try:
            session.close()
        except SessionError as e:
            if e.key != "fold_failed":
                raise
            # every line applied is durable in the journal: the status must not say "apply the script again"
            say_error("banker apply: " + tr.session(e))
    return status


def _apply_lines(session: SessionWriter, lines: Iterable[str | bytes], tr: Translator) -> int:
    """Apply the script's lines in order, each said as it is recorded; the first refusal stops it."""
    last = None  # the number of the last line applied
    for n, raw in enumerate(lines, 1):
        try:
            command = _read_command(raw)
        except _LineError as e:
            say_error(tr("cli.line", n=n, error=e.text(tr)))
            return EXIT_REFUSED
        if command is _SKIP:
            continue
        if is_session_data(command):  # `banker apply game.json other.json`: read as a command, it was refused as
            # '"snapshot.1.table[1]" is more than a table can hold'
            say_error(tr("cli.line", n=n, error=tr("cli.session_as_script")))
            return EXIT_REFUSED
        try:
            entry = session.apply(command)
        except (Refused, SessionError) as e:
            say_error(tr("cli.line", n=n, error=_refusal(tr, e)))
            return EXIT_REFUSED
        except RecursionError:
            say_error(tr("cli.line", n=n, error=tr("cli.too_deep")))
            return EXIT_REFUSED
        last = n
        failed = _write_line(terminal_safe(tr.entry(entry)), tr)
        if failed:
            say_error("banker apply: " + tr("cli.stopped", n=last, reason=failed))
            return EXIT_REFUSED
    return EXIT_OK


# --------------------------------------------------------------------------- state
def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def render_state(session: SessionLog, tr: Translator | None = None) -> str:
    """``banker state``: the table in the banker's language (English when no translator is given)."""
    tr = tr or Translator("en")
    state = session.state
    data = state.to_json()
    fmt = state.edition.fmt
    out = [tr("cli.state_head", name=session.name, edition=state.edition.name, variant=_variant_text(tr, state),
              entries=tr("cli.entries", n=len(session.entries)), actions=tr("cli.actions", n=data["actions"]))]
    rules = [r for r, v in data["house_rules"].items() if v]
    if rules:
        out.append(tr("cli.house_rules", rules=", ".join(tr.get(f"house_rule.{r}", r) for r in rules)))
    out.append("")
    columns = ("player", "cash", "debt", "jail_cards", "houses", "hotels", "net_worth")
    rows = [[tr(f"cli.col_{c}").upper() for c in columns]]
    deeds_of: dict[str, list[str]] = {}
    for name in data["order"]:
        p = data["players"][name]
        debt = "-"
        if p["debt"]:
            debt = ", ".join(tr("cli.debt_to", amount=fmt(c["amount"]), creditor=tr.account(c["creditor"], in_text=True))
                             for c in p["debt"]["claims"])
        label = tr("cli.bankrupt_mark", player=name) if p["bankrupt"] else name
        rows.append([label, fmt(p["cash"]), debt, str(p["jail_cards"]), str(p["houses"]), str(p["hotels"]),
                     fmt(p["net_worth"])])
        marks = []
        for pos in p["deeds"]:
            lot = data["spaces"][str(pos)]
            notes = []
            if lot["hotel"]:
                notes.append(tr("deed.hotel"))
            elif lot["houses"]:
                notes.append(tr("deed.houses", n=lot["houses"]))
            if lot["mortgaged"]:
                notes.append(tr("deed.mortgaged"))
            marks.append(f"{pos:>2} {lot['name']}" + (f" [{', '.join(notes)}]" if notes else ""))
        deeds_of[name] = marks
    table = _table(rows)
    out.append(table[0])
    for name, line in zip(data["order"], table[1:], strict=True):
        out.append(line)
        out.extend(f"    {m}" for m in deeds_of[name])
    out.append("")
    bank = data["bank"]
    out.append(tr("cli.bank", houses=tr("cli.houses", n=bank["houses"]), hotels=tr("cli.hotels", n=bank["hotels"]),
                  amount=fmt(bank["paid_out"])))
    if state.house_rules.free_parking_pot:
        out.append(tr("cli.pot", amount=fmt(data["free_parking_pot"])))
    if data["pending_auction"]:
        names = [data["spaces"][str(p)]["name"] for p in data["pending_auction"]]
        out.append(tr("cli.to_auction", spaces=", ".join(names)))
    if data["bankruptcies"]:
        out.append(tr("cli.bankrupt", players=", ".join(tr("cli.bankrupt_to", player=b["player"],
                                                            creditor=tr.account(b["creditor"], in_text=True))
                                                         for b in data["bankruptcies"])))
    if state.follow:
        out.append(_follow_line(state, tr))
    result = data["result"]
    if result is None:
        out.append(tr("cli.winner_none"))
    else:
        reason = _reason(tr, result.get("reason"))
        if result.get("winner"):
            out.append(tr("cli.winner", player=result["winner"], reason=reason))
        else:
            out.append(tr("cli.tie", reason=reason, players=", ".join(result.get("tied") or [])))
    return "\n".join(terminal_safe(line) for line in out)


def _reason(tr: Translator, reason: object) -> str:
    """Why the game ended (``time``, ``agreed``...), in words."""
    from banker.rules.messages import EN, Msg

    key = f"reason.{reason}"
    return tr.msg(Msg(key)) if key in EN else str(reason)


def _follow_line(state: GameState, tr: Translator) -> str:
    """Follow mode in ``banker state``: whose turn, the doubles, every token, what is proposed."""
    from banker.rules.turns import describe, doubles_to_roll_on

    tokens = []
    for p in state.active_players:
        where = state.edition.spaces[state.positions[p]].name
        if state.in_jail[p]:
            where = tr("cli.in_jail", n=state.jail_turns[p])
        tokens.append(f"{p} {where}")
    line = tr("cli.follow", player=state.current)
    doubles = doubles_to_roll_on(state)
    if doubles:
        line += f" ({tr('cli.follow_doubles', n=doubles)})"
    line += "; " + tr("cli.follow_tokens", tokens=", ".join(tokens))
    if state.pending is not None:
        line += "; " + tr("cli.follow_settle", what=tr.msg(describe(state, state.pending)))
    return line


def _warn_damage(command: str, message: object, tr: Translator) -> None:
    """A read-only command on a damaged session: it shows what it can read, and says so."""
    if message:
        say_error(f"banker {command}: " + tr("cli.warning", message=tr.session(message)))


def cmd_state(args: argparse.Namespace) -> int:
    tr = translator(args)
    # a look, closed once said: the checkpoint's entries checked and left on the disk (issue #14)
    with SessionReader.open(args.file, on_disk=True) as session:
        _warn_damage("state", session.damage_message, tr)
        if args.json:
            print(terminal_safe(json.dumps(session.state.to_json(), indent=2, ensure_ascii=False), keep_newlines=True))
        else:
            print(render_state(session, tr))
    return EXIT_OK


# --------------------------------------------------------------------------- log
def _table_time(ts: str) -> str:
    """An entry's time as the table's clock said it (the offset it was recorded with), as the review shows it: the
    evening reads the same on any machine (converted to this machine's zone, an entry at 22:24 in New York read
    03:24 the next day here, and 22:24 in the review)."""
    try:
        return datetime.fromisoformat(ts).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return ts


def cmd_log(args: argparse.Namespace) -> int:
    tr = translator(args)
    read = read_session(args.file)
    _warn_damage("log", read.damage_message, tr)
    entries = read.entries
    if args.json:
        for entry in entries:
            print(terminal_safe(json.dumps(entry.to_json(), ensure_ascii=False)))
        return EXIT_OK
    undone_by = {e.undoes: e.seq for e in entries if e.undoes is not None}
    width = len(str(len(entries))) if entries else 1
    for e in entries:
        mark = tr("cli.undone_by", seq=undone_by[e.seq]) + " " if e.seq in undone_by else ""
        print(f"{e.seq:>{width}}  {_table_time(e.ts)}  {mark}{terminal_safe(tr.entry(e))}")
    if not entries:
        print(tr("cli.no_actions", file=args.file), file=sys.stderr)
    return EXIT_OK


# --------------------------------------------------------------------------- cards
def cmd_cards(args: argparse.Namespace) -> int:
    from banker.boards import check_board, load_edition

    edition = load_edition(args.edition)
    check_board(args.edition)  # a board file: no text that drives the terminal, its variants known
    cards = [{"id": c.id, "deck": c.deck, "deck_name": edition.decks[c.deck], "text": c.text, "effect": dict(c.effect)}
             for c in edition.cards.values()]
    if args.json:
        print(json.dumps(cards, indent=2, ensure_ascii=False))
        return EXIT_OK
    tr = translator(args)
    rows = [[tr(f"cli.col_{c}").upper() for c in ("id", "deck", "text", "effect")]]
    for card in edition.cards.values():
        rows.append([card.id, edition.decks[card.deck], card.text, json.dumps(dict(card.effect), ensure_ascii=False)])
    print("\n".join(_table(rows)))
    return EXIT_OK


# --------------------------------------------------------------------------- the app
def _console(lang: str | None, review: bool = False) -> Callable[..., int] | None:
    """The console's ``run_app``, its modules loaded with the cyclic collector paused (banker.ui.loading: a pause
    already on is kept until here); None when it cannot be loaded, said in one line."""
    loading.pause()
    try:
        from banker.ui.app import run_app
    except ImportError as e:
        key = "cli_said.review_unavailable" if review else "cli_said.app_unavailable"
        say_error(("banker review: " if review else "banker: ") + Translator(choose_lang(lang))(key, error=e))
        return None
    finally:
        loading.done()  # banker.ui.app put it back on, unless its modules were loaded already
    return run_app


def _run_app(path: str | None, lang: str | None = None) -> int:
    run_app = _console(lang)
    return EXIT_USAGE if run_app is None else int(run_app(path, lang) or 0)


def _console_on(path: Path, lang: str | None, review: bool = False) -> int:
    """The console on the session at ``path`` (its review, with ``review``). The session starts opening at once,
    in a thread of its own (:class:`banker.ui.opening.Opening`: read, checked, its writer's lock taken), while
    Textual and the console's code load; a session that cannot be opened is refused then, in one line, before
    the console takes the terminal. A damaged one is the console's to show: it opens it read-only and says what
    is damaged."""
    from banker.ledger import SessionDamaged
    from banker.ui.opening import Opening

    # the collector paused from before the thread starts (until the console's modules are loaded, in _console):
    # the thread's own pause (format.no_gc) then leaves it paused
    loading.pause()
    try:
        opening = Opening(path, readonly=review)
    except BaseException:  # no thread to be had (the system's limit): the collector back on, the error said
        loading.done()
        raise
    handed = False
    try:
        run_app = _console(lang, review)
        if run_app is None:
            return EXIT_USAGE
        try:
            opening.result()
        except SessionDamaged:  # the console opens it read-only and says what is damaged; one it cannot is refused here
            Session.open(path, readonly=True).close()
        handed = True
    finally:
        if not handed:
            opening.discard()  # a writer's lock let go
    return int(run_app(str(path), lang, review=review, opening=opening) or 0)


def cmd_open(args: argparse.Namespace) -> int:
    return _console_on(Path(args.file), args.lang)


def cmd_repair(args: argparse.Namespace) -> int:
    from banker.ledger.writer import repair_lock, unnamed

    tr = translator(args)
    # the writer lock first, held to the end: a session open for writing elsewhere is refused before its damage is
    # said or a question asked, and nothing is recorded in it between the report and the repair
    with repair_lock(args.file) as lock:
        said = unnamed(lock)
        if said is not None:  # said on stderr, as `banker apply` says it
            say_error("banker repair: " + tr.session(said))
        return _repair_locked(args, tr, lock)


def _repair_locked(args: argparse.Namespace, tr: Translator, lock: WriterLock) -> int:
    from banker.ledger.check import damage_lines
    from banker.ledger.writer import refuse_unopenable, snapshot_wrong

    read = read_session(args.file)
    if not read.damage:
        wrong = snapshot_wrong(read.path, read.setup, read.entries, read.snapshot, read.snapshot_problem)
        if wrong is None:
            print(tr("session.repair_nothing", path=str(read.path)))
            return EXIT_OK
        for done in repair_session(args.file, lock=lock):  # the snapshot is a copy of what the entries give: made anew
            print(tr.session(done))
        return EXIT_OK
    print(tr("session.repair_damaged", path=str(read.path)))
    for text in damage_lines(read.damage, read.setup, read.entries):
        print(f"  {tr.session(text)}")
    line = next((d for d in read.damage if d.kind == "journal-line"), None)
    changes = [d for d in read.damage if d.kind != "journal-line"]
    if changes:  # before offering or asking: accepted, it could never be opened (then what to put back)
        refuse_unopenable(read.path, read.setup, read.entries, setup_changed=any(d.kind == "setup" for d in changes))
    if changes and not args.accept_changes:
        raise CliError(tr("session.repair_refused", path=str(read.path), file=args.file))
    plan = []
    if line is not None:
        plan.append(tr("session.repair_plan_aside", aside=f"{read.path.name}.journal.damaged-{line.seq}", seq=line.seq))
    if changes:
        plan.append(tr("session.repair_plan_accept"))
    print(tr("session.repair_plan", plan=tr("session.repair_then").join(plan)))
    if not args.yes:
        if not sys.stdin or not sys.stdin.isatty():
            raise CliError(tr("session.repair_confirm", file=args.file))
        try:
            answer = input(tr("session.repair_ask") + " ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes", tr("session.repair_yes_short"), tr("session.repair_yes")):
            print(tr("session.repair_unchanged"))
            return EXIT_REFUSED
    for done in repair_session(args.file, accept_changes=args.accept_changes, lock=lock):
        print(tr.session(done))
    return EXIT_OK


def cmd_review(args: argparse.Namespace) -> int:
    return _console_on(Path(args.file), getattr(args, "lang", None), review=True)


#: the default export names, after the session file's name without its suffix: none of them can be the
#: session file, its journal or its lock, whatever the session is called (``x.json`` -> ``x.export.json``;
#: ``x.export.json`` -> ``x.export.export.json``): a suffix never holds two dots nor starts with "-"
DEFAULT_EXPORT_NAMES = {".json": ".export.json", ".md": ".export.md"}


def export_targets(session: Path, out: str | None, suffixes: Iterable[str]) -> list[Path]:
    """Where ``banker export`` writes each of the export's files (``suffixes``: ".json", ".md",
    "-timeline.csv"...). Default: in the current folder, after the session's name
    (:data:`DEFAULT_EXPORT_NAMES`), or in the folder ``--out`` names; ``--out NAME``: the file (its extension
    added when missing), or the prefix of the CSV files."""
    suffixes = list(suffixes)
    if out is None or os.path.isdir(out):  # --out a folder: the default names, in that folder
        folder = Path(out or "")
        return [folder / (session.stem + DEFAULT_EXPORT_NAMES.get(suffix, suffix)) for suffix in suffixes]
    if out.endswith(("/", os.sep)):  # meant as a folder, and there is none
        raise CliError(key="cli_said.out_no_folder", out=out)
    base = Path(out)
    if not base.name or base.name in (".", ".."):
        raise CliError(key="cli_said.out_folder", out=out, example=Path(out) / session.stem)
    try:
        kind = os.stat(out).st_mode
    except OSError:
        kind = None
    # /dev/stdout, /dev/null, a FIFO: never a file written beside it (/dev/stdout.json); /dev/stdout is a regular file
    # when the output goes to one, so a name in the system's /dev or /proc is refused whatever it is now
    if (kind is not None and not stat.S_ISREG(kind)) or Path(os.path.abspath(out)).parts[1:2] in (("dev",), ("proc",)):
        raise CliError(key="cli_said.out_not_file", out=terminal_safe(out))
    targets = []
    for suffix in suffixes:
        ext = suffix[suffix.rindex("."):]
        name = base.name
        has_ext = name.lower().endswith(ext)  # week.MD is a Markdown file already (it became week.MD.md)
        if suffix.startswith("-") and has_ext:  # --out friday.csv: friday-timeline.csv
            name = name[: -len(ext)]
        if suffix.startswith("-") or not has_ext:
            name += suffix
        targets.append(base.with_name(name))
    return targets


def cmd_export(args: argparse.Namespace) -> int:
    from banker.ledger.output import OutputError, OutputExists, OutputProtected, session_files, write_new_files
    from banker.ledger.review import load_review
    from banker.report.export import export

    path = Path(args.file)
    reviewed = load_review(path)
    _warn_damage("export", reviewed.damage_message, translator(args))  # exported as far as it can be read: said so
    files = export(reviewed, args.format, translator(args))
    if args.out == "-":
        if len(files) > 1:
            raise CliError(key="cli_said.csv_stdout")
        sys.stdout.write(next(iter(files.values())))
        return EXIT_OK
    targets = export_targets(path, args.out, files)
    data = {target: text.encode("utf-8") for target, text in zip(targets, files.values(), strict=True)}
    protect = session_files(path)
    try:
        write_new_files(data, protect=protect, force=args.force)
    except OutputProtected as e:  # this session's own file, or another session's
        raise CliError(key=f"cli_said.out_protected_{e.kind}", path=e.path, name=e.owner) from None
    except OutputExists as e:
        raise CliError(key="cli_said.out_exists", path=e.path) from None
    except OutputError as e:  # a folder missing, a folder or a device where the file would go, a disk error
        raise CliError(key="cli_said.out_error", error=e) from None
    for target in targets:
        print(terminal_safe(str(target)))  # a name typed with a control character in it never drives the terminal
    return EXIT_OK


def cmd_audit(args: argparse.Namespace) -> int:
    from banker.ledger.audit import audit
    from banker.report.audit import audit_lines

    report = audit(Path(args.file))
    for line in audit_lines(report, translator(args)):
        print(line)
    return EXIT_OK if report.ok else EXIT_REFUSED


# --------------------------------------------------------------------------- serve
def cmd_serve(args: argparse.Namespace) -> int:
    from banker.tableview.cli import serve
    from banker.tableview.server import ServeError

    try:
        return serve(args.file, args.host, args.port, choose_lang(args.lang))
    except ServeError as e:
        params: dict[str, Any] = e.params
        raise CliError(key=f"serve_said.{e.key}", **params) from None


# --------------------------------------------------------------------------- parser
#: the ``banker`` command's subcommands, as :func:`build_parser` adds them
COMMANDS = ("new", "apply", "state", "log", "cards", "open", "repair", "review", "export", "audit", "serve")


def build_parser(lang: str | None = None, only: str | None = None) -> Parser:
    """The ``banker`` command's parser, every word of its help and of its usage errors in ``lang`` (None: the
    locale's; :func:`banker.cliparse.choose_lang` decides). With ``only`` (one of :data:`COMMANDS`), that
    subcommand alone: the one the arguments name (:func:`banker.cliparse.command_in`), read as the whole parser
    reads it. Building all eleven, each with its arguments and their help in the banker's words, was 2 ms of a
    ``banker open``'s start (issue #14: 8 M instructions, against 1.5 for one)."""
    from banker.boards import EDITIONS, load_variants

    tr = Translator(choose_lang(lang))

    def h(key: str, **params: object) -> str:
        return tr(f"cli_help.{key}", **params)

    parser = Parser(prog="banker", description=h("description"), tr=tr)
    parser.arg("--lang", choices=LANGS, help=h("lang"))
    sub = parser.add_subparsers(dest="command", metavar=h("command_metavar"), title=h("commands"))
    file = h("file_metavar")

    def named(text: str) -> str:
        """A file's name as typed: an empty one ("" from an unset shell variable) is a usage error (it was read as
        the current folder, ".", or failed with "unexpected error ... has an empty name", status 70)."""
        if not text:
            raise parser.refuse("empty_name")
        return text

    def command(name: str, func: object, file_help: str | None = None) -> Parser | None:
        """The subcommand ``name`` added, with its file argument when it takes one; None when it is not wanted
        (``only`` names another)."""
        if only is not None and name != only:
            return None
        p: Parser = sub.add_parser(name, help=h(f"cmd_{name}"), description=h(f"cmd_{name}"), tr=tr, own=parser.own)
        parser.commands[name] = p
        if file_help is not None:
            p.arg("file", type=named, metavar=file, help=file_help)
        p.set_defaults(func=func)
        return p

    def port(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or int(text) > 65535:
            raise parser.refuse("port", value=quoted(text))
        return int(text)

    if (p := command("new", cmd_new, h("new_file"))) is not None:
        p.arg("--edition", default="classic-us", metavar=h("edition_metavar"),
              help=h("new_edition", editions=", ".join(EDITIONS)))
        p.arg("--variant", default="classic", metavar=h("variant_metavar"),
              help=h("new_variant", variants=", ".join(load_variants())))
        p.arg("--players", required=True, metavar=h("players_metavar"),
              help=h("new_players", example=",".join(n.strip() for n in tr("start_form.players").split(","))))
        p.arg("--house-rule", action="append", metavar=h("rule_metavar"),
              help=h("new_house_rule", rules=", ".join(HouseRules.names())))
        p.arg("--end-time", metavar=h("end_time_metavar"), help=h("new_end_time"))
        p.arg("--name", metavar=h("name_metavar"), help=h("new_name"))
        p.arg("--follow", action="store_true", help=h("new_follow"))

    if (p := command("apply", cmd_apply, h("file"))) is not None:
        p.arg("script", type=named, metavar=h("script_metavar"), help=h("apply_script"))

    if (p := command("state", cmd_state, h("file"))) is not None:
        p.arg("--json", action="store_true", help=h("state_json"))

    if (p := command("log", cmd_log, h("file"))) is not None:
        p.arg("--json", action="store_true", help=h("log_json"))

    if (p := command("cards", cmd_cards)) is not None:
        p.arg("--edition", default="classic-us", metavar=h("edition_metavar"), help=h("cards_edition"))
        p.arg("--json", action="store_true", help=h("cards_json"))

    if (p := command("open", cmd_open, h("file"))) is not None:
        p.arg("--lang", choices=LANGS, default=argparse.SUPPRESS, help=h("lang_screen"))

    if (p := command("repair", cmd_repair, h("file"))) is not None:
        p.arg("--yes", "-y", action="store_true", help=h("repair_yes"))
        p.arg("--accept-changes", action="store_true", help=h("repair_accept_changes"))

    if (p := command("review", cmd_review, h("review_file"))) is not None:
        p.arg("--lang", choices=LANGS, default=argparse.SUPPRESS, help=h("lang_screen"))

    if (p := command("export", cmd_export, h("file"))) is not None:
        p.arg("--format", required=True, choices=("csv", "markdown", "json"), help=h("export_format"))
        p.arg("--out", "-o", metavar=h("name_metavar"), help=h("export_out"))
        p.arg("--force", action="store_true", help=h("export_force"))
        p.arg("--lang", choices=LANGS, default=argparse.SUPPRESS, help=h("lang_texts"))

    command("audit", cmd_audit, h("file"))

    if (p := command("serve", cmd_serve, h("serve_file"))) is not None:
        p.arg("--host", metavar=h("host_metavar"), help=h("serve_host"))
        p.arg("--port", type=port, default=0, metavar=h("port_metavar"), help=h("serve_port"))
        p.arg("--lang", choices=LANGS, default=argparse.SUPPRESS, help=h("lang_page"))

    for name, p in parser.commands.items():  # every command speaks the banker's language, given before or after it
        if name not in ("open", "review", "export", "serve"):
            p.arg("--lang", choices=LANGS, default=argparse.SUPPRESS, help=h("lang_command"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``banker`` command; returns the exit status."""
    # a name from bytes that were not UTF-8, or a character the terminal's encoding lacks (LC_ALL=C: ASCII, whose
    # streams Python sets to surrogateescape), is escaped, never fatal
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors in ("strict", "surrogateescape"):
            stream.reconfigure(errors="backslashreplace")
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(lang_in(argv), only=command_in(argv, COMMANDS))
    try:
        args = parser.parse_args(argv)
    except UsageExit as e:
        return e.code
    if args.command is None:
        return _run_app(None, args.lang)
    try:
        code: int = args.func(args)
        return code
    except (SessionError, Refused, BoardError, CliError) as e:
        tr = translator(args)
        text = e.text(tr) if isinstance(e, CliError) else _refusal(tr, e)
        say_error(f"banker {args.command}: {text}")
        return EXIT_REFUSED
    except KeyboardInterrupt:
        say_error("banker: " + translator(args)("cli_said.interrupted"))
        return 130
    except BrokenPipeError:  # `banker log game.json | head`: a reader that has seen enough
        _silence_stdout()
        return EXIT_OK
    except OSError as e:  # anything the session log did not turn into a sentence of its own
        where = f" ({e.filename})" if getattr(e, "filename", None) else ""
        tr = translator(args)
        say_error(f"banker {args.command}: " + tr("cli_said.os_error", error=tr.session(why(e)), where=where))
        return EXIT_REFUSED
    except RecursionError:
        say_error(f"banker {args.command}: " + translator(args)("cli_said.too_deep"))
        return EXIT_REFUSED
    except ValueError as e:
        if "integer string conversion" not in str(e) or os.environ.get("BANKER_TRACEBACK"):
            return _unexpected(args, e)
        # a number of over 4,300 digits in a log written before amounts were bounded
        say_error(f"banker {args.command}: " + translator(args)("cli_said.too_large"))
        return EXIT_REFUSED
    except Exception as e:  # a bug: one line, never a traceback (BANKER_TRACEBACK=1 shows it)
        return _unexpected(args, e)


def _unexpected(args: argparse.Namespace, e: Exception) -> int:
    """A bug: one line, never a traceback (``BANKER_TRACEBACK=1`` shows it); the exception's own words (a
    programmer's, for the report) inside the banker's sentence."""
    if os.environ.get("BANKER_TRACEBACK"):
        raise e
    say_error(f"banker {args.command}: " + translator(args)("cli_said.unexpected",
                                                             error=f"{type(e).__name__}: {_cut(str(e), 200)}"))
    return EXIT_INTERNAL


if __name__ == "__main__":  # `python -m banker.cli ...` is the command, as `python -m banker ...` is (it ran nothing)
    raise SystemExit(main())
