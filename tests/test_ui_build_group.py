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


async def test_a_group_build_refused_for_the_last_hotels_is_said_on_the_single_builds_confirmation(tmp_path: Path) -> None:
    """Found playing: with the bank's last two hotels and another player who may build one, "a hotel on every lot" is
    refused, so the "how much?" question (one way left) was skipped and nothing said why: the single hotel's
    confirmation now says it."""
    top_up = [{"op": "transfer", "from": "bank", "to": p, "amount": 50_000, "memo": "x"} for p in ("Ann", "Bob", "Cid")]
    buys = [{"op": "buy", "player": "Ann", "space": s} for s in (31, 32, 34, 16, 18, 19, 21, 23, 24, 6, 8, 9)]
    buys += [{"op": "buy", "player": "Bob", "space": s} for s in (37, 39)]
    buys += [{"op": "buy", "player": "Cid", "space": s} for s in (1, 3)]
    builds = [{"op": "build", "player": "Ann", "space": s, "upto": 5} for s in (31, 16, 21)]
    builds += [{"op": "build", "player": "Ann", "space": 6, "upto": 4}, {"op": "build", "player": "Ann", "space": 6},
               {"op": "build", "player": "Bob", "space": 37, "upto": 4}, {"op": "build", "player": "Cid", "space": 1, "upto": 4}]
    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"), commands=top_up + buys + builds)
    assert file_state(path)["bank"]["hotels"] == 2
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("h")
        await b.choose("Bob")
        await b.choose("Park")
        body = await b.confirm()
        assert "Bob builds a hotel on Park Place" in body
        assert "A hotel on every lot: The bank has 2 hotels: building 2 hotels would leave 0 hotels" in body, body
        assert file_entries(path)[-1]["command"] == {"op": "build", "player": "Bob", "space": 37}
