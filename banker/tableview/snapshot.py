"""What the players' page shows, as one JSON document built from a read-only session.

The document carries the engine's own ``state.to_json()`` (under ``"state"``; while the game is
on, without the players' worth: see :func:`public_state`) and, beside it, everything the page
draws, already worded in the table's language: players in seating order with their cash formatted
in the edition's money, debts, jail cards, deeds grouped by colour with buildings and mortgages,
the bank's stock and the last actions; once the game has ended, each player's final valuation.
The page itself only places these texts (``textContent``), so it needs no translation or game
logic of its own. A name, a memo or any other parameter of these texts that holds right-to-left writing
comes wrapped in Unicode isolates (:func:`isolated`), so that it is its own run of the page's bidi text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from banker.i18n.bidi import isolated, isolated_entry, isolated_part
from banker.ledger.clock import clock_text

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator
    from banker.ledger import SessionLog
    from banker.rules import GameState
    from banker.rules.edition import Money

#: how many of the last actions the page lists (newest first)
LAST_ACTIONS = 15
HOUSE = "⌂"
#: deeds without a colour group: railroads, utilities (board files give no colour for them)
KIND_COLORS = {"railroad": "#3c3c3c", "utility": "#9aa0a6"}
FALLBACK_COLOR = "#9aa0a6"
#: what a colour from a board file may look like before the page uses it in a style (a CSS name: a board recorded
#: before the board checks, which take #rrggbb or a terminal colour only)
_COLOR = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$")
#: the sixteen terminal colours a board may name (banker.boards.TERMINAL_COLORS), as xterm draws them by default: a
#: browser knows no "bright_blue", and its "blue" or "white" are not the terminal's
TERMINAL_CSS = {
    "black": "#000000", "red": "#cd0000", "green": "#00cd00", "yellow": "#cdcd00", "blue": "#0000ee",
    "magenta": "#cd00cd", "cyan": "#00cdcd", "white": "#e5e5e5", "bright_black": "#7f7f7f", "bright_red": "#ff0000",
    "bright_green": "#00ff00", "bright_yellow": "#ffff00", "bright_blue": "#5c5cff", "bright_magenta": "#ff00ff",
    "bright_cyan": "#00ffff", "bright_white": "#ffffff",
}

#: the page's own words (the [tableview] catalog section), sent with every document
PAGE_LABELS = ("players", "bank", "last_actions", "no_actions", "connection_lost", "gone", "read_only", "undone", "stale")


#: a space the page never breaks a line at
NO_BREAK = "\u00a0"

@cache  # one per board's money: the patterns are compiled once, not at every rebuild of the page's document
def amounts_whole(money: Money) -> Callable[[str], str]:
    """What keeps the edition's amounts whole in a text the page wraps: the spaces its money is written with (the
    thousands' separator between digits, "1 500"; the space between the number and its unit, "200 т.р.", or between
    a symbol and the number) made no-break spaces, so that a phone never shows "1" at a line's end and "500 т.р." on
    the next. Other spaces are left alone. Made from the board's ``[money]``, not from one edition's words."""
    spaces: list[re.Pattern[str]] = []
    if money.thousands.isspace():
        spaces.append(re.compile(r"(?<=\d)" + re.escape(money.thousands) + r"(?=\d{3}(?!\d))"))
    before, _, after = money.format.partition("{amount}")
    unit, symbol = after.replace("{symbol}", money.symbol), before.replace("{symbol}", money.symbol)
    if unit[:1].isspace() and unit.strip():
        spaces.append(re.compile(r"(?<=\d)\s(?=" + re.escape(unit.strip()) + ")"))
    if symbol[-1:].isspace() and symbol.strip():
        spaces.append(re.compile("(?<=" + re.escape(symbol.strip()) + r")\s(?=-?\d)"))

    def whole(text: str) -> str:
        for pattern in spaces:
            text = pattern.sub(NO_BREAK, text)
        return text

    return whole


def _color(value: str | None) -> str:
    """A group's colour as the page draws it: a terminal colour as the terminal shows it, ``#rrggbb`` as it is."""
    if value in TERMINAL_CSS:
        return TERMINAL_CSS[value]
    return value if value and _COLOR.match(value) else FALLBACK_COLOR


def _deed_groups(state: GameState, tr: Translator, player: str) -> list[dict[str, Any]]:
    edition = state.edition
    order = list(edition.groups)
    groups: dict[str, dict[str, Any]] = {}
    for pos in sorted(state.deeds_of(player)):
        space = edition.spaces[pos]
        lot = state.lots[pos]
        if space.group and space.group in edition.groups:
            gid = space.group
            if gid not in groups:
                g = edition.groups[gid]
                # in the page's language, as the console says it (a US board's "Dark Blue" on a Russian page was English)
                groups[gid] = {"id": gid, "name": tr.group(edition, gid), "color": _color(g.color),
                               "full": state.owns_group(player, gid), "deeds": []}
        else:
            gid = space.kind
            if gid not in groups:
                groups[gid] = {"id": gid, "name": tr.group(edition, gid), "color": KIND_COLORS.get(gid, FALLBACK_COLOR),
                               "full": False, "deeds": []}
        if lot.mortgaged:
            marks = tr("deed.mortgaged")
        elif lot.hotel:
            marks = tr("tableview.hotel")
        elif lot.houses:
            marks = HOUSE * lot.houses
        else:
            marks = ""
        groups[gid]["deeds"].append({"position": pos, "name": space.name, "houses": lot.houses, "hotel": lot.hotel,
                                     "mortgaged": lot.mortgaged, "marks": marks})

    def rank(g: dict[str, Any]) -> tuple[int, int]:
        return (order.index(g["id"]), 0) if g["id"] in order else (len(order), g["deeds"][0]["position"])

    return sorted(groups.values(), key=rank)


def _token(state: GameState, tr: Translator, name: str) -> dict[str, Any]:
    """Follow mode: the player's token (its space, jail) and whether the player rolls next, as the page shows them."""
    pos = state.positions[name]
    if state.in_jail[name]:
        text = tr("follow.in_jail", n=state.jail_turns[name])
    else:
        text = tr("follow.on_space", space=isolated(state.edition.spaces[pos].name))
    turn = state.current == name and not state.over  # nobody rolls next once the game has ended
    turn_text = ""
    if turn and state.pending is not None:  # the landing is still to settle: nobody rolls yet (it said "rolls next")
        from banker.rules.turns import describe

        turn_text = tr("follow.to_settle", what=tr.parts([isolated_part(describe(state, state.pending).to_json())]))
    elif turn:
        turn_text = tr("follow.rolls_next")
    return {"position": pos, "in_jail": state.in_jail[name], "token_text": text, "turn": turn, "turn_text": turn_text}


def public_state(state: GameState) -> dict[str, Any]:
    """``state.to_json()`` as the page may carry it: while the game is on, without any valuation
    of a player's holdings (``net_worth``, and a debtor's ``can_raise``). The US income tax is
    chosen "before he adds up his total worth" (us-classic-rules.txt, "Income Tax"); a page
    showing every player's worth at all times would add it up for him. Once the game has ended,
    everything (the result holds the final valuation)."""
    raw = state.to_json()
    if state.over:
        return raw
    for p in raw["players"].values():
        p.pop("net_worth", None)
        if p.get("debt"):
            p["debt"].pop("can_raise", None)
    return raw


#: the log's sentences that give a player's worth, said on the page, while the game is on, otherwise: the US income
#: tax's choice ("chose 10% of $1,500", "the other choice would have cost $150") as the plain payment; the end of a
#: game that was undone (its valuation of every player, and the winner it made) not at all, its "End of game" alone
WORTH_SENTENCES: dict[str, str | None] = {"log.tax-flat": "log.tax", "log.tax-percent": "log.tax", "log.game-ends": None}
_PAYMENT_PARAMS = ("player", "amount", "space")


def _public_entry(entry: Any) -> Any:
    """``entry`` as the page may say it while the game is on: a sentence that gives a worth said without it (see
    :func:`public_state`), an undo's included (it repeats what it undoes); others as they are."""
    parts = getattr(entry, "parts", None)
    if not parts or not any(isinstance(p, dict) and p.get("key") in WORTH_SENTENCES for p in parts):
        return entry
    plain = []
    for p in parts:
        key = p.get("key") if isinstance(p, dict) else None
        if key not in WORTH_SENTENCES:
            plain.append(p)
        elif (said := WORTH_SENTENCES[key]) is not None:
            plain.append({"key": said, "params": {k: v for k, v in (p.get("params") or {}).items() if k in _PAYMENT_PARAMS}})
    return SimpleNamespace(parts=plain, text="")


def build_snapshot(session: SessionLog, tr: Translator, error: str | None = None) -> dict[str, Any]:
    """The page's document for the session as it stands (see the module docstring)."""
    state = session.state
    edition = state.edition
    fmt = edition.fmt
    whole = amounts_whole(edition.money)  # every text with an amount in it, as the page gets it
    raw = public_state(state)
    # the final valuation (what decided the winner), once the game has ended; no worth before
    final = dict((state.result or {}).get("valuation") or {}) if state.over else {}
    players = []
    for name in state.players:
        p = raw["players"][name]
        debts = [whole(tr("player.owes", amount=fmt(amount), creditor=isolated(tr.account(creditor))))
                 for creditor, amount, _why in state.debts.get(name, [])]
        status = ""
        if p["bankrupt"]:
            status = tr("player.bankrupt", creditor=isolated(tr.account(state.bankrupt_to.get(name), in_text=True)))
        players.append({
            "name": name,
            "cash": p["cash"],
            "cash_text": whole(fmt(p["cash"])),
            "bankrupt": p["bankrupt"],
            "status": status,
            "debts": debts,
            "jail_cards": p["jail_cards"],
            "jail_text": tr("player.jail_cards", n=p["jail_cards"]) if p["jail_cards"] else "",
            "groups": _deed_groups(state, tr, name),
        })
        if name in final:  # only once the game has ended: the key is not even there before
            players[-1]["worth_text"] = whole(tr("tableview.valuation", amount=fmt(final[name])))
        if state.follow and not p["bankrupt"]:  # follow mode (issue #11): whose turn, and where each token stands
            players[-1].update(_token(state, tr, name))
    bank_lines = [tr("bank.houses", n=state.bank_houses, total=edition.houses),
                  tr("bank.hotels", n=state.bank_hotels, total=edition.hotels)]
    if state.house_rules.free_parking_pot:
        bank_lines.append(whole(tr("bank.pot_amount", amount=fmt(state.pot))))
    notes = []
    if state.pending_auction:
        notes.append(tr("bank.pending", names=", ".join(isolated(edition.spaces[p].name) for p in sorted(state.pending_auction))))
    if state.over:
        tied = [isolated(n) for n in (state.result or {}).get("tied", [])]
        notes.append(tr.game_over(isolated(state.winner) if state.winner else None, tied))
    entries = session.entries
    shown = entries[-LAST_ACTIONS:]
    # an undo always comes after what it undoes: the undone among the shown are undone by shown entries
    undone = {e.undoes for e in shown if e.undoes is not None}
    actions = []
    for entry in reversed(shown):
        text = whole(isolated_entry(tr, entry if state.over else _public_entry(entry)))
        actions.append({"seq": entry.seq, "ts": entry.ts, "time": table_time(entry.ts), "text": text,
                        "undone": entry.seq in undone, "undo": entry.undoes is not None})
    variant = tr.get(f"variant.{state.variant.id}", state.variant.name)
    doc: dict[str, Any] = {
        "version": len(entries),
        "lang": tr.lang,
        "name": session.name,
        "edition": edition.name,
        "variant": variant,
        # the outcome first, once the game has ended: with eight players it was only in the bank's card, screens below
        "header": " · ".join([*(notes[-1:] if state.over else []), edition.name, variant,
                              tr("tableview.actions", n=len(entries))]),
        "title": tr("tableview.page_title", name=isolated(session.name)),
        "labels": {key: tr(f"tableview.{key}") for key in PAGE_LABELS},
        "players": players,
        "bank": {"houses": state.bank_houses, "houses_total": edition.houses, "hotels": state.bank_hotels,
                 "hotels_total": edition.hotels, "lines": bank_lines, "notes": notes},
        "actions": actions,
        "error": error,
        "state": raw,
    }
    if error is None and session.damage:
        # a damaged log (a journal line changed while the page served it, say) opens read-only without the damaged
        # entries: said on the page, never a table quietly shorter than the one shown a moment ago
        doc["error"] = tr.session(session.damage_message)
        doc["error_text"] = tr("tableview.damaged")
    return doc


def table_time(ts: str) -> str:
    """An entry's hour and minute as the table's clock said them (the offset it was recorded with), as the console,
    ``banker log`` and the review show it: a phone set to another zone read the times of its own (``new Date``)."""
    try:
        return clock_text(datetime.fromisoformat(ts))
    except ValueError:  # a hand-edited time: none shown
        return ""
