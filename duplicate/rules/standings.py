"""Bonuses, game standings and tournament standings (rules III.23, III.24, III.28, IV.31).

Pure functions over plain values: a game is a sequence of ``RoundResult`` (the
master's score, the best score the program found, every player's points and the
bonuses already awarded); players are opaque hashable keys (ids).

* ``round_bonuses`` awards the bonuses of one round under a ``BonusPolicy`` (III.24);
  ``bonus_warnings`` says, in Spanish, when a policy goes against III.24's advice.
* ``game_standings`` classifies one game (III.23, III.26), optionally breaking ties
  with the three criteria of III.28.
* ``tournament_standings`` classifies a tournament by one of the criteria of IV.31;
  only when asked (``tie_breaks``: "en caso de que exista la necesidad de deshacer los
  empates … debido a que se entreguen premios que no puedan ser compartidos") it breaks
  the ties that remain with III.28 over all its rounds as if one game.

**Tie-breaks decide only what a tie leaves undecided** (III.28 "generalmente no se
utilizan"; IV.31 "en caso de que exista la necesidad"): they order players equal on the
total (a game) or on the criterion (the tournament) and never move a player who is not
tied; without them tied players share the position. A game's III.28 tie-breaks decide
that game's prizes only: the places a tournament averages (IV.31 criterion 1) are the
places by total, shared by tied players, so a game's tie-break data cannot reorder the
tournament's untied players.

**Positions.** Players equal on every criterion in use share a position and the next
position skips (1, 2, 2, 4: "competition ranking"); tied players are listed in the
order of the ``players`` argument.

**III.28 tie-break counts** (``equal_master``, ``sole_top``, ``max_deficit``), per
round of a game:

* *equal master*: the player's points are at least the master's (``score >=
  master_score``; above it only when the judge announced a lower master, III.29);
* *sole top*: the player alone has the best points of the players of the game,
  and they are above 0 (not necessarily the master's score);
* *deficit*: ``max(0, master_score - score)``; ``max_deficit`` is the largest over
  the rounds (0 with no rounds). Smaller is better.

Points here are the round scores of the slips (0 for invalid, late, null or missing
slips, III.23, III.25); bonuses are kept apart and added to ``total`` (III.24).

The code lives in three modules, re-exported here: ``duplicate.rules.bonuses`` (III.24),
``duplicate.rules.game_standings`` (one game, III.23, III.28) and
``duplicate.rules.tournament_standings`` (IV.31).
"""

from __future__ import annotations

from data.rules import AUTOMATIC_BEST_BONUS, AUTOMATIC_MASTER_BONUS
from duplicate.rules.bonuses import BonusMode, BonusPolicy, bonus_warnings, round_bonuses
from duplicate.rules.game_standings import (
    GameStanding,
    RoundResult,
    game_standings,
    partial_standings,
    running_totals,
    tied_on_total,
)
from duplicate.rules.tournament_standings import GameInput, TournamentCriterion, TournamentStanding, tournament_standings

__all__ = [
    "AUTOMATIC_BEST_BONUS",
    "AUTOMATIC_MASTER_BONUS",
    "BonusMode",
    "BonusPolicy",
    "GameInput",
    "GameStanding",
    "RoundResult",
    "TournamentCriterion",
    "TournamentStanding",
    "bonus_warnings",
    "game_standings",
    "partial_standings",
    "round_bonuses",
    "running_totals",
    "tied_on_total",
    "tournament_standings",
]
