"""The report layer: a session's review and audit put into words (above the ledger, which gives
them as data; below the table view, the console and the command line, which show them).

- :mod:`banker.report.export`: the Markdown, CSV and JSON exports of a review, and
  :func:`why_text` (a payment's reason in the interface's words);
- :mod:`banker.report.audit`: the audit's findings, a line each.
"""

from __future__ import annotations

from .audit import audit_lines, problem_text
from .export import FORMATS, export, summary_rows, why_text

__all__ = ["FORMATS", "audit_lines", "export", "problem_text", "summary_rows", "why_text"]
