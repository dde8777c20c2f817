"""The review, its exports and the audit, on a small session whose figures are worked out by hand."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from banker.cli import main
from banker.i18n import Translator
from banker.ledger import Session
from banker.ledger.audit import audit
from banker.ledger.review import load_review
from banker.report.audit import problem_text, problem_what
from banker.report.export import export, summary_rows
from banker.rules import HouseRules, Setup

from .ui_helpers import sample_copy

PLAYERS = ("Ann", "Bob", "Cid")
# classic-us: Mediterranean (1) $60 rent 2, Baltic (3) $60 rent 4; Reading (5) $200; Boardwalk (39) $400 rent 50
SCRIPT = [
    {"op": "buy", "player": "Ann", "space": 1},                       # 1  Ann -60
    {"op": "buy", "player": "Ann", "space": 3},                       # 2  Ann -60: full brown group
    {"op": "rent", "payer": "Bob", "space": 1},                       # 3  Bob -> Ann 4 (2 doubled)
    {"op": "auction", "space": 39, "winner": "Cid", "bid": 250},      # 4  Cid -250 (printed 400)
    {"op": "rent", "payer": "Bob", "space": 39},                      # 5  Bob -> Cid 50
    {"op": "tax", "player": "Bob", "space": 4, "choice": "flat"},     # 6  Bob -200 income tax
    {"op": "rent", "payer": "Ann", "space": 39},                      # 7  Ann -> Cid 50 ...
    {"op": "undo", "reason": "wrong player"},                         # 8  ... undone
    {"op": "jail_fine", "player": "Cid"},                             # 9  Cid -50
    {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1236, "memo": "a private deal"},  # 10 Bob left with 10
    {"op": "rent", "payer": "Bob", "space": 39},                      # 11 Bob owes Cid 50, has 10: a debt
    {"op": "salary", "player": "Bob"},                                # 12 +200, the debt of 50 is paid at once
]


def make(path: Path) -> Path:
    session = Session.create(path, Setup("classic-us", "classic", PLAYERS), name="Small game")
    for cmd in SCRIPT:
        session.apply(cmd)
    session.close()
    return path


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make(tmp_path / "small.json")



def test_every_player_an_entry_names_is_among_its_players(game: Path) -> None:
    """docs/review.md: the player filter keeps "any player the entry names or moves money of". Found by a probe: rent
    that opened a debt ("Bob pays Cid $50 rent on Boardwalk ...: a debt is open") moved no money and was kept for
    the payer alone, so filtering by the owner hid it (the entry that led to a sample game's last bankruptcy); so
    were a bankruptcy's creditor and the other hand of a deed that changed hands."""
    r = load_review(game).review
    assert r.timeline[10].players == ("Bob", "Cid")  # the rent that opened the debt: its creditor too
    assert r.timeline[11].players == ("Bob", "Cid")  # the salary that settled it
    path = game.with_name("bankrupt.json")
    with Session.create(path, Setup("classic-us", "classic", PLAYERS)) as s:
        s.apply({"op": "buy", "player": "Bob", "space": 1})
        s.apply({"op": "buy", "player": "Ann", "space": 39})
        s.apply({"op": "transfer", "from": "Bob", "to": "Cid", "amount": 1440, "memo": "a deal"})
        s.apply({"op": "rent", "payer": "Bob", "space": 39})
        s.apply({"op": "bankrupt", "player": "Bob"})
    last = load_review(path).review.timeline[-1]
    assert last.op == "bankrupt" and set(last.players) == {"Bob", "Ann"}


def test_review_figures_match_the_hand_count(game: Path) -> None:
    sr = load_review(game)
    r = sr.review
    assert [t.seq for t in r.timeline] == list(range(1, 13))
    # the undone rent (7) and its undo (8) are in the timeline but not in any total
    assert r.timeline[6].undone_by == 8 and r.timeline[6].undo_reason == "wrong player"
    assert r.timeline[7].undoes == 7 and r.timeline[7].reason == "wrong player"
    assert r.undone == 1
    assert r.rent_paid == {"Bob": 4 + 50 + 50}
    assert r.rent_received == {"Ann": 4, "Cid": 100}
    # the rent paid late (a debt settled by the salary at 12) counts against Boardwalk
    assert r.rent_by_deed == {39: 100, 1: 4}
    assert r.rent_by_group == {"dark_blue": 100, "brown": 4}
    assert r.to_bank == {"Bob": {"tax": 200}, "Cid": {"fine": 50}}
    assert r.salary == {"Bob": 200}
    assert [(a.seq, a.space, a.winner, a.bid, a.printed) for a in r.auctions] == [(4, 39, "Cid", 250, 400)]
    assert [(p.seq, p.amount, p.why) for p in r.biggest[:3]] == [(10, 1236, "transfer"), (4, 250, "auction"),
                                                                 (6, 200, "tax")]
    # cash after each entry: Ann 1500-60-60+4 = 1384, then +1236 at 10
    assert r.cash["Ann"][2] == 1384 and r.cash["Ann"][-1] == 1384 + 1236
    # the undone rent shows in the series as the table saw it, then back
    assert r.cash["Ann"][6] == 1384 - 50 and r.cash["Ann"][7] == 1384
    assert r.cash["Bob"] == [1500, 1500, 1496, 1496, 1446, 1246, 1246, 1246, 1246, 10, 10, 160]
    # net worth: valuation less debts; Bob at 11 owes 50 with 10 in cash
    assert r.worth["Bob"][10] == 10 - 50
    assert r.worth["Ann"][-1] == 2620 + 60 + 60
    assert r.bankruptcies == []


def test_bankruptcy_moment_and_creditor(tmp_path: Path) -> None:
    path = tmp_path / "bust.json"
    session = Session.create(path, Setup("classic-us", "classic", PLAYERS))
    for cmd in [{"op": "buy", "player": "Ann", "space": 39},
                {"op": "transfer", "from": "Bob", "to": "Cid", "amount": 1490, "memo": "all in"},
                {"op": "rent", "payer": "Bob", "space": 39},
                {"op": "bankrupt", "player": "Bob"}]:
        session.apply(cmd)
    session.close()
    r = load_review(path).review
    assert [(b.seq, b.player, b.creditor) for b in r.bankruptcies] == [(4, "Bob", "Ann")]
    # his last 10 went to Ann as the bankrupt's cash, not as rent: the rent was never paid
    assert r.rent_paid == {} and r.biggest[-1].why == "bankruptcy" and r.biggest[-1].amount == 10


@pytest.mark.parametrize(("credit", "cash_later"), [(30, 70), (90, 10)])
def test_rent_paid_in_kind_counts_as_rent(tmp_path: Path, credit: int, cash_later: int) -> None:
    """RU 2004 lets a creditor take deeds for a debt at an agreed value (a trade's ``debt_credit``): rent owed and
    paid so is rent paid, against the deed it was charged for, as much as rent paid late in cash. The review read
    only the cash: of Bob's 100 rent on Арбат paid 30 in a deed and 70 in cash it counted 70."""
    path = tmp_path / "in-kind.json"
    with Session.create(path, Setup("ru", "classic", PLAYERS)) as s:
        s.apply({"op": "buy", "player": "Ann", "space": 37})
        s.apply({"op": "buy", "player": "Ann", "space": 39})  # the dark blue group: Арбат's rent doubled, 100
        s.apply({"op": "buy", "player": "Bob", "space": 5})
        s.apply({"op": "transfer", "from": "Bob", "to": "Cid", "amount": 1290, "memo": "a deal"})  # Bob has 10
        s.apply({"op": "rent", "payer": "Bob", "space": 39})  # a debt of 100
        # the deed for part of it; the rest in cash: at once (the 10 he has) or with the salary
        s.apply({"op": "trade", "from": "Bob", "to": "Ann", "give": {"spaces": [5]}, "debt_credit": credit})
        s.apply({"op": "salary", "player": "Bob"})
    r = load_review(path).review
    assert r.rent_paid == {"Bob": 100} and r.rent_received == {"Ann": 100}
    assert r.rent_by_deed == {39: 100} and r.rent_by_group == {"dark_blue": 100}
    assert [(p.payer, p.payee, p.amount) for p in r.biggest if p.why == "rent"] == [("Bob", "Ann", cash_later)]


def test_json_export_reads_back(game: Path) -> None:
    files = export(load_review(game), "json", Translator("en"))
    data = json.loads(files[".json"])
    assert data["session"]["players"] == list(PLAYERS)
    assert data["summary"]["rent_received"] == {"Ann": 4, "Cid": 100}
    assert data["summary"]["auctions"] == [{"seq": 4, "space": "Boardwalk", "kind": "deed", "winner": "Cid", "bid": 250,
                                            "printed": 400}]
    assert data["timeline"][6]["undone_by"] == 8
    assert data["timeline"][6]["text"] == "Ann pays Cid $50 rent on Boardwalk (rent $50)"
    assert data["series"]["cash"]["Bob"][-1] == 160 == data["final"]["players"]["Bob"]["cash"]


def test_csv_export_reads_back(game: Path) -> None:
    sr = load_review(game)
    files = export(sr, "csv", Translator("en"))
    rows = list(csv.DictReader(io.StringIO(files["-timeline.csv"])))
    assert [int(r["seq"]) for r in rows] == list(range(1, 13))
    assert rows[6]["undone_by"] == "8" and rows[6]["undo_reason"] == "wrong player"
    assert rows[10]["text"].startswith("Bob pays Cid")
    assert [int(r["cash:Bob"]) for r in rows][-3:] == [10, 10, 160]
    summary = list(csv.reader(io.StringIO(files["-summary.csv"])))
    assert summary[0] == ["section", "subject", "detail", "amount", "seq"]
    assert [tuple(r) for r in summary[1:]] == [tuple(str(v) for v in row) for row in summary_rows(sr)]
    assert ["to_bank", "Bob", "tax", "200", ""] in summary


def test_csv_cells_a_spreadsheet_would_run_are_kept_as_text(tmp_path: Path) -> None:
    """Found by a probe: players called ``=1+2`` and ``@SUM(A1)`` and a memo ``=HYPERLINK(...)`` went into the CSV
    files as they were, and a spreadsheet opening them runs them as formulas ("CSV injection"). A text cell beginning
    with = + - @ is kept as text by a leading ', as a spreadsheet writes it; numbers are left as they are."""
    path = tmp_path / "csv.json"
    with Session.create(path, Setup("classic-us", "classic", ("=1+2", "@SUM(A1)", "Bob"))) as s:
        s.apply({"op": "transfer", "from": "Bob", "to": "=1+2", "amount": 5, "memo": "=HYPERLINK(1)"})
        s.apply({"op": "transfer", "from": "=1+2", "to": "Bob", "amount": 1, "memo": "-x"})
    files = export(load_review(path), "csv", Translator("en"))
    cells = [c for name in ("-timeline.csv", "-summary.csv") for row in csv.reader(io.StringIO(files[name])) for c in row]
    assert "'=1+2" in cells and "'@SUM(A1)" in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")], cells
    timeline = list(csv.DictReader(io.StringIO(files["-timeline.csv"])))
    assert timeline[0]["text"] == "Bob gives =1+2 $5: =HYPERLINK(1)" and timeline[0]["cash:=1+2"] == "1505"


def test_markdown_export_reads_as_a_table_in_a_chat(game: Path) -> None:
    text = export(load_review(game), "markdown", Translator("en"))[".md"]
    lines = text.splitlines()
    assert lines[0] == "# Small game · Monopoly — US classic (Atlantic City) · Classic"
    # ranked by net worth (the game goes on), not in seating order
    head = lines.index("| Rank | Player | Net worth | Cash | Rent received | Rent paid |")
    table = [[c.strip() for c in line.strip("|").split("|")] for line in lines[head + 2: head + 5]]
    assert table == [["1", "Ann", "$2,740", "$2,620", "$4", "$0"], ["2", "Cid", "$1,700", "$1,300", "$100", "$0"],
                     ["3", "Bob", "$160", "$160", "$0", "$104"]]
    assert "7. ~~Ann pays Cid $50 rent on Boardwalk (rent $50)~~ (undone #8: wrong player)" in lines
    assert "**Auctions against printed prices:** Boardwalk → Cid $250 (printed $400)" in lines
    assert "- #10 Bob → Ann $1,236 (Transfer)" in lines


def test_markdown_export_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "ru.json"
    session = Session.create(path, Setup("ru", "classic", ("Аня", "Боря")), name="Вечер")
    session.apply({"op": "buy", "player": "Аня", "space": 39})
    session.apply({"op": "rent", "payer": "Боря", "space": 39})
    session.close()
    text = export(load_review(path), "markdown", Translator("ru"))[".md"]
    assert "| Место | Игрок | Состояние | Наличные | Получено аренды | Уплачено аренды |" in text
    assert "- **Домашние правила:** нет" in text and "- **Игроки:** Аня, Боря" in text
    assert "2. Боря платит игроку Аня аренду" in text


def test_a_clean_log_passes_the_audit(game: Path) -> None:
    report = audit(game)
    assert report.ok and report.entries == 12 and report.recomputed == 12


def _edit_entry(path: Path, seq: int, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["entries"][str(seq)])
    path.write_text(json.dumps(data), encoding="utf-8")


def test_the_audit_finds_a_changed_amount_at_its_entry(game: Path) -> None:
    def more_rent(entry):
        entry["effects"][0]["amount"] = 500  # Bob -> Cid 50 rent, written as 500

    _edit_entry(game, 5, more_rent)
    report = audit(game)
    assert not report.ok
    first = report.problems[0]
    assert first.seq == 5
    assert first.kind == "effects" and first.finding.logged[0]["amount"] == 500  # data, worded by banker.report
    # the effect in words (issue #12: its kind, fields and reason from the catalogs, no raw JSON keys)
    assert "the log has payment (from Bob, to Cid, amount 500, for rent)" in problem_what(first)
    assert "the rules give payment (from Bob, to Cid, amount 50, for rent)" in problem_what(first)


def test_the_audit_finds_buildings_that_appear_from_nowhere(tmp_path: Path) -> None:
    path = tmp_path / "built.json"
    session = Session.create(path, Setup("classic-us", "classic", PLAYERS))
    for cmd in [{"op": "buy", "player": "Ann", "space": 1}, {"op": "buy", "player": "Ann", "space": 3},
                {"op": "build", "player": "Ann", "space": 1}, {"op": "salary", "player": "Ann"}]:
        session.apply(cmd)
    session.close()

    def no_stock(entry):  # the house is put on the lot, but never taken from the bank's stock
        entry["effects"] = [e for e in entry["effects"] if e["t"] != "stock"]

    _edit_entry(path, 3, no_stock)
    report = audit(path)
    found = [problem_text(p) for p in report.problems]
    assert found[0].startswith("entry 3: effect")
    assert "entry 3: houses are not conserved: 1 on the board + 32 in the bank ≠ 32" in found
    assert len([f for f in found if "houses are not conserved" in f]) == 1  # once, where it starts


def test_cli_audit_and_export(game: Path, tmp_path: Path, capsys) -> None:
    assert main(["audit", str(game)]) == 0
    assert "12 entries, all consistent" in capsys.readouterr().out
    assert main(["export", str(game), "--format", "json", "--out", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["salary"] == {"Bob": 200}
    out = tmp_path / "out" / "friday"
    out.parent.mkdir()
    assert main(["export", str(game), "--format", "csv", "--out", str(out)]) == 0
    assert (tmp_path / "out" / "friday-timeline.csv").exists() and (tmp_path / "out" / "friday-summary.csv").exists()
    assert main(["export", str(game), "--format", "csv", "--out", "-"]) == 1
    assert "give --out a file prefix" in capsys.readouterr().err
    _edit_entry(game, 5, lambda e: e["effects"][0].update(amount=49))
    assert main(["audit", str(game)]) == 1
    assert "entry 5: effect 1" in capsys.readouterr().out


async def test_the_review_writes_nothing_even_beside_a_game_in_progress(tmp_path: Path) -> None:
    """`banker review` opens the session read-only: no lock taken, no checkpoint, no file created; every
    tab and the audit leave the session's folder as it was, byte for byte and timestamp for timestamp."""
    from banker.ui.app import BankerApp

    path = make(tmp_path / "small.json")
    with Session.open(path) as writer:  # the game goes on at the table: actions in the journal, the lock held
        writer.apply({"op": "salary", "player": "Cid"})

        def folder() -> dict[str, tuple[bytes, int]]:
            return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(tmp_path.iterdir())}

        before = folder()
        app = BankerApp(path, lang="en", review=True)
        async with app.run_test(size=(100, 30)) as pilot:
            for key in ("1", "2", "3", "4", "5", "a", "escape"):
                await pilot.press(key)
                await pilot.pause()
            assert app.session.readonly and len(app.session.entries) == 13
        assert folder() == before
        writer.apply({"op": "salary", "player": "Ann"})  # and the writer never noticed


async def test_every_tab_of_the_review_has_its_number_in_the_footer(tmp_path: Path) -> None:
    """docs/review.md: "Every tab has a visible key, its number in the footer"; the Board tab's `6` was hidden."""
    from textual.widgets import TabPane

    from banker.ui.app import BankerApp

    app = BankerApp(make(tmp_path / "small.json"), lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        panes = [pane.id for pane in app.screen.query(TabPane)]
        shown = {b.key: b.action for _n, b, enabled, _t in app.screen.active_bindings.values() if b.show and enabled}
        for number, pane in enumerate(panes, 1):
            assert str(number) in shown, (number, pane, sorted(shown))
            await pilot.press(str(number))
            await pilot.pause()
            assert app.screen.query_one("#review-tabs").active == pane


async def test_the_tab_keys_work_after_a_timeline_filter_is_chosen(tmp_path: Path) -> None:
    """Found by the review probe: with a player chosen in the timeline's filter (the choice keeps the focus), 3, a
    and c did nothing: the focus went to the next filter of the hidden tab, and the tabs followed it back."""
    from textual.widgets import Select

    from banker.ui.app import BankerApp

    app = BankerApp(make(tmp_path / "small.json"), lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.pause()
        player = app.screen.query_one("#filter-player", Select)
        player.focus()
        await pilot.pause()
        for key in ("enter", "down", "enter"):
            await pilot.press(key)
            await pilot.pause()
        assert player.value == "Ann" and app.focused is player
        for key, pane in (("3", "summary"), ("a", "audit"), ("c", "count"), ("6", "board"), ("1", "timeline")):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.query_one("#review-tabs").active == pane, key
        assert app.focused is app.screen.query_one("#review-timeline")  # its arrows scroll the entries again
        assert player.value == "Ann"  # the filter kept


async def test_a_search_that_matches_nothing_says_so(tmp_path: Path) -> None:
    """Found by the review probe: a search with no match left the timeline's header over an empty table."""
    from textual.widgets import DataTable

    from banker.ui.app import BankerApp

    app = BankerApp(make(tmp_path / "small.json"), lang="en", review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"zzz")
        await pilot.pause()
        table = app.screen.query_one("#review-timeline", DataTable)
        assert table.row_count == 1
        assert str(table.get_row_at(0)[1]).startswith("No entry matches")
        await pilot.press("backspace", "backspace", "backspace")
        await pilot.pause()
        assert table.row_count > 1 and not any("No entry matches" in str(table.get_row_at(i)[1])
                                               for i in range(table.row_count))



async def test_the_search_finds_a_name_typed_without_its_yo_or_its_apostrophe(tmp_path: Path) -> None:
    """Found by a probe: "рублевское" found nothing where the board says "Рублёвское шоссе", nor "в'язниц" (the
    apostrophe a Ukrainian keyboard types) where it says "В’язниця": the search compares as names are compared
    (case, ё as е, any apostrophe)."""
    from textual.widgets import DataTable

    from banker.ui.app import BankerApp

    path = _session(tmp_path / "ru.json", Setup("ru", "classic", ("Аня", "Боря")),
                    [{"op": "buy", "player": "Аня", "space": 19}, {"op": "salary", "player": "Боря"}])
    kyiv = _session(tmp_path / "kyiv.json", Setup("kyiv", "classic", ("Оксана", "Тарас")),
                    [{"op": "salary", "player": "Оксана"}, {"op": "place", "player": "Тарас", "jail": True}])
    for game, lang, typed, found in ((path, "ru", "рублевское", "Рублёвское"), (kyiv, "uk", "в'язниц", "в’язниц")):
        app = BankerApp(game, lang=lang, review=True)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await pilot.press("slash", *typed)
            await pilot.pause()
            table = app.screen.query_one("#review-timeline", DataTable)
            rows = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
            assert len(rows) == 1 and found in rows[0], rows


# ------------------------------------------------------------------------------ issue #13: the whole evening
def _session(path: Path, setup: Setup, commands: list[dict], name: str = "Evening") -> Path:
    session = Session.create(path, setup, name=name)
    for cmd in commands:
        session.apply(cmd)
    session.close()
    return path


def test_every_export_carries_the_setup(tmp_path: Path) -> None:
    """The header of every export says the edition, the variant, the house rules, the agreed end and the players
    (house rules were missing from the Markdown and the JSON)."""
    setup = Setup("classic-us", "timed", PLAYERS, HouseRules(free_parking_pot=True), "2026-11-24T22:30-05:00")
    path = _session(tmp_path / "t.json", setup, [{"op": "tax", "player": "Ann", "space": 38}])
    sr = load_review(path)
    tr = Translator("en")
    md = export(sr, "markdown", tr)[".md"].splitlines()
    assert "- **Edition:** Monopoly — US classic (Atlantic City)" in md
    assert "- **Variant:** Time-limit game" in md
    assert "- **House rules:** Free Parking pot (taxes and fines go to the centre)" in md
    assert "- **Agreed end:** 22:30" in md
    assert "- **Players:** Ann, Bob, Cid" in md
    data = json.loads(export(sr, "json", tr)[".json"])["session"]
    assert data["house_rules"] == {"free_parking_pot": True, "go_landing_bonus": False}
    assert (data["variant"], data["end_time"], data["end"], data["players"]) == ("timed", "2026-11-24T22:30-05:00",
                                                                                 "22:30", list(PLAYERS))
    rows = list(csv.reader(io.StringIO(export(sr, "csv", tr)["-summary.csv"])))
    setup_rows = [r[1:3] for r in rows if r[0] == "setup"]
    assert setup_rows == [["classic-us", "edition"], ["timed", "variant"], ["free_parking_pot", "house_rule"],
                          ["2026-11-24T22:30-05:00", "end_time"], ["Ann", "player"], ["Bob", "player"], ["Cid", "player"]]
    ru = export(sr, "markdown", Translator("ru"))[".md"]
    assert "- **Время окончания:** 22:30" in ru and "- **Домашние правила:** Касса «Бесплатной стоянки»" in ru


def test_standings_rank_by_valuation_and_state_a_tie(tmp_path: Path) -> None:
    """Ranked by the final valuation with the winner first, not in seating order; a tie is stated, and the
    tie-break (more cash wins: docs/rules.md) named."""
    # Ann: Boardwalk bought (400) and mortgaged (+200): cash 1,300, valued 1,300 + 200 (half the price) = 1,500;
    # Bob: Park Place bought (350): cash 1,150, valued 1,500; Cid pays the bank 100: 1,400
    path = _session(tmp_path / "tie.json", Setup("classic-us", "classic", PLAYERS), [
        {"op": "buy", "player": "Ann", "space": 39}, {"op": "mortgage", "player": "Ann", "space": 39},
        {"op": "buy", "player": "Bob", "space": 37}, {"op": "transfer", "from": "Cid", "to": "bank", "amount": 100},
        {"op": "end_game"}])
    sr = load_review(path)
    from banker.rules.review import standings, ties

    ranked = standings(sr.state, sr.review)
    assert [(s.rank, s.player, s.worth, s.tied, s.winner) for s in ranked] == [
        (1, "Ann", 1500, True, True), (2, "Bob", 1500, True, False), (3, "Cid", 1400, False, False)]
    assert ties(ranked) == [(["Ann", "Bob"], 1500, "Ann", [])]
    md = export(sr, "markdown", Translator("en"))[".md"]
    assert "**Ties:** Ann, Bob tie at $1,500 (Ann wins on cash)" in md
    assert "| 1 | Ann | $1,500 |" in md and "| =2 | Bob | $1,500 |" in md and "| Rank | Player | Final valuation |" in md
    # the same cash too: no winner, the two share first place, and the third is third
    path = _session(tmp_path / "shared.json", Setup("classic-us", "classic", PLAYERS),
                    [{"op": "buy", "player": "Cid", "space": 39}, {"op": "end_game"}])
    sr = load_review(path)
    ranked = standings(sr.state, sr.review)
    assert [(s.rank, s.player, s.shares_win) for s in ranked] == [(1, "Ann", True), (1, "Bob", True), (3, "Cid", False)]
    assert "(the same cash too: Ann, Bob share the win)" in export(sr, "markdown", Translator("en"))[".md"]
    # a game with bankruptcies: the bankrupt last, the last to go first
    path = _session(tmp_path / "bust.json", Setup("classic-us", "classic", PLAYERS), [
        {"op": "buy", "player": "Ann", "space": 39}, {"op": "buy", "player": "Ann", "space": 37},
        {"op": "transfer", "from": "Bob", "to": "Ann", "amount": 1490, "memo": "x"},
        {"op": "rent", "payer": "Bob", "space": 39}, {"op": "bankrupt", "player": "Bob"}])
    sr = load_review(path)
    assert [(s.rank, s.player, s.bankrupt) for s in standings(sr.state, sr.review)] == [
        (1, "Ann", False), (2, "Cid", False), (3, "Bob", True)]


def test_shortage_auctions_and_deeds_nobody_bid_on(tmp_path: Path) -> None:
    """The review's auction table holds the building-shortage auctions too; a deed nobody bid on reads as such,
    never as "→ — $0 (Printed $280)"."""
    sr = load_review(Path(__file__).resolve().parent.parent / "sample_sessions" / "classic-us-shortage.json")
    shortage = [a for a in sr.review.auctions if a.kind != "deed"]
    assert [(a.seq, a.winner, a.bid, a.kind) for a in shortage] == [(150, "Dee", 170, "house"), (151, "Bob", 160, "house")]
    md = export(sr, "markdown", Translator("en"))[".md"]
    assert "Oriental Avenue, shortage auction of a house → Dee $170" in md or ", shortage auction of a house → Dee $170" in md
    sr = load_review(Path(__file__).resolve().parent.parent / "sample_sessions" / "classic-us-timed.json")
    md = export(sr, "markdown", Translator("en"))[".md"]
    assert "Marvin Gardens: no bids, stays with the bank (printed $280)" in md
    assert "$0 (Printed" not in md and "→ —" not in md
    rows = [r for r in summary_rows(sr) if r[0] == "auction" and "no bids" in r[2]]
    assert rows == [("auction", "Marvin Gardens", "Marvin Gardens: no bids, stays with the bank (printed 280)", "", 57)]


def test_the_review_follows_the_banks_building_stock(game: Path) -> None:
    """A series of the houses and hotels in the bank after each entry (the chart of the bank's stock)."""
    path = _session(game.parent / "b.json", Setup("classic-us", "classic", PLAYERS), [
        {"op": "buy", "player": "Ann", "space": 1}, {"op": "buy", "player": "Ann", "space": 3},
        {"op": "build", "player": "Ann", "space": 1}, {"op": "build", "player": "Ann", "space": 3},
        {"op": "sell_building", "player": "Ann", "space": 3}])
    r = load_review(path).review
    assert r.bank_houses == [32, 32, 31, 30, 31] and r.bank_hotels == [12] * 5


def test_counts_of_the_table_in_the_review_and_the_exports(tmp_path: Path) -> None:
    """A count is in the log (no money moves): the review says when the table and the bank last agreed."""
    path = _session(tmp_path / "c.json", Setup("classic-us", "classic", PLAYERS), [
        {"op": "buy", "player": "Ann", "space": 39},
        {"op": "count", "houses": 32, "hotels": 12, "deeds": {"Ann": 1, "Bob": 0}},
        {"op": "buy", "player": "Bob", "space": 37},
        {"op": "count", "deeds": {"Ann": 1, "Bob": 0}, "cash": {"Bob": 1150}}])
    sr = load_review(path)
    assert [(c.seq, c.agreed, c.counted) for c in sr.review.counts] == [(2, True, 4), (4, False, 3)]
    assert sr.review.last_agreed.seq == 2
    md = export(sr, "markdown", Translator("en"))[".md"]
    ts = sr.entries[1]["ts"][11:16]
    assert f"- **Last count of the table:** #4 at {sr.entries[3]['ts'][11:16]}: 1 difference (they last agreed at #2, {ts})" in md
    data = json.loads(export(sr, "json", Translator("en"))[".json"])
    assert data["summary"]["counts"][1]["differences"] == [{"figure": "deeds", "player": "Bob", "counted": 0, "expected": 1}]
    assert [r for r in summary_rows(sr) if r[0] == "count"] == [("count", "agreed", "0", 4, 2), ("count", "differs", "1", 3, 4)]


def test_the_summary_csv_speaks_the_bankers_language_and_the_editions_words() -> None:
    """The CSV summary's names and sentences follow ``--lang`` (issue #12): Kyiv's railroads are metro stations
    in its rent by group, an auction's outcome is a sentence of the catalogs; the sections and ids stay the file's."""
    sr = load_review(Path(__file__).resolve().parent.parent / "sample_sessions" / "kyiv-agreed-end.json")
    for lang in ("ru", "uk"):
        tr = Translator(lang)
        rows = summary_rows(sr, tr)
        groups = [r for r in rows if r[0] == "rent_by_group"]
        assert groups and all(r[1] not in ("railroad", "utility") for r in groups), groups
        if any(r[2] == "railroad" for r in groups):
            assert any("метро" in r[1] for r in groups if r[2] == "railroad"), groups
        csv_text = export(sr, "csv", tr)["-summary.csv"]
        assert "no bids" not in csv_text and "printed" not in csv_text and "shortage" not in csv_text


def test_markdown_export_keeps_names_and_memos_as_text(tmp_path: Path) -> None:
    """Found by a probe: names went into the Markdown as they were, so a player called **Bold** lost its asterisks
    and one called <script>alert(1)</script> became a script element wherever the export was rendered. Names, memos
    and reasons read as typed (markdown-it, the CommonMark renderer Textual uses)."""
    from markdown_it import MarkdownIt

    players = ("**Bold**", "<script>alert(1)</script>", "a_b|c")
    path = tmp_path / "md.json"
    with Session.create(path, Setup("classic-us", "classic", players), name="[Friday](http://x)") as s:
        s.apply({"op": "transfer", "from": players[0], "to": players[1], "amount": 5, "memo": "`code` &lt; ~~x~~"})
        s.apply({"op": "salary", "player": players[2]})
        s.apply({"op": "undo", "reason": "<b>wrong</b> player"})
    md = export(load_review(path), "markdown", Translator("en"))[".md"]
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert "<script" not in html and "<b>" not in html and "<a " not in html and "<code>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "**Bold**" in html and "a_b|c" in html
    assert "[Friday](http://x)" in html and "`code` &amp;lt; ~~x~~" in html and "&lt;b&gt;wrong&lt;/b&gt; player" in html



def test_a_session_created_without_a_name_is_exported_under_its_file_name(tmp_path: Path) -> None:
    """Found probing: `banker new friday.json` (no --name) is "friday" on the table, the review and `banker state`, but
    its Markdown export was headed "# banker · ..." and its JSON export named it "". Both now say "friday", as the
    rest of banker does (SessionLog.name); a name given at creation is kept."""
    path = tmp_path / "friday.json"
    with Session.create(path, Setup("classic-us", "classic", PLAYERS)) as s:
        s.apply({"op": "salary", "player": "Ann"})
    sr = load_review(path)
    assert export(sr, "markdown", Translator("en"))[".md"].startswith("# friday · ")
    assert json.loads(export(sr, "json", Translator("en"))[".json"])["session"]["name"] == "friday"
    named = tmp_path / "named.json"
    Session.create(named, Setup("classic-us", "classic", PLAYERS), name="Friday night").close()
    assert load_review(named).name == "Friday night"


def test_markdown_export_keeps_a_name_that_begins_like_a_block_as_text(tmp_path: Path) -> None:
    """Found by a probe: a timeline line "1. # Big collects $200 salary" rendered as a heading inside the list item,
    "2. - Bob collects ..." as a list in it and "3. 1. Dan gives ..." as a numbered one: the "#", "-" and "1." vanished.
    A name that begins like a block (a heading, a list item, a quote) reads as typed."""
    from markdown_it import MarkdownIt

    players = ("# Big", "- Bob", "> Cid", "1. Dan", "+ Eve")
    path = tmp_path / "md.json"
    with Session.create(path, Setup("classic-us", "classic", players)) as s:
        for p in players:
            s.apply({"op": "salary", "player": p})
        s.apply({"op": "transfer", "from": players[3], "to": players[4], "amount": 3, "memo": "- a list?"})
    md = export(load_review(path), "markdown", Translator("en"))[".md"]
    html = MarkdownIt("commonmark").enable("table").render(md)
    timeline = html[html.index("<ol>"):]
    assert "<h1>" not in timeline and "<ul>" not in timeline and "<blockquote>" not in timeline
    assert timeline.count("<ol>") == 1  # the timeline's own list, nothing nested
    for p in players:
        assert f"<li>{p.replace('>', '&gt;')} collects $200 salary</li>" in timeline, timeline
    assert "<li>1. Dan gives + Eve $3: - a list?</li>" in timeline


def test_the_summarys_bankruptcy_rows_have_no_amount() -> None:
    """A bankruptcy moves many amounts, none of them its own: its row's amount is empty, not 0 (found by a probe)."""
    sr = load_review(Path(__file__).resolve().parent.parent / "sample_sessions" / "uk-bank-bankruptcy.json")
    rows = [r for r in summary_rows(sr) if r[0] == "bankruptcy"]
    assert rows and all(r[3] == "" and isinstance(r[4], int) for r in rows), rows


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_every_money_tick_of_the_charts_is_on_the_axis_not_on_the_title(tmp_path: Path, lang: str) -> None:
    """The money axis' top tick ("6 000 т.р.") was drawn on the chart's title line, above its frame: the ticks ran
    past the highest value and the axis did not."""
    from textual.geometry import Region
    from textual_plotext import PlotextPlot

    from banker.ui.app import BankerApp

    path = sample_copy(tmp_path, "ru-short.json")
    app = BankerApp(path, lang=lang, review=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("2")
        for _ in range(200):
            if getattr(app.screen, "charts_drawn", False):
                break
            await pilot.pause(0.05)
        await pilot.pause()
        for plot in app.screen.query(PlotextPlot):
            width, height = plot.size
            lines = [strip.text for strip in plot.render_lines(Region(0, 0, width, height))]
            bottom = next(i for i, line in enumerate(lines) if "└" in line)  # the x axis' numbers are below it
            labelled = [line for line in lines[:bottom] if line[:10].strip() and line[:10].strip()[0].isdigit()]
            assert len(labelled) >= 2, lines
            for line in labelled:  # each tick's label beside the axis' tick mark (┤), none beside the title
                assert "┤" in line[:14], (plot.id, line)



@pytest.mark.parametrize(("lang", "size", "titles"), [
    ("ru", (80, 24), ("Наличные после каждого действия", "Состояние после каждого действия")),
    ("ru", (160, 40), ("Состояние после каждого действия (деньги + участки + строения ± долги)",)),
    ("en", (80, 24), ("Net worth after each action (cash + deeds + buildings ± debts)",)),
])
async def test_every_chart_has_its_title(tmp_path: Path, lang: str, size, titles) -> None:
    """Found by a probe: at 80 columns the Russian net worth chart had no title at all (plotext leaves out one that
    does not fit beside the money ticks). Where the whole title does not fit, its words in brackets go."""
    from textual.geometry import Region
    from textual_plotext import PlotextPlot

    from banker.ui.app import BankerApp

    path = sample_copy(tmp_path, "ru-short.json")
    app = BankerApp(path, lang=lang, review=True)
    async with app.run_test(size=size) as pilot:
        await pilot.press("2")
        for _ in range(200):
            plots = list(app.screen.query(PlotextPlot))
            if getattr(app.screen, "charts_drawn", False) and plots and all(p.size.height for p in plots):
                break
            await pilot.pause(0.05)
        await pilot.pause()
        text = "\n".join(strip.text for plot in app.screen.query(PlotextPlot)
                         for strip in plot.render_lines(Region(0, 0, *plot.size)))
        for title in titles:
            assert title in text, (title, text[:600])


async def test_the_standings_fit_a_row_a_player_at_80_columns_in_russian(tmp_path: Path) -> None:
    """At 80 columns each Russian amount of the standings wrapped in its cell ("4 317" over "т.р."), every player two
    lines: the cells give the numbers alone, the table says once what they are in. And (found by a probe) the
    headers were cut, "Итогов… оценка", "Получе… аренды", "Зарпл…", in every language: no rules between the
    columns, and every header reads whole."""
    from textual.geometry import Region

    from banker.ui.app import BankerApp

    path = sample_copy(tmp_path, "ru-short.json")
    app = BankerApp(path, lang="ru", review=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        summary = app.screen.query_one("#review-summary")
        lines = [strip.text.rstrip() for strip in summary.render_lines(Region(0, 0, *summary.size))]
        rule = next(i for i, line in enumerate(lines) if line.lstrip().startswith("──"))
        head = lines[:rule]
        rows = lines[rule + 1:]
        rows = rows[:next(i for i, line in enumerate(rows) if not line.strip())]
        assert len(rows) == 4, rows  # four players, a line each
        assert all(re.match(r" +=?[0-9]+ ", row) and "т.р." not in row for row in rows), rows
        assert "Суммы в т.р." in lines, lines
        assert not any("…" in line for line in head + rows), head + rows
        for word in ("Итоговая", "Наличные", "Получено", "Уплачено", "Зарплата"):
            assert any(word in line for line in head), (word, head)
        state = app.session.state
        alexei = next(row for row in rows if "Алексей" in row)
        assert f" {state.edition.money.number(state.cash['Алексей'])} " in alexei + " ", alexei


def test_markdown_export_keeps_right_to_left_names_in_their_places(tmp_path: Path) -> None:
    """Found by the review probe: a chat lays a pasted Markdown export out by the bidi algorithm, and with players
    דנה and יוסי "- #1 דנה → יוסי $100 (Transfer)" was drawn "#1 $100 יוסי → דנה" (the payment going the other way),
    "Players: דנה, יוסי, Ann" listed the first two the other way round and "דנה gives יוסי $100: חוב" read
    "דנה gives חוב :$100 יוסי" (looked at in Chromium). As on the players' page, every name, memo and reason holding
    right-to-left writing is wrapped in isolates (FSI ... PDI), a run of its own; a left-to-right one is as it was."""
    from markdown_it import MarkdownIt

    from banker.i18n.bidi import FSI, PDI

    def iso(text: str) -> str:
        return f"{FSI}{text}{PDI}"

    dana, yossi = "דנה", "יוסי"
    path = tmp_path / "rtl.json"
    with Session.create(path, Setup("classic-us", "classic", (dana, yossi, "Ann")), name="ערב") as s:
        s.apply({"op": "transfer", "from": dana, "to": yossi, "amount": 100, "memo": "חוב"})
        s.apply({"op": "buy", "player": yossi, "space": 39})
        s.apply({"op": "rent", "payer": dana, "space": 39})
        s.apply({"op": "salary", "player": "Ann"})
        s.apply({"op": "undo", "reason": "טעות"})
    sr = load_review(path)
    md = export(sr, "markdown", Translator("en"))[".md"]
    lines = md.splitlines()
    assert lines[0].startswith(f"# {iso('ערב')} · ")
    assert f"- **Players:** {iso(dana)}, {iso(yossi)}, Ann" in lines
    assert f"- #1 {iso(dana)} → {iso(yossi)} $100 (Transfer)" in lines
    assert f"| 3 | {iso(dana)} | $1,350 | $1,350 | $0 | $50 |" in lines
    assert f"1. {iso(dana)} gives {iso(yossi)} $100: {iso('חוב')}" in lines
    assert f"3. {iso(dana)} pays {iso(yossi)} $50 rent on Boardwalk (rent $50)" in lines
    assert f"4. ~~Ann collects $200 salary~~ (undone #5: {iso('טעות')})" in lines
    assert "Ann" in md and f"{FSI}Ann" not in md  # a left-to-right name as it was
    ru = export(sr, "markdown", Translator("ru"))[".md"]
    assert f"1. Перевод $100: {iso(dana)} → {iso(yossi)} — {iso('חוב')}" in ru.splitlines()
    html = MarkdownIt("commonmark").enable("table").render(md)  # the isolates reach the rendered text as they are
    assert f"<li>#1 {iso(dana)} → {iso(yossi)} $100 (Transfer)</li>" in html


def test_the_csv_timeline_names_each_player_of_an_entry_apart(tmp_path: Path) -> None:
    """Found by the review probe: the timeline's ``players`` cell joined the names with spaces, and names hold spaces:
    "Cid Ray gives Ann Lee $5" had "Cid Ray Ann Lee", two players or four, and "דנה כהן 👩‍👩‍👧 Zoë" likewise. The names
    are now one a line within the cell (a line break no name can hold), and read back whole."""
    players = ("Ann Lee", "Bob", "Cid Ray")
    path = tmp_path / "spaces.json"
    with Session.create(path, Setup("classic-us", "classic", players)) as s:
        s.apply({"op": "transfer", "from": "Cid Ray", "to": "Ann Lee", "amount": 5})
        s.apply({"op": "salary", "player": "Bob"})
    files = export(load_review(path), "csv", Translator("en"))
    rows = list(csv.DictReader(io.StringIO(files["-timeline.csv"])))
    assert [r["players"].split("\n") for r in rows] == [["Cid Ray", "Ann Lee"], ["Bob"]]
    assert [int(r["seq"]) for r in rows] == [1, 2]  # one row an entry, the line break inside a quoted cell
