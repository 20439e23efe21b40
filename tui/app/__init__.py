"""The Textual arbitration app (issue 4): judge console, slip entry, projection, standings.

Screens (``tui.app.screens``) and widgets (``tui.app.widgets``) hold no rules: every action
goes through the tournament service, the same one the command line uses.
"""
