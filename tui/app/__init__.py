"""The Textual arbitration app (issue 4): judge console, slip entry, projection, standings.

Screens (``tui.app.screens``) and widgets (``tui.app.widgets``) hold no rules: every action
goes through the tournament service, the same one the command line uses.

Frames: Textual draws a screen at most ``TEXTUAL_FPS`` times a second (60 by default,
read once, when Textual is first imported). A change waits for the next frame of that
cadence: at 60 the feedback of a slip waited 17–20 ms after it was set, as long as the
rest of the path from Intro (issue 38, ``bench/tui_entry.py``). The app asks for
``APP_FPS`` unless the environment says otherwise; it takes effect when this package is
imported before Textual (the app's command does), not in a process that imported Textual
first (the tests).
"""

import os

APP_FPS = 120
"""Frames a second the app asks Textual for (``TEXTUAL_FPS``)."""

os.environ.setdefault("TEXTUAL_FPS", str(APP_FPS))
