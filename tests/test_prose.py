"""A number is never left at the end of a line, away from what follows it (banker.ui.widgets.prose): found in
Russian at 80 columns, a dialog read "Оценка имущества: Аня — 1 708" and, on the next line, "т.р., Боря — …", and
a Ukrainian one "1" / "будинок"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.text import Text
from textual.geometry import Region

from banker.ui.app import BankerApp
from banker.ui.screens.dialogs import ConfirmScreen, InfoScreen
from banker.ui.widgets.prose import Prose

from .ui_helpers import make_session

SENTENCES = [
    "Конец игры; побеждает Аня (время вышло). Оценка имущества: Аня — 1 708 т.р., Боря — 1 500 т.р., "
    "Гена — 1 500 т.р., Вика — 1 492 т.р.",
    "Богдан будує в групі «Синя» (Хрещатик: 1 будинок, Бессарабська площа: 1 будинок) за M400",
    "Ann builds on the Dark Blue group (Park Place: 2 houses, Boardwalk: 2 houses) for $800",
]
#: a number and what follows it: digits, then a space, then a digit or a letter ("1 708", "2 дома", "$10 interest")
NUMBER_AND_NEXT = re.compile(r"[0-9] +\S")


def split_numbers(lines: list[str]) -> list[str]:
    """The lines that end with a number whose next word opened the following line."""
    return [line for line, after in zip(lines, lines[1:], strict=False)
            if re.search(r"[0-9]$", line) and after[:1].strip()]


@pytest.mark.parametrize("sentence", SENTENCES)
def test_a_number_keeps_what_follows_it_at_every_width(sentence: str) -> None:
    for width in range(12, 100):
        lines = [line.plain for line in Prose(Text(sentence)).lines(width)]
        assert all(len(line) <= width for line in lines), (width, lines)
        assert split_numbers(lines) == [], (width, lines)
        assert " ".join(lines) == sentence, (width, lines)  # the words, in order, none lost


def test_only_a_piece_wider_than_the_line_is_cut() -> None:
    assert [line.plain for line in Prose("Аня платит 1 500 т.р.").lines(6)] == ["Аня", "платит", "1 500", "т.р."]
    assert [line.plain for line in Prose("abcdefghij k").lines(4)] == ["abcd", "efgh", "ij k"]
    assert [line.plain for line in Prose("one\n\ntwo three").lines(5)] == ["one", "", "two", "three"]


def test_the_styles_of_the_text_are_kept() -> None:
    text = Text("Аня — ")
    text.append("1 708 т.р.", "bold red")
    lines = Prose(text).lines(8)
    assert [line.plain for line in lines] == ["Аня —", "1 708", "т.р."]
    assert all(span.style == "bold red" for line in lines[1:] for span in line.spans) and lines[1].spans


@pytest.mark.parametrize("dialog", [ConfirmScreen, InfoScreen])
@pytest.mark.parametrize("size", [(80, 24), (60, 24)])
async def test_a_dialog_never_splits_an_amount_from_its_unit(tmp_path: Path, dialog, size) -> None:
    app = BankerApp(make_session(tmp_path / "g.json"), lang="ru")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.push_screen(dialog("Конец игры", SENTENCES[:1]))
        await pilot.pause()
        body = app.screen.query_one("#confirm-body" if dialog is ConfirmScreen else "#info-body")
        width, height = body.content_region.size
        lines = [strip.text.strip() for strip in body.render_lines(Region(0, 0, width, height))]
        lines = [line for line in lines if line]
        assert len(lines) >= 2, lines  # it wraps at this width
        assert split_numbers(lines) == [], lines
        assert " ".join(lines) == SENTENCES[0]
