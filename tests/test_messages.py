"""Engine sentences are keyed templates: rendered in English, storable, translatable."""

from __future__ import annotations

import pytest

from banker.rules import Refused
from banker.rules.messages import EN, Msg, plural_index, render_parts

from .rules_helpers import game, own


def test_move_text_is_the_english_rendering_of_its_parts():
    g = game()
    own(g, "Ann", 39)
    move = g.push({"op": "rent", "payer": "Bob", "space": 39})
    assert move.text == render_parts(move.parts) == "Bob pays Ann $50 rent on Boardwalk (rent $50)"
    assert move.parts[0]["key"] == "log.rent"


def test_parts_render_in_another_catalog_with_plurals():
    catalog = {"log.rent": "{payer} платит {owner} {amount} за {space} ({how})",
               "how.houses": ["{n} дом: {amount}", "{n} дома: {amount}", "{n} домов: {amount}"]}
    msg = Msg("log.rent", payer="Боб", owner="Аня", amount="50 т.р.", space="Арбат",
              how=Msg("how.houses", n=2, amount="50 т.р."))
    assert msg.render(catalog, "ru") == "Боб платит Аня 50 т.р. за Арбат (2 дома: 50 т.р.)"
    assert Msg.from_json(msg.to_json()) == msg
    # a missing translation falls back to English
    assert Msg("log.buy", player="A", space="B", amount="1").render(catalog, "ru") == "A buys B for 1"


@pytest.mark.parametrize("n,ru", [(1, 0), (2, 1), (4, 1), (5, 2), (11, 2), (12, 2), (21, 0), (22, 1), (25, 2)])
def test_slavic_plural_forms(n, ru):
    assert plural_index("ru", n) == ru == plural_index("uk", n)


def test_refusals_carry_their_message_for_translation():
    g = game()
    with pytest.raises(Refused) as e:
        g.push({"op": "buy", "player": "Ann", "space": 4})
    assert e.value.msg.key == "not-a-deed"
    assert e.value.render({"not-a-deed": "{space}: не собственность"}, "ru") == "Income Tax: не собственность"


def test_every_template_formats_with_its_own_placeholders():
    import string

    for key, template in EN.items():
        forms = template if isinstance(template, list) else [template]
        names = {f for form in forms for _, f, _, _ in string.Formatter().parse(form) if f}
        for form in forms:
            form.format(**{n: "x" for n in names})
        assert Msg(key, **{n: 1 for n in names}).render()
