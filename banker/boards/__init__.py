"""Edition data files: one TOML file per edition, validated on load.

``load_edition("uk")`` reads ``banker/boards/uk.toml``; a path to a ``.toml`` file
loads a custom board (for example a copy with edited street names). Mistakes in a
file are refused with :class:`banker.rules.errors.BoardError` naming the file, the
space and the problem. :func:`game_from_setup` and :func:`new_game` make a game from them.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping
from functools import cache, partial
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from banker.datacache import parsed
from banker.rules.edition import (
    Edition,
    HouseRules,
    Variant,
    control_text,
    edition_from_dict,
    file_quoted,
    layout_problem,
    name_problem,
    number_problem,
    text_problem,
    variants_from_dict,
)
from banker.rules.errors import BoardError
from banker.rules.messages import quoted
from banker.rules.state import GameState, Setup

EDITIONS = ("classic-us", "uk", "ru", "kyiv")
#: where banker's own board files are (a folder of the installed package; importlib.resources would cost the
#: console's start an import of zipfile for nothing)
HERE = Path(__file__).parent
#: an edition file is a few dozen KB; anything much larger is not one
MAX_BOARD_BYTES = 2**20


def _read_board_file(path: Path, label: str) -> str:
    """A board file the user named, read safely: a regular file only (a folder, a FIFO or a
    device is refused before anything is read, and a FIFO is never waited on), at most
    :data:`MAX_BOARD_BYTES`."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise BoardError(f"{label}: no such file", "no_file", label=label) from None
    except OSError as e:
        raise BoardError(f"{label}: cannot read it ({e.strerror})", "cannot_read", label=label, reason=e.strerror) from None
    if not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise BoardError(f"{label}: is a folder, not a board file", "folder", label=label)
        raise BoardError(f"{label}: is a special file (a pipe or a device), not a board file", "special", label=label)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise BoardError(f"{label}: cannot read it ({e.strerror})", "cannot_read", label=label, reason=e.strerror) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise BoardError(f"{label}: is a special file (a pipe or a device), not a board file", "special", label=label)
        data = f.read(MAX_BOARD_BYTES + 1)
    if len(data) > MAX_BOARD_BYTES:
        raise BoardError(f"{label}: is larger than any board file ({MAX_BOARD_BYTES // 1024} KB at most)", "too_large",
                         label=label, kb=MAX_BOARD_BYTES // 1024)
    try:
        return data.decode("utf-8-sig")  # a byte order mark (Windows Notepad writes one) is not part of the TOML
    except UnicodeDecodeError:
        raise BoardError(f"{label}: not UTF-8 text", "not_utf8", label=label) from None


def _read_toml(path: Path, label: str) -> dict[str, Any]:
    import tomllib  # only when the parsed data is not in the cache (banker.datacache): not at every start

    try:
        return tomllib.loads(_read_board_file(path, label))
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{label}: not valid TOML: {exc}", "not_toml", label=label, problem=str(exc)) from None
    except RecursionError:
        raise BoardError(f"{label}: not valid TOML: nested too deeply", "too_deep", label=label) from None
    except ValueError as exc:  # a whole number of over 4,300 digits: Python refuses to read it (not a TOMLDecodeError)
        if "integer string conversion" not in str(exc):
            raise
        problem = "a whole number of thousands of digits"
        raise BoardError(f"{label}: not valid TOML: {problem}", "not_toml", label=label, problem=problem) from None
    except FileNotFoundError:
        raise BoardError(f"{label}: no such file", "no_file", label=label) from None


@cache
def load_edition(name: str) -> Edition:
    """The edition called ``name`` (one of :data:`EDITIONS`) or at a ``.toml`` path."""
    if name.endswith(".toml"):
        path = Path(name)
        return edition_from_dict(_read_toml(path, str(path)), source=path.name)
    if name not in EDITIONS:
        said = quoted(name)  # as typed (--edition), every control escaped
        raise BoardError(f'unknown edition "{said}"; editions: {", ".join(EDITIONS)}', "unknown_edition", name=said,
                         editions=", ".join(EDITIONS))
    file = HERE / f"{name}.toml"
    return edition_from_dict(parsed(file, partial(_read_toml, file, f"{name}.toml")), source=f"{name}.toml")


@cache
def load_variants() -> dict[str, Variant]:
    file = HERE / "variants.toml"
    return variants_from_dict(parsed(file, partial(_read_toml, file, "variants.toml")), source="variants.toml")


def load_variant(name: str) -> Variant:
    variants = load_variants()
    if name not in variants:
        said = quoted(name)  # as typed (--variant) or as a board file names it, every control escaped
        raise BoardError(f'unknown variant "{said}"; variants: {", ".join(variants)}', "unknown_variant", name=said,
                         variants=", ".join(variants))
    return variants[name]


# --------------------------------------------------------------------------- a game from its setup
# Here, not in banker.rules: reading the board files is I/O, and the rules engine imports nothing
# from boards/ (the layers: docs/architecture.md).
def game_from_setup(setup: Setup) -> GameState:
    """A fresh game of ``setup``: its edition and variant read from the board files. A game on a board file of the
    user's is refused when the file's data are no longer those it was created with (:func:`board_setup`): its
    recorded money would otherwise be read, and repaired, by other rules."""
    if setup.board is not None and setup.edition.endswith(".toml"):
        path = Path(setup.edition)
        if board_sum(path) != setup.board:
            raise BoardError(f"{path}: the board file has changed since this session was created (its data differ); "
                             "put back the board the game was played on", "board_changed", label=str(path))
    return GameState(setup, load_edition(setup.edition), load_variant(setup.variant))


def board_sum(path: Path) -> str:
    """The fingerprint of a board file's data (not of its bytes: a comment or the spacing may change)."""
    import hashlib
    import json

    data = _read_toml(path, str(path))
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def check_board(name: str) -> None:
    """A board file taken for a new game or listed (``banker new``, ``banker cards``) checked beyond its schema: no text
    holds a character that drives a terminal, every name of a space or a group is one readable line of its own
    (:func:`banker.rules.edition.name_problem`), no number is one the game would do nonsense with (a mortgage above the
    price, rents that fall as houses are added: :func:`banker.rules.edition.number_problem`), the board has one jail, one
    GO and a card in each deck a space draws from (:func:`banker.rules.edition.layout_problem`), and every variant it lists
    is one banker knows (a board listing ["nope"] passed, and `banker new` then said "the rule book has no classic; choose
    one of: nope"). Not on every read: a session recorded on a board opens as it was."""
    if not name.endswith(".toml"):
        return
    path = Path(name)
    data = _read_toml(path, str(path))
    edition = edition_from_dict(data, source=path.name)  # load_edition's, from the data read once
    control = (control_text(data) or name_problem(edition) or text_problem(edition) or _color_problem(edition)
               or layout_problem(edition) or number_problem(edition))
    if control:
        where, problem = control
        raise BoardError(f"{path.name}: {where}: {problem}", "invalid", source=path.name, where=where, problem=problem)
    known = load_variants()
    unknown = [v for v in edition.variants if v not in known]
    twice = next((v for i, v in enumerate(edition.variants) if v in edition.variants[:i]), None)
    if unknown or not edition.variants or twice:
        problem = (f'unknown variant "{quoted(unknown[0])}"; variants: {", ".join(known)}' if unknown
                   else f'"{quoted(twice)}" listed twice: each variant once' if twice
                   else f"at least one of {', '.join(known)}")
        raise BoardError(f"{path.name}: variants: {problem}", "invalid", source=path.name, where="variants",
                         problem=problem)


#: the colours a board's group may be drawn in, besides ``#rrggbb``: the sixteen every terminal has, by the names Rich
#: (which draws them) gives them
TERMINAL_COLORS = frozenset({"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright_black",
                             "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta",
                             "bright_cyan", "bright_white"})


def _color_problem(edition: Edition) -> tuple[str, str] | None:
    """The first colour group whose ``color`` is not one the console draws, and where (a colour Rich does not know,
    "aliceblue", stopped the table screen as soon as a deed of the group was owned): ``#rrggbb``, as the shipped boards
    write theirs, or one of the :data:`TERMINAL_COLORS`. Checked here without Rich (the session log, which takes a
    board file for a new game, knows nothing of the terminal: the layer contracts)."""
    for group in edition.groups.values():
        if not (re.fullmatch(r"#[0-9a-fA-F]{6}", group.color) or group.color in TERMINAL_COLORS):
            return (f"group {group.id}", f"color {file_quoted(group.color)} is not a colour the console draws: write "
                                         "#rrggbb (as the shipped boards do) or a terminal colour name (red, "
                                         "bright_blue...)")
    return None


def board_setup(setup: Setup) -> Setup:
    """``setup`` of a new session: a board file checked (:func:`check_board`), named by its absolute path (the session
    opens from any folder) and its data's fingerprint kept; an edition banker ships, as it is."""
    if not setup.edition.endswith(".toml"):
        return setup
    check_board(setup.edition)
    path = Path(setup.edition).resolve()
    return replace(setup, edition=str(path), board=board_sum(path))


def new_game(edition: str, variant: str, players: Iterable[str],
             house_rules: Mapping[str, bool] | HouseRules | None = None, end_time: str | None = None) -> GameState:
    """A fresh game:

    >>> game = new_game("classic-us", "classic", ["Ann", "Bob"])
    >>> game.push({"op": "buy", "player": "Ann", "space": 39}).text
    'Ann buys Boardwalk for $400'
    >>> game.cash["Ann"]
    1100
    >>> _ = game.pop()
    >>> game.cash["Ann"]
    1500
    """
    rules = house_rules if isinstance(house_rules, HouseRules) else HouseRules.from_mapping(house_rules)
    return game_from_setup(Setup(edition, variant, tuple(players), rules, end_time))
