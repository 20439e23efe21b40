"""Claims (III.27)."""

from __future__ import annotations

import click

from duplicate.labels import CLAIM_STATUS, label
from tui.cli.listing import say
from tui.cli.options import MARK, NUMBER, Context, common, game_option


# --- claims ------------------------------------------------------------------------------------------------
@click.group()
def claim() -> None:
    """Reclamaciones (III.27)."""


@claim.command("file")
@click.argument("round_number", type=NUMBER)
@click.argument("table", type=NUMBER)
@click.argument("text")
@game_option
@common
def claim_file(context: Context, round_number: int, table: int, text: str, game_number: int | None) -> None:
    """Anota la reclamación TEXTO de la mesa MESA sobre la ronda RONDA."""
    claim_id = context.acting.file_claim(context.game(game_number), round_number, table, text,
                                          tournament_id=context.tournament)
    click.echo(f"Reclamación {claim_id} anotada.")


@claim.command("resolve")
@click.argument("claim_id", type=NUMBER)
@click.option("--upheld/--rejected", required=True)
@click.option("--resolution", required=True, help="Resolución del juez árbitro.")
@click.option("--text", "corrected_text", default=None, help="Papeleta corregida (si se acepta).")
@click.option("--status", "corrected_status", default=None, type=MARK,
              help="Marca corregida (tarde, nula, no-entregada), si se acepta.")
@common
def claim_resolve(context: Context, claim_id: int, upheld: bool, resolution: str, corrected_text: str | None,
                  corrected_status: str | None) -> None:
    """Resuelve una reclamación; si se acepta, con la papeleta corregida."""
    context.acting.resolve_claim(claim_id, upheld=upheld, resolution=resolution, corrected_text=corrected_text,
                                  corrected_status=corrected_status)
    click.echo(f"Reclamación {claim_id}: {'aceptada' if upheld else 'rechazada'}.")


@claim.command("list")
@game_option
@common
def claim_list(context: Context, game_number: int | None) -> None:
    """Lista las reclamaciones de la partida: número, ronda, mesa, jugador, estado, texto y resolución."""
    for item in context.service.claims(context.game(game_number), tournament_id=context.tournament):
        say(f"{item.id:>4}  ronda {item.round_number}  mesa {item.table:>3}  {item.player:<24} "
            f"{label(CLAIM_STATUS, item.status):<9} {item.text}{' → ' + item.resolution if item.resolution else ''}")
