"""Alembic environment for duplicada's tournament database.

Run from ``duplicate.storage.database.open_database`` (which passes its connection in
``config.attributes["connection"]``) or by a maintainer with
``alembic -c duplicate/storage/alembic.ini revision --autogenerate -m "..."``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from duplicate.storage import classic_models as classic_models  # noqa: F401  (classic events, revision 0004)
from duplicate.storage import rating_models as rating_models  # noqa: F401  (the EloDI tables, revision 0002)
from duplicate.storage.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///duplicada.db")
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations()
