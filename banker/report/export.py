"""Exports of a session's review: JSON, CSV (timeline and summary) and Markdown for a chat.

The figures come from :func:`banker.ledger.review.load_review` (the review over the logged
effects); this module only words them. The session file itself stays the TinyDB log.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any

from banker.i18n import Translator
from banker.ledger.review import SessionReview
from banker.rules.review import TimelineItem

FORMATS = ("csv", "markdown", "json")


#: a payment's reason ("for") -> the action whose name says it
WHY_ACTION = {"fine": "jail_fine", "bankruptcy": "bankrupt", "interest": "unmortgage", "sell": "sell_building"}


def why_text(tr: Translator, why: str) -> str:
    """A payment's reason in the interface's words (the action's name)."""
    return tr.get(f"action.{WHY_ACTION.get(why, why)}", why)


def _line(tr: Translator, item: TimelineItem) -> str:
    parts: list[Mapping[str, Any]] = list(item.parts)
    return tr.parts(parts) if parts else item.text


# --------------------------------------------------------------------------- JSON
def to_json(sr: SessionReview, tr: Translator) -> str:
    data = {"session": {"name": sr.name, "created": sr.doc.get("created"), "edition": sr.state.edition.id,
                        "variant": sr.state.variant.id, "players": list(sr.state.players)},
            "final": sr.state.to_json(), **sr.review.to_json(sr.state)}
    for item, row in zip(sr.review.timeline, data["timeline"], strict=True):
        row["text"] = _line(tr, item)
    return json.dumps(data, ensure_ascii=False, indent=1)


# --------------------------------------------------------------------------- CSV
TIMELINE_COLUMNS = ("seq", "time", "action", "text", "players", "undone_by", "undo_reason")


def timeline_csv(sr: SessionReview, tr: Translator) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    players = list(sr.review.players)
    w.writerow([*TIMELINE_COLUMNS, *(f"cash:{p}" for p in players), *(f"net_worth:{p}" for p in players)])
    for i, item in enumerate(sr.review.timeline):
        w.writerow([item.seq, item.ts, item.op, _line(tr, item), " ".join(item.players),
                    item.undone_by or "", item.undo_reason or "",
                    *(sr.review.cash[p][i] for p in players), *(sr.review.worth[p][i] for p in players)])
    return out.getvalue()


SUMMARY_COLUMNS = ("section", "subject", "detail", "amount", "seq")


def summary_rows(sr: SessionReview) -> list[tuple[str, str, str, int, int | str]]:
    """The summary as (section, subject, detail, amount, seq) rows: the CSV export's and the tests' shape."""
    r, spaces = sr.review, sr.state.edition.spaces
    rows: list[tuple[str, str, str, int, int | str]] = []
    for p in r.players:
        rows.append(("final_cash", p, "", sr.state.cash[p], ""))
    rows += [("rent_paid", p, "", v, "") for p, v in r.rent_paid.items()]
    rows += [("rent_received", p, "", v, "") for p, v in r.rent_received.items()]
    rows += [("rent_by_deed", spaces[pos].name, str(pos), v, "") for pos, v in r.rent_by_deed.items()]
    groups = sr.state.edition.groups
    rows += [("rent_by_group", groups[g].name if g in groups else g, g, v, "") for g, v in r.rent_by_group.items()]
    rows += [("to_bank", p, why, v, "") for p, by in r.to_bank.items() for why, v in by.items()]
    rows += [("salary", p, "", v, "") for p, v in r.salary.items()]
    rows += [("auction", spaces[a.space].name, f"{a.winner or '-'} (printed {a.printed})", a.bid, a.seq)
             for a in r.auctions]
    rows += [("payment", f"{p.payer} -> {p.payee}", p.why, p.amount, p.seq) for p in r.biggest]
    rows += [("bankruptcy", b.player, b.creditor, 0, b.seq) for b in r.bankruptcies]
    return rows


def summary_csv(sr: SessionReview) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(SUMMARY_COLUMNS)
    w.writerows(summary_rows(sr))
    return out.getvalue()


# --------------------------------------------------------------------------- Markdown
def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(sr: SessionReview, tr: Translator, timeline: bool = True) -> str:
    r, state = sr.review, sr.state
    fmt = state.edition.fmt
    spaces = state.edition.spaces
    lines = [f"# {sr.name or 'banker'} · {state.edition.name} · {tr(f'variant.{state.variant.id}')}", ""]
    if state.over:
        winner = state.winner or ", ".join((state.result or {}).get("tied", []))
        lines += [f"**{tr('review.winner')}: {winner}**", ""]
    lines += [f"| {tr('review.player')} | {tr('review.cash')} | {tr('review.net_worth')} "
              f"| {tr('review.rent_received')} | {tr('review.rent_paid')} |",
              "|---|---:|---:|---:|---:|"]
    for p in r.players:
        worth = r.worth[p][-1] if r.worth[p] else state.cash[p]
        status = f" ({tr('review.bankrupt')})" if p in state.bankrupt else ""
        lines.append(f"| {_md(p)}{status} | {fmt(state.cash[p])} | {fmt(worth)} | {fmt(r.rent_received.get(p, 0))} "
                     f"| {fmt(r.rent_paid.get(p, 0))} |")
    lines.append("")
    if r.rent_by_deed:
        lines.append(f"**{tr('review.best_deeds')}:** " + ", ".join(
            f"{_md(spaces[pos].name)} {fmt(v)}" for pos, v in list(r.rent_by_deed.items())[:8]))
        lines.append("")
    if r.to_bank:
        lines.append(f"**{tr('review.to_bank')}:** " + ", ".join(
            f"{_md(p)} {fmt(r.to_bank_total(p))}" for p in r.to_bank))
        lines.append("")
    if r.auctions:
        lines.append(f"**{tr('review.auctions')}:** " + ", ".join(
            f"{_md(spaces[a.space].name)} → {_md(a.winner or '—')} {fmt(a.bid)} ({tr('review.printed')} "
            f"{fmt(a.printed)})" for a in r.auctions))
        lines.append("")
    if r.biggest:
        lines.append(f"**{tr('review.biggest')}:**")
        lines += [f"- #{p.seq} {_md(tr.account(p.payer))} → {_md(tr.account(p.payee))} {fmt(p.amount)} "
                  f"({why_text(tr, p.why)})" for p in r.biggest[:5]]
        lines.append("")
    if r.bankruptcies:
        lines.append(f"**{tr('review.bankruptcies')}:**")
        lines += [f"- #{b.seq} {_md(b.player)} → {_md(tr.account(b.creditor))}" for b in r.bankruptcies]
        lines.append("")
    if timeline:
        lines += [f"## {tr('review.timeline')}", ""]
        for item in r.timeline:
            text = _md(_line(tr, item))
            if item.undone:
                text = f"~~{text}~~ ({tr('review.undone_by')} #{item.undone_by}: {_md(item.undo_reason or '')})"
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
        return {"-timeline.csv": timeline_csv(sr, tr), "-summary.csv": summary_csv(sr)}
    raise ValueError(f"unknown export format {fmt!r}; formats: {', '.join(FORMATS)}")
