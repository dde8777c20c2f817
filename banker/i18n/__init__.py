"""The one translation layer: every string the interface shows goes through here.

``Translator(lang)`` renders the interface's own strings (``tr("key", **params)``, catalogs
``en.toml``, ``ru.toml``, ``uk.toml`` in this package) and the engine's sentences
(:class:`banker.rules.messages.Msg`, catalogs ``ru-engine.toml``, ``uk-engine.toml``; English
is the engine's own catalog in ``banker/rules/messages.py``). A missing translation falls back to English, never to a key.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from banker.datacache import parsed
from banker.rules.edition import Edition
from banker.rules.errors import BoardError, Refused
from banker.rules.messages import UNSAYABLE, Msg, Named, form_index, nest_quotes, one_stop, render_parts
from banker.rules.names import escape_forbidden
from banker.rules.state import BANK, POT

LANGS = ("en", "ru", "uk")
#: the interface strings whose plural forms agree with a list they say, not with a number: ``[one, several]`` in every
#: language (as :data:`banker.rules.messages.LISTS` for the engine's)
LISTS = frozenset({"table.divergent"})


def detect_lang(environ: Mapping[str, str] | None = None) -> str:
    """The interface language from the locale (LC_ALL, LC_MESSAGES, LANG), else English."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        code = value.split(":")[0].split(".")[0].split("_")[0].lower()
        if code in LANGS:
            return code
        if code == "ua":
            return "uk"
        if value:
            break
    if environ is None:
        try:
            code = (locale.getlocale()[0] or "").split("_")[0].lower()
        except ValueError:  # pragma: no cover
            code = ""
        if code in LANGS:
            return code
    return "en"


@cache
def catalog(lang: str) -> dict[str, dict[str, Any]]:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    files = Path(__file__).parent  # the catalogs: files of the installed package (see banker.boards.HERE)
    ui = _toml(files / f"{lang}.toml", flat=True)
    engine = {}
    if lang != "en":
        engine = _toml(files / f"{lang}-engine.toml")
    return {"ui": ui, "engine": engine}


def _toml(file: Path, flat: bool = False) -> dict[str, Any]:
    """A catalog as parsed, or, ``flat``, with its keys written out whole ("table.title"), as the cache keeps it
    (the tables' keys joined once, not at every start: some 1,500 keys, issue #14)."""
    def parse() -> dict[str, Any]:
        import tomllib  # only when the parsed catalog is not in the cache (banker.datacache): not at every start

        table = tomllib.loads(file.read_text(encoding="utf-8"))
        return _flatten(table) if flat else table

    return parsed(file, parse)


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out



def visible(text: str, keep: str = "") -> str:
    """``text`` with every control or invisible character written as ``\\uXXXX``: a name a session recorded before
    today's name rules (or a hand-edited file) holds never drives the terminal it is shown on (ESC ] 0 ; ... set
    the terminal's title from a session's name). The characters of ``keep`` are left as they are: the players'
    page's own isolates around a right-to-left name (the name itself made visible first)."""
    return escape_forbidden(text, keep)  # an emoji ZWJ sequence ("👩‍🚀 Ann") stays as it is: one glyph

class Translator:
    def __init__(self, lang: str = "en") -> None:
        self.lang = lang if lang in LANGS else "en"
        self._ui = catalog(self.lang)["ui"]
        self._en = catalog("en")["ui"]
        self._engine = catalog(self.lang)["engine"] if self.lang != "en" else None

    def __call__(self, key: str, **params: Any) -> str:
        template = self._ui.get(key, self._en.get(key))
        if template is None:
            raise KeyError(f"no interface string {key!r}")
        if isinstance(template, list):
            template = template[form_index(self.lang, template, params.get("n", 0), key in LISTS)]
        try:
            return nest_quotes(one_stop(template, params).format(**params))
        except (KeyError, IndexError):
            english = self._en[key]
            if isinstance(english, list):
                english = english[form_index("en", english, params.get("n", 0), key in LISTS)]
            return nest_quotes(english.format(**params))

    def get(self, key: str, default: str, **params: Any) -> str:
        """Like calling the translator, but ``default`` (as is) when no catalog has ``key``."""
        if key not in self._ui and key not in self._en:
            return default
        return self(key, **params)

    def account(self, name: str | None, in_text: bool = False) -> str:
        """A payer or payee as the banker says it: a player's name, the bank, the Free Parking pot. ``in_text``: within
        a sentence ("кредитор: банк"), where Russian and Ukrainian write the bank and the pot in lower case as their
        catalogs do everywhere else; as a label (a payment's "Ann → Банк", a list of players) it keeps its capital.
        English names the Bank with a capital in both."""
        if name == BANK:
            return self("bank.name_in_text" if in_text else "bank.name")
        if name == POT:
            return self("bank.pot_in_text" if in_text else "bank.pot")
        return name or ""

    def game_over(self, winner: str | None, tied: Sequence[str] = ()) -> str:
        """The end of the game in one line, as the bank's panel and the players' page say it: who won, or who tied
        (found playing: "Game over: Zoë" did not say she won); the names as the caller shows them."""
        if winner:
            return self("bank.over_winner", winner=winner)
        if tied:
            return self("bank.over_tied", players=", ".join(tied))
        return self("bank.over")

    def group(self, edition: Edition, group: str) -> str:
        """The name of a group of deeds: a colour group's from the board file, when the board is in this language
        (else the engine's word for the colour, as its messages say it, where it has one: a UK board's "Dark Blue"
        in a Ukrainian review beside its "Вокзали" mixed two languages); the railroads' or the utilities' (``group``
        is then their kind) from the edition's own words (Kyiv: "Станції метро"), else from the catalog."""
        if group in edition.groups:
            return self.msg(edition.group_said(group))  # as the engine's sentences say it
        return edition.kind_group(group, self.lang) or self.get(f"group.{group}", group)

    def msg(self, msg: Msg | Named | str) -> str:
        return msg if isinstance(msg, str) else msg.render(self._engine, self.lang)

    def parts(self, parts: Sequence[Mapping[str, Any]]) -> str:
        """A logged description (message JSONs) in this language."""
        return render_parts(list(parts), self._engine, self.lang)

    def entry(self, entry: Any, keep: str = "") -> str:
        """A log entry's sentence in this language: its logged description (``parts``), else its stored English
        ``text`` (an entry without parts, or one whose parts a hand edit left that cannot be said whole). A control
        or invisible character (only a hand-edited file can hold one) is written as ``\\uXXXX``: what a file holds
        never drives the terminal. ``keep``: characters of the description left as they are (the players' page puts
        isolates around its parameters, each made visible first); never in the stored text."""
        parts = getattr(entry, "parts", None)
        said = None
        if isinstance(parts, list | tuple) and parts:
            try:
                said = render_parts(parts, self._engine, self.lang, strict=True)
            except UNSAYABLE:
                pass
        if said is None:
            return visible(str(getattr(entry, "text", "")))
        return visible(said, keep)

    def refusal(self, error: Refused) -> str:
        return error.render(self._engine, self.lang)

    def said(self, key: str, params: Mapping[str, Any], english: str) -> str:
        """A sentence of the session log (``[session]`` table): its parameters said likewise (a clause is a
        ``Said``, a refusal or a ``Msg`` the engine's sentence, a list its items one after the other: with commas, or
        engine messages as a logged description is said); ``english`` (the ledger's own words) when no catalog has it."""
        values = {k: self._said_value(v) for k, v in params.items()}
        if f"session.{key}" not in self._ui and f"session.{key}" not in self._en:
            return english
        return self(f"session.{key}", **values)

    def _said_value(self, value: Any) -> Any:
        if isinstance(value, Refused):
            return self.refusal(value)
        if isinstance(value, BoardError):
            return self.board(value)
        if isinstance(value, Msg):
            return self.msg(value)
        if isinstance(value, list | tuple):  # clauses one after the other; engine messages as a logged description
            if value and all(isinstance(v, Msg) for v in value):
                return "; ".join(self.msg(v) for v in value)
            return ", ".join(str(self._said_value(v)) for v in value)
        if isinstance(value, Exception) and hasattr(value, "key") and hasattr(value, "params"):
            return self.said(value.key, value.params, str(value))  # a SessionError inside another
        if hasattr(value, "key") and hasattr(value, "params") and hasattr(value, "text"):
            return self.said(value.key, value.params, value.text)  # a Said (banker.ledger cannot be imported here)
        return "" if value is None else str(value) if not isinstance(value, int) else value

    def board(self, error: BoardError) -> str:
        """A board file's mistake (:class:`banker.rules.errors.BoardError`) in this language (``[board_error]``);
        its English when it carries no key the catalogs have."""
        key = f"board_error.{error.key}"
        if error.key is None or (key not in self._ui and key not in self._en):
            return str(error)
        try:
            return self(key, **error.params)
        except (KeyError, IndexError):  # parameters that do not fit the sentence: the English as raised
            return str(error)

    def session(self, error: Any) -> str:
        """A :class:`banker.ledger.SessionError` (or a ``Said``) in this language."""
        return str(self._said_value(error))

    def console_refusal(self, error: Refused) -> str:
        """A refusal as the console says it: where the engine's sentence names a command's keys ("fill "give"
        and/or "get""), which a script writer types and the banker never sees, the console's own words
        (``[console_refusal]``: what to choose in the dialog); else the engine's sentence."""
        msg = error.msg
        key = f"console_refusal.{msg.key}" if isinstance(msg, Msg) else ""
        if isinstance(msg, Msg) and (key in self._ui or key in self._en):
            return self(key, **{k: self.msg(v) if isinstance(v, Msg) else v for k, v in msg.params.items()})
        return self.refusal(error)
