"""Issue #9: no input breaks a session or the program.

Amounts are bounded to what a table can hold, names and texts refuse control and invisible
characters, new players' names are unique after normalisation and never the bank's words; a
session recorded before these rules still opens, and what it holds never reaches the terminal raw.
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest

from banker import cliparse
from banker.boards import new_game
from banker.cli import main
from banker.i18n import LANGS, Translator
from banker.ledger import Session
from banker.rules import Refused, Setup
from banker.rules import parse as parse_module
from banker.rules.messages import Msg, shown
from banker.rules.parse import AMOUNT_FACTOR, DEPTH_LIMIT, amount_limit
from banker.rules.state import NAME_LIMIT, RESERVED_NAMES, TEXT_LIMIT, forbidden_char, name_key

LIMIT = 1_200_000  # AMOUNT_FACTOR (800) x 1,500 starting cash, in every edition shipped
HUGE = int("9" * 4300)  # the issue's 4,300-digit transfer: the most digits json.loads still reads


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fresh(players=("Ann", "Bob", "Cid")):
    g = new_game("classic-us", "classic", players)
    return g


def midgame():
    """Ann owns the light blues with houses and a mortgaged railroad; Bob owes nothing; Ann holds a jail card."""
    g = new_game("ru", "classic", ["Ann", "Bob", "Cid"])
    for pos in (6, 8, 9):
        g.push({"op": "buy", "player": "Ann", "space": pos})
    g.push({"op": "buy", "player": "Ann", "space": 12})
    g.push({"op": "build", "player": "Ann", "space": 6})
    return g


# --------------------------------------------------------------------------- amounts
def test_the_limit_is_a_multiple_of_a_full_tables_starting_cash_in_every_edition() -> None:
    from banker.boards import EDITIONS, load_edition

    assert AMOUNT_FACTOR == 800
    for edition in EDITIONS:
        e = load_edition(edition)
        assert amount_limit(e) == AMOUNT_FACTOR * e.start_cash == LIMIT


def test_the_issues_4300_digit_transfer_is_refused_naming_the_field_and_the_limit() -> None:
    g = fresh()
    before = g.to_json()
    with pytest.raises(Refused) as e:
        g.push({"op": "transfer", "from": "bank", "to": "Ann", "amount": HUGE})
    assert str(e.value) == 'transfer: "amount" is more than a table can hold: at most $1,200,000'
    assert g.to_json() == before and not g.history


def test_the_limit_itself_passes_and_one_more_is_refused() -> None:
    g = fresh()
    g.push({"op": "transfer", "from": "bank", "to": "Ann", "amount": LIMIT})
    with pytest.raises(Refused, match="at most"):
        g.push({"op": "transfer", "from": "bank", "to": "Ann", "amount": LIMIT + 1})
    with pytest.raises(Refused, match="at most"):
        g.push({"op": "transfer", "from": "bank", "to": "Ann", "amount": -LIMIT - 1})


@pytest.mark.parametrize("command, field", [
    ({"op": "transfer", "from": "Ann", "to": "Bob", "amount": LIMIT + 1}, "amount"),
    ({"op": "auction", "space": 39, "winner": "Ann", "bid": LIMIT + 1}, "bid"),
    ({"op": "building_auction", "player": "Ann", "space": 6, "bid": LIMIT + 1}, "bid"),
    ({"op": "sell_building", "player": "Ann", "space": 6, "houses": LIMIT + 1}, "houses"),
    ({"op": "rent", "payer": "Bob", "space": 12, "dice": HUGE}, "dice"),
    ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"cash": LIMIT + 1}}, "give.cash"),
    ({"op": "trade", "from": "Ann", "to": "Bob", "get": {"cash": HUGE}}, "get.cash"),
    ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"jail_cards": HUGE}}, "give.jail_cards"),
    ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [6, HUGE]}}, "give.spaces[1]"),
    ({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [8]}, "debt_credit": HUGE}, "debt_credit"),
    ({"op": "buy", "player": "Ann", "space": HUGE}, "space"),
    ({"op": "salary", "player": "Ann", "note": -HUGE}, "note"),  # an unknown key is stored with the command
    ({"op": "undo", "reason": "x", "seq": HUGE}, "seq"),
    ({"op": "build", "player": "Ann", "space": 6, "upto": LIMIT + 1}, "upto"),
])
def test_every_number_of_a_command_is_bounded(command, field) -> None:
    """Every whole number a command carries, in any field (amounts, bids, counts, dice, positions,
    keys the engine ignores but the log keeps) is bounded, and the refusal names the field; the limit is said as money
    only for money (the review probe: an entry's number was "at most $1,200,000")."""
    g = midgame()
    before = g.to_json()
    with pytest.raises(Refused) as e:
        g.push(command)
    money = field.split(".")[-1] in ("amount", "bid", "cash", "debt_credit")
    limit = "1 200 000 т.р." if money else "1 200 000"
    assert str(e.value) == f'{command["op"]}: "{field}" is more than a table can hold: at most {limit}'
    assert e.value.msg.render(Translator("ru")._engine, "ru").startswith(f'{command["op"]}: значение "{field}" больше')
    assert g.to_json() == before


def test_a_refusal_never_converts_a_huge_number_whole() -> None:
    """Past Python's int-to-str limit even a refusal used to crash: the value is quoted by its size."""
    g = fresh()
    enormous = 10**5000
    for cmd in ({"op": "transfer", "from": "bank", "to": "Ann", "amount": enormous},
                {"op": "buy", "player": "Ann", "space": -enormous}):
        with pytest.raises(Refused) as e:
            g.push(cmd)
        assert len(str(e.value)) < 200
    # the readers of a field quote a value by its size too (a replayed command skips the limits)
    with pytest.raises(Refused, match=r"not ≈10\^5000"):
        g.push({"op": "buy", "player": "Ann", "space": enormous}, replay=True)


def test_money_too_large_to_print_is_shown_by_its_size() -> None:
    g = fresh()
    assert g.edition.fmt(10**5000) == "$≈10^5000"
    assert g.edition.fmt(-(10**40)) == "-$≈10^40"
    assert g.edition.fmt(LIMIT) == "$1,200,000"


# --------------------------------------------------------------------------- texts of a command
CONTROLS = {
    "ESC (clears the screen)": "\x1b[2J",
    "CR": "a\rb",
    "LF (splits a log line)": "a\nb",
    "NUL": "a\x00b",
    "DEL": "a\x7fb",
    "a C1 control (CSI)": "a\x9bb",
    "a right-to-left override": "a\u202eb",
    "a zero-width space": "a\u200bb",
    "a lone surrogate (bytes that were not UTF-8)": "a\udcffb",
    "a line separator": "a\u2028b",
}


@pytest.mark.parametrize("label", list(CONTROLS))
def test_a_memo_or_an_undo_reason_with_a_control_character_is_refused(label) -> None:
    g = fresh()
    g.push({"op": "salary", "player": "Ann"})
    before = g.to_json()
    text = CONTROLS[label]
    code = f"U+{ord(next(c for c in text if unicodedata.category(c) in ('Cc', 'Cf', 'Cs', 'Zl'))):04X}"
    with pytest.raises(Refused) as e:
        g.push({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": text})
    assert str(e.value) == f'transfer: "memo" holds a control or invisible character ({code}); type plain text'
    with pytest.raises(Refused, match=re.escape(f'undo: "reason" holds a control or invisible character ({code})')):
        g.push({"op": "undo", "reason": text})
    assert g.to_json() == before and len(g.history) == 1


def test_texts_are_bounded_and_plain_letters_of_any_language_pass() -> None:
    g = fresh()
    with pytest.raises(Refused, match=f'"memo" is {TEXT_LIMIT + 1} characters long; the limit is {TEXT_LIMIT}'):
        g.push({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": "x" * (TEXT_LIMIT + 1)})
    with pytest.raises(Refused, match="the limit is"):
        g.push({"op": "salary", "player": "Ann", "x" * 5000: 1})  # an unknown key is text too
    memo = "за Ріо — «штраф» 🎲 ñ 中文 tab-free"
    move = g.push({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": memo})
    assert move.info["memo"] == memo


def test_a_command_nested_too_deep_or_too_big_is_refused() -> None:
    g = fresh()
    deep: object = 1
    for _ in range(DEPTH_LIMIT + 2):
        deep = [deep]
    with pytest.raises(Refused, match=r'salary: "x\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]" is nested too deep \(more than 8'):
        g.push({"op": "salary", "player": "Ann", "x": deep})
    with pytest.raises(Refused, match="too many values"):
        g.push({"op": "salary", "player": "Ann", "x": list(range(500))})
    # a real trade is far inside both limits
    g.push({"op": "buy", "player": "Ann", "space": 1})
    g.push({"op": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [1]}, "get": {"cash": 60}})


def test_a_session_with_an_old_huge_amount_or_control_characters_still_replays(tmp_path, monkeypatch, capsys) -> None:
    """What a log recorded before the limits holds replays as it did, and the screens show it
    safely: the amount by its size, the control characters escaped, never raw on the terminal."""
    path = tmp_path / "old.json"
    with monkeypatch.context() as m:
        m.setattr(parse_module, "check_command", lambda state, cmd: None)  # the engine of before
        with Session.create(path, Setup("classic-us", "classic", ("Ann", "Bob"))) as s:
            s.apply({"op": "transfer", "from": "bank", "to": "Ann", "amount": HUGE, "memo": "\x1b[2J\nfake entry"})
            s.apply({"op": "salary", "player": "Bob"})
    with Session.open(path, readonly=True) as s:
        assert s.state.cash["Ann"] == HUGE + 1500 and not s.divergent
    code, out, err = run(capsys, "state", str(path))
    assert code == 0 and "Ann     $≈10^4300" in out and err == ""
    code, out, err = run(capsys, "log", str(path))
    assert code == 0 and "\x1b" not in out and "\\u001b[2J\\u000afake entry" in out and len(out.splitlines()) == 2
    too_large = ("the session holds an amount too large to write out (recorded before amounts were bounded); "
                 "`banker state` shows it by its size, and undoing that action in the console removes it\n")
    code, out, err = run(capsys, "state", str(path), "--json")  # Python writes no int of 4,301 digits
    assert (code, out, err) == (1, "", "banker state: " + too_large)
    for fmt in ("json", "csv"):
        code, out, err = run(capsys, "export", str(path), "--format", fmt, "--out", str(tmp_path / "out"))
        assert (code, err) == (1, "banker export: " + too_large) and not list(tmp_path.glob("out*"))
    code, out, err = run(capsys, "export", str(path), "--format", "markdown", "--out", "-")
    assert code == 0 and "≈10^4300" in out
    # the console's writer may undo it
    with Session.open(path) as s:
        s.apply({"op": "undo", "reason": "typo"})
        s.apply({"op": "undo", "reason": "typo"})
        assert s.state.cash["Ann"] == 1500
    code, out, err = run(capsys, "state", str(path), "--json")
    assert code == 0


# --------------------------------------------------------------------------- names
def refused_name(*players: str) -> str:
    with pytest.raises(Refused) as e:
        Setup("classic-us", "classic", players).for_new_game()
    return str(e.value)


@pytest.mark.parametrize("label", list(CONTROLS))
def test_a_name_with_a_control_or_invisible_character_is_refused(label) -> None:
    assert "holds a control or invisible character (U+" in refused_name("Ann", "B" + CONTROLS[label] + "ob")


EMOJI_NAMES = {
    "an astronaut": "👩\u200d🚀 Ann",
    "a family": "👨\u200d👩\u200d👧",
    "a rainbow flag (presentation selector before the joiner)": "🏳\ufe0f\u200d🌈",
    "a skin tone before the joiner": "🧑\U0001F3FD\u200d🚀 Bo",
    "a heart on fire": "Cid ❤\ufe0f\u200d🔥",
    "a red heart with its presentation selector": "❤\ufe0f Dee",
}


@pytest.mark.parametrize("label", list(EMOJI_NAMES))
def test_a_name_that_is_an_emoji_zwj_sequence_is_accepted(label) -> None:
    """ "👩‍🚀 Ann" was refused for holding an invisible character (U+200D): a zero-width joiner between two emoji makes
    them one glyph (a visible astronaut), so it is part of what the name shows."""
    name = EMOJI_NAMES[label]
    state = Setup("classic-us", "classic", ("Zed", name)).for_new_game()
    assert name in state.players and forbidden_char(name) is None
    assert Translator("en").entry(type("Entry", (), {"text": name})()) == name  # shown as it is, not \u200d
    assert cliparse.terminal_safe(name) == name and shown(name) == f'"{name}"'


@pytest.mark.parametrize("name, code", [
    ("A\u200dnn", "U+200D"),           # a joiner between letters
    ("\u200d", "U+200D"),              # alone
    ("Ann\u200d", "U+200D"),           # after a letter, at the end
    ("\u200d👩", "U+200D"),             # before an emoji, with nothing to join it to
    ("👩\u200d", "U+200D"),             # after an emoji, at the end
    ("👩 \u200d🚀", "U+200D"),          # beside a space
    ("👩\u200d\u200d🚀", "U+200D"),      # two joiners
    ("👩\u200c🚀", "U+200C"),           # a zero-width non-joiner between emoji
    ("👩\u200b🚀", "U+200B"),           # a zero-width space between emoji
    ("👩\u200d\u202e🚀", "U+200D"),      # a joiner before a bidi override
    ("👩\u202e🚀", "U+202E"),           # a bidi override between emoji
    ("\u2066👩\u200d🚀\u2069", "U+2066"),  # an isolate around a sequence
])
def test_a_joiner_outside_an_emoji_sequence_and_every_other_invisible_character_is_still_refused(name, code) -> None:
    said = refused_name("Ann", name)
    assert said.endswith(f"holds a control or invisible character ({code}); type it in plain letters"), said
    assert forbidden_char(name) == code


@pytest.mark.parametrize("name", ["bank", "Bank", "BANK", "the bank", "The  Bank", "pot", "the pot",
                                  "Free Parking pot", "банк", "Банк", "БАНК", "касса", "Каса", "ｂａｎｋ"])
def test_the_banks_words_in_any_language_are_not_a_players_name(name) -> None:
    """ "the bank" as a player would be logged exactly as the bank is."""
    assert refused_name("Ann", name).endswith("is reserved for the bank; choose another player name")


def test_the_reserved_words_cover_what_every_catalog_calls_the_bank_and_the_pot() -> None:
    for lang in LANGS:
        tr = Translator(lang)
        for word in (tr("bank.name"), tr("bank.pot"), tr("bank.name_in_text"), tr("bank.pot_in_text"),
                     tr.msg(Msg("the-bank")), tr.msg(Msg("the-pot"))):
            assert name_key(word) in RESERVED_NAMES, (lang, word)


@pytest.mark.parametrize("a, b", [
    ("Zoë", "Zoe\u0308"),          # the same letters, composed and decomposed
    ("Ann", "ＡＮＮ"),              # full-width letters
    ("Ann Lee", "ann  lee"),       # case and a doubled space
    ("Straße", "STRASSE"),         # case folding
    ("ﬁona", "Fiona"),             # a ligature
    ("Ann", "Ann\ufe0f"),          # an emoji presentation selector after a letter: it shows nothing
    ("👍 Bo", "👍\ufe0f Bo"),        # the same emoji with and without its presentation selector
])
def test_names_equal_after_normalisation_are_the_same_name(a, b) -> None:
    said = refused_name(a, b)
    if a == unicodedata.normalize("NFC", b):  # the very same once composed
        assert said == f'Two players are called "{a}"; names must differ'
    else:
        assert said == f'"{b}" and "{a}" are the same name written differently; names must differ'


def refused_names(lang: str, *players) -> str:
    with pytest.raises(Refused) as e:
        Setup("classic-us", "classic", players).for_new_game()
    return Translator(lang).refusal(e.value)


@pytest.mark.parametrize("players, lang, said", [
    (("Ann", "ann"), "en", 'Two players are called "ann"; names must differ'),
    (("O'Neil", "o'neil"), "en", "Two players are called \"o'neil\"; names must differ"),
    (("Ann", "ＡＮＮ"), "en", '"ＡＮＮ" and "Ann" are the same name written differently; names must differ'),
    (("Ann", "Bank"), "en", '"Bank" is reserved for the bank; choose another player name'),
    (("Ann", " Bob"), "en", 'Player name " Bob" must be non-empty text without outer spaces'),
    (("Ann", 7), "en", "A player name is text, not 7"),
    (("Ann", "ann"), "ru", "Двух игроков зовут «ann»; имена должны различаться"),
    (("O'Neil", "o'neil"), "ru", "Двух игроков зовут «o'neil»; имена должны различаться"),
    (("Аня «Туз»", "аня «туз»"), "ru", "Двух игроков зовут «аня „туз“»; имена должны различаться"),
    (("Аня", "Банк"), "ru", "Имя «Банк» зарезервировано за банком; выберите другое имя игрока"),
    (("Аня", "ＡＮＹＡ", "Anya"), "ru", "«Anya» и «ＡＮＹＡ» — одно и то же имя, записанное по-разному; "
                                      "имена должны различаться"),
    (("Аня", "B\u200bob"), "uk", "В імені гравця «B\\u200bob» є керівний або невидимий символ (U+200B); введіть ім’я "
                                 "звичайними літерами"),
    (("Аня", "Х" * 40), "uk", f"В імені гравця «{'Х' * 37}…» 40 символів, а допустимо не більше {NAME_LIMIT}"),
    (("Аня", 7), "uk", "Ім’я гравця — це текст, а не 7"),
])
def test_a_refused_name_is_quoted_as_its_language_quotes(players, lang, said) -> None:
    """Refusals quoted a name with Python's repr: 'ann' but "O'Neil", and the same marks in Russian and Ukrainian
    ("Имя 'Банк' зарезервировано"). A name is quoted as the sentence's language quotes: "…" in English, «…» in
    Russian and Ukrainian, with „…“ inside («аня „туз“»); a control shown escaped, a long name cut within its quotes."""
    assert refused_names(lang, *players) == said


def test_a_name_is_bounded_and_stored_composed() -> None:
    assert refused_name("Ann", "x" * 10_000).endswith(f"is 10000 characters long; the limit is {NAME_LIMIT}")
    ok = Setup("classic-us", "classic", ("Zoe\u0308", "y" * NAME_LIMIT)).for_new_game()
    assert ok.players == ("Zoë", "y" * NAME_LIMIT) and unicodedata.is_normalized("NFC", ok.players[0])
    g = new_game("classic-us", "classic", ok.players)
    # named in an action either way it is typed
    assert g.push({"op": "salary", "player": "Zoe\u0308"}).effects[0].dst == "Zoë"
    assert g.push({"op": "salary", "player": "ZOË"}).effects[0].dst == "Zoë"


def test_banker_new_refuses_a_bad_name_in_one_line_and_makes_no_file(capsys, tmp_path) -> None:
    path = tmp_path / "g.json"
    for players in ("Ann,B\udcffob",            # bytes that were not UTF-8 (surrogateescape)
                    "Ann,\x1b[2JBob", "Ann,the bank", "Ann,Банк", "Ann,ＡＮＮ", "Ann," + "z" * 10_000):
        code, out, err = run(capsys, "new", str(path), "--players", players)
        assert code == 1 and out == "" and len(err.splitlines()) == 1 and "\x1b" not in err, err
        assert not path.exists()
    code, out, err = run(capsys, "new", str(path), "--players", "Zoe\u0308,Bob")
    assert code == 0 and "players Zoë, Bob" in out
    assert json.loads(path.read_text(encoding="utf-8"))["session"]["1"]["players"] == ["Zoë", "Bob"]


def test_the_session_name_and_end_time_of_a_new_game_are_plain_bounded_text(capsys, tmp_path) -> None:
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "new", str(path), "--players", "Ann,Bob", "--name", "Friday\x1b[2J")
    # the option named once, as typed (it said 'banker new: new: "--name" ...', and "end_time" for --end-time)
    assert (code, out) == (1, "") and err == ("banker new: --name holds a control or invisible character "
                                              "(U+001B); type plain text\n")
    code, out, err = run(capsys, "new", str(path), "--players", "Ann,Bob", "--variant", "timed", "--end-time", "9" * 300)
    assert (code, err) == (1, "banker new: --end-time is 300 characters long; the limit is 200\n")
    code, out, err = run(capsys, "new", str(path), "--players", "Ann,Bob", "--name", "x" * 230)
    assert (code, err) == (1, "banker new: --name is 230 characters long; the limit is 200\n")
    assert not path.exists()


def test_a_script_line_is_split_at_line_feeds_only(capsys, tmp_path) -> None:
    """U+2028 and U+0085 are not new lines in a JSON-lines script: the line numbers stay the editor's."""
    path = tmp_path / "g.json"
    run(capsys, "new", str(path), "--players", "Ann,Bob")
    script = tmp_path / "s.jsonl"
    script.write_text('{"op": "salary", "player": "Ann", "memo": "a\u2028b\x85c"}\n{"op": "salary", "player": "Zed"}\n',
                      encoding="utf-8")
    code, out, err = run(capsys, "apply", str(path), str(script))
    assert code == 1 and err == 'line 1: salary: "memo" holds a control or invisible character (U+2028); type plain text\n'


def test_an_old_session_with_names_todays_rules_refuse_still_opens(tmp_path, capsys) -> None:
    """The name rules are for new sessions: a recorded one replays with the names it was created with."""
    path = tmp_path / "old.json"
    players = ("Ann", "the Bank", "B\x1bob", "x" * 40)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Setup, "for_new_game", lambda self: self)  # as created before the rules
        with Session.create(path, Setup("classic-us", "classic", players)) as s:
            s.apply({"op": "salary", "player": "the Bank"})
            s.apply({"op": "transfer", "from": "B\x1bob", "to": "Ann", "amount": 5})
    with Session.open(path) as s:
        assert s.state.players == players and s.state.cash["the Bank"] == 1700
        s.apply({"op": "salary", "player": "B\x1bob"})  # still named in an action
    code, out, err = run(capsys, "state", str(path))
    assert code == 0 and "\x1b" not in out and "B\\u001bob" in out
    code, out, err = run(capsys, "audit", str(path))
    assert code == 0, out


# --------------------------------------------------------------------------- the console's quick entry
def test_quick_entry_numbers_never_crash_the_console() -> None:
    from banker.ui.quick import QuickError, parse

    g = fresh()
    for line in ("transfer ann bob " + "9" * 5000, "buy ann #²", "rent #٣ bob", "transfer ann bob ²"):
        try:
            parse(g, line)
        except QuickError:
            pass
    with pytest.raises(QuickError, match="5000 digits"):
        parse(g, "transfer ann bob " + "9" * 5000)


# --------------------------------------------------------------------------- the quick way through the limits
_ODD_TEXTS = ["Ann", "deal", "", " ", "x" * TEXT_LIMIT, "x" * (TEXT_LIMIT + 1), "a\u00a0b", "a\u200bb", "a\x1bb",
              "a\nb", "\u2028", "naïve", "Ёж", "\ud800", "🎲", "Ann\u0301"]
_ODD_VALUES = [0, 5, -5, LIMIT, LIMIT + 1, -LIMIT, -LIMIT - 1, HUGE, True, False, None, 1.5, float("nan"),
               [1, 2], {"cash": 5}, ("a",), *_ODD_TEXTS]
_ODD_KEYS = ["op", "player", "amount", "memo", "from", "to", "space", "unknown", "k" * 31, "a\x1bb", 7]


def _outcome(check, state, cmd):
    try:
        check(state, cmd)
    except Refused as e:
        return e.rule, str(e)
    return None


def test_a_flat_command_meets_exactly_the_limits_the_whole_walk_sets() -> None:
    """check_command lets a flat command of known keys and plain values through without walking it;
    on every command, flat or not, it says what the whole walk says: the same refusal or none."""
    import random

    rng = random.Random(14)
    g = fresh(("Ann", "Bob", "Ann\u00a0Lee"))
    quick = 0
    for _ in range(4000):
        cmd = {"op": rng.choice(["transfer", "salary", "rent", "nonsense"])}
        for _ in range(rng.randint(0, 5)):
            cmd[rng.choice(_ODD_KEYS)] = rng.choice([*_ODD_VALUES, "Ann\u00a0Lee"])
        if rng.random() < 0.02:
            cmd.update({f"k{i}": i for i in range(rng.choice([197, 198, 199, 200]))})
        quick += parse_module._plain_within_limits(g, cmd)
        assert _outcome(parse_module.check_command, g, cmd) == _outcome(parse_module._walk, g, cmd), cmd
    assert quick > 1000  # the quick way was taken, and agreed each time
    assert len(parse_module.FIELD_KEYS) < parse_module.SIZE_LIMIT  # so a flat command of known keys is never too big


def test_the_quick_way_never_lets_through_what_the_walk_refuses() -> None:
    g = fresh()
    for bad in ({"op": "transfer", "from": "Ann", "to": "Bob", "amount": LIMIT + 1},
                {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": "a\x1bb"},
                {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": "x" * (TEXT_LIMIT + 1)},
                {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": "a\u200bb"}):
        assert not parse_module._plain_within_limits(g, bad)
        with pytest.raises(Refused):
            parse_module.check_command(g, bad)
    assert parse_module._plain_within_limits(g, {"op": "transfer", "from": "Ann", "to": "Bob", "amount": LIMIT,
                                                 "memo": "x" * TEXT_LIMIT})


def test_a_text_cut_in_a_refusal_keeps_its_closing_quote() -> None:
    """Found by the hardest-user probe: a name too long was quoted open and never closed
    (`Player name "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA… is 100 characters long`): the cut took the closing quote."""
    from banker.rules.messages import shown

    said = refused_name("Ann", "A" * 100)
    assert said == f'Player name "{"A" * 37}…" is 100 characters long; the limit is {NAME_LIMIT}'
    assert shown("x" * 100) == '"' + "x" * 37 + '…"' and len(shown("x" * 100)) == 40
    assert shown("short") == '"short"' and shown(list(range(100))).endswith("…")  # not a text: cut as before
