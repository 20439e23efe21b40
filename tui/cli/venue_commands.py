"""Offline venues (sedes) of one event (issue 27 §2): ``duplicada venue import RECORD.json
--venue NAME`` brings in a venue's exported record (judge/organiser PIN), ``venue add NAME``
names an online venue (its stations on this database), ``venue list`` shows both kinds. The work is the service's (``duplicate.service.venues``);
``duplicada standings --venue NAME`` ranks one venue, and every standings list gains a
``sede`` column once a venue is imported (``tui.cli.record_commands``).

Not ``tui.cli.venue_server``/``venue_door``: those serve the app to a room's browsers.
"""

from __future__ import annotations

from pathlib import Path

import click

from duplicate.labels import local_time
from tui.cli.listing import emit_rows, say
from tui.cli.options import Context, common, format_option


@click.group()
def venue() -> None:
    """Sedes de un torneo jugado en varias salas con la misma partida preparada (III.15)."""


@venue.command("import")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--venue", "name", required=True, help="Nombre de la sede cuyo registro se importa.")
@click.option("--unsigned", is_flag=True,
              help="Importa sin comprobar la firma una sede sin clave registrada («venue key»); queda anotado.")
@common
def venue_import(context: Context, path: Path, name: str, unsigned: bool) -> None:
    """Importa el registro de torneo (JSON) de una sede: se rechaza sin guardar nada si no se
    verifica, no juega las partidas preparadas del torneo o no lo firma la clave registrada de
    la sede («venue key»; una sede sin clave solo con --unsigned); importar otra vez la misma
    sede sustituye la importación anterior (queda en el historial)."""
    view = context.acting.import_venue_file(path, name, context.tournament, unsigned=unsigned)
    replaced = " (sustituye la importación anterior)" if view.replaces is not None else ""
    say(f"Sede «{view.name}» importada{replaced}: {view.players} jugadores, {view.games} "
        f"partida{'s' if view.games != 1 else ''}; resumen {view.digest[:16]}…")
    say(f"Firma comprobada: clave registrada de la sede, huella {view.signed_by}." if view.signed_by else
        "SIN FIRMA: la sede no tiene clave registrada y se importó con --unsigned (queda anotado en el historial).")
    update = context.elodi.last_update if context.elodi is not None else None
    if update is not None and update.recomputed:         # the field of a rated game changed (V)
        say(f"EloDI recalculado con esta importación: {len(update.rated)} partida"
            f"{'s' if len(update.rated) != 1 else ''} valorada{'s' if len(update.rated) != 1 else ''}.")


@venue.command("key")
@click.argument("name")
@click.argument("path", metavar="ARCHIVO", type=click.Path(dir_okay=False, path_type=Path))
@common
def venue_key(context: Context, name: str, path: Path) -> None:
    """Registra la clave pública de la sede sin conexión NOMBRE (ARCHIVO: el que escribe
    «duplicada tournament key --out ARCHIVO» en la sede), antes del torneo: desde entonces
    «venue import» solo acepta registros de esa sede firmados con esa clave. Lo hace el juez
    árbitro del torneo; queda en el historial. Compruebe la huella con la sede (por teléfono)."""
    shown = context.acting.register_venue_key_file(name, path, context.tournament)
    say(f"Clave de la sede «{' '.join(name.split())}» registrada: huella {shown}. Compruebe con la sede que es la "
        "que imprime «duplicada tournament key» allí.")


@venue.command("add")
@click.argument("name")
@common
def venue_add(context: Context, name: str) -> None:
    """Da de alta la sede en línea NOMBRE (el juez árbitro del torneo): una sala cuyos puestos
    juegan en esta misma base de datos, con su juez y sus auxiliares («tournament pin
    judge|assistant --venue NOMBRE») y sus jugadores («player add --venue NOMBRE»)."""
    context.acting.add_venue(name, context.tournament)
    say(f"Sede en línea «{' '.join(name.split())}» dada de alta: asigne el PIN de su juez con "
        f"«duplicada tournament pin judge --venue …» e inscriba a sus jugadores con «player add … --venue …».")


@venue.command("list")
@format_option
@common
def venue_list(context: Context, output: str) -> None:
    """Lista las sedes: las en línea (con los puestos de su juez y sus auxiliares) y las
    importadas (la última importación de cada una)."""
    stations = context.service.venue_stations(context.tournament)

    def named(view_name: str, role: str) -> str:
        return ", ".join(name for kind, name, venue in stations if venue == view_name and kind == role)

    emit_rows([{"sede": view.name, "tipo": "en línea" if view.online else "importada", "jugadores": view.players,
                "partidas": view.games, "juez": named(view.name, "judge") if view.online else "",
                "auxiliares": named(view.name, "assistant") if view.online else "",
                "alta": view.imported_at if output != "table" else local_time(view.imported_at), "resumen": view.digest[:16]}
               for view in context.service.venues(context.tournament)], output)
