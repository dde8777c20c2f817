"""Exports of a session's review: JSON, CSV (timeline and summary) and Markdown for a chat.

The figures come from :func:`banker.ledger.review.load_review` (the review over the logged
effects); this module only words them. The session file itself stays the TinyDB log.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from banker.i18n import Translator
from banker.i18n.bidi import isolated, isolated_entry
from banker.ledger.clock import clock_text, end_of
from banker.ledger.review import SessionReview
from banker.rules.review import Auction, Standing, standings, ties

FORMATS = ("csv", "markdown", "json")


#: a payment's reason ("for") -> the action whose name says it
WHY_ACTION = {"fine": "jail_fine", "bankruptcy": "bankrupt", "interest": "unmortgage", "sell": "sell_building"}


def why_text(tr: Translator, why: str) -> str:
    """A payment's reason in the interface's words (the action's name)."""
    return tr.get(f"action.{WHY_ACTION.get(why, why)}", why)


# --------------------------------------------------------------------------- the setup, the standings
def end_text(sr: SessionReview) -> str | None:
    """The agreed end of a timed game as the table says it (``22:30``), or as it was given in an older session."""
    given = sr.state.setup.end_time
    if not given:
        return None
    try:
        created = datetime.fromisoformat(str(sr.doc.get("created") or ""))
    except ValueError:
        created = None
    end = end_of(given, created)
    return clock_text(end) if end is not None else given


def house_rules_text(sr: SessionReview, tr: Translator) -> str:
    """The house rules on, in the interface's words ("none" when the official rules were played)."""
    on = [r for r, v in sr.state.house_rules.to_mapping().items() if v]
    return ", ".join(tr(f"house_rule.{r}") for r in on) if on else tr("evening.no_house_rules")


def _as_is(text: str) -> str:
    return text


def setup_fields(sr: SessionReview, tr: Translator) -> list[tuple[str, str]]:
    """The setup of the evening, as (label, value), for the Markdown export: edition, variant, house rules, the
    agreed end, the players (a right-to-left name isolated)."""
    state = sr.state
    fields = [(tr("evening.edition"), state.edition.name), (tr("evening.variant"), tr(f"variant.{state.variant.id}")),
              (tr("evening.house_rules"), house_rules_text(sr, tr))]
    end = end_text(sr)
    if end is not None:
        fields.append((tr("evening.end"), end))
    fields.append((tr("evening.players"), ", ".join(isolated(p) for p in state.players)))
    return fields


def count_text(sr: SessionReview, tr: Translator) -> str:
    """When the table and the bank were last counted, and whether they agreed."""
    r = sr.review
    last = r.last_count
    if last is None:
        return tr("evening.never_counted")
    when = last.ts[11:16]
    if last.agreed:
        return tr("evening.count_agreed", seq=last.seq, time=when)
    text = tr("evening.count_differed", seq=last.seq, time=when, n=len(last.differences))
    agreed = r.last_agreed
    if agreed is not None:
        text += " " + tr("evening.agreed_before", seq=agreed.seq, time=agreed.ts[11:16])
    return text


def rank_text(s: Standing) -> str:
    """``1``, or ``=2`` for a place shared."""
    return f"={s.rank}" if s.tied and not s.winner else str(s.rank)


def ties_text(ranked: list[Standing], tr: Translator, fmt: Any, name: Callable[[str], str] = _as_is) -> list[str]:
    """Each tie in words, and how the win was decided between tied players (more cash: docs/rules.md); each player's
    name passed through ``name``."""
    out = []
    for players, worth, winner, sharing in ties(ranked):
        line = tr("evening.tie", players=", ".join(name(p) for p in players), amount=fmt(worth))
        if winner is not None:
            line += " " + tr("evening.tie_break", player=name(winner))
        elif sharing:
            line += " " + tr("evening.tie_shared", players=", ".join(name(p) for p in sharing))
        out.append(line)
    return out


def auction_text(a: Auction, tr: Translator, name: str, fmt: Any, who: Callable[[str], str] = _as_is) -> str:
    """One auction: the winner (passed through ``who``) and the bid against the printed price; a deed nobody bid on
    says so."""
    if a.kind != "deed":
        name = tr("evening.shortage", space=name, kind=tr(f"evening.{a.kind}"))
    if a.no_bids:
        return tr("evening.no_bids", space=name, printed=fmt(a.printed))
    return tr("evening.auction", space=name, winner=who(a.winner or ""), bid=fmt(a.bid), printed=fmt(a.printed))


# --------------------------------------------------------------------------- JSON
def to_json(sr: SessionReview, tr: Translator) -> str:
    state = sr.state
    data = {"session": {"name": sr.name, "created": sr.doc.get("created"), "edition": state.edition.id,
                        "edition_name": state.edition.name, "variant": state.variant.id,
                        "house_rules": state.house_rules.to_mapping(), "end_time": state.setup.end_time,
                        "end": end_text(sr), "players": list(state.players)},
            "final": sr.state.to_json(), **sr.review.to_json(sr.state)}
    for item, row in zip(sr.review.timeline, data["timeline"], strict=True):
        row["text"] = tr.entry(item)
    return json.dumps(data, ensure_ascii=False, indent=1)


# --------------------------------------------------------------------------- CSV
TIMELINE_COLUMNS = ("seq", "time", "action", "text", "players", "undone_by", "undo_reason")
#: between the names of the timeline's ``players`` cell: a line break, which no name can hold (a name may hold spaces,
#: and "Cid Ray Ann Lee" was two players or four; found by the review probe). The cell is quoted, one name a line
PLAYERS_SEPARATOR = "\n"
#: what a spreadsheet reads a text cell beginning with as a formula (OWASP, "CSV injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell: a text a spreadsheet would run as a formula (a player called ``=1+2`` or ``@SUM(A1)``, a memo
    beginning with ``=``) is kept as text by a leading ``'``, as spreadsheets themselves write it; numbers as they are."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


class _Writer:
    """``csv.writer`` whose every cell passes :func:`_cell`."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> None:
        self._w.writerow([_cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def timeline_csv(sr: SessionReview, tr: Translator) -> str:
    out = io.StringIO()
    w = _Writer(out)
    players = list(sr.review.players)
    w.writerow([*TIMELINE_COLUMNS, *(f"cash:{p}" for p in players), *(f"net_worth:{p}" for p in players)])
    for i, item in enumerate(sr.review.timeline):
        w.writerow([item.seq, item.ts, item.op, tr.entry(item), PLAYERS_SEPARATOR.join(item.players),
                    item.undone_by or "", item.undo_reason or "",
                    *(sr.review.cash[p][i] for p in players), *(sr.review.worth[p][i] for p in players)])
    return out.getvalue()


SUMMARY_COLUMNS = ("section", "subject", "detail", "amount", "seq")


def summary_rows(sr: SessionReview, tr: Translator | None = None) -> list[tuple[str, str, str, int | str, int | str]]:
    """The summary as (section, subject, detail, amount, seq) rows: the CSV export's and the tests' shape.
    It opens with the setup (edition, variant, house rules, the agreed end, the players in seating order)
    and the standings. The sections and the setup's ids are the file's vocabulary (for a spreadsheet or a
    script); the names and sentences are in ``tr``'s language (English by default): a group's name (Kyiv's
    metro stations), an auction's outcome."""
    tr = tr or Translator("en")
    r, spaces = sr.review, sr.state.edition.spaces
    state = sr.state
    rows: list[tuple[str, str, str, int | str, int | str]] = [
        ("setup", state.edition.id, "edition", "", ""), ("setup", state.variant.id, "variant", "", "")]
    rows += [("setup", rule, "house_rule", "", "") for rule, on in state.house_rules.to_mapping().items() if on]
    if state.setup.end_time:
        rows.append(("setup", state.setup.end_time, "end_time", "", ""))
    rows += [("setup", p, "player", "", "") for p in state.players]
    for s in standings(state, r):
        flags = [f for f, on in (("winner", s.winner), ("tied", s.tied), ("bankrupt", s.bankrupt)) if on]
        rows.append(("standing", s.player, " ".join([rank_text(s), *flags]), s.worth, ""))
    rows += [("count", "agreed" if c.agreed else "differs", str(len(c.differences)), c.counted, c.seq) for c in r.counts]
    for p in r.players:
        rows.append(("final_cash", p, "", sr.state.cash[p], ""))
    rows += [("rent_paid", p, "", v, "") for p, v in r.rent_paid.items()]
    rows += [("rent_received", p, "", v, "") for p, v in r.rent_received.items()]
    rows += [("rent_by_deed", spaces[pos].name, str(pos), v, "") for pos, v in r.rent_by_deed.items()]
    rows += [("rent_by_group", tr.group(sr.state.edition, g), g, v, "") for g, v in r.rent_by_group.items()]
    rows += [("to_bank", p, why, v, "") for p, by in r.to_bank.items() for why, v in by.items()]
    rows += [("salary", p, "", v, "") for p, v in r.salary.items()]
    rows += [("auction", spaces[a.space].name, auction_text(a, tr, spaces[a.space].name, str), "" if a.no_bids else a.bid,
              a.seq) for a in r.auctions]
    rows += [("payment", f"{p.payer} -> {p.payee}", p.why, p.amount, p.seq) for p in r.biggest]
    rows += [("bankruptcy", b.player, b.creditor, "", b.seq) for b in r.bankruptcies]  # no amount: a bankruptcy moves many
    return rows


def summary_csv(sr: SessionReview, tr: Translator | None = None) -> str:
    out = io.StringIO()
    w = _Writer(out)
    w.writerow(SUMMARY_COLUMNS)
    w.writerows(summary_rows(sr, tr))
    return out.getvalue()


# --------------------------------------------------------------------------- Markdown
#: what Markdown would read as formatting, a link or HTML in a name, a memo or a reason (a player called **Bold**
#: lost its asterisks; one called <script> was a script element in a rendered export): each escaped by a backslash
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")
#: an HTML character reference (``&lt;``) typed in a name: its ``&`` escaped, so it reads as typed
_MD_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")


#: what makes a line a block when it begins it, as CommonMark reads it (a heading, a list item, a quote, a rule): its
#: marker escaped, so a name such as "# Big", "- Bob", "> Cid" or "1. Dan" reads as typed at the start of a list item
#: too; what is no block ("#4 at 21:40", "1.5") is left as it is
_MD_BLOCK = re.compile(r"^(\s*)(#{1,6}(?=\s|$)|[-+](?=\s|$)|-(?=-{2,}\s*$)|>|\d{1,9}(?=[.)](?:\s|$)))")


def _md(text: str) -> str:
    """``text`` (a name, a memo, a sentence) as Markdown text that renders exactly as it reads, on one line."""
    text = _MD_ENTITY.sub("&amp;", _MD_SPECIAL.sub(r"\\\1", text)).replace("\n", " ")
    return _MD_BLOCK.sub(lambda m: m[1] + (m[2] + "\\" if m[2][0].isdigit() else "\\" + m[2]), text, count=1)


def to_markdown(sr: SessionReview, tr: Translator, timeline: bool = True) -> str:
    """The export for a chat. Every name, memo and reason in it that holds right-to-left writing is wrapped in Unicode
    isolates (:func:`banker.i18n.bidi.isolated`), as on the players' page: a chat lays the text out by the bidi
    algorithm, and "#1 דנה → יוסי $100" read "#1 $100 יוסי → דנה", the payment going the other way."""
    r, state = sr.review, sr.state
    fmt = state.edition.fmt
    spaces = state.edition.spaces
    lines = [f"# {_md(isolated(sr.name or 'banker'))} · {_md(state.edition.name)} · {tr(f'variant.{state.variant.id}')}", ""]
    lines += [f"- **{label}:** {_md(value)}" for label, value in setup_fields(sr, tr)]
    lines += [f"- **{tr('evening.last_count')}:** {_md(count_text(sr, tr))}", ""]
    if state.over:
        winner = isolated(state.winner) if state.winner else ", ".join(
            isolated(p) for p in (state.result or {}).get("tied", []))
        lines += [f"**{tr('review.winner')}: {_md(winner)}**", ""]
    worth_label = tr("evening.valuation") if state.over else tr("review.net_worth")
    lines += [f"| {tr('evening.rank')} | {tr('review.player')} | {worth_label} | {tr('review.cash')} "
              f"| {tr('review.rent_received')} | {tr('review.rent_paid')} |",
              "|---:|---|---:|---:|---:|---:|"]
    ranked = standings(state, r)
    for s in ranked:
        p = s.player
        status = f" ({tr('review.bankrupt')})" if s.bankrupt else ""
        lines.append(f"| {rank_text(s)} | {_md(isolated(p))}{status} | {fmt(s.worth)} | {fmt(state.cash[p])} "
                     f"| {fmt(r.rent_received.get(p, 0))} | {fmt(r.rent_paid.get(p, 0))} |")
    lines.append("")
    tied = ties_text(ranked, tr, fmt, isolated)
    if tied:
        lines += [f"**{tr('evening.ties')}:** " + _md("; ".join(tied)), ""]
    if r.rent_by_deed:
        lines.append(f"**{tr('review.best_deeds')}:** " + ", ".join(
            f"{_md(isolated(spaces[pos].name))} {fmt(v)}" for pos, v in list(r.rent_by_deed.items())[:8]))
        lines.append("")
    if r.to_bank:
        lines.append(f"**{tr('review.to_bank')}:** " + ", ".join(
            f"{_md(isolated(p))} {fmt(r.to_bank_total(p))}" for p in r.to_bank))
        lines.append("")
    if r.auctions:
        lines.append(f"**{tr('review.auctions')}:** " + ", ".join(
            _md(auction_text(a, tr, isolated(spaces[a.space].name), fmt, isolated)) for a in r.auctions))
        lines.append("")
    if r.biggest:
        lines.append(f"**{tr('review.biggest')}:**")
        lines += [f"- #{p.seq} {_md(isolated(tr.account(p.payer)))} → {_md(isolated(tr.account(p.payee)))} {fmt(p.amount)} "
                  f"({why_text(tr, p.why)})" for p in r.biggest[:5]]
        lines.append("")
    if r.bankruptcies:
        lines.append(f"**{tr('review.bankruptcies')}:**")
        lines += [f"- #{b.seq} {_md(isolated(b.player))} → {_md(isolated(tr.account(b.creditor)))}" for b in r.bankruptcies]
        lines.append("")
    if timeline:
        lines += [f"## {tr('review.timeline')}", ""]
        for item in r.timeline:
            text = _md(isolated_entry(tr, item))
            if item.undone:
                text = f"~~{text}~~ ({tr('review.undone_by')} #{item.undone_by}: {_md(isolated(item.undo_reason or ''))})"
            lines.append(f"{item.seq}. {text}")
        lines.append("")
    return "\n".join(lines)


def export(sr: SessionReview, fmt: str, tr: Translator) -> dict[str, str]:
    """The export in ``fmt``: {file suffix: text}. CSV gives two files (timeline and summary)."""
    if fmt == "json":
        return {".json": to_json(sr, tr)}
    if fmt == "markdown":
        return {".md": to_markdown(sr, tr)}
    if fmt == "csv":
        return {"-timeline.csv": timeline_csv(sr, tr), "-summary.csv": summary_csv(sr, tr)}
    raise ValueError(f"unknown export format {fmt!r}; formats: {', '.join(FORMATS)}")
