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
``close_round`` returning to the ``cambio`` naming the game's page reaching the client is
measured, with each rebuild's time and the looks that found only events that show nothing
(no rebuild). With ``--stations S`` (issue 37: 8), S stations (threads of another process,
as ``duplicada serve`` runs them) enter
every player's slip, one every ``--slip-interval`` seconds each; once a round's slips are
in, the judge draws the next rack, places its master and closes the round, while the
stations enter the next round's slips.

Usage: ``python bench/live_pages.py [--players N] [--games G] [--rounds R] [--repeat K]
[--stations S] [--slip-interval SECONDS]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duplicate.publishing.live_pages import live_site, live_version
from duplicate.service.errors import RoundClosed, StateConflict, TournamentError
from duplicate.service.facade import TournamentService
from duplicate.simulate import simulate_tournament
from duplicate.storage.database import open_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stations", type=int, default=0, help="stations entering slips during the rounds timed")
    parser.add_argument("--slip-interval", type=float, default=1.0, help="seconds between two slips of a station")
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
        latencies, builds, skipped = asyncio.run(_latencies(service, tournament_id, args.repeat, args.stations,
                                                            args.slip_interval, str(Path(folder) / "bench.db")))
        entering = (f" with {args.stations} stations entering slips (one every {args.slip_interval:g} s each)"
                    if args.stations else "")
        print(f"round closed → cambio at the browser{entering}: median {statistics.median(latencies):.2f} s, "
              f"max {max(latencies):.2f} s over {len(latencies)} rounds; {len(builds)} rebuilds "
              f"(median {statistics.median(builds or [0]):.2f} s, max {max(builds or [0]):.2f} s), "
              f"{skipped} looks with nothing public")
        service.db.dispose()


async def _latencies(service: TournamentService, tournament_id: int, rounds: int, stations: int,
                     interval: float, database: str) -> tuple[list[float], list[float], int]:
    """Play a new game of ``rounds`` rounds against a real ``LiveServer`` with one SSE
    client; the seconds from each ``close_round`` returning to the ``cambio`` naming the
    game's page reaching the client, the seconds of each rebuild, the looks that moved
    the version without a rebuild. With ``stations``, that many stations (threads of
    another process, as ``serve`` runs them; each its share of the tables) enter every
    slip of each round, one every ``interval`` seconds each; the judge draws the next
    rack and places its master once a round's slips are in, then closes the round, so the
    stations are entering the next round's slips while the close travels."""
    import aiohttp

    from tui.cli.live_server import LiveServer

    game = service.create_game(rounds=rounds + 1, seed=9, tournament_id=tournament_id)
    tables = [table for table, _entry, _player in service.seats(game, tournament_id)]
    server = LiveServer(service.with_pin(None), tournament_id, port=0)
    builds: list[float] = []
    build = server.build

    def timed() -> Any:
        started = time.perf_counter()
        try:
            return build()
        finally:
            builds.append(time.perf_counter() - started)

    server.build = timed                                   # type: ignore[method-assign]
    skipped = 0
    refresh = server.refresh

    async def counted() -> bool:
        nonlocal skipped
        before = server.site.version if server.site is not None else None
        rebuilt = await refresh()
        skipped += not rebuilt and server.site is not None and server.site.version != before
        return rebuilt

    server.refresh = counted                               # type: ignore[method-assign]
    runner = await server.start_site()
    context = multiprocessing.get_context("spawn")
    shared = context.Manager().dict(round=0, text="", stop=False, ready=False) if stations else None
    workers = []
    if shared is not None:
        workers.append(context.Process(target=_stations, args=(database, tournament_id, game,
                                                               [tables[index::stations] for index in range(stations)],
                                                               interval, shared)))
        workers[-1].start()
        while not shared["ready"]:
            await asyncio.sleep(0.1)
    builds.clear()
    latencies = []
    try:
        async with aiohttp.ClientSession() as client, \
                client.get(f"http://127.0.0.1:{server.port}/eventos", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            master = await asyncio.to_thread(_next_round, service, tournament_id, game)
            for number in range(1, rounds + 1):
                if master is None:
                    break                                    # the bag ran out (III.22)
                if shared is not None:
                    shared.update(round=number, text=master)
                    deadline = time.monotonic() + 300
                    while (await asyncio.to_thread(service.round_status, game, number,
                                                   tournament_id=tournament_id)).missing_tables:
                        if time.monotonic() > deadline or not workers[0].is_alive():
                            raise RuntimeError(f"the stations did not enter round {number}'s slips")
                        await asyncio.sleep(0.2)
                    # the next round in play: the stations go on with its slips while this one closes
                    master = await asyncio.to_thread(_next_round, service, tournament_id, game)
                    if master is not None:
                        shared.update(round=number + 1, text=master)
                version = service.last_event_id(tournament_id)
                await asyncio.to_thread(service.close_round, game, number, tournament_id=tournament_id)
                closed = time.perf_counter()
                page = f"partida-{game}.html"
                while True:                                  # the change that shows the round closed
                    line = await stream.content.readline()
                    if line.startswith(b"data: "):
                        data = json.loads(line[6:])
                        if data.get("version", 0) > version and page in data.get("paginas", ()):
                            break
                latencies.append(time.perf_counter() - closed)
                if shared is None and number < rounds:
                    master = await asyncio.to_thread(_next_round, service, tournament_id, game)
    finally:
        if shared is not None:
            shared.update(stop=True)
        for worker in workers:
            worker.join(timeout=30)
        if shared is not None and shared.get("failures"):
            print(f"station errors (the slip entered again): {dict(shared['failures'])}")
        await runner.cleanup()
    return latencies, builds, skipped


def _next_round(service: TournamentService, tournament_id: int, game: int) -> str | None:
    """Draw the next rack and place its master: the master's text, None when the game ended."""
    try:
        if service.draw_rack(game, tournament_id=tournament_id) is None:
            return None
    except StateConflict:                                    # ended: no tiles left
        return None
    return service.choose_master(game, tournament_id=tournament_id).master


def _stations(database: str, tournament_id: int, game: int, shares: list[list[int]], interval: float,
              shared: Any) -> None:
    """The stations (threads of one process, as ``duplicada serve`` serves them): station
    ``i`` enters the slips of ``shares[i]`` for the round in ``shared["round"]`` (the
    master's text), one every ``interval`` seconds, until ``shared["stop"]``; says
    ``shared["ready"]`` once the lexicon is loaded."""
    import threading

    database_handle = open_database(database)
    TournamentService(database_handle, station="puesto", pin="juez-del-banco").engine(game, tournament_id)
    shared["ready"] = True

    failures: dict[str, int] = {}

    def station(index: int, tables: list[int]) -> None:
        service = TournamentService(database_handle, station=f"puesto-{index + 1}", pin="juez-del-banco")
        done: set[tuple[int, int]] = set()
        while not shared["stop"]:
            number, text = shared["round"], shared["text"]
            todo = [table for table in tables if (number, table) not in done]
            if not number or not todo:
                time.sleep(0.05)
                continue
            started = time.perf_counter()
            try:
                service.enter_slip(game, todo[0], text, round_number=number, tournament_id=tournament_id)
                done.add((number, todo[0]))
            except RoundClosed:
                done.add((number, todo[0]))                  # closed meanwhile: the next round
            except TournamentError as error:                 # busy: the same slip again
                failures[type(error).__name__] = failures.get(type(error).__name__, 0) + 1
            time.sleep(max(0.0, interval - (time.perf_counter() - started)))

    threads = [threading.Thread(target=station, args=(index, tables)) for index, tables in enumerate(shares)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    shared["failures"] = failures
    database_handle.dispose()


if __name__ == "__main__":
    main()
