"""``duplicada tui`` and ``duplicada serve``: the command line starts the app.

``duplicada`` with no arguments (or ``duplicada tui [--db URL] [--station NAME]``) opens
the Textual app on the default database; ``duplicada serve`` publishes the app to the
browsers of the venue network (textual-serve), one app process per browser. This module
is the one place where the command line meets the app (the documented ``ignore_imports``
edge of the import contract "app and command line apart").
"""

from __future__ import annotations

import shlex
import sys

import click

from tui.cli.options import db_option, station_name


def run_app(db: str | None, station: str | None) -> None:
    """Open the tournament database and run the app until the user quits."""
    from duplicate.database import DatabaseError, open_database
    from ranking.service import tournament_service
    from tui.app import DuplicadaApp

    try:
        database = open_database(db)
    except DatabaseError as error:
        raise click.ClickException(str(error)) from None
    station = station_name(station)
    DuplicadaApp(tournament_service(database, station=station), station=station).run()


@click.command("tui")
@db_option
@click.option("--station", default=None, help="Nombre de este puesto (por defecto, $DUPLICADA_STATION o el equipo).")
def tui(db: str | None, station: str | None) -> None:
    """Abre la aplicación de arbitraje (la misma que «duplicada» sin argumentos)."""
    run_app(db, station)


@click.command("serve")
@db_option
@click.option("--host", default="0.0.0.0", show_default=True, help="Dirección en la que escuchar.")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--public-url", default=None, help="URL con la que los navegadores llegan al servidor.")
def serve(db: str | None, host: str, port: int, public_url: str | None) -> None:
    """Publica la aplicación para los navegadores de la red de la sala (textual-serve):
    cada auxiliar solo necesita un navegador."""
    import os

    from textual_serve.server import Server

    from duplicate.database import DATABASE_ENV, default_database_url

    # The URL (which may hold a password) reaches each browser's app through the
    # environment, never its command line (visible to every user in «ps»; issue 14 §4).
    os.environ[DATABASE_ENV] = db or default_database_url()
    command = f"{shlex.quote(sys.executable)} -m tui.cli tui"
    Server(command, host=host, port=port, title="duplicada", public_url=public_url).serve()
