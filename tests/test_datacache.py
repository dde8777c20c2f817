"""banker's data files kept parsed between runs (banker.datacache, issue #14): read back only while the file
is unchanged, never trusted when damaged, and never a reason to fail."""

from __future__ import annotations

import datetime
import os
import tomllib
from pathlib import Path

import pytest

from banker import boards, datacache, i18n


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("BANKER_CACHE_DIR", str(folder))
    return folder


def counting(path: Path) -> tuple[list[int], object]:
    calls: list[int] = []

    def parse() -> dict:
        calls.append(1)
        return tomllib.loads(path.read_text(encoding="utf-8"))

    return calls, parse


def test_parsed_once_then_read_back_while_the_file_is_unchanged(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "data.toml"
    path.write_text('title = "Ann"\n[money]\nstart = 1500\nbig = 12345678901234567890123\nlist = [1.5, true, "б"]\n')
    calls, parse = counting(path)
    first = datacache.parsed(path, parse)
    again = datacache.parsed(path, parse)
    assert first == again == tomllib.loads(path.read_text(encoding="utf-8")) and len(calls) == 1
    assert len(list(cache.iterdir())) == 1
    path.write_text('title = "Bob"\n')  # changed: another size (and time)
    os.utime(path, ns=(1, 1))
    assert datacache.parsed(path, parse) == {"title": "Bob"} and len(calls) == 2


def test_a_damaged_or_foreign_cache_file_is_not_used(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "data.toml"
    path.write_text("n = 1\n")
    calls, parse = counting(path)
    datacache.parsed(path, parse)
    (file,) = cache.iterdir()
    for junk in (b"{not json", b'{"key": "another file", "data": {"n": 2}}', b"[1, 2]", b'{"key": 1}'):
        file.write_bytes(junk)
        assert datacache.parsed(path, parse) == {"n": 1}
    assert len(calls) == 5
    assert datacache.parsed(path, parse) == {"n": 1} and len(calls) == 5  # written anew, read back


def test_no_cache_when_it_cannot_be_written_or_is_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "data.toml"
    path.write_text("n = 1\n")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("BANKER_CACHE_DIR", str(blocker / "cache"))
    calls, parse = counting(path)
    assert datacache.parsed(path, parse) == datacache.parsed(path, parse) == {"n": 1} and len(calls) == 2
    monkeypatch.setenv("BANKER_CACHE_DIR", "")
    assert datacache.cache_dir() is None
    assert datacache.parsed(path, parse) == {"n": 1} and len(calls) == 3


def test_data_json_cannot_hold_is_not_kept(tmp_path: Path, cache: Path) -> None:
    """A TOML date would come back as a string: such data is parsed every time instead."""
    path = tmp_path / "data.toml"
    path.write_text("day = 2024-05-01\n")
    calls, parse = counting(path)
    assert datacache.parsed(path, parse) == {"day": datetime.date(2024, 5, 1)}
    assert datacache.parsed(path, parse) == {"day": datetime.date(2024, 5, 1)} and len(calls) == 2
    assert not cache.exists() or not list(cache.glob("*.json"))


def test_the_cache_folder_by_platform_conventions() -> None:
    if os.name == "posix" and not os.uname().sysname == "Darwin":
        assert datacache.cache_dir({"HOME": "/home/ann"}) == Path("/home/ann/.cache/banker")
        assert datacache.cache_dir({"HOME": "/home/ann", "XDG_CACHE_HOME": "/var/c"}) == Path("/var/c/banker")
        assert datacache.cache_dir({"XDG_CACHE_HOME": "relative"}) is None
    assert datacache.cache_dir({"BANKER_CACHE_DIR": "/x"}) == Path("/x")


@pytest.mark.parametrize("edition", boards.EDITIONS)
def test_editions_and_catalogs_read_back_are_what_the_files_say(edition: str, cache: Path) -> None:
    """Banker's own files through the cache (first written, then read back): the same editions, variants
    and catalogs as parsed from the files."""
    fresh = boards.edition_from_dict(tomllib.loads((Path(boards.__file__).parent / f"{edition}.toml").read_text(
        encoding="utf-8")), source=f"{edition}.toml")
    for _ in range(2):
        boards.load_edition.cache_clear()
        boards.load_variants.cache_clear()
        i18n.catalog.cache_clear()
        assert boards.load_edition(edition) == fresh
        assert boards.load_variants() == boards.variants_from_dict(tomllib.loads(
            (Path(boards.__file__).parent / "variants.toml").read_text(encoding="utf-8")), source="variants.toml")
        for lang in i18n.LANGS:
            ui = tomllib.loads((Path(i18n.__file__).parent / f"{lang}.toml").read_text(encoding="utf-8"))
            assert i18n.catalog(lang)["ui"] == i18n._flatten(ui)
    assert {p.name.split("-")[0] for p in cache.glob("*.json")} >= {edition.split("-")[0], "variants", "en", "ru", "uk"}
    boards.load_edition.cache_clear()
    boards.load_variants.cache_clear()
    i18n.catalog.cache_clear()
