"""The quick-entry command line: ``rent boardwalk bob`` → ``{"op": "rent", ...}``.

Pure functions over the game state (no Textual): verbs in English, Russian and Ukrainian;
players and spaces by unambiguous prefix, in the edition's own language; numbers for amounts
and dice. A line that names everything becomes a complete command; a line that leaves
something out comes back with the missing fields, so the app can open the same dialog with
what was typed already filled in. Amounts are never typed when the engine computes them.

Which word fills which key is derived from the op's fields (:mod:`banker.rules.ops`: their kind,
keyword, condition and default), never listed here op by op; only the words are here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from banker.rules import BANK, GameState, ops
from banker.rules.ops import FieldSpec

PROPERTY = ("street", "railroad", "utility")

#: every op (banker.rules.ops.OPS) and console dialog (DIALOGS) -> the words that mean it (a test keeps them in step)
VERBS: dict[str, tuple[str, ...]] = {
    "salary": ("salary", "go", "зарплата", "зарплатня"),
    "buy": ("buy", "купить", "купити"),
    "auction": ("auction", "аукцион", "аукціон"),
    "rent": ("rent", "аренда", "оренда"),
    "tax": ("tax", "налог", "податок"),
    "card": ("card", "карточка", "карта", "картка"),
    "jail_fine": ("fine", "штраф"),
    "jail_card": ("jailcard", "освобождение", "звільнення"),
    "transfer": ("pay", "transfer", "перевод", "переказ", "платеж", "платіж"),
    "build": ("build", "строить", "построить", "будувати"),
    "sell_building": ("sell", "продать", "продати"),
    "mortgage": ("mortgage", "заложить", "заставити"),
    "unmortgage": ("lift", "unmortgage", "выкупить", "викупити"),
    "trade": ("trade", "обмен", "сделка", "обмін", "угода"),
    "debt": ("debt", "долг", "борг"),
    "bankrupt": ("bankrupt", "банкрот"),
    "building_auction": ("shortage", "дефицит", "дефіцит"),
    "undo": ("undo", "отмена", "отменить", "скасувати"),
    "end_game": ("end", "конец", "кінець"),
    "deal": ("deal", "раздать", "роздати"),
    "free_parking": ("parking", "стоянка", "паркування"),
}
KEYWORDS = {
    "flat": ("flat", "фикс", "фікс", "200"),
    "percent": ("percent", "процент", "відсоток", "10%"),
    "nearest": ("nearest", "card", "ближайшая", "найближча"),
    "landed": ("landed", "exactly", "ровно", "рівно"),
    "passed": ("passed", "прошел", "пройшов"),
    "bank": ("bank", "банк"),
    "all": ("all", "все", "всі", "усі"),
    "chance": ("chance", "шанс"),
    "chest": ("chest", "казна", "фонд"),
}


@dataclass
class Parsed:
    """What a quick-entry line said: the op, the command so far, what is still missing."""

    op: str
    command: dict[str, Any] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Everything is said: nothing is missing and the op needs no dialog of its own (a trade)."""
        return not self.missing and not _has_dialog(self.op)


#: the most digits a typed number may have (amounts are bounded by the engine far below)
MAX_DIGITS = 12


class QuickError(ValueError):
    """A line that cannot be understood; the message says what to type instead."""


def normalize(text: str) -> str:
    text = text.casefold().replace("ё", "е").replace("’", "'")
    text = re.sub(r"[«»\"“”„.,;:!?()]", " ", text)
    text = text.replace("-", " ")
    return " ".join(text.split())


def match_verb(word: str) -> str:
    word = normalize(word)
    exact = [op for op, words in VERBS.items() if word in words]
    if exact:
        return exact[0]
    found = {op for op, words in VERBS.items() for w in words if w.startswith(word)}
    if len(found) == 1:
        return found.pop()
    if not found:
        raise QuickError(f"unknown action {word!r}: type one of {', '.join(VERBS[o][0] for o in VERBS)}")
    raise QuickError(f"{word!r} could be {', '.join(sorted(VERBS[o][0] for o in found))}: type more letters")


def player_matches(state: GameState, word: str) -> list[str]:
    word = normalize(word)
    exact = [p for p in state.players if normalize(p) == word]
    if exact:
        return exact
    return [p for p in state.players if normalize(p).startswith(word)]


#: the kinds of space a field of each ``spaces`` (banker.rules.ops) names
SPACE_KINDS: dict[str, tuple[str, ...]] = {"property": PROPERTY, "street": ("street",), "tax": ("tax",)}
#: the console's own dialogs that are not commands, with the fields the line fills
DIALOGS: dict[str, tuple[FieldSpec, ...]] = {
    "debt": (FieldSpec(name="player", key="player", kind="player", doc="the debtor", required=True, shown_required=True),),
}


def space_matches(state: GameState, words: list[str], kinds: tuple[str, ...] | None = None) -> list[int]:
    """Spaces (of ``kinds``) whose name has consecutive words starting with ``words``."""
    out = []
    for space in state.edition.spaces:
        if kinds and space.kind not in kinds:
            continue
        name = normalize(space.name).split()
        for start in range(len(name) - len(words) + 1):
            if all(name[start + i].startswith(w) for i, w in enumerate(words)):
                out.append(space.position)
                break
    return out


def _keyword(word: str) -> str | None:
    for key, words in KEYWORDS.items():
        if word in words:
            return key
    return None


def _fields(op: str) -> tuple[FieldSpec, ...]:
    return DIALOGS[op] if op in DIALOGS else ops.spec(op).fields


def _has_dialog(op: str) -> bool:
    return op in DIALOGS or any(f.kind == "trade-side" for f in _fields(op))


def parse(state: GameState, line: str) -> Parsed:
    """Parse one line; raises :class:`QuickError` with a sentence saying what is wrong.

    Which words fill which keys is derived from the op's fields (:mod:`banker.rules.ops`): players
    fill its player keys in order, spaces its space key, numbers its amounts (and the dice on a
    utility), keywords its flags and choices, the words after the amount its text."""
    raw = line.split()
    if not raw:
        raise QuickError("type an action, e.g. rent boardwalk bob")
    op = match_verb(raw[0])
    rest = raw[1:]
    fields = _fields(op)
    kinds = {f.kind for f in fields}
    if [f.kind for f in fields if f.kind != "entry"] == ["text"]:  # the whole line is the text (undo's reason)
        return _build(state, op, [], [], [], set(), rest)
    space_kinds = next((SPACE_KINDS[f.spaces] for f in fields if f.kind == "space" and f.spaces), PROPERTY)
    if "card" in kinds:
        # the player first, then words of the card's text
        first = player_matches(state, rest[0]) if rest else []
        who = first[:1] if len(first) == 1 else []
        words = rest[1:] if who else rest
        flags = {"passed"} if any(normalize(w) in KEYWORDS["passed"] for w in words) else set()
        words = [w for w in words if normalize(w) not in KEYWORDS["passed"]]
        return _build(state, op, who, [], [], flags, words)
    choice_words = {v for f in fields if f.kind == "choice" for v in f.values}
    tokens = [normalize(t) for t in rest]
    numbers: list[int] = []
    players: list[str] = []
    spaces: list[int] = []
    keywords: set[str] = set()
    text_words: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if not tok:
            i += 1
            continue
        if re.fullmatch(r"#[0-9]{1,3}", tok):  # ASCII digits only: int() of "²" or of 5,000 digits raises
            spaces.append(int(tok[1:]))
            i += 1
            continue
        if "text" in kinds and numbers:
            text_words.append(rest[i])  # everything after the amount is the text (a transfer's memo)
            i += 1
            continue
        kw = _keyword(tok)
        if re.fullmatch(r"[0-9]+", tok) and kw not in choice_words:  # "200" is the flat income tax, not an amount
            if len(tok) > MAX_DIGITS:  # the engine names the limit; this only keeps int() safe
                raise QuickError(f"{tok[:12]}… has {len(tok)} digits: no amount at a table is that large")
            numbers.append(int(tok))
            i += 1
            continue
        if kw == "bank" and "account" in kinds:
            players.append(BANK)
            i += 1
            continue
        if kw and kw != "bank":
            keywords.add(kw)
            i += 1
            continue
        who = player_matches(state, tok)
        # the longest run of words naming exactly one space
        where: list[int] = []
        width = 0
        for j in range(len(tokens), i, -1):
            found = space_matches(state, tokens[i:j], space_kinds)
            if len(found) == 1:
                where, width = found, j - i
                break
        exact_player = len(who) == 1 and normalize(who[0]) == tok
        if len(who) == 1 and (exact_player or not where):
            players.append(who[0])
            i += 1
        elif where:
            spaces.append(where[0])
            i += width
        else:
            options = who + [state.edition.spaces[p].name for p in space_matches(state, [tok], space_kinds)]
            if options:
                raise QuickError(f"{rest[i]!r} could be {', '.join(options[:6])}: type more letters")
            raise QuickError(f"{rest[i]!r} is neither a player nor a space on this board")
    return _build(state, op, players, spaces, numbers, keywords, text_words)


def _space_of(state: GameState, cmd: dict[str, Any]) -> Any:
    pos = cmd.get("space")
    return state.edition.spaces[pos] if isinstance(pos, int) and 0 <= pos < len(state.edition.spaces) else None


def _build(state: GameState, op: str, players: list[str], spaces: list[int], numbers: list[int],
           keywords: set[str], text_words: list[str]) -> Parsed:
    """Fill the op's keys from what the line said, each by its kind, in the op's order; then the
    deed's owner where the op defaults to it; then what is still missing."""
    cmd: dict[str, Any] = {"op": op}
    if _has_dialog(op) and op not in DIALOGS:
        return Parsed(op, cmd, [])  # a trade: its dialog asks for everything
    fields = _fields(op)
    for f in fields:
        value = _take(state, f, cmd, players, spaces, numbers, keywords, text_words)
        if value is not None:
            cmd[f.key] = value
    for f in fields:
        if f.key in cmd or f.default is None:
            continue
        if f.default == "owner":  # a building or a mortgage: the deed's owner
            space = _space_of(state, cmd)
            owner = state.lots[space.position].owner if space is not None and space.position in state.lots else None
            if owner:
                cmd[f.key] = owner
    if op in DIALOGS:
        missing = [f.key for f in fields if f.key not in cmd]
    else:
        missing = ops.missing(state, cmd)
    return Parsed(op, cmd, missing)


def _take(state: GameState, f: FieldSpec, cmd: dict[str, Any], players: list[str], spaces: list[int],
          numbers: list[int], keywords: set[str], text_words: list[str]) -> Any:
    """The value of ``f`` the line gives (taken from its pools), or None."""
    kind = f.kind
    if f.fill is not None:
        return f.fill
    if kind in ("player", "account"):
        return players.pop(0) if players else None
    if kind == "space":
        if spaces:
            return spaces.pop(0)
        if f.default == "only":  # the board's only tax space, named before the player
            return _take_only(state, f)
        return None
    if kind in ("amount", "dice"):
        return numbers.pop(0) if numbers and ops.needed(state, cmd, f) else None
    if kind == "text":
        text = " ".join(text_words)
        return text if text or not f.required else None
    if kind == "flag":
        return True if f.word in keywords else None
    if kind == "choice":
        chosen = [v for v in f.values if v in keywords]
        return chosen[0] if len(chosen) == 1 and ops.needed(state, cmd, f) else None
    if kind == "card-case":
        space = _space_of(state, cmd)
        value = f"nearest-{space.kind}" if f.word in keywords and space is not None else None
        return value if value in f.values else None
    if kind == "card":
        return find_card(state, " ".join(text_words)) if text_words else None
    if kind == "jail-card":
        decks = [d for d in ("chance", "chest") if d in keywords]
        return decks[0] if len(decks) == 1 else None
    return None  # trade sides, lists of positions: the dialogs ask for them


def _take_only(state: GameState, f: FieldSpec) -> int | None:
    only = [s.position for s in state.edition.spaces if f.spaces and s.kind in SPACE_KINDS[f.spaces]]
    return only[0] if len(only) == 1 else None


def find_card(state: GameState, text: str) -> str | None:
    """A card by id, or by words of its text (unambiguous)."""
    if text in state.edition.cards:
        return text
    words = normalize(text).split()
    found = [c.id for c in state.edition.cards.values()
             if all(w in normalize(c.text) or w in c.id for w in words)]
    distinct = {state.edition.cards[c].text for c in found}
    if len(distinct) == 1:  # duplicates of one card (two "nearest railroad") are the same card
        return found[0]
    return None


def completions(state: GameState, line: str) -> list[str]:
    """Whole-line suggestions for what is being typed (for the input's suggester)."""
    if not line or line.endswith(" ") and not line.strip():
        return []
    head, _, last = line.rpartition(" ")
    last_n = normalize(last)
    if not head.strip():
        words = [w for words in VERBS.values() for w in words if w.startswith(last_n) and w != last_n]
        return [w for w in words][:8]
    options: list[str] = []
    for p in state.players:
        if normalize(p).startswith(last_n) and normalize(p) != last_n:
            options.append(p)
    seen = set()
    for space in state.edition.spaces:
        for word in normalize(space.name).split():
            if word.startswith(last_n) and word != last_n and word not in seen and len(word) > 2:
                seen.add(word)
                options.append(word)
    prefix = head + " "
    return [prefix + o for o in options][:8]
