"""The Russian and Ukrainian engine catalogs translate every English sentence, with the same placeholders."""

from __future__ import annotations

import re
import string
import tomllib
from pathlib import Path

import pytest

import banker.i18n
from banker.boards import new_game
from banker.rules import Refused, Setup
from banker.rules.messages import EN, LISTS, Msg, form_index, nest_quotes, render_parts

I18N = Path(banker.i18n.__file__).parent
LANGS = ("ru", "uk")
# one number of each plural class for ru/uk: one, few, many
PLURAL_NS = (1, 2, 5)


def load(lang: str) -> dict:
    return tomllib.loads((I18N / f"{lang}-engine.toml").read_text(encoding="utf-8"))


CATALOGS = {lang: load(lang) for lang in LANGS}


def forms(template) -> list[str]:
    return template if isinstance(template, list) else [template]


def form_for(template, lang: str, n: int, key: str = "") -> str:
    return template[form_index(lang, template, n, key in LISTS)] if isinstance(template, list) else template


def fields(form: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(form) if name is not None}


def english_fields(key: str) -> set[str]:
    return set().union(*(fields(f) for f in forms(EN[key])))


def has_words(form: str) -> bool:
    """Whether a template says anything beyond its placeholders and punctuation."""
    literal = "".join(text for text, _, _, _ in string.Formatter().parse(form))
    return bool(re.search(r"[^\W\d_]", literal))


def dummy_params(key: str, n: int) -> dict:
    params: dict = {name: f"<{name}>" for name in english_fields(key)}
    params["n"] = n
    return params


@pytest.mark.parametrize("lang", LANGS)
def test_every_english_key_is_translated_and_nothing_else(lang):
    cat = CATALOGS[lang]
    assert sorted(set(EN) - set(cat)) == []
    assert sorted(set(cat) - set(EN)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_templates_are_strings_or_three_plural_forms(lang):
    """[one, few, many] agreeing with the number said; a list's [one, several] (banker.rules.messages.LISTS)."""
    for key, template in CATALOGS[lang].items():
        wanted = 2 if key in LISTS else 3
        if isinstance(EN[key], list):
            assert isinstance(template, list) and len(template) == wanted, key
        if isinstance(template, list):
            assert len(template) == wanted and all(isinstance(f, str) and f for f in template), key
            if not isinstance(EN[key], list):  # a plural the English does not need: chosen by its own {n}
                assert "n" in english_fields(key), f"{key}: a plural list needs the parameter n"
        else:
            assert isinstance(template, str) and template, key


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match_english(lang):
    for key, template in CATALOGS[lang].items():
        wanted = english_fields(key)
        for form in forms(template):
            assert fields(form) == wanted, f"{lang} {key}: {form!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_template_renders_in_its_language(lang):
    cat = CATALOGS[lang]
    cyrillic = re.compile("[а-яА-ЯёЁіїєґІЇЄҐ]")
    for key in EN:
        for n in PLURAL_NS:
            params = dummy_params(key, n)
            english = Msg(key, **params).render()
            text = Msg(key, **params).render(cat, lang)
            form = form_for(cat[key], lang, n, key)
            assert text == form.format(**{k: str(v) for k, v in params.items()}), f"{lang} {key}: fell back to English"
            if has_words(form_for(EN[key], "en", n, key)):
                assert text != english, f"{lang} {key}: not translated"
            if has_words(form):  # the words, where there are any, are Russian/Ukrainian ones
                assert cyrillic.search(form), f"{lang} {key}: {text!r}"
            for name in english_fields(key) - {"n"}:
                assert f"<{name}>" in text, f"{lang} {key}: lost {{{name}}}"


@pytest.mark.parametrize("lang,n,expected", [
    ("ru", 1, "1 дом"), ("ru", 2, "2 дома"), ("ru", 5, "5 домов"), ("ru", 0, "0 домов"), ("ru", 21, "21 дом"),
    ("uk", 1, "1 будинок"), ("uk", 3, "3 будинки"), ("uk", 5, "5 будинків"), ("uk", 12, "12 будинків"),
])
def test_house_counts_agree_with_the_number(lang, n, expected):
    assert Msg("level.houses", n=n).render(CATALOGS[lang], lang) == expected


DEPENDS = {
    "ru": ("Запись 2 нельзя отменить отдельно: от неё зависит запись {entries} (сначала отмените её)",
           "Запись 2 нельзя отменить отдельно: от неё зависят записи {entries} (сначала отмените их)"),
    "uk": ("Запис 2 не можна скасувати окремо: від нього залежить запис {entries} (спершу скасуйте його)",
           "Запис 2 не можна скасувати окремо: від нього залежать записи {entries} (спершу скасуйте їх)"),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [1, 2, 5, 21])
def test_a_list_of_entries_is_plural_whenever_it_holds_more_than_one(lang, n):
    """Undoing entry 2 that 21 entries depend on said "от неё зависит запись 3, 4, …" (the singular a count of 21
    takes: 21 запись): a list of entries agrees with the list, one or several, not with Slavic count agreement."""
    entries = list(range(3, 3 + n))
    one, several = DEPENDS[lang]
    expected = (one if n == 1 else several).format(entries=", ".join(map(str, entries)))
    msg = Msg("undo.depends", seq=2, entries=entries, n=n)
    assert msg.render(CATALOGS[lang], lang) == expected
    assert render_parts([msg.to_json()], CATALOGS[lang], lang) == expected  # as a stored message is said
    assert render_parts([msg.to_json()], CATALOGS[lang], lang, strict=True) == expected


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [2, 5, 21, 22, 25])
def test_every_list_message_takes_its_plural_for_several_things(lang, n):
    """Every message that says a list (banker.rules.messages.LISTS: mortgaged lots, debtors, a bankrupt's deeds and
    jail cards, the entries an undo waits for) says several things in its plural whatever the last digit."""
    for key in LISTS:
        params = dummy_params(key, n)
        assert Msg(key, **params).render(CATALOGS[lang], lang) == CATALOGS[lang][key][1].format(**params), key
        params = dummy_params(key, 1)
        assert Msg(key, **params).render(CATALOGS[lang], lang) == CATALOGS[lang][key][0].format(**params), key


def test_a_plural_says_its_number_or_is_a_list():
    """A plural template that does not say its number as {n} says a list: it is one of LISTS, whose forms agree with
    the list; a number said by another name (build-group.stock's {stock}) would take a list's forms unnoticed."""
    for key, template in EN.items():
        if isinstance(template, list):
            says_n = any("{n}" in form for form in template)
            assert says_n != (key in LISTS), key
    for lang in LANGS:
        for key, template in CATALOGS[lang].items():
            if isinstance(template, list) and key not in LISTS:
                assert any("{n}" in form for form in template), f"{lang} {key}"


def test_a_count_still_agrees_with_its_number():
    assert [Msg("build-group.houses", n=n).render(CATALOGS["ru"], "ru") for n in (1, 2, 5, 21, 22)] == [
        "1 дом", "2 дома", "5 домов", "21 дом", "22 дома"]
    assert Msg("build-group.stock", n=21, group="Синие", need=24).render(CATALOGS["uk"], "uk") == (
        "У банку лишився 21 будинок, а для групи «Синие» треба 24: будуйте менше")


def test_nested_messages_render_in_the_same_language():
    msg = Msg("debt-open", player="Аня", debt=[Msg("debt-part", amount="50 т.р.", creditor=Msg("the-bank"))])
    assert msg.render(CATALOGS["ru"], "ru").startswith("Долг игрока Аня: 50 т.р. (кредитор: банк).")
    msg = Msg("log.game-ends", reason=Msg("reason.time"), outcome=Msg("log.wins", player="Боб"),
              standings=[Msg("log.standing", player="Боб", amount="M1 600"), Msg("log.standing", player="Аня", amount="M900")])
    assert msg.render(CATALOGS["uk"], "uk") == ("перемагає Боб (час вичерпано). "
                                                "Оцінка майна: Боб — M1 600, Аня — M900")


# --- real engine output, in Russian


def russian_game():
    return new_game("ru", "classic", ["Аня", "Боб"])  # the Moscow board (no fallback: a missing board must fail)


def refusal(g, command) -> Refused:
    with pytest.raises(Refused) as e:
        g.push(command)
    return e.value


def test_a_tiny_russian_game_reads_in_russian():
    ru = CATALOGS["ru"]
    g = russian_game()
    arbat = g.edition.spaces[39].name
    buy = g.push({"op": "buy", "player": "Аня", "space": 39})
    assert render_parts(buy.parts, ru, "ru") == f"Аня покупает участок {arbat} за {g.edition.fmt(400)}"

    rent = g.push({"op": "rent", "payer": "Боб", "space": 39})
    text = render_parts(rent.parts, ru, "ru")
    assert text.startswith(f"Боб платит игроку Аня аренду {g.edition.fmt(50)} за участок {arbat}")
    assert text.endswith(f"(аренда {g.edition.fmt(50)})")

    g.push({"op": "buy", "player": "Аня", "space": 37})
    rent = g.push({"op": "rent", "payer": "Боб", "space": 39})
    assert f"двойная аренда за всю группу: 2 × {g.edition.fmt(50)}" in render_parts(rent.parts, ru, "ru")

    for pos in (39, 37, 39):
        g.push({"op": "build", "player": "Аня", "space": pos})
    rent = g.push({"op": "rent", "payer": "Боб", "space": 39})
    assert "аренда с 2 домами" in render_parts(rent.parts, ru, "ru")

    uneven = refusal(g, {"op": "build", "player": "Аня", "space": 39})
    assert uneven.rule == "build-evenly"
    other = g.edition.spaces[37].name
    assert uneven.render(ru, "ru") == f"Стройте равномерно: {arbat} — 2 дома, {other} — 1 дом"

    mortgage = refusal(g, {"op": "mortgage", "player": "Аня", "space": 37})
    text = mortgage.render(ru, "ru")
    assert text.startswith("Прежде чем закладывать, продайте постройки группы") and "2 дома" in text

    g.push({"op": "build", "player": "Аня", "space": 37})
    g.push({"op": "build", "player": "Аня", "space": 39})
    g.push({"op": "build", "player": "Аня", "space": 37})
    g.push({"op": "build", "player": "Аня", "space": 39})  # 4 houses on each now
    assert "аренда с 4 домами" in render_parts(g.push({"op": "rent", "payer": "Боб", "space": 39}).parts, ru, "ru")
    cash = refusal(g, {"op": "buy", "player": "Боб", "space": 1})
    assert cash.rule == "debt-open"
    assert cash.render(ru, "ru").startswith("Долг игрока Боб: ")
    assert "(кредитор: Аня)" in cash.render(ru, "ru")


def test_russian_refusals_with_many_houses():
    ru = CATALOGS["ru"]
    g = russian_game()
    for pos in (37, 39):
        g.push({"op": "buy", "player": "Аня", "space": pos})
    g.push({"op": "transfer", "from": "bank", "to": "Аня", "amount": 2000, "memo": "пополнение"})
    for _ in range(4):
        for pos in (37, 39):
            g.push({"op": "build", "player": "Аня", "space": pos})
    g.push({"op": "build", "player": "Аня", "space": 39})  # a hotel on 39, 4 houses on 37
    assert g.edition.rules.hotel_sale == "exchange_or_whole"  # the Moscow board: the refusals below are its own
    sale = refusal(g, {"op": "sell_building", "player": "Аня", "space": 39, "houses": 2})
    assert sale.render(ru, "ru") == ("Отель либо обменивают на 4 дома, либо продают целиком вместе с ними "
                                     "(\"houses\": 0), но не сводят к 2 домам")
    sale = refusal(g, {"op": "sell_building", "player": "Аня", "space": 39, "houses": 1})
    assert sale.render(ru, "ru").endswith("но не сводят к 1 дому")
    text = refusal(g, {"op": "sell_building", "player": "Аня", "space": 37}).render(ru, "ru")
    assert text == f"Продавайте равномерно: {g.edition.spaces[37].name} — 4 дома, {g.edition.spaces[39].name} — отель"
    # "5 домов": the genitive plural, as in a house count of 5 and more
    assert Msg("build.evenly", space="A", level=Msg("level.houses", n=5), other="B",
               other_level=Msg("level.houses", n=11)).render(ru, "ru") == "Стройте равномерно: A — 5 домов, B — 11 домов"


def test_the_translator_uses_these_catalogs():
    from banker.i18n import Translator, catalog

    for lang in LANGS:
        assert catalog(lang)["engine"] == CATALOGS[lang]
    tr = Translator("ru")
    g = russian_game()
    arbat = g.edition.spaces[39].name
    move = g.push({"op": "buy", "player": "Аня", "space": 39})
    assert tr.parts(move.parts) == f"Аня покупает участок {arbat} за {g.edition.fmt(400)}"
    move = g.push({"op": "rent", "payer": "Боб", "space": 39})
    assert tr.parts(move.parts).startswith("Боб платит игроку Аня аренду")
    g.push({"op": "buy", "player": "Аня", "space": 37})
    for pos in (39, 37, 39):
        g.push({"op": "build", "player": "Аня", "space": pos})
    assert "аренда с 2 домами" in tr.parts(g.push({"op": "rent", "payer": "Боб", "space": 39}).parts)
    error = refusal(g, {"op": "build", "player": "Аня", "space": 39})
    assert tr.refusal(error) == f"Стройте равномерно: {arbat} — 2 дома, {g.edition.spaces[37].name} — 1 дом"
    assert tr.msg(Msg("level.houses", n=5)) == "5 домов"
    assert Translator("uk").msg(Msg("level.houses", n=5)) == "5 будинків"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_an_entrys_sentence_never_carries_a_control_character(lang):
    """What a hand-edited log holds (a memo with ESC [2J, a BEL) is written as \\uXXXX in every sentence the console and
    the command line show, never sent to the terminal."""
    from types import SimpleNamespace

    from banker.i18n import Translator

    edited = SimpleNamespace(parts=None, text="Ann gives Bob $5: a\u001b[2Jb\u0007")
    said = Translator(lang).entry(edited)
    assert said == "Ann gives Bob $5: a\\u001b[2Jb\\u0007"


@pytest.mark.parametrize("lang,said", [
    ("en", "Аня has {cash}, less than the {amount} for the transfer: not enough cash"),
    ("ru", "У игрока Аня {cash}, а перевод — {amount}: не хватает денег"),
    ("uk", "гравця Аня {cash}"),
])
def test_a_payment_refused_for_want_of_cash_names_its_amount_once(lang, said):
    """A transfer (or a shortage auction's bid) the payer cannot cover: the refusal says the amount once
    (before: "a transfer of $5,000 costs $5,000", «перевод 5 000 т.р. — 5 000 т.р.»)."""
    from banker.i18n import Translator

    g = russian_game()
    error = refusal(g, {"op": "transfer", "from": "Аня", "to": "Боб", "amount": 5000, "memo": "долг"})
    text = Translator(lang).refusal(error)
    amount = g.edition.fmt(5000)
    assert said.format(cash=g.edition.fmt(g.cash["Аня"]), amount=amount) in text
    assert text.count(amount) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_quotes_inside_quotes_are_written_as_the_language_writes_them(lang):
    """A card's text quoting a space, said inside the sentence's own «»: «… поле „Вперёд“ …», never «… «Вперёд» …»."""
    from banker.i18n import Translator

    g = russian_game()
    drawn = g.push({"op": "card", "player": "Аня", "card": "ch-go"})
    said = Translator(lang).parts(drawn.parts)
    assert "„Вперёд“" in said and "«Вперёд»" not in said, said
    assert said.count("«") == said.count("»") == 2, said  # the deck's and the text's own pair, kept
    # a » with no « before it, and a lone «, are kept as they are
    assert nest_quotes("a » b « c") == "a » b « c"
    assert nest_quotes("«a «b «c» d» e»") == "«a „b „c“ d“ e»"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_name_with_a_lone_guillemet_keeps_the_sentences_quotes(lang):
    """Found by a probe: a player named «Ann «Boss» (a lone «), quoted in a Russian or Ukrainian sentence, had the
    sentence's closing » turned into “ and its opening « left unclosed («Ann „Boss“). Guillemets that do not pair up
    are left as they are; a name whose do pair is still nested («аня „туз“»)."""
    from banker.i18n import Translator

    with pytest.raises(Refused) as e:
        Setup("classic-us", "classic", ("Ann «Boss", "ann «boss")).for_new_game()
    said = Translator(lang).refusal(e.value)
    assert "«ann «boss»" in said and "„" not in said and "“" not in said, said
    assert nest_quotes("«Ann «Boss» and «Bob»") == "«Ann «Boss» and «Bob»"


def test_an_amount_ending_a_sentence_with_its_own_full_stop_gets_no_second_one() -> None:
    """Found by the RU/UK console probe: "… не больше 1 192 т.р.." (the roubles' abbreviation, then the sentence's
    stop). One stop; an amount without one ("$5") keeps the sentence's."""
    from banker.i18n import Translator
    from banker.rules.messages import one_stop

    assert Translator("ru")("dialog.at_least", low="5 т.р.") == "Не меньше 5 т.р."
    assert Translator("en")("dialog.at_least", low="$5") == "At least $5."
    assert one_stop("{a}. {b}.", {"a": "x.", "b": "y"}) == "{a} {b}."


@pytest.mark.parametrize("lang", LANGS)
def test_what_is_left_to_settle_reads_on_after_a_colon(lang: str) -> None:
    """A landing left to settle is logged after "осталось:" / "лишилося:" (log.due), so each ``due.*`` sentence begins
    with a name (a player, a space) or Mr. Monopoly's, never a capitalised common word: the RU/UK probe read
    "лишилося: У гравця Оксана 3 невдалі спроби… він сплачує" (and "он платит" said every player was a man)."""
    for key, template in CATALOGS[lang].items():
        if not key.startswith("due."):
            continue
        for form in forms(template):
            first = form.split()[0]
            assert first.startswith("{") or first in ("Мистер", "Містер"), (key, form)
            assert not re.search(r"\b(он платит|він сплачує)\b", form), (key, form)  # a player is no "он"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_log_line_begins_with_a_capital_letter(lang: str, tmp_path: Path) -> None:
    """Found by a probe: "22 фишку игрока Боря ставят на поле …", "11 снято: Bob может купить …", "ход игрока …
    окончен" began their log lines (the table, the confirmation, the message line) in lower case. Every line of a
    follow-mode evening (placing tokens, a turn ended with its purchase left, the next turn) and of the sample games
    begins with a capital letter, a digit or a name."""
    from banker.i18n import Translator
    from banker.ledger import Session
    from banker.rules import Setup

    path = tmp_path / "g.json"
    with Session.create(path, Setup("ru", "classic", ("Аня", "Боря", "Вика"))) as s:
        for cmd in ({"op": "follow", "on": True}, {"op": "roll", "dice": [1, 2]}, {"op": "end_turn"},
                    {"op": "place", "player": "Вика", "space": 5}, {"op": "place", "player": "Аня", "jail": True},
                    {"op": "roll", "dice": [2, 3]}, {"op": "end_turn"}):
            s.apply(cmd)
        entries = list(s.entries)
    tr = Translator(lang)
    samples = Path(__file__).resolve().parent.parent / "sample_sessions"
    for sample in sorted(samples.glob("*.json")):
        with Session.open(sample, readonly=True) as s:
            entries += list(s.entries)
    said = {tr.entry(e) for e in entries}
    assert any(line.startswith(("Снято: ", "Знято: ")) for line in said), said  # the dropped purchase is among them
    lower = sorted(line for line in said if line[:1].islower())
    assert not lower, lower[:5]


@pytest.mark.parametrize("edition,lang,group", [("classic-us", "ru", "«Коричневая»"), ("classic-us", "uk", "«Коричнева»"),
                                                ("uk", "uk", "«Коричнева»"), ("classic-us", "en", "Brown group"),
                                                ("ru", "ru", "«Коричневая»"), ("kyiv", "uk", "«Коричнева»"),
                                                ("ru", "en", "Brown group")])
def test_a_colour_group_is_named_in_the_bankers_language(edition, lang, group):
    """Found by the rules probe: a Russian banker on the US board read "Ann строит в группе «Brown»" in the log and on
    the confirmation, while the review said «Коричневая». The board's own name in the board's language, the catalog's
    word for the colour in another (as the review names groups, ``Translator.group``)."""
    from banker.i18n import Translator

    g = new_game(edition, "classic", ("Ann", "Bob"), None)
    g.push({"op": "transfer", "from": "bank", "to": "Ann", "amount": 1000, "memo": "x"})
    for pos in (1, 3):
        g.push({"op": "buy", "player": "Ann", "space": pos})
    move = g.push({"op": "build", "player": "Ann", "space": 1, "upto": 1})
    said = Translator(lang).parts(move.parts)
    assert group in said, said
    with pytest.raises(Refused) as e:
        g.push({"op": "mortgage", "player": "Ann", "space": 1})
    assert group.split()[0] in Translator(lang).refusal(e.value)
