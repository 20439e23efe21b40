"""``duplicada classic division|players|enter|rating|pair-round|boards|result|forfeit|resolve|bye|withdraw|standings|trf``:
running a classic event stored in the tournament database, through ``ClassicService``
with this station's credential (the same ``--db``, ``--tournament``, ``--pin-file`` as the
duplicate commands)."""

from __future__ import annotations

from duplicate.plurals import counted

import csv
import sys
from pathlib import Path
from typing import Any

import click

from tui.cli.listing import emit_json, say
from tui.cli.options import NUMBER, SCORE, Context, SpanishChoice, common, format_option

division_option = click.option("--division", default="", help="División (por defecto, la única sin nombre).")


def _classic(context: Context, *, acting: bool) -> Any:
    from ranking.classic.service import ClassicService

    return ClassicService.like(context.acting if acting else context.service)


def _pairing_errors(call: Any) -> Any:
    from ranking.classic.engines import PairingError

    try:
        return call()
    except PairingError as error:
        raise click.ClickException(str(error)) from None


@click.command("division")
@click.option("--rounds", type=click.IntRange(1, 50), required=True, help="Número de rondas.")
@click.option("--system", default="dutch", show_default=True,
              help="dutch, dutch-2026, dubov, burstein, round-robin, double-round-robin (a doble vuelta) o manual.")
@click.option("--name", default="", help="Nombre de la división (A, B, …).")
@click.option("--bye-spread", type=SCORE, default=50, show_default=True, help="Diferencia que suma el descanso.")
@click.option("--forfeit-spread", type=SCORE, default=50, show_default=True,
              help="Diferencia de una incomparecencia (el que no se presentó la resta).")
@click.option("--tie-breaks", default="BH,SB", show_default=True,
              help="Desempates tras victorias y diferencia (códigos FIDE: BH, SB, DE, …; vacío: ninguno).")
@click.option("--club-rounds", type=click.IntRange(0, 50), default=0, show_default=True,
              help="En las rondas 1 a N no se enfrentan jugadores del mismo club si el sistema puede evitarlo.")
@click.option("--gibson", is_flag=True, help="Regla Gibson: quien tiene asegurado el primer puesto juega con "
                                             "el mejor clasificado que ya no puede ser segundo.")
@click.option("--first-colour", type=SpanishChoice({"sorteo": "sorteo", "blancas": "w", "negras": "b"}), default="sorteo", show_default=True,
              help="Color inicial (C.04.3 E): sorteo, o el del sorteo ya hecho en la sala: w (el número 1 "
                   "empieza en la ronda 1) o b.")
@common
def classic_division(context: Context, rounds: int, system: str, name: str, bye_spread: int, forfeit_spread: int,
                     tie_breaks: str, club_rounds: int, gibson: bool, first_colour: str) -> None:
    """Crea una división clásica en el torneo (solo el juez árbitro)."""
    from ranking.classic.views import FIRST_COLOUR_TEXT, DivisionSettings

    settings = DivisionSettings(bye_spread, forfeit_spread, tuple(t.strip() for t in tie_breaks.split(",") if t.strip()),
                                club_rounds, gibson, "" if first_colour == "sorteo" else first_colour)
    view = _classic(context, acting=True).create_division(rounds=rounds, system=system, name=name, settings=settings,
                                                           tournament_id=context.tournament)
    drawn = "sorteado: " if first_colour == "sorteo" else ""
    click.echo(f"División «{view.name or 'única'}»: {counted(view.rounds, 'ronda')}, sistema {view.system}; color inicial "
               f"{drawn}{FIRST_COLOUR_TEXT[view.settings.first_colour]}.")


@click.command("players")
@division_option
@common
def classic_players(context: Context, division: str) -> None:
    """Fija y muestra la lista inicial (número, nombre, rating, título), en el orden FIDE:
    rating, título, nombre (C.04.2 B)."""
    for number, name, rating, title in _classic(context, acting=True).starting_list(
            division=division, tournament_id=context.tournament):
        say(f"{number:4d}  {name}" + (f"  ({rating})" if rating else "") + (f"  {title}" if title else ""))


title_option = click.option("--title", default=None, help="Título FIDE (GM, IM, WGM, FM, WIM, CM, WFM, WCM).")


@click.command("enter")
@division_option
@click.argument("name")
@click.option("--rating", type=click.IntRange(0, 4000), default=None,
              help="Rating del jugador (por defecto, su EloDI si lo tiene; si no, 0).")
@title_option
@common
def classic_enter(context: Context, division: str, name: str, rating: int | None, title: str | None) -> None:
    """Inscribe en la división a un jugador del torneo (cada jugador, en una sola división)."""
    number = _classic(context, acting=True).enter_player(name, division=division, rating=rating, title=title or "",
                                                         tournament_id=context.tournament)
    click.echo(f"{' '.join(name.split())}: número {number} en la lista inicial.")


@click.command("rating")
@division_option
@click.argument("number", type=NUMBER)
@click.argument("rating", type=click.IntRange(0, 4000))
@title_option
@common
def classic_rating(context: Context, division: str, number: int, rating: int, title: str | None) -> None:
    """Corrige el rating (y el título) de un jugador; antes de la ronda 1 la lista inicial se reordena."""
    new = _classic(context, acting=True).set_rating(number, rating, title=title, division=division,
                                                    tournament_id=context.tournament)
    click.echo(f"Rating {rating} anotado" + (f"; ahora es el número {new}." if new != number else "."))


def _parse_manual(text: str) -> list[tuple[int, int]]:
    from ranking.classic.pairing_rules import parse_pairs

    try:
        return parse_pairs(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--manual") from None


def _show_boards(boards: list[Any]) -> None:
    for board in boards:
        if board.second == 0:
            say(f"  descansa  {board.first:3d} {board.first_name}")
            continue
        result = ""
        if board.forfeit:
            result = "  incomparecencia de " + {"first": "primero", "second": "segundo"}.get(board.forfeit, "los dos")
        elif board.first_score is not None:
            result = f"  {board.first_score}-{board.second_score}"
        flag = "  ¡conflicto!" if board.conflict else ""
        where = f"mesa {board.table:3d}" if board.table is not None else "sin mesa"   # a game not played
        say(f"  {where}  {board.first:3d} {board.first_name} – {board.second:3d} "
                   f"{board.second_name}{result}{flag}")


@click.command("pair-round")
@division_option
@click.option("--manual", default=None, help="Emparejamiento del juez: «1-8,2-7,…» (0 = descanso).")
@click.option("--reason", default="", help="Motivo (obligatorio si el emparejamiento manual incumple una regla o, en "
              "un suizo, difiere del que da el sistema: C.04.2 A.4/A.5).")
@common
def classic_round_pair(context: Context, division: str, manual: str | None, reason: str) -> None:
    """Empareja la ronda siguiente con el sistema de la división (o a mano)."""
    pairs = _parse_manual(manual) if manual is not None else None
    classic = _classic(context, acting=True)
    boards = _pairing_errors(lambda: classic.pair_round(division, manual=pairs, reason=reason,
                                                        tournament_id=context.tournament))
    click.echo(f"Ronda {boards[0].round if boards else '?'}:")
    _show_boards(boards)
    note = classic.round_note(division=division, tournament_id=context.tournament)
    if note:
        say(f"Notas: {note}")


@click.command("boards")
@division_option
@click.argument("round_number", type=NUMBER, required=False)
@common
def classic_boards(context: Context, division: str, round_number: int | None) -> None:
    """Mesas de una ronda con sus resultados (por defecto, la última emparejada)."""
    boards = _classic(context, acting=False).boards(round_number, division=division, tournament_id=context.tournament)
    if not boards:
        click.echo("Aún no hay rondas emparejadas.")
        return
    click.echo(f"Ronda {boards[0].round}:")
    _show_boards(boards)


@click.command("result")
@division_option
@click.argument("round_number", type=NUMBER)
@click.argument("table", type=NUMBER)
@click.argument("first_score", type=SCORE)
@click.argument("second_score", type=SCORE)
@click.option("--reason", default="", help="Motivo (obligatorio si el juez árbitro cambia un resultado anotado).")
@common
def classic_result(context: Context, division: str, round_number: int, table: int, first_score: int,
                   second_score: int, reason: str) -> None:
    """Anota las dos puntuaciones de una mesa (primero en jugar, segundo)."""
    outcome = _classic(context, acting=True).enter_result(round_number, table, first_score, second_score,
                                                          division=division, reason=reason,
                                                          tournament_id=context.tournament)
    click.echo({"stored": "Anotado.", "confirmed": "Confirmado (coincide con la anotación anterior).",
                "conflict": "CONFLICTO: otra anotación dice otra cosa; lo resuelve el juez árbitro.",
                "corrected": "Corregido por el juez árbitro."}[outcome])


@click.command("forfeit")
@division_option
@click.argument("round_number", type=NUMBER)
@click.argument("table", type=NUMBER)
@click.option("--loser", type=SpanishChoice({"primero": "first", "segundo": "second", "ambos": "both"}), required=True,
              help="Quién no se presentó: first (el que empezaba), second o both (ninguno de los dos).")
@click.option("--reason", default="", help="Motivo (obligatorio si la mesa ya tenía resultado).")
@common
def classic_forfeit(context: Context, division: str, round_number: int, table: int, loser: str, reason: str) -> None:
    """Registra una incomparecencia (solo el juez árbitro)."""
    _classic(context, acting=True).record_forfeit(round_number, table, loser, division=division, reason=reason,
                                                  tournament_id=context.tournament)
    click.echo("Incomparecencia registrada.")


@click.command("resolve")
@division_option
@click.argument("round_number", type=NUMBER)
@click.argument("table", type=NUMBER)
@click.argument("first_score", type=SCORE)
@click.argument("second_score", type=SCORE)
@click.option("--reason", default="", help="Motivo (obligatorio si la mesa ya tenía resultado).")
@common
def classic_resolve(context: Context, division: str, round_number: int, table: int, first_score: int,
                    second_score: int, reason: str) -> None:
    """Fija el resultado de una mesa (conflicto, reclamación): solo el juez árbitro."""
    _classic(context, acting=True).resolve_result(round_number, table, first_score, second_score, division=division,
                                                  reason=reason, tournament_id=context.tournament)
    click.echo("Resultado fijado.")


@click.command("bye")
@division_option
@click.argument("number", type=NUMBER)
@click.argument("round_number", type=NUMBER)
@click.option("--half/--zero", default=False, show_default=True,
              help="Medio punto por el descanso, si las reglas del torneo lo dicen (solo en un suizo); por "
                   "defecto, sin puntos (C.04.2 D.4). En un todos contra todos la partida queda «−» para él y "
                   "«+» para su rival (C.06 11).")
@common
def classic_bye(context: Context, division: str, number: int, round_number: int, half: bool) -> None:
    """Descanso pedido por un jugador para una ronda aún sin emparejar (C.04.2 D.4: sin puntos,
    salvo que las reglas del torneo digan otra cosa)."""
    _classic(context, acting=True).request_bye(number, round_number, "H" if half else "Z", division=division,
                                               tournament_id=context.tournament)
    click.echo(f"El jugador {number} descansa en la ronda {round_number}.")


@click.command("withdraw")
@division_option
@click.argument("number", type=NUMBER)
@click.option("--reason", default="", help="Motivo.")
@common
def classic_withdraw(context: Context, division: str, number: int, reason: str) -> None:
    """Retira a un jugador: no se le empareja desde la ronda siguiente."""
    _classic(context, acting=True).withdraw(number, division=division, reason=reason, tournament_id=context.tournament)
    click.echo(f"El jugador {number} queda retirado.")


@click.command("standings")
@division_option
@format_option
@common
def classic_standings(context: Context, division: str, output: str) -> None:
    """Clasificación: victorias, diferencia y desempates."""
    lines = _classic(context, acting=False).standings(division=division, tournament_id=context.tournament)
    codes = list(lines[0].tie_breaks) if lines else []
    rows = [{"puesto": line.place, "numero": line.number, "jugador": line.name, "victorias": float(line.wins),
             "derrotas": float(line.losses), "diferencia": line.spread, "a_favor": line.points_for,
             "en_contra": line.points_against, "partidas": line.games, "empezando": line.firsts,
             **{code: line.tie_breaks[code] for code in codes}} for line in lines]
    if output == "json":
        emit_json(rows)
    elif output == "csv":
        from duplicate.publishing.spreadsheets import neutralised

        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else ["puesto"])
        writer.writeheader()
        for row in rows:
            writer.writerow({key: neutralised(value) for key, value in row.items()})
    else:
        for line in lines:
            wins = f"{float(line.wins):g}"
            extra = "  ".join(f"{code} {value:g}" for code, value in line.tie_breaks.items())
            say(f"{line.place:3d}. {line.name:<30} {wins:>4} v  {line.spread:+5d}  {extra}")


@click.command("trf")
@division_option
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@common
def classic_trf(context: Context, division: str, out: Path) -> None:
    """Exporta la división como archivo TRF-16 (FIDE)."""
    out.write_text(_classic(context, acting=False).trf_text(division=division, tournament_id=context.tournament),
                   encoding="utf-8")
    click.echo(f"TRF escrito en {out}.")


@click.command("publish")
@division_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Carpeta donde se escriben las páginas, los PDF, los CSV y el TRF.")
@common
def classic_publish(context: Context, division: str, out: Path) -> None:
    """Publica la división: clasificación, rondas, cuadro de cruces, fichas (HTML, PDF, CSV) y TRF."""
    from ranking.classic.publish import publish_classic

    snapshot = _classic(context, acting=False).snapshot(division=division, tournament_id=context.tournament)
    try:
        files = publish_classic(snapshot, out)
    except OSError as error:
        raise click.ClickException(f"no se puede escribir en {out}: {error.strerror}") from None
    click.echo(f"Publicado en {out}: {counted(len(files), 'archivo')} (ronda {snapshot.played} de {snapshot.rounds}).")


EVENT_COMMANDS = [classic_publish, classic_division, classic_players, classic_enter, classic_rating, classic_round_pair, classic_boards, classic_result,
                  classic_forfeit, classic_resolve, classic_bye, classic_withdraw, classic_standings, classic_trf]
