"""elodi versions

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27

The rating history becomes append-only (issue 24 §2): ``elodi_versions`` numbers its
versions, and the rated games and changes move to ``elodi_rated_games`` and
``elodi_rating_changes``, keyed by version, so that a recomputation adds a version and
leaves the older ones readable. A history rated before becomes version 1.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

CHANGE_COLUMNS = ('id', 'rated_game_id', 'player_id', 'phase', 'total', 'position', 'rating_before',
                  'volatility_before', 'games_before', 'target_position', 'actual_position', 'rating_after',
                  'volatility_after', 'games_after', 'cap_bound')


def _changes_table(name: str, games: str) -> None:
    op.create_table(name,
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
    sa.ForeignKeyConstraint(['rated_game_id'], [f'{games}.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('rated_game_id', 'player_id')
    )
    with op.batch_alter_table(name, schema=None) as batch_op:
        batch_op.create_index(batch_op.f(f'ix_{name}_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f(f'ix_{name}_rated_game_id'), ['rated_game_id'], unique=False)


def upgrade() -> None:
    op.create_table('elodi_versions',
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('station', sa.String(length=100), nullable=False),
    sa.Column('arbiter', sa.String(length=100), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('number')
    )
    op.create_table('elodi_rated_games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('published_event_id', sa.Integer(), nullable=True),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('rated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['published_event_id'], ['events.id'], ),
    sa.ForeignKeyConstraint(['version'], ['elodi_versions.number'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('version', 'game_id'),
    sa.UniqueConstraint('version', 'sequence')
    )
    with op.batch_alter_table('elodi_rated_games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_elodi_rated_games_version'), ['version'], unique=False)
    _changes_table('elodi_rating_changes', 'elodi_rated_games')
    connection = op.get_bind()
    first = connection.execute(sa.text('SELECT MIN(rated_at) FROM elodi_games')).scalar()
    if first is not None:
        connection.execute(sa.text("INSERT INTO elodi_versions (number, kind, created_at, station, arbiter) "
                                   "VALUES (1, 'update', :moment, '', '')"), {'moment': first})
        connection.execute(sa.text(
            'INSERT INTO elodi_rated_games (id, version, game_id, sequence, published_event_id, rounds, settings, '
            'rated_at) SELECT id, 1, game_id, sequence, published_event_id, rounds, settings, rated_at '
            'FROM elodi_games'))
        columns = ', '.join(CHANGE_COLUMNS)
        connection.execute(sa.text(f'INSERT INTO elodi_rating_changes ({columns}) SELECT {columns} FROM elodi_changes'))
    with op.batch_alter_table('elodi_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_elodi_changes_rated_game_id'))
        batch_op.drop_index(batch_op.f('ix_elodi_changes_player_id'))
    op.drop_table('elodi_changes')
    op.drop_table('elodi_games')


def downgrade() -> None:
    """Back to one history: the newest version's games and changes are kept."""
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
    _changes_table('elodi_changes', 'elodi_games')
    connection = op.get_bind()
    newest = 'SELECT MAX(number) FROM elodi_versions'
    connection.execute(sa.text(
        'INSERT INTO elodi_games (id, game_id, sequence, published_event_id, rounds, settings, rated_at) '
        f'SELECT id, game_id, sequence, published_event_id, rounds, settings, rated_at FROM elodi_rated_games '
        f'WHERE version = ({newest})'))
    columns = ', '.join(CHANGE_COLUMNS)
    connection.execute(sa.text(f'INSERT INTO elodi_changes ({columns}) SELECT {columns} FROM elodi_rating_changes '
                               'WHERE rated_game_id IN (SELECT id FROM elodi_games)'))
    with op.batch_alter_table('elodi_rating_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_elodi_rating_changes_rated_game_id'))
        batch_op.drop_index(batch_op.f('ix_elodi_rating_changes_player_id'))
    op.drop_table('elodi_rating_changes')
    with op.batch_alter_table('elodi_rated_games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_elodi_rated_games_version'))
    op.drop_table('elodi_rated_games')
    op.drop_table('elodi_versions')
