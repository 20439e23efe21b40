"""The ``duplicada`` command group: every command, loaded only when it runs.

``duplicada --help`` lists the commands from the table below without importing any of
them, so it starts in a blink; ``duplicada X`` imports only the module of ``X`` (and the
libraries that command needs). ``duplicada`` with no command opens the app.
"""

from __future__ import annotations

import gc
from importlib import import_module
from typing import Any

import click

from tui.cli.spanish import install, spanish_metavars

install()                                   # Click's own messages in Spanish, before any declaration

COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("tui.cli.engine_commands:analyze", "Mejores jugadas de posiciones «TABLERO ATRIL» (JSON por línea)."),
    "assistant": ("tui.cli.player_commands:assistant", "Árbitros auxiliares y sus rangos de mesas (II.4.c)."),
    "classic": ("tui.cli.classic_commands:classic", "Torneos clásicos: emparejar (suizo FIDE), comprobar, Berger."),
    "claim": ("tui.cli.claim_commands:claim", "Reclamaciones (III.27): registrar, resolver, listar."),
    "elodi": ("tui.cli.elodi_commands:elodi", "EloDI: valorar partidas, recalcular, lista e informes (V)."),
    "export": ("tui.cli.record_commands:export", "Escribe el registro completo del torneo (JSON) o una partida en XML de Eliot."),
    "game": ("tui.cli.game_commands:game", "Partidas: empezar, terminar, publicar resultados, reabrir."),
    "history": ("tui.cli.record_commands:history", "Historial: quién cambió qué, cuándo y por qué."),
    "lexicon": ("tui.cli.lexicon_commands:lexicon", "Léxicos: compilar una lista de palabras, consultar uno."),
    "live": ("tui.cli.live_commands:live", "Páginas públicas en directo (solo lectura) y su copia estática."),
    "master": ("tui.cli.rack_commands:master", "Jugada maestra (III.15)."),
    "play": ("tui.cli.engine_commands:play", "Juega una partida duplicada completa con el léxico."),
    "player": ("tui.cli.player_commands:player", "Jugadores: inscribir, importar (CSV), listar, cambiar su estado."),
    "prepared": ("tui.cli.prepared_commands:prepared", "Partidas preparadas (duplicada maestra, III.15): crear, comprobar."),
    "publish": ("tui.cli.publish_command:publish", "Publica los resultados: HTML, PDF, CSV y XLSX."),
    "rack": ("tui.cli.rack_commands:rack", "Atriles: sacar de la bolsa o introducir el del juez (III.12, III.19)."),
    "restore": ("tui.cli.record_commands:restore", "Crea un torneo en una base de datos nueva a partir de su registro."),
    "round": ("tui.cli.round_commands:round_", "Rondas: estado de las papeletas y cierre (III.24)."),
    "serve": ("tui.cli.app_commands:serve", "Publica la aplicación para los navegadores de la sala."),
    "simulate": ("tui.cli.simulate_command:simulate", "Simula un torneo duplicado realista en la base de datos."),
    "slip": ("tui.cli.slip_commands:slip", "Papeletas: anotar, marcar, corregir, importar, conflictos."),
    "standings": ("tui.cli.record_commands:standings", "Clasificaciones de la partida o del torneo."),
    "tables": ("tui.cli.game_commands:tables", "Mesas de una partida (II.6)."),
    "tournament": ("tui.cli.tournament_commands:tournament", "Torneos: crear, listar, ver, PIN de los puestos."),
    "tui": ("tui.cli.app_commands:tui", "Abre la aplicación de arbitraje."),
    "venue": ("tui.cli.venue_commands:venue", "Sedes: dar de alta las sedes en línea, importar el registro de otra sala."),
    "verify": ("tui.cli.record_commands:verify", "Comprueba un registro de torneo recalculándolo todo."),
}
"""Command name → ("module:attribute", short help shown by ``duplicada --help``)."""


GC_PAUSED = frozenset({"standings"})
"""Commands run with Python's cyclic garbage collector paused (issue 38): short read-only
commands whose objects (the modules and mapped classes they import, the rows they read)
live to the end of the process anyway, so every full collection walked them for nothing
(≈ 0.1 s of the 0.6 s of CPU of ``standings``, 0.2 s of ``standings --overall`` on 300 ×
10). Reference counting frees what they drop as always; the collector is enabled again
when the command returns (a test's process runs on)."""


class LazyGroup(click.Group):
    """A group whose commands are imported on first use (see ``COMMANDS``)."""

    def invoke(self, ctx: click.Context) -> Any:
        collecting = gc.isenabled()
        try:
            return super().invoke(ctx)
        finally:
            if collecting:
                gc.enable()

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] in GC_PAUSED:
            gc.disable()                    # before the command's imports (``GC_PAUSED``)
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name][0].split(":")
        command = getattr(import_module(module), attribute)
        assert isinstance(command, click.Command)
        return spanish_metavars(command)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the table, without importing the commands."""
        with formatter.section("Órdenes"):
            formatter.write_dl([(name, help_text) for name, (_, help_text) in sorted(COMMANDS.items())])


@click.group(cls=LazyGroup, invoke_without_command=True, options_metavar="[OPCIONES]",
             subcommand_metavar="[ORDEN] [ARGUMENTOS]...")
@click.version_option(package_name="duplicada", prog_name="duplicada")   # also under «python -m tui.cli»
@click.pass_context
def main(context: click.Context, /, **_: Any) -> None:
    """Arbitraje de Scrabble duplicado en español (reglamento FISE).

    Sin orden, abre la aplicación de arbitraje (igual que «duplicada tui»).
    """
    if context.invoked_subcommand is None:
        from tui.cli.app_commands import run_app

        run_app(None, None)
