"""The audit's findings in words (``banker audit``, the review's audit tab): one line each.

The audit itself (banker.ledger.audit) gives data; the sentences are here, in the banker's
language (the catalogs' ``[audit]`` table; English when no translator is given).
"""

from __future__ import annotations

from typing import Any

from banker.i18n import Translator
from banker.ledger.audit import AuditReport, Problem
from banker.ledger.check import effect_said


def _describe(effect: Any, tr: Translator) -> str:
    """An effect as logged, in words: ``pay (from Bob, to Ann, amount 100, for rent)`` (its kind, fields and
    reasons from the catalogs' ``[session.effect]``, ``[session.field]`` and ``[session.why]``)."""
    if effect is None:
        return tr("audit.nothing")
    return tr.session(effect_said(effect))


def first_difference(logged: list[Any], computed: list[Any], tr: Translator | None = None) -> str:
    """Where two lists of effects first differ, and how."""
    tr = tr or Translator("en")
    for i in range(max(len(logged), len(computed))):
        a = logged[i] if i < len(logged) else None
        b = computed[i] if i < len(computed) else None
        if a != b:
            return tr("audit.difference", i=i + 1, logged=_describe(a, tr), computed=_describe(b, tr))
    return tr("audit.differ")  # pragma: no cover


def problem_what(problem: Problem, tr: Translator | None = None) -> str:
    """What is wrong, without the entry's number."""
    tr = tr or Translator("en")
    f, p = problem.finding, problem.params
    kind = problem.kind
    if f is not None:
        if f.kind == "refused":
            refusal = tr.refusal(f.refusal) if f.refusal is not None else ""
            return tr("audit.refused", refusal=refusal)
        if f.kind == "error":
            return tr("audit.error", error=f.error)
        if f.kind == "undoes":
            return tr("audit.undoes", logged=f.logged, computed=f.computed)
        if f.kind == "effects":
            return first_difference(f.logged, f.computed, tr)
        if f.kind == "snapshot":
            return tr("audit.snapshot", error=tr.session(f.error))
        return tr("audit.broken", error=tr.session(f.error))
    if kind == "money":
        return tr("audit.money", delta=f"{p['delta']:+d}")
    if kind == "cash":
        return tr("audit.cash", player=p["player"], cash=p["cash"])
    if kind == "stock":
        return tr("audit.stock", houses=tr("cli.houses", n=p["houses"]), hotels=tr("cli.hotels", n=p["hotels"]))
    if kind in ("houses", "hotels"):
        return tr(f"audit.{kind}", out=p["out"], bank=p["bank"], total=p["total"])
    if kind == "lot":
        return tr("audit.lot_hotel" if p["hotel"] else "audit.lot", space=p["space"], houses=tr("cli.houses", n=p["houses"]))
    if kind == "no-owner":
        return tr("audit.no_owner", space=p["space"])
    if kind == "not-player":
        return tr("audit.not_player", space=p["space"], owner=p["owner"])
    if kind == "damage":
        return tr("audit.damage", text=tr.session(p["text"]), path=p["path"])
    raise ValueError(f"unknown audit problem {kind!r}")  # pragma: no cover


def problem_text(problem: Problem, tr: Translator | None = None) -> str:
    """One problem as one line: ``entry 5: effect 1: the log has ..., the rules give ...``."""
    tr = tr or Translator("en")
    what = problem_what(problem, tr)
    return tr("audit.entry", seq=problem.seq, what=what) if problem.seq is not None else what


def audit_lines(report: AuditReport, tr: Translator | None = None) -> list[str]:
    """The whole report, as ``banker audit`` prints it."""
    tr = tr or Translator("en")
    entries = tr("audit.entries", n=report.entries)
    if report.ok:
        return [tr("audit.ok", path=report.path, entries=entries)]
    head = tr("audit.problems_first" if report.truncated else "audit.problems", path=report.path, n=len(report.problems),
              entries=entries)
    return [head, *(f"  {problem_text(p, tr)}" for p in report.problems)]


__all__ = ["audit_lines", "first_difference", "problem_text", "problem_what"]
