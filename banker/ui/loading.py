"""The console's modules load with the cyclic garbage collector paused (issue #14).

Loading Textual, rich and banker's own modules makes some hundred thousand objects that live as long as the
process; the collector's passes while they load (about 80 young-generation and 7 middle ones) walk them for
nothing, some 12 ms of the console's start. :mod:`banker.ui.app` imports this module before anything else
(the collector is paused then) and calls :func:`done` once its own imports are over: what was loaded is
moved out of the collector's way (``gc.freeze``, as the console does again after its first frame) and the
collector is on again if it was on. Nothing else imports this module.
"""

from __future__ import annotations

import gc

#: whether the collector was on when the console's modules started loading (it is on again after them)
_was_enabled = gc.isenabled()
gc.disable()


def done() -> None:
    """The console's modules are loaded: freeze what they made, and the collector back as it was."""
    global _was_enabled
    gc.freeze()
    if _was_enabled:
        _was_enabled = False
        gc.enable()
