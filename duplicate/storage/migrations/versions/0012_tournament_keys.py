"""tournament signing keys

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02

Signed venue records (issue 35 §2): each tournament's Ed25519 key pair, the private key
sealed with the judge's PIN (``tournament_keys``; a secret, not projected from the log, never
in a record). A tournament stored before has no row: its key is made when the judge first
asks for it (``duplicada tournament key``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'tournament_keys',
        sa.Column('tournament_id', sa.Integer(), sa.ForeignKey('tournaments.id'), primary_key=True),
        sa.Column('public_key', sa.String(length=64), nullable=False),
        sa.Column('sealed', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('tournament_keys')
