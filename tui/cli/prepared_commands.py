"""Prepared games (III.15, last paragraph: «duplicada maestra»): make one, from a seed with
quality filters or from a game of a tournament record, and check one independently.

``duplicada game start --prepared FILE`` plays one (``tui.cli.game_commands``). The file's
format is ``docs/prepared-games.md``; the work is ``duplicate.prepared``'s.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tui.cli.listing import say
from tui.cli.options import NUMBER, SEED, Bounded, lexicon_option, load_lexicon

if TYPE_CHECKING:
    from duplicate.prepared.file import PreparedGame
    from lexicon.lexicon import Lexicon

CHECK_UNREADABLE = 2
"""Exit status of ``prepared check`` when the file (or the lexicon) cannot be read."""


@click.group()
def prepared() -> None:
    """Partidas preparadas (duplicada maestra, III.15): crear, comprobar."""


def _lexicon_for(path: Path | None, lexicon_hash: str | None) -> Lexicon:
    """The lexicon at ``path``, else the shipped default with ``lexicon_hash`` (current or
    earlier, issue 15), else the current default."""
    if path is None and lexicon_hash is not None:
        from lexicon.default import earlier_default_path

        path = earlier_default_path(lexicon_hash, lambda message: click.echo(message, err=True))
    return load_lexicon(path)


def _write(game: PreparedGame, out: Path) -> None:
    try:
        out.write_text(game.to_json(), encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"no se puede escribir {out}: {error.strerror or error}") from None
    bingos = f"{game.bingos} scrabble{'s' if game.bingos != 1 else ''}"
    click.echo(f"Partida preparada escrita en {out}: semilla {game.seed}, {len(game.rounds)} rondas, "
               f"{game.total} puntos, {bingos}.")
    click.echo(f"Resumen SHA-256: {game.digest}")


@prepared.command("create")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Archivo JSON de la partida preparada.")
@click.option("--seed", type=SEED, default=None, help="Semilla de la bolsa (por defecto, al azar).")
@click.option("--rounds", type=NUMBER, default=None, help="Rondas pactadas (por defecto, bolsa completa).")
@click.option("--min-total", type=Bounded(0, 10**6), default=None, help="Total mínimo de las maestras (puntos).")
@click.option("--min-rounds", type=NUMBER, default=None, help="Rondas mínimas de la partida.")
@click.option("--max-rounds", type=NUMBER, default=None, help="Rondas máximas de la partida.")
@click.option("--min-bingos", type=Bounded(0, 100), default=None, help="Scrabbles mínimos entre las maestras.")
@click.option("--attempts", type=Bounded(1, 10_000), default=50, show_default=True,
              help="Semillas que se prueban como mucho hasta cumplir los filtros.")
@click.option("--from-record", "record_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Tomarla de una partida ya jugada de este registro de torneo (con --game).")
@click.option("--game", "game_number", type=NUMBER, default=None, help="Partida del registro (con --from-record).")
@click.option("--from-eliot", "eliot_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Tomarla de una partida guardada por Eliot (XML, modo duplicate o arbitration).")
@lexicon_option
def prepared_create(out: Path, seed: int | None, rounds: int | None, min_total: int | None, min_rounds: int | None,
                    max_rounds: int | None, min_bingos: int | None, attempts: int, record_path: Path | None,
                    game_number: int | None, eliot_path: Path | None, lexicon_path: Path | None) -> None:
    """Genera una partida preparada (atriles y maestras fijados, III.15) y la escribe en -o."""
    if eliot_path is not None:
        chosen = [name for name, value in (("--seed", seed), ("--rounds", rounds), ("--min-total", min_total),
                                           ("--min-rounds", min_rounds), ("--max-rounds", max_rounds),
                                           ("--min-bingos", min_bingos), ("--from-record", record_path),
                                           ("--game", game_number)) if value is not None]
        if chosen:
            raise click.UsageError(f"con --from-eliot no se usa {', '.join(chosen)}: la partida es la del archivo")
        from duplicate.prepared.eliot_xml import load_eliot
        from duplicate.prepared.file import PreparedError

        try:
            game = load_eliot(eliot_path, load_lexicon(lexicon_path))
        except PreparedError as error:
            raise click.ClickException(str(error)) from None
        _write(game, out)
        return
    if record_path is not None:
        if game_number is None:
            raise click.UsageError("con --from-record hay que indicar la partida: --game N")
        chosen = [name for name, value in (("--seed", seed), ("--rounds", rounds), ("--min-total", min_total),
                                           ("--min-rounds", min_rounds), ("--max-rounds", max_rounds),
                                           ("--min-bingos", min_bingos)) if value is not None]
        if chosen:
            raise click.UsageError(f"con --from-record no se usa {', '.join(chosen)}: la partida es la del registro")
        _from_record(record_path, game_number, out, lexicon_path)
        return
    if game_number is not None:
        raise click.UsageError("--game solo se usa con --from-record")
    import secrets

    from duplicate.prepared.file import PreparedError
    from duplicate.prepared.generation import QualityFilters, generate_filtered

    lexicon = load_lexicon(lexicon_path)
    try:
        filters = QualityFilters(min_total, min_rounds, max_rounds, min_bingos)
        game = generate_filtered(lexicon, secrets.randbelow(10**9) if seed is None else seed, rounds, filters,
                                 attempts=attempts)
    except PreparedError as error:
        raise click.ClickException(str(error)) from None
    _write(game, out)


@prepared.command("from-record")
@click.argument("record_path", metavar="REGISTRO", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--game", "game_number", type=NUMBER, required=True, help="Partida del registro.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Archivo JSON de la partida preparada.")
@lexicon_option
def prepared_from_record(record_path: Path, game_number: int, out: Path, lexicon_path: Path | None) -> None:
    """Toma como partida preparada la partida --game ya jugada del registro REGISTRO
    (igual que «prepared create --from-record»)."""
    _from_record(record_path, game_number, out, lexicon_path)


def _from_record(record_path: Path, game_number: int, out: Path, lexicon_path: Path | None) -> None:
    from duplicate.prepared.file import PreparedError
    from duplicate.prepared.generation import from_record
    from duplicate.record.reading import RecordError, load_record

    try:
        record = load_record(record_path)
    except RecordError as error:
        raise click.ClickException(str(error)) from None
    lexicon = _lexicon_for(lexicon_path, str(record["tournament"]["lexicon_hash"]))
    try:
        game = from_record(record, game_number, lexicon)
    except PreparedError as error:
        raise click.ClickException(f"{record_path}: {error}") from None
    _write(game, out)


@prepared.command("publish")
@click.argument("path", metavar="ARCHIVO", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Carpeta donde escribir la página (repeticion.html y estilo.css).")
@click.option("--title", default="", help="Título de la página (por defecto, el resumen de la partida).")
def prepared_publish(path: Path, out: Path, title: str) -> None:
    """Página estática de repetición de una partida preparada: cada ronda con su atril, su
    jugada maestra, sus puntos y el tablero tras ella; sin JavaScript, enlaces relativos."""
    from duplicate.prepared.file import PreparedFileError, load_prepared
    from duplicate.publishing.site import publish_prepared

    try:
        game, _data = load_prepared(path)
    except PreparedFileError as error:
        raise click.ClickException(str(error)) from None
    try:
        page = publish_prepared(game, out, title=title)
    except OSError as error:
        raise click.ClickException(f"no se puede escribir en {out}: {error.strerror or error}") from None
    click.echo(f"Página de repetición escrita en {page} ({len(game.rounds)} rondas).")


@prepared.command("check")
@click.argument("path", metavar="ARCHIVO", type=click.Path(dir_okay=False, path_type=Path))
@lexicon_option
def prepared_check(path: Path, lexicon_path: Path | None) -> None:
    """Comprobador independiente de una partida preparada: su resumen, cada atril sacado de
    la bolsa en orden, cada maestra válida, de máxima puntuación y con sus puntos. Sale con
    0 si está bien, 1 nombrando la primera ronda mala, 2 si no se puede leer."""
    from duplicate.prepared.file import PreparedFileError, load_prepared
    from duplicate.prepared.check import check_prepared

    try:
        game, data = load_prepared(path)
    except PreparedFileError as error:
        click.echo(f"Error: {error}")
        sys.exit(CHECK_UNREADABLE)
    try:
        lexicon = _lexicon_for(lexicon_path, game.lexicon_hash)
    except click.ClickException as error:
        click.echo(f"Error: {error.message}")
        sys.exit(CHECK_UNREADABLE)
    problems = check_prepared(data, lexicon)
    if not problems:
        click.echo(f"{path}: correcta: {len(game.rounds)} rondas, {game.total} puntos, {game.bingos} scrabbles; "
                   f"resumen {game.digest[:16]}…")
        return
    rounds = [problem.round for problem in problems if problem.round is not None]
    first = f"; primera ronda mala: {rounds[0]}" if rounds else ""
    click.echo(f"{path}: {len(problems)} problema{'s' if len(problems) != 1 else ''}{first}:")
    for problem in problems:
        say(f"- {problem}")
    sys.exit(1)
