"""``duplicada tui`` and ``duplicada serve``: the command line starts the app.

``duplicada`` with no arguments (or ``duplicada tui [--db URL] [--station NAME]``) opens
the Textual app on the default database; ``duplicada serve`` publishes the app to the
browsers of the venue network (textual-serve), one app process per browser. This module
is the one place where the command line meets the app (the documented ``ignore_imports``
edge of the import contract "app and command line apart").
"""

from __future__ import annotations

import shlex
import ssl
import sys

import click

from tui.cli.options import NUMBER, db_option, station_name, tournament_option

DEFAULT_MAX_SESSIONS = 12
DEFAULT_IDLE_MINUTES = 120
VENUE_PASSWORD_ENV = "DUPLICADA_VENUE_PASSWORD"
VENUE_PASSWORD_MIN = 8


def run_app(db: str | None, station: str | None, remote: bool = False, tournament_id: int | None = None) -> None:
    """Open the tournament database and run the app until the user quits. ``remote``: a
    browser's session under ``serve``, whose wrong PINs count against the browser's
    address (``$DUPLICADA_SOURCE``, set by the venue server) and which signs in to
    ``tournament_id`` (None: the newest) before anything is shown."""
    import os

    from duplicate.service.errors import TournamentError
    from ranking.service import open_tournament_service
    from tui.app.application import DuplicadaApp
    from tui.cli.venue_server import SOURCE_ENV

    station = station_name(station)
    source = os.environ.get(SOURCE_ENV) if remote else None
    try:
        service, _hooks = open_tournament_service(db, station=station, source=source)
    except TournamentError as error:
        raise click.ClickException(str(error)) from None
    DuplicadaApp(service, station=station, remote=remote, tournament_id=tournament_id).run()


@click.command("tui")
@db_option
@click.option("--station", default=None, help="Nombre de este puesto (por defecto, $DUPLICADA_STATION o el equipo).")
@click.option("--remote", is_flag=True, hidden=True)   # a browser's session under «duplicada serve»
@tournament_option
def tui(db: str | None, station: str | None, remote: bool, tournament_id: int | None) -> None:
    """Abre la aplicación de arbitraje (la misma que «duplicada» sin argumentos)."""
    run_app(db, station, remote, tournament_id)


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Dirección en la que escuchar; para la red de la sala (p. ej. 0.0.0.0: todas las de este equipo, "
                   "que se muestran al arrancar) pide la contraseña de la sala.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--public-url", default=None,
              help="URL con la que los navegadores llegan al servidor, si no es la que escriben (p. ej. tras un "
                   "proxy); por defecto, la página usa la dirección con la que se pidió.")
@click.option("--max-sessions", type=NUMBER, default=DEFAULT_MAX_SESSIONS, show_default=True,
              help="Navegadores conectados a la vez (cada uno ocupa unos 93 MiB).")
@click.option("--idle-minutes", type=NUMBER, default=DEFAULT_IDLE_MINUTES, show_default=True,
              help="Minutos sin actividad tras los que se cierra una sesión.")
@click.option("--certfile", type=click.Path(dir_okay=False), default=None,
              help="Certificado TLS (PEM): los navegadores entran por https:// y nada viaja en claro. Úselo en "
                   "cualquier red que no sea un cable de confianza entre dos equipos.")
@click.option("--keyfile", type=click.Path(dir_okay=False), default=None,
              help="Clave privada del certificado (PEM), si no va en el mismo archivo.")
@click.option("--tournament", "tournament_id", type=NUMBER, default=None,
              help="Id del torneo que se sirve (por defecto, el último): los navegadores no ven ninguna lista.")
def serve(db: str | None, host: str, port: int, public_url: str | None, max_sessions: int, idle_minutes: int,
          certfile: str | None, keyfile: str | None, tournament_id: int | None) -> None:
    """Publica la aplicación para los navegadores de la red de la sala (textual-serve):
    cada auxiliar solo necesita un navegador. Fuera de este equipo, cada navegador da
    la contraseña de la sala ($DUPLICADA_VENUE_PASSWORD, o se pregunta al arrancar) y
    después el PIN de su puesto; con --certfile, todo viaja cifrado (https)."""
    import os

    from duplicate.service.opening import set_default_database
    from tui.cli.venue_server import VenueServer, is_loopback

    ssl_context = tls_context(certfile, keyfile)

    password = os.environ.get(VENUE_PASSWORD_ENV) or None
    if password is None and not is_loopback(host):
        password = click.prompt("Contraseña de la sala (la darán los navegadores)", hide_input=True,
                                confirmation_prompt="Repítala")
    if password is not None and len(password) < VENUE_PASSWORD_MIN:
        raise click.ClickException(f"la contraseña de la sala necesita al menos {VENUE_PASSWORD_MIN} caracteres")
    # The URL (which may hold a password) reaches each browser's app through the
    # environment, never its command line (visible to every user in «ps»; issue 14 §4).
    if db:                                   # otherwise the apps find the same default themselves
        set_default_database(db)
    os.environ.pop(VENUE_PASSWORD_ENV, None)                  # the apps do not need it
    command = f"{shlex.quote(sys.executable)} -m tui.cli tui --remote"
    if tournament_id is not None:
        command += f" --tournament {tournament_id}"
    server = VenueServer(command, password=password, max_sessions=max_sessions, idle_seconds=idle_minutes * 60.0,
                         ssl_context=ssl_context, host=host, port=port, title="duplicada", public_url=public_url)
    try:
        server.serve()
    except OSError as error:                 # the port in use, an address not this machine's
        raise click.ClickException(f"no se pudo escuchar en {host}, puerto {port}: "
                                   f"{error.strerror or 'el sistema lo rechazó'}") from None


def tls_context(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """The server's TLS context from a PEM certificate (and its key, when in another
    file); None without a certificate. ``click.UsageError`` for a key without a
    certificate, ``click.ClickException`` (Spanish, naming the file) for one that cannot
    be read or does not match."""
    if certfile is None:
        if keyfile is not None:
            raise click.UsageError("--keyfile necesita --certfile (el certificado de esa clave)")
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, keyfile, password=lambda: "")   # never a prompt
    except FileNotFoundError as error:
        raise click.ClickException(f"no existe el archivo {error.filename or certfile}") from None
    except (ssl.SSLError, OSError, ValueError):
        files = certfile if keyfile is None else f"{certfile} y {keyfile}"
        raise click.ClickException(f"no se pudo usar el certificado TLS de {files}: se esperaba un certificado PEM y "
                                   "su clave privada (sin contraseña), que se correspondan") from None
    return context
