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

import difflib
import itertools
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from banker.i18n import LANGS, Translator
from banker.rules import BANK, GameState, Refused, ops
from banker.rules.ops import FieldSpec
from banker.rules.parse import amount_limit

from .keys import KEYS
from .match import fold, prefix_matches

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
    "build": ("build", "строить", "построить", "будувати", "строительство", "будівництво"),
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
    "roll": ("roll", "бросок", "кидок"),
    "end_turn": ("next", "ход", "хід"),
    "place": ("place", "поставить", "поставити"),
    "follow": ("follow", "слежение", "стеження"),
    "count": ("count", "сверка", "пересчет", "звірка", "підрахунок"),
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
    # a token put in jail (`place ann jail`); in Russian or Ukrainian the Jail corner's name is typed, and the
    # console asks whether in jail or just visiting
    "jail": ("jail",),
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
#: the most names an ambiguity message lists
SHOWN_OPTIONS = 6


class QuickError(ValueError):
    """A line that cannot be understood; :meth:`text` says what to type instead, in the banker's language
    (the catalogs' ``quick.<key>``; ``str()`` is the English)."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text(Translator("en")))

    def text(self, tr: Translator) -> str:
        params = dict(self.params)
        ops, prefix = params.pop("ops", None), params.pop("prefix", "")
        close, close_op = params.pop("close", None), params.pop("close_op", None)
        if close_op is not None:  # the word it is close to, in the banker's language when typed in Cyrillic ("рента":
            # "аренда" in Russian, never the Ukrainian "оренда" it happens to be closest to)
            cyrillic = CYRILLIC.search(close) and tr.lang in ("ru", "uk")
            params["verbs"] = typed_verb(close_op, tr.lang) if cyrillic else close
        if ops is not None:  # the actions it could be, each as a word to type (that begins so) in the banker's language
            words = [typed_verb(op, tr.lang, prefix) for op in ops]
            params["verbs"] = ", ".join(sorted(words) if prefix else words)
        return tr(f"quick.{self.key}", **params)


def normalize(text: str) -> str:
    text = text.casefold().replace("ё", "е").replace("’", "'")
    text = re.sub(r"[«»\"“”„.,;:!?()]", " ", text)
    text = text.replace("-", " ")
    return " ".join(text.split())


@cache
def labels() -> dict[tuple[str, ...], str]:
    """Every action's label as the footer, the palette and the help show it (``action.<op>`` in each
    language), as words -> the op: typing what the footer says does that action ("Покупка", "Конец хода")."""
    out: dict[tuple[str, ...], str] = {}
    for lang in LANGS:
        tr = Translator(lang)
        for op in VERBS:
            out.setdefault(tuple(normalize(tr(f"action.{op}")).split()), op)
    return out


@cache
def verbs() -> dict[str, tuple[str, ...]]:
    """:data:`VERBS` and, for each op, the first word of its labels (``labels``) when no other op has that word
    ("покупка", "залог", "купівля"; not "конец" of "Конец хода", which is the end of the game's)."""
    taken = {w: op for op, words in VERBS.items() for w in words}
    extra: dict[str, list[str]] = {}
    for words, op in labels().items():
        first = words[0] if words else ""
        if first and taken.setdefault(first, op) == op and first not in VERBS[op] and first not in extra.get(op, []):
            extra.setdefault(op, []).append(first)
    return {op: (*words, *extra.get(op, ())) for op, words in VERBS.items()}


#: a word written in Cyrillic (a Russian or Ukrainian verb)
CYRILLIC = re.compile("[а-яёіїєґ]")
#: letters only Ukrainian, or only Russian, writes (of the words in VERBS)
_UK_LETTERS, _RU_LETTERS = set("іїєґ'"), set("ыэъё")


def typed_verb(op: str, lang: str, prefix: str = "") -> str:
    """A word that, typed, means ``op``, in the language ``lang``: English, the first of :data:`VERBS`; else the
    first word of the action's label in that language (what the footer says) when it means the op alone, else
    the op's word written with that language's own letters, else one written with letters both share. With
    ``prefix`` (what was typed), one that begins with it, if that one does not."""
    word = _typed_verb(op, lang)
    if not word.startswith(prefix):
        word = next((w for w in verbs()[op] if w.startswith(prefix)), word)
    return word


def _typed_verb(op: str, lang: str) -> str:
    if lang not in ("ru", "uk"):
        return VERBS[op][0]
    label = normalize(Translator(lang)(f"action.{op}")).split()
    if label and label[0] in verbs()[op]:
        return label[0]
    return in_language(VERBS[op], lang)


def in_language(words: tuple[str, ...], lang: str) -> str:
    """Of ``words`` (a verb's or a keyword's, English first), the one of the language ``lang``: in Russian or
    Ukrainian one written with that language's own letters, else one with letters both share; else the English."""
    if lang not in ("ru", "uk"):
        return words[0]
    cyrillic = [w for w in words if CYRILLIC.search(w)]
    own = [w for w in cyrillic if set(w) & (_UK_LETTERS if lang == "uk" else _RU_LETTERS)]
    shared = [w for w in cyrillic if not set(w) & (_UK_LETTERS | _RU_LETTERS)]
    return (own or shared or [words[0]])[0]


def all_verbs() -> list[str]:
    return [w for words in verbs().values() for w in words]


def match_label(words: list[str]) -> tuple[str, int] | None:
    """The op whose whole label (of two words or more) the line begins with, and how many words it takes."""
    folded = [normalize(w) for w in words]
    for label, op in sorted(labels().items(), key=lambda kv: -len(kv[0])):
        if len(label) > 1 and tuple(folded[: len(label)]) == label:
            return op, len(label)
    return None


def match_verb(word: str) -> str:
    word = normalize(word)
    table = verbs()
    exact = [op for op, words in table.items() if word in words]
    if exact:
        return exact[0]
    found = {op for op, words in table.items() for w in words if w.startswith(word)}
    if len(found) > 1 and len(word) == 1:  # one letter: the action on that key, as on the table ("r" is rent)
        keyed = [op for op in found if KEYS.get(op) == word]
        if len(keyed) == 1:
            return keyed[0]
    if len(found) == 1:
        return found.pop()
    if not found:
        close = difflib.get_close_matches(word, all_verbs(), n=1, cutoff=0.6)
        if close:  # a typo: "did you mean rent?"
            op = next(op for op, words in table.items() if close[0] in words)
            return _raise("did_you_mean", word=word, close=close[0], close_op=op)
        return _raise("unknown_action", word=word, ops=list(VERBS))
    return _raise("ambiguous_action", word=word, ops=sorted(found), prefix=word)


def _raise(key: str, **params: Any) -> Any:
    raise QuickError(key, **params)


def player_matches(state: GameState, word: str) -> list[str]:
    """The players ``word`` names (an exact name wins; else every name whose words it begins, best first)."""
    return prefix_matches(word, state.players, str)


#: the kinds of space a field of each ``spaces`` (banker.rules.ops) names
SPACE_KINDS: dict[str, tuple[str, ...]] = {"property": PROPERTY, "street": ("street",), "tax": ("tax",), "board": ()}
#: the console's own dialogs that are not commands, with the fields the line fills
DIALOGS: dict[str, tuple[FieldSpec, ...]] = {
    "debt": (FieldSpec(name="player", key="player", kind="player", doc="the debtor", required=True, shown_required=True),),
}


def space_matches(state: GameState, words: list[str], kinds: tuple[str, ...] | None = None) -> list[int]:
    """Spaces (of ``kinds``) whose name's words begin with ``words`` (:func:`banker.ui.match.prefix_matches`)."""
    spaces = [s for s in state.edition.spaces if not kinds or s.kind in kinds]
    return [s.position for s in prefix_matches(" ".join(words), spaces, lambda s: s.name)]


def _keyword(word: str) -> str | None:
    for key, words in KEYWORDS.items():
        if word in words:
            return key
    return None


def _fields(op: str) -> tuple[FieldSpec, ...]:
    return DIALOGS[op] if op in DIALOGS else ops.spec(op).fields


def _has_dialog(op: str) -> bool:
    return op in DIALOGS or any(f.kind in ("trade-side", "counts") for f in _fields(op))


@dataclass
class _Name:
    """Words of the line that name a player or a space: what they could be, until only one is left."""

    raw: str  # as typed
    players: list[str]
    spaces: list[int]

    @property
    def options(self) -> int:
        return len(self.players) + len(self.spaces)


def parse(state: GameState, line: str) -> Parsed:
    """Parse one line; raises :class:`QuickError` with a sentence saying what is wrong.

    Which words fill which keys is derived from the op's fields (:mod:`banker.rules.ops`): players
    fill its player keys in order, spaces its space key, numbers its amounts (and the dice on a
    utility), keywords its flags and choices, the words after the amount its text. A word that could
    be a player or a space, or more than one of either, is narrowed by what the rest of the line
    already says and by what the op accepts (``mortgage penn`` with only the railroad owned); what
    is still ambiguous is said, never dropped."""
    raw = line.split()
    if not raw:
        raise QuickError("empty")
    labelled = match_label(raw)
    op, taken = labelled if labelled is not None else (match_verb(raw[0]), 1)
    rest = raw[taken:]
    fields = _fields(op)
    kinds = {f.kind for f in fields}
    if [f.kind for f in fields if f.kind != "entry"] == ["text"]:  # the whole line is the text (undo's reason)
        entry = next((f for f in fields if f.kind == "entry"), None)
        # an entry named first by its number, as the log shows it ("undo #3 wrong house"): that entry, not the last
        seq, rest = split_entry(rest) if entry is not None else (None, rest)
        parsed = _build(state, op, [], [], [], set(), rest)
        if entry is not None and seq is not None:
            parsed.command[entry.key] = seq
        return parsed
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
    player_slots = sum(1 for f in fields if f.kind in ("player", "account") and f.fill is None)
    space_slots = sum(1 for f in fields if f.kind == "space" and f.fill is None)
    tokens = [normalize(t) for t in rest]
    numbers: list[int] = []
    limit = amount_limit(state.edition)  # the most an amount may be at this table
    number_words: list[str] = []  # the numbers as typed, in the line's order
    items: list[_Name] = []  # the names, in the line's order
    keywords: set[str] = set()
    text_words: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if not tok:
            i += 1
            continue
        if re.fullmatch(r"#[0-9]{1,3}", tok):  # ASCII digits only: int() of "²" or of 5,000 digits raises
            items.append(_Name(rest[i], [], [int(tok[1:])]))
            i += 1
            continue
        if numbers and not text_words and i and re.fullmatch(r"[0-9]{3}", rest[i]) and re.fullmatch(r"[0-9]+", rest[i - 1]):
            # "1 000": an amount written with a space between its thousands, as the table shows amounts in Russian and
            # Ukrainian; taken as 1 (and "000" for the memo) it would move the wrong sum
            _raise("split_amount", typed=f"{rest[i - 1]} {rest[i]}", joined=rest[i - 1] + rest[i])
        if "text" in kinds and numbers:
            # everything after the amount is the text (a transfer's memo); a player named there while the
            # line still lacks one is refused, not taken for the memo ("pay ann 50 bob")
            if _definite_players(items) < player_slots and (player_matches(state, tok) or _keyword(tok) == "bank"):
                example = " ".join([raw[0], *(n.raw for n in items), rest[i], str(numbers[0])])
                _raise("after_amount", word=rest[i], example=example)
            text_words.append(rest[i])
            i += 1
            continue
        if re.fullmatch(r"[-−–]+[0-9]+", rest[i]):  # "-5": the sign would be dropped with the hyphen (normalize)
            _raise("negative", word=rest[i])
        kw = _keyword(tok)
        if re.fullmatch(r"[0-9]+", tok) and kw not in choice_words:  # "200" is the flat income tax, not an amount
            if len(tok) > MAX_DIGITS:  # keeps int() safe
                _raise("too_many_digits", start=tok[:12], n=len(tok))
            if int(tok) > limit:  # said here: the engine's refusal names the script's op and key
                _raise("too_large", word=rest[i], limit=state.edition.fmt(limit))
            numbers.append(int(tok))
            number_words.append(rest[i])
            i += 1
            continue
        if tok[0].isdigit() and kw is None:  # "8o" is not 8: a number typed with a letter is refused, not cut short
            _raise("not_a_number", word=rest[i])
        if kw == "bank" and "account" in kinds:
            items.append(_Name(rest[i], [BANK], []))
            i += 1
            continue
        if kw and kw != "bank":
            keywords.add(kw)
            i += 1
            continue
        # the longest run of two or more words naming exactly one player or space; else this word's options
        name: _Name | None = None
        # a word of symbols alone (a player called 🦄) is a name of its own: never part of a longer run, where the
        # matcher would not see it (``🦄 троєщина`` is the player and the space, not the space alone)
        end = next((k for k in range(i, len(tokens)) if not fold(tokens[k])), len(tokens))
        for j in range(end, i + 1, -1):
            run = " ".join(tokens[i:j])
            found = _Name(" ".join(rest[i:j]), player_matches(state, run), space_matches(state, [run], space_kinds))
            if found.options == 1:
                name, i = found, j
                break
        if name is None:
            who = player_matches(state, tok)
            exact = [p for p in who if fold(p) == fold(tok)]
            name = _Name(rest[i], exact or who, [] if exact else space_matches(state, [tok], space_kinds))
            i += 1
        if not name.options:
            _raise("unknown_name", word=name.raw)
        items.append(name)
    _resolve(state, op, fields, items, player_slots, space_slots)
    players = [n.players[0] for n in items if n.players]
    spaces = [n.spaces[0] for n in items if n.spaces]
    parsed = _build(state, op, players, spaces, numbers, keywords, text_words, items)
    # a number the action has no room for ("auction baltic bob 40 50", "buy ann baltic 40") is refused, never dropped:
    # the banker meant it for something. A number where the action has a key of that kind it does not need here (the
    # dice of a rent on a street: "rent boardwalk bob 7") is passed over, as the rent does not depend on it.
    unneeded = sum(1 for f in fields if f.kind in ("amount", "dice") and f.key not in parsed.command)
    if len(numbers) > unneeded and not (_has_dialog(op) and op not in DIALOGS):
        _raise("unused_number", word=number_words[len(number_words) - len(numbers) + unneeded])
    return parsed


#: an entry of the log by its number: "#12" as the table's log and the count show it, "№12" as the review writes it
ENTRY = re.compile(r"[#№]([0-9]{1,9})")  # ASCII digits only, and few: int() of "²" or of 5,000 digits raises


def split_entry(words: list[str]) -> tuple[int | None, list[str]]:
    """Words that begin with an entry's number (``#3 wrong house``): that number and the words after it; else None
    and the words as they are."""
    found = ENTRY.fullmatch(words[0]) if words else None
    if found is None:
        return None, words
    return int(found.group(1)), words[1:]


def _definite_players(items: list[_Name]) -> int:
    return sum(1 for n in items if n.players and not n.spaces and len(n.players) == 1)


def _resolve(state: GameState, op: str, fields: tuple[FieldSpec, ...], items: list[_Name], player_slots: int,
             space_slots: int) -> None:
    """Leave each name one meaning, or say which words are ambiguous. A word is a space only while the
    op still has room for one (``rent bal bo``: the space is Baltic, so ``bo`` is Bob), likewise a player;
    several spaces are narrowed to those the op accepts (``mortgage penn``: the deed that is owned)."""
    for n in items:  # an op without a space (or a player) takes the word for the other
        if n.players and n.spaces and not space_slots:
            n.spaces = []
        if n.players and n.spaces and not player_slots:
            n.players = []
    players_known = [n.players[0] for n in items if len(n.players) == 1 and not n.spaces]
    for n in items:
        if len(n.spaces) > 1 and space_slots:
            n.spaces = _accepted(state, op, fields, n.spaces, players_known)
    changed = True
    while changed:
        changed = False
        definite = [n for n in items if n.options == 1]
        full_players = sum(1 for n in definite if n.players) >= player_slots
        full_spaces = sum(1 for n in definite if n.spaces) >= space_slots
        for n in items:
            if n.options <= 1:
                continue
            if full_spaces and n.spaces and n.players:
                n.spaces, changed = [], True
            elif full_players and n.players and n.spaces:
                n.players, changed = [], True
    for n in items:
        if n.options > 1:
            names = n.players + [state.edition.spaces[p].name for p in n.spaces]
            shown = ", ".join(names[:SHOWN_OPTIONS]) + (", …" if len(names) > SHOWN_OPTIONS else "")
            _raise("ambiguous", word=n.raw, options=shown)


def _accepted(state: GameState, op: str, fields: tuple[FieldSpec, ...], spaces: list[int], players: list[str]) -> list[int]:
    """The ``spaces`` the engine accepts in ``op`` with some choice of what the line has not said yet (the
    players it named first, in order); all of them when it accepts none (the engine says why later)."""
    if op in DIALOGS:
        return spaces
    space_key = next(f.key for f in fields if f.kind == "space")
    player_fields = [f for f in fields if f.kind in ("player", "account") and f.fill is None]
    everyone = list(state.active_players)
    ok = []
    for pos in spaces:
        lot = state.lots.get(pos)
        choices: list[list[str]] = []
        named = list(players)
        for f in player_fields:
            if named:
                choices.append([named.pop(0)])
            elif f.default == "owner":
                choices.append([lot.owner] if lot is not None and lot.owner else [])
            else:
                choices.append(everyone + ([BANK] if f.kind == "account" else []))
        for who in itertools.islice(itertools.product(*choices), 64):
            trial: dict[str, Any] = {"op": op, space_key: pos}
            trial.update({f.key: p for f, p in zip(player_fields, who, strict=True)})
            _fill_trial(state, fields, trial)
            try:
                state.preview(trial)
            except (Refused, ValueError, KeyError, TypeError):
                continue
            ok.append(pos)
            break
    return ok or spaces


def _fill_trial(state: GameState, fields: tuple[FieldSpec, ...], trial: dict[str, Any]) -> None:
    """What a trial command needs besides its players and space: the least amount, a roll of 7, the first choice."""
    for f in fields:
        if f.key in trial or not ops.needed(state, trial, f):
            continue
        if f.fill is not None:
            trial[f.key] = f.fill
        elif f.kind == "amount":
            trial[f.key] = max(f.minimum or 0, 1)
        elif f.kind == "dice":
            trial[f.key] = 7
        elif f.kind == "choice" and f.values:
            trial[f.key] = f.values[0]
        elif f.kind == "text":
            trial[f.key] = "?"


def _space_of(state: GameState, cmd: dict[str, Any]) -> Any:
    pos = cmd.get("space")
    return state.edition.spaces[pos] if isinstance(pos, int) and 0 <= pos < len(state.edition.spaces) else None


def _build(state: GameState, op: str, players: list[str], spaces: list[int], numbers: list[int],
           keywords: set[str], text_words: list[str], items: list[_Name] | None = None) -> Parsed:
    """Fill the op's keys from what the line said, each by its kind, in the op's order; then the
    deed's owner where the op defaults to it; then what is still missing. A player or a space the op
    has no room for is refused, naming the word, never dropped."""
    cmd: dict[str, Any] = {"op": op}
    if _has_dialog(op) and op not in DIALOGS:
        return Parsed(op, cmd, [])  # a trade: its dialog asks for everything
    fields = _fields(op)
    for f in fields:
        value = _take(state, f, cmd, players, spaces, numbers, keywords, text_words)
        if value is not None:
            cmd[f.key] = value
    for n in items or []:
        if n.players[:1] and n.players[0] in players or n.spaces[:1] and n.spaces[0] in spaces:
            _raise("unused", word=n.raw, verb=op)
    if "card" not in cmd and text_words and any(f.kind == "card" for f in fields):
        # words that fit several cards ("освобод": the Get Out of Jail Free card of either deck): the card is asked
        # among those, not among every card of both decks
        several = card_matches(state, " ".join(text_words))
        if len(several) > 1:
            cmd["_cards"] = several
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
    if kind == "roll":  # the two white dice: "3 5", or "35" (issue #11)
        if len(numbers) >= 2 and all(1 <= n <= 6 for n in numbers[:2]):
            return [numbers.pop(0), numbers.pop(0)]
        if numbers and 11 <= numbers[0] <= 66 and all(1 <= int(d) <= 6 for d in str(numbers[0])):
            pair = [int(d) for d in str(numbers.pop(0))]
            return pair
        return None
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


def card_matches(state: GameState, text: str) -> list[str]:
    """The cards whose text, id or deck's name hold every word of ``text``: one id for each distinct card (two
    "nearest railroad" cards of one deck are the same card; the same text in the other deck is another card)."""
    if text in state.edition.cards:
        return [text]
    words = normalize(text).split()
    decks = {deck: normalize(name) for deck, name in state.edition.decks.items()}
    found: dict[tuple[str, str], str] = {}
    for c in state.edition.cards.values():
        if all(w in normalize(c.text) or w in c.id or w in decks.get(c.deck, "") for w in words):
            found.setdefault((c.deck, c.text), c.id)
    return list(found.values())


def find_card(state: GameState, text: str) -> str | None:
    """A card by id, or by words of its text and of its deck's name (unambiguous): ``освобо казна`` is the Community
    Chest's Get Out of Jail Free card where both decks print the same text (UK, RU, Kyiv). A Get Out of Jail Free
    card goes back under its own deck: where the words fit both decks' card, the deck is asked, never guessed."""
    found = card_matches(state, text)
    return found[0] if len(found) == 1 else None


def completions(state: GameState, line: str) -> list[str]:
    """Whole-line suggestions for the word being typed (for the input's suggester): verbs, then players
    and words of space names that the word begins, best first. Nothing once a word is complete (the line
    ends with a space): Tab then adds nothing the banker did not start typing."""
    if not line.strip() or line[-1].isspace():
        return []
    head, _, last = line.rpartition(" ")
    last_n = normalize(last)
    if not head.strip():
        return [w for w in all_verbs() if w.startswith(last_n) and w != last_n][:8]
    options = [p for p in prefix_matches(last, state.players, str) if fold(p) != fold(last) and " " not in p]
    seen = set()
    for space in state.edition.spaces:
        for word in normalize(space.name).split():
            if word.startswith(last_n) and word != last_n and word not in seen and len(word) > 2:
                seen.add(word)
                options.append(word)
    prefix = head + " "
    return [prefix + o for o in options][:8]

