"""The ``duplicada`` console script: every command of ``duplicate.cli`` plus the app.

``duplicada`` with no arguments (or ``duplicada tui [--db URL] [--station NAME]``) opens
the Textual app on the default database; ``duplicada serve`` publishes the app to the
browsers of the venue network (textual-serve). This module is the only place where the
command line meets the UI, so the core packages never import ``tui``.
"""

from __future__ import annotations

import shlex
import sys

import click

from duplicate.cli import main as core_main
from duplicate.database import DatabaseError, default_database_url, open_database
from duplicate.tournament_cli import station_name


def run_app(db: str | None, station: str | None) -> None:
    """Open the tournament database and run the app until the user quits."""
    from ranking.service import tournament_service
    from tui.app import DuplicadaApp

    try:
        database = open_database(db)
    except DatabaseError as error:
        raise click.ClickException(str(error)) from None
    station = station_name(station)
    DuplicadaApp(tournament_service(database, station=station), station=station).run()


@click.group(invoke_without_command=True, commands=core_main.commands, help=core_main.help)
@click.version_option(package_name="duplicada")
@click.pass_context
def main(context: click.Context) -> None:
    if context.invoked_subcommand is None:
        run_app(None, None)


@main.command("tui")
@click.option("--db", envvar="DUPLICADA_DB", default=None, metavar="URL",
              help="Base de datos: URL de SQLAlchemy o archivo SQLite (por defecto, el de la carpeta de datos).")
@click.option("--station", default=None, help="Nombre de este puesto (por defecto, $DUPLICADA_STATION o el equipo).")
def tui(db: str | None, station: str | None) -> None:
    """Abre la aplicación de arbitraje (la misma que «duplicada» sin argumentos)."""
    run_app(db, station)


@main.command("serve")
@click.option("--db", envvar="DUPLICADA_DB", default=None, metavar="URL",
              help="Base de datos compartida por todos los puestos.")
@click.option("--host", default="0.0.0.0", show_default=True, help="Dirección en la que escuchar.")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--public-url", default=None, help="URL con la que los navegadores llegan al servidor.")
def serve(db: str | None, host: str, port: int, public_url: str | None) -> None:
    """Publica la aplicación para los navegadores de la red de la sala (textual-serve):
    cada auxiliar solo necesita un navegador."""
    from textual_serve.server import Server

    url = db or default_database_url()
    command = f"{shlex.quote(sys.executable)} -m tui.cli tui --db {shlex.quote(url)}"
    Server(command, host=host, port=port, title="duplicada", public_url=public_url).serve()


if __name__ == "__main__":
    main()
