"""The disk refuses to record an action (a full disk, an I/O error): nothing is recorded and it is said, and nothing the
banker answered is lost. The action's last question (its confirmation) comes back with why on it; Enter records it
once the disk takes it, exactly once; Escape and ``n`` do what they always do. Before: the whole flow closed, an
auction's bids, a trade's deeds, a bankruptcy's choices gone, to be done again after freeing space."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import banker.ledger.writer as ledger_writer
from banker.ledger import SessionWriter
from banker.ui.app import BankerApp
from banker.ui.screens.auction import AuctionScreen
from banker.ui.screens.dialogs import AskScreen, ConfirmScreen
from banker.ui.screens.table import TableScreen

from .ui_helpers import Banker, file_entries, make_session, midgame_commands, screen_text


def disk_full(monkeypatch, err: int = errno.ENOSPC) -> list[int]:
    """Every journal line written from now on fails with ``err`` after half its bytes, as a full disk does (the
    writer wipes them again); returns the sizes of the writes refused."""
    failed: list[int] = []

    def write_all(fd, data):
        failed.append(len(data))
        os.write(fd, bytes(data[:len(data) // 2]))
        raise OSError(err, os.strerror(err))

    monkeypatch.setattr(ledger_writer, "write_all", write_all)
    return failed


def said_on_dialog(app) -> str:
    return screen_text(app.screen.query_one("#write-failed"))


def ops_of(path: Path, op: str) -> list[dict]:
    return [e["command"] for e in file_entries(path) if e["command"].get("op") == op]


async def test_a_full_disk_at_the_auctions_sale_keeps_the_bids_and_enter_sells_once_there_is_room(
        tmp_path: Path, monkeypatch) -> None:
    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"))
    before = len(file_entries(path))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("a")
        await b.choose("boardw")
        assert isinstance(app.screen, AuctionScreen)
        await b.key("3", "down", "3", "down", "p", "up", "up", "2")  # Ann 50, Bob 100, Cid passes, Ann 110
        await b.key("enter")  # sold: the confirmation
        assert isinstance(app.screen, ConfirmScreen)
        failed = disk_full(monkeypatch)
        await b.key("enter")
        await b.settle()
        assert failed  # the write was tried, and refused
        # the confirmation again, the sale as it was, with why it was not recorded on it
        assert isinstance(app.screen, ConfirmScreen)
        assert "Ann wins the auction for Boardwalk at $110" in screen_text(app.screen.query_one("#confirm-body"))
        said = said_on_dialog(app)
        assert "(no space left on the disk); nothing was recorded" in said
        assert "Everything you entered is kept: Enter tries again." in said
        assert "no space left on the disk" in b.message()  # and on the table's message line, as before
        assert len(file_entries(path)) == before
        tried = len(failed)
        await b.key("enter")  # still full: refused again, the confirmation stays
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen) and "no space left" in said_on_dialog(app)
        assert len(file_entries(path)) == before and len(failed) > tried
        monkeypatch.undo()  # room again
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        assert b.message().startswith("Ann wins the auction for Boardwalk at $110")
    entries = file_entries(path)
    assert len(entries) == before + 1  # recorded once, nothing doubled
    assert ops_of(path, "auction") == [{"op": "auction", "space": 39, "winner": "Ann", "bid": 110}]


async def test_escape_on_the_auctions_confirmation_after_a_full_disk_steps_back_to_the_auction(
        tmp_path: Path, monkeypatch) -> None:
    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"))
    before = len(file_entries(path))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("a")
        await b.choose("boardw")
        await b.key("3", "down", "3", "down", "p", "enter")  # Ann 50, Bob 100, Cid passes: sold to Bob
        disk_full(monkeypatch)
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen) and said_on_dialog(app)
        await b.key("escape")  # back to the auction as it was left: every bid, Cid's pass, Cid highlighted
        assert isinstance(app.screen, AuctionScreen)
        assert "Current bid: $100 by Bob" in screen_text(app.screen.query_one("#auction-bid"))
        assert app.screen.bidding.bids == [("Ann", 50), ("Bob", 100)] and app.screen.bidding.passed == {"Cid"}
        assert app.screen.bidder() == "Cid"
        assert not app.screen.query("#write-failed")
        monkeypatch.undo()
        await b.key("enter")
        await b.confirm()
    assert len(file_entries(path)) == before + 1
    assert ops_of(path, "auction") == [{"op": "auction", "space": 39, "winner": "Bob", "bid": 100}]


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
async def test_a_full_disk_at_a_transfers_confirmation_keeps_every_answer(tmp_path: Path, monkeypatch, err) -> None:
    path = make_session(tmp_path / "g.json", ("Ann", "Bob"))
    before = len(file_entries(path))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("x")
        await b.choose("ann")
        await b.choose("bob")
        await b.answer(75)
        await b.answer("lunch")
        assert isinstance(app.screen, ConfirmScreen)
        disk_full(monkeypatch, err)
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Ann → Bob  $75" in screen_text(app.screen.query_one("#confirm-body"))
        assert {errno.ENOSPC: "(no space left on the disk)", errno.EIO: "(an input/output error of the disk)"}[err] \
            in said_on_dialog(app)
        await b.key("escape")  # Escape steps back, as on any confirmation: the memo, as typed
        assert isinstance(app.screen, AskScreen) and app.screen.query_one("#answer").value == "lunch"
        await b.key("enter")
        assert isinstance(app.screen, ConfirmScreen) and not app.screen.query("#write-failed")
        monkeypatch.undo()
        await b.confirm()
        assert isinstance(app.screen, TableScreen)
    assert len(file_entries(path)) == before + 1
    assert ops_of(path, "transfer") == [{"op": "transfer", "from": "Ann", "to": "Bob", "amount": 75, "memo": "lunch"}]


async def test_n_on_the_confirmation_after_a_full_disk_cancels_and_records_nothing(tmp_path: Path, monkeypatch) -> None:
    path = make_session(tmp_path / "g.json", ("Ann", "Bob"))
    before = len(file_entries(path))
    app = BankerApp(path, lang="ru")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("pay ann bob 75 обед")  # typed in full: the confirmation is the only question
        assert isinstance(app.screen, ConfirmScreen)
        disk_full(monkeypatch)
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen)
        said = said_on_dialog(app)
        assert "на диске нет места" in said and "Всё, что вы ввели, сохранено: Enter — попробовать ещё раз." in said
        monkeypatch.undo()
        await b.key("n")
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        assert b.message() == "Отменено: ничего не изменилось."
    assert len(file_entries(path)) == before


async def test_a_write_that_stopped_the_session_is_not_offered_again(tmp_path: Path, monkeypatch) -> None:
    """A failed write whose line could not be taken back (the session records nothing more until reopened) is no
    disk failure to try again: said, and the action ends as before."""
    path = make_session(tmp_path / "g.json", ("Ann", "Bob"))
    before = len(file_entries(path))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("pay ann bob 75 lunch")
        disk_full(monkeypatch, errno.EIO)

        def cannot_take_back(self, fd, room, size):
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        monkeypatch.setattr(SessionWriter, "_take_back_line", cannot_take_back)
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        assert "could not be written" in b.message() or "nothing was recorded" in b.message()
        assert not app.session.can_record
    monkeypatch.undo()
    assert len(file_entries(path)) == before


async def test_a_full_disk_at_a_bankruptcy_keeps_the_creditors_choices(tmp_path: Path, monkeypatch) -> None:
    """The bankruptcy confirms and commits by its own flow (not confirm_and_commit): its "lift at once" choice is
    kept, and recorded once there is room."""
    players = ("Ann", "Bob", "Cid", "Dee", "Eve")
    path = make_session(tmp_path / "g.json", players, commands=midgame_commands(players))
    before = len(file_entries(path))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("k")
        await b.choose("bob")
        await b.choose("Lift it at once")
        assert isinstance(app.screen, ConfirmScreen)
        disk_full(monkeypatch)
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen) and "no space left on the disk" in said_on_dialog(app)
        assert len(file_entries(path)) == before
        monkeypatch.undo()
        await b.confirm()
        assert isinstance(app.screen, TableScreen)
    assert len(file_entries(path)) == before + 1
    assert ops_of(path, "bankrupt") == [{"op": "bankrupt", "player": "Bob", "lift": [5]}]


async def test_a_full_disk_at_the_deal_asks_again_with_the_same_deal(tmp_path: Path, monkeypatch) -> None:
    """The short game's deal is shuffled once for the action: asked again after the disk refused its first deed, the
    confirmation shows the deal the players saw, and Enter records that deal, each deed once (before: run again, the
    flow shuffled anew, and the deal asked again and recorded was another one)."""
    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"), variant="short")
    before = len(file_entries(path))
    app = BankerApp(path, lang="en", seed=7)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("n")
        assert isinstance(app.screen, ConfirmScreen)
        shown = screen_text(app.screen.query_one("#confirm-body"))
        failed = disk_full(monkeypatch)
        await b.key("enter")
        await b.settle()
        assert failed and len(file_entries(path)) == before
        assert isinstance(app.screen, ConfirmScreen) and "no space left on the disk" in said_on_dialog(app)
        assert screen_text(app.screen.query_one("#confirm-body")) == shown  # the same deal
        await b.key("enter")  # still full: refused again, and still the same deal
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen) and screen_text(app.screen.query_one("#confirm-body")) == shown
        monkeypatch.undo()
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, TableScreen)
        spaces = app.session.state.edition.spaces
    deals = ops_of(path, "deal")
    assert len(file_entries(path)) == before + len(deals)
    assert len({d["space"] for d in deals}) == len(deals) == 3 * 2  # two deeds each (the short game), none twice
    recorded = [f"{d['player']}: {spaces[d['space']].name} for " for d in deals]
    assert all(line in shown for line in recorded), (recorded, shown)


async def test_no_pop_up_covers_the_confirmation_asked_again(tmp_path: Path, monkeypatch) -> None:
    """Found by a probe: each refused try also put up a pop-up notification, and they stacked over the right half of
    the confirmation asked again, hiding "Enter tries again" for five seconds. The confirmation says why itself (and
    the message line too): no pop-up is left over it."""
    path = make_session(tmp_path / "g.json", ("Ann", "Bob"))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.command("pay ann bob 75 lunch")
        assert isinstance(app.screen, ConfirmScreen)
        disk_full(monkeypatch)
        for _ in range(2):
            await b.key("enter")
            await b.settle()
            assert isinstance(app.screen, ConfirmScreen) and "no space left on the disk" in said_on_dialog(app)
            assert not app.screen.query("Toast"), "a pop-up covers the confirmation"
        assert "no space left on the disk" in b.message()  # still said on the message line


async def test_a_deed_of_the_deal_refused_after_the_first_ends_the_deal_there(tmp_path: Path, monkeypatch) -> None:
    """The disk refuses the deal's third deed only (a shorter line still fits after it): the deal stops there, the
    deeds recorded are the first two of the deal shown, in its order, and none after the gap (before: the loop went
    on, and the deal was recorded with the third deed missing from its middle)."""
    path = make_session(tmp_path / "g.json", ("Ann", "Bob", "Cid"), variant="short")
    before = len(file_entries(path))
    app = BankerApp(path, lang="en", seed=7)
    real = ledger_writer.write_all
    writes: list[int] = []

    def third_refused(fd, data):  # the journal line of the third deed dealt (each line names its op)
        if b'"op":"deal"' in bytes(data):
            writes.append(len(data))
            if len(writes) == 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("n")
        assert isinstance(app.screen, ConfirmScreen)
        shown = screen_text(app.screen.query_one("#confirm-body")).splitlines()
        monkeypatch.setattr(ledger_writer, "write_all", third_refused)
        await b.key("enter")
        await b.settle()
        monkeypatch.undo()
        assert isinstance(app.screen, TableScreen)
        spaces = app.session.state.edition.spaces
    deals = ops_of(path, "deal")
    assert len(file_entries(path)) == before + 2 == before + len(deals)
    dealt = [line for line in shown if " for " in line]
    assert [f"{d['player']}: {spaces[d['space']].name} for " for d in deals] == [line[:line.index(" for ") + 5].strip()
                                                                               + " " for line in dealt[:2]]


async def test_a_full_disk_in_the_raise_cash_view_keeps_the_choice_and_enter_tries_again(tmp_path: Path,
                                                                                         monkeypatch) -> None:
    """The raise-cash view confirms and records a mortgage or a sale itself (no flow): refused by the disk, its
    confirmation comes back with why on it and Enter records it once there is room, exactly once. Before: the view
    stayed, the confirmation gone, and the banker had to pick the option again."""
    from banker.ui.screens.debt import RaiseCashScreen

    players = ("Ann", "Bob", "Cid", "Dee", "Eve")
    path = make_session(tmp_path / "g.json", players, commands=midgame_commands(players))
    before = len(file_entries(path))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("w")  # Bob, the only debtor
        view = app.screen
        assert isinstance(view, RaiseCashScreen)
        await b.key("enter")  # the first way of raising cash
        assert isinstance(app.screen, ConfirmScreen)
        shown = screen_text(app.screen.query_one("#confirm-body"))
        failed = disk_full(monkeypatch)
        await b.key("enter")
        await b.settle()
        assert failed and len(file_entries(path)) == before
        assert isinstance(app.screen, ConfirmScreen)
        assert screen_text(app.screen.query_one("#confirm-body")) == shown
        said = said_on_dialog(app)
        assert "(no space left on the disk); nothing was recorded" in said
        assert "Everything you entered is kept: Enter tries again." in said
        assert "no space left on the disk" in b.message()
        tried = len(failed)
        await b.key("enter")  # still full: refused again, the confirmation stays
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen) and "no space left" in said_on_dialog(app)
        assert len(failed) > tried and len(file_entries(path)) == before
        monkeypatch.undo()  # room again
        await b.key("enter")
        await b.settle()
        assert app.screen is view  # the view again, following the session
    entries = file_entries(path)
    assert len(entries) == before + 1  # recorded once, nothing doubled
    assert entries[-1]["command"]["player"] == "Bob"
    assert entries[-1]["command"]["op"] in ("mortgage", "sell_building")


async def test_escape_after_a_full_disk_in_the_raise_cash_view_leaves_the_view_as_it_was(tmp_path: Path,
                                                                                        monkeypatch) -> None:
    players = ("Ann", "Bob", "Cid", "Dee", "Eve")
    path = make_session(tmp_path / "g.json", players, commands=midgame_commands(players))
    before = len(file_entries(path))
    app = BankerApp(path, lang="en")
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await b.act("w")
        view = app.screen
        await b.key("down", "enter")  # the second option
        disk_full(monkeypatch)
        await b.key("enter")
        await b.settle()
        assert isinstance(app.screen, ConfirmScreen) and said_on_dialog(app)
        await b.key("escape")  # back to the view, the option picked still highlighted
        assert app.screen is view and view.query_one("#debt-options").highlighted == 1
        monkeypatch.undo()
    assert len(file_entries(path)) == before


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_the_console_says_once_that_its_name_is_not_in_the_lock_file(tmp_path: Path, monkeypatch,
                                                                           lang: str) -> None:
    """A console that took the lock on a full disk could not write its name in FILE.lock: another opener was told
    "another process ... has not written its name", and this banker nothing. The table now says it once as it opens
    (why, what it means, free some space), in the banker's language, and the game goes on: an action is recorded."""
    from banker.i18n import Translator

    path = make_session(tmp_path / "g.json")
    real = os.write

    def write(fd, data):  # the disk full for the lock file's line alone (ENOSPC)
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            name = ""
        if name.endswith("g.json.lock"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    app = BankerApp(path, lang=lang)
    async with app.run_test(size=(120, 36)) as pilot:
        b = Banker(app, pilot)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        tr = Translator(lang)
        wanted = tr("session.lock_unnamed", lock="g.json.lock", name="g.json", reason=tr("session.os_ENOSPC"))
        said = [str(n.message) for n in app._notifications]
        assert said.count(wanted) == 1, said
        assert wanted in " ".join(screen_text(app.screen.query_one("#message")).split())
        await b.command("salary ann")  # recorded as ever
        await b.confirm()
        assert len(file_entries(path)) == 1
        assert [str(n.message) for n in app._notifications].count(wanted) == 1  # once
