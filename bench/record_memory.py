"""Size and loading memory of a very large tournament record (issue 36 §5).

Writes a record shaped as ``duplicada export`` writes one (format 14, ``indent=1``,
non-ASCII kept; ``docs/tournament-record.md``): ``--players`` players × ``--games`` games ×
``--rounds`` rounds, one slip a seated player a round, and the events a real tournament
logs for them — per slip a ``slip_entered`` and, with double entry, a ``slip_checked``;
per round ``rack_drawn`` (with its equal tops), ``master_chosen``, ``round_closed`` and
``bonuses_awarded``; per game ``game_created``, ``tables_assigned``, ``game_ended`` and a
provisional and a final ``results_published`` with the game's standings; every event with
its time (microseconds) and chained hash. The figures are synthetic (the record is not
meant to verify: its racks are not those of a bag); its size and its shape are those of a
real one, which is what the loading costs.

Then it loads it in a child process under ``/usr/bin/time -v``, as ``duplicada verify``
and ``venue import`` do (``duplicate.record.reading.load_record``: the file bounded by
``RECORD_MAX_BYTES``, parsed, its shape and version checked), and reports the size, the
peak resident memory (maximum RSS) and the time; the interpreter and the imports alone are
measured the same way and reported apart.

Usage: ``python bench/record_memory.py [--players 500] [--games 20] [--rounds 22]
[--no-double-entry] [--out FILE] [--keep]``. Figures quoted in docs/robustness.md (issue 36 §5).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
LETTERS = "AAAAAAAAAAAABBCCCCDDDDDEEEEEEEEEEEEFGHIIIIIILLLLMMNNNNNOOOOOOOOOPPQRRRRRSSSSSSTTTTUUUUUVXYZ"
START = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


class Log:
    """The chained events, written as the export writes them."""

    def __init__(self) -> None:
        self.number = 0
        self.previous = "0" * 64
        self.moment = START

    def event(self, kind: str, game: int | None, round_: int | None, payload: dict[str, Any],
              station: str = "juez", role: str = "judge") -> dict[str, Any]:
        self.number += 1
        self.moment += timedelta(microseconds=137_531)
        logged = {"id": self.number, "kind": kind, "game": game, "round": round_, "station": station,
                  "arbiter": station, "role": role, "reason": "", "created_at": self.moment.isoformat(),
                  "payload": payload, "previous_hash": self.previous}
        self.previous = hashlib.sha256(f"{self.previous}\n{self.number}".encode()).hexdigest()
        return logged


def rack(rng: random.Random) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(7))


def game_parts(rng: random.Random, number: int, players: int, rounds: int, double: bool,
               log: Log, events: list[dict[str, Any]]) -> dict[str, Any]:
    """One game of the record; its events appended to ``events``."""
    tables = {str(player): player for player in range(1, players + 1)}
    events.append(log.event("game_created", number, None, {"number": number, "planned_rounds": rounds,
                                                           "seconds_per_round": 180, "seed": number}))
    events.append(log.event("tables_assigned", number, None, {"method": "random", "seed": number, "tables": tables}))
    played = []
    cumulative = 0
    board = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
    for round_number in range(1, rounds + 1):
        drawn = rack(rng)
        master = f"H{rng.randint(1, 9)}-{drawn[:5]}"
        score = rng.randint(20, 90)
        cumulative += score
        tops = [[master, "III.15"], [f"{rng.randint(1, 9)}H-{drawn[:5]}", "III.15"]]
        events.append(log.event("rack_drawn", number, round_number, {
            "round": round_number, "rack": drawn, "redraws": [], "leftover": drawn[5:], "top_score": score,
            "tops": tops, "moves": rng.randint(200, 2000)}))
        events.append(log.event("master_chosen", number, round_number, {
            "round": round_number, "master": master, "score": score, "rank": 1, "cumulative": cumulative,
            "equal_tops": 2}))
        slips = []
        for player in range(1, players + 1):
            station = f"aux{1 + player * 4 // (players + 1)}"
            other = f"{rng.choice('ABCDEFGHIJKLMNO')}{rng.randint(1, 15)}-{rack(rng)[:4]}"
            text = master if rng.random() < 0.3 else other
            status = "valid" if text == master else rng.choice(("valid", "invalid_word", "misplaced", "syntax"))
            points = score if text == master else (rng.randint(5, score) if status == "valid" else 0)
            move = text if status == "valid" else None
            entered = log.event("slip_entered", number, round_number, {
                "table": player, "entry": player, "text": text, "status": status, "score": points, "move": move,
                "reason": ""}, station=station, role="assistant")
            events.append(entered)
            if double:
                events.append(log.event("slip_checked", number, round_number,
                                        {"table": player, "entry": player, "text": text},
                                        station=f"aux{5 - int(station[3:])}", role="assistant"))
            slips.append({"player": player, "table": player, "text": text, "status": status, "score": points,
                          "move": move, "reason": "", "entered_by": station, "entered_at": entered["created_at"]})
        events.append(log.event("round_closed", number, round_number, {"round": round_number}))
        events.append(log.event("bonuses_awarded", number, round_number, {"round": round_number, "bonuses": {}}))
        played.append({"number": round_number, "rack": drawn, "board_before": board, "top_score": score,
                       "top_moves": [top[0] for top in tops], "master": master, "master_score": score,
                       "cumulative": cumulative, "annulled": False, "closed": True, "slips": slips,
                       "set_aside": [], "bonuses": {}})
        board = board.replace("15", "3ABC9", 1) if "15" in board else board
    standings = [{"player": player, "position": player, "total": rng.randint(0, cumulative), "bonus": 0,
                  "percentage": round(rng.uniform(0, 100), 4)} for player in range(1, players + 1)]
    events.append(log.event("game_ended", number, None, {"reason": None}))
    for status in ("provisional", "final"):
        events.append(log.event("results_published", number, None, {
            "status": status, "standings": [{"player": line["player"], "position": line["position"],
                                             "total": line["total"]} for line in standings]}))
    return {"number": number, "planned_rounds": rounds, "seconds_per_round": 180, "seed": number,
            "status": "final", "end_reason": None, "tables": tables, "prepared": None, "rounds": played,
            "standings": standings}


def write_record(out: TextIO, players: int, games: int, rounds: int, double: bool) -> None:
    """The record, written key by key as ``write_export`` does (events held until the end)."""
    rng = random.Random(36)
    log = Log()
    events = [log.event("tournament_created", None, None, {
        "name": "Campeonato grande", "lexicon_hash": "0" * 64, "venue": "Madrid",
        "settings": {"bonus_mode": "automatic", "bonus_value": 10, "criterion": "total", "tie_breaks": True,
                     "oriented_notation": False}})]
    names = [f"Jugadora {number} Núñez-Ibáñez" for number in range(1, players + 1)]
    for number, name in enumerate(names, start=1):
        events.append(log.event("player_added", None, None, {
            "entry": number, "player": number, "name": name, "club": "Club Duplicada", "country": "ES",
            "federation_id": f"ES{number:05d}"}))
    parts: Iterator[tuple[str, Any]] = iter([
        ("format", "duplicada-tournament-1"), ("format_version", 14), ("exported_at", START.isoformat()),
        ("tournament", {"name": "Campeonato grande", "venue": "Madrid", "start_date": "2026-11-21",
                        "end_date": None, "lexicon_hash": "0" * 64,
                        "settings": {"bonus_mode": "automatic", "bonus_value": 10, "criterion": "total",
                                     "tie_breaks": True, "oriented_notation": False}, "venues": []}),
        ("players", [{"id": number, "name": name, "club": "Club Duplicada", "country": "ES",
                      "federation_id": f"ES{number:05d}", "status": "active", "venue": None}
                     for number, name in enumerate(names, start=1)])])
    out.write("{")
    for index, (key, value) in enumerate(parts):
        out.write(f"{',' if index else ''}\n {json.dumps(key)}: " + _dumps(value).replace("\n", "\n "))
    out.write(',\n "games": [')
    for number in range(1, games + 1):
        game = game_parts(rng, number, players, rounds, double, log, events)
        out.write(f"{',' if number > 1 else ''}\n  " + _dumps(game).replace("\n", "\n  "))
    out.write("\n ],\n \"standings\": " + _dumps([{"player": player, "position": player, "value": 1.0, "total": 0}
                                                  for player in range(1, players + 1)]).replace("\n", "\n "))
    out.write(',\n "events": [')
    for index, event in enumerate(events):
        out.write(f"{',' if index else ''}\n  " + _dumps(event).replace("\n", "\n  "))
    out.write(f"\n ],\n \"events_head\": {json.dumps(log.previous)}\n}}")


LOAD = ("import sys, time; from duplicate.record.reading import load_record; started = time.perf_counter(); "
        "record = load_record(sys.argv[1]); print(f'{time.perf_counter() - started:.2f}', len(record['events']))")
IMPORTS = "from duplicate.record.reading import load_record"


def measured(code: str, *arguments: str) -> tuple[float, str]:
    """Peak resident memory (MiB) of ``python -c code arguments`` and what it printed."""
    result = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-c", code, *arguments], capture_output=True,
                            text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    if result.returncode != 0:
        raise SystemExit(result.stdout + result.stderr)
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    if found is None:
        raise SystemExit("/usr/bin/time -v no dio el pico de memoria")
    return int(found.group(1)) / 1024, result.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=22)
    parser.add_argument("--no-double-entry", action="store_true", help="one event a slip (no slip_checked)")
    parser.add_argument("--out", type=Path, help="where the record goes (default: a temporary file)")
    parser.add_argument("--keep", action="store_true", help="reuse --out if it exists")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.out or Path(folder) / "registro.json"
        if not (args.keep and path.exists()):
            started = time.perf_counter()
            with path.open("w", encoding="utf-8") as out:
                write_record(out, args.players, args.games, args.rounds, not args.no_double_entry)
            print(f"registro escrito en {time.perf_counter() - started:.0f} s")
        size = path.stat().st_size
        baseline, _ = measured(IMPORTS)
        peak, printed = measured(LOAD, str(path))
        seconds, events = printed.split()
        print(f"{args.players} jugadores × {args.games} partidas × {args.rounds} rondas, "
              f"{'una' if args.no_double_entry else 'doble'} anotación: {size / 2**20:.1f} MiB, {events} eventos")
        print(f"load_record: {seconds} s, pico de memoria {peak:.0f} MiB ({peak - baseline:.0f} MiB sobre los "
              f"{baseline:.0f} MiB del intérprete y los módulos; {(peak - baseline) * 2**20 / size:.1f}× el registro)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
