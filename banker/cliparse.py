"""argparse in the banker's language: the ``banker`` command's parser, its help and its usage errors.

The language is decided before argparse runs (:func:`lang_in` reads ``--lang X`` / ``--lang=X`` from the
arguments, wherever they stand; :func:`choose_lang` falls back on the locale, the one place that decides),
so that the parser is built in it: every help text, metavar and section title comes from the catalogs'
``[cli_help]`` table, "usage:" from :class:`_Formatter`, "-h"'s own line from :class:`Parser`.

argparse words its errors in English before it calls :meth:`Parser.error`; there is no public hook to
give it other words (its strings go through ``gettext`` with the process-wide default domain, which would
need compiled ``.mo`` files and would change every other ``gettext`` user of the process). So
:func:`usage_problem` reads the message back against argparse's own templates (Lib/argparse.py, the
``_('...')`` strings) and says it again from the ``[cli_usage]`` table, with the same parameters. A
message that matches no template (a future Python's rewording) is still said in the banker's language,
with argparse's words quoted; tests/test_one_language.py runs every kind in Russian and Ukrainian, so such a
rewording fails there rather than reach a banker.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NoReturn

from banker.i18n import LANGS, Translator, detect_lang
from banker.rules.names import escape_forbidden

EXIT_USAGE = 2


@lru_cache(maxsize=1)  # the command asks for the language and the subcommand: the arguments read once
def _read_ahead(argv: tuple[str, ...]) -> argparse.Namespace | None:
    """What the arguments say before the parser is built: every ``--lang``, whether help is asked for, and the
    first word that is not an option's (the subcommand, when there is one); None when argparse cannot read them
    so (``--lang`` with nothing after it: the real parser says so). argparse itself reads them, with a parser that
    knows only these and leaves every other argument alone."""
    pre = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    pre.add_argument("--lang", action="append", default=[])
    pre.add_argument("-h", "--help", action="store_true")
    pre.add_argument("command", nargs="?")
    try:
        return pre.parse_known_args(list(argv))[0]
    except argparse.ArgumentError:
        return None


def lang_in(argv: Sequence[str]) -> str | None:
    """The language the arguments ask for: the last ``--lang X`` or ``--lang=X`` (or an abbreviation argparse
    accepts, ``--la X``), before or after the subcommand; None if none names a language."""
    read = _read_ahead(tuple(argv))
    given: list[str] = read.lang if read is not None else []
    return next((value for value in reversed(given) if value in LANGS), None)


def command_in(argv: Sequence[str], commands: Sequence[str]) -> str | None:
    """The subcommand the arguments name, one of ``commands``, when the parser needs no other to read them: not
    when help is asked for (the command's own help, or the list of every command), nor when the first word is no
    command (argparse then names them all); None then."""
    read = _read_ahead(tuple(argv))
    if read is None or read.help or read.command not in commands:
        return None
    return str(read.command)


def choose_lang(given: str | None) -> str:
    """The banker's language: the one given (``--lang``), else the locale's (LC_ALL, LC_MESSAGES, LANG), else
    English. Every word of the command, its parser included, is said in what this returns."""
    return given if given in LANGS else detect_lang()


class UsageExit(Exception):
    """The parser is done (help printed, or a usage error said): the command exits with ``code``."""

    def __init__(self, code: int) -> None:
        self.code = code


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout with the usage line's prefix in the banker's language."""

    def __init__(self, prog: str, usage_prefix: str = "usage: ") -> None:
        super().__init__(prog)
        self.usage_prefix = usage_prefix

    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, self.usage_prefix if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """argparse with every word from the catalogs and one-line errors (argparse prints the whole usage by
    default). Its arguments go into two groups titled in the banker's language, :attr:`positionals` and
    :attr:`options` (argparse's own are titled in English and have no public way to be renamed)."""

    def __init__(self, *args: Any, tr: Translator, own: set[str] | None = None, **kwargs: Any) -> None:
        prefix = tr("cli_help.usage") + " "
        kwargs["add_help"] = False
        kwargs["formatter_class"] = lambda prog: _Formatter(prog, prefix)
        super().__init__(*args, **kwargs)
        self.tr = tr
        #: the texts of our own type errors (already in the banker's language), shared by a parser's subparsers
        self.own: set[str] = set() if own is None else own
        self.positionals = self.add_argument_group(tr("cli_help.positionals"))
        self.options = self.add_argument_group(tr("cli_help.options"))
        self.options.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS, help=tr("cli_help.help"))
        self.commands: dict[str, Parser] = {}

    def arg(self, *names: str, **kwargs: Any) -> argparse.Action:
        """``add_argument`` into the positional or the options group, as argparse would sort it."""
        group = self.options if names[0].startswith("-") else self.positionals
        return group.add_argument(*names, **kwargs)

    def refuse(self, key: str, **params: Any) -> argparse.ArgumentTypeError:
        """A type conversion's refusal (``[cli_usage]`` ``key``), in the banker's language, for argparse to report."""
        text = self.tr(f"cli_usage.{key}", **params)
        self.own.add(text)
        return argparse.ArgumentTypeError(text)

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """argparse's parse_args, but arguments it does not know are refused by the subcommand they follow
        ("see banker log --help", not "see banker --help")."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            parser = self.commands.get(getattr(parsed, "command", None) or "", self)
            text = self.tr("cli_usage.unrecognized", args=" ".join(extras))
            self.own.add(text)
            parser.error(text)
        return parsed

    def error(self, message: str) -> NoReturn:
        problem = usage_problem(self.tr, message, self.own)
        say_error(self.tr("cli_usage.error", prog=self.prog, problem=problem))  # what was typed may hold ESC
        raise UsageExit(EXIT_USAGE)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise UsageExit(status)


def terminal_safe(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every control or invisible character (ESC, CR, LF, NUL, bidi overrides, bytes that
    were not UTF-8...) written as a ``\\uXXXX`` escape: what an old log holds never drives the
    terminal nor splits a line. The escape is also valid inside a JSON string."""
    return escape_forbidden(text, "\n" if keep_newlines else "")  # an emoji ZWJ sequence ("👩‍🚀 Ann") stays one glyph


def one_line(text: str) -> str:
    return terminal_safe(" ".join(str(text).split()))


def say_error(text: str) -> None:
    try:
        print(one_line(text), file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed: the exit status still says it
        pass


#: argparse's messages (Lib/argparse.py, Python 3.11 to 3.13), as patterns, and the ``[cli_usage]`` key that
#: says each again; the groups are the key's parameters. A wrapped one ("argument X: ...") is read twice.
#: (compiled when an error is first said: ``re``'s own cache; the command's start does not wait for 13 patterns)
TEMPLATES: tuple[tuple[str, str], ...] = (
    ("argument", r"argument (?P<argument>[^:]+?): (?P<problem>.+)"),
    ("required", r"the following arguments are required: (?P<args>.+)"),
    ("one_required", r"one of the arguments (?P<args>.+) is required"),
    ("unrecognized", r"unrecognized arguments: (?P<args>.*)"),
    ("ambiguous", r"ambiguous option: (?P<option>.+?) could match (?P<matches>.+)"),
    ("invalid_choice", r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)"),
    ("invalid_type", r"invalid (?P<type>\S+) value: (?P<value>.+)"),
    ("expected_one", r"expected one argument"),
    ("expected_at_most_one", r"expected at most one argument"),
    ("expected_at_least_one", r"expected at least one argument"),
    ("expected_n", r"expected (?P<n>\d+) arguments?"),
    ("ignored_explicit", r"ignored explicit argument (?P<value>.+)"),
    ("not_allowed_with", r"not allowed with argument (?P<other>.+)"),
)


def usage_problem(tr: Translator, message: str, own: set[str] | frozenset[str] = frozenset()) -> str:
    """argparse's English ``message`` in the banker's language (see the module's docstring); ``own``: texts
    already said by us (a type conversion's refusal), kept as they are."""
    if message in own:
        return message
    for key, pattern in TEMPLATES:
        match = re.fullmatch(pattern, message, re.DOTALL)
        if match is None:
            continue
        params: dict[str, Any] = dict(match.groupdict())
        if key == "argument":
            params["problem"] = usage_problem(tr, params["problem"], own)
        if key == "expected_n":
            params["n"] = int(params["n"])
        if key == "invalid_type":  # the converter's name (int, float): in words where the catalog has them
            params["type"] = tr.get(f"cli_usage.type_{params['type']}", params["type"])
        return tr(f"cli_usage.{key}", **params)
    return tr("cli_usage.other", problem=message)
