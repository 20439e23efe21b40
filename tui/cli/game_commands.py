"""Games and tables: start, end, publish, reopen, annul a master, the board; seating (II.6)."""

from __future__ import annotations

from pathlib import Path

import click

from duplicate.plurals import counted
from duplicate.rules.statuses import SeatingMethod
from duplicate.service.views import BoardCells
from tui.cli.listing import emit_rows
from tui.cli.options import (
    NUMBER,
    SEATING,
    SEED,
    SECONDS,
    Context,
    common,
    format_option,
    game_option,
)


# --- games and tables ---------------------------------------------------------------------------
@click.group()
def game() -> None:
    """Partidas: empezar, terminar, publicar resultados, reabrir."""


@game.command("start")
@click.option("--rounds", type=NUMBER, default=None, help="Rondas pactadas (por defecto, bolsa completa).")
@click.option("--seconds", type=SECONDS, default=None, help="Segundos por ronda.")
@click.option("--seed", type=SEED, default=None, help="Semilla del sorteo de fichas.")
@click.option("--seating", type=SEATING, default=None,
              help="Asignación de mesas (II.6; por defecto, clasificación parcial o alfabético).")
@click.option("--seating-seed", type=SEED, default=None, help="Semilla del sorteo de mesas (--seating random).")
@click.option("--unpublished-reason", default="",
              help="Empezar aunque la partida anterior no tenga publicados sus resultados: el motivo (IV.32).")
@click.option("--prepared", "prepared_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Jugar esta partida preparada (duplicada maestra, III.15): sus atriles y sus maestras.")
@common
def game_start(context: Context, rounds: int | None, seconds: int | None, seed: int | None, seating: str | None,
               seating_seed: int | None, unpublished_reason: str, prepared_path: Path | None) -> None:
    """Crea la siguiente partida y asigna las mesas (IV.32: con los resultados de la anterior publicados)."""
    prepared = None
    if prepared_path is not None:
        from duplicate.prepared.file import PreparedFileError, load_prepared

        try:
            prepared = load_prepared(prepared_path)[0]
        except PreparedFileError as error:
            raise click.ClickException(str(error)) from None
    service = context.acting
    number = service.create_game(tournament_id=context.tournament, rounds=rounds, seconds_per_round=seconds, seed=seed,
                                 seating=SeatingMethod(seating) if seating else None, seating_seed=seating_seed,
                                 unpublished_reason=unpublished_reason, prepared=prepared)
    seats = service.seats(number, context.tournament)
    click.echo(f"Partida {number} creada; {counted(len(seats), 'jugador')} en sus mesas.")
    if prepared is not None:
        click.echo(f"Partida preparada (III.15): {len(prepared.rounds)} rondas, {prepared.total} puntos; "
                   f"resumen {prepared.digest[:16]}…; «rack draw» saca su atril y «master choose» coloca su maestra.")
    for warning in service.bonus_warnings(context.tournament):
        click.echo(f"Aviso: {warning}")


@game.command("end")
@game_option
@click.option("--reason", default="", help="Motivo (III.22).")
@common
def game_end(context: Context, game_number: int | None, reason: str) -> None:
    """El juez árbitro termina la partida (III.22), en cualquier momento del juego: un atril
    en juego sin jugar se retira y sus papeletas se apartan (III.29; quedan en el historial)."""
    text = context.acting.end_game(context.game(game_number), tournament_id=context.tournament, reason=reason)
    click.echo(f"Partida terminada: {text}")


@game.command("publish")
@game_option
@click.option("--final", is_flag=True, help="Resultados definitivos (bloquea la partida).")
@common
def game_publish(context: Context, game_number: int | None, final: bool) -> None:
    """Publica los resultados provisionales (o definitivos con --final) (III.26)."""
    number = context.game(game_number)
    service = context.acting
    players = len(service.publish(number, final=final, tournament_id=context.tournament))
    if service.venues(context.tournament):          # the whole field (issue 27 §2), not only this room
        players = len(service.venue_game_standings(number, tournament_id=context.tournament))
    click.echo(f"Partida {number}: resultados {'definitivos' if final else 'provisionales'} "
               f"publicados ({counted(players, 'jugador')}).")
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
    context.acting.reopen(number, reason=reason, tournament_id=context.tournament)
    click.echo(f"Partida {number} reabierta: resultados provisionales.")


@game.command("annul-master")
@click.argument("round_number", type=NUMBER)
@game_option
@click.option("--reason", required=True)
@common
def game_annul_master(context: Context, round_number: int, game_number: int | None, reason: str) -> None:
    """III.29: la jugada maestra de RONDA era incorrecta; sigue en el tablero y quien la jugó tiene 0."""
    count = context.acting.annul_master(context.game(game_number), round_number, tournament_id=context.tournament, reason=reason)
    click.echo(f"Ronda {round_number}: jugada maestra anulada; {counted(count, 'papeleta')} a 0.")


PREMIUM_MARKS = {(1, 1): "·", (2, 1): "'", (3, 1): '"', (1, 2): "-", (1, 3): "="}
"""(letter premium, word premium) → the mark of an empty square in ``board_picture``."""


def board_picture(board: BoardCells) -> str:
    """A plain-text picture of ``board`` for the terminal: column numbers above, row
    letters beside, three columns a square; tiles as written (a blank in lowercase),
    empty squares by their premium (``· ' " - =``: plain, 2L, 3L, 2P, 3P)."""
    lines = ["    " + "".join(f"{column + 1:>3}" for column in range(len(board.rows)))]
    for row, line in enumerate(board.rows):
        squares = "".join(f"{cell.shown or PREMIUM_MARKS[(cell.letter_premium, cell.word_premium)]:>3}" for cell in line)
        lines.append(f"  {board.row_name(row)} {squares}")
    return "\n".join(lines)


@game.command("board")
@game_option
@common
def game_board(context: Context, game_number: int | None) -> None:
    """Muestra el tablero y la bolsa de la partida."""
    view = context.service.game_view(context.game(game_number), context.tournament, tops=None)
    click.echo(board_picture(view.board))
    bag = view.bag
    click.echo(f"Bolsa: {counted(bag.total, 'ficha')} ({counted(bag.vowels, 'vocal')}, {counted(bag.consonants, 'consonante')}, "
               f"{counted(bag.blanks, 'comodín')})")


@click.group()
def tables() -> None:
    """Mesas de una partida (II.6)."""


@tables.command("show")
@game_option
@format_option
@common
def tables_show(context: Context, game_number: int | None, output: str) -> None:
    """Lista las mesas y sus jugadores (con la sede de cada uno cuando el torneo tiene sedes en línea)."""
    from duplicate.service.venues import OWN_VENUE

    service = context.service
    seats = service.seats(context.game(game_number), context.tournament)
    rows: list[dict[str, object]] = [{"mesa": table, "jugador": person.name, "club": person.club,
                                      "inscripcion": entry.id} for table, entry, person in seats]
    if service.online_venues(context.tournament):
        here = (service.tournament(context.tournament).venue or "").strip() or OWN_VENUE    # as «standings»
        for row, (_table, entry, _person) in zip(rows, seats, strict=True):
            row["sede"] = entry.venue or here
    emit_rows(rows, output)


@tables.command("assign")
@game_option
@click.option("--seating", type=SEATING, default=None)
@click.option("--seed", type=SEED, default=None)
@common
def tables_assign(context: Context, game_number: int | None, seating: str | None, seed: int | None) -> None:
    """Vuelve a asignar las mesas (antes del primer atril)."""
    number = context.game(game_number)
    seats = context.acting.assign_tables(number, tournament_id=context.tournament,
                                          method=SeatingMethod(seating) if seating else None, seed=seed)
    click.echo(f"Partida {number}: {counted(len(seats), 'mesa asignada')}.")
