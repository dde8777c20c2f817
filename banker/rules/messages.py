"""Every sentence the engine says, as a keyed template with parameters.

A :class:`Msg` renders in English by default (``str(msg)``), and in any language for which
a catalog is given (``msg.render(catalog, lang)``): the Russian and Ukrainian catalogs live
with the UI's translation layer (``banker/i18n``). The session log stores the key and
parameters, so a log written in English reads in Russian later.

Parameters are plain values (names, formatted amounts, numbers), lists, nested
:class:`Msg` objects (rendered in the same language), or the edition's own words: a kind of
deed (:class:`Named`, "станція метро") and a number of them (:class:`Counted`). A template may be a list of plural
forms chosen by the parameter ``n``: English ``[one, other]``; Russian and Ukrainian
``[one, few, many]``, which agree with the number said (``{n}``: "21 запись", "22 записи"). A template that says
a list and not its number (``{entries}``: "зависят записи 3, 5, …"; :data:`LISTS`) agrees with the list: in every
language ``[one, several]``, the first only when ``n`` is 1 (:func:`form_index`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .emoji import joins_emoji

Template = str | list[str]


def plural_index(lang: str, n: int) -> int:
    n = abs(int(n))
    if lang in ("ru", "uk"):
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


#: The messages whose plural forms agree with a list they say (``{entries}``, ``{spaces}``, ``{players}``) and not with a
#: number: ``n`` is how many things the list holds, never said. Their forms are ``[one, several]`` in every language
#: (:func:`form_index`). A form that says a number says it as ``{n}`` (tests/test_i18n_engine.py checks both).
LISTS = frozenset({"build.mortgaged", "build-group.too-many", "end.debt", "log.bankrupt-buildings-stay",
                   "log.bankrupt-deeds", "log.bankrupt-jail-cards", "log.bankrupt-jail-cards-back", "undo.depends"})


def form_index(lang: str, forms: Sequence[str], n: int, listed: bool = False) -> int:
    """Which of plural ``forms`` ``n`` takes in ``lang``: the language's plural class (:func:`plural_index`: "{n}
    дом" agrees with its numeral, 21 дом, 22 дома; the last form when a catalog gives fewer forms than the language
    has); or, ``listed`` (forms that say a list of ``n`` things, :data:`LISTS`), the first for one thing and the
    second for several, in every language: entries 3, 5, … 41 depend on it, "от неё зависят записи 3, 5, …", never
    the singular that a count of 21 takes."""
    if listed:
        return 0 if abs(int(n)) == 1 else min(1, len(forms) - 1)
    return min(plural_index(lang, n), len(forms) - 1)


def _form(template: Template, lang: str, n: int, key: str = "") -> str:
    """``template`` (message ``key``'s) itself, or of its plural forms the one ``n`` takes in ``lang``
    (:func:`form_index`; a list's, :data:`LISTS`, by one thing or several)."""
    return template if isinstance(template, str) else template[form_index(lang, template, n, key in LISTS)]


class Msg:
    """A message: a catalog key and its parameters."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: Any) -> None:
        if key not in EN:  # pragma: no cover - a programming error, caught by the tests
            raise KeyError(f"no English template for message {key!r}")
        self.key = key
        self.params = params

    def render(self, catalog: Mapping[str, Template] | None = None, lang: str = "en") -> str:
        catalog = catalog or EN
        template = _form(catalog.get(self.key) or EN[self.key], lang, self.params.get("n", 0), self.key)
        values = {k: _render(v, catalog, lang) for k, v in self.params.items()}
        try:
            return nest_quotes(one_stop(template, values).format(**values))
        except (KeyError, IndexError):  # a broken translation falls back to English
            return nest_quotes(EN_render(self, values))

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.key, self.params) == (other.key, other.params)

    def to_json(self) -> dict[str, Any]:
        # a text or a number as it is, without the call (:func:`_to_json`'s first case; nearly every parameter)
        return {"key": self.key, "params": {k: v if type(v) is str or type(v) is int else _to_json(v)
                                            for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Msg:
        return cls(data["key"], **{k: _from_json(v) for k, v in data.get("params", {}).items()})


class Counted:
    """A number of things an edition names itself, as a parameter of a :class:`Msg`: Kyiv's railroads are
    metro stations and its utilities airports ("M50 за 2 станції метро"). ``forms`` are the edition's
    words by language (its board file's ``[words]``), each a list of plural forms (English ``[one,
    other]``, Russian and Ukrainian ``[one, few, many]``); in a language the edition gives no words
    for, the catalog's ``key`` (``count.railroads``) says it. The log keeps the words, so an entry reads
    the same whatever board files are installed later."""

    __slots__ = ("forms", "key", "n")

    def __init__(self, key: str, n: int, forms: Mapping[str, Sequence[str]]) -> None:
        if key not in EN:  # pragma: no cover - a programming error, caught by the tests
            raise KeyError(f"no English template for message {key!r}")
        self.key = key
        self.n = n
        self.forms = {lang: list(words) for lang, words in forms.items()}

    def render(self, catalog: Mapping[str, Template] | None = None, lang: str = "en") -> str:
        words = self.forms.get(lang)
        if words:
            return f"{self.n} {_form(words, lang, self.n)}"  # said after its number
        return Msg(self.key, n=self.n).render(catalog, lang)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Counted({self.key!r}, {self.n!r}, {self.forms!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counted) and (self.key, self.n, self.forms) == (other.key, other.n, other.forms)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "n": self.n, "forms": self.forms}


class Named:
    """A kind of deed (``railroad``, ``utility``) as a parameter of a :class:`Msg`, in the edition's own word:
    Kyiv's railroads are metro stations and its utilities airports ("Бориспіль — це аеропорт"). ``forms`` are
    the edition's words by language as :class:`Counted` holds them (its board file's ``[words]``: plural
    forms, said here in the first, the singular nominative); in a language the edition gives no words for,
    the catalog's ``key`` (``kind.railroad``) says it. A template naming a kind is worded so that this
    nominative reads naturally. The log keeps the words, like :class:`Counted`."""

    __slots__ = ("forms", "key")

    def __init__(self, key: str, forms: Mapping[str, Sequence[str]]) -> None:
        if key not in EN:  # pragma: no cover - a programming error, caught by the tests
            raise KeyError(f"no English template for message {key!r}")
        self.key = key
        self.forms = {lang: list(words) for lang, words in forms.items()}

    def render(self, catalog: Mapping[str, Template] | None = None, lang: str = "en") -> str:
        words = self.forms.get(lang)
        if words:
            return words[0]
        return Msg(self.key).render(catalog, lang)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Named({self.key!r}, {self.forms!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Named) and (self.key, self.forms) == (other.key, other.forms)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "forms": self.forms}


#: how a parameter a stored description lacks is said (a hand-edited file: never an error)
MISSING = "?"
#: what saying a stored description can raise when a hand edit broke it (a parameter missing or of the wrong kind,
#: an unknown key)
UNSAYABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError)


class _Blanks(dict[str, Any]):
    """A template's values, :data:`MISSING` for any it names that are not there."""

    def __missing__(self, key: str) -> str:
        return MISSING


def EN_render(msg: Msg, values: Mapping[str, str]) -> str:
    return _form(EN[msg.key], "en", msg.params.get("n", 0), msg.key).format_map(_Blanks(values))


def _said_as_far_as_can(data: Any, catalog: Mapping[str, Template], lang: str) -> str:
    """A stored message that cannot be said whole (a hand edit: a parameter missing or of the wrong kind, an unknown
    key): its sentence (the catalog's, else the English) with the parameters that can be said, :data:`MISSING` for
    the rest."""
    key = data.get("key") if isinstance(data, Mapping) else None
    if not isinstance(key, str) or key not in EN:
        return MISSING
    params = data.get("params")
    params = params if isinstance(params, Mapping) else {}
    values = _Blanks()
    for name, value in params.items():
        try:
            values[name] = _render_json(value, catalog, lang)
        except UNSAYABLE:
            values[name] = _said_as_far_as_can(value.get("msg"), catalog, lang) if isinstance(value, dict) else MISSING
    n = params.get("n")
    n = n if isinstance(n, int) else 0
    for template, in_lang in ((catalog.get(key), lang), (EN[key], "en")):  # a translation that does not fit: English
        if not template:  # a catalog without it: the English
            continue
        try:
            return _form(template, in_lang, n, key).format_map(values)
        except UNSAYABLE:
            continue
    return MISSING


def _render(value: Any, catalog: Mapping[str, Template], lang: str) -> str:
    if type(value) is str:
        return value
    if isinstance(value, (Msg, Counted, Named)):
        return value.render(catalog, lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(_render(v, catalog, lang) for v in value)
    return str(value)


def _to_json(value: Any) -> Any:
    if type(value) is str or type(value) is int:  # nearly every parameter: a name, a formatted amount, a count
        return value
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, Counted):
        return {"counted": value.to_json()}
    if isinstance(value, Named):
        return {"named": value.to_json()}
    if isinstance(value, (list, tuple)):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and "msg" in value:
        return Msg.from_json(value["msg"])
    if isinstance(value, dict) and "counted" in value:
        c = value["counted"]
        return Counted(c["key"], c["n"], c.get("forms") or {})
    if isinstance(value, dict) and "named" in value:
        k = value["named"]
        return Named(k["key"], k.get("forms") or {})
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def shown(value: Any, limit: int = 40) -> str:
    """``value`` as a refusal quotes it: as JSON writes it (a script is JSON: ``true``, ``null``, ``"10"``; Python's
    ``True``, ``None`` and ``'10'`` were shown), else as Python does; cut to ``limit`` characters, every character
    that is not printable (a control, a bidi override) escaped, and a huge whole number as its size (never converted
    whole). A text cut keeps its closing quote (``"AAAA…"``: the cut took it, and the quote was left open)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return ("-" if value < 0 else "") + f"≈10^{int(math.log10(abs(value)))}"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    text = _printable(text)
    if len(text) <= limit:
        return text
    if isinstance(value, str) and text.startswith('"') and text.endswith('"'):  # a text: cut within its quotes
        return text[: limit - 2] + '…"'
    return text[: limit - 1] + "…"


def quoted(text: str, limit: int = 38) -> str:
    """A name (or a word typed) as a sentence quotes it, without the quotes: the catalog writes them as its language
    does ("{name}" in English, «{name}» in Russian and Ukrainian; a name was quoted by Python's ``repr``, 'ann' but
    "O'Neil", in every language). Every character that is not printable escaped as :func:`shown` does (an emoji ZWJ
    sequence left whole), cut to ``limit`` characters with "…" (within the quotes, as :func:`shown` cuts a text)."""
    text = _printable(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _printable(text: str) -> str:
    """``text`` with every character that is not printable (a control, a bidi override, a zero-width space) written as
    ``\\uXXXX``, but a zero-width joiner within an emoji ZWJ sequence ("👩‍🚀": one glyph)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or joins_emoji(text, i) else f"\\u{ord(c):04x}" for i, c in enumerate(text))


def render_parts(parts: Sequence[Mapping[str, Any]], catalog: Mapping[str, Template] | None = None,
                 lang: str = "en", strict: bool = False) -> str:
    """A logged description (a list of message JSONs) as one line: ``Msg.from_json(p).render(catalog, lang)``
    of each part, read straight from the JSON (no :class:`Msg` made on the way: every entry recorded and
    every log line shown renders its parts). A part a hand edit broke is said as far as it can be
    (:data:`MISSING` for what it lacks), or with ``strict`` raises one of :data:`UNSAYABLE` (the caller has the
    entry's stored text to show instead)."""
    catalog = catalog or EN
    return nest_quotes("; ".join([_render_part(p, catalog, lang, strict) for p in parts]))


def one_stop(template: str, values: Mapping[str, Any]) -> str:
    """``template`` without the full stop after a value that ends with one: an amount in roubles at the end of a
    sentence, "… не больше {amount}." with "1 192 т.р.", read "т.р.."."""
    for key, value in values.items():
        if type(value) is str and value.endswith(".") and "{" + key + "}." in template:
            template = template.replace("{" + key + "}.", "{" + key + "}")
    return template


def nest_quotes(text: str) -> str:
    """Quotes inside quotes as Russian and Ukrainian typography writes them: «… „…“ …», never «… «…» …» (a
    card's text that quotes a space, «Отправляйтесь на поле «Вперёд»…», put inside a sentence's own «»). A »
    without its « is left as it is, and so is every other character; so is a text whose « and » do not pair up (a
    name holding a lone «, quoted: «Ann «Boss», whose nesting would have closed the name's « and left the
    sentence's open, «Ann „Boss“)."""
    opened = text.count("«")
    if opened < 2 or opened != text.count("»"):
        return text
    out = []
    depth = 0
    for ch in text:
        if ch == "«":
            depth += 1
            out.append("„" if depth > 1 else ch)
        elif ch == "»" and depth:
            out.append("“" if depth > 1 else ch)
            depth -= 1
        else:
            out.append(ch)
    return "".join(out)


def _render_part(data: Mapping[str, Any], catalog: Mapping[str, Template], lang: str, strict: bool) -> str:
    try:
        return _render_msg_json(data, catalog, lang)
    except UNSAYABLE:
        if strict:
            raise
        return _said_as_far_as_can(data, catalog, lang)


def _render_msg_json(data: Mapping[str, Any], catalog: Mapping[str, Template], lang: str) -> str:
    """``Msg.from_json(data).render(catalog, lang)``, without making the :class:`Msg`."""
    key = data["key"]
    if key not in EN:  # as Msg() refuses it
        raise KeyError(f"no English template for message {key!r}")
    params = data.get("params", {})
    n = _from_json(params["n"]) if "n" in params else 0
    template = _form(catalog.get(key) or EN[key], lang, n, key)
    # a text as it is, without the call (:func:`_render_json`'s first case; nearly every parameter)
    values = {k: v if type(v) is str else _render_json(v, catalog, lang) for k, v in params.items()}
    try:
        return one_stop(template, values).format(**values)
    except (KeyError, IndexError):  # a broken translation falls back to English
        return _form(EN[key], "en", n, key).format(**values)


def _render_json(value: Any, catalog: Mapping[str, Template], lang: str) -> str:
    """``_render(_from_json(value), catalog, lang)``, without making the objects."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if "msg" in value:
            return _render_msg_json(value["msg"], catalog, lang)
        if "counted" in value or "named" in value:  # every kind of stored parameter _from_json makes an object of
            return _render(_from_json(value), catalog, lang)
    elif isinstance(value, list):
        return ", ".join(_render_json(v, catalog, lang) for v in value)
    return _render(value, catalog, lang)


#: The English catalog: the source of every engine sentence.
EN: dict[str, Template] = {
    # --- small pieces
    "the-bank": "the bank",
    "the-pot": "the Free Parking pot",
    "level.houses": ["{n} house", "{n} houses"],
    "level.hotel": "a hotel",
    "nothing": "nothing",
    "jail-cards": ["{n} Get Out of Jail Free card", "{n} Get Out of Jail Free cards"],
    "debt-part": "{amount} to {creditor}",
    "and-list": "{items}",
    "kind.street": "street",
    "kind.railroad": "railroad",
    "kind.utility": "utility",
    # a colour group's name where the board is in another language (the board's own name in its language: a Named)
    "group.brown": "Brown",
    "group.light_blue": "Light Blue",
    "group.pink": "Pink",
    "group.orange": "Orange",
    "group.red": "Red",
    "group.yellow": "Yellow",
    "group.green": "Green",
    "group.dark_blue": "Dark Blue",
    "building.house": "house",
    "building.hotel": "hotel",
    # --- input
    "input.not-object": "A command is a JSON object such as {{\"op\": \"salary\", \"player\": \"Ann\"}}",
    "input.unknown-op": "Unknown op {op}; ops are: {ops}",
    "input.no-op": "A command names its op (\"op\": ...); ops are: {ops}",
    "input.missing": "{op}: missing \"{key}\"",
    "input.player-type": "{op}: \"{key}\" must be a player's name, not {value}",
    "input.unknown-player": "Unknown player \"{name}\"; players are: {players}",
    "input.space": "{op}: \"{key}\" must be a board position 0-39, not {value}",
    "input.whole": "{op}: \"{key}\" must be a whole number, not {value}",
    "input.at-least": "{op}: \"{key}\" must be at least {minimum}, not {value}",
    "input.text": "{op}: \"{key}\" must be text, not {value}",
    "input.flag": "{op}: \"{key}\" must be true or false, not {value}",
    "input.positions": "{what} must be a list of board positions, not {value}",
    "input.twice": "{what}: {space} is listed twice",
    "input.dice": "rent: \"dice\" must be a dice total {low}-{high}, not {value}",
    "input.rent-card": "rent: \"card\" must be one of {cards}, not {value}",
    "input.transfer-same": "A transfer needs two different accounts, but the payer and the receiver are both {name}",
    "input.trade-same": "A trade needs two different players, but both sides are {name}",
    "input.trade-side": "trade: \"{label}\" must be an object with cash, spaces, jail_cards",
    "input.trade-keys": "trade: \"{label}\" has unknown key {keys}; use cash, spaces, jail_cards",
    "input.trade-empty": "trade: nothing changes hands; fill \"give\" and/or \"get\"",
    "input.hotel-houses": "sell_building: \"houses\" must be 0-{high}, not {value}",
    "input.jail-card-use": "jail_card: only \"use\": true is an action (keeping a card is the default)",
    "input.unknown-card": "Unknown card {card} for {edition}; list them with `banker cards --edition {edition}`",
    "input.bank-lift": "bankrupt: \"lift\" is the creditor's choice, and here the creditor is the bank",
    "input.too-large": "{op}: \"{key}\" is more than a table can hold: at most {limit}",
    "input.too-long": ["{op}: \"{key}\" is {n} character long; the limit is {limit}",
                       "{op}: \"{key}\" is {n} characters long; the limit is {limit}"],
    "input.control": "{op}: \"{key}\" holds a control or invisible character ({char}); type plain text",
    "input.too-deep": "{op}: \"{key}\" is nested too deep (more than {limit} levels); a command is a small JSON object",
    "input.too-big": "{op}: the command holds too many values (more than {limit}); a command is a small JSON object",
    "input.unknown-key": "{op}: unknown key \"{key}\"; the keys of {op} are: {keys}",
    "input.unknown-key-none": "{op}: unknown key \"{key}\"; {op} takes no key but \"op\"",
    "input.invalid": "{op}: the command does not fit its op ({problem})",
    "input.effect": "A logged effect cannot be read ({problem})",
    "input.log-op": "\"{op}\" is an operation of the session log, not of the rules engine: record it through the session",
    # --- setup
    "setup.variant": "The {edition} rule book has no {variant}; choose one of: {variants}",
    "setup.count": "{edition} is for {low} to {high} players (one token each), not {n}",
    "setup.name": "Player name \"{name}\" must be non-empty text without outer spaces",
    "setup.name-text": "A player name is text, not {value}",
    "setup.reserved": "\"{name}\" is reserved for the bank; choose another player name",
    "setup.same": "Two players are called \"{name}\"; names must differ",
    "setup.same-as": "\"{name}\" and \"{other}\" are the same name written differently; names must differ",
    "setup.name-char": "Player name \"{name}\" holds a control or invisible character ({char}); type it in plain letters",
    "setup.name-long": ["Player name \"{name}\" is {n} character long; the limit is {limit}",
                        "Player name \"{name}\" is {n} characters long; the limit is {limit}"],
    # --- general refusals
    "bankrupt.out": "{player} is bankrupt and out of the game",
    "not-a-deed": "{space} (space {pos}) is not a property: it has no title deed",
    "not-a-street": "{space} ({kind}) takes no buildings: only streets (colour groups) do",
    "owned": "{space} already belongs to {owner}",
    "game-over": "The game is over ({winner}): only undo is possible",
    "game-over.nobody": "no single winner",
    "cash": "{player} has {cash}, less than the {amount} for {what}: not enough cash (mortgage or sell buildings first)",
    "debt-open": "{player} owes {debt}: raise the cash (sell buildings, mortgage, trade) or declare bankruptcy first",
    "undo.empty": "Nothing to undo: no action has been recorded yet",
    "undo.reason": "Undo needs a reason: say what went wrong (e.g. \"wrong player\")",
    # what a payment is for (in "cash" refusals)
    "what.buy": "{space}",
    "what.deal": "the dealt deed {space}",
    "what.bid": "the winning bid on {space}",
    "what.building": "a {kind} on {space}",
    "what.auction-bid": "the bid",
    "what.transfer": "the transfer",
    "what.lift": "lifting the mortgage on {space}",
    "what.interest": "the 10% interest on {space}",
    "lift.cash": "{player} has {cash}, less than the {amount} that lifting the mortgage on {space} costs (the mortgage "
                 "{value} + 10% {interest}): keep it mortgaged (only the 10% now), or raise the cash first",
    "lift.cash-then": "{player} has {cash} by then, less than the {amount} that lifting the mortgage on {space} costs "
                      "(the mortgage {value} + 10% {interest}): keep it mortgaged (only the 10% now), or raise the cash "
                      "first",
    # --- buying, auctions, dealing
    "auction.pending": "{space} came back to the bank in a bankruptcy and must be auctioned",
    "auction.min": "The lowest bid at an auction is {amount}",
    "auction.over-raise": "{player} could have at most {most} by selling buildings and mortgaging, less than the winning "
                          "bid of {amount} for {space}",
    "deal.variant": "Deeds are dealt only in the short and timed games, not in this one ({variant})",
    "deal.done": "{player} has already been dealt {n} deeds",
    "house-rule.off": "Free Parking pays nothing under the official rules (the pot is a house rule, off)",
    "pot.empty": "The Free Parking pot is empty",
    # --- rent
    "rent.unowned": "{space} is not owned: no rent is due (buy it or auction it)",
    "rent.mortgaged": "{space} is mortgaged: no rent is collected on a mortgaged deed",
    "rent.own": "{player} owns {space}: no rent to pay",
    "rent.no-card": "No card of this edition sends a token to the nearest {wanted}: the rent is the deed's (leave out the card)",
    "rent.card-kind": "The card is for the nearest {wanted}: {space} ({kind}) is not one",
    "rent.dice": "Rent on {space} is worked out from the dice: enter the dice total ({low}-{high})",
    "how.hotel": "hotel rent {amount}",
    "how.houses": ["rent with {n} house {amount}", "rent with {n} houses {amount}"],
    "how.double": "double rent for the full group: 2 x {amount}",
    "how.not-doubled": "rent {amount}, not doubled: a lot of the group is mortgaged",
    "how.bare": "rent {amount}",
    "how.railroads": ["{amount} for {n} railroad", "{amount} for {n} railroads"],
    "how.railroads-card": ["{m} x {amount} for {n} railroad, as the card says",
                           "{m} x {amount} for {n} railroads, as the card says"],
    "how.utility": ["{m} x the roll of {dice} with {n} utility", "{m} x the roll of {dice} with {n} utilities"],
    "how.utility-card": "{m} x the roll of {dice}, as the card says",
    # --- tax
    "tax.not": "{space} is not a tax space",
    "tax.choose": "{space}: choose \"flat\" ({flat}) or \"percent\" ({pct}% of total worth) before the worth is added up",
    "tax.no-choice": "{space} offers no choice: pay {amount}",
    # --- building
    "build.owner": "{player} does not own {space}",
    "build.group": "Build only on a full colour group: {player} does not own {missing}",
    "build.mortgaged": ["No building on a group with a mortgage: {lots} is mortgaged ({group})",
                        "No building on a group with a mortgage: {lots} are mortgaged ({group})"],
    "build.hotel": "{space} already has a hotel: one hotel per lot is the most",
    "build.evenly": "Build evenly: {space} has {level}, {other} has {other_level}",
    "stock.houses": "The bank has no houses left (all {n} are built): wait until a player sells houses back",
    "stock.hotels": "The bank has no hotels left (all {n} are built): wait until a player sells a hotel back",
    "building-auction.start": "A building auction starts at the printed price: the bid must be at least {amount}",
    "hotel-sale.exchange": "A hotel is sold for half its price and exchanged for {hbh} houses; it cannot be sold down to {n}",
    "hotel-sale.exchange-stock": "Selling the hotel on {space} exchanges it for {hbh} houses and the bank has only {stock}: "
                                 "sell other buildings first, or wait for houses to come back",
    "hotel-sale.whole": "A hotel is either exchanged for {hbh} houses or sold whole with them (\"houses\": 0), "
                        "not brought down to {n}",
    "hotel-sale.whole-stock": "The bank has only {stock} houses, so the hotel on {space} cannot be exchanged for {hbh}: "
                              "sell it whole (\"houses\": 0)",
    "hotel-sale.stock": "The bank has only {stock} houses: the hotel on {space} can come down to at most {stock}",
    "sell.owner": "{player} does not own {space}",
    "sell.nothing": "{space} has no buildings to sell",
    "sell.evenly": "Sell evenly: {space} has {level}, {other} has {other_level}",
    # --- mortgage
    "mortgage.owner": "{player} does not own {space}",
    "mortgage.twice": "{space} is already mortgaged",
    "mortgage.buildings": "Sell the buildings on the {group} group before mortgaging: {where}",
    "mortgage.where": "{space} has {level}",
    "unmortgage.not": "{space} is not mortgaged",
    # --- cards
    "card.held": "{holder} holds that Get Out of Jail Free card: it is not in the {deck} deck",
    "jail-card.not-held": "{player} does not hold the card {card}",
    "jail-card.none": "{player} has no Get Out of Jail Free card (pay the fine, or buy a card from another player)",
    "effect.collect": "collect {amount} from the bank",
    "effect.pay": "pay {amount} to the bank",
    "effect.pay_each_player": "pay {amount} to each player",
    "effect.collect_from_each_player": "collect {amount} from each player",
    "effect.repairs": "pay {house} per house, {hotel} per hotel",
    "effect.advance-go": "advance to {space}: collect the salary",
    "effect.advance": "advance to {space}: salary if passing GO",
    "effect.advance-last": "advance to {space}",
    "card.no-go": "No token passes GO on its way to {space}, the last space before GO: no salary",
    "effect.advance_nearest": "advance to the nearest {kind}: rent as the card says",
    "effect.back": "go back {n} spaces",
    "effect.go_to_jail": "go to jail (no money moves)",
    "effect.jail_card": "keep until used or sold",
    # --- trade
    "trade.debtor-cash": "{player} owes {debt}: no cash can be given away while a debt is open",
    "trade.cash": "{player} has {cash}, cannot give {amount} in a trade",
    "trade.owner": "{player} does not own {space}",
    "trade.buildings": "{space} cannot change hands while its group has buildings ({built}): sell them to the bank first",
    "trade.jail-cards": "{player} holds {held} Get Out of Jail Free card(s), cannot give {n}",
    "trade.lift": "\"lift\" names {space}, which is not a mortgaged deed changing hands in this trade",
    "debt-in-kind.edition": "The {edition} rules do not let a debt be paid in property",
    "debt-in-kind.none": "{player} owes nothing to {creditor}: \"debt_credit\" only pays a debt in property",
    "debt-in-kind.too-much": "{player} owes {creditor} {owed}; the property cannot count for {amount}",
    "debt-in-kind.deed": "Paying a debt in kind needs at least one deed in \"give\"",
    # --- bankruptcy, end
    "bankrupt.no-debt": "{player} has no open debt: bankruptcy follows a debt that cannot be paid",
    "bankrupt.avoidable": "{player} can still raise {can} (selling buildings, mortgaging) for a debt of {debt}: "
                          "bankruptcy is only for a debt that cannot be paid",
    "bankrupt.lift": "\"lift\" names {space}, not a mortgaged deed {player} receives",
    "end.debt": ["{players} still owes money: settle the debt or declare bankruptcy before ending the game",
                 "{players} still owe money: settle the debts or declare bankruptcy before ending the game"],
    # --- log descriptions
    "log.salary": "{player} collects {amount} salary",
    "log.salary-landed": "{player} collects {amount} salary for landing on GO",
    "log.buy": "{player} buys {space} for {amount}",
    "log.no-bids": "No bids for {space}: it stays with the bank",
    "log.auction": "{player} wins the auction for {space} at {amount} (printed {price})",
    "log.deal": "{player} is dealt {space} and pays {amount}",
    "log.jail-fine": "{player} pays the {amount} fine to leave jail",
    "log.transfer": "{src} gives {dst} {amount}",
    "log.transfer-memo": "{src} gives {dst} {amount}: {memo}",
    "log.free-parking": "{player} collects the Free Parking pot of {amount}",
    "log.debt-open": "{player} has only {cash}: a debt is open",
    "log.debt-opens": "{player} opens a debt",
    "log.debt-paid": "{player} pays the debt of {amount} to {creditor}",
    "log.debt-cancelled": "{player}'s debt of {amount} to {creditor} is cancelled: {player} takes all {creditor} had",
    "log.rent": "{payer} pays {owner} {amount} rent on {space} ({how})",
    "log.tax": "{player} pays {amount} {space}",
    "log.tax-flat": "{player} pays {amount} {space} (chose {flat}; the other choice would have cost {other})",
    "log.tax-percent": "{player} pays {amount} {space} (chose {pct}% of {worth}; the other choice would have cost {other})",
    "log.card": "{player} draws {deck}: \"{text}\"",
    "log.card-repairs": "repairs: {houses} x house, {hotels} x hotel = {amount}",
    "log.card-salary": "salary {amount}",
    "log.card-kept": "kept until used or sold",
    "log.jail-card": "{player} uses a Get Out of Jail Free card; it goes back under the {deck} deck",
    "log.build": "{player} builds a {kind} on {space} for {amount}",
    "log.building-auction": "{player} wins a {kind} at the shortage auction for {amount} and builds it on {space} "
                            "(printed {price})",
    "log.sell-hotel": ["{player} sells the hotel on {space} to the bank for {amount}, leaving {n} house",
                       "{player} sells the hotel on {space} to the bank for {amount}, leaving {n} houses"],
    "log.sell-hotel-whole": "{player} sells the hotel on {space} to the bank for {amount} with its houses",
    "log.sell-house": "{player} sells a house on {space} to the bank for {amount}",
    "log.mortgage": "{player} mortgages {space} for {amount}",
    "log.unmortgage": "{player} lifts the mortgage on {space} for {amount} ({value} + {interest} interest)",
    "log.trade": "Trade: {a} gives {b} {a_goods}; {b} gives {a} {b_goods}",
    "log.trade-credit": "{creditor} accepts the property for {amount} of {player}'s debt",
    "log.trade-lifts": "{player} lifts {space} for {amount}",
    "log.trade-interest": "{player} pays {amount} interest on mortgaged {space}",
    "log.bankrupt": "{player} is bankrupt to {creditor} (debt {debt}, could raise only {can})",
    "log.bankrupt-interest": "{player} pays {amount} interest on {space}",
    "log.bankrupt-interest-owed": "{player} owes the bank {amount} interest on {space} (a debt)",
    "log.bankrupt-lifts": "{player} lifts {space} for {amount}",
    "log.bankrupt-buildings": "the bank takes back the buildings ({what}) and pays {player} {amount}",
    "log.bankrupt-buildings-back": "the buildings ({what}) go back to the bank",
    "log.bankrupt-cash": "{player}'s cash, {amount}, goes to {creditor}",
    "log.bankrupt-cash-bank": "{player}'s cash, {amount}, goes to the bank",
    "log.bankrupt-deeds": ["{spaces} goes to {player}", "{spaces} go to {player}"],
    "log.bankrupt-buildings-stay": ["what stands on it goes to {player} with the deed ({lots})",
                                    "what stands on them goes to {player} with the deeds ({lots})"],
    "bankrupt.lot": "{space}: {what}",
    "bankrupt.hotels": ["{n} hotel", "{n} hotels"],
    "log.bank-auctions": "the bank auctions {spaces}",
    "log.end": "End of game",
    "log.game-ends": "{outcome} ({reason}). Valuation: {standings}",
    "log.wins": "{player} wins",
    "log.tie": "a tie between {players}",
    "log.standing": "{player} {amount}",
    "log.undone": "Undone ({reason})",
    "reason.bankruptcies": "second bankruptcy",
    "reason.last player": "one player left",
    "reason.time": "time",
    "reason.agreed": "agreed end",
    # --- sales of a whole group, shortages, card choices, jail cards by deck
    "input.sell-all-houses": "sell_building: \"all\" sells every building of the group; leave out \"houses\"",
    "input.sell-houses-no-hotel": "sell_building: \"houses\" says what stays when a hotel is sold, and {space} has no "
                                  "hotel; leave it out to sell one house",
    "input.card-choice": "card {card}: \"choice\" must be one of {choices}, not {value}",
    "input.card-no-choice": "Card {card} offers no choice: leave out \"choice\"",
    "input.jail-cards": "{op}: a Get Out of Jail Free card is named by its deck (\"chance\", \"chest\") or its card id, not "
                        "{value}",
    "input.jail-card-twice": "{op}: {card} is named twice",
    "sell.nothing-group": "The {group} group has no buildings to sell",
    "hotel-sale.evenly": "Sell evenly: {other} has {other_level}, so the hotel on {space} comes down to at least {low} houses, "
                         "not {n} (fewer only when the bank is short of houses)",
    "building-auction.one-builder.house": "No shortage auction: it is for two or more players who may build a house now, and "
                                          "only {players} may; buy the house at the printed price",
    "building-auction.one-builder.hotel": "No shortage auction: it is for two or more players who may build a hotel now, and "
                                          "only {players} may; buy the hotel at the printed price",
    "building-auction.no-builder.house": "No shortage auction: it is for two or more players who may build a house now, and "
                                         "nobody may",
    "building-auction.no-builder.hotel": "No shortage auction: it is for two or more players who may build a hotel now, and "
                                         "nobody may",
    "building-auction.none-now": "No shortage auction now: it is held when two or more players who may build want more than "
                                 "the bank has ({houses}, {hotels}); buy at the printed price",
    "building-auction.no-shortage.house": "No shortage of houses: the bank has {stock} and the players who may build one now "
                                          "({players}) could take {want} in all; buy at the printed price",
    "building-auction.no-shortage.hotel": "No shortage of hotels: the bank has {stock} and the players who may build one now "
                                          "({players}) could take {want} in all; buy at the printed price",
    "effect.pay_or_draw": "pay {amount} to the bank, or draw a {deck} card",
    "log.card-draws": "{player} takes a {deck} card instead of paying {amount}",
    "jail-card.of-deck": "the {deck} Get Out of Jail Free card",
    "jail-card.which": "{player} holds {cards}: name the one that changes hands by its deck ({decks}) in \"jail_cards\"",
    "jail-card.which-use": "{player} holds {cards}: say which is used (\"card\": one of {decks})",
    "jail-card.not-held-deck": "{player} holds no Get Out of Jail Free card from the {deck} deck",
    "log.sell-hotels-whole": "{player} sells the hotels on {spaces} to the bank for {amount} with their houses (all the hotels "
                             "of a group go together)",
    "log.sell-all": "{player} sells every building on the {group} group ({spaces}) to the bank for {amount}",
    "log.bankrupt-jail-cards": ["{cards} goes to {player}", "{cards} go to {player}"],
    "log.bankrupt-jail-cards-back": ["{cards} goes back under its deck", "{cards} go back under their decks"],
    # --- following the board (issue #11: banker.rules.turns)
    "input.roll": "{op}: \"{key}\" must be the two white dice, each 1-6, such as [3, 5], not {value}",
    "input.speed": "{op}: \"{key}\" must be the Speed Die's face, one of {faces}, not {value}",
    "speed.bus": "the Bus",
    "speed.mr-monopoly": "Mr. Monopoly",
    "turn.follow-off": "Follow mode is off: the bank moves no token (switch it on with {{\"op\": \"follow\", \"on\": true}})",
    "turn.follow-same-on": "Follow mode is already on",
    "turn.follow-same-off": "Follow mode is already off",
    "turn.not-yours": "It is {current}'s turn to roll, not {player}'s",
    "turn.pending": "First settle what the last landing requires: {what}",
    "turn.no-speed-die": "This game has no Speed Die ({variant}): leave out \"speed\"",
    "turn.speed-missing": "{player} has passed GO, so the Speed Die counts: give its face too (\"speed\": 1, 2, 3, "
                          "\"bus\" or \"mr-monopoly\")",
    "turn.move-not-bus": "roll: \"move\" is only for the Bus (\"speed\": \"bus\")",
    "turn.to-not-triple": "roll: \"to\" is only for three of a kind (both white dice and the Speed Die alike)",
    "turn.bus-missing": "The Bus: say how far the token moves (\"move\": one of {choices})",
    "turn.bus-move": "The Bus moves by one white die or both: \"move\" is one of {choices}, not {value}",
    "turn.to-missing": "Three of a kind: say the space the token moves to (\"to\": 0-39)",
    "turn.place-jail": "In jail the token stands on {space} (space {pos}), not on space {value}",
    "turn.place-same": "{player}'s token already stands there ({space}): nothing to change",
    "turn.not-in-jail": "{player} is not in jail (if the token is, place it there first: \"place\" with \"jail\": true)",
    "turn.jail-roll-first": ["{player} has failed {n} attempt at doubles: on this turn the dice are rolled first (the fine "
                             "may be paid before rolling only on the first {m} turns in jail)",
                             "{player} has failed {n} attempts at doubles: on this turn the dice are rolled first (the "
                             "fine may be paid before rolling only on the first {m} turns in jail)"],
    "turn.card-deck": "{player} stands on {deck}: the card comes from that deck",
    "turn.passed-go": "The bank works out whether the card's move passes GO, and for {player} \"passed_go\": {value} "
                      "is wrong; leave it out",
    "due.buy": "{player} may buy {space} for {amount}, or it goes to auction",
    "due.auction": "{space} goes to the bank's auction",
    "due.rent": "{payer} pays {owner} {amount} rent on {space}",
    "due.rent-dice": "{payer} pays {owner} rent on {space}: {m} x a fresh roll of the dice",
    "due.tax": "{player} pays {amount} {space}",
    "due.tax-choice": "{player} pays {space}: {flat} or {pct}% of total worth, chosen before the worth is added up",
    "due.card": "{player} draws a {deck} card",
    "due.jail-fine": ["{player} has failed {n} attempt at doubles: pays the {amount} fine, then moves {roll}",
                      "{player} has failed {n} attempts at doubles: pays the {amount} fine, then moves {roll}"],
    "due.mr-monopoly": "Mr. Monopoly: {what}",
    "log.roll": "{player} rolls {dice}",
    "log.roll-speed": "{player} rolls {dice} and {speed} on the Speed Die",
    "log.speed-ignored": "the Speed Die does not count yet ({player} has not passed GO)",
    "log.speed-jail": "in jail only the white dice count",
    "log.moves": "{player} moves to {space}",
    "log.moves-back": "{player} goes back to {space}",
    "log.again": "doubles: {player} rolls again",
    "log.third-doubles": "third doubles in a turn",
    "log.go-to-jail": "{player} goes to jail",
    "log.jail-out-doubles": "doubles: {player} leaves jail",
    "log.jail-stays": ["{player} stays in jail (attempt {n} of {m})", "{player} stays in jail (attempt {n} of {m})"],
    "log.jail-free": "{player} leaves jail",
    "log.next": "{player} rolls next",
    "log.three-of-a-kind": "three of a kind: {player} goes to {space}",
    "log.bus": ["the Bus: {player} moves {n} space", "the Bus: {player} moves {n} spaces"],
    "log.mr-monopoly": "Mr. Monopoly: {player} advances to {space}",
    "log.mr-monopoly-none": "Mr. Monopoly: no property to advance to",
    "log.no-rent-mortgaged": "{space} is mortgaged: no rent",
    "log.due": "to settle: {what}",
    "log.dropped": "dropped: {what}",
    "log.end-turn": "{player}'s turn ends",
    "log.place": "{player}'s token is put on {space}",
    "log.place-jail": "{player}'s token is put in jail",
    "log.follow-on": "Follow mode on: {player} rolls next",
    "log.follow-on-doubles": ["Follow mode on: {player} rolls next, with {n} double thrown this turn",
                              "Follow mode on: {player} rolls next, with {n} doubles thrown this turn"],
    "log.follow-on-over-roll": "Follow mode on: {player}'s roll this turn had no doubles, so the turn is over: {next} "
                               "rolls next",
    "log.follow-on-over-jail": "Follow mode on: {player}'s token was put in jail with follow mode off, so the turn is "
                               "over: {next} rolls next",
    "log.follow-off": "Follow mode off",
    # --- the agreed end of a timed game (banker.ledger.clock), counting the table (banker.rules.count)
    "end-time.empty": "Say when the game ends: a clock time such as 22:30, or how long to play such as 90m",
    "end-time.unknown": "{value} is not an end time: type a clock time such as 22:30 (or 10:30 pm), or how long to play "
                        "such as 90m, 1h30, 90 minutes or 2 hours",
    "end-time.range": "{value}: the agreed end must be at least a minute and at most 24 hours away",
    "end-time.stored": "end_time {value} is not a time with its UTC offset (2026-11-23T22:30+01:00); "
                       "`banker new --end-time` takes 22:30 or 90m",
    "end-time.untimed": "Only the time-limit game has an agreed end, and the {variant} game has no time limit: leave the "
                        "end time out, or choose the timed variant",
    "end-time.needed": "A time-limit game needs its agreed end before it starts: give a clock time such as 22:30, or how "
                       "long to play such as 90m",
    "input.counts": "{op}: \"{key}\" is a number for each player ({{\"Ann\": 3}}), not {value}",
    "count.empty": "count: give at least one figure counted on the table (houses, hotels, deeds or cash)",
    "count.twice": "count: {player} is named twice in \"{figure}\"",
    "count.diff-houses": "houses in the bank: {counted} counted, {expected} by the bank's figures",
    "count.diff-hotels": "hotels in the bank: {counted} counted, {expected} by the bank's figures",
    "count.diff-deeds": "{player}'s deeds: {counted} counted, {expected} by the bank's figures",
    "count.diff-cash": "{player}'s cash: {counted} counted, {expected} by the bank's figures",
    "log.count-agrees": ["The table is counted: the {n} figure counted agrees with the bank's",
                         "The table is counted: all {n} figures counted agree with the bank's"],
    "log.count-differs": ["The table is counted: {n} difference ({differences})",
                          "The table is counted: {n} differences ({differences})"],
    # --- several buildings in one action, undo of an earlier entry (issue #12)
    "input.build-each-upto": "build: give \"each\" (that many on every lot) or \"upto\" (every lot up to that many), not both",
    "build-group.too-many": ["A lot takes at most {top} buildings ({hbh} houses, then a hotel): {lots} would have more",
                             "A lot takes at most {top} buildings ({hbh} houses, then a hotel): {lots} would have more"],
    "build-group.nothing": ["Nothing to build: every lot of the {group} group already has {n} building or more",
                            "Nothing to build: every lot of the {group} group already has {n} buildings or more"],
    "build-group.shortage": "The bank has {stock}: building {need} would leave {left} while {players} may build "
                            "too; build one at a time, or hold the shortage auction",
    "build-group.shortage-hotels": "The bank has {stock}: building {need} would leave {left} while {players} may build a "
                                   "hotel too; build one at a time, or hold the shortage auction",
    "build-group.stock": ["The bank has {n} house left and building on the {group} group needs {need}: build fewer",
                          "The bank has {n} houses left and building on the {group} group needs {need}: build fewer"],
    "build-group.lot": "{space}: {what}",
    "build-group.houses": ["{n} house", "{n} houses"],
    "build-group.hotel": "a hotel",
    "build-group.houses-hotel": ["{n} house and then a hotel in its place", "{n} houses and then a hotel in their place"],
    "what.buildings": "the buildings on the {group} group",
    "log.build-group": "{player} builds on the {group} group ({lots}) for {amount}",
    "undo.not-standing": "Entry {seq} cannot be undone: it is not an action that still stands (already undone, an undo "
                         "itself, or no such entry)",
    "undo.depends": ["Entry {seq} cannot be undone on its own: entry {entries} depends on it (undo that first)",
                     "Entry {seq} cannot be undone on its own: entries {entries} depend on it (undo those first)"],
    # --- the edition's own words for its railroads and utilities (issue #12: banker.rules.messages.Counted)
    "count.railroads": ["{n} railroad", "{n} railroads"],
    "count.utilities": ["{n} utility", "{n} utilities"],
    "how.railroads-of": "{amount} for {count}",
    "how.railroads-card-of": "{m} x {amount} for {count}, as the card says",
    "how.utility-of": "{m} x the roll of {dice} with {count}",
}
