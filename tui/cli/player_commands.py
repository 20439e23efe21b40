"""Players and assistants (II.4.c, II.6)."""

from __future__ import annotations

from pathlib import Path

import click

from duplicate.labels import ENTRY_STATUS, label
from duplicate.plurals import counted
from duplicate.rules.statuses import EntryStatus
from tui.cli.listing import say
from tui.cli.options import ENTRY_STATUS_WORDS, NUMBER, Context, common


# --- players and assistants ------------------------------------------------------------------
@click.group()
def player() -> None:
    """Jugadores: inscribir, importar (CSV), listar, cambiar su estado."""


@player.command("add")
@click.argument("name")
@click.option("--club", default="")
@click.option("--country", default="")
@click.option("--federation-id", default=None, help="Identificador federativo.")
@click.option("--venue", default=None,
              help="Sede en línea donde juega («venue add»); sin ella, la de quien inscribe: el juez de una sede "
                   "inscribe en su sede, el del organizador en su sala.")
@common
def player_add(context: Context, name: str, club: str, country: str, federation_id: str | None,
               venue: str | None) -> None:
    """Inscribe al jugador NOMBRE en el torneo (dice en qué sede, cuando el torneo tiene sedes en línea)."""
    acting = context.acting
    entry = acting.add_player(name, club=club, country=country, federation_id=federation_id,
                              tournament_id=context.tournament, venue=venue)
    used = next((row.venue for row, _person in acting.entries(context.tournament) if row.id == entry), None)
    where = (f", sede «{used}»" if used is not None
             else ", sala del organizador" if acting.online_venues(context.tournament) else "")
    click.echo(f"Inscrito: {name} (inscripción {entry}{where}).")


@player.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@common
def player_import(context: Context, path: Path) -> None:
    """Importa jugadores de un CSV con cabecera: nombre, club, pais, federacion, sede."""
    entries = context.acting.import_players(path, tournament_id=context.tournament)
    click.echo(f"Inscritos: {counted(len(entries), 'jugador')} desde {path}.")


@player.command("list")
@common
def player_list(context: Context) -> None:
    """Lista los jugadores inscritos (con su sede cuando el torneo tiene sedes en línea)."""
    entries = context.service.entries(context.tournament)
    venues = any(entry.venue is not None for entry, _person in entries)
    for entry, person in entries:
        say(f"{entry.id:>4}  {person.name:<30} {person.club:<20} {person.country:<4} "
            f"{person.federation_id or '':<10} {label(ENTRY_STATUS, entry.status)}"
            + (f"  sede: {entry.venue or '(organizador)'}" if venues else ""))


@player.command("status")
@click.argument("entry_id", type=NUMBER)
@click.argument("status", type=ENTRY_STATUS_WORDS)
@click.option("--reason", default="")
@common
def player_status(context: Context, entry_id: int, status: str, reason: str) -> None:
    """Cambia el estado de una inscripción (activo, retirado, ausente, descalificado)."""
    context.acting.set_entry_status(entry_id, EntryStatus(status), reason=reason)
    click.echo(f"Inscripción {entry_id}: {label(ENTRY_STATUS, status)}.")


@player.command("venue")
@click.argument("entry_id", type=NUMBER)
@click.argument("name", required=False, default="")
@click.option("--reason", default="")
@common
def player_venue(context: Context, entry_id: int, name: str, reason: str) -> None:
    """Cambia la sede en línea de una inscripción (sin NOMBRE: la sala del organizador);
    el juez árbitro del torneo."""
    context.acting.update_player(entry_id, venue=name, reason=reason)
    click.echo(f"Inscripción {entry_id}: {f'sede «{name}»' if name.strip() else 'sala del organizador'}.")


@click.group()
def assistant() -> None:
    """Árbitros auxiliares y sus rangos de mesas (II.4.c)."""


@assistant.command("set")
@click.argument("name")
@click.argument("first", type=NUMBER)
@click.argument("last", type=NUMBER)
@common
def assistant_set(context: Context, name: str, first: int, last: int) -> None:
    """Asigna al auxiliar NOMBRE las mesas PRIMERA a ÚLTIMA."""
    context.acting.set_assistant_range(name, first, last, tournament_id=context.tournament)
    click.echo(f"{name}: mesas {first}–{last}.")


@assistant.command("list")
@common
def assistant_list(context: Context) -> None:
    """Lista los auxiliares y sus mesas."""
    for item in context.service.assistant_ranges(context.tournament):
        say(f"{item.assistant:<20} mesas {item.first_table}–{item.last_table}")
