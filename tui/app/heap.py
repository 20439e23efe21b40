"""The app's one memory-management step: keep the garbage collector's full passes short.

The lexicon, its graphs and the imported modules are millions of
objects that live as long as the app. Python's full collection walks them all: a pause
of about 100 ms now and then in the middle of slip entry (measured by
``bench/tui_entry.py``: p99 feedback 105–150 ms, against 20 ms at p50). Once they are
loaded, ``freeze_heap`` moves them out of the collector's reach (``gc.freeze``); later
passes walk only what the app creates afterwards.
"""

from __future__ import annotations

import gc
import threading

_frozen = threading.Event()


def freeze_heap() -> None:
    """Collect once, then exempt every object alive now from later collections. Call it
    after the lexicon and the move generator are loaded (the screens' warm-up). Once per
    process: what a later call would freeze (screens since closed) is better collected."""
    if _frozen.is_set():
        return
    _frozen.set()
    gc.collect()
    gc.freeze()
