"""Bench: the console's memory over a long evening -- does anything pile up action after action?

A 2,000-action game (``bench/record.py``'s mix) is opened in the console (``App.run_test``) and
the banker records salaries the way the keys do it: ``s``, the player picked in the choice
dialog, Enter on the confirmation -- two dialogs opened and closed per action, the footer
recomposed several times. Every ``--every`` actions: the objects the garbage collector tracks
(the game frozen at the open is not counted, as the collector does not walk it), the time of a
full collection, the process's resident memory, and the footer keys still alive (about ten are
on screen).

``--without-workarounds`` turns off the console's two workarounds for Textual 8.2.8 leaks
(textual#6666: the footer's data-bound keys; textual#6665: removed widgets' style caches held by
an ``lru_cache``), to see whether they are still needed (after a Textual upgrade, for example).

    python bench/ui_memory.py [--actions 300] [--every 50] [--without-workarounds]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import textual  # noqa: E402
from record import PLAYERS  # noqa: E402
from ui import make_session  # noqa: E402

GAME = 2000
SIZE = (120, 36)
#: seconds waited before each measurement, as a banker reads the screen after an action
SETTLE = 1.0
#: full collections timed at each measurement (the median is shown)
COLLECTIONS = 7


def rss_mb() -> float:
    """The process's resident memory (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return 0.0


def without_workarounds() -> None:
    from textual.screen import ModalScreen
    from textual.widgets import Footer

    from banker.ui.screens.dialogs import Dialog
    from banker.ui.widgets.footer import BankFooter

    BankFooter.recompose = Footer.recompose
    Dialog.dismiss = ModalScreen.dismiss


async def run(path: Path, actions: int, every: int) -> list[dict[str, float]]:
    from banker.ui.app import BankerApp
    from banker.ui.screens.dialogs import ChooseScreen, ConfirmScreen
    from banker.ui.screens.table import TableScreen

    app = BankerApp(path, lang="en")
    rows = []

    async def until(condition: Callable[[], bool], what: str) -> None:
        deadline = time.perf_counter() + 10
        while not condition():
            if time.perf_counter() > deadline:
                raise SystemExit(f"bench/ui_memory.py: timed out waiting for {what}")
            await asyncio.sleep(0.001)

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()  # the background check of the log, and its gc.freeze
        await pilot.pause()
        session = app.session
        assert session is not None
        for i in range(actions + 1):
            if i % every == 0:
                await asyncio.sleep(SETTLE)  # the banker reads the screen: what waits for a quiet moment has run
                await pilot.pause()
                gc.collect()
                times = []
                for _ in range(COLLECTIONS):
                    t0 = time.perf_counter()
                    gc.collect()
                    times.append((time.perf_counter() - t0) * 1000)
                full_ms = statistics.median(times)
                objects = gc.get_objects()
                keys = sum(1 for o in objects if type(o).__name__ == "FooterKey")
                rows.append({"actions": i, "objects": len(objects), "gc_ms": full_ms, "rss": rss_mb(), "keys": keys})
                del objects
            if i == actions:
                break
            before = len(session.entries)
            await pilot.press("s")
            await until(lambda: isinstance(app.screen, ChooseScreen), "the choice of player")
            await pilot.press(*PLAYERS[i % len(PLAYERS)].lower(), "enter")
            await until(lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
            await pilot.press("enter")
            await until(lambda n=before: len(session.entries) > n and isinstance(app.screen, TableScreen), "the commit")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--without-workarounds", action="store_true")
    args = parser.parse_args()
    if args.without_workarounds:
        without_workarounds()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="banker-bench-mem-") as tmp:
        path = Path(tmp) / "game.json"
        make_session(path, GAME, 7)
        rows = asyncio.run(run(path, args.actions, args.every))
    label = "WITHOUT the workarounds for textual#6665 and #6666" if args.without_workarounds else "as shipped"
    print(f"## Console memory over {args.actions} actions, {label} ({platform.system()} {platform.machine()}, "
          f"Python {platform.python_version()}, Textual {textual.__version__})")
    print()
    print(f"A {GAME:,}-action game; each action two dialogs (choose the player, confirm), as the `s` key does it.")
    print()
    print(f"| actions | objects the collector tracks | full collection (median of {COLLECTIONS}) ms | RSS MB | footer keys |")
    print("|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['actions']} | {r['objects']:,} | {r['gc_ms']:.1f} | {r['rss']:.1f} | {r['keys']} |")
    first, last = rows[1] if len(rows) > 1 else rows[0], rows[-1]
    span = last["actions"] - first["actions"]
    if span:
        print()
        print(f"From action {first['actions']} to {last['actions']}: "
              f"{(last['objects'] - first['objects']) / span:.1f} tracked objects and "
              f"{(last['rss'] - first['rss']) * 1024 / span:.1f} KB of RSS per action "
              "(the game's own growth, its log entries and moves, is some fifteen objects an action).")
    print()
    print(f"(bench/ui_memory.py ran in {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
