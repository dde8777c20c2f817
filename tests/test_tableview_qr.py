"""The QR code of the players' page: what the console shows decodes, with a real decoder
(zxing-cpp), to exactly the address the server serves.

The console draws the code as text, two module rows per line (``▀ ▄ █`` and space), dark glyphs
on a light background. The tests read that text back into modules and hand the bitmap to the
decoder, as a phone camera would hand it a photo of the screen.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from banker.tableview.qr import BORDER, ansi_qr_text, qr_matrix, qr_size, qr_text, text_matrix
from banker.ui.app import BankerApp
from banker.ui.screens.tableview import TableViewScreen

from .tableview_helpers import decode_qr_text, decode_screen, midgame, request

zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is a test dependency: pip install -e '.[test]'")

URLS = [
    "http://192.168.1.20:8765/AbCdEfGhIjKlMnOpQrStUv/",
    "http://255.255.255.255:65535/-_-_-_-_-_-_-_-_-_-_-_/",  # the longest IPv4 address the console can show
    "http://10.0.0.2:80/a/",
    "http://[fe80::1234:5678:9abc:def0]:50000/AbCdEfGhIjKlMnOpQrStUv/",
    "http://the-banker-laptop.local:8000/AbCdEfGhIjKlMnOpQrStUv/",
]


@pytest.mark.parametrize("url", URLS)
def test_the_terminal_text_decodes_to_the_address(url: str) -> None:
    text = qr_text(url)
    assert set(text) <= set("▀▄█ \n")
    assert decode_qr_text(text) == url


@pytest.mark.parametrize("url", URLS)
def test_the_text_holds_exactly_the_modules_qrcode_made(url: str) -> None:
    matrix = qr_matrix(url)
    rows = text_matrix(qr_text(url))
    assert rows[:len(matrix)] == matrix
    assert all(not any(r) for r in rows[len(matrix):])  # at most one light row added to make the lines even
    # the quiet zone is light all round
    n = len(matrix)
    for i in range(BORDER):
        assert not any(matrix[i]) and not any(matrix[n - 1 - i])
        assert not any(row[i] for row in matrix) and not any(row[n - 1 - i] for row in matrix)


def test_a_lan_address_fits_an_80x24_terminal() -> None:
    columns, lines = qr_size(URLS[1])
    assert (columns, lines) == (33, 17)  # version 3 (29 modules) and a quiet zone of 2


def test_for_an_unknown_terminal_the_lines_are_painted_black_on_white() -> None:
    url = URLS[0]
    painted = ansi_qr_text(url).split("\n")
    assert all(line.startswith("\x1b[30;107m") and line.endswith("\x1b[0m") for line in painted)
    plain = "\n".join(line[len("\x1b[30;107m"):-len("\x1b[0m")] for line in painted)
    assert plain == qr_text(url)


@pytest.mark.parametrize(("lang", "size"), [("en", (80, 24)), ("uk", (120, 36))])
async def test_the_code_the_console_shows_decodes_to_the_served_url(tmp_path: Path, lang: str, size) -> None:
    game = midgame(tmp_path / "game.json")
    app = BankerApp(game, lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableViewScreen)
        server = app.table_server
        qr = screen.query_one("#tv-qr")
        assert qr.display and qr.region.height == 17 and qr.region.width == 33  # whole, on screen
        shown = qr.render()
        text = str(shown)
        assert decode_qr_text(text) == server.url
        # dark modules on a light background, whatever the terminal's theme
        assert qr.styles.color.brightness < 0.2 and qr.styles.background.brightness > 0.9
        # and the whole screen, cell by cell in the colours Textual composed, reads the same
        assert decode_screen(app) == server.url
        # the address beside it is the same, and it serves the page
        assert str(screen.query_one("#tv-url").render()).strip() == server.url
        status, _, body = await asyncio.to_thread(request, server.url + "state.json")
        assert status == 200 and b'"name":"Friday"' in body
