"""Tournaments: create, list, show, and the stations' PINs (issue 3 §8, issue 12 §1)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from data.rules import ROUND_SECONDS
from duplicate.labels import BONUS_MODES, CRITERION_NAMES, GAME_STATUS, label
from duplicate.plurals import counted
from duplicate.rules.bonuses import BonusMode
from duplicate.rules.tournament_standings import TournamentCriterion
from duplicate.service.settings import TournamentSettings
from tui.cli.listing import say
from tui.cli.options import (
    BONUS,
    BONUS_MODE,
    CRITERION,
    NUMBER,
    SECONDS,
    TABLE_SPAN,
    Context,
    SpanishChoice,
    common,
    read_pin,
)


# --- tournament --------------------------------------------------------------------------
@click.group()
def tournament() -> None:
    """Torneos: crear, listar, ver y cambiar los criterios."""


@tournament.command("create")
@click.argument("name")
@click.option("--venue", default="", help="Lugar.")
@click.option("--start", "start_date", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Fecha de inicio (AAAA-MM-DD).")
@click.option("--end", "end_date", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Fecha de fin (AAAA-MM-DD).")
@click.option("--bonus", type=BONUS_MODE, default="sin",
              show_default=True, help="Bonificaciones (III.24).")
@click.option("--bonus-value", type=BONUS, default=10, show_default=True,
              help="Valor de la bonificación manual (III.24 aconseja 5 o 10).")
@click.option("--criterion", type=CRITERION,
              default="suma", show_default=True, help="Clasificación del torneo (IV.31).")
@click.option("--tie-breaks/--no-tie-breaks", default=False, show_default=True,
              help="Premios que no se pueden compartir: desempates III.28 en cada partida y, en la "
                   "clasificación del torneo, III.28 sobre todas las rondas (IV.31); sin ellos, los empatados "
                   "comparten puesto.")
@click.option("--oriented/--no-oriented", default=False, show_default=True,
              help="Admitir papeletas en notación canónica orientada, con flecha (II.8: solo si el organizador "
                   "la admite, además de la canónica; III.20.1.b).")
@click.option("--board/--no-board", default=False, show_default=True,
              help="Admitir papeletas en notación de tablero (II.8, III.20.1.c–d), además de la canónica.")
@click.option("--venue-bonuses/--field-bonuses", default=False, show_default=True,
              help="Torneo en varias sedes: bonificaciones (III.24) de cada sede entre sus jugadores, en lugar "
                   "de sobre todos los jugadores de todas las sedes.")
@click.option("--corrections-after-final/--no-corrections-after-final", default=False, show_default=True,
              help="Admitir correcciones tras los resultados definitivos: el juez árbitro podrá reabrir una "
                   "partida, con motivo (IV.32: sin esta opción, los resultados definitivos no se modifican).")
@click.option("--seconds", type=SECONDS, default=ROUND_SECONDS, show_default=True, help="Segundos por ronda (III.13).")
@click.option("--partial-every", type=NUMBER, default=3, show_default=True,
              help="Rondas entre clasificaciones parciales.")
@click.option("--judge-name", default="juez", show_default=True,
              help="Nombre del juez árbitro (queda en el historial de cada decisión).")
@common
def tournament_create(context: Context, name: str, venue: str, start_date: Any, end_date: Any, bonus: str,
                      bonus_value: int, criterion: str, tie_breaks: bool, oriented: bool, board: bool, seconds: int,
                      partial_every: int, judge_name: str, venue_bonuses: bool,
                      corrections_after_final: bool) -> None:
    """Crea un torneo NOMBRE con sus criterios (fijados antes de empezar)."""
    settings = TournamentSettings(bonus_mode=bonus, bonus_value=bonus_value, criterion=criterion,
                                  tie_breaks=tie_breaks, oriented_notation=oriented, board_notation=board,
                                  seconds_per_round=seconds,
                                  partial_every=partial_every, venue_bonuses=venue_bonuses,
                                  corrections_after_final=corrections_after_final)
    context.creates = True
    service = context.service.with_pin(context.new_pin("PIN o contraseña del juez árbitro del nuevo torneo"))
    tournament_id = service.create_tournament(
        name, venue=venue, start_date=start_date.date() if start_date else None,
        end_date=end_date.date() if end_date else None, settings=settings, lexicon_path=context.lexicon_path, judge_name=judge_name)
    click.echo(f"Torneo {tournament_id} creado: «{name}».")


@tournament.command("list")
@common
def tournament_list(context: Context) -> None:
    """Lista los torneos de la base de datos."""
    for item in context.service.tournaments():
        dates = f"{item.start_date or ''}{' – ' + str(item.end_date) if item.end_date else ''}"
        say(f"{item.id:>4}  {item.name}  {item.venue}  {dates}".rstrip())


@tournament.command("show")
@common
def tournament_show(context: Context) -> None:
    """Muestra el torneo, sus criterios, jugadores y partidas."""
    service = context.service
    item = service.tournament(context.tournament)
    settings = TournamentSettings.from_dict(item.settings)
    say(f"Torneo {item.id}: {item.name} — {item.venue}")
    click.echo(f"Léxico: {item.lexicon_hash[:16]}…")
    click.echo(f"Bonificación: {label(BONUS_MODES, settings.bonus_mode)}"
               f"{f' ({settings.bonus_value})' if settings.bonus_mode == 'manual' else ''}; "
               f"clasificación: {label(CRITERION_NAMES, settings.criterion)}; desempates III.28: {'sí' if settings.tie_breaks else 'no'}; "
               f"notación orientada (II.8): {'sí' if settings.oriented_notation else 'no'}; "
               f"notación de tablero (II.8): {'sí' if settings.board_notation else 'no'}; "
               f"correcciones tras los resultados definitivos (IV.32): "
               f"{'sí' if settings.corrections_after_final else 'no'}")
    for warning in service.bonus_warnings(item.id):
        click.echo(f"Aviso: {warning}")
    click.echo(f"Jugadores: {item.players} ({counted(item.active_players, 'activo')}{item.field_note()}); "
               f"partidas: {len(item.games)}")
    for game_info in item.games:
        click.echo(f"  partida {game_info.number}: {label(GAME_STATUS, game_info.status)}, {counted(game_info.rounds, 'ronda')}"
                   f"{', ' + game_info.end_reason if game_info.end_reason else ''}")


@tournament.command("settings")
@click.option("--oriented/--no-oriented", default=None,
              help="Admitir papeletas en notación canónica orientada, con flecha (II.8, III.20.1.b).")
@click.option("--board/--no-board", default=None,
              help="Admitir papeletas en notación de tablero (II.8, III.20.1.c–d).")
@click.option("--corrections-after-final/--no-corrections-after-final", default=None,
              help="Admitir correcciones tras los resultados definitivos: reabrir una partida, con motivo (IV.32).")
@click.option("--reason", default="", help="Motivo del cambio (queda en el historial).")
@common
def tournament_settings(context: Context, oriented: bool | None, board: bool | None,
                        corrections_after_final: bool | None, reason: str) -> None:
    """Cambia las notaciones admitidas (II.8) y las correcciones tras los resultados
    definitivos (IV.32) antes de empezar a jugar; lo que no se indica queda como está."""
    service = context.acting
    settings = service.settings(context.tournament)
    if (oriented, board, corrections_after_final) != (None, None, None):
        settings = replace(settings,
                           oriented_notation=settings.oriented_notation if oriented is None else oriented,
                           board_notation=settings.board_notation if board is None else board,
                           corrections_after_final=(settings.corrections_after_final if corrections_after_final is None
                                                    else corrections_after_final))
        service.change_settings(context.tournament, settings, reason=reason)
    click.echo(f"Notación orientada (II.8): {'sí' if settings.oriented_notation else 'no'}; "
               f"notación de tablero (II.8): {'sí' if settings.board_notation else 'no'}; "
               f"correcciones tras los resultados definitivos (IV.32): "
               f"{'sí' if settings.corrections_after_final else 'no'}.")


@tournament.command("pin")
@click.argument("role", type=SpanishChoice({"juez": "judge", "auxiliar": "assistant"}))
@click.option("--name", default=None,
              help="Nombre del auxiliar (el de su tramo de mesas, «assistant set»), o del juez de una sede.")
@click.option("--venue", default=None,
              help="Sede en línea del puesto («venue add»): sus derechos acaban en esa sede. Sin ella, "
                   "un auxiliar que ya tiene PIN sigue en su sede.")
@click.option("--organiser-room", is_flag=True,
              help="Con «assistant»: lleva al auxiliar a la sala del organizador (sin sede).")
@click.option("--tables", type=TABLE_SPAN, default=None,
              help="Con «assistant»: su tramo de mesas, de la A a la B (como «assistant set»); se guarda con el "
                   "PIN, a la vez.")
@click.option("--new-pin-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Archivo con el PIN nuevo en su primera línea (si no, se pregunta dos veces sin mostrarlo).")
@click.option("--revoke", is_flag=True, help="Quita el PIN del auxiliar: ya no puede entrar.")
@common
def tournament_pin(context: Context, role: str, name: str | None, venue: str | None, organiser_room: bool,
                   tables: tuple[int, int] | None, new_pin_file: Path | None, revoke: bool) -> None:
    """El juez árbitro asigna el PIN del juez o el de un auxiliar (al menos 6 caracteres,
    distinto de los demás; solo se guarda su resumen scrypt). Con --venue, el del juez o
    el de un auxiliar de esa sede en línea, cuyos derechos acaban en su sede; el juez de
    una sede solo asigna el suyo y los de sus auxiliares."""
    if organiser_room:
        if venue is not None or role != "assistant":
            raise click.UsageError("--organiser-room solo va con «assistant» y sin --venue")
        venue = ""
    span = tables
    if span is not None and role != "assistant":
        raise click.UsageError("--tables solo va con «assistant»: es el tramo de mesas de un auxiliar")
    if revoke:
        if role != "assistant":
            raise click.UsageError("--revoke solo quita el PIN de un auxiliar")
        new = ""
    elif new_pin_file is not None:
        new = read_pin(new_pin_file)
    elif sys.stdin.isatty():
        new = str(click.prompt("PIN nuevo", hide_input=True, confirmation_prompt=True))
    else:
        raise click.UsageError("indique el PIN nuevo con --new-pin-file ARCHIVO (nunca en la línea de órdenes)")
    context.acting.set_pin(role, new, name=name, tournament_id=context.tournament, venue=venue,
                           tables=span)                      # one transaction: the PIN and its tables, or neither
    where = f" de la sede «{venue}»" if venue else ""
    who = (f"del juez árbitro{where}" if role == "judge" else f"del auxiliar «{name}»{where}")
    say(f"PIN {who} {'quitado' if revoke else 'guardado'}.")
    if span is not None and name:
        say(f"{name}: mesas {span[0]}–{span[1]}.")
    warning = (context.service.assistant_without_tables(name, context.tournament)
               if role == "assistant" and name and not revoke else None)
    if warning:
        click.echo(f"Aviso: {warning}.")


@tournament.command("key")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Archivo donde escribir la clave pública (PEM) para el organizador.")
@common
def tournament_key(context: Context, out: Path) -> None:
    """Escribe la clave pública de firma del torneo (PEM) en --out e imprime su huella: el
    juez árbitro la manda al organizador, que la registra («venue key»), y le lee la huella
    por teléfono. Un torneo sin clave en esta instalación (anterior a las claves, o
    restaurado: la clave privada nunca va en el registro) recibe una nueva, anotada en el
    historial."""
    key = context.acting.tournament_key(context.tournament)
    out.write_text(key.pem, encoding="ascii")
    if key.made:
        click.echo("Clave de firma nueva creada para este torneo (queda en el historial); regístrela de nuevo en el "
                   "organizador si registró otra.")
    click.echo(f"Clave pública del torneo escrita en {out}.")
    click.echo(f"Huella: {key.fingerprint}")
