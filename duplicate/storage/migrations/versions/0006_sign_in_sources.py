"""sign-in sources

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27

Wrong PINs count against where they come from and against the tournament as a whole
(issue 26 §1, ``duplicate.service.lockout``): ``sign_in_sources`` keeps each source's
wrong tries and lock; the tournament-wide count in a row and lock of ``tournament_access``
(which any success cleared, and which locked the judge out too) give way to a leaking
level of wrong tries and the moment before which an unvouched station is paced.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('sign_in_sources',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('source', sa.String(length=200), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('last_failure_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('judge_vouched', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('tournament_id', 'source')
    )
    with op.batch_alter_table('tournament_access') as batch:
        batch.add_column(sa.Column('guess_level', sa.Float(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('guess_level_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('paced_until', sa.DateTime(timezone=True), nullable=True))
        batch.drop_column('failures')
        batch.drop_column('locked_until')


def downgrade() -> None:
    with op.batch_alter_table('tournament_access') as batch:
        batch.add_column(sa.Column('failures', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True))
        batch.drop_column('paced_until')
        batch.drop_column('guess_level_at')
        batch.drop_column('guess_level')
    op.drop_table('sign_in_sources')
