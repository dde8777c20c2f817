"""Lines of the command line to show the banker, in words the open game's line takes: this board's spaces, this
game's players, the interface's verbs. The table's hint (:func:`command_example`, on the first frame: no more than
the matcher is loaded for it) and the help's examples (:func:`examples`, which loads the command line's parser) are
made here, the same way. Pure functions, no Textual.

A fixed example ("аренда арбат боря", "оренда хрещатик богдан") failed when typed on another board or at a table
without a Боря: "«боря» is neither a player nor a space".
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, NamedTuple

from .match import fold, prefix_matches

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.rules import GameState

#: the spaces a deed's action names (banker.ui.quick.PROPERTY)
DEEDS = ("street", "railroad", "utility")


class Example(NamedTuple):
    """A line, and the keys the command line fills from it (what it leaves out, such as the owner of a deed nobody
    owns yet, is asked for). A named tuple, not a dataclass: this module is loaded for the table's first frame, where
    making a dataclass costs some 3 M instructions (bench/_ui_instructions.py)."""

    line: str
    command: dict[str, Any]


def space_word(state: GameState, position: int, kinds: tuple[str, ...] = DEEDS, avoid: Collection[str] = ()) -> str:
    """A word of the space's name that names it alone among the board's spaces of ``kinds`` and no player:
    ``boardwalk``, ``арбат`` of "Улица Арбат", ``вокзальна`` of "Станція метро «Вокзальна»" (none of ``avoid``, the
    line's keywords); else ``#39``, which the line takes for any space."""
    spaces = [s for s in state.edition.spaces if s.kind in kinds]
    for word in fold(state.edition.spaces[position].name).split():
        if word.isalpha() and word not in avoid and not prefix_matches(word, state.players, str) \
                and [s.position for s in prefix_matches(word, spaces, lambda s: s.name)] == [position]:
            return word
    return f"#{position}"


def player_word(state: GameState, name: str, avoid: Collection[str] = ()) -> str:
    """What to type for a player: the first word of the name when it names that player alone (``борис`` of
    "Борис 🎩", though it begins "Бориспіль" too: the line's other words say which is meant); else the name's words
    (``mary ann``), or its symbols (``🦄``)."""
    words = fold(name).split()
    if words and words[0].isalpha() and words[0] not in avoid and prefix_matches(words[0], state.players, str) == [name]:
        return words[0]
    return " ".join(words) or name


def _rent(state: GameState, tr: Translator, avoid: Collection[str] = ()) -> Example:
    verb = tr("action.rent").casefold().split()[0]
    street = max(s.position for s in state.edition.spaces if s.kind == "street")
    payer = state.players[-1]
    return Example(f"{verb} {space_word(state, street, avoid=avoid)} {player_word(state, payer, avoid)}",
                   {"op": "rent", "space": street, "payer": payer})


def command_example(state: GameState, tr: Translator) -> str:
    """The command line's hint: the rent on the board's last street, paid by the game's last player, in the
    interface's verb (``rent boardwalk cid``, ``аренда арбат вика``; it named a "боря" no game had). The first of
    the help's :func:`examples`."""
    return _rent(state, tr).line


def examples(state: GameState, tr: Translator) -> list[Example]:
    """The help's examples of the command line on this table, each what it says it is (tests/test_ui_console.py
    parses them): a rent (:func:`command_example`) and one on a utility with the dice, building and selling on the
    last street, a mortgage on the first railroad, buying and auctioning the first street, the tax, a card the board
    has, a transfer with its memo, an undo with its reason, the jail fine, the end of the game."""
    from .quick import KEYWORDS, find_card, in_language, normalize, typed_verb

    keywords = {w for words in KEYWORDS.values() for w in words}
    spaces = state.edition.spaces

    def first(kind: str) -> int | None:
        return next((s.position for s in spaces if s.kind == kind), None)

    def space(position: int, kinds: tuple[str, ...] = DEEDS) -> str:
        return space_word(state, position, kinds, keywords)

    def line(op: str, *words: object) -> str:
        return " ".join([typed_verb(op, tr.lang), *(str(w) for w in words)])

    players = state.players
    a, b, last = players[0], players[1 % len(players)], players[-1]
    who = {p: player_word(state, p, keywords) for p in players}
    street, last_street = first("street"), max(s.position for s in spaces if s.kind == "street")
    assert street is not None  # every board has streets
    out = [_rent(state, tr, keywords)]
    utility, railroad, tax = first("utility"), first("railroad"), first("tax")
    if utility is not None:
        out.append(Example(line("rent", space(utility), who[a], 8), {"op": "rent", "space": utility, "payer": a, "dice": 8}))
    out.append(Example(line("build", space(last_street, ("street",))), {"op": "build", "space": last_street}))
    out.append(Example(line("sell_building", space(last_street, ("street",))), {"op": "sell_building", "space": last_street}))
    if railroad is not None:
        out.append(Example(line("mortgage", space(railroad)), {"op": "mortgage", "space": railroad}))
    out.append(Example(line("buy", who[a], space(street)), {"op": "buy", "player": a, "space": street}))
    out.append(Example(line("auction", space(street), who[b], 40), {"op": "auction", "space": street, "winner": b, "bid": 40}))
    if tax is not None:
        command: dict[str, Any] = {"op": "tax", "space": tax, "player": a}
        words = [space(tax, ("tax",)), who[a]]
        if state.edition.tax_choice:  # the income-tax choice, only where the board prints it
            words.append(in_language(KEYWORDS["percent"], tr.lang))
            command["choice"] = "percent"
        out.append(Example(line("tax", *words), command))
    for card in ("cc-bank-error", *state.edition.cards):  # the bank's error where the board has it; else the first
        if card not in state.edition.cards:  # whose two words name it alone
            continue
        text = [w for w in normalize(state.edition.cards[card].text).split() if len(w) > 3 and w.isalpha()]
        pair = next((f"{x} {y}" for x, y in zip(text, text[1:], strict=False)
                     if not {x, y} & set(KEYWORDS["passed"]) and find_card(state, f"{x} {y}") == card), None)
        if pair is not None:
            out.append(Example(line("card", who[a], pair), {"op": "card", "player": a, "card": card}))
            break
    memo, reason = tr("help.quick_memo"), tr("help.quick_reason")
    out.append(Example(line("transfer", who[a], who[b], 50, memo),
                       {"op": "transfer", "from": a, "to": b, "amount": 50, "memo": memo}))
    out.append(Example(line("undo", reason), {"op": "undo", "reason": reason}))
    out.append(Example(line("jail_fine", who[last]), {"op": "jail_fine", "player": last}))
    out.append(Example(line("end_game"), {"op": "end_game"}))
    return [e for e in out if _reads(state, e)]


def _reads(state: GameState, example: Example) -> bool:
    """Whether the line reads ``example`` as it says: a table whose names get in each other's way (a player called
    Park at a board with Park Place) loses that example rather than shows one the line refuses."""
    from .quick import QuickError, parse

    try:
        command = parse(state, example.line).command
    except QuickError:
        return False
    return all(command.get(k) == v for k, v in example.command.items())
