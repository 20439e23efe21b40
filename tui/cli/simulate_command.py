"""``duplicada simulate``: a realistic tournament in the database, for demos and tests."""

from __future__ import annotations

import random
import time
from pathlib import Path

import click

from duplicate.rules.bonuses import BonusMode
from duplicate.rules.tournament_standings import TournamentCriterion
from duplicate.service.facade import TournamentService
from duplicate.service.settings import TournamentSettings
from duplicate.simulate import simulate_tournament
from lexicon.lexicon import Lexicon
from tui.cli.options import BONUS_MODE, CRITERION, NUMBER, SEED, db_option, lexicon_option, pin_file_option, read_pin


def _decimal(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}".replace(".", ",")


def _count(number: int, singular: str, plural: str) -> str:
    return f"{number} {singular if number == 1 else plural}"


@click.command("simulate")
@click.option("--players", type=click.IntRange(1, 10_000), default=60, show_default=True, help="Número de jugadores.")
@click.option("--games", type=click.IntRange(1, 100), default=3, show_default=True, help="Número de partidas.")
@click.option("--seed", type=SEED, default=None,
              help="Semilla: la misma semilla da el mismo torneo (por defecto, una al azar, que se muestra).")
@click.option("--rounds", type=NUMBER, default=None,
              help="Rondas por partida (por defecto, a bolsa completa, III.21).")
@click.option("--name", default=None, help="Nombre del torneo (por defecto, «Torneo simulado (semilla S)»).")
@click.option("--bonus", type=BONUS_MODE, default="sin",
              show_default=True, help="Bonificaciones (III.24).")
@click.option("--criterion", type=CRITERION,
              default="suma", show_default=True, help="Clasificación del torneo (IV.31).")
@db_option
@lexicon_option
@pin_file_option
def simulate(players: int, games: int, seed: int | None, rounds: int | None, name: str | None, bonus: str,
             criterion: str, db: str | None, lexicon_path: Path | None, pin_file: Path | None) -> None:
    """Simula un torneo duplicado realista en la base de datos: jugadores de distinto
    nivel entregan papeletas con los errores habituales, por las mismas vías que el
    arbitraje real."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    from duplicate.service.errors import TournamentError
    from duplicate.service.opening import open_service
    from lexicon.default import default_lexicon_path
    from lexicon.lexicon import LexiconError

    pin = read_pin(pin_file, prompt="PIN del juez árbitro del torneo simulado")
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
        click.echo(f"Semilla: {seed}", err=True)
    try:
        lexicon = Lexicon.load(lexicon_path or default_lexicon_path(lambda text: click.echo(text, err=True)))
        service = open_service(db, station="simulador", lexicon=lexicon, pin=pin)
    except (TournamentError, LexiconError) as error:
        raise click.ClickException(str(error)) from None
    settings = TournamentSettings(bonus_mode=bonus, criterion=criterion)
    started = time.perf_counter()
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=False) as progress:
        overall = progress.add_task("Partidas", total=games)
        tasks: dict[int, TaskID] = {}

        def on_round(game: int, round_number: int, planned: int | None) -> None:
            if game not in tasks:
                if tasks:
                    progress.advance(overall)
                tasks[game] = progress.add_task(f"Partida {game}", total=planned)
            progress.update(tasks[game], completed=round_number,
                            description=f"Partida {game}, ronda {round_number}")

        try:
            tournament_id = simulate_tournament(service, players=players, games=games, seed=seed, rounds=rounds,
                                                name=name, settings=settings, on_round=on_round)
        except (TournamentError, ValueError) as error:
            raise click.ClickException(str(error)) from None
        progress.update(overall, completed=games)
    elapsed = time.perf_counter() - started
    _print_summary(service, tournament_id, games, elapsed)


def _print_summary(service: TournamentService, tournament_id: int, games: int, elapsed: float) -> None:
    """The Spanish summary: counts, time and the top 5 of the tournament standings."""
    tournament = service.tournament(tournament_id)
    names = {entry.id: player.name for entry, player in service.entries(tournament_id)}
    game_numbers = list(range(1, games + 1))
    round_count = sum(len(service.rounds(number, tournament_id)) for number in game_numbers)
    slip_count = sum(len(service.slips(number, tournament_id=tournament_id)) for number in game_numbers)
    click.echo(f"Torneo «{tournament.name}» (id {tournament_id}): {_count(len(names), 'jugador', 'jugadores')}, "
               f"{_count(len(game_numbers), 'partida', 'partidas')}, {_count(round_count, 'ronda', 'rondas')}, "
               f"{_count(slip_count, 'papeleta', 'papeletas')}, en {_decimal(elapsed, 1)} s.")
    criterion = TournamentSettings.from_dict(tournament.settings).criterion
    click.echo("Clasificación (5 primeros):")
    for line in service.tournament_standings(tournament_id)[:5]:
        value = "" if criterion == TournamentCriterion.TOTAL.value else f", valor {_decimal(line.value, 2)}"
        click.echo(f"  {line.position:>3}. {names[line.player]}: {line.total} puntos "
                   f"({_decimal(line.percentage)} % de la maestra{value})")
