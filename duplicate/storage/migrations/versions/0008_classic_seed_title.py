"""classic seed title

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27

A player's title in a classic division's starting list, the second criterion of the FIDE
initial order after the rating (C.04.2 B.2; issue 25 §5).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('classic_seeds') as batch:
        batch.add_column(sa.Column('title', sa.String(length=3), nullable=False, server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('classic_seeds') as batch:
        batch.drop_column('title')
