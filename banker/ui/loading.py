"""banker's modules load with the cyclic garbage collector paused (issue #14).

Loading Textual, rich and banker's own modules makes some hundred thousand objects that live as long as the
process; the collector's passes while they load (about 80 young-generation and 7 middle ones for the console,
some 26 more for the command line's own modules) walk them for nothing, some 12-15 ms of the console's start.
Importing this module pauses the collector; :func:`done` is called once the modules are loaded: what was
loaded is moved out of the collector's way (``gc.freeze``, as the console does again after its first frame)
and the collector is on again if it was on. :func:`pause` pauses it again for a second batch (the ``banker``
command: its own modules, then the console's when it opens one).

Imported first by :mod:`banker.cli` (which calls :func:`done` after its imports, and :func:`pause` before it
loads the console) and by :mod:`banker.ui.app` (which calls :func:`done` after its own imports).
"""

from __future__ import annotations

import gc

#: whether a batch of modules is loading (the collector paused by :func:`pause`), and whether the collector
#: was on when it started (it is on again after them)
_paused = False
_was_enabled = False


def pause() -> None:
    """Modules are about to load: the collector paused until :func:`done` (a no-op while already paused)."""
    global _paused, _was_enabled
    if not _paused:
        _paused, _was_enabled = True, gc.isenabled()
        gc.disable()


def done() -> None:
    """The modules are loaded: freeze what they made, and the collector back as it was (a no-op unless paused:
    the modules were loaded already)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        if _was_enabled:
            gc.enable()


pause()
