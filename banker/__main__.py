"""The ``banker`` command's entry point (``[project.scripts]`` in pyproject.toml) and ``python -m banker``.

Ctrl+C while the command is still loading its modules, or reading its arguments, ends it as it does once the
command runs: one line on stderr, in the banker's language, and the exit status 130; never a traceback (the
session is not open yet, so nothing can be half-written).
"""

from __future__ import annotations

import sys

#: the exit status of a command ended by Ctrl+C (128 + SIGINT), as banker.cli's own
EXIT_INTERRUPTED = 130


def main() -> int:
    try:
        from banker.cli import main as command

        return command()
    except KeyboardInterrupt:
        return interrupted()


def interrupted() -> int:
    """Say that the command was interrupted (in a word of English when even the catalogs cannot be loaded now)."""
    try:
        from banker.cliparse import choose_lang, lang_in, say_error
        from banker.i18n import Translator

        say_error("banker: " + Translator(choose_lang(lang_in(sys.argv[1:])))("cli_said.interrupted"))
    except (KeyboardInterrupt, Exception):  # a second Ctrl+C, or a module that cannot load: the plain words
        sys.stderr.write("banker: interrupted\n")
    return EXIT_INTERRUPTED


if __name__ == "__main__":
    raise SystemExit(main())
