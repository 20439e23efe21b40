"""``duplicada play`` (a whole game, III) and ``duplicada analyze`` (best moves of positions, JSON lines)."""

from __future__ import annotations

import stat
import sys
import time
from pathlib import Path
from typing import BinaryIO

import click

from duplicate.plurals import counted
from lexicon.alphabet import AlphabetError
from lexicon.board import Board, BoardError
from lexicon.lexicon import Lexicon
from lexicon.movegen import generate
from tui.cli.listing import json_text
from tui.cli.options import NUMBER, SEED, lexicon_option, load_lexicon


@click.command()
@click.option("--seed", type=SEED, default=None, help="Semilla del sorteo de fichas (se anota en el registro).")
@click.option("--rounds", type=NUMBER, default=None, help="Rondas pactadas (por defecto, bolsa completa).")
@lexicon_option
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Escribe aquí el registro completo de la partida (JSON).")
def play(seed: int | None, rounds: int | None, lexicon_path: Path | None, json_path: Path | None) -> None:
    """Juega una partida duplicada completa y muestra cada ronda."""
    from duplicate.rules.game import Game
    from duplicate.rules.rack import shown_rack

    lexicon_ = load_lexicon(lexicon_path)
    game = Game(lexicon_, seed=seed, rounds=rounds)
    click.echo(f"Partida duplicada — semilla {game.seed}, léxico {lexicon_.name} ({lexicon_.content_hash[:12]})")
    click.echo(f"{'Ronda':>5}  {'Atril':<10} {'Jugada maestra':<24} {'Ptos':>4} {'Acum.':>6}  Empates")
    while (record := game.play_round()) is not None:
        for redraw in record.redraws:
            click.echo(f"{'':>5}  {shown_rack(redraw.rack, game.alphabet):<10} cambio de fichas (III.19): {redraw.reason}")
        click.echo(f"{record.number:>5}  {shown_rack(record.rack, game.alphabet):<10} {record.master:<24} {record.score:>4} {record.cumulative:>6}"
                   f"  {record.equal_tops}")
    final = game.record
    click.echo(game.board.render())
    click.echo(f"Fin de la partida: {final.end_reason}. Total de la partida maestra: {final.total} puntos"
               f" en {counted(len(final.rounds), 'ronda')}.")
    if json_path is not None:
        json_path.write_text(final.to_json(), encoding="utf-8")
        click.echo(f"Registro escrito en {json_path}")


@click.command()
@lexicon_option
@click.option("--positions", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Archivo de posiciones (por defecto, la entrada estándar).")
def analyze(lexicon_path: Path | None, positions: Path | None) -> None:
    """Analiza posiciones: una línea «<tablero CGP> <atril>» → un objeto JSON por línea.

    Claves: best_score, top_moves (todas las jugadas de máxima puntuación, en
    notación canónica, ordenadas), master (elegida por III.15), legal_moves,
    elapsed_ms. Una línea mal formada produce {"line": N, "error": "..."} y se sigue
    con la siguiente.
    """
    lexicon_ = load_lexicon(lexicon_path)
    if positions is None:
        _analyze_lines(sys.stdin.buffer, "la entrada estándar", lexicon_)
        return
    try:
        mode = positions.stat().st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):          # /dev/zero never ends a line
            raise click.ClickException(f"{positions}: no es un archivo normal (se esperaba un archivo de posiciones)")
        with positions.open("rb") as handle:
            _analyze_lines(handle, positions, lexicon_)
    except OSError as error:
        raise click.ClickException(f"{positions}: no se puede leer ({error.strerror or type(error).__name__})") from None


LINE_MAX_BYTES = 4096
"""Bytes of a position line read at most (a board and a rack take under 300)."""


def _analyze_lines(source: BinaryIO, name: object, lexicon_: Lexicon) -> None:
    """Analyse each line of ``source`` (bytes; ``name`` in messages), printing one JSON
    object per line. A line that is not UTF-8 or is longer than ``LINE_MAX_BYTES`` is an
    ``{"line": N, "error": …}`` naming the file, line and column; a file in UTF-16 stops
    the run at once with a Spanish error (every line of it would be one)."""
    from duplicate.input_files import utf8_error

    for number, raw in enumerate(iter(lambda: source.readline(LINE_MAX_BYTES + 1), b""), start=1):
        if len(raw) > LINE_MAX_BYTES:
            while raw and not raw.endswith(b"\n"):          # the rest of the line, skipped in bounded pieces
                raw = source.readline(LINE_MAX_BYTES)
            _emit({"line": number, "error": f"{name}, línea {number}: demasiado larga (más de {LINE_MAX_BYTES} "
                                            "bytes) para «<tablero> <atril>»"})
            continue
        problem = utf8_error(raw, name, first_line=number)
        if problem is not None:
            if problem.column == 1 and number == 1 and raw.startswith((b"\xff\xfe", b"\xfe\xff")):
                raise click.ClickException(str(problem))
            _emit({"line": number, "error": str(problem)})
            continue
        line = raw.decode("utf-8-sig" if number == 1 else "utf-8").strip()
        if not line or line.startswith("#"):
            continue
        try:
            result = analyze_position(line, lexicon_)
        except Exception as error:  # noqa: BLE001 — one bad line never stops the run (README)
            result = {"error": f"línea no analizable ({type(error).__name__}): {str(error)[:200]}"}
        if "error" in result:
            result = {"line": number, **result}
        _emit(result)


def _emit(result: dict[str, object]) -> None:
    click.echo(json_text(result, indent=None))


def analyze_position(line: str, lexicon_: Lexicon) -> dict[str, object]:
    """One ``<board> <rack>`` line → the analysis dict (see ``analyze``), or ``{"error": ...}``."""
    from duplicate.rules.master import rank_top_moves
    from duplicate.rules.notation import format_move
    from duplicate.rules.rack import beyond_tile_set
    from duplicate.texts import shown

    if len(line) > 1000:
        return {"error": f"línea {shown(line)}: demasiado larga para «<tablero> <atril>»"}
    fields = line.split()
    if len(fields) != 2:
        return {"error": f"se esperaba «<tablero> <atril>», hay {len(fields)} campos: {shown(line)}"}
    board_text, rack_text = fields
    alphabet = lexicon_.alphabet
    try:
        board = Board.from_cgp(board_text, alphabet)
        rack = alphabet.tokenize(rack_text, allow_unknown_blank=True)
    except (BoardError, AlphabetError) as error:
        return {"error": str(error)}
    if any(tile != alphabet.blank and tile >= alphabet.blank for tile in rack):
        return {"error": f"atril «{rack_text}»: los comodines se escriben «?»"}
    if len(rack) > 7:
        return {"error": f"atril «{rack_text}»: {len(rack)} fichas, como máximo 7"}
    on_board = [tile for row in board.tiles for tile in row if tile is not None]
    problem = beyond_tile_set(on_board + rack, alphabet)
    if problem is not None:
        return {"error": f"tablero y atril «{rack_text}»: {problem} (I.2)"}
    started = time.perf_counter()
    moves = generate(board, rack, lexicon_)
    top = moves.top()
    ranked = rank_top_moves(board, rack, top)
    elapsed = (time.perf_counter() - started) * 1000
    top_texts = sorted(format_move(entry.move, alphabet) for entry in top)
    return {
        "best_score": moves.best_score,
        "top_moves": top_texts,
        "master": format_move(ranked[0].move, alphabet) if ranked else None,
        "legal_moves": len(moves),
        "elapsed_ms": round(elapsed, 2),
    }
