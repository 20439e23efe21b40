"""online venues

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27

One event played in several rooms on one database (issue 27 §2, «sedes en línea»): the
tournament names its venues (``online_venues``), each entry may belong to one
(``entries.venue``) and each credential may be a venue's judge or assistant
(``credentials.venue``), whose rights stop at that venue. Null for every entry and
credential stored before: the organiser's own room and the organiser's stations.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'online_venues',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('tournament_id', sa.Integer(), sa.ForeignKey('tournaments.id'), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('tournament_id', 'name'),
    )
    op.create_index('ix_online_venues_tournament_id', 'online_venues', ['tournament_id'])
    with op.batch_alter_table('entries') as batch:
        batch.add_column(sa.Column('venue', sa.String(length=100), nullable=True))
    with op.batch_alter_table('credentials') as batch:
        batch.add_column(sa.Column('venue', sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('credentials') as batch:
        batch.drop_column('venue')
    with op.batch_alter_table('entries') as batch:
        batch.drop_column('venue')
    op.drop_index('ix_online_venues_tournament_id', 'online_venues')
    op.drop_table('online_venues')
