"""The agreed end of a time-limit game: what the banker says, where it is stored, how long is left.

The books: "Before starting, agree upon a definite hour of termination, when the richest player
will be declared the winner" (us-classic-rules.txt, TIME LIMIT GAME); "Перед началом этого
варианта игры Вам нужно условиться о времени окончания игры. Победит участник самый богатый на
момент окончания игры" (ru-2004-rules.md, «Игра с ограничением времени»).

The banker says the end as a clock time (``22:30``, ``10:30 pm``) or as a duration from now
(``90m``, ``90 minutes``, ``1h30``, ``1.5 h``, ``2 часа``, ``90 хвилин``); :func:`parse_end` makes
either an absolute time, given the moment it is said (the clock is always passed in: nothing here
reads the wall clock: the rules engine never sees a clock, and the console and ``banker new`` pass
theirs in). A session stores that time as ISO 8601 to the minute with the table's UTC
offset (``2026-11-23T22:30+01:00``, :func:`stored`); sessions recorded before kept the words as given
(``"22:30"``), read back against the session's creation time (:func:`end_of`).

Choices (docs/rules.md): a clock time at or before the moment it is said is tomorrow's (a game from
23:00 to 01:00); a duration is counted from the second it is said, and its end is the whole minute at or
after that (the end is always a clock minute, as the table shows it and the session stores it: never
sooner than the time asked, at most 59 seconds later; "1m" said at 19:40:00 ends at 19:41, said at
19:40:12 at 19:42); a duration is at least one minute and at most 24 hours.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from banker.rules.errors import Refused
from banker.rules.messages import Msg, shown

#: the furthest an agreed end may be
LONGEST = timedelta(hours=24)
#: the nearest
SHORTEST = timedelta(minutes=1)

#: (patterns compiled when first used, by ``re``'s own cache: the console's start does not wait for them)
_CLOCK = r"^(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)?$"
#: the words of a duration's units, in English, Russian and Ukrainian (prefixes: "min", "minutes", "мин", "минут")
_HOURS = ("h", "hr", "hrs", "hour", "hours", "ч", "час", "часа", "часов", "год", "години", "годин", "годину")
_MINUTES = ("m", "min", "mins", "minute", "minutes", "мин", "минута", "минуты", "минут", "минуту", "хв", "хвилина",
            "хвилини", "хвилин", "хвилину")
_PART = r"(\d+(?:[.,]\d+)?)\s*([^\d\s.,]+)?\.?\s*"


#: the most minutes a duration is read as (a timedelta holds up to 999,999,999 days); more is simply too long
MOST_MINUTES = 10.0**12


def _duration(text: str) -> timedelta | None:
    """A duration such as ``90m``, ``1h30``, ``1 h 30 min``, ``1.5 hours``, ``2 часа``; None if it is not one."""
    text = text.strip().casefold()
    if text.startswith("+"):
        text = text[1:].strip()
    if not text or not text[0].isdigit():
        return None
    total = 0.0
    pos = 0
    units: list[str] = []
    part = re.compile(_PART)  # re's own cache: compiled on the first duration read
    while pos < len(text):
        m = part.match(text, pos)
        if not m or m.end() == pos:
            return None
        number = float(m.group(1).replace(",", "."))
        word = m.group(2) or ""
        if word in _HOURS:
            unit = "h"
        elif word in _MINUTES:
            unit = "m"
        elif not word and units == ["h"]:
            unit = "m"  # "1h30": the minutes after the hours
        else:
            return None
        if unit in units:
            return None
        units.append(unit)
        total += number * (60 if unit == "h" else 1)
        pos = m.end()
    if units == ["m", "h"]:
        return None
    if not total < MOST_MINUTES:  # beyond what a timedelta holds (99999999999h, a 400-digit number): out of range
        return timedelta.max
    return timedelta(minutes=round(total))


def _clock(text: str, now: datetime) -> datetime | None:
    """A clock time such as ``22:30``, ``22.30``, ``10:30 pm`` (``1h30`` is a duration): the next such moment after ``now``."""
    m = re.match(_CLOCK, text.strip().casefold())
    if not m or (m.group("m") is None and m.group("ampm") is None):
        return None  # a bare number is a duration's or nothing
    hour, minute = int(m.group("h")), int(m.group("m") or 0)
    ampm = m.group("ampm")
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm.startswith("p") else 0)
    if hour > 23 or minute > 59:
        return None
    end = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if end <= now:
        end += timedelta(days=1)  # tomorrow's: a game from 23:00 to 01:00
    return end


def parse_end(text: str, now: datetime) -> datetime:
    """The agreed end the banker typed, said at ``now`` (an aware time: the table's clock).

    >>> from datetime import timezone
    >>> now = datetime(2026, 11, 23, 19, 40, tzinfo=timezone(timedelta(hours=1)))
    >>> stored(parse_end("22:30", now))
    '2026-11-23T22:30+01:00'
    >>> stored(parse_end("90 minutes", now))
    '2026-11-23T21:10+01:00'
    >>> stored(parse_end("1m", now + timedelta(seconds=12)))  # never sooner than asked: the next whole minute
    '2026-11-23T19:42+01:00'
    >>> stored(parse_end("1h30", now)) == stored(parse_end("1.5 h", now)) == stored(parse_end("90m", now))
    True
    """
    if now.tzinfo is None:  # pragma: no cover - a programming error: the clock gives aware times
        raise ValueError("the clock must give an aware time")
    if not isinstance(text, str) or not text.strip():
        raise Refused("end-time", Msg("end-time.empty"))
    end = _clock(text, now)
    if end is None:
        length = _duration(text)
        if length is None:
            raise Refused("end-time", Msg("end-time.unknown", value=shown(text)))
        if not SHORTEST <= length <= LONGEST:
            raise Refused("end-time", Msg("end-time.range", value=shown(text)))
        # from the second it is said, up to a whole minute (it was cut down to one: "1m" said at 19:40:59 ended
        # at 19:41, a second later)
        end = now.replace(microsecond=0) + length
        if end.second:
            end = end.replace(second=0) + timedelta(minutes=1)
    return end


def stored(end: datetime) -> str:
    """The end as a session stores it: ISO 8601 to the minute, with its UTC offset."""
    return end.isoformat(timespec="minutes")


def read_stored(text: str) -> datetime | None:
    """The end a new session stores (:func:`stored`), or None if ``text`` is not one."""
    try:
        end = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return end if end.tzinfo is not None else None


def check_stored(text: object) -> str:
    """The stored form of a new session's end time; :class:`Refused` if it is not one (the console and
    ``banker new`` turn what the banker typed into it with :func:`parse_end`)."""
    end = read_stored(text) if isinstance(text, str) else None
    if end is None:
        raise Refused("end-time", Msg("end-time.stored", value=shown(text)))
    return stored(end)


def end_of(text: str | None, created: datetime | None) -> datetime | None:
    """When a session's game ends: its stored end, or (a session recorded before ends were stored so)
    a clock time as it was given, the first such moment after ``created``; None when there is no end
    or the words are not a clock time."""
    if not text:
        return None
    end = read_stored(text)
    if end is not None:
        return end
    if created is None or created.tzinfo is None:
        return None
    return _clock(text, created.astimezone())


def left(end: datetime, now: datetime) -> timedelta:
    """The time left until ``end`` (negative once it is past), to the second."""
    return timedelta(seconds=int((end - now).total_seconds() // 1))


def countdown(delta: timedelta) -> str:
    """``1:05:09`` for a time left (``0:00:00`` once it is past)."""
    seconds = max(0, int(delta.total_seconds()))
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def clock_text(end: datetime) -> str:
    """The end as the table says it: its hour and minute in the table's own time (``22:30``)."""
    return end.strftime("%H:%M")
