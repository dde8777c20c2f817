"""banker's own data files (the editions' and the catalogs' TOML) kept parsed between runs.

Parsing them is most of what the console's start spends on its data (some 4 ms of TOML for the catalog
and the edition, issue #14); their parsed form is kept in the user's cache folder (``$XDG_CACHE_HOME/banker``
or ``~/.cache/banker``; ``~/Library/Caches/banker`` on macOS, ``%LOCALAPPDATA%\\banker`` on Windows;
``BANKER_CACHE_DIR`` names another, and set empty turns the cache off) as JSON, read back while the file is
unchanged: the same path, size and modification time, and the same cache format. A cache that cannot be
read, written or trusted is simply not used: the file is parsed, as without a cache. Only banker's own files
are cached, never a board file the user names. The parsed data is the file's validation input, so what is
read back is validated as before (``banker.rules.edition``), not trusted as is.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

#: bumped when what is stored changes (2: the interface catalogs kept with their keys written out whole)
FORMAT = 2


def cache_dir(environ: dict[str, str] | None = None) -> Path | None:
    """Where parsed data files are kept (None: nowhere, the cache is off)."""
    env = os.environ if environ is None else environ
    if "BANKER_CACHE_DIR" in env:
        return Path(env["BANKER_CACHE_DIR"]) if env["BANKER_CACHE_DIR"] else None
    if sys.platform == "win32":
        base = env.get("LOCALAPPDATA")
        return Path(base) / "banker" if base else None
    home = env.get("HOME")
    if sys.platform == "darwin":
        return Path(home) / "Library" / "Caches" / "banker" if home else None
    base = env.get("XDG_CACHE_HOME") or (str(Path(home) / ".cache") if home else "")
    return Path(base) / "banker" if base and os.path.isabs(base) else None


def parsed(path: Any, parse: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``parse()`` (the data of the file at ``path``), or what it gave last time while the file is unchanged."""
    folder = cache_dir()
    if folder is None or not isinstance(path, Path):
        return parse()
    try:
        st = os.stat(path)
    except OSError:
        return parse()
    key = f"{FORMAT}|{sys.version_info[0]}.{sys.version_info[1]}|{path}|{st.st_size}|{st.st_mtime_ns}"
    file = folder / f"{path.stem}-{zlib.crc32(key.encode('utf-8', 'surrogateescape')):08x}.json"
    try:
        stored = msgspec.json.decode(file.read_bytes())
        if isinstance(stored, dict) and stored.get("key") == key and isinstance(stored.get("data"), dict):
            return stored["data"]
    except (OSError, msgspec.DecodeError):
        pass
    data = parse()
    _keep(folder, file, key, data)
    return data


def _keep(folder: Path, file: Path, key: str, data: dict[str, Any]) -> None:
    """Write the cache file (whole or not at all: a temp file renamed); data JSON cannot hold exactly (a TOML
    date) is not kept."""
    temp = folder / f".{file.name}.{os.getpid()}.tmp"
    try:
        blob = msgspec.json.encode({"key": key, "data": data})
        if msgspec.json.decode(blob)["data"] != data:
            return
        folder.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(blob)
        os.replace(temp, file)
    except (OSError, TypeError, ValueError, msgspec.EncodeError):
        try:
            temp.unlink()
        except OSError:
            pass
