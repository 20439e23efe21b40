"""classic events

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25

Classic (head-to-head) divisions of a tournament: seeds (starting numbers), boards with both
scores, byes asked for, and every score entry typed at a station (issue 16;
``duplicate.storage.classic_models``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('classic_divisions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('system', sa.String(length=20), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'name')
    )
    op.create_index('ix_classic_divisions_tournament_id', 'classic_divisions', ['tournament_id'])
    op.create_table('classic_seeds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('division_id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('first_round', sa.Integer(), nullable=False),
    sa.Column('withdrawn_round', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['division_id'], ['classic_divisions.id'], ),
    sa.ForeignKeyConstraint(['entry_id'], ['entries.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('division_id', 'number'),
    sa.UniqueConstraint('division_id', 'entry_id')
    )
    op.create_index('ix_classic_seeds_division_id', 'classic_seeds', ['division_id'])
    op.create_table('classic_boards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('division_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=True),
    sa.Column('first_id', sa.Integer(), nullable=False),
    sa.Column('second_id', sa.Integer(), nullable=True),
    sa.Column('first_score', sa.Integer(), nullable=True),
    sa.Column('second_score', sa.Integer(), nullable=True),
    sa.Column('forfeit', sa.String(length=10), nullable=True),
    sa.Column('method', sa.String(length=20), nullable=False),
    sa.Column('conflict', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['division_id'], ['classic_divisions.id'], ),
    sa.ForeignKeyConstraint(['first_id'], ['classic_seeds.id'], ),
    sa.ForeignKeyConstraint(['second_id'], ['classic_seeds.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('division_id', 'round', 'table')
    )
    op.create_index('ix_classic_boards_division_id', 'classic_boards', ['division_id'])
    op.create_table('classic_absences',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('seed_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=1), nullable=False),
    sa.ForeignKeyConstraint(['seed_id'], ['classic_seeds.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('seed_id', 'round')
    )
    op.create_index('ix_classic_absences_seed_id', 'classic_absences', ['seed_id'])
    op.create_table('classic_score_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('board_id', sa.Integer(), nullable=False),
    sa.Column('first_score', sa.Integer(), nullable=False),
    sa.Column('second_score', sa.Integer(), nullable=False),
    sa.Column('station', sa.String(length=100), nullable=False),
    sa.Column('arbiter', sa.String(length=100), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['board_id'], ['classic_boards.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_classic_score_entries_board_id', 'classic_score_entries', ['board_id'])


def downgrade() -> None:
    for table in ('classic_score_entries', 'classic_absences', 'classic_boards', 'classic_seeds',
                  'classic_divisions'):
        op.drop_table(table)
