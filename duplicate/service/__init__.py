"""The tournament service: the only authority over a tournament's record.

Every action that changes the record goes through ``TournamentService`` with the acting
station's credential; the front ends (the Textual app, the command line, the browser
stations) ask and display. See ``docs/architecture.md`` for the modules.
"""
