"""The ``duplicada elodi`` commands (rules V; ``elodi.md``), over ``RatingService``.

* ``elodi rate GAME.json`` — the scripting interface: rate one game given as JSON, no
  database;
* ``elodi update [--game N]`` — rate the final games not rated yet (each exactly once);
* ``elodi recompute`` — replay every valid game in date order from the start values, into
  a new version of the history (the older ones stay readable);
* ``elodi list`` — the rating list; ``elodi report --game N`` — one game's report;
  ``elodi history JUGADOR`` — a player's history and peak (table, CSV or JSON); each with
  ``--version N`` to read an older version; ``elodi versions`` — the versions.

Database commands take ``--db URL`` (default: ``$DUPLICADA_DB`` or the SQLite file in the
user's data directory), like the tournament commands. ``update`` and ``recompute`` change
the rating list: they need the judge-arbiter's credential of the acting tournament
(``--pin-file`` or ``$DUPLICADA_PIN``, as every judge's action) and are logged in its
event log. Messages are in Spanish; a refused credential or action exits with status 3
(nothing changed), another refusal with status 1, bad input with status 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from duplicate.plurals import counted
from duplicate.service.errors import CredentialRefused, NotAuthorised, TournamentError
from ranking.elodi import Contestant, EloDIError, Phase, rate_game
from ranking.rating_views import GameRef, RatingError
from ranking.ratings import RatingService
from ranking.service import open_rating_service
from tui.cli.listing import emit_json, emit_rows, json_text
from tui.cli.options import (
    NUMBER,
    REFUSED_STATUS,
    db_option,
    format_option,
    pin_file_option,
    read_pin,
    station_name,
    station_option,
    tournament_option,
)

NEW = "nuevo"


class InputError(click.ClickException):
    """Bad input: exit status 2."""

    exit_code = 2


@click.group()
def elodi() -> None:
    """EloDI: escalafón de la modalidad duplicada (reglamento, sección V)."""




def _service(db: str | None, *, station: str | None = None, pin_file: Path | None = None,
             acting: bool = False) -> RatingService:
    """The rating service on ``db``: read-only, or ``acting`` with this station's credential."""
    try:
        return open_rating_service(db, station=station_name(station),
                                   pin=read_pin(pin_file) if acting else None)
    except TournamentError as error:
        raise click.ClickException(str(error)) from None


def _refused(error: TournamentError) -> click.exceptions.Exit:
    """A refused credential or action: said on stderr, exit status ``REFUSED_STATUS``."""
    click.echo(f"Denegado: {error}", err=True)
    return click.exceptions.Exit(REFUSED_STATUS)


version_option = click.option("--version", "version", type=NUMBER, default=None,
                              help="Versión del historial EloDI (por defecto, la actual; ver «elodi versions»).")


# --- rate (scripting interface) --------------------------------------------------------------
EXPECTED = ('{"players": [{"name": texto, "rating": entero o null, "volatility": entero o null, '
            '"games": entero, "position": entero}, ...]}')


GAME_FILE_MAX_BYTES = 10_000_000
"""The largest ``rate`` input read (a game of thousands of players is well under it)."""


def _json_integer(text: str) -> int:
    """A JSON integer of at most 18 digits (ratings, games, positions); ``ValueError`` beyond."""
    if len(text.lstrip("-")) > 18:
        raise ValueError(text[:20])
    return int(text)


def _read_game(path: Path) -> list[Contestant[str]]:
    """The players of a ``rate`` input file, keyed by name; raises ``InputError`` naming the
    file, the player and the field."""
    from duplicate.input_files import InputFileError, read_text

    try:
        data = json.loads(read_text(path, what="una partida en JSON", limit=GAME_FILE_MAX_BYTES),
                          parse_int=_json_integer)
    except InputFileError as error:
        raise InputError(str(error)) from None
    except json.JSONDecodeError as error:
        raise InputError(f"{path}: no es JSON válido (línea {error.lineno}, columna {error.colno}: {error.msg}); "
                         f"se espera {EXPECTED}") from None
    except RecursionError:
        raise InputError(f"{path}: el JSON anida demasiados niveles; se espera {EXPECTED}") from None
    except ValueError:                          # an integer too long for _json_integer
        raise InputError(f"{path}: un número de más de 18 cifras; se espera {EXPECTED}") from None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise InputError(f"{path}: se espera un objeto con la lista «players»: {EXPECTED}")
    players = []
    names: set[str] = set()
    for index, item in enumerate(data["players"], start=1):
        where = f"{path}: jugador {index}"
        if not isinstance(item, dict):
            raise InputError(f"{where}: se espera un objeto {{\"name\", \"rating\", \"volatility\", \"games\", "
                             f"\"position\"}}, no {json_text(item, indent=None)}")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{where}: «name» debe ser un texto no vacío")
        where = f"{path}: jugador {index} («{name}»)"
        if name in names:
            raise InputError(f"{where}: el nombre está repetido")
        names.add(name)
        values: dict[str, int | None] = {}
        for key, nullable, minimum in (("rating", True, 1), ("volatility", True, 1), ("games", False, 0),
                                       ("position", False, 1)):
            if key not in item:
                raise InputError(f"{where}: falta «{key}»")
            value = item[key]
            if value is None and nullable:
                values[key] = None
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                kind = f"un entero ≥ {minimum}" + (" o null" if nullable else "")
                raise InputError(f"{where}: «{key}» debe ser {kind}, no {json_text(value, indent=None)}")
            values[key] = value
        players.append(Contestant(name, float(values["position"] or 0), values["rating"], values["volatility"],
                                  values["games"] or 0))
    return players


@elodi.command("rate")
@click.argument("path", metavar="GAME.json", type=click.Path(dir_okay=False, path_type=Path))
def rate(path: Path) -> None:
    """Calcula el EloDI de una partida descrita en GAME.json (sin base de datos).

    Entrada: {"players": [{"name", "rating" (null = nuevo), "volatility", "games",
    "position" (igual para empatados)}]}. Salida (JSON): {"players": [{"name", "rating",
    "volatility", "games", "target_position", "change"}]}, en el orden de la entrada.
    """
    players = _read_game(path)
    try:
        outcomes = rate_game(players)
    except EloDIError as error:
        raise InputError(f"{path}: {error}") from None
    result = []
    for outcome in outcomes:
        still_new = outcome.phase is Phase.UNCHANGED and outcome.rating_before is None
        result.append({"name": outcome.key,
                       "rating": None if still_new else outcome.rating_after,
                       "volatility": None if still_new else outcome.volatility_after,
                       "games": outcome.games_after,
                       "target_position": (round(outcome.target_position, 2)
                                           if outcome.target_position is not None else None),
                       "change": outcome.change})
    emit_json({"players": result})


# --- database commands --------------------------------------------------------------------------
@elodi.command("update")
@db_option
@tournament_option
@station_option
@pin_file_option
@click.option("--game", "game_number", type=NUMBER, default=None,
              help="Solo esta partida del torneo (por defecto, todas las pendientes).")
def update(db: str | None, tournament_id: int | None, station: str | None, pin_file: Path | None,
           game_number: int | None) -> None:
    """Valora las partidas con resultados definitivos aún no valoradas (cada una, una sola vez).

    Necesita el PIN del juez árbitro del torneo (--tournament, por defecto el último)."""
    service = _service(db, station=station, pin_file=pin_file, acting=True)
    try:
        game = service.game_ref(game_number, tournament_id) if game_number is not None else None
        result = service.update(game, tournament_id=tournament_id)
    except (NotAuthorised, CredentialRefused) as error:
        raise _refused(error) from None
    except TournamentError as error:
        raise click.ClickException(str(error)) from None
    for ref, reason in result.skipped:
        click.echo(f"No se valora {ref.label}: {reason}.")
    if result.recomputed:
        click.echo("Hay una partida anterior a otras ya valoradas: se ha recalculado todo el EloDI.")
    for ref in result.rated:
        click.echo(f"Valorada {ref.label}.")
    if not result.rated and not result.skipped:
        click.echo("No hay partidas pendientes de valorar.")
    for ref in result.stale:
        click.echo(f"Atención: {ref.label} ha cambiado desde que se valoró; ejecute «duplicada elodi recompute».")


@elodi.command("recompute")
@db_option
@tournament_option
@station_option
@pin_file_option
@click.option("--reread", is_flag=True,
              help="Volver a leer la clasificación de todas las partidas (por defecto, solo las publicadas de nuevo).")
def recompute(db: str | None, tournament_id: int | None, station: str | None, pin_file: Path | None,
              reread: bool) -> None:
    """Recalcula todo el EloDI: repite cada partida válida por orden de fecha desde 1200/535.

    El resultado es una versión nueva del historial; las anteriores se conservan (elodi
    versions). Necesita el PIN del juez árbitro del torneo (--tournament, por defecto el último)."""
    service = _service(db, station=station, pin_file=pin_file, acting=True)
    try:
        games = service.recompute(reread=reread, tournament_id=tournament_id)
    except (NotAuthorised, CredentialRefused) as error:
        raise _refused(error) from None
    except TournamentError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"EloDI recalculado: {counted(len(games), 'partida valorada')} "
               f"(versión {service.current_version()} del historial).")


@elodi.command("versions")
@db_option
@format_option
def versions(db: str | None, output: str) -> None:
    """Versiones del historial EloDI: número, tipo, fecha, puesto, juez, partidas valoradas."""
    lines = _service(db).versions()
    kinds = {"update": "actualización", "recompute": "recálculo"}
    rows = [{"version": line.number, "tipo": line.kind if output == "json" else kinds.get(line.kind, line.kind),
             "fecha": line.created_at.isoformat(timespec="seconds"), "puesto": line.station, "juez": line.arbiter,
             "partidas": line.games, "actual": _yes(line.current, output)}
            for line in lines]
    emit_rows(rows, output)


@elodi.command("list")
@db_option
@format_option
@click.option("--club", default=None, help="Solo los jugadores de este club.")
@click.option("--country", default=None, help="Solo los jugadores de este país.")
@click.option("--no-new", "rated_only", is_flag=True, help="Sin los jugadores nuevos (sin partidas valoradas).")
@version_option
def rating_list(db: str | None, output: str, club: str | None, country: str | None, rated_only: bool,
                version: int | None) -> None:
    """Escalafón EloDI: posición, nombre, club/país, EloDI, volatilidad, partidas, última partida."""
    try:
        lines = _service(db).rating_list(club=club, country=country, include_new=not rated_only, version=version)
    except RatingError as error:
        raise click.ClickException(str(error)) from None
    rows = [{"posicion": line.position, "nombre": line.name, "club": line.club, "pais": line.country,
             "elodi": line.rating if line.rating is not None else (None if output == "json" else NEW),
             "volatilidad": line.volatility, "partidas": line.games,
             "ultima_partida": _game_text(line.last_game)}
            for line in lines]
    if output == "json":
        for row, line in zip(rows, lines, strict=True):
            row["nuevo"] = line.rating is None
    emit_rows(rows, output, numeric_text=(NEW,))


@elodi.command("report")
@db_option
@tournament_option
@click.option("--game", "game_number", type=NUMBER, required=True, help="Número de la partida en el torneo.")
@format_option
@version_option
def report(db: str | None, tournament_id: int | None, game_number: int, output: str, version: int | None) -> None:
    """Informe EloDI de una partida: valores previos, posición objetivo y real, cambio, valores nuevos."""
    service = _service(db)
    try:
        ref = service.game_ref(game_number, tournament_id)
        lines = service.game_report(ref, version=version)
    except RatingError as error:
        raise click.ClickException(str(error)) from None
    rows = [{"nombre": line.name, "puntos": line.total,
             "elodi_antes": line.rating_before if line.rating_before is not None or output == "json" else NEW,
             "volatilidad_antes": line.volatility_before,
             "objetivo": _position(line.target_position), "posicion": _position(line.actual_position),
             "cambio": line.change, "elodi": line.rating_after, "volatilidad": line.volatility_after,
             "partidas": line.games_after, "tope": _yes(line.cap_bound, output)}
            for line in lines]
    if output == "table":
        click.echo(f"EloDI — {ref.label}")
    emit_rows(rows, output, numeric_text=(NEW,))


@elodi.command("history")
@db_option
@click.argument("player")
@format_option
@version_option
def history(db: str | None, player: str, output: str, version: int | None) -> None:
    """Historial EloDI de JUGADOR (id, número de federación o nombre) y su máximo."""
    service = _service(db)
    try:
        player_id, name = service.find_player(player)
        lines = service.player_history(player_id, version=version)
    except RatingError as error:
        raise click.ClickException(str(error)) from None
    rows = [{"partida": _game_text(line.game), "elodi_antes": line.rating_before,
             "objetivo": _position(line.target_position), "posicion": _position(line.actual_position),
             "cambio": line.change, "elodi": line.rating_after, "volatilidad": line.volatility_after,
             "tope": _yes(line.cap_bound, output)}
            for line in lines]
    if output == "table":
        peak = max((line.rating_after for line in lines), default=None)
        click.echo(f"{name}: " + (f"{counted(len(lines), 'partida valorada')}, máximo {peak}" if peak is not None else NEW))
    emit_rows(rows, output, numeric_text=(NEW,))


def _game_text(ref: GameRef | None) -> str:
    return f"{ref.tournament} #{ref.number} ({ref.day.isoformat()})" if ref is not None else ""


def _position(value: float | None) -> float | None:
    return round(value, 2) if value is not None else None


def _yes(value: bool, output: str) -> bool | str:
    return value if output == "json" else ("sí" if value else "")
