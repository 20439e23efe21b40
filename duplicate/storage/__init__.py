"""The one owner of storage: every table, the database opening and the schema migrations.

``models``: the tournament's tables (players, rounds, slips, stations, the event log);
``rating_models``: the EloDI ratings and their history (rules V); ``classic_models``: the
classic (head-to-head) events; ``database``: opening a database (SQLite or any SQLAlchemy
URL) and migrating it; ``migrations``: the Alembic environment and revisions.

Below the services: ``duplicate.service``, ``ranking`` and ``ranking.classic`` import it;
it imports none of them, nor any front end (import-linter contracts in ``pyproject.toml``).
The rating and classic tables live here though their services are in ``ranking``: they are
only tables, and one metadata and one migration history hold them all.
"""
