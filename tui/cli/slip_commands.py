"""Slips: enter, mark, master for many tables, double entry, corrections, import, conflicts (II.8, III.20–III.25)."""

from __future__ import annotations

from pathlib import Path

import click

from duplicate.labels import CONFLICT_KIND, SLIP_STATUS, label
from duplicate.plurals import counted
from duplicate.service.views import EntryResult, SlipView
from tui.cli.listing import emit_rows, say
from tui.cli.options import (
    MARK,
    NUMBER,
    Context,
    common,
    format_option,
    game_option,
    round_choice,
    round_option,
)


# --- slips -------------------------------------------------------------------------------------------
@click.group()
def slip() -> None:
    """Papeletas: introducir, marcar, corregir, comprobar, importar (III.20, III.25)."""


def _slip_label(stored: SlipView | None) -> str:
    if stored is None:
        return ""
    return stored.text or label(SLIP_STATUS, stored.status)


def _show_entry(result: EntryResult) -> None:
    verdict = result.verdict
    head = f"Mesa {result.table} ({result.player}), ronda {result.round_number}:"
    if result.outcome == "conflict":
        say(f"{head} CONFLICTO {result.conflict_id}: ya hay otra papeleta; la resuelve el juez árbitro.")
        return
    if result.outcome == "repeated":
        say(f"{head} ya estaba registrada igual; sin cambios.")
        return
    if result.outcome == "checked":
        say(f"{head} comprobada, coincide.")
        return
    text = f"{verdict.canonical} — {verdict.score} puntos" if verdict.valid else f"0 puntos: {verdict.reason}"
    say(f"{head} {text}{f' ({verdict.hint})' if verdict.hint else ''}")


BOARD_HELP = ("TEXTO es una papeleta en tablero (II.8, III.20.1.c–d), si el torneo la admite: casilla de la "
              "primera ficha nueva, flecha (> horizontal, v vertical) y fichas nuevas, p. ej. \"H12 > S\".")


@slip.command("enter")
@click.argument("table", type=NUMBER)
@click.argument("text")
@click.option("--board", is_flag=True, help=BOARD_HELP)
@game_option
@round_option
@common
def slip_enter(context: Context, table: int, text: str, board: bool, game_number: int | None,
               round_number: int | None) -> None:
    """Introduce la papeleta TEXTO de la mesa MESA (p. ej. 12 "H8-CASA"; «tarde», «nula» o
    «no entregada» la marcan). Sin --round, va a la última ronda con la jugada maestra ya
    anunciada (III.16)."""
    result = context.acting.enter_slip(context.game(game_number), table, text, round_number=round_number,
                                        tournament_id=context.tournament, board=board)
    _show_entry(result)


@slip.command("master")
@click.argument("tables", nargs=-1, type=NUMBER, required=True)
@game_option
@round_option
@common
def slip_master(context: Context, tables: tuple[int, ...], game_number: int | None, round_number: int | None) -> None:
    """Anota la jugada maestra a todas las mesas MESAS que la jugaron, de una vez."""
    for result in context.acting.enter_master_slips(context.game(game_number), tables, round_number=round_number,
                                                     tournament_id=context.tournament):
        _show_entry(result)


@slip.command("mark")
@click.argument("table", type=NUMBER)
@click.argument("status", type=MARK)
@click.option("--text", default="", help="Lo que ponía la papeleta, si algo.")
@game_option
@round_option
@common
def slip_mark(context: Context, table: int, status: str, text: str, game_number: int | None,
              round_number: int | None) -> None:
    """Marca la papeleta de MESA: tarde (fuera de tiempo, III.13), nula (III.20.4) o
    no-entregada (también «falta»)."""
    result = context.acting.mark_slip(context.game(game_number), table, status, text=text, round_number=round_number,
                                       tournament_id=context.tournament)
    _show_entry(result)


@slip.command("check")
@click.argument("table", type=NUMBER)
@click.argument("text")
@click.option("--board", is_flag=True, help=BOARD_HELP)
@game_option
@round_option
@common
def slip_check(context: Context, table: int, text: str, board: bool, game_number: int | None,
               round_number: int | None) -> None:
    """Doble entrada: vuelve a teclear la papeleta de MESA; si no coincide, conflicto."""
    result = context.acting.double_check(context.game(game_number), table, text, round_number=round_number,
                                          tournament_id=context.tournament, board=board)
    _show_entry(result)


@slip.command("correct")
@click.argument("table", type=NUMBER)
@click.argument("text", required=False)
@click.option("--status", type=MARK, default=None, help="Marca en lugar de texto (tarde, nula, no-entregada).")
@click.option("--reason", required=True, help="Motivo de la corrección (queda anotado).")
@game_option
@round_option
@common
def slip_correct(context: Context, table: int, text: str | None, status: str | None, reason: str,
                 game_number: int | None, round_number: int | None) -> None:
    """Corrección del juez árbitro (III.27): nueva papeleta TEXTO o marca --status."""
    result = context.acting.correct_slip(context.game(game_number), table, text, status=status,
                                          round_number=round_number, tournament_id=context.tournament, reason=reason)
    _show_entry(result)


@slip.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@game_option
@common
def slip_import(context: Context, path: Path, game_number: int | None) -> None:
    """Importa papeletas de un CSV con cabecera: mesa, jugada, ronda (opcional), marca (opcional), tablero
    (opcional: papeleta en tablero, II.8, p. ej. "H12 > S", con la jugada vacía)."""
    results = context.acting.import_slips(context.game(game_number), path, tournament_id=context.tournament)
    for result in results:
        _show_entry(result)
    conflicts = sum(1 for result in results if result.outcome == "conflict")
    click.echo(f"{counted(len(results), 'papeleta leída')}, {counted(conflicts, 'conflicto')}.")


@slip.command("list")
@game_option
@round_choice("todas")
@format_option
@common
def slip_list(context: Context, game_number: int | None, round_number: int | None, output: str) -> None:
    """Lista las papeletas registradas; después, las apartadas al cambiar el atril (III.29),
    que no cuentan."""
    number = context.game(game_number)
    rows = [{"ronda": item.round_number, "mesa": item.table_number, "texto": item.text, "jugada": item.move or "",
             "estado": label(SLIP_STATUS, item.status), "puntos": item.score, "motivo": item.reason, "por": item.entered_by,
             "tablero": item.board or ""}
            for item in context.service.slips(number, round_number, tournament_id=context.tournament)]
    rows += [{"ronda": item.round_number, "mesa": item.table_number, "texto": item.text, "jugada": "",
              "estado": "apartada", "puntos": 0,
              "motivo": f"atril {item.rack} retirado (III.29): {item.reason}; no cuenta", "por": item.entered_by,
              "tablero": ""}
             for item in context.service.set_aside_slips(number, round_number, tournament_id=context.tournament)]
    emit_rows(rows, output)


@slip.command("conflicts")
@game_option
@common
def slip_conflicts(context: Context, game_number: int | None) -> None:
    """Conflictos pendientes (papeleta repetida distinta, doble entrada que no coincide);
    con la credencial del juez de una sede, solo los de su sede."""
    items = context.reading.conflicts(context.game(game_number), tournament_id=context.tournament)
    if not items:
        click.echo("No hay conflictos pendientes.")
    for conflict, stored in items:
        say(f"{conflict.id:>4}  ronda {conflict.round_number}, mesa {conflict.table_number}: "
                   f"«{label(SLIP_STATUS, conflict.mark) if conflict.mark else conflict.text}» ({conflict.entered_by}) frente a «{_slip_label(stored)}» "
                   f"({stored.entered_by if stored else ''}) [{label(CONFLICT_KIND, conflict.kind)}]")


@slip.command("resolve")
@click.argument("conflict_id", type=NUMBER)
@click.option("--use-new", is_flag=True, help="Sustituir la papeleta registrada por la nueva.")
@click.option("--reason", default="")
@common
def slip_resolve(context: Context, conflict_id: int, use_new: bool, reason: str) -> None:
    """El juez resuelve un conflicto: mantiene la papeleta registrada o la sustituye (--use-new)."""
    context.acting.resolve_conflict(conflict_id, use_new=use_new,
                                     reason=reason)
    click.echo(f"Conflicto {conflict_id} resuelto: {'papeleta sustituida' if use_new else 'se mantiene la registrada'}.")
