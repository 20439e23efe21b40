"""slip board notation

Revision ID: 0010
Revises: 0008
Create Date: 2026-11-27

A slip written on a paper board (II.8; III.20.1.c–d) keeps the board form the assistant
typed (``slips.board``, e.g. ``H12 → S``) beside ``text``, the canonical notation the
service derived from it (issue 25 §4). Null for every slip written in canonical notation,
so the slips stored before are unchanged.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('slips') as batch:
        batch.add_column(sa.Column('board', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('slips') as batch:
        batch.drop_column('board')
