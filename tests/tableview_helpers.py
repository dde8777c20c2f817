"""Shared by the players' page tests: HTTP requests, a game with awkward names, a QR decoder."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .ui_helpers import make_session, midgame_commands

SCRIPT_NAME = "<script>alert(1)</script>"
PLAYERS = ("Ann", "Bob", SCRIPT_NAME, "Dee", "Eve")
MEMO = "<img src=x onerror=alert(2)> & \"quotes\""
#: seconds to wait for something that must happen (a deadline against a hang, never a speed claim:
#: a test asserts no wall-clock time, and a busy machine may be slow; bench/ measures speed)
WAIT = 60.0


def midgame(path: Path, players: tuple[str, ...] = PLAYERS, name: str = "Friday") -> Path:
    """A game under way (houses, hotels, a mortgage, a jail card, an open debt) with a player
    called ``<script>alert(1)</script>`` and a memo full of markup."""
    cmds = midgame_commands(players)
    cmds.insert(-3, {"op": "transfer", "from": players[0], "to": players[1], "amount": 5, "memo": MEMO})
    return make_session(path, players, commands=cmds, name=name)


def request(url: str, method: str = "GET", path: str | None = None, headers: dict[str, str] | None = None,
            body: bytes | None = None, timeout: float = WAIT) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection: (status, headers, body). ``path`` replaces the URL's path."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request(method, path if path is not None else parts.path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def state(url: str) -> dict[str, Any]:
    status, _headers, body = request(url + "state.json")
    assert status == 200, status
    return json.loads(body)


def wait_for(check: Callable[[], Any], timeout: float = WAIT, every: float = 0.02) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {timeout} s")
        time.sleep(every)


def decode_qr_text(text: str, scale: int = 4) -> str | None:
    """What a real QR decoder (zxing-cpp) reads in the terminal text of a code: each text line
    is two rows of modules (``▀ ▄ █``, space); glyphs dark on a light background, as shown."""
    import zxingcpp

    from banker.tableview.qr import text_matrix

    lines = text.split("\n")
    width = max(len(line) for line in lines)
    rows = text_matrix("\n".join(line.ljust(width) for line in lines))
    pixels = bytearray()
    for row in rows:
        line = b"".join((b"\x00" if dark else b"\xff") * scale for dark in row)
        pixels += line * scale
    height, w = len(rows) * scale, width * scale
    image = memoryview(bytes(pixels)).cast("B", (height, w))
    found = zxingcpp.read_barcode(image, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    return found.text if found else None


def _decode_gray(rows: list[list[int]], scale: int = 4) -> str | None:
    import zxingcpp

    width = len(rows[0])
    pixels = bytearray()
    for row in rows:
        pixels += b"".join(bytes([v]) * scale for v in row) * scale
    image = memoryview(bytes(pixels)).cast("B", (len(rows) * scale, width * scale))
    # not inverted: the code must be dark on light, as printed, for every phone to read it
    found = zxingcpp.read_barcode(image, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    return found.text if found else None


def decode_screen(app) -> str | None:
    """What a QR decoder reads on the console's whole screen as Textual composed it: every cell's
    colours (foreground for the glyph's dark half, background for the rest), two pixel rows a line."""
    from rich.cells import cell_len

    def gray(color, default: int) -> int:
        if color is None:
            return default
        r, g, b = color.get_truecolor()
        return int(0.299 * r + 0.587 * g + 0.114 * b)

    rows: list[list[int]] = []
    for strip in app.screen._compositor.render_strips():
        top: list[int] = []
        bottom: list[int] = []
        for segment in strip:
            style = segment.style
            fg, bg = gray(style.color if style else None, 200), gray(style.bgcolor if style else None, 0)
            if style is not None and style.reverse:
                fg, bg = bg, fg
            for ch in segment.text:
                for _ in range(cell_len(ch)):
                    top.append(fg if ch in "▀█" else bg)
                    bottom.append(fg if ch in "▄█" else bg)
        rows += [top, bottom]
    assert len({len(r) for r in rows}) == 1, "the screen's lines differ in width"
    return _decode_gray(rows)
