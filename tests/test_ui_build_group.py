"""Building on a whole group from the console (issue #12): "how much?" offers one building or every lot up to
a level, each with its cost (a way the engine refuses is shown with its reason); one confirmation lists each lot
and the total; in English, Russian and Ukrainian."""

from __future__ import annotations

from pathlib import Path

import pytest

from banker.ui.app import BankerApp

from .ui_helpers import Banker, cash, file_entries, file_state, make_session

WORDS = {
    "en": (("Ann", "Bob"), "One house on", "Every lot up to 2 houses", "A hotel on every lot", "Total: $200"),
    "ru": (("Аня", "Боря"), "Один дом на участке", "На каждом участке до 2 домов", "Отель на каждом участке",
           "Итого: 200 т.р."),
    "uk": (("Оля", "Петро"), "Один будинок на ділянці", "На кожній ділянці до 2 будинків", "Готель на кожній ділянці",
           "Разом: M200"),
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_two_houses_on_each_brown_in_one_action(tmp_path: Path, lang: str) -> None:
    (ann, bob), one, upto2, hotels, total = WORDS[lang]
    edition = {"en": "classic-us", "ru": "ru", "uk": "kyiv"}[lang]
    path = make_session(tmp_path / "g.json", (ann, bob), edition=edition,
                        commands=[{"op": "buy", "player": ann, "space": 1}, {"op": "buy", "player": ann, "space": 3}])
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        before = cash(path)[ann]
        await b.act("h")
        await b.choose(ann[:2])
        await b.choose()
        shown = b.options()
        assert shown[0].startswith(one) and any(s.startswith(upto2) for s in shown), shown
        await b.choose(upto2)
        body = await b.confirm()
        assert total in body, body
        state = file_state(path)
        assert [state["spaces"][p]["houses"] for p in ("1", "3")] == [2, 2]
        assert before - cash(path)[ann] == 4 * 50
        assert file_entries(path)[-1]["command"] == {"op": "build", "player": ann, "space": 1, "upto": 2}
        # the hotels cost more than Ann has: offered, but disabled with the engine's reason
        await b.act("h")
        await b.choose(ann[:2])
        await b.choose()
        options = b.options()
        assert any(o.startswith(hotels) for o in options), options
        await b.key("escape")
