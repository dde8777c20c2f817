"""The audit's findings in words (``banker audit``, the review's audit tab): one line each.

The audit itself (banker.ledger.audit) gives data; the sentences are here. They are English,
as the rest of the command line's output.
"""

from __future__ import annotations

from typing import Any

from banker.ledger.audit import AuditReport, Problem


def _describe(effect: Any) -> str:
    if effect is None:
        return "nothing"
    if not isinstance(effect, dict):
        return str(effect)
    return "{" + ", ".join(f"{k}: {v}" for k, v in effect.items()) + "}"


def first_difference(logged: list[Any], computed: list[Any]) -> str:
    """Where two lists of effects first differ, and how."""
    for i in range(max(len(logged), len(computed))):
        a = logged[i] if i < len(logged) else None
        b = computed[i] if i < len(computed) else None
        if a != b:
            return f"effect {i + 1}: the log has {_describe(a)}, the rules give {_describe(b)}"
    return "the effects differ"  # pragma: no cover


def problem_what(problem: Problem) -> str:
    """What is wrong, without the entry's number."""
    f, p = problem.finding, problem.params
    kind = problem.kind
    if f is not None:
        if f.kind == "refused":
            return f"the rules refuse it ({f.refusal})"
        if f.kind == "error":
            return f"the command cannot be run ({f.error})"
        if f.kind == "undoes":
            return f"it says it undoes entry {f.logged}, the rules undo entry {f.computed}"
        if f.kind == "effects":
            return first_difference(f.logged, f.computed)
        if f.kind == "snapshot":
            return (f"the checkpoint's snapshot, which the session opens from, is wrong: {f.error} "
                    "(`banker repair` makes it anew from the entries)")
        return f"its effects cannot be applied ({f.error}); the audit stops here"
    if kind == "money":
        return f"money is not conserved: {p['delta']:+d} appeared in play"
    if kind == "cash":
        return f"{p['player']}'s cash is {p['cash']}"
    if kind == "stock":
        return f"the bank's stock went below zero ({p['houses']} houses, {p['hotels']} hotels)"
    if kind in ("houses", "hotels"):
        return f"{kind} are not conserved: {p['out']} on the board + {p['bank']} in the bank ≠ {p['total']}"
    if kind == "lot":
        return f"{p['space']} holds {p['houses']} houses{' and a hotel' if p['hotel'] else ''}"
    if kind == "no-owner":
        return f"{p['space']} has buildings but no owner"
    if kind == "not-player":
        return f"{p['space']} is owned by {p['owner']}, who is not a player"
    if kind == "damage":
        return f"{p['text']} (`banker repair {p['path']}` resolves it)"
    raise ValueError(f"unknown audit problem {kind!r}")  # pragma: no cover


def problem_text(problem: Problem) -> str:
    """One problem as one line: ``entry 5: effect 1: the log has ..., the rules give ...``."""
    what = problem_what(problem)
    return f"entry {problem.seq}: {what}" if problem.seq is not None else what


def audit_lines(report: AuditReport) -> list[str]:
    """The whole report, as ``banker audit`` prints it."""
    if report.ok:
        return [f"{report.path}: {report.entries} entries, all consistent: every entry is what the rules give, "
                "money and buildings are conserved"]
    more = " (the first ones)" if report.truncated else ""
    return [f"{report.path}: {len(report.problems)} problems{more} in {report.entries} entries:",
            *(f"  {problem_text(p)}" for p in report.problems)]


__all__ = ["audit_lines", "first_difference", "problem_text", "problem_what"]
