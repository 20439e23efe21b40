"""station credentials

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24

Credentials (scrypt digests of the judge's and the assistants' PINs), the sign-in state
of each tournament (salt, wrong tries, lock) and the role of whoever appended each event
(issue 12 §1). The PINs the old scheme kept in the tournament settings are dropped from
them: they were short and are no longer read; the judge sets new ones.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tournament_access',
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('salt', sa.String(length=64), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('tournament_id')
    )
    op.create_table('credentials',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('digest', sa.String(length=128), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'role', 'name'),
    sa.UniqueConstraint('tournament_id', 'digest')
    )
    with op.batch_alter_table('credentials', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_credentials_tournament_id'), ['tournament_id'], unique=False)
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('role', sa.String(length=20), nullable=False, server_default=''))
    tournaments = sa.table('tournaments', sa.column('id', sa.Integer()), sa.column('settings', sa.JSON()))
    connection = op.get_bind()
    for row in connection.execute(sa.select(tournaments.c.id, tournaments.c.settings)).all():
        settings = dict(row.settings or {})
        if settings.pop('access', None) is not None:
            connection.execute(tournaments.update().where(tournaments.c.id == row.id).values(settings=settings))


def downgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('role')
    with op.batch_alter_table('credentials', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_credentials_tournament_id'))
    op.drop_table('credentials')
    op.drop_table('tournament_access')
