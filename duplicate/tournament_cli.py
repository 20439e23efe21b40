"""Tournament commands of ``duplicada`` (issue 3 §8), over ``TournamentService``.

Every command takes ``--db URL`` (default: ``$DUPLICADA_DB`` or a SQLite file in the
user's data directory), ``--tournament ID`` (default: the newest tournament) and, where
it matters, ``--game N`` (default: the game in play) and ``--station``/``--arbiter``
(recorded with every event). Output and messages are in Spanish; a refused action exits
with status 1 and says why, bad input with status 2.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from data.rules import ROUND_SECONDS
from duplicate.database import DatabaseError, open_database
from duplicate.listing import emit_rows
from duplicate.models import EntryStatus, SeatingMethod
from duplicate.service import (
    CredentialRefused,
    EntryResult,
    NotAuthorised,
    TournamentError,
    TournamentService,
    TournamentSettings,
)
from duplicate.slips import SlipStatus
from duplicate.standings import BonusMode, TournamentCriterion
from lexicon.lexicon import Lexicon, LexiconError
from ranking.service import EloDIHooks

F = TypeVar("F", bound=Callable[..., Any])

STATION_ENV = "DUPLICADA_STATION"


def station_name(station: str | None) -> str:
    """``--station``, else ``$DUPLICADA_STATION``, else the machine's name."""
    return station or os.environ.get(STATION_ENV) or socket.gethostname()


PIN_ENV = "DUPLICADA_PIN"
"""Environment variable holding the station's credential (never a command-line argument)."""

REFUSED_STATUS = 3
"""Exit status of an action the credential may not do, or a credential refused."""


def read_pin(pin_file: Path | None, *, prompt: str = "PIN o contraseña de este puesto") -> str:
    """The station's credential: the first line of ``pin_file``, else ``$DUPLICADA_PIN``,
    else a hidden prompt when a person is at the terminal. Never echoed nor logged.
    Raises ``click.ClickException`` (Spanish) when there is none."""
    if pin_file is not None:
        try:
            lines = pin_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise click.ClickException(f"no se puede leer el archivo del PIN {pin_file}: {error.__class__.__name__}")
        if not lines or not lines[0].strip():
            raise click.ClickException(f"el archivo del PIN {pin_file} está vacío")
        return lines[0].rstrip("\r\n")
    pin = os.environ.get(PIN_ENV)
    if pin:
        return pin
    if sys.stdin.isatty():
        return str(click.prompt(prompt, hide_input=True))
    raise click.ClickException(f"esta acción necesita la credencial del puesto: use --pin-file ARCHIVO o la variable "
                               f"{PIN_ENV} (nunca el PIN en la línea de órdenes)")


class Context:
    """What the common options give a command: the service and the selected ids.

    ``service``: a read-only handle (no credential); ``acting``: the same service acting
    with this station's credential (``read_pin``), for the commands that change the record.
    """

    def __init__(self, db: str | None, tournament: int | None, station: str | None, arbiter: str,
                 lexicon: Path | None, pin_file: Path | None = None) -> None:
        self.db_url = db
        self.tournament = tournament
        self.station = station_name(station)
        self.arbiter = arbiter
        self.lexicon_path = lexicon
        self.pin_file = pin_file
        self.elodi: EloDIHooks | None = None
        self._service: TournamentService | None = None
        self._acting: TournamentService | None = None

    @property
    def service(self) -> TournamentService:
        if self._service is None:
            try:
                database = open_database(self.db_url)
            except DatabaseError as error:
                raise click.ClickException(str(error)) from None
            lexicon = None
            if self.lexicon_path is not None:
                try:
                    lexicon = Lexicon.load(self.lexicon_path)
                except LexiconError as error:
                    raise click.ClickException(str(error)) from None
            self.elodi = EloDIHooks(database)
            self._service = TournamentService(database, station=self.station, lexicon=lexicon,
                                              hooks=self.elodi.hooks())
        return self._service

    @property
    def acting(self) -> TournamentService:
        if self._acting is None:
            self._acting = self.service.with_pin(read_pin(self.pin_file))
        return self._acting

    def new_pin(self, prompt: str) -> str:
        """A new credential (a tournament's judge PIN): from ``--pin-file`` or
        ``$DUPLICADA_PIN``, else asked twice at the terminal."""
        if self.pin_file is None and not os.environ.get(PIN_ENV) and sys.stdin.isatty():
            return str(click.prompt(prompt, hide_input=True, confirmation_prompt=True))
        return read_pin(self.pin_file)

    def game(self, number: int | None) -> int:
        return number if number is not None else self.service.current_game(self.tournament)


def common(command: F) -> F:
    """Add ``--db``, ``--tournament``, ``--station``, ``--arbiter``, ``--lexicon``,
    ``--pin-file``; turn ``TournamentError`` into a clean exit (status 3 when the
    credential is refused or may not do the action, 1 otherwise)."""

    @click.option("--db", envvar="DUPLICADA_DB", default=None, metavar="URL",
                  help="Base de datos: URL de SQLAlchemy o archivo SQLite (por defecto, el de la carpeta de datos).")
    @click.option("--tournament", "tournament_id", type=int, default=None, help="Id del torneo (por defecto, el último).")
    @click.option("--station", default=None, help="Nombre de este puesto (por defecto, $DUPLICADA_STATION o el equipo).")
    @click.option("--arbiter", default="", help="Árbitro que hace la acción (se anota).")
    @click.option("--lexicon", "lexicon_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
                  help="Léxico compilado del torneo (por defecto, el del torneo o el incluido).")
    @click.option("--pin-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
                  help=f"Archivo con el PIN del puesto en su primera línea (si no, ${PIN_ENV} o se pregunta).")
    @wraps(command)
    def wrapper(db: str | None, tournament_id: int | None, station: str | None, arbiter: str,
                lexicon_path: Path | None, pin_file: Path | None, **kwargs: Any) -> Any:
        context = Context(db, tournament_id, station, arbiter, lexicon_path, pin_file)
        try:
            return command(context, **kwargs)
        except (NotAuthorised, CredentialRefused) as error:
            click.echo(f"Denegado: {error}", err=True)
            raise click.exceptions.Exit(REFUSED_STATUS) from None
        except TournamentError as error:
            raise click.ClickException(str(error)) from None

    return wrapper  # type: ignore[return-value]


game_option = click.option("--game", "game_number", type=int, default=None,
                           help="Número de partida (por defecto, la que está en juego).")
round_option = click.option("--round", "round_number", type=int, default=None,
                            help="Ronda (por defecto, la última con atril).")


def register(main: click.Group) -> None:
    """Add the tournament commands to the ``duplicada`` group."""
    from duplicate.publish import publish
    from duplicate.simulate import simulate

    for command in (tournament, player, assistant, game, tables, rack, master, slip, round_, claim, standings,
                    export, verify, history, simulate, publish):
        main.add_command(command)


# --- tournament --------------------------------------------------------------------------
@click.group()
def tournament() -> None:
    """Torneos: crear, listar, ver y cambiar los criterios."""


@tournament.command("create")
@click.argument("name")
@click.option("--venue", default="", help="Lugar.")
@click.option("--start", "start_date", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Fecha de inicio (AAAA-MM-DD).")
@click.option("--end", "end_date", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Fecha de fin (AAAA-MM-DD).")
@click.option("--bonus", type=click.Choice([mode.value for mode in BonusMode]), default=BonusMode.OFF.value,
              show_default=True, help="Bonificaciones (III.24).")
@click.option("--bonus-value", type=click.IntRange(min=1), default=10, show_default=True,
              help="Valor de la bonificación manual (III.24 aconseja 5 o 10).")
@click.option("--criterion", type=click.Choice([c.value for c in TournamentCriterion]),
              default=TournamentCriterion.TOTAL.value, show_default=True, help="Clasificación del torneo (IV.31).")
@click.option("--tie-breaks/--no-tie-breaks", default=False, show_default=True,
              help="Desempates III.28 en la clasificación de cada partida.")
@click.option("--oriented/--no-oriented", default=True, show_default=True,
              help="Admitir la notación canónica orientada (III.20.1.b).")
@click.option("--seconds", type=click.IntRange(min=10), default=ROUND_SECONDS, show_default=True, help="Segundos por ronda (III.13).")
@click.option("--partial-every", type=click.IntRange(min=1), default=3, show_default=True,
              help="Rondas entre clasificaciones parciales.")
@common
def tournament_create(context: Context, name: str, venue: str, start_date: Any, end_date: Any, bonus: str,
                      bonus_value: int, criterion: str, tie_breaks: bool, oriented: bool, seconds: int,
                      partial_every: int) -> None:
    """Crea un torneo NAME con sus criterios (fijados antes de empezar)."""
    settings = TournamentSettings(bonus_mode=bonus, bonus_value=bonus_value, criterion=criterion,
                                  tie_breaks=tie_breaks, oriented_notation=oriented, seconds_per_round=seconds,
                                  partial_every=partial_every)
    service = context.service.with_pin(context.new_pin("PIN o contraseña del juez árbitro del nuevo torneo"))
    tournament_id = service.create_tournament(
        name, venue=venue, start_date=start_date.date() if start_date else None,
        end_date=end_date.date() if end_date else None, settings=settings, lexicon_path=context.lexicon_path,
        arbiter=context.arbiter)
    click.echo(f"Torneo {tournament_id} creado: «{name}».")


@tournament.command("list")
@common
def tournament_list(context: Context) -> None:
    """Lista los torneos de la base de datos."""
    for item in context.service.tournaments():
        dates = f"{item.start_date or ''}{' – ' + str(item.end_date) if item.end_date else ''}"
        click.echo(f"{item.id:>4}  {item.name}  {item.venue}  {dates}".rstrip())


@tournament.command("show")
@common
def tournament_show(context: Context) -> None:
    """Muestra el torneo, sus criterios, jugadores y partidas."""
    service = context.service
    item = service.tournament(context.tournament)
    settings = TournamentSettings.from_dict(item.settings)
    click.echo(f"Torneo {item.id}: {item.name} — {item.venue}")
    click.echo(f"Léxico: {item.lexicon_hash[:16]}…")
    click.echo(f"Bonificación: {settings.bonus_mode}"
               f"{f' ({settings.bonus_value})' if settings.bonus_mode == 'manual' else ''}; "
               f"clasificación: {settings.criterion}; desempates III.28: {'sí' if settings.tie_breaks else 'no'}; "
               f"notación orientada: {'sí' if settings.oriented_notation else 'no'}")
    for warning in service.bonus_warnings(item.id):
        click.echo(f"Aviso: {warning}")
    click.echo(f"Jugadores: {item.players} ({item.active_players} activos); partidas: {len(item.games)}")
    for game_info in item.games:
        click.echo(f"  partida {game_info.number}: {game_info.status}, {game_info.rounds} rondas"
                   f"{', ' + game_info.end_reason if game_info.end_reason else ''}")


@tournament.command("pin")
@click.argument("role", type=click.Choice(["judge", "assistant"]))
@click.option("--name", default=None, help="Nombre del auxiliar (el de su tramo de mesas, «assistant set»).")
@click.option("--new-pin-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Archivo con el PIN nuevo en su primera línea (si no, se pregunta dos veces sin mostrarlo).")
@click.option("--revoke", is_flag=True, help="Quita el PIN del auxiliar: ya no puede entrar.")
@common
def tournament_pin(context: Context, role: str, name: str | None, new_pin_file: Path | None, revoke: bool) -> None:
    """El juez árbitro asigna el PIN del juez o el de un auxiliar (al menos 6 caracteres,
    distinto de los demás; solo se guarda su resumen scrypt)."""
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
    context.acting.set_pin(role, new, name=name, tournament_id=context.tournament)
    who = "del juez árbitro" if role == "judge" else f"del auxiliar «{name}»"
    click.echo(f"PIN {who} {'quitado' if revoke else 'guardado'}.")


# --- players and assistants ------------------------------------------------------------------
@click.group()
def player() -> None:
    """Jugadores: inscribir, importar (CSV), listar, cambiar su estado."""


@player.command("add")
@click.argument("name")
@click.option("--club", default="")
@click.option("--country", default="")
@click.option("--federation-id", default=None, help="Identificador federativo.")
@common
def player_add(context: Context, name: str, club: str, country: str, federation_id: str | None) -> None:
    """Inscribe al jugador NAME en el torneo."""
    entry = context.acting.add_player(name, club=club, country=country, federation_id=federation_id,
                                       tournament_id=context.tournament, arbiter=context.arbiter)
    click.echo(f"Inscrito: {name} (inscripción {entry}).")


@player.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@common
def player_import(context: Context, path: Path) -> None:
    """Importa jugadores de un CSV con cabecera: nombre, club, pais, federacion."""
    entries = context.acting.import_players(path, tournament_id=context.tournament, arbiter=context.arbiter)
    click.echo(f"Inscritos {len(entries)} jugadores desde {path}.")


@player.command("list")
@common
def player_list(context: Context) -> None:
    """Lista los jugadores inscritos."""
    for entry, person in context.service.entries(context.tournament):
        click.echo(f"{entry.id:>4}  {person.name:<30} {person.club:<20} {person.country:<4} "
                   f"{person.federation_id or '':<10} {entry.status}")


@player.command("status")
@click.argument("entry_id", type=int)
@click.argument("status", type=click.Choice([status.value for status in EntryStatus]))
@click.option("--reason", default="")
@common
def player_status(context: Context, entry_id: int, status: str, reason: str) -> None:
    """Cambia el estado de una inscripción (active, withdrawn, absent, disqualified)."""
    context.acting.set_entry_status(entry_id, EntryStatus(status), arbiter=context.arbiter, reason=reason)
    click.echo(f"Inscripción {entry_id}: {status}.")


@click.group()
def assistant() -> None:
    """Árbitros auxiliares y sus rangos de mesas (II.4.c)."""


@assistant.command("set")
@click.argument("name")
@click.argument("first", type=click.IntRange(min=1))
@click.argument("last", type=click.IntRange(min=1))
@common
def assistant_set(context: Context, name: str, first: int, last: int) -> None:
    """Asigna al auxiliar NAME las mesas FIRST a LAST."""
    context.acting.set_assistant_range(name, first, last, tournament_id=context.tournament, arbiter=context.arbiter)
    click.echo(f"{name}: mesas {first}–{last}.")


@assistant.command("list")
@common
def assistant_list(context: Context) -> None:
    """Lista los auxiliares y sus mesas."""
    for item in context.service.assistant_ranges(context.tournament):
        click.echo(f"{item.assistant:<20} mesas {item.first_table}–{item.last_table}")


# --- games and tables ---------------------------------------------------------------------------
@click.group()
def game() -> None:
    """Partidas: empezar, terminar, publicar resultados, reabrir."""


@game.command("start")
@click.option("--rounds", type=click.IntRange(min=1), default=None, help="Rondas pactadas (por defecto, bolsa completa).")
@click.option("--seconds", type=click.IntRange(min=10), default=None, help="Segundos por ronda.")
@click.option("--seed", type=int, default=None, help="Semilla del sorteo de fichas.")
@click.option("--seating", type=click.Choice([method.value for method in SeatingMethod]), default=None,
              help="Asignación de mesas (II.6; por defecto, clasificación parcial o alfabético).")
@click.option("--seating-seed", type=int, default=None, help="Semilla del sorteo de mesas (--seating random).")
@common
def game_start(context: Context, rounds: int | None, seconds: int | None, seed: int | None, seating: str | None,
               seating_seed: int | None) -> None:
    """Crea la siguiente partida y asigna las mesas."""
    service = context.acting
    number = service.create_game(tournament_id=context.tournament, rounds=rounds, seconds_per_round=seconds, seed=seed,
                                 seating=SeatingMethod(seating) if seating else None, seating_seed=seating_seed,
                                 arbiter=context.arbiter)
    seats = service.seats(number, context.tournament)
    click.echo(f"Partida {number} creada; {len(seats)} jugadores en sus mesas.")
    for warning in service.bonus_warnings(context.tournament):
        click.echo(f"Aviso: {warning}")


@game.command("end")
@game_option
@click.option("--reason", default="", help="Motivo (III.22).")
@common
def game_end(context: Context, game_number: int | None, reason: str) -> None:
    """El juez árbitro termina la partida (III.22)."""
    text = context.acting.end_game(context.game(game_number), tournament_id=context.tournament,
                                    arbiter=context.arbiter, reason=reason)
    click.echo(f"Partida terminada: {text}")


@game.command("publish")
@game_option
@click.option("--final", is_flag=True, help="Resultados definitivos (bloquea la partida).")
@common
def game_publish(context: Context, game_number: int | None, final: bool) -> None:
    """Publica los resultados provisionales (o definitivos con --final) (III.26)."""
    number = context.game(game_number)
    standings_ = context.acting.publish(number, final=final, tournament_id=context.tournament,
                                         arbiter=context.arbiter)
    click.echo(f"Partida {number}: resultados {'definitivos' if final else 'provisionales'} "
               f"publicados ({len(standings_)} jugadores).")
    update = context.elodi.last_update if context.elodi is not None else None
    if final and update is not None:
        # V: the service rated the game once (or recomputed after a reopen).
        for ref in update.rated:
            click.echo(f"EloDI: valorada {ref.label} («duplicada elodi report --game {number}»).")
        for ref, why in update.skipped:
            click.echo(f"EloDI: no se valora {ref.label}: {why}.")


@game.command("reopen")
@game_option
@click.option("--reason", required=True, help="Motivo (obligatorio, queda anotado).")
@common
def game_reopen(context: Context, game_number: int | None, reason: str) -> None:
    """Reabre una partida con resultados definitivos (queda anotado)."""
    number = context.game(game_number)
    context.acting.reopen(number, reason=reason, tournament_id=context.tournament, arbiter=context.arbiter)
    click.echo(f"Partida {number} reabierta: resultados provisionales.")


@game.command("annul-master")
@click.argument("round_number", type=int)
@game_option
@click.option("--reason", required=True)
@common
def game_annul_master(context: Context, round_number: int, game_number: int | None, reason: str) -> None:
    """III.29: la jugada maestra de ROUND era incorrecta; sigue en el tablero y quien la jugó tiene 0."""
    count = context.acting.annul_master(context.game(game_number), round_number, tournament_id=context.tournament,
                                         arbiter=context.arbiter, reason=reason)
    click.echo(f"Ronda {round_number}: jugada maestra anulada; {count} papeletas a 0.")


@game.command("board")
@game_option
@common
def game_board(context: Context, game_number: int | None) -> None:
    """Muestra el tablero y la bolsa de la partida."""
    engine = context.service.engine(context.game(game_number), context.tournament)
    click.echo(engine.board.render())
    counts = engine.bag.counts()
    click.echo(f"Bolsa: {len(engine.bag)} fichas ({counts.vowels} vocales, {counts.consonants} consonantes, "
               f"{counts.blanks} comodines)")


@click.group()
def tables() -> None:
    """Mesas de una partida (II.6)."""


@tables.command("show")
@game_option
@click.option("--format", "output", type=click.Choice(["table", "csv", "json"]), default="table")
@common
def tables_show(context: Context, game_number: int | None, output: str) -> None:
    """Lista las mesas y sus jugadores."""
    rows = [{"mesa": table, "jugador": person.name, "club": person.club, "inscripcion": entry.id}
            for table, entry, person in context.service.seats(context.game(game_number), context.tournament)]
    emit_rows(rows, output)


@tables.command("assign")
@game_option
@click.option("--seating", type=click.Choice([method.value for method in SeatingMethod]), default=None)
@click.option("--seed", type=int, default=None)
@common
def tables_assign(context: Context, game_number: int | None, seating: str | None, seed: int | None) -> None:
    """Vuelve a asignar las mesas (antes del primer atril)."""
    number = context.game(game_number)
    seats = context.acting.assign_tables(number, tournament_id=context.tournament,
                                          method=SeatingMethod(seating) if seating else None, seed=seed,
                                          arbiter=context.arbiter)
    click.echo(f"Partida {number}: {len(seats)} mesas asignadas.")


# --- racks and masters --------------------------------------------------------------------------
@click.group()
def rack() -> None:
    """Atriles: sacar de la bolsa o introducir el del juez (III.12, III.17, III.19)."""


@rack.command("draw")
@game_option
@common
def rack_draw(context: Context, game_number: int | None) -> None:
    """Saca el atril de la ronda siguiente."""
    number = context.game(game_number)
    view = context.acting.draw_rack(number, tournament_id=context.tournament, arbiter=context.arbiter)
    if view is None:
        click.echo(f"La partida {number} ha terminado: no se puede formar un atril válido (III.22).")
        return
    _show_round(view)


@rack.command("set")
@click.argument("text")
@click.option("--redraw", is_flag=True, help="Cambio de fichas: las que quedaban vuelven a la bolsa (III.19).")
@game_option
@common
def rack_set(context: Context, text: str, redraw: bool, game_number: int | None) -> None:
    """Usa el atril TEXT introducido por el juez (comodín: ?)."""
    view = context.acting.set_rack(context.game(game_number), text, redraw=redraw, tournament_id=context.tournament,
                                    arbiter=context.arbiter)
    _show_round(view)


def _show_round(view: Any) -> None:
    for redraw in view.redraws:
        click.echo(f"Cambio de fichas (III.19): {redraw['rack']} — {redraw['reason']}")
    click.echo(f"Ronda {view.number}: atril {view.rack}; {view.move_count} jugadas válidas, "
               f"máxima puntuación {view.top_score}.")
    for index, (text, score, reason) in enumerate(view.top_moves):
        click.echo(f"  {index}. {text:<24} {score:>4}  {reason}")


@click.group()
def master() -> None:
    """Jugada maestra (III.15)."""


@master.command("choose")
@click.argument("choice", required=False, default="0")
@game_option
@click.option("--reason", default="")
@common
def master_choose(context: Context, choice: str, game_number: int | None, reason: str) -> None:
    """Coloca la jugada maestra: CHOICE es el número en la lista de empates (0 = la del
    reglamento) o su notación canónica."""
    view = context.acting.choose_master(context.game(game_number), choice, tournament_id=context.tournament,
                                         arbiter=context.arbiter, reason=reason)
    click.echo(f"Ronda {view.number}: {view.master} — {view.master_score} puntos; acumulado {view.cumulative}.")


# --- slips -------------------------------------------------------------------------------------------
@click.group()
def slip() -> None:
    """Papeletas: introducir, marcar, corregir, comprobar, importar (III.20, III.25)."""


def _slip_label(stored: Any) -> str:
    if stored is None:
        return ""
    return stored.text or stored.status


def _show_entry(result: EntryResult) -> None:
    verdict = result.verdict
    head = f"Mesa {result.table} ({result.player}), ronda {result.round_number}:"
    if result.outcome == "conflict":
        click.echo(f"{head} CONFLICTO {result.conflict_id}: ya hay otra papeleta; la resuelve el juez árbitro.")
        return
    if result.outcome == "repeated":
        click.echo(f"{head} ya estaba registrada igual; sin cambios.")
        return
    if result.outcome == "checked":
        click.echo(f"{head} comprobada, coincide.")
        return
    text = f"{verdict.canonical} — {verdict.score} puntos" if verdict.valid else f"0 puntos: {verdict.reason}"
    click.echo(f"{head} {text}{f' ({verdict.hint})' if verdict.hint else ''}")


@slip.command("enter")
@click.argument("table", type=click.IntRange(min=1))
@click.argument("text")
@game_option
@round_option
@common
def slip_enter(context: Context, table: int, text: str, game_number: int | None, round_number: int | None) -> None:
    """Introduce la papeleta TEXT de la mesa TABLE (p. ej. 12 "H8-CASA")."""
    result = context.acting.enter_slip(context.game(game_number), table, text, round_number=round_number,
                                        tournament_id=context.tournament, assistant=context.arbiter or context.station)
    _show_entry(result)


@slip.command("master")
@click.argument("tables", nargs=-1, type=click.IntRange(min=1), required=True)
@game_option
@round_option
@common
def slip_master(context: Context, tables: tuple[int, ...], game_number: int | None, round_number: int | None) -> None:
    """Anota la jugada maestra a todas las mesas TABLES que la jugaron, de una vez."""
    for result in context.acting.enter_master_slips(context.game(game_number), tables, round_number=round_number,
                                                     tournament_id=context.tournament,
                                                     assistant=context.arbiter or context.station):
        _show_entry(result)


@slip.command("mark")
@click.argument("table", type=click.IntRange(min=1))
@click.argument("status", type=click.Choice([s.value for s in (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)]))
@click.option("--text", default="", help="Lo que ponía la papeleta, si algo.")
@game_option
@round_option
@common
def slip_mark(context: Context, table: int, status: str, text: str, game_number: int | None,
              round_number: int | None) -> None:
    """Marca la papeleta de TABLE: late (fuera de tiempo), null (nula), missing (no entregada)."""
    result = context.acting.mark_slip(context.game(game_number), table, status, text=text, round_number=round_number,
                                       tournament_id=context.tournament, assistant=context.arbiter or context.station)
    _show_entry(result)


@slip.command("check")
@click.argument("table", type=click.IntRange(min=1))
@click.argument("text")
@game_option
@round_option
@common
def slip_check(context: Context, table: int, text: str, game_number: int | None, round_number: int | None) -> None:
    """Doble entrada: vuelve a teclear la papeleta de TABLE; si no coincide, conflicto."""
    result = context.acting.double_check(context.game(game_number), table, text, round_number=round_number,
                                          tournament_id=context.tournament,
                                          assistant=context.arbiter or context.station)
    _show_entry(result)


@slip.command("correct")
@click.argument("table", type=click.IntRange(min=1))
@click.argument("text", required=False)
@click.option("--status", type=click.Choice([s.value for s in (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)]),
              default=None, help="Marca en lugar de texto.")
@click.option("--reason", required=True, help="Motivo de la corrección (queda anotado).")
@game_option
@round_option
@common
def slip_correct(context: Context, table: int, text: str | None, status: str | None, reason: str,
                 game_number: int | None, round_number: int | None) -> None:
    """Corrección del juez árbitro (III.27): nueva papeleta TEXT o marca --status."""
    result = context.acting.correct_slip(context.game(game_number), table, text, status=status,
                                          round_number=round_number, tournament_id=context.tournament,
                                          arbiter=context.arbiter or context.station, reason=reason)
    _show_entry(result)


@slip.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@game_option
@common
def slip_import(context: Context, path: Path, game_number: int | None) -> None:
    """Importa papeletas de un CSV con cabecera: mesa, jugada, ronda (opcional), marca (opcional)."""
    results = context.acting.import_slips(context.game(game_number), path, tournament_id=context.tournament,
                                           assistant=context.arbiter or context.station)
    for result in results:
        _show_entry(result)
    conflicts = sum(1 for result in results if result.outcome == "conflict")
    click.echo(f"{len(results)} papeletas leídas, {conflicts} conflictos.")


@slip.command("list")
@game_option
@round_option
@click.option("--format", "output", type=click.Choice(["table", "csv", "json"]), default="table")
@common
def slip_list(context: Context, game_number: int | None, round_number: int | None, output: str) -> None:
    """Lista las papeletas registradas."""
    rows = [{"ronda": item.round_number, "mesa": item.table_number, "texto": item.text, "jugada": item.move or "",
             "estado": item.status, "puntos": item.score, "motivo": item.reason, "por": item.entered_by}
            for item in context.service.slips(context.game(game_number), round_number, tournament_id=context.tournament)]
    emit_rows(rows, output)


@slip.command("conflicts")
@game_option
@common
def slip_conflicts(context: Context, game_number: int | None) -> None:
    """Conflictos pendientes (papeleta repetida distinta, doble entrada que no coincide)."""
    items = context.service.conflicts(context.game(game_number), tournament_id=context.tournament)
    if not items:
        click.echo("No hay conflictos pendientes.")
    for conflict, stored in items:
        click.echo(f"{conflict.id:>4}  ronda {conflict.round_number}, mesa {conflict.table_number}: "
                   f"«{conflict.mark or conflict.text}» ({conflict.entered_by}) frente a «{_slip_label(stored)}» "
                   f"({stored.entered_by if stored else ''}) [{conflict.kind}]")


@slip.command("resolve")
@click.argument("conflict_id", type=int)
@click.option("--use-new", is_flag=True, help="Sustituir la papeleta registrada por la nueva.")
@click.option("--reason", default="")
@common
def slip_resolve(context: Context, conflict_id: int, use_new: bool, reason: str) -> None:
    """El juez resuelve un conflicto: mantiene la papeleta registrada o la sustituye (--use-new)."""
    context.acting.resolve_conflict(conflict_id, use_new=use_new, arbiter=context.arbiter or context.station,
                                     reason=reason)
    click.echo(f"Conflicto {conflict_id} resuelto: {'papeleta sustituida' if use_new else 'se mantiene la registrada'}.")


# --- rounds -------------------------------------------------------------------------------------------
@click.group("round")
def round_() -> None:
    """Rondas: estado de la entrada de papeletas y cierre."""


@round_.command("status")
@game_option
@round_option
@common
def round_status(context: Context, game_number: int | None, round_number: int | None) -> None:
    """Papeletas introducidas y pendientes, por auxiliar."""
    status = context.service.round_status(context.game(game_number), round_number, tournament_id=context.tournament)
    click.echo(f"Ronda {status.round_number}: {status.entered}/{status.expected} papeletas.")
    for name, (expected, entered, missing) in status.per_assistant.items():
        click.echo(f"  {name}: {entered}/{expected}" + (f"; faltan mesas {', '.join(map(str, missing))}" if missing else ""))
    if status.missing_tables:
        click.echo(f"Faltan: {', '.join(map(str, status.missing_tables))}")


@round_.command("close")
@game_option
@round_option
@common
def round_close(context: Context, game_number: int | None, round_number: int | None) -> None:
    """Cierra la ronda: las papeletas que faltan quedan como no entregadas; bonificaciones (III.24)."""
    bonuses = context.acting.close_round(context.game(game_number), round_number, tournament_id=context.tournament,
                                          arbiter=context.arbiter)
    click.echo("Ronda cerrada." + (" Bonificaciones: " + ", ".join(f"mesa {table} +{points}"
                                                                  for table, points in bonuses.items())
                                   if bonuses else ""))


# --- claims ------------------------------------------------------------------------------------------------
@click.group()
def claim() -> None:
    """Reclamaciones (III.27)."""


@claim.command("file")
@click.argument("round_number", type=int)
@click.argument("table", type=int)
@click.argument("text")
@game_option
@common
def claim_file(context: Context, round_number: int, table: int, text: str, game_number: int | None) -> None:
    """Anota la reclamación TEXT de la mesa TABLE sobre la ronda ROUND."""
    claim_id = context.acting.file_claim(context.game(game_number), round_number, table, text,
                                          tournament_id=context.tournament, arbiter=context.arbiter)
    click.echo(f"Reclamación {claim_id} anotada.")


@claim.command("resolve")
@click.argument("claim_id", type=int)
@click.option("--upheld/--rejected", required=True)
@click.option("--resolution", required=True, help="Resolución del juez árbitro.")
@click.option("--text", "corrected_text", default=None, help="Papeleta corregida (si se acepta).")
@click.option("--status", "corrected_status", default=None,
              type=click.Choice([s.value for s in (SlipStatus.LATE, SlipStatus.NULL, SlipStatus.MISSING)]))
@common
def claim_resolve(context: Context, claim_id: int, upheld: bool, resolution: str, corrected_text: str | None,
                  corrected_status: str | None) -> None:
    """Resuelve una reclamación; si se acepta, con la papeleta corregida."""
    context.acting.resolve_claim(claim_id, upheld=upheld, resolution=resolution, corrected_text=corrected_text,
                                  corrected_status=corrected_status, arbiter=context.arbiter or context.station)
    click.echo(f"Reclamación {claim_id}: {'aceptada' if upheld else 'rechazada'}.")


@claim.command("list")
@game_option
@common
def claim_list(context: Context, game_number: int | None) -> None:
    """Lista las reclamaciones de la partida."""
    for item in context.service.claims(context.game(game_number), tournament_id=context.tournament):
        click.echo(f"{item.id:>4}  ronda {item.round_number}  {item.status:<9} {item.text}"
                   f"{' → ' + item.resolution if item.resolution else ''}")


# --- standings, export, verify, history -------------------------------------------------------------------------
@click.command()
@game_option
@click.option("--overall", is_flag=True, help="Clasificación del torneo (IV.31) en lugar de la de una partida.")
@click.option("--rounds", "per_round", is_flag=True, help="Con el detalle por ronda.")
@click.option("--format", "output", type=click.Choice(["table", "csv", "json"]), default="table")
@common
def standings(context: Context, game_number: int | None, overall: bool, per_round: bool, output: str) -> None:
    """Clasificación de una partida (III.23) o del torneo (--overall, IV.31)."""
    service = context.service
    names = {entry.id: person.name for entry, person in service.entries(context.tournament)}
    rows: list[dict[str, Any]] = []
    if overall:
        for line in service.tournament_standings(context.tournament):
            rows.append({"puesto": line.position, "jugador": names[line.player], "valor": round(line.value, 4),
                         "total": line.total, "bonificaciones": line.bonus_total,
                         "porcentaje": round(line.percentage, 2), "partidas": line.games_played,
                         "puestos": " ".join("-" if place is None else str(place) for place in line.places)})
    else:
        number = context.game(game_number)
        for standing in service.game_standings(number, context.tournament):
            row = {"puesto": standing.position, "jugador": names[standing.player], "total": standing.total,
                   "puntos": standing.round_total, "bonificaciones": standing.bonus_total,
                   "porcentaje": round(standing.percentage, 2), "iguala_maestra": standing.equal_master,
                   "unico_maximo": standing.sole_top, "mayor_diferencia": standing.max_deficit}
            if per_round:
                for index, (points, bonus) in enumerate(zip(standing.per_round, standing.bonuses_per_round,
                                                            strict=True), start=1):
                    row[f"r{index}"] = f"{points}+{bonus}" if bonus else points
            rows.append(row)
    emit_rows(rows, output)


@click.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@common
def export(context: Context, out: Path) -> None:
    """Escribe el registro completo del torneo (JSON) en OUT."""
    record = context.service.export(context.tournament)
    out.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    click.echo(f"Registro del torneo escrito en {out} ({len(record['games'])} partidas, "
               f"{len(record['events'])} eventos).")


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--lexicon", "lexicon_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Léxico compilado (por defecto, el incluido).")
def verify(path: Path, lexicon_path: Path | None) -> None:
    """Comprobador independiente: recalcula todo el registro PATH y lista las diferencias."""
    from duplicate.verify import run_verify

    sys.exit(run_verify(path, lexicon_path, sys.stdout))


@click.command()
@game_option
@click.option("--all", "everything", is_flag=True, help="Todo el torneo, no solo una partida.")
@common
def history(context: Context, game_number: int | None, everything: bool) -> None:
    """Historial de eventos: quién cambió qué, cuándo y por qué."""
    service = context.service
    number = None if everything else context.game(game_number)
    for event in service.history(context.tournament, number):
        where = f"r{event.round_number}" if event.round_number else "  "
        who = event.station + (f"/{event.arbiter}" if event.arbiter else "")
        why = f" — {event.reason}" if event.reason else ""
        click.echo(f"{event.id:>6} {event.created_at:%Y-%m-%d %H:%M:%S} {where:>4} {event.kind:<18} {who:<16} "
                   f"{json.dumps(event.payload, ensure_ascii=False)[:120]}{why}")
