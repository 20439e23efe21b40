"""The rules of one game (FISE rules): tiles, bag and racks (III.12-III.19), the notation
(III.20), the master move (III.15), slips and their marks (II.8, III.23-III.25), bonuses
(III.24), game and tournament standings and their tie-breaks (III.26-III.28, IV.31), the
announcements and the timer.

Pure values and functions: no storage, no service, no publishing (import-linter layers in
pyproject.toml: the lowest room of ``duplicate``).
"""
