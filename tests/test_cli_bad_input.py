"""Every ``banker`` subcommand given what a hurried or hostile user gives it: an empty name, a file this user may
not read, a path through a file, a disk that refuses. Each answer is one line on stderr that says what to do, in
the banker's language, with a non-zero status, no traceback, and the files as they were (found by a probe running
every subcommand on missing files, folders, links to /dev/zero and to FIFOs, unreadable, empty, random and huge
files, and names holding control characters)."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest

from banker import cli
from banker.cli import main
from banker.i18n import Translator


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(code: int, err: str) -> None:
    assert code != 0
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and "unexpected error" not in err, err


@pytest.fixture
def game(tmp_path: Path, capsys) -> Path:
    path = tmp_path / "game.json"
    assert run(capsys, "new", str(path), "--players", "Ann,Bob")[0] == 0
    return path


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("argv", [
    ["new", "", "--players", "Ann,Bob"], ["apply", "", "-"], ["apply", "{game}", ""], ["state", ""], ["log", ""],
    ["log", "", "--json"], ["open", ""], ["repair", "", "--yes"], ["review", ""], ["export", "", "--format", "json"],
    ["audit", ""], ["serve", ""],
])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_empty_file_name_is_a_usage_error(capsys, tmp_path, game, monkeypatch, argv, lang):
    """`banker log "$FILE"` with FILE unset: log, audit, export and new said "unexpected error (ValueError:
    PosixPath('.') has an empty name) ... please report it" (status 70), the others ". is a folder". An empty name
    is now refused as typed, before anything is read or written (status 2, the command's help named)."""
    monkeypatch.chdir(tmp_path)
    before = files_in(tmp_path)
    code, out, err = run(capsys, "--lang", lang, *[a.format(game=game) for a in argv])
    one_line(code, err)
    assert code == 2 and out == ""
    assert Translator(lang)("cli_usage.empty_name") in err and f"banker {argv[0]} --help" in err, err
    assert files_in(tmp_path) == before


def _deny(monkeypatch, denied: Path, call: str = "open") -> None:
    """This user may not read ``denied`` (root reads every file: a PermissionError raised as the system would)."""
    real = getattr(os, call)

    def refuse(path, *args, **kwargs):
        if isinstance(path, (str, os.PathLike)) and Path(path) == denied:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, call, refuse)


@pytest.mark.parametrize("argv", [["state"], ["log"], ["apply", "-"], ["repair", "--yes"], ["audit"],
                                  ["export", "--format", "json", "--out", "-"]])
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_session_this_user_may_not_read_says_what_to_do(capsys, tmp_path, game, monkeypatch, argv, lang):
    """A session file with no read permission for this user said "cannot read game.json: Permission denied", the
    system's English in every language and nothing to do about it. It is said in the banker's language, with what
    to do (`ls -l`, fix the permissions or run as the owner); nothing is written (no lock file left either)."""
    before = files_in(tmp_path)
    _deny(monkeypatch, game)
    code, out, err = run(capsys, "--lang", lang, argv[0], str(game), *argv[1:])
    one_line(code, err)
    tr = Translator(lang)
    assert tr("session.cannot_read_denied", path=str(game), reason=tr("session.os_EACCES")) in err, err
    assert "Permission denied" not in err and files_in(tmp_path) == before


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_script_this_user_may_not_read_says_what_to_do(capsys, tmp_path, game, monkeypatch, lang):
    script = tmp_path / "moves.jsonl"
    script.write_text('{"op": "salary", "player": "Ann"}\n', encoding="utf-8")
    before = files_in(tmp_path)
    _deny(monkeypatch, script)
    code, out, err = run(capsys, "--lang", lang, "apply", str(game), str(script))
    one_line(code, err)
    tr = Translator(lang)
    assert tr("cli.cannot_read_denied", file=str(script), reason=tr("session.os_EACCES")) in err, err
    assert "Permission denied" not in err and files_in(tmp_path) == before


@pytest.mark.parametrize("argv", [["log"], ["log", "--json"], ["repair", "--yes"], ["audit"], ["export", "--format", "csv"]])
def test_a_path_through_a_file_names_the_session_file_not_its_journal(capsys, tmp_path, game, argv):
    """`banker log plain/x.json`, where plain is a file: "cannot read plain/x.json.journal: Not a directory" named a
    journal the user never typed, in the system's English. Every reader now says it of the session file, as
    `banker state` does, in the banker's words."""
    plain = tmp_path / "plain"
    plain.write_text("", encoding="utf-8")
    before = files_in(tmp_path)
    code, out, err = run(capsys, "--lang", "uk", argv[0], str(plain / "x.json"), *argv[1:])
    one_line(code, err)
    tr = Translator("uk")
    assert tr("session.cannot_read", path=str(plain / "x.json"), reason=tr("session.os_ENOTDIR")) in err, err
    assert ".journal" not in err and files_in(tmp_path) == before


def test_an_export_the_disk_refuses_is_said_in_the_bankers_language(capsys, tmp_path, game, monkeypatch):
    """`banker --lang ru export ... --out` into a folder this user may not write said "Permission denied" in English
    inside the Russian sentence."""
    real = os.open

    def refuse(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and Path(path).parent == tmp_path / "out":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, flags, *args, **kwargs)

    (tmp_path / "out").mkdir()
    monkeypatch.setattr(os, "open", refuse)
    code, out, err = run(capsys, "--lang", "ru", "export", str(game), "--format", "json", "--out", str(tmp_path / "out"))
    one_line(code, err)
    assert "нет прав доступа" in err and "Permission denied" not in err, err
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_a_full_disk_under_standard_output_is_said_in_the_bankers_language(capsys, tmp_path, game, monkeypatch, lang):
    """`banker apply` whose output goes to a file on a full disk stopped saying "because No space left on device",
    the system's English; it says why in the banker's language (the line applied stays applied, as it said)."""
    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cli, "_silence_stdout", lambda: None)
    script = tmp_path / "moves.jsonl"
    script.write_text('{"op": "salary", "player": "Ann"}\n{"op": "salary", "player": "Bob"}\n', encoding="utf-8")
    with monkeypatch.context() as m:
        m.setattr("sys.stdout", Full())
        code = main(["--lang", lang, "apply", str(game), str(script)])
    err = capsys.readouterr().err
    one_line(code, err)
    tr = Translator(lang)
    assert tr("cli.stopped", n=1, reason=tr("session.os_ENOSPC")) in err, err


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_os_error_no_sentence_was_made_for_is_said_in_the_bankers_language(capsys, game, monkeypatch, lang):
    """The last resort for an OSError the session log did not turn into a sentence of its own said the system's
    English ("No space left on device") inside the banker's sentence."""
    def full(path):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cli, "read_session", full)
    code, out, err = run(capsys, "--lang", lang, "log", str(game))
    one_line(code, err)
    assert Translator(lang)("session.os_ENOSPC") in err and "No space left on device" not in err, err


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("how", ["file", "stdin"])
def test_a_session_file_given_as_the_script_is_named_for_what_it_is(capsys, tmp_path, game, monkeypatch, lang, how):
    """`banker apply game.json other.json` (the session twice, or the arguments mixed up) read the other session's
    document as a command and said 'line 1: command: "snapshot.1.table[1]" is more than a table can hold'. It says
    the line is a session file, and which argument comes first; nothing is recorded."""
    other = tmp_path / "other.json"
    assert run(capsys, "new", str(other), "--players", "Cid,Dan")[0] == 0
    before = files_in(tmp_path)
    if how == "stdin":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(other.read_bytes())))
    code, out, err = run(capsys, "--lang", lang, "apply", str(game), str(other) if how == "file" else "-")
    one_line(code, err)
    tr = Translator(lang)
    assert err == tr("cli.line", n=1, error=tr("cli.session_as_script")) + "\n", err
    assert out == "" and files_in(tmp_path) == before


@pytest.mark.parametrize(("version", "said"), [('"9"', '"9"'), ("null", "null"), ("true", "true"), ("0", "0")])
@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_session_files_bad_version_is_said_as_the_file_writes_it(capsys, tmp_path, lang, version, said):
    """Found by the second-opinion probe: a session file whose format version is not a whole number was refused
    "bad format version '9'" ("неверная версия формата '9'", None for null, True for true): Python's repr, the old
    quoting every other refusal has left. A file's value is said as JSON writes it, as a script's values are."""
    path = tmp_path / "game.json"
    path.write_text('{"session": {"1": {"format": "banker-session", "version": ' + version + "}}}")
    code, out, err = run(capsys, "--lang", lang, "state", str(path))
    one_line(code, err)
    assert Translator(lang)("session.why_bad_version", version=said) in err, err
    assert "'" not in err and "None" not in err and "True" not in err, err


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_session_files_missing_marker_is_named_as_the_file_would_write_it(capsys, tmp_path, lang):
    path = tmp_path / "game.json"
    path.write_text('{"session": {"1": {"format": "something-else"}}}')
    code, out, err = run(capsys, "--lang", lang, "state", str(path))
    one_line(code, err)
    assert Translator(lang)("session.why_no_marker", marker='"banker-session"') in err and "'" not in err, err
