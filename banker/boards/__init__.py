"""Edition data files: one TOML file per edition, validated on load.

``load_edition("uk")`` reads ``banker/boards/uk.toml``; a path to a ``.toml`` file
loads a custom board (for example a copy with edited street names). Mistakes in a
file are refused with :class:`banker.rules.errors.BoardError` naming the file, the
space and the problem.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

from banker.rules.edition import Edition, Variant, edition_from_dict, variant_from_dict
from banker.rules.errors import BoardError

EDITIONS = ("classic-us", "uk", "ru", "kyiv")


def _read_toml(path: Path | resources.abc.Traversable, label: str) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{label}: not valid TOML: {exc}") from None
    except FileNotFoundError:
        raise BoardError(f"{label}: no such file") from None


@cache
def load_edition(name: str) -> Edition:
    """The edition called ``name`` (one of :data:`EDITIONS`) or at a ``.toml`` path."""
    if name.endswith(".toml"):
        path = Path(name)
        return edition_from_dict(_read_toml(path, str(path)), source=path.name)
    if name not in EDITIONS:
        raise BoardError(f"unknown edition {name!r}; editions: {', '.join(EDITIONS)}")
    file = resources.files(__package__) / f"{name}.toml"
    return edition_from_dict(_read_toml(file, f"{name}.toml"), source=f"{name}.toml")


@cache
def load_variants() -> dict[str, Variant]:
    file = resources.files(__package__) / "variants.toml"
    data = _read_toml(file, "variants.toml")
    out = {}
    for raw in data.get("variant", []):
        v = variant_from_dict(raw, source="variants.toml")
        out[v.id] = v
    return out


def load_variant(name: str) -> Variant:
    variants = load_variants()
    if name not in variants:
        raise BoardError(f"unknown variant {name!r}; variants: {', '.join(variants)}")
    return variants[name]
