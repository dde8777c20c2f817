"""Issue #12, the edition's own words: every sentence that names a KIND of deed says it as the edition does.

The Kyiv book (shared/rules/ua-kyiv-edition-rules.txt): "Місцями подорожей стали станції метро." and
"Підприємства: Міжнародний аеропорт «Жуляни» та Міжнародний аеропорт «Бориспіль»." The UK book
(shared/rules/uk-2008-speed-die-rules.md) calls the railroads stations ("Sites Stations Utilities"). The words
are the board files' ``[words]`` (kyiv.toml in uk, ru and en; uk.toml's stations); an edition without words
for a language keeps the catalog's generic word (``kind.railroad``: "railroad", "железная дорога",
"залізниця"). The counts ("2 станції метро") are test_one_language's; here the kind itself: a refusal to build
on it, a card case named for the wrong kind, a card's "advance to the nearest ...", the help screen's rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from msgspec.structs import replace

from banker import cli
from banker.boards import load_edition, load_variant, new_game
from banker.i18n import LANGS, Translator, catalog
from banker.rules import GameState, Refused, Setup
from banker.rules.cards import describe_effect
from banker.rules.edition import edition_from_dict
from banker.rules.messages import Msg, Named, render_parts
from banker.ui.app import BankerApp
from banker.ui.screens.help import HelpScreen

from .ui_helpers import make_session, screen_text

KYIV = ("Оля", "Тарас")
#: the generic words of every catalog, none of which the Kyiv edition says for its metro stations and airports
GENERIC = ("railroad", "utility", "железн", "коммунал", "залізниц", "комунальн")


def refused(game: GameState, cmd: dict, lang: str) -> str:
    with pytest.raises(Refused) as caught:
        game.push(cmd)
    return Translator(lang).refusal(caught.value)


def kyiv_game() -> GameState:
    game = new_game("kyiv", "classic", KYIV)
    for pos in (5, 12):
        game.push({"op": "buy", "player": "Оля", "space": pos})
    return game


def no_generic_word(text: str) -> bool:
    return not any(word in text.lower() for word in GENERIC)


# --------------------------------------------------------------------------- no buildings on a metro station
@pytest.mark.parametrize(("lang", "station", "airport"), [
    ("uk", "Станція метро «Вокзальна» — це станція метро: будувати можна лише на вулицях (кольорових групах)",
     "Міжнародний аеропорт «Жуляни» — це аеропорт: будувати можна лише на вулицях (кольорових групах)"),
    ("ru", "Станція метро «Вокзальна» — это станция метро: строить можно только на улицах (цветных группах)",
     "Міжнародний аеропорт «Жуляни» — это аэропорт: строить можно только на улицах (цветных группах)"),
    ("en", "Станція метро «Вокзальна» (metro station) takes no buildings: only streets (colour groups) do",
     "Міжнародний аеропорт «Жуляни» (airport) takes no buildings: only streets (colour groups) do")])
def test_kyiv_refuses_a_building_on_a_metro_station_in_its_words(lang: str, station: str, airport: str) -> None:
    """Only streets take buildings; the refusal says what the space is, in the edition's word (the nominative,
    as the sentence is worded for it). English has no article before the word ("a airport" cannot happen)."""
    game = kyiv_game()
    assert refused(game, {"op": "build", "player": "Оля", "space": 5}, lang) == station
    assert refused(game, {"op": "build", "player": "Оля", "space": 12}, lang) == airport


# --------------------------------------------------------------------------- a card case for the other kind
@pytest.mark.parametrize(("lang", "expected"), [
    ("uk", "Картка стосується поля «станція метро», а Міжнародний аеропорт «Жуляни» — це аеропорт"),
    ("ru", "Карточка относится к полю «станция метро», а Міжнародний аеропорт «Жуляни» — это аэропорт"),
    ("en", "The card is for the nearest metro station: Міжнародний аеропорт «Жуляни» (airport) is not one")])
def test_kyiv_names_both_kinds_when_a_card_case_does_not_fit(lang: str, expected: str) -> None:
    """"nearest-railroad" rent on an airport: the card's kind and the space's, both the edition's (on a Kyiv board
    whose deck has the "nearest" cards: its own has none, and refuses any card case, test_rules_money.py)."""
    game = kyiv_with_nearest_cards()
    for pos in (5, 12):
        game.push({"op": "buy", "player": "Оля", "space": pos})
    said = refused(game, {"op": "rent", "payer": "Тарас", "space": 12, "card": "nearest-railroad", "dice": 5}, lang)
    assert said == expected
    said = refused(game, {"op": "rent", "payer": "Тарас", "space": 5, "card": "nearest-utility"}, lang)
    assert {"uk": "«аеропорт»", "ru": "«аэропорт»", "en": "nearest airport"}[lang] in said and no_generic_word(said), said


# --------------------------------------------------------------------------- a card's "advance to the nearest ..."
def kyiv_with_nearest_cards() -> GameState:
    """The Kyiv board with the US deck's two "nearest" cards added (its own deck has none; a board file may)."""
    board = Path(cli.__file__).parent / "boards" / "kyiv.toml"
    data = __import__("tomllib").loads(board.read_text(encoding="utf-8"))
    data["cards"] += [
        {"id": "ch-metro", "deck": "chance", "text": "Їдьте до найближчої станції метро",
         "effect": {"type": "advance_nearest", "kind": "railroad"}},
        {"id": "ch-airport", "deck": "chance", "text": "Їдьте до найближчого аеропорту",
         "effect": {"type": "advance_nearest", "kind": "utility"}}]
    edition = edition_from_dict(data)
    return GameState(Setup("kyiv", "classic", KYIV), edition, load_variant("classic"))


@pytest.mark.parametrize(("lang", "metro", "airport"), [
    ("uk", "перейдіть на найближче поле «станція метро»: орендна плата — як сказано на картці",
     "перейдіть на найближче поле «аеропорт»: орендна плата — як сказано на картці"),
    ("ru", "перейдите на ближайшее поле «станция метро»: аренда — как сказано на карточке",
     "перейдите на ближайшее поле «аэропорт»: аренда — как сказано на карточке"),
    ("en", "advance to the nearest metro station: rent as the card says",
     "advance to the nearest airport: rent as the card says")])
def test_a_nearest_card_is_described_in_the_editions_words(lang: str, metro: str, airport: str) -> None:
    """What the console's card picker says a card does (``describe_effect``)."""
    game = kyiv_with_nearest_cards()
    tr = Translator(lang)
    assert tr.msg(describe_effect(game, game.edition.cards["ch-metro"])) == metro
    assert tr.msg(describe_effect(game, game.edition.cards["ch-airport"])) == airport


# --------------------------------------------------------------------------- editions without words keep the catalog's
@pytest.mark.parametrize(("lang", "build", "card", "nearest"), [
    ("en", "Reading Railroad (railroad) takes no buildings: only streets (colour groups) do",
     "The card is for the nearest railroad: Electric Company (utility) is not one",
     "advance to the nearest utility: rent as the card says"),
    ("ru", "Reading Railroad — это железная дорога: строить можно только на улицах (цветных группах)",
     "Карточка относится к полю «железная дорога», а Electric Company — это коммунальное предприятие",
     "перейдите на ближайшее поле «коммунальное предприятие»: аренда — как сказано на карточке"),
    ("uk", "Reading Railroad — це залізниця: будувати можна лише на вулицях (кольорових групах)",
     "Картка стосується поля «залізниця», а Electric Company — це комунальне підприємство",
     "перейдіть на найближче поле «комунальне підприємство»: орендна плата — як сказано на картці")])
def test_the_us_board_keeps_the_catalogs_words(lang: str, build: str, card: str, nearest: str) -> None:
    game = new_game("classic-us", "classic", ["Ann", "Bob"])
    for pos in (5, 12):
        game.push({"op": "buy", "player": "Ann", "space": pos})
    assert refused(game, {"op": "build", "player": "Ann", "space": 5}, lang) == build
    assert refused(game, {"op": "rent", "payer": "Bob", "space": 12, "card": "nearest-railroad", "dice": 5}, lang) == card
    assert Translator(lang).msg(describe_effect(game, game.edition.cards["ch-utility"])) == nearest


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "King's Cross Station (station) takes no buildings: only streets (colour groups) do"),
    ("ru", "King's Cross Station — это вокзал: строить можно только на улицах (цветных группах)"),
    ("uk", "King's Cross Station — це вокзал: будувати можна лише на вулицях (кольорових групах)")])
def test_the_uk_board_says_station_and_keeps_utility(lang: str, expected: str) -> None:
    game = new_game("uk", "classic", ["Ann", "Bob"])
    for pos in (5, 12):
        game.push({"op": "buy", "player": "Ann", "space": pos})
    assert refused(game, {"op": "build", "player": "Ann", "space": 5}, lang) == expected
    said = refused(game, {"op": "build", "player": "Ann", "space": 12}, lang)
    assert {"en": "(utility)", "ru": "коммунальное предприятие", "uk": "комунальне підприємство"}[lang] in said, said


# --------------------------------------------------------------------------- the words in the log
def test_the_words_survive_the_log_and_an_old_log_still_reads() -> None:
    """A ``Named`` is stored with its words (as ``Counted`` is): the sentence reads the same whatever board files are
    installed later; a part logged before (a plain ``kind.railroad`` message) reads as it did."""
    named = Named("kind.railroad", load_edition("kyiv").kind_forms("railroad"))
    msg = Msg("effect.advance_nearest", kind=named)
    stored = json.loads(json.dumps(msg.to_json()))
    assert stored["params"]["kind"] == {"named": {"key": "kind.railroad", "forms": {
        "uk": ["станція метро", "станції метро", "станцій метро"], "ru": ["станция метро", "станции метро", "станций метро"],
        "en": ["metro station", "metro stations"]}}}
    again = Msg.from_json(stored)
    assert again == msg
    for lang in LANGS:
        engine = catalog(lang)["engine"] or None
        assert again.render(engine, lang) == msg.render(engine, lang)
        assert render_parts([stored], engine, lang) == Translator(lang).msg(msg)
    assert render_parts([stored], catalog("uk")["engine"], "uk").endswith("«станція метро»: орендна плата — як сказано на картці")
    old = {"key": "effect.advance_nearest", "params": {"kind": {"msg": {"key": "kind.railroad", "params": {}}}}}
    assert render_parts([old], catalog("uk")["engine"], "uk").startswith("перейдіть на найближче поле «залізниця»")
    assert render_parts([old]) == "advance to the nearest railroad: rent as the card says"
    # no words for a language: the catalog's generic word
    partial = Named("kind.utility", {"uk": ["аеропорт", "аеропорти", "аеропортів"]})
    assert partial.render(catalog("ru")["engine"], "ru") == "коммунальное предприятие"
    assert partial.render(catalog("uk")["engine"], "uk") == "аеропорт"
    assert Named("kind.railroad", {}).render() == "railroad"


def test_an_edition_without_words_names_its_kinds_as_the_catalog_does() -> None:
    """Every difference is data: an edition's words removed, the Kyiv board says "залізниця" again."""
    game = kyiv_game()
    game.edition = replace(game.edition, words={})
    said = refused(game, {"op": "build", "player": "Оля", "space": 5}, "uk")
    assert said == "Станція метро «Вокзальна» — це залізниця: будувати можна лише на вулицях (кольорових групах)"


# --------------------------------------------------------------------------- the console's help
async def help_text(app: BankerApp) -> str:
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.action_help()
        for _ in range(5):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        return "\n".join(screen_text(w) for w in screen.query("Static"))


@pytest.mark.parametrize(("lang", "rule"), [
    ("uk", "Станції метро: 25/50/100/200 за кількістю. Аеропорти: 4× або 10× сума очок."),
    ("ru", "Станции метро: 25/50/100/200 по числу. Аэропорты: 4× или 10× сумма кубиков."),
    ("en", "Metro stations: 25/50/100/200 by count. Airports: 4x or 10x the dice.")])
async def test_the_help_on_the_kyiv_board_says_metro_stations_and_airports(tmp_path: Path, lang: str, rule: str) -> None:
    """The help's rules name the railroads and the utilities as the open game's edition does; in Ukrainian on the
    Kyiv board no "залізниц" or "комунальн" is left anywhere in the help."""
    path = make_session(tmp_path / "k.json", KYIV, edition="kyiv")
    text = await help_text(BankerApp(str(path), lang=lang))
    assert rule in text, text
    assert no_generic_word(text), [line for line in text.splitlines() if not no_generic_word(line)]


@pytest.mark.parametrize(("lang", "rule"), [
    ("uk", "Залізниці: 25/50/100/200 за кількістю. Комунальні підприємства: 4× або 10× сума очок."),
    ("en", "Railroads: 25/50/100/200 by count. Utilities: 4x or 10x the dice.")])
async def test_the_help_elsewhere_keeps_the_catalogs_words(tmp_path: Path, lang: str, rule: str) -> None:
    """The US board in a game, and no game at all (the start screen), say the catalog's words."""
    path = make_session(tmp_path / "us.json", edition="classic-us")
    assert rule in await help_text(BankerApp(str(path), lang=lang))
    assert rule in await help_text(BankerApp(lang=lang, data_dir=tmp_path / "data"))


@pytest.mark.parametrize(("edition", "names", "lang", "line"), [
    ("kyiv", KYIV, "uk", "картка «Шанс» або «Суспільний фонд», що рухає гроші"),
    ("classic-us", None, "en", "a Chance or Community Chest card that moves money"),
    ("ru", None, "ru", "карточка «Шанс» или «Общественная казна», которая двигает деньги")])
async def test_the_help_and_the_palette_name_the_editions_decks(tmp_path: Path, edition: str, names, lang: str,
                                                                line: str) -> None:
    """The card action's line names the decks as the open edition prints them: the Kyiv board's Community Chest is
    "Суспільний фонд" (banker/boards/kyiv.toml [decks]), not the catalog's "Громадська скарбниця"."""
    path = make_session(tmp_path / "g.json", *([names] if names else []), edition=edition)
    assert line in await help_text(BankerApp(str(path), lang=lang))
    app = BankerApp(str(path), lang=lang)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert line in [c.help for c in app.get_system_commands(app.screen)]


async def test_without_a_game_the_help_names_the_catalogs_decks(tmp_path: Path) -> None:
    text = await help_text(BankerApp(lang="uk", data_dir=tmp_path / "data"))
    assert "картка «Шанс» або «Громадська скарбниця», що рухає гроші" in text


@pytest.mark.parametrize(("lang", "words"), [("ru", "у владельца 2 вокзала"), ("uk", "2 вокзали"), ("en", "2 stations")])
def test_the_russian_board_calls_its_railroads_stations_as_its_book_does(lang: str, words: str) -> None:
    """ru-2004-rules.md: "у Вас будет возможность купить этот Вокзал ... зависит от количества других Вокзалов,
    принадлежащих игроку-владельцу Вокзала" (its English translation: "Station"); the board's [words] say so and
    the Russian sample's railroad rent reads so in every language."""
    from banker.ledger import Session

    root = Path(__file__).resolve().parent.parent
    with Session.open(root / "sample_sessions" / "ru-short.json", readonly=True) as session:
        entry = next(e for e in session.entries if e.seq == 55)
        assert words in Translator(lang).parts(entry.parts or []), Translator(lang).parts(entry.parts or [])


@pytest.mark.parametrize(("edition", "lang", "dark_blue", "railroad"), [
    ("uk", "uk", "Синя", "Вокзали"), ("ru", "en", "Dark Blue", "Stations"), ("kyiv", "ru", "Синяя", "Станции метро"),
    ("ru", "ru", "Синяя", "Вокзалы"), ("classic-us", "en", "Dark Blue", "Railroads")])
def test_group_names_are_in_one_language(edition: str, lang: str, dark_blue: str, railroad: str) -> None:
    """Found by a probe: a Ukrainian review of the UK board listed "Dark Blue, Вокзали, Orange" (the colours from the
    board file, the stations from the catalog), an English page of the RU board "КОРИЧНЕВАЯ ... STATIONS". A colour
    is the board's own word when the board is in the interface's language, else the catalog's."""
    from banker.boards import load_edition

    tr = Translator(lang)
    assert (tr.group(load_edition(edition), "dark_blue"), tr.group(load_edition(edition), "railroad")) == (dark_blue,
                                                                                                          railroad)


@pytest.mark.parametrize(("edition", "choice"), [("kyiv", False), ("ru", False), ("uk", False), ("classic-us", True)])
async def test_the_help_speaks_of_the_income_tax_choice_only_where_the_board_prints_it(tmp_path: Path, edition: str,
                                                                                       choice: bool) -> None:
    """The choice between the flat tax and 10% of the worth is the US board's; on the others the help's tax line
    says the amount printed, and its rules leave the choice out (before, every board's help described it)."""
    path = make_session(tmp_path / "g.json", KYIV, edition=edition)
    text = await help_text(BankerApp(str(path), lang="ru"))
    assert ("выбор подоходного налога" in text) is choice
    assert ("сумма, напечатанная на нём" in text) is not choice
