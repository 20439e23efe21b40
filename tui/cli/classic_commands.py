"""``duplicada classic pair|check|berger``: the scripting interface of classic events.

``pair`` writes the next round of a TRF-16 file in the bbpPairings/JaVaFo format (the number
of pairs, then ``WHITE BLACK`` per pair, a bye as ``N 0``); ``check`` re-pairs every
completed round and exits 0 only if each is the one the system gives; ``berger`` prints the
Berger round-robin schedule. The pairing itself is the engines' (``ranking.classic``).
"""

from __future__ import annotations

from duplicate.plurals import counted

from pathlib import Path

import click

from ranking.classic.engines import (
    SYSTEM_NAMES,
    EngineUnavailable,
    PairingError,
    PairingSystem,
    berger_schedule,
    pair_next_round,
)
from ranking.classic.replay import check_tournament
from ranking.classic.trf import Trf, TrfError, decode, read_trf

MAX_TRF_BYTES = 5_000_000
system_option = click.option("--system", "system", type=click.Choice([s.value for s in PairingSystem]),
                             default=PairingSystem.DUTCH.value, show_default=True,
                             help="Sistema suizo: dutch (C.04.3), dutch-2026, dubov, burstein.")


@click.group()
def classic() -> None:
    """Torneos clásicos (dos jugadores por tablero): emparejamientos suizos y Berger."""


def _read(path: Path) -> Trf:
    """The TRF at ``path``; a file that cannot be read ends the command with a Spanish message."""
    try:
        if path.stat().st_size > MAX_TRF_BYTES:
            raise click.ClickException(f"{path}: el archivo pasa de 5 MB; no parece un TRF")
        return read_trf(decode(path.read_bytes()))
    except TrfError as error:
        raise click.ClickException(f"{path}: {error}") from None
    except OSError as error:
        raise click.ClickException(f"{path}: no se puede leer ({error.strerror})") from None


@classic.command("pair")
@click.argument("trf", type=click.Path(dir_okay=False, path_type=Path))
@system_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Archivo de salida (por defecto, la salida estándar).")
def classic_pair(trf: Path, system: str, output: Path | None) -> None:
    """Empareja la ronda siguiente del torneo del archivo TRF-16."""
    tournament = _read(trf)
    try:
        # XXP pairs apply only in the rounds XXK names, when it is there (duplicada's exports).
        pairs = pair_next_round(tournament.for_round(tournament.rounds_played + 1), PairingSystem(system))
    except PairingError as error:
        raise click.ClickException(f"{trf}: {error}") from None
    text = f"{len(pairs)}\n" + "".join(f"{pair.text()}\n" for pair in pairs)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"Ronda {tournament.rounds_played + 1}: {counted(len(pairs), 'emparejamiento')} en {output}.", err=True)


@classic.command("check")
@click.argument("trf", type=click.Path(dir_okay=False, path_type=Path))
@system_option
def classic_check(trf: Path, system: str) -> None:
    """Comprueba que cada ronda del archivo es la que da el sistema a partir de las anteriores.

    Sale con 0 si todas lo son; si no, con 1, nombrando la primera ronda distinta y por qué."""
    tournament = _read(trf)
    chosen = PairingSystem(system)
    if tournament.total_rounds is None:
        raise click.ClickException(f"{trf}: falta el número de rondas del torneo (línea XXR)")
    try:
        checked, difference = check_tournament(tournament, chosen)
    except EngineUnavailable as error:
        raise click.ClickException(str(error)) from None
    if difference is None:
        click.echo(f"{trf}: las {checked} rondas son las del {SYSTEM_NAMES[chosen]}.")
        return
    click.echo(f"{trf}: la ronda {difference.number} no es la del {SYSTEM_NAMES[chosen]}:")
    for reason in difference.reasons:
        click.echo(f"  - {reason}")
    raise SystemExit(1)


@classic.command("berger")
@click.argument("players", type=click.IntRange(2, 500))
def classic_berger(players: int) -> None:
    """Calendario Berger (FIDE C.05, anexo 1) para JUGADORES jugadores: una ronda por línea,
    «RONDA: a-b c-d …», el primero de cada pareja empieza; «n-0» es el descanso de n."""
    for number, pairs in enumerate(berger_schedule(players), start=1):
        click.echo(f"{number}: " + " ".join(f"{p.first}-{p.second}" for p in pairs))


# The commands of events stored in the database (division, players, pair-round, result…).
from tui.cli.classic_event_commands import EVENT_COMMANDS  # noqa: E402

for _command in EVENT_COMMANDS:
    classic.add_command(_command)
