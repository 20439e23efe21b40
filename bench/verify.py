"""Benchmark of the tournament-record checker (``duplicate.record.verify``) on a large record.

Synthesises a ``duplicada-tournament-1`` record on the default lexicon: ``--games``
games of up to ``--rounds`` rounds played with ``duplicate.rules.game.Game``, ``--players``
players (a few absent from each game), and per round one slip per seated player:
top moves (sometimes typed in lowercase coordinates, with spaces or in oriented
notation), random legal non-top moves (``generate(...).all()``), erroneous texts
(syntax, swapped coordinate, invalid word, tiles not in the rack, unmarked blank) and
some late / null / missing slips; one round is annulled (III.29). Every stored value
(statuses, scores, bonuses, game and tournament standings) is computed with the
checker's own reference functions, so the record is consistent. Then it times
``load_record`` + ``verify_record`` on the written file and reports the figures and the
number of differences (0 expected).

Usage: ``python bench/verify.py [--players 300] [--games 10] [--rounds 20] [--seed 1]
[--json OUT]``. Target: verify ≤ 60 s for 300 players × 10 games × 20 rounds on a
2-core machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.record.reading import RECORD_FORMAT, load_record
from duplicate.record.slips import RoundJudge
from duplicate.record.standings import GameStanding, RoundResult, game_standings, round_bonuses, tournament_standings
from duplicate.record.verify import verify_record
from duplicate.rules.game import Game
from duplicate.rules.notation import format_move, parse_move
from lexicon.alphabet import BLANK_FLAG
from lexicon.board import Board
from lexicon.default import default_lexicon_path
from lexicon.lexicon import Lexicon
from lexicon.move import Move, placed_tiles
from lexicon.movegen import generate

SETTINGS: dict[str, Any] = {"bonus_mode": "automatic", "bonus_value": 10, "criterion": "average_percentage",
            "tie_breaks": True, "oriented_notation": True}
ABSENT_PER_GAME = 5
ANNULLED = (3, 7)
"""(game, round) marked annulled (III.29)."""


def slip_text(rng: random.Random, board: Board, tops: list[Move], others: list[Move], lexicon: Lexicon) -> str:
    """What one player writes this round."""
    alphabet = lexicon.alphabet
    draw = rng.random()
    if draw < 0.35 or not others:
        move = rng.choice(tops)
        text = format_move(move, alphabet)
        style = rng.random()
        if style < 0.2:
            return text[0].lower() + text[1:]
        if style < 0.3:
            return text.replace("-", " ")
        if style < 0.4:
            return format_move(move, alphabet, oriented=True)
        return text
    if draw < 0.80:
        return format_move(rng.choice(others), alphabet)
    move = rng.choice(tops + others)
    text = format_move(move, alphabet)
    kind = rng.randrange(5)
    if kind == 0:
        return rng.choice(["", "???", text.split("-")[1], "H-CASA", "16A-CASA"])
    if kind == 1:  # swapped coordinate: same square, other direction
        return format_move(Move(move.row, move.col, move.direction.other, move.word), alphabet)
    if kind == 2:  # two letters swapped: usually an invalid word
        word = list(move.word)
        first, second = rng.sample(range(len(word)), 2)
        word[first], word[second] = word[second], word[first]
        return format_move(Move(move.row, move.col, move.direction, tuple(word)), alphabet)
    if kind == 3:  # tiles the rack does not hold
        word = [alphabet.code("Z") if board.tiles[r][c] is None else tile
                for (r, c), tile in zip(move.squares(), move.word)]
        return format_move(Move(move.row, move.col, move.direction, tuple(word)), alphabet)
    blanked = [m for m in tops + others if m.uses_blank]  # the blank left unmarked
    if blanked:
        move = rng.choice(blanked)
        return format_move(Move(move.row, move.col, move.direction,
                                tuple(tile & ~BLANK_FLAG for tile in move.word)), alphabet)
    return text


def make_game(lexicon: Lexicon, number: int, seed: int, rounds: int, players: list[int], absent: set[int],
              rng: random.Random) -> tuple[dict[str, Any], list[RoundResult], dict[int, GameStanding]]:
    alphabet = lexicon.alphabet
    seated = {player: player for player in players if player not in absent}
    game = Game(lexicon, seed=seed, rounds=rounds)
    entries, results = [], []
    while (pending := game.draw()) is not None and pending.ranked:
        board = game.board.copy()
        moves = generate(board, list(pending.rack.tiles), lexicon)
        tops = [ranked.move for ranked in pending.ranked]
        best = moves.best_score
        others = [scored.move for scored in moves.all() if scored.score < best][:400]
        played = game.play()
        annulled = (number, played.number) == ANNULLED
        master = parse_move(played.master, alphabet, oriented=False)
        judge = RoundJudge(board, pending.rack.tiles, lexicon, oriented=True, master=master, annulled=annulled)
        slips, scores = [], {}
        for player, table in seated.items():
            text: str | None = slip_text(rng, board, tops, others, lexicon)
            late = rng.random()
            if late < 0.03:
                status, score, move = rng.choice(["late", "null", "missing"]), 0, None
                text = None if status == "missing" else text
            else:
                verdict = judge.judge(text or "")
                status, score, move = verdict.status, verdict.score, verdict.move
            scores[player] = score
            slips.append({"player": player, "table": table, "text": text, "status": status, "score": score,
                          "move": move, "reason": "", "entered_by": f"aux{1 + table // 30}",
                          "entered_at": "2026-11-21T10:00:00+00:00"})
        bonuses = round_bonuses(scores, best, SETTINGS["bonus_mode"], SETTINGS["bonus_value"])
        results.append(RoundResult(played.score, best, scores, bonuses))
        entries.append({
            "number": played.number, "rack": played.rack, "board_before": board.to_cgp(), "top_score": best,
            "top_moves": sorted(format_move(move, alphabet) for move in tops), "master": played.master,
            "master_score": played.score, "cumulative": played.cumulative, "annulled": annulled, "slips": slips,
            "bonuses": {str(player): points for player, points in bonuses.items()},
        })
        assert placed_tiles(board, master)
    standings = game_standings(results, seated, SETTINGS["tie_breaks"])
    record = {
        "number": number, "planned_rounds": rounds, "seconds_per_round": 180, "seed": seed, "status": "final",
        "end_reason": game.end_reason.text if game.end_reason else None,
        "tables": {str(player): table for player, table in seated.items()}, "rounds": entries,
        "standings": [{"player": player, "position": line.position, "total": line.total, "bonus": line.bonus,
                       "percentage": line.percentage} for player, line in standings.items()],
    }
    return record, results, standings


def make_record(lexicon: Lexicon, players: int, games: int, rounds: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    game_records, computed = [], []
    for number in range(1, games + 1):
        absent = set(rng.sample(ids, min(ABSENT_PER_GAME, players - 1)))
        record, results, standings = make_game(lexicon, number, seed * 1000 + number, rounds, ids, absent, rng)
        game_records.append(record)
        computed.append((results, standings))
        print(f"  partida {number}: {len(results)} rondas", file=sys.stderr)
    overall = tournament_standings(computed, SETTINGS["criterion"], SETTINGS["tie_breaks"])
    return {
        "format": RECORD_FORMAT, "exported_at": "2026-11-21T18:00:00+00:00",
        "tournament": {"name": "Torneo sintético", "venue": "bench", "start_date": "2026-11-21",
                       "end_date": None, "lexicon_hash": lexicon.content_hash, "settings": SETTINGS},
        "players": [{"id": player, "name": f"Jugador {player}", "club": "", "country": "ES",
                     "federation_id": None, "status": "active"} for player in ids],
        "games": game_records,
        "standings": [{"player": player, "position": line.position, "value": line.value, "total": line.total}
                      for player, line in overall.items()],
        "events": [],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="keep the synthesised record in this file")
    args = parser.parse_args()
    lexicon = Lexicon.load(default_lexicon_path(lambda message: print(message, file=sys.stderr)))
    started = time.perf_counter()
    record = make_record(lexicon, args.players, args.games, args.rounds, args.seed)
    built = time.perf_counter() - started
    path = args.json or Path(tempfile.mkdtemp()) / "torneo.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    rounds = sum(len(game["rounds"]) for game in record["games"])
    slips = sum(len(round_["slips"]) for game in record["games"] for round_ in game["rounds"])
    statuses: dict[str, int] = {}
    for game in record["games"]:
        for round_ in game["rounds"]:
            for slip in round_["slips"]:
                statuses[slip["status"]] = statuses.get(slip["status"], 0) + 1

    started = time.perf_counter()
    loaded = load_record(path)
    loading = time.perf_counter() - started
    started = time.perf_counter()
    differences = verify_record(loaded, lexicon)
    verifying = time.perf_counter() - started

    print(f"registro: {len(record['games'])} partidas, {rounds} rondas, {slips} papeletas, "
          f"{path.stat().st_size / 1e6:.1f} MB (sintetizado en {built:.1f} s)")
    print("estados: " + ", ".join(f"{status} {count}" for status, count in sorted(statuses.items())))
    print(f"load_record: {loading:.2f} s")
    print(f"verify_record: {verifying:.2f} s ({slips / verifying:.0f} papeletas/s)")
    print(f"total: {loading + verifying:.2f} s (objetivo ≤ 60 s)")
    print(f"diferencias: {len(differences)}")
    for difference in differences[:10]:
        print(f"  {difference}")


if __name__ == "__main__":
    main()
