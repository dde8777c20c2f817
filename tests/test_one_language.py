"""Issue #12, one language everywhere: ``--lang`` (and the locale) governs every word banker says, on every
surface: the headless commands, the console's screens and dialogs, the command line; the edition's own words
come from the board data; the English is grammatical; every plural goes through the catalogs.

The sweeps run each surface in Russian and Ukrainian and look for Latin words: what is left must be a name, an
id or a unit, and those are few enough to list (:data:`ALLOWED`)."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from banker import cli
from banker.boards import load_edition, new_game
from banker.i18n import LANGS, LISTS, Translator, catalog
from banker.rules import BoardError, GameState, Refused
from banker.rules.edition import edition_from_dict
from banker.rules.messages import LISTS as ENGINE_LISTS
from banker.rules.messages import Counted, Msg
from banker.ui import quick
from banker.ui.app import BankerApp
from banker.ui.screens.start import default_edition

from .ui_helpers import Banker, make_session, midgame_commands

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
#: a Latin word: two letters or more (a one-letter unit such as Kyiv's "M" is not a word)
LATIN = re.compile(r"[A-Za-z][A-Za-z'’]+")
#: the Latin words a Russian or Ukrainian banker may meet: the program's name, the publisher in the Russian
#: edition's name, the format JSON and the QR code, the key caps the footer and the help show, the words of the
#: file names given on the command line
ALLOWED = {"banker", "Hasbro", "JSON", "QR", "ctrl", "esc", "Enter", "Tab", "tab", "json", "kyiv", "short", "agreed", "end", "ru",
           "new"}


def latin_words(text: str) -> set[str]:
    return {w for w in LATIN.findall(text) if w not in ALLOWED}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def samples(tmp_path: Path, monkeypatch) -> dict[str, Path]:
    monkeypatch.chdir(tmp_path)
    out = {}
    for name in ("ru-short", "kyiv-agreed-end"):
        shutil.copy(SAMPLES / f"{name}.json", tmp_path / f"{name}.json")
        out[name] = Path(f"{name}.json")
    return out


# --------------------------------------------------------------------------- the headless commands
@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_command_speaks_the_bankers_language(capsys, samples, lang: str) -> None:
    """log, state, audit, export, cards, new and apply (what it prints and a refusal) in Russian and Ukrainian: no
    English word is left, whether --lang comes before the command or after it."""
    said = []
    for path in samples.values():
        for command in ("log", "state", "audit"):
            code, out, err = run(capsys, "--lang", lang, command, str(path))
            assert code == 0 and out, (command, err)
            said.append(out + err)
            assert run(capsys, command, "--lang", lang, str(path))[1] == out  # the same after the command
        code, out, err = run(capsys, "--lang", lang, "export", str(path), "--format", "markdown", "--out", "-")
        said.append(out + err)
    code, out, _ = run(capsys, "--lang", lang, "cards", "--edition", "kyiv")
    said.append(out.splitlines()[0])  # the header (the cards' texts are the board's, their effects data)
    code, out, err = run(capsys, "--lang", lang, "new", "new.json", "--edition", "ru", "--variant", "short",
                         "--players", "Аня,Боря", "--house-rule", "free-parking-pot")
    assert code == 0, err
    said.append(out)
    Path("s.jsonl").write_text('{"op": "deal", "player": "Аня", "space": 1}\n'
                               '{"op": "buy", "player": "Боря", "space": 1}\n', encoding="utf-8")
    code, out, err = run(capsys, "--lang", lang, "apply", "new.json", "s.jsonl")
    assert code == 1 and out and err
    said.append(out + err)
    code, out, err = run(capsys, "--lang", lang, "new", "kyiv.json", "--edition", "kyiv", "--players", "Оля,Тарас",
                         "--follow")
    said.append(out)
    Path("k.jsonl").write_text('{"op": "roll", "player": "Оля", "dice": [1, 2]}\nnot json\n', encoding="utf-8")
    code, out, err = run(capsys, "--lang", lang, "apply", "kyiv.json", "k.jsonl")
    said.append(out + err)
    said.append(run(capsys, "--lang", lang, "state", "kyiv.json")[1])
    text = "\n".join(said)
    assert latin_words(text) == set(), text


def test_the_log_of_the_russian_sample_reads_in_russian(capsys) -> None:
    """The issue's example: `banker --lang ru log sample_sessions/ru-short.json` printed English sentences."""
    _, out, _ = run(capsys, "--lang", "ru", "log", str(SAMPLES / "ru-short.json"))
    assert "Алексей получает при раздаче участок Рязанский проспект и платит 180 т.р." in out.splitlines()[0]
    _, out, _ = run(capsys, "--lang", "uk", "log", str(SAMPLES / "ru-short.json"))
    assert "Алексей отримує під час роздачі ділянку Рязанский проспект" in out.splitlines()[0]


def test_the_locale_chooses_the_language_when_no_lang_is_given(capsys, monkeypatch) -> None:
    monkeypatch.setenv("LC_ALL", "uk_UA.UTF-8")
    _, out, _ = run(capsys, "audit", str(SAMPLES / "kyiv-agreed-end.json"))
    assert "усе сходиться" in out
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    _, out, _ = run(capsys, "audit", str(SAMPLES / "kyiv-agreed-end.json"))
    assert "all consistent" in out


# --------------------------------------------------------------------------- grammatical English
def test_english_counts_agree_with_their_number(capsys, tmp_path: Path) -> None:
    """"1 actions", "1 hotels", "short game game" are gone: a session of one action, a bank with one hotel left."""
    game = tmp_path / "g.json"
    assert run(capsys, "--lang", "en", "new", str(game), "--variant", "short", "--players", "Ann,Bob")[0] == 0
    out = capsys.readouterr().out
    code, out, err = run(capsys, "--lang", "en", "new", str(tmp_path / "t.json"), "--variant", "timed",
                         "--end-time", "90m", "--players", "Ann,Bob")
    assert code == 0 and "time-limit game;" in out and "game game" not in out, err
    commands = [{"op": "deal", "player": "Ann", "space": 1}]
    (tmp_path / "s.jsonl").write_text("\n".join(__import__("json").dumps(c) for c in commands), encoding="utf-8")
    assert run(capsys, "apply", str(game), str(tmp_path / "s.jsonl"))[0] == 0
    _, out, _ = run(capsys, "--lang", "en", "state", str(game))
    head = out.splitlines()[0]
    assert head.endswith("short game; 1 log entry, 1 action standing"), head
    assert "bank: 32 houses and 12 hotels left" in out
    tr = Translator("en")
    assert tr("cli.hotels", n=1) == "1 hotel" and tr("audit.problems", path="x", n=1, entries="2 entries") == \
        "x: 1 problem in 2 entries:"


def test_no_nested_brackets_and_no_end_said_twice() -> None:
    """"(4 x the roll of 7 (1 utility))" and "End of game; The game ends" read as one sentence each now."""
    game = new_game("classic-us", "classic", ["Ann", "Bob"])
    game.push({"op": "buy", "player": "Ann", "space": 12})
    move = game.push({"op": "rent", "payer": "Bob", "space": 12, "dice": 7})
    text = Translator("en").parts(move.parts)
    assert text == "Bob pays Ann $28 rent on Electric Company (4 x the roll of 7 with 1 utility)", text
    move = game.push({"op": "end_game"})
    text = Translator("en").parts(move.parts)
    assert text.startswith("End of game; Ann wins (agreed end). Valuation: "), text
    assert "The game ends" not in text and text.count("(") == 1


# --------------------------------------------------------------------------- the edition's own words
@pytest.mark.parametrize(("lang", "expected"), [
    ("uk", "M50: у власника 2 станції метро"), ("ru", "M50: у владельца 2 станции метро"),
    ("en", "M50 for 2 metro stations")])
def test_kyiv_names_its_railroads_metro_stations(lang: str, expected: str) -> None:
    """The Kyiv book: "Місцями подорожей стали станції метро"; "Підприємства: Міжнародний аеропорт «Жуляни» та
    Міжнародний аеропорт «Бориспіль»" (ua-kyiv-edition-rules.txt). The words are the board file's ([words])."""
    game = new_game("kyiv", "classic", ["Оля", "Тарас"])
    for pos in (5, 15, 12):
        game.push({"op": "buy", "player": "Оля", "space": pos})
    text = Translator(lang).parts(game.push({"op": "rent", "payer": "Тарас", "space": 5}).parts)
    assert expected in text, text
    text = Translator(lang).parts(game.push({"op": "rent", "payer": "Тарас", "space": 12, "dice": 5}).parts)
    one = {"uk": "1 аеропорт", "ru": "1 аэропорт", "en": "1 airport"}[lang]
    assert one in text and "підприєм" not in text and "предприят" not in text and "utilit" not in text, text


def test_the_words_survive_the_log_and_other_editions_keep_theirs() -> None:
    counted = Counted("count.railroads", 3, load_edition("kyiv").kind_forms("railroad"))
    again = Msg.from_json(Msg("how.railroads-of", amount="M100", count=counted).to_json())
    assert again.render() == "M100 for 3 metro stations"
    assert again.render(catalog("uk")["engine"], "uk") == "M100: у власника 3 станції метро"
    game = new_game("classic-us", "classic", ["Ann", "Bob"])
    game.push({"op": "buy", "player": "Ann", "space": 5})
    move = game.push({"op": "rent", "payer": "Bob", "space": 5})
    assert move.parts[0]["params"]["how"]["msg"]["key"] == "how.railroads"  # as before: older logs read the same
    assert Translator("en").parts(move.parts).endswith("($25 for 1 railroad)")
    assert Translator("en").group(load_edition("classic-us"), "utility") == "Utilities"
    assert Translator("uk").group(load_edition("kyiv"), "utility") == "Аеропорти"
    assert Translator("en").group(load_edition("uk"), "railroad") == "Stations"


def test_a_board_files_words_need_every_plural_form() -> None:
    board = Path(cli.__file__).parent / "boards" / "kyiv.toml"
    data = __import__("tomllib").loads(board.read_text(encoding="utf-8"))
    data["words"]["uk"]["railroad"]["forms"] = ["станція метро", "станції метро"]
    with pytest.raises(BoardError, match=r"words\.uk\.railroad: forms must be 3 plural forms"):
        edition_from_dict(data)
    data["words"]["fr"] = {}
    del data["words"]["uk"]
    with pytest.raises(BoardError, match=r"words\.fr: unknown language"):
        edition_from_dict(data)


def test_every_plural_in_the_catalogs_has_its_languages_forms() -> None:
    """English two forms, Russian and Ukrainian three, in every table of every catalog (ui and engine); a sentence that
    says a list and not its number two in every language, one or several (banker.i18n.LISTS, messages.LISTS)."""
    for lang in LANGS:
        forms = 2 if lang == "en" else 3
        cat = catalog(lang)
        for key, value in [*cat["ui"].items(), *cat["engine"].items()]:
            if isinstance(value, list):
                assert len(value) == (2 if key in LISTS or key in ENGINE_LISTS else forms), (lang, key)


# --------------------------------------------------------------------------- the command line and the footer
def test_every_action_label_parses_as_its_action() -> None:
    """The footer says "Покупка" and the line took only "купить": every action's label, in each language, typed
    whole or by its first word where no other action has that word, is that action."""
    game = new_game("classic-us", "classic", ["Ann", "Bob", "Cid"])
    for lang in LANGS:
        tr = Translator(lang)
        for op in quick.VERBS:
            label = tr(f"action.{op}")
            assert _parsed(game, label, op), (lang, label)
            first = quick.normalize(label).split()[0]
            if first in quick.verbs()[op]:
                assert quick.match_verb(first) == op, (lang, first)
    for word, op in (("Покупка", "buy"), ("Строительство", "build"), ("Залог", "mortgage"), ("Купівля", "buy"),
                     ("Будівництво", "build"), ("Застава", "mortgage"), ("Конец хода", "end_turn")):
        assert _parsed(game, word, op)


def _parsed(game: GameState, line: str, op: str) -> bool:
    try:
        return quick.parse(game, line).op == op
    except quick.QuickError as e:  # the words after the verb may be refused; the verb must be the op's
        raise AssertionError(f"{line!r}: {e}") from None


# --------------------------------------------------------------------------- the console
def screen_words(app: BankerApp) -> str:
    """Every character the screen shows, as text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


async def _sweep(app: BankerApp, keys: list[list[str]]) -> str:
    seen = []
    async with app.run_test(size=(160, 50)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        seen.append(screen_words(app))
        for sequence in keys:
            for key in sequence:
                if key.startswith("tab:"):
                    app.screen.action_tab(key[4:])
                    for _ in range(30):
                        await pilot.pause()
                else:
                    await b.key(key)
            await b.settle()
            await pilot.pause()
            seen.append(screen_words(app))
    return "\n".join(seen)


@pytest.mark.parametrize(("lang", "sample"), [("ru", "ru-short"), ("uk", "kyiv-agreed-end")])
async def test_the_consoles_screens_in_russian_and_ukrainian(samples, lang: str, sample: str) -> None:
    """The table, the help, and the review's timeline, summary and audit of a finished evening: no English word."""
    app = BankerApp(str(samples[sample]), lang=lang)
    text = await _sweep(app, [["question_mark"], ["escape", "v"], ["tab:summary"], ["tab:audit"]])
    assert latin_words(text) == set(), sorted(latin_words(text))
    if sample == "kyiv-agreed-end":  # the review's rent by group names the metro stations, never "railroad"
        assert "Станції метро" in text and "railroad" not in text


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_trade_dialog_and_the_command_line_in_words(tmp_path: Path, lang: str) -> None:
    """An empty trade says what to choose, never "fill "give" and/or "get""; a mistyped line is refused in the
    banker's language."""
    players = ("Аня", "Боря", "Вика", "Гена", "Даша")
    path = make_session(tmp_path / "g.json", players, edition="ru", commands=midgame_commands(players))
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(160, 50)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        app.start_action("trade", {"from": "Аня", "to": "Боря"})
        await b.settle()
        for _ in range(20):
            await pilot.pause()
        text = screen_words(app)
        assert "give" not in text and "get" not in text
        assert ("выберите, что отдаёт каждый игрок" if lang == "ru" else "виберіть, що віддає кожен гравець") in text
        await b.key("escape")
        await b.settle()
        await b.key("colon")
        await b.type("покупко")
        await b.key("enter")
        await pilot.pause()
        text = screen_words(app).replace("lunch", "")  # a transfer's memo, as the banker typed it
    assert latin_words(text) == set(), sorted(latin_words(text))
    assert "неизвестное действие" in text or "невідома дія" in text


def test_a_console_refusal_names_no_key_of_a_command() -> None:
    for lang in LANGS:
        said = Translator(lang).console_refusal(Refused("input", Msg("input.trade-empty")))
        assert '"give"' not in said and "get" not in said
    assert Translator("en").refusal(Refused("input", Msg("input.trade-empty"))).endswith('fill "give" and/or "get"')


# --------------------------------------------------------------------------- the start screen
@pytest.mark.parametrize(("lang", "edition", "first"), [("en", "classic-us", "Ann"), ("ru", "ru", "Аня"),
                                                         ("uk", "kyiv", "Олена")])
async def test_the_new_game_form_offers_the_bankers_board_and_names(tmp_path: Path, lang: str, edition: str,
                                                                   first: str) -> None:
    from textual.widgets import Checkbox, Input, Select

    assert default_edition(lang) == edition
    app = BankerApp(lang=lang, data_dir=Path("/дані-банкіра"))  # not there: the form only shows it
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.query_one("#edition", Select).value == edition
        assert screen.query_one("#player-names", Input).value.startswith(first)
        go = screen.query_one("#go")
        assert go.region.bottom <= app.size.height - 1, "the Start button is below the fold"  # above the footer
        assert screen.query_one("#follow", Checkbox).value  # follow the board: ticked by default (issue #11)
        for box in screen.query(Checkbox):  # an unticked box shows nothing: its mark is drawn in the background
            box.value = False
            await pilot.pause()
            style = box.get_visual_style("toggle--button")
            assert style.foreground == style.background, box.id
            box.value = True
            await pilot.pause()
            style = box.get_visual_style("toggle--button")
            assert style.foreground != style.background, box.id
        text = screen_words(app)
    if lang != "en":
        assert latin_words(text) == set(), sorted(latin_words(text))


# --------------------------------------------------------------------------- the session log's own messages
LEDGER = Path(__file__).resolve().parent.parent / "banker" / "ledger"


def _session_keys() -> set[str]:
    """Every key a SessionError (SessionDamaged, TableChanged) or a Said clause of the session log carries."""
    import ast

    keys: set[str] = set()
    files = [*LEDGER.glob("*.py"), LEDGER.parent / "ui" / "app.py"]
    for file in files:
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id in ("SessionError", "SessionDamaged", "TableChanged"):
                found = [k.value for k in node.keywords if k.arg == "key"]
                assert found or any(k.arg is None for k in node.keywords), f"{file.name}:{node.lineno}: no key"
            elif node.func.id == "Said" and len(node.args) >= 2:
                found = [node.args[1]]
            else:
                continue
            for value in found:
                options = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
                for option in options:
                    if isinstance(option, ast.Constant) and isinstance(option.value, str):
                        keys.add(option.value)
    return keys


def _fields(template: str | list[str]) -> set[str]:
    import string

    texts = template if isinstance(template, list) else [template]
    return {f for text in texts for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_session_message_is_in_every_catalog_with_its_placeholders() -> None:
    """Every key a SessionError or a Said clause of banker/ledger carries is in the [session] table of en, ru
    and uk, with the same placeholders; every SessionError raised carries a key."""
    keys = _session_keys()
    assert len(keys) > 60
    english = catalog("en")["ui"]
    for key in sorted(keys):
        assert f"session.{key}" in english, key
        for lang in ("ru", "uk"):
            theirs = catalog(lang)["ui"].get(f"session.{key}")
            assert theirs is not None, (lang, key)
            assert _fields(theirs) == _fields(english[f"session.{key}"]), (lang, key)


def _said_words(text: str) -> set[str]:
    """Latin words outside the commands quoted in backticks (`banker repair x.json`: a command to type)."""
    return latin_words(re.sub(r"`[^`]*`|^banker \w+:", "", text, flags=re.M))


def test_english_session_messages_are_the_ledgers_own(tmp_path: Path) -> None:
    """The English catalog says a SessionError as its str() does (the ledger's English, for logs and tests)."""
    from banker.ledger import Session, SessionError

    tr = Translator("en")
    (tmp_path / "bad.json").write_text('{"_default": {}\n  "x": 1}', encoding="utf-8")
    for path in (tmp_path / "none.json", tmp_path / "bad.json", tmp_path):
        with pytest.raises(SessionError) as e:
            Session.open(path, readonly=True)
        assert tr.session(e.value) == str(e.value)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_session_logs_messages_in_the_bankers_language(capsys, tmp_path: Path, monkeypatch, lang: str) -> None:
    """A missing file, a file that is not JSON (where it stops being JSON: line and column, in our words), a
    session open in another process, a damaged one (state's warning, repair's listing and its refusal): said
    in Russian and Ukrainian by the command line."""
    import json as jsonlib
    import socket

    from banker.ledger import Session

    monkeypatch.chdir(tmp_path)
    said = []
    code, out, err = run(capsys, "--lang", lang, "state", "нет.json")
    assert code != 0 and "нет.json" in err
    said.append(err)
    Path("плохой.json").write_text('{"_default": {}\n  "x": 1}', encoding="utf-8")
    code, out, err = run(capsys, "--lang", lang, "state", "плохой.json")
    assert code != 0 and "2" in err and "3" in err
    said.append(err)
    shutil.copy(SAMPLES / "ru-short.json", "игра.json")
    with Session.open("игра.json"):
        code, out, err = run(capsys, "--lang", lang, "open", "игра.json")
        assert code != 0
        said.append(err.replace(socket.gethostname(), "хост"))  # the host's name is a name
    data = jsonlib.loads(Path("игра.json").read_text(encoding="utf-8"))
    del data["entries"][str(len(data["entries"]))]  # entries missing from the end (what the rules say of a changed entry
    # is not translated yet: explain_changes)
    Path("игра.json").write_text(jsonlib.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out, err = run(capsys, "--lang", lang, "state", "игра.json")
    assert code == 0 and err
    said.append(err)
    code, out, err = run(capsys, "--lang", lang, "repair", "игра.json")
    assert code != 0
    said.append(out + err)
    for text in said:
        assert not _said_words(text), (text, _said_words(text))


# --------------------------------------------------------------------------- the banker command's own words
COMMANDS = ("new", "apply", "state", "log", "cards", "open", "repair", "review", "export", "audit", "serve")


def _typed_words() -> set[str]:
    """The Latin words a help text may show because they are typed as they are: the commands, the editions, the
    variants, the house rules, the languages, the export formats (an id's parts: "classic-us" is "classic", "us")."""
    from banker.boards import EDITIONS, load_variants
    from banker.rules import HouseRules

    ids = [*COMMANDS, *EDITIONS, *load_variants(), *HouseRules.names(), *LANGS, "csv", "markdown", "json", "Ctrl"]
    return {w for i in ids for w in LATIN.findall(i)}


def _help_words(text: str) -> set[str]:
    """Latin words of a help or an error, outside what is typed as it is: options (--players, -h), a choice list
    ({en,ru,uk}), a quoted value ('nwe', «kiev»), file names and paths (docs/commands.md, friday.export.json)."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"'[^']*'|«[^»]*»", " ", text)
    text = re.sub(r"(?<![\w-])--?[A-Za-z][\w-]*", " ", text)
    text = re.sub(r"\S*[./]\S*", " ", text)
    return latin_words(text) - _typed_words()


def _pieces(tr: Translator, key: str) -> list[str]:
    """The words of a catalog sentence between its placeholders (each must be in what is said)."""
    import string

    template = tr._ui[key] if isinstance(tr._ui[key], str) else tr._ui[key][-1]
    return [literal.strip() for literal, *_ in string.Formatter().parse(template) if literal.strip()]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_commands_help_in_the_bankers_language(capsys, monkeypatch, lang: str) -> None:
    """`banker --help` and every subcommand's --help in Russian and Ukrainian: the usage line, the section
    titles, -h's own line, every help text and metavar; only what is typed as it is (options, commands, ids,
    file names) stays Latin. --lang before or after the subcommand, or the locale, chooses the language."""
    monkeypatch.setenv("COLUMNS", "500")  # one line an argument: no id cut at its hyphen
    tr = Translator(lang)
    for argv in ([], *([c] for c in COMMANDS)):
        code, out, err = run(capsys, "--lang", lang, *argv, "--help")
        assert code == 0 and not err, err
        assert out.startswith(tr("cli_help.usage") + " banker"), out
        assert tr("cli_help.help") in out and tr("cli_help.options") in out
        assert _help_words(out) == set(), (argv, sorted(_help_words(out)), out)
        if argv:
            assert tr(f"cli_help.cmd_{argv[0]}") in out  # what the command does, under its usage
            assert run(capsys, *argv, "--help", f"--lang={lang}")[1] == out  # after the subcommand too
    monkeypatch.setenv("LC_ALL", {"ru": "ru_RU.UTF-8", "uk": "uk_UA.UTF-8"}[lang])
    code, out, _ = run(capsys, "new", "--help")
    assert out.startswith(tr("cli_help.usage")) and tr("cli_help.new_follow")[:20] in out


def test_the_english_help_stays_english(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "500")
    code, out, _ = run(capsys, "--lang", "en", "new", "--help")
    assert code == 0 and out.startswith("usage: banker new [-h] [--edition EDITION]"), out
    assert "positional arguments:\n  FILE " in out and "  -h, --help " in out and "show this help message and exit" in out
    assert "player names in seating order, comma-separated: Ann,Bob,Cid" in out
    code, out, _ = run(capsys, "--lang", "en", "--help")
    assert "commands:\n  COMMAND\n    new " in out


@pytest.mark.parametrize(("lang", "said"), [("en", "Without a subcommand: the console, to start a new game or resume one."),
                                            ("ru", "Без команды — консоль: начать новую игру или продолжить сохранённую."),
                                            ("uk", "Без команди — консоль: почати нову гру або продовжити збережену.")])
def test_banker_help_says_what_banker_alone_opens(capsys, monkeypatch, lang: str, said: str) -> None:
    """Found by the hardest-user probe: `banker --help` said "Without a subcommand: the table screen", but `banker`
    alone opens the start screen (a new game, or one to resume), as the README and docs/commands.md say."""
    monkeypatch.setenv("COLUMNS", "500")
    code, out, _ = run(capsys, "--lang", lang, "--help")
    assert code == 0 and said in out, out


def _usage_cases(lang: str) -> list[tuple[str, list[str], str, str, dict]]:
    """(kind, argv, the parser's prog, the [cli_usage] key, its parameters): one case per kind of usage error
    argparse can raise in `banker` (the rest: test_argparses_own_messages_are_all_read_back)."""
    commands = ", ".join(repr(c) for c in COMMANDS)
    return [
        ("required", ["new", "x.json"], "banker new", "required", {"args": "--players"}),
        ("invalid choice (command)", ["nwe", "x.json"], "banker", "invalid_choice",
         {"value": "'nwe'", "choices": commands}),
        ("invalid choice (option)", ["export", "k.json", "--format", "xml"], "banker export", "invalid_choice",
         {"value": "'xml'", "choices": "'csv', 'markdown', 'json'"}),
        ("a port", ["serve", "k.json", "--port", "abc"], "banker serve", "port", {"value": "abc"}),
        ("unrecognized", ["log", "k.json", "--bogus"], "banker log", "unrecognized", {"args": "--bogus"}),
        ("expected one argument", ["new", "y.json", "--players"], "banker new", "expected_one", {}),
        ("ambiguous", ["new", "y.json", "--e", "kyiv", "--players", "A,B"], "banker new", "ambiguous",
         {"option": "--e", "matches": "--edition, --end-time"}),
        ("ignored explicit argument", ["new", "y.json", "--players", "A,B", "--follow=yes"], "banker new",
         "ignored_explicit", {"value": "'yes'"}),
    ]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_usage_errors_in_the_bankers_language(capsys, tmp_path: Path, monkeypatch, lang: str) -> None:
    """Each kind of usage error argparse raises in `banker` (a required argument, an invalid choice, our own port
    check, an unrecognized argument, a missing value, an ambiguous or an abbreviated option, a value a flag does
    not take) is one line in Russian and Ukrainian, with its "(see banker X --help)" hint: exactly the catalog's
    sentence, never the fallback that quotes argparse's English."""
    monkeypatch.chdir(tmp_path)
    tr = Translator(lang)
    for kind, argv, prog, key, params in _usage_cases(lang):
        code, out, err = run(capsys, "--lang", lang, *argv)
        problem = tr(f"cli_usage.{key}", **params)
        if kind.startswith("invalid choice") or kind in ("a port", "expected one argument", "ignored explicit argument"):
            name = {"invalid choice (command)": tr("cli_help.command_metavar"), "invalid choice (option)": "--format",
                    "a port": "--port", "expected one argument": "--players", "ignored explicit argument": "--follow"}
            problem = tr("cli_usage.argument", argument=name[kind], problem=problem)
        assert code == 2 and not out, kind
        assert err == tr("cli_usage.error", prog=prog, problem=problem) + "\n", (kind, err)
        assert _help_words(err) == set(), (kind, err)
    monkeypatch.setenv("LC_ALL", {"ru": "ru_RU.UTF-8", "uk": "uk_UA.UTF-8"}[lang])
    code, out, err = run(capsys, "--lang", "fr", "state", "x.json")  # not a language: the locale's says so
    assert code == 2 and err.startswith("banker: " + _pieces(tr, "cli_usage.argument")[0]), err
    assert _pieces(tr, "cli_usage.invalid_choice")[0] in err and _help_words(err) == set(), err


def test_english_usage_errors_read_as_before(capsys) -> None:
    code, out, err = run(capsys, "--lang", "en", "nwe", "x.json")
    assert err.startswith("banker: argument COMMAND: invalid choice: 'nwe' (choose from 'new', 'apply'"), err
    assert err.endswith(") (see banker --help)\n")
    code, out, err = run(capsys, "--lang", "en", "log", "k.json", "--bogus")
    assert err == "banker log: unrecognized arguments: --bogus (see banker log --help)\n"  # the subcommand's help
    code, out, err = run(capsys, "--lang", "en", "serve", "k.json", "--port", "x")
    assert err == ("banker serve: argument --port: not a port number: \"x\" (0 to 65535; 0 takes any free port) "
                   "(see banker serve --help)\n")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_argparses_own_messages_are_all_read_back(capsys, lang: str) -> None:
    """Every message of argparse that banker's parser can meet, made by argparse itself (so that a Python that
    rewords one fails here rather than leak English to a banker), is read back into its [cli_usage] key: the
    kinds `banker`'s own arguments cannot raise today (an int argument, two arguments that exclude each
    other, one of them required, several values) on a parser of the same class."""
    from banker.cliparse import TEMPLATES, Parser, UsageExit

    tr = Translator(lang)
    parser = Parser(prog="banker test", tr=tr)
    parser.arg("--count", type=int)
    parser.arg("--many", nargs="+")
    parser.arg("--two", nargs=2)
    either = parser.add_mutually_exclusive_group()
    either.add_argument("--this", action="store_true")
    either.add_argument("--that", action="store_true")
    needed = parser.add_mutually_exclusive_group(required=True)
    needed.add_argument("--one", action="store_true")
    needed.add_argument("--other", action="store_true")
    cases = {
        "invalid_type": (["--one", "--count", "x"], {"type": tr("cli_usage.type_int"), "value": "'x'"}, "--count"),
        "not_allowed_with": (["--one", "--this", "--that"], {"other": "--this"}, "--that"),
        "one_required": ([], {"args": "--one --other"}, None),
        "expected_at_least_one": (["--one", "--many"], {}, "--many"),
        "expected_n": (["--one", "--two", "a"], {"n": 2}, "--two"),
    }
    seen = set()
    for key, (argv, params, argument) in cases.items():
        with pytest.raises(UsageExit):
            parser.parse_args(argv)
        err = capsys.readouterr().err
        problem = tr(f"cli_usage.{key}", **params)
        if argument:
            problem = tr("cli_usage.argument", argument=argument, problem=problem)
        assert err == tr("cli_usage.error", prog="banker test", problem=problem) + "\n", (key, err)
        seen.add(key)
    kinds = {key for key, _ in TEMPLATES} - {"argument", "expected_at_most_one"}  # at most one: argparse's '?' never fails
    assert kinds - seen <= {k for case in _usage_cases(lang) for k in [case[3]]}, kinds - seen


def test_the_language_is_read_from_the_arguments_as_argparse_reads_them() -> None:
    """The pre-scan that chooses the parser's language agrees with what argparse then parses."""
    from banker.cli import build_parser
    from banker.cliparse import lang_in

    for argv, lang in [(["--lang", "ru", "log", "g.json"], "ru"), (["log", "g.json", "--lang=uk"], "uk"),
                       (["--lang", "ru", "log", "g.json", "--lang", "uk"], "uk"), (["--la", "uk", "state", "g"], "uk"),
                       (["state", "g.json"], None), (["new", "g.json", "--players", "A,B", "--name", "--lang"], None)]:
        assert lang_in(argv) == lang, argv
        if lang is not None:
            assert build_parser(lang).parse_args(argv).lang == lang
    assert lang_in(["--lang", "fr", "state"]) is None and lang_in(["state", "--", "--lang", "ru"]) is None


def test_every_board_error_carries_a_key_of_the_catalogs() -> None:
    """Every BoardError raised in banker/ names its [board_error] sentence (a key, with the sentence's
    parameters): the boards layer has no words of its own, the command line and the console say them."""
    import ast

    english = catalog("en")["ui"]
    found = 0
    for file in Path(cli.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "BoardError":
                found += 1
                assert len(node.args) == 2 and isinstance(node.args[1], ast.Constant), f"{file.name}:{node.lineno}"
                key = f"board_error.{node.args[1].value}"
                assert key in english, f"{file.name}:{node.lineno}: {key}"
                assert {k.arg for k in node.keywords} == _fields(english[key]), f"{file.name}:{node.lineno}"
    assert found >= 10


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_board_errors_in_the_bankers_language(capsys, tmp_path: Path, monkeypatch, lang: str) -> None:
    """An unknown edition or variant (through `new`, where the session log wraps it, and `cards`), a board file
    that is missing, a folder, not TOML, or against its schema: said in Russian and Ukrainian. What the file's
    schema says (msgspec's detail, named by the file's own keys) stays a parameter, for whoever edits it."""
    monkeypatch.chdir(tmp_path)
    tr = Translator(lang)
    Path("folder.toml").mkdir()
    Path("broken.toml").write_text("id = \n", encoding="utf-8")
    Path("schema.toml").write_text('surprise = 1\n', encoding="utf-8")
    cases = [
        (["new", "x.json", "--players", "Аня,Боря", "--edition", "kiev"], "unknown_edition"),
        (["new", "x.json", "--players", "Аня,Боря", "--variant", "long"], "unknown_variant"),
        (["cards", "--edition", "kiev"], "unknown_edition"),
        (["cards", "--edition", "nowhere.toml"], "no_file"),
        (["cards", "--edition", "folder.toml"], "folder"),
        (["cards", "--edition", "broken.toml"], "not_toml"),
        (["cards", "--edition", "schema.toml"], "invalid"),
    ]
    for argv, key in cases:
        code, out, err = run(capsys, "--lang", lang, *argv)
        assert code == 1 and not Path("x.json").exists(), err
        for piece in _pieces(tr, f"board_error.{key}"):
            assert piece in err, (key, piece, err)
        if key in ("not_toml", "invalid"):  # the parser's or the schema's own words, quoted for the file's editor
            with pytest.raises(BoardError) as e:
                load_edition(argv[-1])
            for name in ("problem", "where"):
                detail = str(e.value.params.get(name, ""))
                assert detail in err, (detail, err)
                err = err.replace(detail, "")
        assert _help_words(err.replace(f"banker {argv[0]}:", "").replace("TOML", "")) == set(), (key, err)


def test_a_board_error_inside_a_session_error_keeps_its_english() -> None:
    from banker.boards import load_variant
    from banker.ledger import SessionError

    with pytest.raises(BoardError) as e:
        load_variant("long")
    wrapped = SessionError(f"cannot create x.json: {e.value}", key="cannot_create", path="x.json", reason=e.value)
    assert Translator("en").session(wrapped) == str(wrapped) == \
        'cannot create x.json: unknown variant "long"; variants: classic, short, timed, speed-die'
    assert "неизвестный вариант «long»" in Translator("ru").session(wrapped)


JSON_LINES = [("xx", "value", 1), ('{"op" "buy"}', "colon", 7), ('{"op": "buy" "x"}', "comma", 14),
              ("{op: 1}", "name", 2), ('{"op": "bu', "string", 8), ('{"op": "b\\q"}', "escape", 10),
              ('{"op": "a\tb"}', "control", 10), ("{} {}", "extra", 4)]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_line_that_is_not_json_says_what_and_where_in_the_bankers_words(capsys, tmp_path: Path, monkeypatch,
                                                                          lang: str) -> None:
    """`banker apply`: a line that is not JSON says where (its column) and what kind of mistake, in the banker's
    words: never the json module's English ("Expecting value")."""
    monkeypatch.chdir(tmp_path)
    tr = Translator(lang)
    assert run(capsys, "new", "g.json", "--players", "Ann,Bob")[0] == 0
    for text, key, column in JSON_LINES:
        Path("s.jsonl").write_text(text + "\n", encoding="utf-8")
        code, out, err = run(capsys, "--lang", lang, "apply", "g.json", "s.jsonl")
        problem = tr("cli_json.at", problem=tr(f"cli_json.{key}"), column=column)
        assert code == 1 and err == tr("cli.line", n=1, error=problem) + "\n", (text, err)
        if lang != "en":
            assert _help_words(err) == set(), err


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_commands_other_refusals_in_the_bankers_language(capsys, tmp_path: Path, monkeypatch, lang: str) -> None:
    """An unknown house rule, an export that would replace a file or write two files to standard output, the
    table screen missing: the command's own sentences, in Russian and Ukrainian."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(SAMPLES / "ru-short.json", "игра.json")
    said = []
    code, out, err = run(capsys, "--lang", lang, "new", "x.json", "--players", "Аня,Боря", "--house-rule", "double")
    assert code == 1 and "double" in err
    said.append(err.replace("double", ""))
    code, out, err = run(capsys, "--lang", lang, "export", "игра.json", "--format", "csv", "--out", "-")
    assert code == 1
    said.append(err)
    Path("игра.export.json").write_text("{}", encoding="utf-8")
    code, out, err = run(capsys, "--lang", lang, "export", "игра.json", "--format", "json")
    assert code == 1 and "игра.export.json" in err
    said.append(err)
    code, out, err = run(capsys, "--lang", lang, "export", "игра.json", "--format", "json", "--out", "игра.json", "--force")
    assert code == 1
    said.append(err)
    for text in said:
        assert _help_words(text.replace("banker new:", "").replace("banker export:", "")) == set(), text


async def test_the_start_screen_says_a_board_error_in_the_bankers_language(tmp_path: Path, monkeypatch) -> None:
    """A board the new game's form cannot set up (here a variant its board file lacks) is refused on the form in
    the banker's words, and nothing is written (the form used to let the BoardError through)."""
    import banker.boards
    from banker.boards import load_variant
    from banker.ui.screens.start import StartScreen

    from .ui_helpers import screen_text

    def unknown(setup: object) -> GameState:
        return new_game("kyiv", load_variant("marathon").id, ["Олена", "Тарас"])

    monkeypatch.setattr(banker.boards, "game_from_setup", unknown)
    app = BankerApp(lang="uk", data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("ctrl+n")
        assert isinstance(app.screen, StartScreen)
        error = screen_text(app.screen.query_one("#start-error"))
    assert error.startswith("невідомий варіант «marathon»; варіанти: classic"), error
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_banker_serve_speaks_the_bankers_language(capsys, tmp_path: Path, monkeypatch, lang: str) -> None:
    """`banker serve`: what it prints around the address and the code, its goodbye, and a port it cannot take."""
    import socket
    import types

    import banker.tableview.cli as serve_cli

    monkeypatch.chdir(tmp_path)
    shutil.copy(SAMPLES / "ru-short.json", "игра.json")

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(serve_cli, "time", types.SimpleNamespace(sleep=interrupted))  # Ctrl+C at once
    out = io.StringIO()
    assert serve_cli.serve("игра.json", "127.0.0.1", 0, lang, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[1].strip().startswith("http://127.0.0.1:")
    said = "\n".join([lines[0], lines[2], *lines[-2:]])  # the address and the code aside
    tr = Translator(lang)
    assert tr("serve_said.scan") in said and tr("serve_said.stopped") in said
    assert _help_words(said.replace("127.0.0.1", "")) == set(), said
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run(capsys, "--lang", lang, "serve", "игра.json", "--host", "127.0.0.1", "--port", str(port))
    assert code == 1 and err == f"banker serve: {tr('serve_said.port_in_use', port=port, host='127.0.0.1')}\n", err
    assert _help_words(err.replace("banker serve:", "").replace("127.0.0.1", "")) == set(), err
    # found by the hardest-user probe: a --host naming nothing said the resolver's English "Name or service not known"
    code, _, err = run(capsys, "--lang", lang, "serve", "игра.json", "--host", "no-such-host.invalid", "--port", "0")
    assert code == 1 and err == f"banker serve: {tr('serve_said.unknown_host', host='no-such-host.invalid')}\n", err
    assert _help_words(err.replace("banker serve:", "").replace("no-such-host.invalid", "")) == set(), err

# --------------------------------------------------------------------------- the session log's findings, worded
RU_PLAYERS = ("Аня", "Боря", "Вика")
RU_GAME = [{"op": "buy", "player": "Аня", "space": 37}, {"op": "buy", "player": "Аня", "space": 39},
           {"op": "rent", "payer": "Боря", "space": 39}, {"op": "salary", "player": "Вика"},
           {"op": "transfer", "from": "Аня", "to": "Боря", "amount": 25, "memo": "долг"}]


def _game(path: Path) -> Path:
    return make_session(path, RU_PLAYERS, edition="ru", commands=RU_GAME)


def _tamper(path: Path, change, *, snapshot_sum: bool = False) -> None:
    """Change the session file by hand, as a person or a tool would (the checksums left as they were; with
    ``snapshot_sum`` the snapshot's own checksum made anew, so that only the entries can tell it is wrong)."""
    import json as jsonlib

    from banker.ledger import checksum
    from banker.ledger import snapshot as snapshots

    data = jsonlib.loads(path.read_text(encoding="utf-8"))
    change(data)
    if snapshot_sum:
        record = data["snapshot"]["1"]
        record["sum"] = checksum.fmt(snapshots.digest(record))
    path.write_text(jsonlib.dumps(data, ensure_ascii=False), encoding="utf-8")


def _changed_entries(data: dict) -> None:
    data["entries"]["3"]["effects"][0]["amount"] = 350  # the rent Боря paid, written as 350: the effects differ
    data["entries"]["2"]["ts"] = "2020-01-01T00:00:00.000+00:00"  # what the rules cannot check
    data["entries"]["4"]["command"]["player"] = "Зоя"  # a command the rules refuse (no such player)


def _more_cash(data: dict) -> None:
    data["snapshot"]["1"]["state"]["cash"]["Аня"] += 1000


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_an_edited_entry_and_a_tampered_snapshot_are_said_in_the_bankers_language(capsys, tmp_path: Path, monkeypatch,
                                                                                  lang: str) -> None:
    """`banker audit` on a session whose entries were edited (an amount: what the effect says and what the rules
    give, the effects in words; a time: what the rules cannot check; a command the rules refuse, their refusal) and
    on one whose checkpoint's snapshot was edited (with its checksum made anew: which part of the state differs;
    without: its checksum); `banker state` and `banker repair` on them. Before, the explanations, the effects
    ({t: pay, from: ...}), the snapshot's findings and "(FIFO)"-like clauses reached the banker in English."""
    monkeypatch.chdir(tmp_path)
    edited, snap, snap_sum = _game(Path("правка.json")), _game(Path("снимок.json")), _game(Path("сумма.json"))
    _tamper(edited, _changed_entries)
    _tamper(snap, _more_cash, snapshot_sum=True)
    _tamper(snap_sum, _more_cash)
    said = []
    code, out, err = run(capsys, "--lang", lang, "audit", str(edited))
    assert code == 1 and len(out.splitlines()) >= 5, out + err
    assert {"ru": "сумма: 350", "uk": "сума: 350"}[lang] in out and {"ru": "аренда", "uk": "оренда"}[lang] in out
    assert "Зоя" in out
    said.append(out + err)
    for path in (snap, snap_sum):
        code, out, err = run(capsys, "--lang", lang, "audit", str(path))
        assert code == 1 and {"ru": "снимок", "uk": "знімок"}[lang] in out, out + err
        said.append(out + err)
    assert {"ru": "деньги игроков", "uk": "гроші гравців"}[lang] in said[1]
    code, out, err = run(capsys, "--lang", lang, "state", str(edited))
    assert code == 0 and err
    said.append(err)
    code, out, err = run(capsys, "--lang", lang, "repair", str(edited))
    assert code != 0
    said.append(out + err)
    for path in (snap, snap_sum):
        code, out, err = run(capsys, "--lang", lang, "repair", str(path))
        assert code == 0 and out, err
        said.append(out + err)
    for text in said:
        assert not _said_words(text), (text, _said_words(text))


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_file_that_is_not_a_session_file_is_said_in_the_bankers_language(capsys, tmp_path: Path, monkeypatch,
                                                                           lang: str) -> None:
    """`banker state` on a named pipe, on a session whose journal is a folder, on a device and on a file over the
    size banker reads: the refusal (banker.ledger.storage.FileRefused) was English ("a named pipe (FIFO)", "MB")."""
    import os

    monkeypatch.chdir(tmp_path)
    os.mkfifo("канал.json")
    _game(Path("игра.json"))
    Path("игра.json.journal").unlink(missing_ok=True)
    Path("игра.json.journal").mkdir()
    Path("устройство.json").symlink_to(os.devnull)
    with open("большой.json", "wb") as f:
        f.truncate(65 * 2**20)  # sparse: no disk used
    Path("папка.json").mkdir()
    said = []
    for name in ("канал.json", "игра.json", "устройство.json", "большой.json", "папка.json"):
        code, out, err = run(capsys, "--lang", lang, "state", name)
        assert code != 0 and err, name
        said.append(err.replace(os.devnull, "устройство").replace(".json.journal", ".json"))  # file names are names
    assert {"ru": "именованный канал", "uk": "іменований канал"}[lang] in said[0]
    assert {"ru": "папка", "uk": "тека"}[lang] in said[1] and "МБ" in said[3]
    for text in said:
        assert not _said_words(text), (text, _said_words(text))


def test_file_refusals_keep_their_english() -> None:
    """The ledger's English (its str(), for logs and tests) is the English catalog's sentence."""
    from banker.ledger.storage import FileRefused, _not_regular, _size

    tr = Translator("en")
    refused = _not_regular(Path("x.json"), 0o010644)  # a FIFO's mode
    assert str(refused) == "x.json is a named pipe (FIFO), not a file banker reads" == tr.session(refused)
    big = FileRefused("x", key="file_too_big", path="x.json", size=_size(65 * 2**20), limit=_size(2**26))
    assert tr.session(big) == "x.json is 65.0 MB, more than banker reads in such a file (64.0 MB)"
    assert Translator("ru").session(FileRefused("x", key="file_grew", path="x.json", limit=_size(3))) == \
        "x.json больше, чем banker читает в таком файле (3 байта)"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_pages_fault_is_said_in_the_pages_language(tmp_path: Path, monkeypatch, lang: str) -> None:
    """The players' page and the console said a fault as Python's English ("ValueError: Exceeds the limit (4300
    digits) for integer string conversion..."; a session error's str()): now in the page's language."""
    import os

    from banker.ledger import SessionError
    from banker.rules import parse as parse_module
    from banker.tableview.server import TableSource

    path = tmp_path / "старая.json"
    with monkeypatch.context() as m:
        m.setattr(parse_module, "check_command", lambda state, cmd: None)  # as recorded before amounts were bounded
        make_session(path, RU_PLAYERS, edition="ru", commands=[{"op": "transfer", "from": "bank", "to": "Аня",
                                                                "amount": int("9" * 4300)}])
    source = TableSource(path, lang)
    try:
        assert source.fault and source.current[2] == -1
        said = [source.fault, __import__("json").loads(source.current[0])["error_text"]]
        source.report(SessionError("english", key="replaced", path=path.name))  # a fault outside the build
        said.append(source.fault)
        assert {"ru": "больше не содержит", "uk": "більше не містить"}[lang] in source.fault
    finally:
        source.close()
    game = _game(tmp_path / "игра.json")
    source = TableSource(game, lang)
    try:
        game.unlink()
        os.mkfifo(game)  # the file replaced by a pipe while the page shows it: said in the page's language
        source.update()
        assert source.error
        said.append(source.error.replace(str(tmp_path), "папка"))
    finally:
        source.close()
    for text in said:
        assert latin_words(text) == set(), (text, latin_words(text))


def test_every_effect_and_part_of_the_state_has_its_words() -> None:
    """An effect's kind and fields and the state's parts a snapshot holds are said from the catalogs in every
    language (an id the catalogs lack would reach the banker as it is stored)."""
    from banker.boards import new_game
    from banker.rules import effects
    from banker.rules.snapshot import to_plain

    kinds = [c for c in vars(effects).values() if isinstance(c, type) and issubclass(c, effects.Effect)
             and c is not effects.Effect]
    tags = {c.__struct_config__.tag for c in kinds}
    fields = {f for c in kinds for f in c.__struct_encode_fields__}
    parts = set(to_plain(new_game("classic-us", "classic", ["Ann", "Bob"])))
    assert "pay" in tags and "amount" in fields and "cash" in parts
    for lang in LANGS:
        ui = catalog(lang)["ui"]
        assert not {t for t in tags if f"session.effect.{t}" not in ui}, lang
        assert not {f for f in fields if f"session.field.{f}" not in ui}, lang
        assert not {p for p in parts if f"session.part.{p}" not in ui}, lang
        assert {"session.account.bank", "session.account.pot", "session.why.rent"} <= set(ui), lang


def test_an_engine_refusal_or_message_inside_a_session_sentence_is_said_in_the_language() -> None:
    """A clause may carry the engine's own refusal or messages (explain_changes: "its command is refused by the
    rules (...)"; the rules' text of an entry): they are said by the engine's catalogs, not as English str()."""
    from banker.ledger.format import Said

    refusal = Refused("pot", Msg("pot.empty"))
    said = Said(f"its command is refused by the rules ({refusal}): its command was changed", "explain_refused",
                refusal=refusal)
    assert Translator("en").session(said) == str(said)
    russian = Translator("ru").session(said)
    assert russian == f"правила отклоняют её команду ({Translator('ru').refusal(refusal)}): команду правили"
    assert not latin_words(russian), russian
    parts = [Msg("log.undone", reason="ошибка")]
    text = Said("its text reads \"x\" where the rules write \"y\"", "explain_text", text="x", rules=parts)
    assert Translator("uk").session(text) == f"його текст каже «x», а за правилами «{Translator('uk').msg(parts[0])}»"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_log_that_cannot_be_followed_is_said_in_the_bankers_language(tmp_path: Path, lang: str) -> None:
    """An undo entry whose undone entry does not stand: `banker audit` says the log cannot be followed there, and
    opening it refuses, in the banker's language (the ledger raised English ValueErrors)."""
    import json as jsonlib

    from banker.ledger import Session, SessionError
    from banker.ledger.audit import audit
    from banker.report import audit_lines

    path = make_session(tmp_path / "игра.json", RU_PLAYERS, edition="ru", commands=RU_GAME[:3])
    with Session.open(path) as session:
        session.undo("ошибка")  # entry 4 undoes entry 3
    data = jsonlib.loads(path.read_text(encoding="utf-8"))
    data["entries"]["4"]["undoes"] = 2  # it now says it undoes entry 2, which a later entry stands on
    data["entries"]["4"]["effects"] = []
    path.write_text(jsonlib.dumps(data, ensure_ascii=False), encoding="utf-8")
    tr = Translator(lang)
    lines = audit_lines(audit(path), tr)
    broken = [line for line in lines if {"ru": "запись 2", "uk": "запис 2"}[lang] in line]
    assert broken, lines
    with pytest.raises(SessionError) as info:
        Session.open(path, readonly=True)
    said = [line.replace(str(tmp_path), "папка") for line in [*lines, tr.session(info.value)]]
    assert "it undoes entry 2" in str(info.value)  # the ledger's own English, for logs and tests
    for text in said:
        assert not _said_words(text), (text, _said_words(text))
