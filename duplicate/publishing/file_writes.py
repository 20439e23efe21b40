"""Writing a published file so that a reader never sees half of it and an unchanged file
is left alone: ``write_atomically`` (a temporary file beside the target, then
``os.replace``) and ``holds`` (whether a file already has this content). Used by the
static mirror of the live pages (``duplicate.publishing.live_pages.write_mirror``) and by
the publication (``duplicate.publishing.site.publish_results``): a file whose content is
already the new one keeps its modification time, so rsync or a web cache sends only what
changed (issue 37 «static mirror», issue 38 «a publication that rewrites only what changed»).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["TEMPORARY_PREFIX", "holds", "write_atomically", "write_if_changed"]

TEMPORARY_PREFIX = ".directo-"
"""Name prefix of the temporary files (never a published name; the mirror's manifest
refuses names with it)."""


def write_atomically(target: Path, data: bytes) -> None:
    """Write ``data`` into ``target`` through a temporary file beside it and ``os.replace``
    (``OSError``; no temporary file left behind)."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=TEMPORARY_PREFIX, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def holds(target: Path, data: bytes) -> bool:
    """Whether ``target`` is a regular file whose content is ``data`` (False when unreadable)."""
    try:
        status = target.lstat()
        if not stat.S_ISREG(status.st_mode) or status.st_size != len(data):
            return False
        return target.read_bytes() == data
    except OSError:
        return False


def write_if_changed(target: Path, data: bytes) -> bool:
    """``write_atomically`` unless ``target`` already ``holds`` ``data``; whether it wrote."""
    if holds(target, data):
        return False
    write_atomically(target, data)
    return True
