"""The command line as a user runs it, whole processes (issue 38): read-only commands on big events.

Builds two SQLite tournaments once per run, in a temporary folder (or reuses them with
``--keep DIR``, built there the first time):

* ``big.db``: 300 players × 10 games × 20 rounds written straight into the tables with
  synthetic slips (``bench/tournament.py``'s ``fill_games``, every game finished, every
  round closed; 60,000 slips) — what ``standings`` reads;
* ``small.db``: ``duplicada simulate --players 60 --games 1 --rounds 12 --seed 1`` (a real
  game through the service, as ``bench/startup.py``).

Then times, each a fresh ``python -m tui.cli`` process with its output captured (not a
terminal, as in a script or a pipe; ``--tty`` adds the standings on a pseudo-terminal, as
at a console), after one warm-up run, with the bytecode cache written (as an installed
package has it):

* ``--help`` (goal ≤ 0.3 s, the lightest command);
* ``analyze`` of one position (goal ≤ 0.2 s);
* ``standings`` of the 60-player game (goal ≤ 0.3 s);
* ``standings`` (the last game) and ``standings --overall`` of the 300 × 10 event (goal ≤ 0.3 s);
* with ``--only …,app``: the app (``duplicada tui --db small.db``) on a pseudo-terminal,
  from launch to its first frame and to the tournament list shown (goal ≤ 1 s; the
  process is killed once both are seen; its CPU time at each, from ``/proc``).

For each: best and median wall time in seconds over ``--runs`` runs, and the median CPU
time (user + system) of the child process (``resource.getrusage(RUSAGE_CHILDREN)``).
``--tree DIR`` runs the commands of another checkout (``PYTHONPATH=DIR``, e.g. an
extracted ``git archive`` of main with its ``lexicon/_gaddag*.so``) on the same databases;
given twice (``--tree BEFORE --tree AFTER``) the two trees' runs alternate, A B A B …, so
that both see the same load: the before/after of a change on a shared machine. The
databases are built by this checkout's code.

Usage: ``python bench/cli_commands.py [--runs 7] [--tree DIR [--tree DIR]] [--keep DIR] [--tty]
[--only help,analyze,small,big,overall,app]``. Figures quoted in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PIN = "juez-del-banco"
POSITION = "15/15/15/15/15/15/15/7CASA4/15/15/15/15/15/15/15 ERRE?LO\n"


def build_big(path: Path, players: int, games: int, rounds: int) -> None:
    """``players`` × ``games`` × ``rounds``, every game finished (``fill_games``)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(BENCH))
    from duplicate.service.facade import TournamentService
    from duplicate.service.settings import TournamentSettings
    from duplicate.storage.database import open_database
    from lexicon.default import default_lexicon_path
    from lexicon.lexicon import Lexicon
    from tournament import fill_games  # bench/tournament.py

    lexicon = Lexicon.load(default_lexicon_path(None))
    service = TournamentService(open_database(f"sqlite:///{path}", create=True), station="bench", lexicon=lexicon,
                                pin=PIN)
    tournament_id = service.create_tournament("Banco de la línea de órdenes", settings=TournamentSettings(
        bonus_mode="automatic", criterion="average_percentage", tie_breaks=True))
    for index in range(players):
        service.add_player(f"Jugador {index:03d}", club="Club de pruebas")
    fill_games(service, tournament_id, games, rounds, seed=7)
    service.db.dispose()


def build_small(path: Path) -> None:
    """A real 60-player game (``simulate``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), DUPLICADA_DB=str(path), DUPLICADA_PIN=PIN)
    subprocess.run([sys.executable, "-m", "tui.cli", "simulate", "--players", "60", "--games", "1", "--rounds", "12",
                    "--seed", "1"], env=env, check=True, capture_output=True, text=True, cwd=ROOT)


def user_env() -> dict[str, str]:
    """This process's environment as a user's installation has it: bytecode cached
    (``PYTHONDONTWRITEBYTECODE`` would compile every module of the project again in every
    process) and no ``DUPLICADA_*`` of this shell."""
    return {key: value for key, value in os.environ.items()
            if not key.startswith("DUPLICADA_") and key != "PYTHONDONTWRITEBYTECODE"}


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_piped(args: list[str], stdin: str, env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of one process, its standard output captured."""
    cpu = child_cpu()
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "tui.cli", *args], input=stdin, capture_output=True, text=True,
                            env=env, cwd=cwd, check=False)
    wall = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"falló «duplicada {' '.join(args)}»: {result.stderr.strip()[:600]}")
    return wall, child_cpu() - cpu, result.stdout


def run_tty(args: list[str], stdin: str, env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """As ``run_piped``, standard output a pseudo-terminal (120 columns), read as it comes."""
    master, slave = pty.openpty()
    os.set_blocking(master, True)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    cpu = child_cpu()
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", *args], stdin=subprocess.PIPE, stdout=slave,
                               stderr=subprocess.PIPE, env={**env, "COLUMNS": "120", "LINES": "50"}, cwd=cwd)
    _, err = process.communicate(stdin.encode())
    wall = time.perf_counter() - started
    os.close(slave)
    reader.join(timeout=5)
    os.close(master)
    if process.returncode != 0:
        raise SystemExit(f"falló «duplicada {' '.join(args)}» (terminal): {err.decode()[:600]}")
    return wall, child_cpu() - cpu, b"".join(chunks).decode(errors="replace")


APP_MARKS = (("primer cuadro", "Torneos de esta base de datos"), ("lista de torneos", "Torneo simulado"))
"""What the app's first screen shows: its heading (the first frame drawn), then the
tournaments of the database listed (``small.db``'s is «Torneo simulado (semilla 1)»)."""

_ESCAPE = re.compile(rb"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, every thread) the live process ``pid`` has used so far
    (``/proc/PID/stat``; 0.0 where there is no ``/proc``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_app(database: Path, env: dict[str, str], cwd: Path, deadline: float = 30.0) -> dict[str, float]:
    """Seconds from launching ``duplicada tui --db DATABASE`` on a pseudo-terminal (120 × 40)
    to each of ``APP_MARKS`` appearing in what it draws (escape sequences removed), and the
    app's CPU seconds then (``LABEL CPU``, read from ``/proc``: a figure a busy machine moves
    less); the app is then killed. ``SystemExit`` when a mark is not seen within
    ``deadline`` seconds."""
    import fcntl
    import select
    import signal
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", "tui", "--db", str(database)], stdin=slave,
                               stdout=slave, stderr=slave, cwd=cwd, start_new_session=True,
                               env={**env, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"})
    os.close(slave)
    seen: dict[str, float] = {}
    drawn = b""
    try:
        while len(seen) < 2 * len(APP_MARKS) and time.perf_counter() - started < deadline:
            ready, _, _ = select.select([master], [], [], 0.01)
            if not ready:
                continue
            try:
                drawn += os.read(master, 1 << 16)
            except OSError:
                break
            text = _ESCAPE.sub(b"", drawn).decode(errors="replace")
            for label, mark in APP_MARKS:
                if label not in seen and mark in text:
                    seen[label] = time.perf_counter() - started
                    seen[f"{label} CPU"] = process_cpu(process.pid)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)
    if len(seen) < 2 * len(APP_MARKS):
        raise SystemExit(f"la aplicación no mostró {[m for l, m in APP_MARKS if l not in seen]} en {deadline:.0f} s")
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--tree", type=Path, action="append", default=None,
                        help="a checkout whose commands run (default: this one); given twice or more, the trees' "
                             "runs alternate (A B A B …) and each gets its line")
    parser.add_argument("--keep", type=Path, default=None, help="folder for the databases, reused when there")
    parser.add_argument("--tty", action="store_true", help="also the standings on a pseudo-terminal")
    parser.add_argument("--only", default="help,analyze,small,big,overall")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--show", action="store_true", help="print the first lines of each command's output")
    options = parser.parse_args()
    only = set(options.only.split(","))
    folder = options.keep or Path(tempfile.mkdtemp(prefix="duplicada-cli-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        big, small = folder / "big.db", folder / "small.db"
        if {"big", "overall"} & only and not big.exists():
            started = time.perf_counter()
            build_big(big, options.players, options.games, options.rounds)
            print(f"# big.db: {options.players} × {options.games} × {options.rounds} en "
                  f"{time.perf_counter() - started:.1f} s")
        if {"small", "app"} & only and not small.exists():
            started = time.perf_counter()
            build_small(small)
            print(f"# small.db: simulate 60 × 1 × 12 en {time.perf_counter() - started:.1f} s")
        trees = [tree.resolve() for tree in options.tree or [ROOT]]
        base = user_env()
        cases = [("help", "--help", ["--help"], "", None, 0.3),
                 ("analyze", "analyze (1 posición)", ["analyze"], POSITION, None, 0.2),
                 ("small", "standings, 60 jugadores", ["standings"], "", small, 0.3),
                 ("big", f"standings, {options.players} × {options.games}", ["standings"], "", big, 0.3),
                 ("overall", f"standings --overall, {options.players} × {options.games}",
                  ["standings", "--overall"], "", big, 0.3)]
        runners = [("", run_piped)] + ([(" [terminal]", run_tty)] if options.tty else [])
        print(f"# {options.runs} ejecuciones tras una de calentamiento, árboles alternados "
              f"({', '.join(f'{chr(65 + index)} = {tree}' for index, tree in enumerate(trees))}); "
              f"carga {os.getloadavg()[0]:.2f}")
        print(f"| {'orden':<44} | {'mejor s':>7} | {'mediana s':>9} | {'CPU s (mediana)':>15} | {'objetivo s':>10} |")
        print(f"|{'-' * 46}|{'-' * 9}:|{'-' * 11}:|{'-' * 17}:|{'-' * 12}:|")
        for key, label, args, stdin, database, goal in cases:
            if key not in only:
                continue
            for suffix, runner in runners:
                if suffix and database is None:
                    continue
                walls: dict[Path, list[float]] = {tree: [] for tree in trees}
                cpus: dict[Path, list[float]] = {tree: [] for tree in trees}
                for tree in trees:
                    env = dict(base, PYTHONPATH=str(tree))
                    if database is not None:
                        env["DUPLICADA_DB"] = str(database)
                    _, _, output = runner(args, stdin, env, tree)          # warm-up (and the bytecode cache)
                    if options.show:
                        print("\n".join(output.splitlines()[:6]))
                for _ in range(options.runs):                               # A B A B …: the same load for each
                    for tree in trees:
                        env = dict(base, PYTHONPATH=str(tree))
                        if database is not None:
                            env["DUPLICADA_DB"] = str(database)
                        wall, cpu, _ = runner(args, stdin, env, tree)
                        walls[tree].append(wall)
                        cpus[tree].append(cpu)
                for index, tree in enumerate(trees):
                    name = label + suffix + (f" ({chr(65 + index)})" if len(trees) > 1 else "")
                    median = statistics.median(walls[tree])
                    print(f"| {name:<44} | {min(walls[tree]):>7.3f} | {median:>9.3f} | "
                          f"{statistics.median(cpus[tree]):>15.3f} | {goal:>10.2f} |"
                          f"{'' if median <= goal else ' (por encima)'}", flush=True)
        if "app" in only:
            times: dict[tuple[Path, str], list[float]] = {}
            for tree in trees:
                run_app(small, dict(base, PYTHONPATH=str(tree)), tree)                    # warm-up
            for _ in range(options.runs):
                for tree in trees:
                    for label, value in run_app(small, dict(base, PYTHONPATH=str(tree)), tree).items():
                        times.setdefault((tree, label), []).append(value)
            for index, tree in enumerate(trees):
                for label, _mark in APP_MARKS:
                    values = times[(tree, label)]
                    name = f"app: {label}" + (f" ({chr(65 + index)})" if len(trees) > 1 else "")
                    median = statistics.median(values)
                    cpu = statistics.median(times[(tree, f"{label} CPU")])
                    print(f"| {name:<44} | {min(values):>7.3f} | {median:>9.3f} | {cpu:>15.3f} | {1.0:>10.2f} |"
                          f"{'' if median <= 1.0 else ' (por encima)'}", flush=True)
        print(f"# carga al final {os.getloadavg()[0]:.2f}")
    finally:
        if options.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
