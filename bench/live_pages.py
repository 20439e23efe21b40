"""Benchmark of the live pages (issue 37 §1): what one rebuild and one version check cost.

A tournament of ``--players`` × ``--games`` games of ``--rounds`` rounds is simulated
through the service (``duplicate.simulate.simulate_tournament``: real racks, masters and
slips; the games published); then
``live_site`` (every live page, in memory) is timed ``--repeat`` times and
``live_version`` (the one query ``duplicada live`` makes every 0.5 s) 200 times.
The server rebuilds the pages only when the log moved, one rebuild at a time, so a
rebuild's time bounds how soon a change reaches the browsers (plus at most 0.5 s).
Then a real ``LiveServer`` on the loopback with one server-sent-events client: a new game
of ``--repeat`` rounds is played and each round closed through the service; the time from
``close_round`` returning to the ``cambio`` event reaching the client is measured.

Usage: ``python bench/live_pages.py [--players N] [--games G] [--rounds R] [--repeat K]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duplicate.publishing.live_pages import live_site, live_version
from duplicate.service.facade import TournamentService
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        service = TournamentService(open_database(str(Path(folder) / "bench.db")), station="bench",
                                    pin="juez-del-banco")
        started = time.perf_counter()
        tournament_id = simulate_tournament(service, players=args.players, games=args.games, seed=2026,
                                            rounds=args.rounds, name="Open en directo")
        print(f"simulated in {time.perf_counter() - started:.0f} s")
        rebuilds = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            site = live_site(service, tournament_id)
            rebuilds.append(time.perf_counter() - started)
        reused = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            live_site(service, tournament_id, previous=site)
            reused.append(time.perf_counter() - started)
        checks = []
        for _ in range(200):
            started = time.perf_counter()
            live_version(service, tournament_id)
            checks.append(time.perf_counter() - started)
        size = sum(len(text.encode("utf-8")) for text in site.pages.values()) / 1e6
        print(f"{args.players} players × {args.games} games × {args.rounds} rounds: {len(site.pages)} pages, "
              f"{size:.1f} MB; live_site median {statistics.median(rebuilds):.2f} s (max {max(rebuilds):.2f} s); "
              f"with the previous pages (games unchanged) {statistics.median(reused):.2f} s; "
              f"live_version median {statistics.median(checks) * 1000:.2f} ms")
        latencies = asyncio.run(_latencies(service, tournament_id, args.repeat))
        print(f"round closed → cambio at the browser: median {statistics.median(latencies):.2f} s, "
              f"max {max(latencies):.2f} s over {len(latencies)} rounds")
        service.db.dispose()


async def _latencies(service: TournamentService, tournament_id: int, rounds: int) -> list[float]:
    import aiohttp

    from tui.cli.live_server import LiveServer

    game = service.create_game(rounds=rounds, seed=9, tournament_id=tournament_id)
    server = LiveServer(service.with_pin(None), tournament_id, port=0)
    runner = await server.start_site()
    latencies = []
    try:
        async with aiohttp.ClientSession() as client, \
                client.get(f"http://127.0.0.1:{server.port}/eventos", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            for _ in range(rounds):
                await asyncio.to_thread(service.draw_rack, game, tournament_id=tournament_id)
                await asyncio.to_thread(service.choose_master, game, tournament_id=tournament_id)
                await asyncio.to_thread(service.close_round, game, tournament_id=tournament_id)
                closed = time.perf_counter()
                version = service.last_event_id(tournament_id)
                while True:                                  # the first change at least as new as the close
                    line = await stream.content.readline()
                    if line.startswith(b"data: ") and json.loads(line[6:]).get("version", 0) >= version:
                        break
                latencies.append(time.perf_counter() - closed)
    finally:
        await runner.cleanup()
    return latencies


if __name__ == "__main__":
    main()
