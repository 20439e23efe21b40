"""Racks and the master move (III.12, III.15, III.17, III.19)."""

from __future__ import annotations

from duplicate.plurals import counted

from typing import Any

import click

from duplicate.plurals import counted
from tui.cli.listing import say
from tui.cli.options import Context, common, game_option


# --- racks and masters --------------------------------------------------------------------------
@click.group()
def rack() -> None:
    """Atriles: sacar de la bolsa o introducir el del juez (III.12, III.17, III.19)."""


@rack.command("draw")
@game_option
@common
def rack_draw(context: Context, game_number: int | None) -> None:
    """Saca el atril de la ronda siguiente."""
    number = context.game(game_number)
    view = context.acting.draw_rack(number, tournament_id=context.tournament)
    if view is None:
        reason = context.service.game_view(number, context.tournament, tops=None).end_reason
        click.echo(f"La partida {number} ha terminado: {reason or 'no se puede formar un atril válido (III.22)'}.")
        return
    _show_round(view)


@rack.command("set")
@click.argument("text")
@click.option("--redraw", is_flag=True, help="Cambio de fichas: las que quedaban vuelven a la bolsa (III.19).")
@game_option
@common
def rack_set(context: Context, text: str, redraw: bool, game_number: int | None) -> None:
    """Usa el atril TEXTO introducido por el juez (comodín: ?)."""
    view = context.acting.set_rack(context.game(game_number), text, redraw=redraw, tournament_id=context.tournament)
    _show_round(view)


@rack.command("replace")
@click.argument("text", required=False)
@click.option("--reason", required=True, help="Por qué se cambia (queda registrado).")
@click.option("--redraw", is_flag=True, help="Con TEXTO: las fichas que quedaban también vuelven a la bolsa (III.19).")
@game_option
@common
def rack_replace(context: Context, text: str | None, reason: str, redraw: bool, game_number: int | None) -> None:
    """Cambia el atril en juego (III.29): sin TEXTO, sus fichas sacadas vuelven a la bolsa y
    se saca otro; con TEXTO, se usa el atril del juez. Hasta colocar la maestra, aunque haya
    papeletas: se apartan (quedan en el historial, no cuentan) y se anotan de nuevo."""
    number = context.game(game_number)
    before = len(context.service.set_aside_slips(number, tournament_id=context.tournament))
    view = context.acting.replace_rack(number, text, reason=reason, redraw=redraw, tournament_id=context.tournament)
    aside = context.service.set_aside_slips(number, tournament_id=context.tournament)[before:]
    if aside:
        click.echo(f"{counted(len(aside), 'papeleta')} de la ronda {aside[0].round_number} "
                   f"{'apartada' if len(aside) == 1 else 'apartadas'} con el atril retirado (III.29): no cuentan; "
                   "las mesas anotan de nuevo las papeletas de la ronda con el atril nuevo.")
    prepared = context.service.game_view(number, context.tournament, tops=None).prepared
    if prepared is not None and view is not None and prepared.left_at == view.number:
        click.echo(f"La partida deja de ser la partida preparada desde la ronda {prepared.left_at} (III.29); "
                   "queda registrado con el motivo.")
    if view is None:
        click.echo(f"La partida {number} ha terminado: no se puede formar un atril válido (III.22).")
        return
    _show_round(view)


def _show_round(view: Any) -> None:
    for redraw in view.redraws:
        say(f"Cambio de fichas (III.19): {redraw['rack']} — {redraw['reason']}")
    click.echo(f"Ronda {view.number}: atril {view.rack_shown}; {counted(view.move_count, 'jugada válida')}, "
               f"máxima puntuación {view.top_score}.")
    for index, (text, score, reason) in enumerate(view.top_moves):
        say(f"  {index}. {text:<24} {score:>4}  {reason}")


@click.group()
def master() -> None:
    """Jugada maestra (III.15)."""


@master.command("choose")
@click.argument("choice", required=False, default="0")
@game_option
@click.option("--reason", default="")
@common
def master_choose(context: Context, choice: str, game_number: int | None, reason: str) -> None:
    """Coloca la jugada maestra: ELECCIÓN es el número en la lista de empates (0 = la del
    reglamento) o su notación canónica."""
    view = context.acting.choose_master(context.game(game_number), choice, tournament_id=context.tournament, reason=reason)
    click.echo(f"Ronda {view.number}: {view.master} — {view.master_score} puntos; acumulado {view.cumulative}.")


@master.command("undo")
@click.option("--reason", required=True, help="Por qué se deshace (queda registrado).")
@game_option
@common
def master_undo(context: Context, reason: str, game_number: int | None) -> None:
    """Deshace la última jugada maestra colocada, antes de sacar el atril siguiente: la
    ronda vuelve a esperar su maestra."""
    view = context.acting.undo_master(context.game(game_number), reason=reason, tournament_id=context.tournament)
    click.echo(f"Ronda {view.number}: jugada maestra deshecha; atril {view.rack_shown}. Elija la maestra de nuevo.")
