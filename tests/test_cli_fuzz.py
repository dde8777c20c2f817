"""Issue #9: hostile input to the ``banker`` command.

``banker apply`` refuses a script line nested too deep in one line naming it, stops at once when
its output pipe closes (exit status non-zero, naming the last line applied), reads standard input
line by line even when a line is not UTF-8; an unexpected error is one line, never a traceback.
Then a seeded fuzz (tests/cli_fuzz_cases.py; ``bench/fuzz_cli.py`` runs many more): every hostile
case gets a non-zero exit status, exactly one line on stderr, no traceback, and the session files
byte for byte as they were.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from banker import cli
from banker.cli import main
from banker.ledger import Session

from .cli_fuzz_cases import Case, cases, make_odd_files, make_table, problems, run_in_process

ROOT = Path(__file__).resolve().parent.parent
#: in-process cases run by ``make test`` (bench/fuzz_cli.py runs thousands)
FUZZ_CASES = 300
FUZZ_SEED = 20240609


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def banker(*argv: str | bytes, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("BANKER_TRACEBACK", None)
    return subprocess.run([sys.executable, "-m", "banker", *argv], input=stdin, capture_output=True, cwd=cwd,
                          env=env, timeout=120)


@pytest.fixture
def table(tmp_path: Path) -> Path:
    return make_table(tmp_path / "table.json")


def entries(path: Path) -> int:
    with Session.open(path, readonly=True) as s:
        return len(s.entries)


# --------------------------------------------------------------------------- apply
def test_a_script_line_nested_100000_deep_is_one_line_naming_it(capsys, tmp_path, table, file_bytes) -> None:
    before = file_bytes(table)
    script = tmp_path / "deep.jsonl"
    script.write_text('{"op": "salary", "player": "Ann"}\n' + "[" * 100_000 + "\n", encoding="utf-8")
    code, out, err = run(capsys, "apply", str(table), str(script))
    assert code == 1 and out == "Ann collects $200 salary\n"
    assert err == "line 2: not a command: its JSON is nested too deep\n"
    # a depth JSON still reads is refused by the engine, naming the field
    script.write_text('{"op": "salary", "player": "Ann", "x": ' + "[" * 500 + "]" * 500 + "}\n", encoding="utf-8")
    code, out, err = run(capsys, "apply", str(table), str(script))
    assert code == 1 and err.startswith('line 1: salary: "x[0][0][0][0][0][0]" is nested too deep (more than 8 levels)')
    assert entries(table) == 9  # the 8 of the table and line 1
    assert file_bytes(table) != before


def test_a_number_with_thousands_of_digits_is_refused_while_reading_the_line(capsys, tmp_path, table, file_bytes) -> None:
    before = file_bytes(table)
    script = tmp_path / "huge.jsonl"
    for digits in (4300, 5000):
        script.write_text('{"op": "transfer", "from": "bank", "to": "Ann", "amount": ' + "9" * digits + "}\n",
                          encoding="utf-8")
        code, out, err = run(capsys, "apply", str(table), str(script))
        assert (code, out) == (1, "")
        assert err == f"line 1: a number of {digits} digits is far more than any table holds\n"
    script.write_text('{"op": "transfer", "from": "bank", "to": "Ann", "amount": 1200001}\n', encoding="utf-8")
    code, out, err = run(capsys, "apply", str(table), str(script))
    assert err == 'line 1: transfer: "amount" is more than a table can hold: at most $1,200,000\n'
    script.write_text('{"op": "transfer", "from": "bank", "to": "Ann", "amount": NaN}\n', encoding="utf-8")
    code, out, err = run(capsys, "apply", str(table), str(script))
    assert err == "line 1: NaN is not a number JSON allows\n"
    assert file_bytes(table) == before


@pytest.mark.parametrize("from_file", [False, True])
def test_a_script_is_read_line_by_line_and_a_line_that_is_not_utf8_is_named(monkeypatch, capsys, tmp_path, table,
                                                                             from_file: bool) -> None:
    """docs/commands.md: a line that is not UTF-8 is refused as "line N", the lines before it applied, from a file as
    from standard input (a file was refused whole, naming no line: the review probe)."""
    data = (b'\xef\xbb\xbf{"op": "salary", "player": "Ann"}\n{"op": "salary", "player": "B\xffob"}\n'
            b'{"op": "salary", "player": "Cid"}\n')  # with the BOM an editor may put first
    script = tmp_path / "s.jsonl"
    script.write_bytes(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code, out, err = run(capsys, "apply", str(table), str(script) if from_file else "-")
    assert code == 1 and out == "Ann collects $200 salary\n" and err == "line 2: not UTF-8 text\n"
    assert entries(table) == 9


def test_a_closed_output_pipe_stops_apply_at_once_with_a_non_zero_status(tmp_path, table) -> None:
    """The issue: `banker apply g.json script | head -1` exited 0 after applying 2 of 2,000 lines."""
    script = tmp_path / "many.jsonl"
    script.write_text('{"op": "transfer", "from": "bank", "to": "Ann", "amount": 1}\n' * 2000, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-m", "banker", "apply", str(table), str(script)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env) as proc:
        first = proc.stdout.readline()
        proc.stdout.close()  # what `head -1` does after its line
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=120)
    assert first == b"the bank gives Ann $1\n"
    assert code == 1 and "Traceback" not in err and len(err.splitlines()) == 1, err
    applied = entries(table) - 8
    assert 1 <= applied < 2000
    assert err == (f"banker apply: stopped after line {applied}, which is applied and recorded, because the output "
                   "pipe was closed; the lines after it were not applied\n")


def test_a_closed_pipe_in_a_shell_pipeline(tmp_path, table) -> None:
    script = tmp_path / "many.jsonl"
    script.write_text('{"op": "salary", "player": "Bob"}\n' * 2000, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(["bash", "-c", f'"{sys.executable}" -m banker apply "{table}" "{script}" | head -1; '
                          'echo "status ${PIPESTATUS[0]}" >&2'], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout == "Bob collects $200 salary\n"
    lines = done.stderr.splitlines()
    assert lines[-1] == "status 1" and len(lines) == 2 and lines[0].startswith("banker apply: stopped after line ")
    assert entries(table) - 8 < 2000


def test_an_unexpected_error_is_one_line_never_a_traceback(capsys, monkeypatch, table) -> None:
    def broken(*_args):
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(cli, "render_state", broken)
    code, out, err = run(capsys, "state", str(table))
    assert code == cli.EXIT_INTERNAL and out == ""
    assert err == ("banker state: unexpected error (RuntimeError: a bug over two lines); every action recorded "
                   "before it stays recorded; please report it (BANKER_TRACEBACK=1 shows the details)\n")
    monkeypatch.setenv("BANKER_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        main(["state", str(table)])


def test_arguments_that_are_not_utf8_are_refused_in_one_line(tmp_path, table, file_bytes) -> None:
    before = file_bytes(table)
    done = banker(b"new", os.fsencode(tmp_path) + b"/g\xff.json", b"--players", b"Ann,B\xffob")
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr == b"banker new: Player name \"B\\udcffob\" holds a control or invisible character (U+DCFF); " \
                          b"type it in plain letters\n"
    assert not list(tmp_path.glob("g*"))
    done = banker(b"state", os.fsencode(tmp_path) + b"/\xff\x1b.json")
    assert done.returncode == 1 and b"Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert b"\x1b" not in done.stderr
    assert file_bytes(table) == before


# --------------------------------------------------------------------------- the fuzz
def test_fuzz_every_hostile_case_is_refused_in_one_line_and_touches_nothing(tmp_path, table, file_bytes) -> None:
    work = tmp_path / "work"
    work.mkdir()
    make_odd_files(work)
    before = file_bytes(table)
    failures = []
    seen = set()
    for case in cases(FUZZ_SEED, FUZZ_CASES, table, work):
        code, out, err = run_in_process(case, work)
        wrong = problems(case, code, out, err, before, file_bytes(table), work)
        if wrong:
            failures.append(f"{case.label}: {', '.join(wrong)}; stderr {err[:300]!r}")
        seen.add(case.label.split(":")[0])
    assert not failures, "\n".join(failures[:20])
    assert {"script", "stdin", "new", "apply", "state"} <= seen  # the generator reaches every kind


@pytest.mark.parametrize("label, argv, script", [
    pytest.param("deep", ["apply", "{table}", "{script}"], b"[" * 100_000 + b"\n", id="deep"),
    pytest.param("huge", ["apply", "{table}", "{script}"],
                 b'{"op": "transfer", "from": "bank", "to": "Ann", "amount": ' + b"9" * 4300 + b"}\n", id="huge"),
    pytest.param("escape", ["apply", "{table}", "{script}"],
                 b'{"op": "transfer", "from": "Ann", "to": "Bob", "amount": 1, "memo": "\\u001b[2J"}\n', id="escape"),
    pytest.param("not utf-8", ["apply", "{table}", "{script}"], b'{"op": "salary", "player": "\xff"}\n', id="not-utf8"),
    pytest.param("bad players", ["new", "{new}", "--players", "Ann,the bank"], None, id="bad-players"),
])
def test_fuzz_a_few_cases_in_a_real_process(tmp_path, table, file_bytes, label, argv, script) -> None:
    work = tmp_path / "work"
    work.mkdir()
    if script is not None:
        (work / "case.jsonl").write_bytes(script)
    argv = [a.format(table=table, script=work / "case.jsonl", new=work / "new-1.json") for a in argv]
    before = file_bytes(table)
    done = banker(*argv)
    err = done.stderr.decode("utf-8", "replace")
    assert not problems(Case(label, argv), done.returncode, done.stdout.decode(), err, before, file_bytes(table), work)
