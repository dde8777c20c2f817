"""Issue #13: the time-limit game's agreed end, said as a clock time or a duration, validated, stored, counted
down on the table, and the alert when it is reached.

The books: "TIME LIMIT GAME... Before starting, agree upon a definite hour of termination, when the richest player
will be declared the winner" (us-classic-rules.txt); "Перед началом этого варианта игры Вам нужно условиться о
времени окончания игры. Победит участник самый богатый на момент окончания игры" (ru-2004-rules.md, «Игра с
ограничением времени»). Every clock here is frozen: nothing reads the wall clock."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from banker import cli
from banker.boards import game_from_setup
from banker.ledger import Session
from banker.ledger.clock import countdown, end_of, left, parse_end, stored
from banker.rules import Refused, Setup

TABLE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 23, 19, 40, 12, tzinfo=TABLE)


@pytest.mark.parametrize("said,end", [
    ("22:30", "2026-11-23T22:30+01:00"), ("22.30", "2026-11-23T22:30+01:00"), ("10:30 pm", "2026-11-23T22:30+01:00"),
    ("10:30pm", "2026-11-23T22:30+01:00"), ("7:30 am", "2026-11-24T07:30+01:00"),
    ("01:00", "2026-11-24T01:00+01:00"),  # before now: tomorrow's (a game past midnight)
    ("19:40", "2026-11-24T19:40+01:00"),  # the very minute it is said: tomorrow's, never at once
    # a duration from the second it is said (19:40:12), to the whole minute at or after it: never sooner than asked
    ("90m", "2026-11-23T21:11+01:00"), ("90 min", "2026-11-23T21:11+01:00"), ("90 minutes", "2026-11-23T21:11+01:00"),
    ("1h30", "2026-11-23T21:11+01:00"), ("1h 30m", "2026-11-23T21:11+01:00"), ("1.5 h", "2026-11-23T21:11+01:00"),
    ("1,5 часа", "2026-11-23T21:11+01:00"), ("2 hours", "2026-11-23T21:41+01:00"), ("2 часа", "2026-11-23T21:41+01:00"),
    ("90 минут", "2026-11-23T21:11+01:00"), ("90 хвилин", "2026-11-23T21:11+01:00"), ("2 години", "2026-11-23T21:41+01:00"),
    ("+45m", "2026-11-23T20:26+01:00"),
])
def test_the_end_is_a_clock_time_or_how_long_to_play(said, end):
    assert stored(parse_end(said, NOW)) == end


@pytest.mark.parametrize("second", range(60))
@pytest.mark.parametrize("said,minutes", [("1m", 1), ("1 min", 1), ("90m", 90), ("1h30", 90), ("24h", 24 * 60)])
def test_a_duration_is_never_cut_short(said, minutes, second):
    """`--end-time 1m` ended at the start of the next minute: said at 19:40:59, the game had one second. A duration
    counts from the second it is said and ends on the whole minute at or after it (the end is a clock minute, as the
    table shows and stores it): never sooner than asked, at most 59 seconds later. Whatever the second (a frozen
    clock, each of them, with a fraction of a second that does not count)."""
    now = NOW.replace(second=second, microsecond=999_999)
    end = parse_end(said, now)
    assert end.second == 0 and end.microsecond == 0
    asked = timedelta(minutes=minutes)
    assert asked <= end - now.replace(microsecond=0) < asked + timedelta(minutes=1)


@pytest.mark.parametrize("second,end", [(0, "19:41"), (1, "19:42"), (12, "19:42"), (59, "19:42")])
def test_banker_new_end_time_1m(capsys, tmp_path, monkeypatch, second, end):
    """`banker new --end-time 1m`, its clock frozen at 19:40:SS: a minute of play at least, said and stored as the
    whole minute it ends on (at :59 it said 19:41, a second away)."""
    monkeypatch.setattr(cli, "local_now", lambda: NOW.replace(second=second))
    path = tmp_path / "t.json"
    code, out, err = run(capsys, "new", str(path), "--players", "Ann,Bob", "--variant", "timed", "--end-time", "1m")
    assert code == 0 and f"agreed end {end}" in out, err
    assert json.loads(path.read_text(encoding="utf-8"))["session"]["1"]["end_time"] == f"2026-11-23T{end}+01:00"


@pytest.mark.parametrize("said,key", [
    ("banana", "end-time.unknown"), ("90", "end-time.unknown"), ("25:00", "end-time.unknown"), ("13:30 pm", "end-time.unknown"),
    ("30m 1h", "end-time.unknown"), ("1h 1h", "end-time.unknown"), ("", "end-time.empty"), ("   ", "end-time.empty"),
    ("0m", "end-time.range"), ("25h", "end-time.range"), ("24h 1m", "end-time.range"),
    # beyond what a timedelta holds: the console crashed (OverflowError) and the command line said "please report it"
    ("99999999999h", "end-time.range"), ("9" * 400 + "m", "end-time.range"), ("1h " + "9" * 400, "end-time.range"),
])
def test_an_end_that_is_not_one_is_refused_saying_what_to_type(said, key):
    with pytest.raises(Refused) as e:
        parse_end(said, NOW)
    assert e.value.msg.key == key
    assert "22:30" in str(e.value) or "24 hours" in str(e.value)


def test_the_stored_end_and_an_older_sessions_words():
    end = parse_end("22:30", NOW)
    assert end_of(stored(end), None) == end
    # a session recorded before the end was stored so kept "22:30": read against its creation time
    created = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
    old = end_of("22:30", created)
    assert old is not None and old > created and old.strftime("%H:%M") == "22:30"
    assert end_of("till the pizza comes", created) is None and end_of(None, created) is None
    assert countdown(left(end, NOW)) == "2:49:48" and countdown(left(end, end + timedelta(seconds=5))) == "0:00:00"


def test_a_new_game_has_an_end_exactly_when_its_variant_has_a_time_limit():
    """variants.toml says which variant has a time limit (``timed``): an end elsewhere is refused, and the
    time-limit game is refused without one ("Before starting, agree upon a definite hour")."""
    timed = Setup("classic-us", "timed", ("Ann", "Bob"), end_time="2026-11-23T22:30+01:00").for_new_game()
    game_from_setup(timed).check_new()
    with pytest.raises(Refused, match="the classic game has no time limit") as e:
        game_from_setup(Setup("classic-us", "classic", ("Ann", "Bob"), end_time="2026-11-23T22:30+01:00")).check_new()
    assert e.value.rule == "end-time"
    with pytest.raises(Refused, match="needs its agreed end"):
        game_from_setup(Setup("ru", "timed", ("Аня", "Боря"))).check_new()
    # a session recorded before (any end, any variant) still opens: only new games are checked
    game_from_setup(Setup("classic-us", "classic", ("Ann", "Bob"), end_time="22:30"))


def test_session_create_refuses_an_end_on_a_game_without_a_time_limit(tmp_path):
    with pytest.raises(Refused, match="no time limit"):
        Session.create(tmp_path / "g.json", Setup("kyiv", "classic", ("Оля", "Петро"), end_time="2026-11-23T22:30+02:00"))
    with pytest.raises(Refused, match="not a time with its UTC offset"):  # the words, not the time they name
        Session.create(tmp_path / "g.json", Setup("classic-us", "timed", ("Ann", "Bob"), end_time="22:30"))
    assert list(tmp_path.iterdir()) == []


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_banker_new_end_time(capsys, tmp_path, monkeypatch):
    """`banker new --end-time` takes a clock time or a duration, said now (the clock is frozen here), stores the time
    it names, and refuses nonsense, an end on a game without a time limit, and a timed game without one."""
    monkeypatch.setattr(cli, "local_now", lambda: NOW)
    path = tmp_path / "t.json"
    code, out, err = run(capsys, "new", str(path), "--players", "Ann,Bob", "--variant", "timed", "--end-time", "90 minutes")
    assert code == 0 and "agreed end 21:11" in out, err
    assert json.loads(path.read_text(encoding="utf-8"))["session"]["1"]["end_time"] == "2026-11-23T21:11+01:00"
    for args, message in [
        (("--variant", "timed", "--end-time", "banana"), '"banana" is not an end time: type a clock time such as 22:30'),
        (("--end-time", "22:30"), "the classic game has no time limit"),
        (("--edition", "kyiv", "--end-time", "22:30"), "the classic game has no time limit"),
        (("--variant", "timed"), "A time-limit game needs its agreed end"),
    ]:
        other = tmp_path / "x.json"
        code, out, err = run(capsys, "new", str(other), "--players", "Ann,Bob", *args)
        assert code == 1 and out == "" and message in err and len(err.splitlines()) == 1, (args, err)
        assert not other.exists()
