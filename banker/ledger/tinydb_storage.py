"""A TinyDB storage that writes the whole database atomically (:func:`banker.ledger.storage.write_durably`).

In a module of its own, so that banker imports TinyDB only where a TinyDB database is used: the session log
reads and writes its files itself (banker.ledger.format), in TinyDB's layout.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from .storage import dumps, write_durably


class AtomicJSONStorage(Storage):
    """A TinyDB storage that writes the whole database atomically (temp + fsync + rename).

    TinyDB's default :class:`~tinydb.storages.JSONStorage` rewrites its file in place,
    so a crash in the middle of a write leaves a torn file. This one never does. It
    keeps no file open between calls.
    """

    def __init__(self, path: str | os.PathLike[str], **_: Any) -> None:
        super().__init__()
        self.path = Path(path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        if not raw.strip():
            return None
        data: dict[str, dict[str, Any]] = json.loads(raw)
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        write_durably(self.path, dumps(data))

    def close(self) -> None:
        pass
