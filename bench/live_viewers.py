"""Load benchmark of ``duplicada live`` (issue 37, "Load"): many viewers, 8 stations, rounds closing.

What it builds, on a fresh SQLite file in a temporary folder:

* a tournament of ``--players`` players with ``--games`` finished games of 20 rounds
  (``duplicate.simulate.simulate_tournament``: real racks, masters, slips; pages of the
  size a real event has, the replay page of a game several hundred KB) and a game in play;
* the live server, **in a process of its own**, started as a club starts it:
  ``python -m tui.cli live --db URL --tournament ID --port P`` on 127.0.0.1 (its console,
  one line per request, goes to a file);
* ``--stations`` assistant stations (default 8), each a process of its own with its own
  connection and assistant PIN for a range of tables (``bench/stations_commit.py``'s
  station), entering the slips of each round through ``TournamentService.enter_slip``
  with ``--slip-pause`` ms between two slips of a station (default 1000: 8 slips a
  second in all, an assistant typing a slip every second: a fast pace);
* the **load generator**, a process of its own (its event loop and GIL apart from the
  server's): ``--viewers`` viewers (default 500, at most ``MAX_VIEWERS``), each one
  aiohttp session of its own as a browser is: it loads its page (half of them
  ``directo.html``, the rest the tournament standings, the game in play or a player's
  page), opens ``/eventos`` (server-sent events) and, on each ``cambio`` whose
  ``paginas`` name its page, fetches the page again (``GET``, gzip accepted) as the
  page's script does. Loopback only: any address that is not a loopback one is refused.

The judge (this process), once the stations have entered every slip of a round, closes
it, draws the next rack and places its master, then lets the stations start the next
round: the close's rebuild, fan-out and page fetches happen while the stations enter the
next round's slips. For each of ``--rounds`` rounds, per viewer: the time from the
close's commit (``close_round`` returning) to the end of the first fetch of its page that
shows the round closed (``markers``: a text each kind of page shows only then, checked
against the real pages in a warm-up round), and to the arrival of the ``cambio`` that
caused that fetch. Reported: p50 /
p99 / max over every viewer and round, the spread of one ``cambio``'s arrivals (last −
first viewer: what the fan-out itself costs, the rebuild apart), the time to connect the
viewers all at once (a server restart: every EventSource reconnecting within 2 s), the
server's resident memory (``VmRSS`` of ``/proc/PID/status``) before the viewers connect,
with them connected and after the rounds (per viewer: the difference / viewers), the
server's CPU (seconds and cores over the rounds), the slips' times at the stations, the
load average and any error.

Each viewer holds two connections (the stream, one kept alive for fetches), so the
server needs about ``2 × viewers`` file descriptors and the generator as many: the soft
limit (``ulimit -n``) is raised to the hard one in both processes (the server does so
itself, ``live_server.raise_file_limit``).

Usage: ``python bench/live_viewers.py [--players 60] [--viewers 500] [--rounds 5]
[--games 2] [--stations 8] [--slip-pause MS] [--runs 1] [--generators 1] [--server-root DIR]
[--profile FILE]`` (``--generators``: the viewers shared among that many generator processes)
(``--server-root``: the server from another checkout, e.g. to compare with main; ``--profile``:
the server's event loop under cProfile, written to FILE); e.g.
``PYTHONPATH=. python bench/live_viewers.py --players 150 --viewers 500 --rounds 5``.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MAX_VIEWERS = 2000
"""The generator refuses more viewers than this (a bounded load)."""

WAIT_SECONDS = 60.0
"""How long the generator waits for every viewer to see a close; a viewer later is counted missing."""

JUDGE_PIN = "juez-de-los-directos"
STATION_SCRIPT = ROOT / "bench" / "stations_commit.py"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def loopback(host: str) -> str:
    """``host`` when it is a loopback address literal (127.0.0.0/8, ::1); SystemExit otherwise."""
    try:
        if ipaddress.ip_address(host).is_loopback:
            return host
    except ValueError:
        pass
    raise SystemExit(f"refused: {host!r} is not a loopback address (the generator only loads this machine)")


def raise_file_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# --- the load generator (a process of its own) -----------------------------------------------------
def page_kind(page: str) -> str:
    """Which marker a page shows a closed round by (``markers``)."""
    return ("directo" if page == "directo.html" else "index" if page == "index.html" else
            "jugador" if page.startswith("jugadores/") else "partida")


@dataclass
class Viewer:
    """One browser: its page; the marker of the round awaited (``markers``) and, once a
    fetch showed it, (version and arrival of the ``cambio`` that caused the fetch, end of
    the fetch); the ``cambio`` events seen."""

    page: str
    marker: str | None = None
    found: tuple[int, float, float] | None = None
    changes: int = 0
    connected: float = 0.0
    failed: str = ""
    fetch_errors: int = 0


async def run_viewer(base: str, viewer: Viewer, started: float) -> None:
    """A browser: load the page, open the stream, fetch the page on each ``cambio`` naming
    it (as the page's script does), note when a fetch first shows the awaited marker."""
    import aiohttp

    tasks: set[asyncio.Task[None]] = set()

    async def fetch(session: aiohttp.ClientSession, version: int, arrived: float) -> None:
        try:
            async with session.get(f"{base}/{viewer.page}", headers={"Cache-Control": "no-store"}) as answer:
                text = await answer.text()
                if answer.status != 200:
                    viewer.fetch_errors += 1
                    return
        except (aiohttp.ClientError, OSError):
            viewer.fetch_errors += 1
            return
        if viewer.marker is not None and viewer.found is None and viewer.marker in text:
            viewer.found = (version, arrived, time.monotonic())

    timeout = aiohttp.ClientTimeout(total=None, connect=30, sock_read=None)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as session:
            async with session.get(f"{base}/{viewer.page}") as answer:      # the browser loads its page
                await answer.read()
                if answer.status != 200:
                    viewer.failed = f"page {answer.status}"
                    return
            async with session.get(f"{base}/eventos") as stream:             # then its script opens the stream
                kind, data = "", ""
                async for raw in stream.content:
                    line = raw.decode("utf-8").rstrip("\n")
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif line == "" and kind:
                        now = time.monotonic()
                        if kind == "version" and not viewer.connected:
                            viewer.connected = now - started
                        elif kind == "cambio":
                            viewer.changes += 1
                            message = json.loads(data)
                            if viewer.page in message.get("paginas", []):
                                task = asyncio.get_running_loop().create_task(
                                    fetch(session, int(message["version"]), now))
                                tasks.add(task)
                                task.add_done_callback(tasks.discard)
                        kind, data = "", ""
                viewer.failed = viewer.failed or "stream ended"
    except (aiohttp.ClientError, OSError) as error:
        viewer.failed = type(error).__name__
    except asyncio.CancelledError:
        pass


async def generate(host: str, port: int, pages: list[str]) -> None:
    """The generator's loop: connect ``len(pages)`` viewers at once, print their times;
    then, for each ``expect MARKERS`` line of stdin (JSON: page kind → the text its page
    shows once the round is closed), await them; on the next ``close TIME`` line, wait
    until every viewer's page showed its marker (at most ``WAIT_SECONDS``) and print one
    JSON line of the times from ``TIME`` (``time.monotonic``, the same clock in every
    process of the machine)."""
    base = f"http://{loopback(host)}:{port}"
    if len(pages) > MAX_VIEWERS:
        raise SystemExit(f"refused: {len(pages)} viewers, at most {MAX_VIEWERS}")
    viewers = [Viewer(page) for page in pages]
    started = time.monotonic()
    tasks = [asyncio.get_running_loop().create_task(run_viewer(base, viewer, started)) for viewer in viewers]
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and any(not viewer.connected and not viewer.failed for viewer in viewers):
        await asyncio.sleep(0.05)
    print(json.dumps({"times": [viewer.connected for viewer in viewers if viewer.connected],
                      "failed": sorted({viewer.failed for viewer in viewers if viewer.failed})}), flush=True)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    while line := (await reader.readline()).decode():
        command, _, argument = line.rstrip("\n").partition(" ")
        if command == "expect":
            markers = json.loads(argument)
            for viewer in viewers:
                viewer.marker, viewer.found = markers[page_kind(viewer.page)], None
            continue
        if command != "close":
            break
        closed = float(argument)
        deadline = time.monotonic() + WAIT_SECONDS
        while any(viewer.found is None for viewer in viewers) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        found = [viewer.found for viewer in viewers if viewer.found is not None]
        groups: dict[int, list[float]] = {}
        for version, arrived, _ in found:
            first, last = groups.get(version, [arrived, arrived])
            groups[version] = [min(first, arrived), max(last, arrived)]
        print(json.dumps({"cambio": [max(0.0, arrived - closed) for _, arrived, _ in found],
                          "page": [fetched - closed for _, _, fetched in found], "groups": groups,
                          "missing": len(viewers) - len(found),
                          "missing_pages": sorted({page_kind(viewer.page) for viewer in viewers
                                                   if viewer.found is None}),
                          "failed": sum(bool(viewer.failed) for viewer in viewers),
                          "fetch_errors": sum(viewer.fetch_errors for viewer in viewers)}), flush=True)
    used = resource.getrusage(resource.RUSAGE_SELF)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"cpu": used.ru_utime + used.ru_stime - usage.ru_utime - usage.ru_stime,
                      "rss_mb": used.ru_maxrss / 1024,
                      "cambios": statistics.median(viewer.changes for viewer in viewers) if viewers else 0}),
          flush=True)


# --- the server process -----------------------------------------------------------------------------
def free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_version(base: str) -> int:
    """The version the server serves: the first event of a fresh ``/eventos`` stream."""
    with urllib.request.urlopen(f"{base}/eventos", timeout=30) as stream:
        for raw in stream:
            if raw.startswith(b"data: "):
                return int(json.loads(raw[6:])["version"])
    raise RuntimeError("the stream ended before its version")


def wait_for_version(base: str, version: int, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while True:
        try:
            if server_version(base) >= version:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the live server did not reach version {version}")
        time.sleep(0.2)


# --- the judge, the stations, the figures -----------------------------------------------------------
def markers(round_number: int, cumulative: int) -> dict[str, str]:
    """What each kind of page (``page_kind``) shows once round ``round_number`` of the game
    in play is closed and the next one announced (``cumulative``: the game's master points
    up to it), and not before: the game's page a column ``R{n}``, a player's page the
    master's points (both from the close), ``directo.html`` the next round (awaited or
    drawn), the standings page the rounds played in the game (counted once the next
    master is placed, just after the close)."""
    return {"partida": f">R{round_number}<", "index": f'en juego</td>\n<td class="n">{round_number + 1}</td>',
            "jugador": f"de la maestra ({cumulative})", "directo": f"ronda {round_number + 1}"}


def viewer_pages(pages: list[str], game: int, count: int) -> list[str]:
    """What ``count`` viewers watch: half the game in play, the rest the standings, the
    game's page and players' pages."""
    players = sorted(page for page in pages if page.startswith("jugadores/"))
    rng = random.Random(37)
    chosen = []
    for index in range(count):
        share = index % 10
        chosen.append("directo.html" if share < 5 else "index.html" if share < 7 else
                      f"partida-{game}.html" if share < 8 else rng.choice(players))
    return chosen


@dataclass
class Run:
    """One run's figures."""

    cambio: list[list[float]] = field(default_factory=list)
    page: list[list[float]] = field(default_factory=list)
    spreads: list[float] = field(default_factory=list)
    missing: int = 0
    failed: int = 0
    fetch_errors: int = 0
    slips: list[float] = field(default_factory=list)
    memory: dict[str, int] = field(default_factory=dict)
    connect: dict[str, Any] = field(default_factory=dict)
    server_cpu: float = 0.0
    wall: float = 0.0
    generator: dict[str, Any] = field(default_factory=dict)
    stations_cpu: float = 0.0
    site: str = ""


def run(options: argparse.Namespace, folder: Path, out: TextIO) -> Run:
    from duplicate.publishing.live_pages import live_site
    from duplicate.service.facade import TournamentService
    from duplicate.simulate import simulate_tournament
    from duplicate.storage.database import open_database
    from lexicon.default import default_lexicon_path
    from lexicon.lexicon import Lexicon

    figures = Run()
    url = f"sqlite:///{folder / 'directo.db'}"
    lexicon = Lexicon.load(default_lexicon_path(None))
    judge = TournamentService(open_database(url), station="juez", lexicon=lexicon, pin=JUDGE_PIN)
    tournament = simulate_tournament(judge, players=options.players, games=options.games, seed=2026, rounds=20,
                                     name="Open en directo")
    players = len(judge.entries(tournament))
    share = -(-players // options.stations)
    spans = [(1 + index * share, min(players, (index + 1) * share)) for index in range(options.stations)]
    for index, (first, last) in enumerate(spans):
        judge.set_pin("assistant", f"auxiliar-{index:02d}-mesas", name=f"aux{index}", tournament_id=tournament)
        judge.set_assistant_range(f"aux{index}", first, last, tournament_id=tournament)
    planned = options.rounds + 3                    # the last round drawn is not the last planned (it ends the game)
    game = judge.create_game(rounds=planned, seed=37, tournament_id=tournament)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    host, port = "127.0.0.1", free_port("127.0.0.1")
    base = f"http://{host}:{port}"
    console = open(folder / "consola.txt", "w")
    profile = ["-m", "cProfile", "-o", str(Path(options.profile).resolve())] if options.profile else []
    server_root = Path(options.server_root).resolve() if options.server_root else ROOT
    server = subprocess.Popen([sys.executable, *profile, "-m", "tui.cli", "live", "--db", url, "--tournament",
                               str(tournament), "--host", host, "--port", str(port)], cwd=server_root,
                              env={**env, "PYTHONPATH": str(server_root)}, stdout=console, stderr=subprocess.STDOUT)
    stations = [subprocess.Popen([sys.executable, str(STATION_SCRIPT), "--station", url, str(index), str(game),
                                  str(first), str(last), "0", str(options.slip_pause / 1000)],
                                 cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                for index, (first, last) in enumerate(spans)]
    generators: list[subprocess.Popen[str]] = []

    def tell(line: str) -> None:
        for generator in generators:
            assert generator.stdin is not None
            generator.stdin.write(line + "\n")
            generator.stdin.flush()

    def answers() -> list[dict[str, Any]]:
        return [json.loads(generator.stdout.readline()) for generator in generators if generator.stdout]
    try:
        for station in stations:
            assert station.stdout is not None and station.stdout.readline().strip() == "ready"

        def play(round_number: int, master: str) -> None:
            for station in stations:
                assert station.stdin is not None
                station.stdin.write(f"go\t{round_number}\t{master}\n")
                station.stdin.flush()

        def wait_slips() -> None:
            for station in stations:
                assert station.stdout is not None
                for line in station.stdout:
                    if line.startswith("done"):
                        figures.stations_cpu += float(line.split()[1])
                        break
                    figures.slips.append(float(json.loads(line)["seconds"]))

        def next_round() -> tuple[int, str]:
            judge.draw_rack(game, tournament_id=tournament)
            view = judge.choose_master(game, tournament_id=tournament)
            assert view.master is not None
            return view.number, view.master

        # Warm-up (no viewer yet): round 1 entered and closed, round 2 announced; the
        # server has built the pages of a game in play with a closed round.
        wait_for_version(base, 0)
        number, master = next_round()
        play(number, master)
        wait_slips()
        cumulative = judge.game_view(game, tournament_id=tournament).last.cumulative  # type: ignore[union-attr]
        judge.close_round(game, number, tournament_id=tournament)
        shown = markers(number, cumulative)
        number, master = next_round()
        wait_for_version(base, judge.last_event_id(tournament))
        site = live_site(judge, tournament)
        player = min(page for page in site.pages if page.startswith("jugadores/"))
        for page in (f"partida-{game}.html", "index.html", "directo.html", player):
            if shown[page_kind(page)] not in site.pages[page]:
                raise SystemExit(f"{page} does not show round {number - 1} closed as the bench expects "
                                 f"({shown[page_kind(page)]!r}): update markers()")
        sizes = sorted(len(text.encode()) for text in site.pages.values())
        figures.site = (f"{len(site.pages)} pages, {sum(sizes) / 1e6:.1f} MB, largest {sizes[-1] / 1e3:.0f} KB, "
                        f"median {statistics.median(sizes) / 1e3:.0f} KB")
        time.sleep(1.0)
        figures.memory["idle"] = status_kb(server.pid, "VmRSS")

        pages = viewer_pages(sorted(site.pages), game, options.viewers)
        generators.extend(subprocess.Popen([sys.executable, __file__, "--generator", host, str(port)], cwd=ROOT,
                                           env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                          for _ in range(options.generators))
        for index, generator in enumerate(generators):      # each its share, all connecting at once
            assert generator.stdin is not None
            generator.stdin.write(json.dumps(pages[index::len(generators)]) + "\n")
            generator.stdin.flush()
        connected = answers()
        times = [seconds for answer in connected for seconds in answer["times"]]
        figures.connect = {"connected": len(times),
                           "failed": sorted({reason for answer in connected for reason in answer["failed"]}),
                           "p50": statistics.median(times) if times else None,
                           "p99": percentile(times, 0.99) if times else None, "max": max(times, default=None)}
        time.sleep(1.0)
        figures.memory["connected"] = status_kb(server.pid, "VmRSS")

        cpu, started = cpu_seconds(server.pid), time.monotonic()
        play(number, master)
        for _ in range(options.rounds):
            cumulative = judge.game_view(game, tournament_id=tournament).last.cumulative  # type: ignore[union-attr]
            tell(f"expect {json.dumps(markers(number, cumulative))}")
            wait_slips()
            judge.close_round(game, number, tournament_id=tournament)
            closed = time.monotonic()                      # close_round returns after its commit
            number, master = next_round()
            play(number, master)                           # the stations enter the next round meanwhile
            tell(f"close {closed!r}")
            results = answers()
            groups: dict[str, list[float]] = {}
            for part in results:
                for version, (first, last) in part["groups"].items():
                    earliest, latest = groups.get(version, [first, last])
                    groups[version] = [min(earliest, first), max(latest, last)]
            result = {"cambio": [value for part in results for value in part["cambio"]],
                      "page": [value for part in results for value in part["page"]],
                      "spread": max((last - first for first, last in groups.values()), default=0.0),
                      "missing_pages": sorted({kind for part in results for kind in part["missing_pages"]}),
                      **{key: sum(part[key] for part in results) for key in ("missing", "failed", "fetch_errors")}}
            figures.cambio.append(result["cambio"])
            figures.page.append(result["page"])
            figures.spreads.append(result["spread"])
            figures.missing += result["missing"]
            figures.failed = result["failed"]
            figures.fetch_errors = result["fetch_errors"]
            print(f"    round {number - 1}: cambio p99 "
                  f"{percentile(result['cambio'], 0.99) if result['cambio'] else float('nan'):.2f} s, page p99 "
                  f"{percentile(result['page'], 0.99) if result['page'] else float('nan'):.2f} s, "
                  f"missing {result['missing']} {' '.join(result['missing_pages'])}", file=out, flush=True)
        wait_slips()
        figures.server_cpu = cpu_seconds(server.pid) - cpu
        figures.wall = time.monotonic() - started
        figures.memory["after"] = status_kb(server.pid, "VmRSS")
        figures.memory["peak"] = status_kb(server.pid, "VmHWM")
        tell("end")
        ended = answers()
        figures.generator = {"cpu": sum(part["cpu"] for part in ended),
                             "cambios": statistics.fmean(part["cambios"] for part in ended)}
        for generator in generators:
            generator.wait(timeout=60)
    finally:
        for station in stations:
            if station.stdin is not None:
                station.stdin.close()
        for process in [*stations, *generators]:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        server.send_signal(signal.SIGINT)                   # Ctrl+C, as at a venue
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        console.close()
        judge.db.dispose()
    return figures


def report(options: argparse.Namespace, figures: Run, load: tuple[float, float, float], out: TextIO) -> None:
    def line(values: list[float], unit: float = 1.0, name: str = "s") -> str:
        if not values:
            return "—"
        return (f"p50 {statistics.median(values) * unit:5.2f} {name}   "
                f"p99 {percentile(values, 0.99) * unit:5.2f} {name}   "
                f"max {max(values) * unit:5.2f} {name}")

    cambio = [value for values in figures.cambio for value in values]
    page = [value for values in figures.page for value in values]
    spreads = figures.spreads
    memory = figures.memory
    per_viewer = (memory["connected"] - memory["idle"]) / max(1, options.viewers)
    connect = figures.connect
    print(f"{options.players} players, {options.viewers} viewers, {options.stations} stations "
          f"(a slip every {options.slip_pause:.0f} ms each), {len(figures.cambio)} rounds; site: {figures.site}",
          file=out)
    print(f"  close committed → cambio at a viewer     {line(cambio)}   ({len(cambio)} arrivals)", file=out)
    print(f"  close committed → its page fetched       {line(page)}   ({len(page)} fetches)", file=out)
    print(f"  one cambio's spread (last − first viewer) {line(spreads, 1000, 'ms')}", file=out)
    print(f"  viewers connecting at once               {connect['connected']} connected, "
          f"p50 {connect['p50'] or 0:.2f} s, p99 {connect['p99'] or 0:.2f} s, max {connect['max'] or 0:.2f} s; "
          f"failed {connect['failed'] or 'none'}", file=out)
    print(f"  missing arrivals {figures.missing}, viewers failed {figures.failed}, "
          f"fetch errors {figures.fetch_errors}", file=out)
    print(f"  server RSS: idle {memory['idle'] / 1024:.0f} MB, {options.viewers} connected "
          f"{memory['connected'] / 1024:.0f} MB ({per_viewer:.0f} KB per viewer), after the rounds "
          f"{memory['after'] / 1024:.0f} MB, peak {memory['peak'] / 1024:.0f} MB", file=out)
    print(f"  server CPU {figures.server_cpu:.1f} s over {figures.wall:.1f} s "
          f"({figures.server_cpu / max(figures.wall, 1e-9):.2f} cores); generator CPU "
          f"{figures.generator.get('cpu', 0):.1f} s, {figures.generator.get('cambios', 0):.0f} cambios per viewer; "
          f"stations CPU {figures.stations_cpu:.1f} s", file=out)
    slips = figures.slips
    print(f"  slips at the stations ({len(slips)}): p50 {1000 * statistics.median(slips):.0f} ms, "
          f"p99 {1000 * percentile(slips, 0.99):.0f} ms, max {1000 * max(slips):.0f} ms", file=out)
    print(f"  load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after {os.getloadavg()[0]:.2f}",
          file=out, flush=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--generator":
        raise_file_limit()
        host, port = loopback(sys.argv[2]), int(sys.argv[3])
        pages = json.loads(sys.stdin.readline())
        asyncio.run(generate(host, port, pages))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5, help="rounds measured")
    parser.add_argument("--games", type=int, default=2, help="finished games before the one in play")
    parser.add_argument("--stations", type=int, default=8)
    parser.add_argument("--slip-pause", type=float, default=1000.0, help="ms each station waits after a slip")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--generators", type=int, default=1,
                        help="processes the viewers are shared among (one event loop is the limit near 2000)")
    parser.add_argument("--server-root", default=None,
                        help="run the server from this checkout instead (to compare two versions of it)")
    parser.add_argument("--profile", default=None,
                        help="a file for the server's cProfile (its main thread: the event loop, not the rebuilds)")
    options = parser.parse_args()
    if not 1 <= options.viewers <= MAX_VIEWERS:
        parser.error(f"--viewers must be 1–{MAX_VIEWERS}")
    if not 1 <= options.generators <= min(8, options.viewers):
        parser.error("--generators must be 1–8 (and at most --viewers)")
    from duplicate.service.access import TEST_SCRYPT_N_VARIABLE
    os.environ.setdefault(TEST_SCRYPT_N_VARIABLE, str(2 ** 14))
    print(f"file descriptors: soft limit {raise_file_limit()} (each viewer holds 2 at the server)", flush=True)
    for _ in range(options.runs):
        load = os.getloadavg()
        with tempfile.TemporaryDirectory() as folder:
            figures = run(options, Path(folder), sys.stdout)
        report(options, figures, load, sys.stdout)


if __name__ == "__main__":
    main()
