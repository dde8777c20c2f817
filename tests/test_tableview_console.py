"""The players' page from the console: its key, its dialog, and its server's life.

``q`` on the table (or "Table view" in the command palette) starts the page server and shows
the QR code and the address; the server keeps serving when the dialog closes, follows the
actions the banker commits, and stops with the console, when another session is opened, or with
``s`` in the dialog.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from banker.ui.app import BankerApp, table_server_options
from banker.ui.screens.table import TableScreen
from banker.ui.screens.tableview import TableViewScreen

from .tableview_helpers import WAIT, midgame, request
from .ui_helpers import Banker, make_session, screen_text


def refused(url: str) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=1.0).close()
    except OSError:
        return True
    return False


async def fetch_state(url: str) -> dict:
    status, _, body = await asyncio.to_thread(request, url + "state.json")
    assert status == 200
    return json.loads(body)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return midgame(tmp_path / "game.json")


async def test_the_key_shows_the_code_and_the_page_lives_until_the_console_quits(game: Path) -> None:
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        assert app.table_server is None  # nothing listens until asked
        await b.act("q")
        screen = app.screen
        assert isinstance(screen, TableViewScreen)
        server = app.table_server
        assert server.running and server.path == game
        assert screen_text(screen.query_one("#tv-url")).strip() == server.url
        assert "Scan the code with a phone" in screen_text(screen.query_one("#tv-scan"))
        assert (await fetch_state(server.url))["players"][0]["name"] == "Ann"
        # closing the dialog leaves the page running
        await b.key("escape")
        assert isinstance(app.screen, TableScreen) and server.running
        # an action the banker commits shows up on the page
        before = (await fetch_state(server.url))["version"]
        await b.command("pay dee eve 7 lunch")
        await b.confirm()
        deadline = time.monotonic() + WAIT  # a deadline against a hang, not a speed claim
        while (doc := await fetch_state(server.url))["version"] != before + 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert doc["actions"][0]["text"] == "Dee gives Eve $7: lunch"
        # the same server, the same code, when the key is pressed again
        await b.act("q")
        assert app.table_server is server
        assert screen_text(app.screen.query_one("#tv-url")).strip() == server.url
        await b.key("q")  # q closes it too
        assert isinstance(app.screen, TableScreen)
        url = server.url
    # the console has quit: the page server is gone, the port closed
    assert not server.running and app.table_server is None
    assert not any(t.is_alive() for t in server._threads)
    assert refused(url)


async def test_s_in_the_dialog_stops_the_page(game: Path) -> None:
    app = BankerApp(game, lang="ru")
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("q")
        server = app.table_server
        url = server.url
        await b.key("s")
        assert app.table_server is None and not server.running and refused(url)
        assert "остановлена" in screen_text(app.screen.query_one("#tv-error"))
        await b.key("escape")
        # asked again: a new server, a new token
        await b.act("q")
        assert app.table_server is not server and app.table_server.token != server.token
        assert app.table_server.running


async def test_opening_another_session_stops_the_page_of_the_first(game: Path, tmp_path: Path) -> None:
    other = make_session(tmp_path / "other.json", ("Kim", "Lee"))
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("q")
        server = app.table_server
        await b.key("escape")
        assert app.open_session(other)
        await pilot.pause()
        assert not server.running and app.table_server is None and refused(server.url)
        await b.act("q")
        assert (await fetch_state(app.table_server.url))["players"][0]["name"] == "Kim"


async def test_the_command_palette_opens_it_and_q_in_the_command_line_is_a_letter(game: Path) -> None:
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.key("colon")
        await b.type("q")
        assert isinstance(app.screen, TableScreen) and app.table_server is None
        await b.key("escape")
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "Table view  (q)" in commands
        app.action_table_view()
        await pilot.pause()
        assert isinstance(app.screen, TableViewScreen) and app.table_server.running


async def test_a_terminal_too_small_for_the_code_says_so_and_shows_the_address(game: Path) -> None:
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(70, 20)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("q")
        screen = app.screen
        assert not screen.query_one("#tv-qr").display
        assert "too small for the QR code (37x23 needed)" in screen_text(screen.query_one("#tv-error"))
        assert screen_text(screen.query_one("#tv-url")).strip() == app.table_server.url


async def test_an_address_that_cannot_be_used_is_said_and_nothing_breaks(game: Path, monkeypatch) -> None:
    monkeypatch.setenv("BANKER_TABLEVIEW_HOST", "198.51.100.7")  # not this machine's
    app = BankerApp(game, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("q")
        text = screen_text(app.screen.query_one("#tv-error"))
        assert text.startswith("The players' page could not start: cannot listen on 198.51.100.7")
        assert app.table_server is None
        await b.key("escape")
        await b.command("pay dee eve 7 lunch")
        await b.confirm()  # the bank goes on


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The players' page could not start: port {port} on 127.0.0.1 is already in use; start banker with "
           "BANKER_TABLEVIEW_PORT set to another port, or unset (any free port)"),
    ("ru", "Страницу для игроков не удалось запустить: порт {port} на 127.0.0.1 уже занят; запустите banker с другим "
           "портом в BANKER_TABLEVIEW_PORT или без этой переменной (любой свободный порт)")])
async def test_a_port_in_use_is_said_in_the_consoles_words_and_language(game: Path, monkeypatch, lang: str,
                                                                         said: str) -> None:
    """The port the environment asks for is taken: the dialog says so in the banker's language and names what the
    console is told by (BANKER_TABLEVIEW_PORT), not `banker serve`'s --port (it said the English of `banker serve`,
    "choose another with --port", in every language)."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    monkeypatch.setenv("BANKER_TABLEVIEW_HOST", "127.0.0.1")
    monkeypatch.setenv("BANKER_TABLEVIEW_PORT", str(port))
    try:
        app = BankerApp(game, lang=lang)
        async with app.run_test(size=(100, 30)) as pilot:
            b = Banker(app, pilot)
            await pilot.pause()
            await b.act("q")
            assert " ".join(screen_text(app.screen.query_one("#tv-error")).split()) == said.format(port=port)
            assert app.table_server is None
    finally:
        taken.close()


def test_why_the_page_could_not_start_is_said_in_the_bankers_language() -> None:
    """Every reason the page server gives, in Russian: its own ([serve_said]) or the console's words, the session's
    (a file refused), the system's; a bug by its class."""
    from banker.i18n import Translator
    from banker.ledger import SessionError
    from banker.ledger.storage import FileRefused
    from banker.tableview.server import ServeError
    from banker.ui.screens.tableview import start_error

    tr = Translator("ru")
    assert start_error(tr, ServeError("cannot listen on h: x", "cannot_listen", host="h", reason="x")) == (
        "не удаётся слушать на h: x")
    assert "BANKER_TABLEVIEW_HOST" in start_error(tr, ServeError("not here", "not_here", host="h"))
    assert "BANKER_TABLEVIEW_HOST" in start_error(tr, ServeError("no such name", "unknown_host", host="h"))
    said = start_error(tr, FileRefused("g.json is a symbolic link", key="file_symlink", path="g.json"))
    assert said == tr.session(FileRefused("g.json is a symbolic link", key="file_symlink", path="g.json"))
    assert "symbolic" not in said and said.startswith("g.json"), said
    assert start_error(tr, SessionError("g.json: gone", key="cannot_read", path="g.json", reason="нет")) == (
        tr.session(SessionError("g.json: gone", key="cannot_read", path="g.json", reason="нет")))
    assert start_error(tr, RuntimeError("a bug")) == "RuntimeError: a bug"


def test_the_environment_chooses_the_address() -> None:
    assert table_server_options({}) == {}
    assert table_server_options({"BANKER_TABLEVIEW_HOST": "127.0.0.1", "BANKER_TABLEVIEW_PORT": "8765"}) == {
        "host": "127.0.0.1", "port": 8765}
    assert table_server_options({"BANKER_TABLEVIEW_PORT": "eighty"}) == {}
