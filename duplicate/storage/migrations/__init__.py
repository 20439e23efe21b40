"""Alembic's environment and revisions for the tournament database (``database.open_database``)."""
