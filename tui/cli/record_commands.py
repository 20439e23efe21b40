"""Standings, the tournament record (export, verify) and the history."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from duplicate.plurals import counted
from tui.cli.listing import emit_rows, say
from tui.cli.options import (
    PIN_ENV,
    Context,
    SpanishChoice,
    common,
    format_option,
    game_option,
    lexicon_option,
)


if TYPE_CHECKING:
    from duplicate.service.facade import TournamentService


# --- standings, export, verify, history -------------------------------------------------------------------------
@click.command()
@game_option
@click.option("--overall", is_flag=True, help="Clasificación del torneo (IV.31) en lugar de la de una partida.")
@click.option("--rounds", "per_round", is_flag=True, help="Con el detalle por ronda.")
@click.option("--venue", "venue", default=None,
              help="Solo los jugadores de esta sede (torneo jugado en varias sedes, con las importadas).")
@format_option
@common
def standings(context: Context, game_number: int | None, overall: bool, per_round: bool, venue: str | None,
              output: str) -> None:
    """Clasificación de una partida (III.23) o del torneo (--overall, IV.31).

    Con sedes importadas (``duplicada venue import``), la de todos los jugadores de todas
    las sedes juntos, con la columna «sede» (bonificaciones, III.24, sobre todo el campo);
    con --venue, la de esa sede."""
    service = context.service
    if venue is not None or service.venues(context.tournament):
        _venue_standings(context, game_number, overall, per_round, venue, output)
        return
    names = service.entry_names(context.tournament)
    rows: list[dict[str, Any]] = []
    if overall:
        for line in service.tournament_standings(context.tournament):
            rows.append({"puesto": line.position, "jugador": names[line.player], "valor": round(line.value, 4),
                         "total": line.total, "bonificaciones": line.bonus_total,
                         "porcentaje": round(line.percentage, 2), "partidas": line.games_played,
                         "puestos": " ".join("-" if place is None else str(place) for place in line.places)})
    else:
        from duplicate.rules.game_standings import tied_on_total

        number = context.game(game_number)
        lines = service.game_standings(number, context.tournament)
        # III.28's counts only where a tie-break was announced and a tie leaves the place to
        # them (issue 25 §5); the columns stay, empty for the others.
        tied = tied_on_total(lines) if service.settings(context.tournament).tie_breaks else frozenset()
        for standing in lines:
            shown = standing.player in tied
            row = {"puesto": standing.position, "jugador": names[standing.player], "total": standing.total,
                   "puntos": standing.round_total, "bonificaciones": standing.bonus_total,
                   "porcentaje": round(standing.percentage, 2),
                   "iguala_maestra": standing.equal_master if shown else "",
                   "unico_maximo": standing.sole_top if shown else "",
                   "mayor_diferencia": standing.max_deficit if shown else ""}
            if per_round:
                for index, (points, bonus) in enumerate(zip(standing.per_round, standing.bonuses_per_round,
                                                            strict=True), start=1):
                    row[f"r{index}"] = f"{points}+{bonus}" if bonus else points
            rows.append(row)
    emit_rows(rows, output, digits=_digits(context))


def _digits(context: Context) -> dict[str, int]:
    """The decimals a table shows (``emit_rows``): a percentage of the master with 2, as every
    page and sheet; the criterion's value with 2 unless it is a sum of points (IV.31)."""
    from duplicate.rules.tournament_standings import TournamentCriterion

    total = context.service.settings(context.tournament).criterion == TournamentCriterion.TOTAL.value
    return {"porcentaje": 2} if total else {"porcentaje": 2, "valor": 2}


def _venue_standings(context: Context, game_number: int | None, overall: bool, per_round: bool,
                     venue: str | None, output: str) -> None:
    """``standings`` of the whole field of a tournament played in several venues (issue 27 §2)."""
    service = context.service
    names = service.venue_field_names(context.tournament)
    rows: list[dict[str, Any]] = []
    if overall:
        for line in service.venue_tournament_standings(venue, context.tournament):
            rows.append({"puesto": line.position, "sede": line.player[0], "jugador": names.get(line.player, ""),
                         "valor": round(line.value, 4), "total": line.total, "bonificaciones": line.bonus_total,
                         "porcentaje": round(line.percentage, 2), "partidas": line.games_played,
                         "puestos": " ".join("-" if place is None else str(place) for place in line.places)})
    else:
        number = context.game(game_number)
        for standing in service.venue_game_standings(number, venue, context.tournament):
            row = {"puesto": standing.position, "sede": standing.player[0],
                   "jugador": names.get(standing.player, ""), "total": standing.total,
                   "puntos": standing.round_total, "bonificaciones": standing.bonus_total,
                   "porcentaje": round(standing.percentage, 2), "iguala_maestra": standing.equal_master,
                   "unico_maximo": standing.sole_top, "mayor_diferencia": standing.max_deficit}
            if per_round:
                for index, (points, bonus) in enumerate(zip(standing.per_round, standing.bonuses_per_round,
                                                            strict=True), start=1):
                    row[f"r{index}"] = f"{points}+{bonus}" if bonus else points
            rows.append(row)
    emit_rows(rows, output, digits=_digits(context))


@click.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "kind", type=SpanishChoice({"registro": "record", "eliot": "eliot"}), default="registro", show_default=True,
              help="record: el registro completo del torneo (JSON); eliot: una partida como partida guardada de "
                   "Eliot (XML, modo arbitration; con --game).")
@click.option("--eliot-dictionary", "eliot_dictionary", metavar="ARCHIVO",
              type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Con --format eliot: el diccionario de Eliot (.dawg) con que se abrirá la partida; su cabecera da "
                   "el bloque Dictionary (sin él no se escribe: Eliot rechaza uno que no sea el suyo).")
@game_option
@common
def export(context: Context, out: Path, kind: str, eliot_dictionary: Path | None, game_number: int | None) -> None:
    """Escribe el registro completo del torneo (JSON) en SALIDA, o con --format eliot una partida en XML de Eliot."""
    if kind == "eliot":
        _export_eliot(context, out, game_number, eliot_dictionary)
        return
    if eliot_dictionary is not None:
        raise click.UsageError("--eliot-dictionary solo se usa con --format eliot")
    if game_number is not None:
        raise click.UsageError("--game solo se usa con --format eliot: el registro (JSON) lleva todo el torneo")
    # Streamed game by game and event by event (issue 26 §3), into a file beside OUT renamed
    # over it at the end: a failed export leaves no half-written record.
    partial = out.with_name(f".{out.name}.{os.getpid()}.parcial")
    try:
        with partial.open("w", encoding="utf-8") as handle:
            written = _signing_service(context).write_export(handle, context.tournament)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    click.echo(f"Registro del torneo escrito en {out} ({counted(written.games, 'partida')}, "
               f"{counted(written.events, 'evento')}).")
    # The head of the chain of events (issue 26 §2): noted at the venue, it shows later that
    # a record is this one, not a log rewritten from some event on.
    click.echo(f"Cabeza de la cadena de eventos: {written.head}")
    if written.fingerprint is not None:
        click.echo(f"Firmado con la clave del torneo, huella {written.fingerprint}.")
    else:
        click.echo("Registro sin firmar: firma solo el juez árbitro del torneo (su PIN con --pin-file o "
                   "$DUPLICADA_PIN) con la clave de este torneo en esta instalación («duplicada tournament key» la "
                   "crea si falta); una sede con clave registrada no se importa sin firma.")


def _signing_service(context: Context) -> TournamentService:
    """The handle ``export`` writes with: the station's credential when one is given
    (``--pin-file``, ``$DUPLICADA_PIN``; the judge's signs the record, issue 35 §2), else
    the read-only handle (the record is written unsigned: no prompt, scripts keep working)."""
    if context.pin_file is not None or os.environ.get(PIN_ENV):
        return context.acting
    return context.service


def _export_eliot(context: Context, out: Path, game_number: int | None, dictionary_path: Path | None) -> None:
    """``export --format eliot``: game ``--game`` (default: the one in play) as Eliot XML,
    written beside OUT and renamed over it (no half-written file); what Eliot cannot hold
    as it was played is printed as «Aviso:» lines (issue 35 §3)."""
    from duplicate.publishing.eliot_dictionary import EliotDictionaryError, read_eliot_dictionary
    from duplicate.publishing.eliot_export import eliot_game

    dictionary = None
    if dictionary_path is not None:
        try:
            dictionary = read_eliot_dictionary(dictionary_path)
        except EliotDictionaryError as error:
            raise click.UsageError(f"--eliot-dictionary: {error}") from None
    number = context.game(game_number)
    export = eliot_game(context.service, number, context.tournament, dictionary=dictionary)
    partial = out.with_name(f".{out.name}.{os.getpid()}.parcial")
    try:
        partial.write_bytes(export.data)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    click.echo(f"Partida {number} escrita en {out} (XML de Eliot, formato 2, modo arbitration).")
    if dictionary is None:
        click.echo("Sin bloque Dictionary: Eliot la abre con el diccionario que tenga cargado "
                   "(con --eliot-dictionary ARCHIVO se comprueba que sea ese).")
    else:
        click.echo(f"Diccionario de Eliot: {dictionary.name} ({dictionary.word_count} palabras).")
    for warning in export.warnings:
        click.echo(f"Aviso: {warning}")


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@lexicon_option
@click.option("--head", "head", metavar="RESUMEN", callback=lambda _c, _p, value: _chain_head(value),
              help="Cabeza de la cadena de eventos anotada al exportar: el registro debe acabar en ella.")
def verify(path: Path, lexicon_path: Path | None, head: str | None) -> None:
    """Comprobador independiente: recalcula todo el registro ARCHIVO y lista las diferencias."""
    from duplicate.record.verify import run_verify

    sys.exit(run_verify(path, lexicon_path, sys.stdout, head=head))


def _chain_head(value: str | None) -> str | None:
    """``--head``: 64 hexadecimal digits (SHA-256), in either case; exit 2 otherwise."""
    if value is None:
        return None
    text = value.strip().lower()
    if len(text) != 64 or any(digit not in "0123456789abcdef" for digit in text):
        raise click.BadParameter("se esperaban los 64 dígitos hexadecimales que imprime «duplicada export»",
                                 param_hint="--head")
    return text


@click.command()
@click.argument("path", metavar="REGISTRO", type=click.Path(dir_okay=False, path_type=Path))
@common
def restore(context: Context, path: Path) -> None:
    """Crea el torneo del registro REGISTRO (JSON de «duplicada export») en una base de datos nueva (--db).

    El registro debe pasar la comprobación de «duplicada verify» y la base de datos no debe
    tener ningún torneo. El PIN del juez árbitro se pide como en «tournament create»
    (--pin-file, $DUPLICADA_PIN o dos veces sin eco); los PIN de los auxiliares se fijan de
    nuevo («tournament pin assistant»): un registro nunca lleva secretos."""
    from duplicate.record.reading import RecordError, load_record

    try:
        record = load_record(path)
    except RecordError as error:
        raise click.ClickException(str(error)) from None
    context.creates = True
    service = context.service.with_pin(context.new_pin("PIN o contraseña del juez árbitro del torneo restaurado"))
    restored = service.restore(record, path=str(path))
    click.echo(f"Torneo {restored.tournament_id} restaurado desde {path}: «{restored.name}», "
               f"{counted(restored.games, 'partida')}, {counted(restored.events, 'evento')}.")
    click.echo(f"Cabeza de la cadena de eventos: {restored.events_head}")
    click.echo("Los PIN de los auxiliares no están en el registro: fíjelos de nuevo con «duplicada tournament pin "
               "assistant».")


@click.command()
@game_option
@click.option("--all", "everything", is_flag=True, help="Todo el torneo, no solo una partida.")
@common
def history(context: Context, game_number: int | None, everything: bool) -> None:
    """Historial de eventos: quién cambió qué, cuándo y por qué (una línea por evento)."""
    from duplicate.record.event_lines import describe

    service = context.service
    number = None if everything else context.game(game_number)
    for event in service.history(context.tournament, number):
        where = f"r{event.round_number}" if event.round_number else "  "
        who = event.station + (f"/{event.arbiter}" if event.arbiter else "")
        why = f" — {event.reason}" if event.reason else ""
        say(f"{event.id:>6} {event.created_at:%Y-%m-%d %H:%M:%S} {where:>4} {who:<16} "
            f"{describe(event.kind, event.shown or event.payload)}{why}")
