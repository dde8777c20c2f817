"""Names of the table in a sentence that a reader's screen lays out by the Unicode bidi algorithm (the players' page,
a Markdown export pasted into a chat): a parameter holding right-to-left writing comes wrapped in Unicode isolates,
so that it is a run of its own and the sentence around it keeps its order.

Found by probes: with players ``דנה`` and ``יוסי``, "Перевод $100: דנה → יוסי" was drawn "יוסי → דנה" (the two
names and the arrow between them made one right-to-left run, the payment going the other way), and in English the
amount went before the payee; on the page first, then in the Markdown export ("#1 דנה → יוסי $100" read
"#1 $100 יוסי → דנה", and "Players: דנה, יוסי, Ann" listed the first two the other way round).
"""

from __future__ import annotations

import unicodedata
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from banker.i18n import visible

if TYPE_CHECKING:  # pragma: no cover
    from banker.i18n import Translator

#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: around a text of the table's, they make it a run of its own
FSI, PDI = "\u2068", "\u2069"
ISOLATES = FSI + PDI
#: the bidi classes that reorder an English, Russian or Ukrainian sentence: right-to-left letters (Hebrew, Arabic)
#: and Arabic-Indic digits
_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})


def isolated(text: str) -> str:
    """``text`` (a player's name, a memo, an undo's reason, a space's name: a parameter of a sentence) as a run of its
    own in a bidi text, when it holds right-to-left writing: wrapped in FSI ... PDI, so each name is drawn in place
    and reads right to left within itself. A text with no right-to-left character is left as it is: in a sentence of
    banker's languages (all left to right) it cannot reorder anything, and the text stays what a test, a search or a
    copy reads. A sentence in a right-to-left language would need every name isolated."""
    if text.isascii() or not any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        return text
    return FSI + text + PDI


def isolated_value(value: Any) -> Any:
    """A logged parameter with each of its texts made visible (a control character of a hand-edited file written
    out, as the sentence's own are) and then :func:`isolated`; a clause (``{"msg": ...}``) and a list likewise."""
    if isinstance(value, str):
        return isolated(visible(value))
    if isinstance(value, list):
        return [isolated_value(v) for v in value]
    if isinstance(value, dict) and isinstance(value.get("msg"), dict):
        return {**value, "msg": isolated_part(value["msg"])}
    return value


def isolated_part(part: Any) -> Any:
    """A logged message (a key and its parameters) with its parameters :func:`isolated_value`."""
    if not isinstance(part, dict) or not isinstance(part.get("params"), dict):
        return part
    return {**part, "params": {k: isolated_value(v) for k, v in part["params"].items()}}


def isolated_entry(tr: Translator, entry: Any) -> str:
    """A log entry's sentence in ``tr``'s language with its parameters :func:`isolated` (its stored text, when its
    description cannot be said, as it is)."""
    parts = getattr(entry, "parts", None)
    if isinstance(parts, list | tuple) and parts:
        entry = SimpleNamespace(parts=[isolated_part(p) for p in parts], text=getattr(entry, "text", ""))
    return tr.entry(entry, keep=ISOLATES)


__all__ = ["FSI", "ISOLATES", "PDI", "isolated", "isolated_entry", "isolated_part", "isolated_value"]
