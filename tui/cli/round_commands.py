"""Rounds: status per assistant and closing with bonuses (III.24)."""

from __future__ import annotations

import click

from duplicate.plurals import agreeing, counted
from tui.cli.listing import say
from tui.cli.options import Context, common, game_option, round_choice


# --- rounds -------------------------------------------------------------------------------------------
@click.group("round")
def round_() -> None:
    """Rondas: estado de la entrada de papeletas y cierre."""


@round_.command("status")
@game_option
@round_choice("la última")
@common
def round_status(context: Context, game_number: int | None, round_number: int | None) -> None:
    """Papeletas introducidas y pendientes, por auxiliar."""
    status = context.service.round_status(context.game(game_number), round_number, tournament_id=context.tournament)
    click.echo(f"Ronda {status.round_number}: {status.entered}/{counted(status.expected, 'papeleta')}.")
    for name, (expected, entered, missing) in status.per_assistant.items():
        say(f"  {name}: {entered}/{expected}" + (f"; faltan mesas {', '.join(map(str, missing))}" if missing else ""))
    if status.missing_tables:
        click.echo(f"Faltan: {', '.join(map(str, status.missing_tables))}")


@round_.command("close")
@game_option
@round_choice("la última con jugada maestra aún abierta")
@common
def round_close(context: Context, game_number: int | None, round_number: int | None) -> None:
    """Cierra la ronda (por defecto, la última con jugada maestra aún abierta): las
    papeletas que faltan quedan como no entregadas; bonificaciones (III.24)."""
    closed = context.acting.close_round(context.game(game_number), round_number, tournament_id=context.tournament)
    missing = closed.missing_tables
    click.echo(f"Ronda {closed.round_number} cerrada."
               + (f" {counted(len(missing), 'papeleta marcada como no entregada')} (0 puntos): "
                  f"{agreeing(len(missing), 'mesa')} {', '.join(map(str, missing))}." if missing
                  else " Todas las papeletas estaban entregadas.")
               + (" Bonificaciones: " + ", ".join(f"mesa {table} +{points}"
                                                  for table, points in sorted(closed.bonuses.items())) + "."
                  if closed.bonuses else ""))
