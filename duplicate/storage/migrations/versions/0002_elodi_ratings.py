"""elodi ratings

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('elodi_ratings',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('volatility', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('last_game_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['last_game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('player_id')
    )
    op.create_table('elodi_games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('published_event_id', sa.Integer(), nullable=True),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('rated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['published_event_id'], ['events.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id'),
    sa.UniqueConstraint('sequence')
    )
    op.create_table('elodi_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('rated_game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=20), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('position', sa.Float(), nullable=False),
    sa.Column('rating_before', sa.Integer(), nullable=True),
    sa.Column('volatility_before', sa.Integer(), nullable=True),
    sa.Column('games_before', sa.Integer(), nullable=False),
    sa.Column('target_position', sa.Float(), nullable=True),
    sa.Column('actual_position', sa.Float(), nullable=True),
    sa.Column('rating_after', sa.Integer(), nullable=False),
    sa.Column('volatility_after', sa.Integer(), nullable=False),
    sa.Column('games_after', sa.Integer(), nullable=False),
    sa.Column('cap_bound', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.ForeignKeyConstraint(['rated_game_id'], ['elodi_games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('rated_game_id', 'player_id')
    )
    with op.batch_alter_table('elodi_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_elodi_changes_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_elodi_changes_rated_game_id'), ['rated_game_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('elodi_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_elodi_changes_rated_game_id'))
        batch_op.drop_index(batch_op.f('ix_elodi_changes_player_id'))

    op.drop_table('elodi_changes')
    op.drop_table('elodi_games')
    op.drop_table('elodi_ratings')
