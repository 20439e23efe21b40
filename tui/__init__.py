"""The Textual application (issue 4): judge console, slip entry, projection, standings.

Widgets hold no rules: every action goes through ``duplicate.tournament.TournamentService``,
the same service the command line uses. The core packages never import this one.
"""
