"""The quick-entry command line: ``rent boardwalk bob`` → ``{"op": "rent", ...}``.

Pure functions over the game state (no Textual): verbs in English, Russian and Ukrainian;
players and spaces by unambiguous prefix, in the edition's own language; numbers for amounts
and dice. A line that names everything becomes a complete command; a line that leaves
something out comes back with the missing fields, so the app can open the same dialog with
what was typed already filled in. Amounts are never typed when the engine computes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from banker.rules import BANK, GameState

#: quick verb -> (dialog/op name, words that mean it)
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
#: which slots each op fills from the line
SLOTS: dict[str, tuple[str, ...]] = {
    "salary": ("player",),
    "buy": ("player", "space"),
    "auction": ("space", "winner", "bid"),
    "rent": ("space", "payer"),
    "tax": ("space", "player", "choice"),
    "card": ("player", "card"),
    "jail_fine": ("player",),
    "jail_card": ("player",),
    "transfer": ("from", "to", "amount"),
    "build": ("space",),
    "sell_building": ("space",),
    "mortgage": ("space",),
    "unmortgage": ("space",),
    "building_auction": ("space", "bid"),
    "bankrupt": ("player",),
    "undo": ("reason",),
    "end_game": (),
    "deal": ("player", "space"),
    "free_parking": ("player",),
    "trade": (),
    "debt": ("player",),
}


@dataclass
class Parsed:
    """What a quick-entry line said: the op, the command so far, what is still missing."""

    op: str
    command: dict[str, Any] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing and self.op not in ("trade", "debt")


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


#: the kinds of space each op can name
SPACE_KINDS: dict[str, tuple[str, ...]] = {
    "build": ("street",), "sell_building": ("street",), "building_auction": ("street",),
    "tax": ("tax",),
}
PROPERTY = ("street", "railroad", "utility")


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


def parse(state: GameState, line: str) -> Parsed:
    """Parse one line; raises :class:`QuickError` with a sentence saying what is wrong."""
    raw = line.split()
    if not raw:
        raise QuickError("type an action, e.g. rent boardwalk bob")
    op = match_verb(raw[0])
    rest = raw[1:]
    if op == "undo":
        cmd = {"op": "undo", "reason": " ".join(rest)}
        return Parsed(op, cmd, [] if rest else ["reason"])
    kinds = SPACE_KINDS.get(op, PROPERTY)
    if op == "card":
        # the player first, then words of the card's text
        players = player_matches(state, rest[0]) if rest else []
        who = players[:1] if len(players) == 1 else []
        words = rest[1:] if who else rest
        flags = {"passed"} if any(normalize(w) in KEYWORDS["passed"] for w in words) else set()
        words = [w for w in words if normalize(w) not in KEYWORDS["passed"]]
        return _build(state, op, who, [], [], flags, words)
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
        if op == "transfer" and numbers:
            text_words.append(rest[i])  # everything after the amount is the memo
            i += 1
            continue
        if re.fullmatch(r"[0-9]+", tok) and not (op == "tax" and tok == "200"):
            if len(tok) > MAX_DIGITS:  # the engine names the limit; this only keeps int() safe
                raise QuickError(f"{tok[:12]}… has {len(tok)} digits: no amount at a table is that large")
            numbers.append(int(tok))
            i += 1
            continue
        kw = _keyword(tok)
        if kw == "bank" and op == "transfer":
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
            found = space_matches(state, tokens[i:j], kinds)
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
            options = who + [state.edition.spaces[p].name for p in space_matches(state, [tok], kinds)]
            if options:
                raise QuickError(f"{rest[i]!r} could be {', '.join(options[:6])}: type more letters")
            raise QuickError(f"{rest[i]!r} is neither a player nor a space on this board")
    return _build(state, op, players, spaces, numbers, keywords, text_words)


def _build(state: GameState, op: str, players: list[str], spaces: list[int], numbers: list[int],
           keywords: set[str], text_words: list[str]) -> Parsed:
    cmd: dict[str, Any] = {"op": op}
    missing: list[str] = []

    def take_player(key: str) -> None:
        if players:
            cmd[key] = players.pop(0)
        else:
            missing.append(key)

    def take_space() -> None:
        if spaces:
            cmd["space"] = spaces.pop(0)
        else:
            missing.append("space")

    if op in ("salary", "jail_fine", "jail_card", "bankrupt", "free_parking", "debt"):
        take_player("player")
        if op == "salary" and "landed" in keywords:
            cmd["landed"] = True
        if op == "jail_card":
            cmd["use"] = True
            decks = {"chance", "chest"} & keywords
            if len(decks) == 1:
                cmd["card"] = decks.pop()
    elif op in ("buy", "deal"):
        take_player("player")
        take_space()
    elif op == "auction":
        take_space()
        take_player("winner")
        if numbers:
            cmd["bid"] = numbers.pop(0)
        else:
            missing.append("bid")
    elif op == "rent":
        take_space()
        take_player("payer")
        pos = cmd.get("space")
        kind = state.edition.spaces[pos].kind if pos is not None else None
        if "nearest" in keywords and kind in ("railroad", "utility"):
            cmd["card"] = f"nearest-{kind}"
        if kind == "utility":
            if numbers:
                cmd["dice"] = numbers.pop(0)
            else:
                missing.append("dice")
    elif op == "tax":
        if not spaces:
            taxes = [s.position for s in state.edition.spaces if s.kind == "tax"]
            if len(taxes) == 1:
                spaces.append(taxes[0])
        take_space()
        take_player("player")
        pos = cmd.get("space")
        if pos is not None and state.edition.spaces[pos].tax_percent:
            choice = {"flat", "percent"} & keywords
            if len(choice) == 1:
                cmd["choice"] = choice.pop()
            else:
                missing.append("choice")
    elif op == "card":
        take_player("player")
        card = find_card(state, " ".join(text_words)) if text_words else None
        if card:
            cmd["card"] = card
        else:
            missing.append("card")
        if "passed" in keywords:
            cmd["passed_go"] = True
    elif op == "transfer":
        take_player("from")
        take_player("to")
        if numbers:
            cmd["amount"] = numbers.pop(0)
        else:
            missing.append("amount")
        cmd["memo"] = " ".join(text_words)
    elif op in ("build", "sell_building", "mortgage", "unmortgage", "building_auction"):
        take_space()
        pos = cmd.get("space")
        owner = state.lots[pos].owner if pos in state.lots else None
        if players:
            cmd["player"] = players.pop(0)
        elif owner:
            cmd["player"] = owner
        else:
            missing.append("player")
        if op == "sell_building" and "all" in keywords:
            cmd["all"] = True
        if op == "building_auction":
            if numbers:
                cmd["bid"] = numbers.pop(0)
            else:
                missing.append("bid")
    elif op == "end_game":
        pass
    return Parsed(op, cmd, missing)


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
