"""The interface catalogs (banker/i18n/{en,ru,uk}.toml): complete, consistent, and used as written."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from banker.i18n import LANGS, LISTS, Translator, _flatten, catalog, detect_lang

I18N = Path(__file__).parent.parent / "banker" / "i18n"
UI = Path(__file__).parent.parent / "banker" / "ui"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(lang: str) -> dict:
    return _flatten(tomllib.loads((I18N / f"{lang}.toml").read_text(encoding="utf-8")))


def forms(value: str | list[str]) -> list[str]:
    return value if isinstance(value, list) else [value]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_english_key_is_translated_and_nothing_else(lang):
    english, other = load("en"), load(lang)
    assert sorted(set(english) - set(other)) == [], f"{lang}.toml lacks these keys"
    assert sorted(set(other) - set(english)) == [], f"{lang}.toml has keys English does not"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_placeholders_are_the_same_in_every_form(lang):
    english, other = load("en"), load(lang)
    for key, value in english.items():
        wanted = set(PLACEHOLDER.findall(forms(value)[0]))
        for form in forms(other[key]):
            assert set(PLACEHOLDER.findall(form)) == wanted, f"{lang}.toml {key}: {form!r}"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_plurals_have_three_forms_and_strings_are_really_translated(lang):
    english, other = load("en"), load(lang)
    for key, value in english.items():
        if isinstance(value, list):
            assert len(value) == 2, f"en.toml {key}: English has [one, other]"
            if key in LISTS:  # forms agreeing with a list they say: one or several
                assert isinstance(other[key], list) and len(other[key]) == 2, f"{lang}.toml {key}: [one, several]"
            else:  # forms agreeing with the number they say
                assert isinstance(other[key], list) and len(other[key]) == 3, f"{lang}.toml {key}: [one, few, many]"
                assert any("{n}" in form for form in value), f"en.toml {key}: says no {{n}}; a list belongs in LISTS"
        for form in forms(other[key]):
            words = PLACEHOLDER.sub("", form)
            if re.search(r"[A-Za-z]{3,}", words) and not re.search(r"[А-Яа-яІіЇїЄєҐґ]", words):
                pytest.fail(f"{lang}.toml {key} is still English: {form!r}")


def test_plural_forms_follow_the_number():
    ru, uk, en = Translator("ru"), Translator("uk"), Translator("en")
    assert en("player.jail_cards", n=1) == "1 jail card"
    assert en("player.jail_cards", n=2) == "2 jail cards"
    one, few, many = (ru("player.jail_cards", n=n) for n in (1, 3, 5))
    assert len({one, few, many}) == 3
    assert ru("player.jail_cards", n=21) == one.replace("1", "21", 1)
    assert ru("player.jail_cards", n=11) == many.replace("5", "11", 1)
    assert ru("player.jail_cards", n=24) == few.replace("3", "24", 1)
    assert len({uk("player.jail_cards", n=n) .split(" ", 1)[1] for n in (1, 2, 5)}) == 3
    assert ru("table.divergent", n=1, seqs="7").startswith("Запис") and "7" in ru("table.divergent", n=1, seqs="7")
    assert ru("table.divergent", n=1, seqs="7") != ru("table.divergent", n=2, seqs="7, 9")


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("n", [1, 2, 5, 21])
def test_a_list_of_divergent_entries_is_plural_whenever_it_holds_more_than_one(lang, n):
    """21 divergent entries were said "Запись 1, 2, … 21 сделана": the singular a count of 21 takes, for a list."""
    seqs = ", ".join(str(i) for i in range(1, n + 1))
    said = Translator(lang)("table.divergent", seqs=seqs, n=n)
    one, several = catalog(lang)["ui"]["table.divergent"]
    assert said == (one if n == 1 else several).format(seqs=seqs)
    assert said.startswith(("Запись " if lang == "ru" else "Запис ") if n == 1 else "Записи ")


def test_the_code_asks_only_for_keys_the_catalog_has():
    english = load("en")
    used: set[str] = set()
    for path in UI.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\btr\(\s*["']([a-z_]+\.[a-z0-9_-]+)["']""", text))
    assert used, "no interface string found: the scan itself is broken"
    assert sorted(used - set(english)) == []


def test_a_missing_translation_falls_back_to_english_never_to_a_key(monkeypatch):
    tr = Translator("ru")
    monkeypatch.delitem(tr._ui, "flow.cancelled")
    assert tr("flow.cancelled") == "Cancelled: nothing changed."
    with pytest.raises(KeyError):
        tr("flow.no_such_key")
    assert tr.get("flow.no_such_key", "as given") == "as given"


def test_a_broken_placeholder_in_a_translation_falls_back_to_english(monkeypatch):
    tr = Translator("uk")
    monkeypatch.setitem(tr._ui, "debt.cash", "Готівка {amout}")
    assert tr("debt.cash", amount="$5") == "Cash $5"


def test_every_catalog_loads_from_the_installed_package():
    for lang in LANGS:
        assert catalog(lang)["ui"]["start.title"].startswith("banker")


@pytest.mark.parametrize(("environ", "lang"), [
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "uk_UA.UTF-8"}, "uk"),
    ({"LC_ALL": "ua"}, "uk"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
    ({"LC_MESSAGES": "uk_UA", "LANG": "en_US.UTF-8"}, "uk"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({}, "en"),
])
def test_the_language_comes_from_the_locale(environ, lang):
    assert detect_lang(environ) == lang


@pytest.mark.parametrize(("lang", "stem"), [("en", "undo"), ("ru", "отмен"), ("uk", "скас")])
def test_undo_has_one_word_in_the_footer_the_command_line_and_the_log(lang, stem):
    """The key's label, the word typed for it and what the log says of an undone entry share one stem: the
    Ukrainian footer said «Відмінити» while the log and the command line said «скасовано» / «скасувати»."""
    from banker.ui.quick import typed_verb

    tr = Translator(lang)
    for said in (tr("action.undo"), typed_verb("undo", lang), tr("tableview.undone")):
        assert stem in said.casefold(), said


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_salary_has_one_word_in_the_review_and_the_audit(lang):
    """Found by a probe: the audit named a payment's purpose "жалованье" (uk "платня") where the review, the exports
    and the keys say "Зарплата"."""
    tr = Translator(lang)
    assert tr("session.why.salary").casefold() == tr("action.salary").casefold() == "зарплата"


def test_the_end_of_the_game_says_who_won_or_who_tied() -> None:
    """Found by a probe: the bank's panel and the players' page said "Game over: Zoë", not that she won, and a tie
    read the same as a win of two."""
    from banker.i18n import Translator

    en, ru, uk = Translator("en"), Translator("ru"), Translator("uk")
    assert en.game_over("Zoë") == "Game over: Zoë wins"
    assert en.game_over(None, ["Ann", "Bob"]) == "Game over: a tie (Ann, Bob)"
    assert ru.game_over("Зоя") == "Игра окончена: побеждает Зоя"
    assert ru.game_over(None, ["Аня", "Боря"]) == "Игра окончена: ничья (Аня, Боря)"
    assert uk.game_over("Зоя") == "Гру завершено: перемагає Зоя" and uk.game_over(None) == "Гру завершено"


@pytest.mark.parametrize(("lang", "label", "in_text", "bankrupt"), [
    ("en", "Bank", "Bank", "bankrupt (to Bank)"),  # a name in English, capitalised in a sentence too
    ("ru", "Банк", "банк", "банкрот (кредитор: банк)"),
    ("uk", "Банк", "банк", "банкрут (кредитор: банк)"),
])
def test_the_bank_keeps_its_capital_as_a_label_and_is_written_as_the_catalogs_do_in_a_sentence(
        lang: str, label: str, in_text: str, bankrupt: str) -> None:
    """The Russian and Ukrainian catalogs write "банк" within a sentence (the engine's "the-bank", "платит банку");
    "кредитор: Банк" on a bankrupt's card and in a confirmation broke it. A label ("Ann → Банк") keeps the capital."""
    from banker.rules.names import BANK

    tr = Translator(lang)
    assert tr.account(BANK) == label and tr.account(BANK, in_text=True) == in_text
    assert tr("player.bankrupt", creditor=tr.account(BANK, in_text=True)) == bankrupt
    assert tr.account("Ann", in_text=True) == "Ann"


#: placeholders a sentence quotes as a script or a file writes them, in every language: a key of a command or of a
#: JSON line ("{key}", "{label}", "{figure}", the op), code, not prose
CODE_QUOTED = {"key", "label", "figure", "op"}
QUOTED = re.compile(r"""(['"«“‘])\{(\w+)\}(['"»”’])""")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_quoted_word_has_one_quoting_style_per_language(lang):
    """A name or a word typed was quoted 'ann' by the console and "ann" by the engine in English, and 'Банк' in
    Russian: English quotes with straight double quotes, as its sentences mostly did; Russian and Ukrainian with
    «» (nested „“: banker.rules.messages.nest_quotes). A script's own keys stay as the script writes them."""
    from banker.rules.messages import EN

    cat = catalog(lang)
    templates = [*cat["ui"].items(), *cat["engine"].items(), *(EN.items() if lang == "en" else [])]
    wanted = '""' if lang == "en" else "«»"
    for key, value in templates:
        for form in forms(value):
            for opening, name, closing in QUOTED.findall(form):
                code = name in CODE_QUOTED or key == "cli_json.twice"  # the JSON key given twice
                assert opening + closing == ('""' if code else wanted), f"{lang} {key}: {form!r}"
