"""What a process has loaded from files, kept with the files' bytes (issue 24 §3).

Every command of a tournament asks for its lexicon, and ``Lexicon.load`` reads, unzips,
digests and decodes the 12 MB default each time (about 22 ms of CPU). A process that runs
many (the venue server, the test suite's command-line runs) keeps the last ones: a load of
the same path whose file holds exactly the same bytes — compared byte for byte, not by
size or time — returns what was loaded before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

Loaded = TypeVar("Loaded")

KEPT_MAX_BYTES = 64 * 2**20
"""Files up to this size are read whole, and what was loaded from them kept."""


class KeptFiles(Generic[Loaded]):
    """The last ``size`` things loaded, each with its path and the bytes its file held."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._loaded: OrderedDict[str, tuple[bytes, Loaded]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, path: str, data: bytes) -> Loaded | None:
        """What was loaded from ``path`` when the file held exactly ``data`` (a file changed
        since, even by one byte and within the same second, gives None: load it again)."""
        with self._lock:
            kept = self._loaded.get(path)
            if kept is None or kept[0] != data:
                return None
            self._loaded.move_to_end(path)
            return kept[1]

    def keep(self, path: str, data: bytes, loaded: Loaded) -> None:
        """Keep ``loaded``, read from ``path`` holding ``data`` (the oldest kept is dropped)."""
        with self._lock:
            self._loaded[path] = (data, loaded)
            self._loaded.move_to_end(path)
            while len(self._loaded) > self.size:
                self._loaded.popitem(last=False)
