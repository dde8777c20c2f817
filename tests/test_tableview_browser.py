"""The players' page in a real headless Chromium (driven by Playwright, no browser download).

Opens the page with the token and finds the balances; an action applied through the engine
appears on the open page by itself; no player's worth is on the page during play, the final
valuation once the game has ended; the page without the token is refused; a player called
``<script>alert(1)</script>`` and a memo full of markup are shown as text; nothing is loaded from
anywhere but the server, nothing breaks the Content-Security-Policy, the page fits a phone, and it
says when the connection is lost and recovers by itself.

Chromium is a system package (`.ci/run` installs it): without it the test is skipped on a
developer's machine and fails under CI (CI=true), so it can never be skipped there silently.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from banker.ledger import Session
from banker.tableview.server import TableServer

from .tableview_helpers import MEMO, SCRIPT_NAME, midgame, request, state

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and os.access(p, os.X_OK)), None)
if CHROMIUM is None:
    if os.environ.get("CI"):
        raise RuntimeError("Chromium is needed by tests/test_tableview_browser.py: `.ci/run` installs it with apt-get")
    pytest.skip("Chromium is not installed (apt-get install chromium); CI installs it and runs this test",
                allow_module_level=True)
try:
    from playwright.sync_api import sync_playwright
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("playwright is a test dependency: pip install -e '.[test]'", allow_module_level=True)

#: how long the page may take to show a change before the test fails: a deadline, not a speed
#: claim (the page polls every 500 ms; a loaded machine may take much longer)
WAIT_MS = 20_000
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Watched:
    """A phone-sized page whose requests, console errors, script errors and alerts are recorded."""

    def __init__(self, browser, **options) -> None:
        self.context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                           **options)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.problems.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))

        def dialog(d) -> None:
            self.dialogs.append(d.message)
            d.dismiss()

        self.page.on("dialog", dialog)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return midgame(tmp_path / "friday.json")


@pytest.fixture
def phone(browser):
    watched = Watched(browser)
    yield watched
    watched.close()


def cash_of(page, index: int) -> str:
    return page.text_content(f'.player[data-index="{index}"] .cash')


def test_the_page_shows_the_table_and_follows_the_actions(game: Path, phone: Watched) -> None:
    page = phone.page
    with TableServer(game, host="127.0.0.1") as server:  # the default refresh interval, as at a table
        origin = server.url.split(f"/{server.token}/")[0]
        response = page.goto(server.url)
        assert response.status == 200
        page.wait_for_selector(".player")
        expected = state(server.url)
        # the balances, in seating order
        cards = page.locator(".player")
        assert cards.count() == 5
        for i, player in enumerate(expected["players"]):
            assert page.text_content(f'.player[data-index="{i}"] .name') == player["name"]
            assert cash_of(page, i) == player["cash_text"]
        assert page.title() == "Friday — the table"
        # open debts, deeds by colour with buildings and mortgages, the bank, the last actions
        bob = page.locator('.player[data-index="1"]')
        assert "in-debt" in bob.get_attribute("class")
        assert bob.locator(".debt").text_content() == f"owes $550 to {SCRIPT_NAME}"
        assert bob.locator(".deed.mortgaged .deed-name").text_content() == "Reading Railroad"
        ann = page.locator('.player[data-index="0"]')
        assert ann.locator(".group-name").all_text_contents() == ["Dark Blue"]
        assert ann.locator(".deed .marks").all_text_contents() == ["⌂⌂", "⌂⌂"]
        swatch = ann.locator(".swatch").evaluate("e => getComputedStyle(e).backgroundColor")
        assert swatch == "rgb(31, 79, 180)"  # the board's colour for the group
        assert page.locator('.player[data-index="2"] .deed.hotel').count() == 3
        assert page.locator("#bank .bank-line").all_text_contents() == ["Houses 28/32", "Hotels 9/12"]
        assert page.locator("#log .action").count() == 15

        # the script-named player and the memo are text: no alert, no extra element, no script run
        scripted = page.locator('.player[data-index="2"] .name')
        assert scripted.text_content() == SCRIPT_NAME
        assert scripted.evaluate("e => e.children.length") == 0
        assert page.evaluate("document.querySelectorAll('script').length") == 1  # app.js alone
        assert page.evaluate("document.querySelectorAll('img').length") == 0
        memo = page.locator("#log .action .text", has_text="onerror")
        assert memo.text_content() == f"Ann gives Bob $5: {MEMO}"
        assert phone.dialogs == []

        # an action applied through the engine appears on the open page by itself, without a reload
        # (how soon is measured by bench/tableview.py: a test asserts no wall-clock time)
        before = expected["players"][0]["cash"]
        with Session.open(game) as writer:
            writer.apply({"op": "salary", "player": "Ann"})
            page.wait_for_function(
                "want => document.querySelector('.player[data-index=\"0\"] .cash').textContent === want",
                arg=f"${before + 200:,}", timeout=WAIT_MS, polling=20)
            assert page.text_content("#log .action .text") == "Ann collects $200 salary"
            assert page.get_attribute("body", "data-version") == str(len(writer.entries))
            # and another one, undone: struck through on the page
            writer.apply({"op": "undo", "reason": "not yet"})
            page.wait_for_selector("#log .action.undone", timeout=WAIT_MS)
            assert cash_of(page, 0) == f"${before:,}"

        # a phone screen: one column, nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        boxes = [cards.nth(i).bounding_box() for i in range(2)]
        assert boxes[0]["x"] == boxes[1]["x"] and boxes[1]["y"] > boxes[0]["y"]  # stacked

        # everything it loaded came from the server itself, and nothing broke the CSP
        assert phone.requests and all(url.startswith(origin + f"/{server.token}/") for url in phone.requests)
        assert phone.problems == [], phone.problems
        assert phone.dialogs == []


def test_no_worth_on_the_page_during_play_the_final_valuation_once_the_game_has_ended(game: Path,
                                                                                       phone: Watched) -> None:
    """us-classic-rules.txt, "Income Tax": the player decides between $200 and 10% "before you add up
    your total worth"; a page showing everyone's worth would add it up for him. Cash, deeds and
    buildings are shown during play, no worth; once the game has ended, each player's final valuation."""
    page = phone.page
    with TableServer(game, host="127.0.0.1") as server:
        page.goto(server.url)
        page.wait_for_selector(".player")
        assert page.locator(".player .worth").count() == 0
        text = page.text_content("main").lower()
        assert "worth" not in text and "valuation" not in text
        assert cash_of(page, 0) and page.locator(".player .deed").count() > 0  # what stays
        with Session.open(game) as writer:
            writer.apply({"op": "undo", "reason": "settled at the table"})  # the rent that opened Bob's debt
            writer.apply({"op": "end_game"})
            valuation = writer.state.result["valuation"]
            fmt = writer.state.edition.fmt
        page.wait_for_selector(".player .worth", timeout=WAIT_MS)
        assert page.locator(".player .worth").all_text_contents() == [
            f"final valuation {fmt(valuation[p['name']])}" for p in state(server.url)["players"]]
        assert phone.problems == []


@pytest.mark.parametrize("path", ["/", "/{wrong}/", "/{wrong}/state.json", "/{short}/", "/index.html"])
def test_the_page_without_the_token_is_refused(game: Path, phone: Watched, path: str) -> None:
    page = phone.page
    with TableServer(game, host="127.0.0.1") as server:
        origin = server.url.split(f"/{server.token}/")[0]
        wrong = server.token[::-1] if server.token[::-1] != server.token else "x" + server.token
        response = page.goto(origin + path.format(wrong=wrong, short=server.token[:8]))
        assert response.status == 404
        assert page.locator(".player").count() == 0
        assert "Ann" not in page.content()


def test_the_page_says_when_the_connection_is_lost_and_comes_back_by_itself(game: Path, phone: Watched) -> None:
    page = phone.page
    server = TableServer(game, host="127.0.0.1").start()
    token, port = server.token, server.port
    try:
        page.goto(server.url)
        page.wait_for_selector(".player")
        assert page.is_hidden("#status")
    finally:
        server.stop()
    page.wait_for_selector("#status:not([hidden])", timeout=WAIT_MS)
    assert page.text_content("#status") == "Connection lost, retrying…"
    assert page.locator(".player").count() == 5  # the last table seen stays, dimmed
    # the server comes back (same address, same token): the page recovers without a reload
    with Session.open(game) as writer:
        writer.apply({"op": "salary", "player": "Eve"})
    with TableServer(game, host="127.0.0.1", port=port, token=token):
        page.wait_for_selector("#status", state="hidden", timeout=WAIT_MS)
        page.wait_for_function("document.querySelector('#log .action .text').textContent === 'Eve collects $200 salary'",
                               timeout=WAIT_MS)


def test_the_page_of_a_server_started_again_says_to_scan_the_new_code(game: Path, phone: Watched) -> None:
    """Found by a probe: `banker serve` stopped and started again on the same port has a new code; the old page got
    404 for ever and said "Connection lost, retrying…" for ever. It says the view stopped: scan the new code."""
    page = phone.page
    server = TableServer(game, host="127.0.0.1").start()
    port = server.port
    try:
        page.goto(server.url)
        page.wait_for_selector(".player")
    finally:
        server.stop()
    with TableServer(game, host="127.0.0.1", port=port):  # a new token
        deadline = time.monotonic() + WAIT_MS / 1000
        while "scan the new code" not in (page.text_content("#status") or "") and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert page.text_content("#status") == "This table view has stopped or was started again: scan the new code."
        assert page.locator(".player").count() == 5  # the last table seen stays, dimmed


def test_the_page_in_russian(game: Path, phone: Watched) -> None:
    page = phone.page
    with TableServer(game, host="127.0.0.1", lang="ru") as server:
        page.goto(server.url)
        page.wait_for_selector(".player")
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert page.text_content("#bank h2") == "Банк"
        assert page.text_content("#log h2") == "Последние действия"
        assert page.locator("#bank .bank-line").first.text_content() == "Дома 28/32"
        assert page.text_content('.player[data-index="1"] .debt').startswith("долг $550")
        assert phone.problems == []


def test_the_times_are_the_tables_clock_on_a_phone_set_to_another_zone(game: Path, browser) -> None:
    """A phone set to another time zone showed the actions' times in its own (the page read them with
    ``new Date``); the console, ``banker log`` and the review say the table's clock: the page does too."""
    from datetime import datetime

    with Session.open(game, readonly=True) as session:
        shown = session.entries[-15:]
    offset = datetime.fromisoformat(shown[-1].ts).utcoffset()
    zone = "America/New_York" if offset is not None and offset.total_seconds() > 0 else "Asia/Tokyo"  # never the table's
    phone = Watched(browser, timezone_id=zone)
    try:
        with TableServer(game, host="127.0.0.1") as server:
            phone.page.goto(server.url)
            phone.page.wait_for_selector("#log .action")
            times = phone.page.locator("#log .action .time").all_text_contents()
        assert times == [datetime.fromisoformat(e.ts).strftime("%H:%M") for e in reversed(shown)], (zone, times)
        assert phone.page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == zone
        assert phone.problems == []
    finally:
        phone.close()


def test_the_page_only_ever_reads(game: Path, phone: Watched, file_bytes) -> None:
    """Whatever a page script tries (it is the browser's own fetch), nothing but GET/HEAD answers."""
    before = file_bytes(game)
    page = phone.page
    with TableServer(game, host="127.0.0.1") as server:
        page.goto(server.url)
        page.wait_for_selector(".player")
        statuses = page.evaluate("""async () => {
            const out = [];
            for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
                const r = await fetch("state.json", {method, body: JSON.stringify({op: "salary", player: "Ann"})});
                out.push(r.status);
            }
            return out;
        }""")
        assert statuses == [404, 404, 404, 404]
        assert json.loads(request(server.url + "state.json")[2])["version"] == len(Session.open(game, readonly=True).entries)
    assert file_bytes(game) == before


def test_a_long_name_breaks_between_its_words_on_a_narrow_phone(tmp_path: Path, browser) -> None:
    """Found by the players' page probe: on a 320-pixel phone "Константин Константинопольский" was cut every five or
    six letters ("Конста / нтин / Конста / нтиноп / ольски / й") beside its cash. Its words stay whole; the cash goes
    under it."""
    from .ui_helpers import make_session

    long = "Константин Константинопольский"
    path = make_session(tmp_path / "names.json", (long, "Аня"), edition="ru",
                        commands=[{"op": "transfer", "from": "bank", "to": long, "amount": 999_999, "memo": ""}])
    context = browser.new_context(viewport={"width": 320, "height": 700}, device_scale_factor=2, is_mobile=True)
    try:
        page = context.new_page()
        with TableServer(path, host="127.0.0.1", lang="ru") as server:
            page.goto(server.url)
            page.wait_for_selector(".player")
            lines = page.evaluate("""() => {
                const name = document.querySelector('.player[data-index="0"] .name');
                const range = document.createRange();
                range.selectNodeContents(name);
                const tops = [...range.getClientRects()].map(r => Math.round(r.top));
                return [...new Set(tops)].length;
            }""")
            assert lines <= 2, lines  # "Константин" / "Константинопольский": two lines at most, never six
            name_box = page.locator('.player[data-index="0"] .name').bounding_box()
            cash_box = page.locator('.player[data-index="0"] .cash').bounding_box()
            assert cash_box["y"] >= name_box["y"] + name_box["height"] - 1 or lines == 1  # the cash under a wrapped name
    finally:
        context.close()


#: the pieces of each sentence, in the order they are read, left to right: the payer first, the payee after him
RTL_SAID = {"ru": ["Перевод", "$100", "דנה", "→", "יוסי", "за хлеб"],
            "en": ["דנה", "gives", "יוסי", "$100", "for bread"]}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_right_to_left_names_read_in_their_places(tmp_path: Path, browser, lang: str) -> None:
    """Found by the players' page probe: with players דנה and יוסי, "Перевод $100: דנה → יוסי" was drawn
    "Перевод $100: יוסי → דנה" (the bidi algorithm made the two names and the arrow one right-to-left run: the
    payment went the other way), and in English the amount went before the payee's name. Each name is now its own
    run (isolated), so the pieces of the sentence are drawn left to right in the order they are read; an ASCII name
    and the page's own words reach the document as they were."""
    from .ui_helpers import make_session

    path = make_session(tmp_path / "rtl.json", ("דנה", "יוסי", "Ann"), name="ערב",
                        commands=[{"op": "transfer", "from": "דנה", "to": "יוסי", "amount": 100, "memo": "for bread"
                                   if lang == "en" else "за хлеб"},
                                  {"op": "transfer", "from": "Ann", "to": "bank", "amount": 1, "memo": ""}])
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    try:
        page = context.new_page()
        with TableServer(path, host="127.0.0.1", lang=lang) as server:
            actions = state(server.url)["actions"]
            assert "\u2068" not in actions[0]["text"] and "Ann" in actions[0]["text"]  # nothing to isolate: as it was
            page.goto(server.url)
            page.wait_for_selector('#log .action[data-seq="1"]')
            boxes = page.evaluate("""(pieces) => {
                const span = document.querySelector('#log .action[data-seq="1"] .text');
                const node = span.firstChild;
                return pieces.map(piece => {
                    const at = node.data.indexOf(piece);
                    if (at < 0) return null;
                    const range = document.createRange();
                    range.setStart(node, at);
                    range.setEnd(node, at + piece.length);
                    const r = range.getBoundingClientRect();
                    return [r.left, r.right, r.top];
                });
            }""", RTL_SAID[lang])
        assert all(boxes), (RTL_SAID[lang], boxes)  # every piece is in the sentence, on one line (a phone's width)
        assert len({round(top) for _left, _right, top in boxes}) == 1, boxes
        pieces = RTL_SAID[lang]
        for i in range(len(pieces) - 1):  # each piece ends where the next one (in reading order) begins, or left of it
            assert boxes[i][1] <= boxes[i + 1][0] + 0.5, f"{pieces[i]!r} is drawn after {pieces[i + 1]!r}: {boxes}"
    finally:
        context.close()
