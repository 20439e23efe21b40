"""event chain

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27

Each event keeps the hash of the tournament's event before it (issue 26 §2;
``duplicate.record.chain``): the column ``events.previous_hash``, filled here for the events
already stored, tournament by tournament in id order (``duplicate.storage.event_chain``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from duplicate.storage.event_chain import extend_chain

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.add_column(sa.Column('previous_hash', sa.String(length=64), nullable=True))
    connection = op.get_bind()
    for (tournament_id,) in connection.execute(sa.text("SELECT id FROM tournaments ORDER BY id")).all():
        extend_chain(connection, tournament_id)


def downgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.drop_column('previous_hash')
