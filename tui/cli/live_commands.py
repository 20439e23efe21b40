"""``duplicada live``: the live public pages of a tournament (issue 37), read-only.

``duplicada live [--db URL] [--tournament ID] [--host H] [--port P] [--public-url URL]
[--mirror DIR]`` serves the pages of ``duplicate.publishing.live_pages`` to any browser and
pushes each change to them (``tui.cli.live_server``); with ``--mirror``, it also rewrites
them into a folder after each change, for a club's website. No password, no PIN: the
pages hold only what is public. aiohttp is imported inside the command
(``duplicada --help`` stays light).
"""

from __future__ import annotations

from pathlib import Path

import click

from tui.cli.options import db_option, tournament_option

DEFAULT_PORT = 8080


@click.command("live")
@db_option
@tournament_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Dirección en la que escuchar; 0.0.0.0 para todas las de este equipo (las páginas son públicas "
                   "y de solo lectura).")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--public-url", default=None,
              help="URL con la que el público llega al servidor, si no es la de este equipo (p. ej. tras un proxy).")
@click.option("--mirror", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Carpeta en la que reescribir las páginas tras cada cambio (copia estática para la web del club).")
def live(db: str | None, tournament_id: int | None, host: str, port: int, public_url: str | None,
         mirror: Path | None) -> None:
    """Sirve las páginas públicas del torneo en directo: la ronda en juego (atril cuando se
    anuncia, cronómetro, tablero y última maestra; proyeccion.html para el proyector de la
    sala), los resultados de las rondas cerradas, las
    clasificaciones y la página de cada jugador; en la modalidad clásica, los emparejamientos
    y resultados de cada ronda y la clasificación tras cada una. Los navegadores ven cada
    cambio en menos de 2 s sin recargar. Solo lectura: sin contraseña ni PIN."""
    from duplicate.service.errors import TournamentError
    from tui.cli.live_server import LiveServer
    from tui.cli.options import Context

    context = Context(db, tournament_id, None, None)
    server = LiveServer(context.service, tournament_id, host=host, port=port, public_url=public_url, mirror=mirror)
    try:
        server.serve(lambda line: click.echo(line))
    except TournamentError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:                 # the port in use, an address not this machine's
        raise click.ClickException(f"no se pudo escuchar en {host}, puerto {port}: "
                                   f"{error.strerror or 'el sistema lo rechazó'}") from None
