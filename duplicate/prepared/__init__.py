"""Prepared games (III.15, last paragraph: «duplicada maestra, partidas duplicadas
preparadas con anticipación»): a game whose racks and masters are fixed in advance, so
that it can be played in several rooms alike and the slips checked at the end.

A prepared game file is JSON (``docs/prepared-games.md``, format ``duplicada-prepared-1``):
the lexicon's hash, the bag's seed, the agreed rounds and, per round, the rack as drawn
(leftover then new tiles, III.17, with its III.19 redraws), whether the bag drew it from
the seed (``drawn``) or it was set as a judge's rack (a game taken from a record), the
master in canonical notation, its score, place among the equal tops (III.15) and the
cumulative score; sealed by ``digest``, the SHA-256 of the canonical form of everything
else (``canonical_bytes``).

Everything rule-bound is done by the engine (``duplicate.rules.game.Game``): ``apply_rack`` and
``apply_master`` play one prepared round on an engine — the checker (``check_prepared``),
the generator (``generate``) and the tournament service use them alike, so the three agree.

The modules (import each name from its own):

* ``file`` — the format: ``PreparedGame`` / ``PreparedRound``, the file as frozen values;
  ``to_dict``, ``to_json``, ``from_dict``, ``from_json`` (``PreparedFileError``),
  ``load_prepared(path)``, ``canonical_bytes``, ``content_digest``.
* ``rounds`` — one prepared round on the engine: ``apply_rack``, ``apply_master``
  (``PreparedMismatch``).
* ``generation`` — ``generate(lexicon, seed, rounds)`` and ``generate_filtered(...)``
  (quality filters: minimum total, rounds range, bingos; other seeds drawn until met,
  bounded attempts, ``FiltersNotMet``); ``from_record(record, game_number, lexicon)`` — a
  game already played, from a tournament record (``docs/tournament-record.md``).
* ``check`` — ``check_prepared(data, lexicon)``, the independent check (``duplicada
  prepared check``): a list of ``PreparedProblem``, empty when the file is sound;
  ``played_differences(prepared, game)`` — where a game of a tournament record did not
  play the prepared game (its digest, seed, racks and masters).
* ``eliot_xml`` — a game saved by Eliot (XML) read as a prepared game.
"""
