"""The symbols the app draws, chosen from glyphs every common terminal and browser font
has (issue 25 §3: a browser station through ``duplicada serve`` showed an empty box for
Textual's «⭘» header icon; «⚠» and «★» are missing from many monospaced fonts too).

The safe set is WGL4 (the glyph list of every Windows core font, Roboto Mono, DejaVu Sans
Mono, Menlo…); box drawing and block elements are drawn by the browser terminal itself.
"""

from __future__ import annotations

HEADER_ICON = "≡"
"""The header's icon (Textual's default «⭘», U+2B58, is in few fonts)."""

WARNING_MARK = "‼"
"""Before a warning line (instead of «⚠»)."""

CENTRE_MARK = "*"
"""The centre square of an empty board (instead of «★»)."""

MASTER_MARK = "►"
"""Before the master move in the list of tops (instead of «★»)."""

RADIO_MARKS = ("○", "●")
"""(off, on) marks of a radio button: the state shows without colour."""

CHECK_MARKS = (" ", "x")
"""(off, on) marks of a check box."""
