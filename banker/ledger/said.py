"""A sentence of the session log as data: :class:`Said`, the English ``str`` with a key of the catalogs'
``[session]`` table and its parameters (a module of its own, below every other of the session log, so that
``storage`` and ``snapshot`` say their sentences the same way as ``format`` and ``check``)."""

from __future__ import annotations


class Said(str):
    """A sentence of the session log as a key of the catalogs' ``[session]`` table and its parameters, for the
    command line and the console to say in the banker's language (the ledger holds no words of its own but the
    English of its messages, for logs and tests). It is that English ``str``; a parameter may be a :class:`Said`
    too (a clause), a list of them (said one after the other, with commas), or an engine refusal or message."""

    key: str
    params: dict[str, object]

    def __new__(cls, text: str, key: str, /, **params: object) -> Said:
        said = super().__new__(cls, text)
        said.key = key
        said.params = params
        return said

    @property
    def text(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Said({self.key!r}, {self.params!r})"


def clip(text: str, n: int = 80) -> str:
    """``text`` on one line (its whitespace runs made one space), cut to ``n`` characters with "…"."""
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1] + "…"


__all__ = ["Said", "clip"]
