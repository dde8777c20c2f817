"""The quick-entry line: verbs, players and spaces by unambiguous prefix, amounts from numbers."""

from __future__ import annotations

import pytest

from banker.rules import ops
from banker.rules.ops import Undo, decode
from banker.ui.quick import DIALOGS, VERBS, QuickError, completions, parse

from .rules_helpers import game, own


@pytest.fixture
def g():
    g = game()
    own(g, "Ann", 37, 39)
    own(g, "Bob", 12)
    return g


@pytest.mark.parametrize("line,command", [
    ("rent boardwalk bob", {"op": "rent", "space": 39, "payer": "Bob"}),
    ("rent boa b", {"op": "rent", "space": 39, "payer": "Bob"}),
    ("build park", {"op": "build", "space": 37, "player": "Ann"}),
    ("rent elec ann 7", {"op": "rent", "space": 12, "payer": "Ann", "dice": 7}),
    ("rent electric cid nearest 9", {"op": "rent", "space": 12, "payer": "Cid", "card": "nearest-utility", "dice": 9}),
    ("tax income cid percent", {"op": "tax", "space": 4, "player": "Cid", "choice": "percent"}),
    ("tax luxury cid", {"op": "tax", "space": 38, "player": "Cid"}),
    ("pay ann bob 50 sold a jail card", {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 50,
                                         "memo": "sold a jail card"}),
    ("pay bank ann 20", {"op": "transfer", "from": "bank", "to": "Ann", "amount": 20, "memo": ""}),
    ("card ann bank error", {"op": "card", "player": "Ann", "card": "cc-bank-error"}),
    ("card cid illinois passed", {"op": "card", "player": "Cid", "card": "ch-illinois", "passed_go": True}),
    ("auction baltic cid 30", {"op": "auction", "space": 3, "winner": "Cid", "bid": 30}),
    ("undo wrong payer", {"op": "undo", "reason": "wrong payer"}),
    ("sal a", {"op": "salary", "player": "Ann"}),
    ("mortgage boardwalk", {"op": "mortgage", "space": 39, "player": "Ann"}),
    ("lift boardwalk", {"op": "unmortgage", "space": 39, "player": "Ann"}),
    ("buy cid #1", {"op": "buy", "player": "Cid", "space": 1}),
    ("buy cid st charles", {"op": "buy", "player": "Cid", "space": 11}),
    ("fine cid", {"op": "jail_fine", "player": "Cid"}),
    ("sell park all", {"op": "sell_building", "space": 37, "player": "Ann", "all": True}),
    ("продать park все", {"op": "sell_building", "space": 37, "player": "Ann", "all": True}),
    ("jailcard ann chance", {"op": "jail_card", "player": "Ann", "use": True, "card": "chance"}),
    ("jailcard ann chest", {"op": "jail_card", "player": "Ann", "use": True, "card": "chest"}),
    ("jailcard ann", {"op": "jail_card", "player": "Ann", "use": True}),
    ("end", {"op": "end_game"}),
])
def test_complete_lines(g, line, command):
    if line.startswith("lift"):
        g.push({"op": "mortgage", "player": "Ann", "space": 39})
    if line.startswith(("sell", "продать")):
        g.push({"op": "transfer", "from": "bank", "to": "Ann", "amount": 1000, "memo": "x"})
        g.push({"op": "build", "player": "Ann", "space": 37})
    if line.startswith("jailcard"):
        g.push({"op": "card", "player": "Ann", "card": "ch-jail-free"})
        g.push({"op": "card", "player": "Ann", "card": "cc-jail-free"})
        if line == "jailcard ann":
            g.push({"op": "jail_card", "player": "Ann", "card": "chest"})
    parsed = parse(g, line)
    assert parsed.command == command
    assert parsed.complete
    if parsed.op == "undo":  # the session log's: the engine pops
        assert decode(parsed.command) == Undo(reason="wrong payer")
        g.pop()
    else:
        g.push(parsed.command)  # the engine accepts what the line says


def test_incomplete_lines_name_what_is_missing(g):
    assert parse(g, "rent water").missing == ["payer", "dice"]
    assert parse(g, "tax income ann").missing == ["choice"]
    assert parse(g, "buy boardwalk").missing == ["player"]
    assert not parse(g, "trade ann bob").complete


@pytest.mark.parametrize("line,message", [
    ("rent st cid", "could be St. Charles Place, States Avenue, St. James Place"),
    ("zap ann", 'unknown action "zap"'),
    ("rent boardwalk zed", "neither a player nor a space"),
    ("de ann", "could be deal, debt"),
    # a minus sign is refused, never dropped with the hyphen: "-5" was read as 5, from the first player named
    ("pay ann bob -5 lunch", '"-5": an amount is never negative; for money the other way round, name who pays first'),
    ("pay ann bob \u22125", "an amount is never negative"),
    # "1 000", as the table writes amounts in Russian and Ukrainian: refused, not 1 with "000" for the memo
    ("pay ann bob 1 000 lunch", '"1 000" looks like one amount with a space in it: type it in one piece \\(1000\\)'),
    ("pay ann bob 12 500", "type it in one piece \\(12500\\)"),
    # a number the action has no room for is refused, never dropped: "40 50" recorded a bid of 40, and "buy ... 40"
    # bought at the printed price without a word about the 40
    ("auction baltic cid 40 50", '"50" is one number too many for this action: take it out'),
    ("buy cid baltic 40", '"40" is one number too many for this action'),
    ("rent boardwalk bob 7 8", '"8" is one number too many for this action'),
    ("rent elec ann 7 9", '"9" is one number too many for this action'),
    # over the table's limit: said in the console's words, not the engine's "transfer: "amount" ..." for scripts
    ("pay ann bob 1200001", '"1200001" is more than a table ever moves at once: at most \\$1,200,000'),
    ("auction baltic cid 9999999", "at most \\$1,200,000"),
])
def test_ambiguous_or_unknown(g, line, message):
    with pytest.raises(QuickError, match=message):
        parse(g, line)


def test_completions(g):
    assert "rent boardwalk" in completions(g, "rent boa")
    assert completions(g, "ren") == ["rent"]
    assert "rent boardwalk Bob" in completions(g, "rent boardwalk b")


def test_every_op_and_dialog_has_its_words_and_nothing_else():
    """The verbs are the only per-op table of the quick line: one entry for every op and console dialog."""
    assert set(VERBS) == set(ops.OPS) | set(DIALOGS)


def test_what_the_line_fills_is_derived_from_the_ops_fields(g):
    """A key the line fills comes from the op's field kinds: players in order, the owner by default,
    the board's only tax space, a keyword for a flag, the dice only on a utility."""
    assert parse(g, "pay bob ann 5").command == {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 5, "memo": ""}
    assert parse(g, "rent boardwalk bob 7").command == {"op": "rent", "space": 39, "payer": "Bob"}  # no dice on a street
    assert parse(g, "salary ann landed").command == {"op": "salary", "player": "Ann", "landed": True}
    assert parse(g, "auction baltic").missing == ["winner", "bid"]
    assert parse(g, "debt ann").command == {"op": "debt", "player": "Ann"} and not parse(g, "debt ann").complete


def test_every_action_has_a_key_and_a_label_in_every_language():
    """The console lists every op in the ops' order (banker.rules.ops), and its own dialogs, each with its key,
    its label and its help line."""
    from banker.i18n import LANGS, catalog
    from banker.ui.keys import ACTIONS

    listed = [op for op, _key in ACTIONS]
    assert set(listed) == set(ops.OPS) | set(DIALOGS)
    assert [op for op in listed if op in ops.OPS] == list(ops.OPS)
    assert len({key for _op, key in ACTIONS}) == len(ACTIONS)
    for lang in LANGS:
        ui = catalog(lang)["ui"]
        assert all(f"action.{op}" in ui and f"help.{op}" in ui for op in listed), lang


@pytest.mark.parametrize("line,op", [("s ann", "salary"), ("r boardwalk bob", "rent")])
def test_one_letter_is_the_action_on_that_key(g, line, op):
    """A one-letter verb several verbs start with is the action of that key on the table (``r`` is rent
    though ``roll`` starts with it as well)."""
    assert parse(g, line).op == op


@pytest.mark.parametrize("lang,unknown,ambiguous", [
    ("en", "type one of salary, buy, auction, rent,", "could be deal, debt"),
    ("ru", "введите одно из: зарплата, покупка, аукцион, аренда,", "может означать: залог, зарплата, застройка;"),
    ("uk", "введіть одну з: зарплата, купівля, аукціон, оренда,", "може означати: забудова, зарплата, застава;"),
])
def test_an_unknown_or_ambiguous_verb_is_answered_with_the_verbs_of_the_bankers_language(lang, unknown, ambiguous):
    """The words listed are ones to type in the interface's language (before, always the English ones), each
    meaning its action when typed; for a prefix, the words that begin with it."""
    from banker.i18n import Translator
    from banker.ui.quick import VERBS, match_verb, typed_verb

    tr = Translator(lang)
    with pytest.raises(QuickError) as raised:
        match_verb("хрюкни")
    assert unknown in raised.value.text(tr)
    with pytest.raises(QuickError) as raised:
        match_verb({"en": "de", "ru": "за", "uk": "за"}[lang])
    assert ambiguous in raised.value.text(tr)
    assert all(match_verb(typed_verb(op, lang)) == op for op in VERBS)



@pytest.mark.parametrize("edition,line,card", [
    # both decks print the same Get Out of Jail Free text: the line said the Chance card whichever was drawn, and the
    # real Chance card, drawn later, was refused as held ("it is not in the Шанс deck")
    ("ru", "card ann освобод", None),
    ("ru", "card ann освобод казна", "cc-jail-free"),
    ("ru", "card ann освобод шанс", "ch-jail-free"),
    ("kyiv", "card ann звільніться фонд", "cc-jail-free"),
    ("uk", "card ann jail free community", "cc-jail-free"),
    ("uk", "card ann jail free", None),
    ("classic-us", "card ann nearest railroad", "ch-railroad-1"),  # two of one card in one deck: the same card
])
def test_a_card_of_the_same_text_in_both_decks_is_named_by_its_deck(edition, line, card):
    g = game(edition)
    parsed = parse(g, line)
    assert parsed.command.get("card") == card
    assert (parsed.missing == ["card"]) == (card is None)


@pytest.mark.parametrize("line,command", [
    ("undo #3 wrong house", {"op": "undo", "seq": 3, "reason": "wrong house"}),
    ("отмена #3 не тот дом", {"op": "undo", "seq": 3, "reason": "не тот дом"}),
    ("отменить №12 ошибка", {"op": "undo", "seq": 12, "reason": "ошибка"}),
    ("скасувати #3 не той будинок", {"op": "undo", "seq": 3, "reason": "не той будинок"}),
    ("undo #3", {"op": "undo", "seq": 3}),  # the reason is asked
    ("undo wrong #3", {"op": "undo", "reason": "wrong #3"}),  # only first: the reason may hold a number
    ("undo 3 wrong", {"op": "undo", "reason": "3 wrong"}),  # a bare number is the reason's ("undo 2 houses not 3")
    ("undo #²", {"op": "undo", "reason": "#²"}),
])
def test_undo_takes_the_entry_named_by_its_number_first_and_the_rest_as_the_reason(g, line, command):
    """Found by a probe: `undo #3 wrong house` made "#3 wrong house" the reason of an undo of the LAST entry. The log
    numbers its entries; `#N` first names the one to undo, in each language's undo verb, as `banker apply`'s "seq"."""
    parsed = parse(g, line)
    assert parsed.command == command
    assert parsed.missing == ([] if "reason" in command else ["reason"])
    if "reason" in command:
        assert decode(parsed.command) == Undo(**{k: v for k, v in command.items() if k != "op"})
