"""The ``duplicada`` command line (click): lexicon building, whole games, analysis.

Sub-commands:

* ``duplicada lexicon build WORDS.txt -o FILE`` — compile a word list;
* ``duplicada lexicon info FILE`` — word count and content hash of a lexicon;
* ``duplicada play`` — play a whole duplicate game (III) on a lexicon;
* ``duplicada analyze`` — best moves of ``<board> <rack>`` positions, JSON lines.

Every message is in Spanish. Errors in the input end with exit status 2 and a
message naming the input.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TextIO

import click

from lexicon.alphabet import AlphabetError
from lexicon.board import Board, BoardError
from lexicon.default import default_lexicon_path, read_lines
from lexicon.lexicon import Lexicon, LexiconError, build
from lexicon.movegen import generate


def _load_lexicon(path: Path | None) -> Lexicon:
    try:
        if path is None:
            path = default_lexicon_path(lambda message: click.echo(message, err=True))
        return Lexicon.load(path)
    except LexiconError as error:
        raise click.ClickException(str(error)) from None


@click.group()
@click.version_option(package_name="duplicada")
def main() -> None:
    """Arbitraje de Scrabble duplicado en español (reglamento FISE)."""


@main.group()
def lexicon() -> None:
    """Léxicos: compilar una lista de palabras, consultar un léxico compilado."""


@lexicon.command("build")
@click.argument("words", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Archivo del léxico compilado que se crea.")
def lexicon_build(words: Path, output: Path) -> None:
    """Compila WORDS (una palabra por línea, UTF-8; .xz/.gz/.bz2 admitidos)."""
    started = time.perf_counter()
    try:
        report = build(read_lines(words), output, source=words.name)
    except LexiconError as error:
        raise click.ClickException(str(error)) from None
    lexicon_ = Lexicon.load(output)
    click.echo(f"{report.words} palabras compiladas en {output} ({time.perf_counter() - started:.1f} s).")
    click.echo(f"Huella (SHA-256): {lexicon_.content_hash}")
    if report.duplicates:
        click.echo(f"{report.duplicates} líneas repetidas (tras normalizar) se han contado una vez.")
    if report.skipped:
        click.echo(f"{report.skipped} líneas descartadas por no ser palabras válidas del alfabeto; por ejemplo:")
        for example in report.skipped_examples:
            click.echo(f"  {example}")


@lexicon.command("info")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path), required=False)
def lexicon_info(path: Path | None) -> None:
    """Número de palabras y huella de un léxico (por defecto, el incluido)."""
    lexicon_ = _load_lexicon(path)
    click.echo(f"Léxico: {lexicon_.name}")
    click.echo(f"Palabras: {lexicon_.word_count}")
    click.echo(f"Huella (SHA-256): {lexicon_.content_hash}")


@main.command()
@click.option("--seed", type=int, default=None, help="Semilla del sorteo de fichas (se anota en el registro).")
@click.option("--rounds", type=click.IntRange(min=1), default=None, help="Rondas pactadas (por defecto, bolsa completa).")
@click.option("--lexicon", "lexicon_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Léxico compilado (por defecto, el incluido).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Escribe aquí el registro completo de la partida (JSON).")
def play(seed: int | None, rounds: int | None, lexicon_path: Path | None, json_path: Path | None) -> None:
    """Juega una partida duplicada completa y muestra cada ronda."""
    from duplicate.game import Game

    lexicon_ = _load_lexicon(lexicon_path)
    game = Game(lexicon_, seed=seed, rounds=rounds)
    click.echo(f"Partida duplicada — semilla {game.seed}, léxico {lexicon_.name} ({lexicon_.content_hash[:12]})")
    click.echo(f"{'Ronda':>5}  {'Atril':<10} {'Jugada maestra':<24} {'Ptos':>4} {'Acum.':>6}  Empates")
    while (record := game.play_round()) is not None:
        for redraw in record.redraws:
            click.echo(f"{'':>5}  {redraw.rack:<10} cambio de fichas (III.19): {redraw.reason}")
        click.echo(f"{record.number:>5}  {record.rack:<10} {record.master:<24} {record.score:>4} {record.cumulative:>6}"
                   f"  {record.equal_tops}")
    final = game.record
    click.echo(game.board.render())
    click.echo(f"Fin de la partida: {final.end_reason}. Total de la partida maestra: {final.total} puntos"
               f" en {len(final.rounds)} rondas.")
    if json_path is not None:
        json_path.write_text(final.to_json(), encoding="utf-8")
        click.echo(f"Registro escrito en {json_path}")


@main.command()
@click.option("--lexicon", "lexicon_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Léxico compilado (por defecto, el incluido).")
@click.option("--positions", type=click.File("r", encoding="utf-8"), default=None,
              help="Archivo de posiciones (por defecto, la entrada estándar).")
def analyze(lexicon_path: Path | None, positions: TextIO | None) -> None:
    """Analiza posiciones: una línea «<tablero CGP> <atril>» → un objeto JSON por línea.

    Claves: best_score, top_moves (todas las jugadas de máxima puntuación, en
    notación canónica, ordenadas), master (elegida por III.15), legal_moves,
    elapsed_ms. Una línea mal formada produce {"line": N, "error": "..."}.
    """
    lexicon_ = _load_lexicon(lexicon_path)
    source = positions if positions is not None else sys.stdin
    for number, raw in enumerate(source, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        result = analyze_position(line, lexicon_)
        if "error" in result:
            result = {"line": number, **result}
        click.echo(json.dumps(result, ensure_ascii=False))


def analyze_position(line: str, lexicon_: Lexicon) -> dict[str, object]:
    """One ``<board> <rack>`` line → the analysis dict (see ``analyze``), or ``{"error": ...}``."""
    from duplicate.master import rank_top_moves
    from duplicate.notation import format_move

    fields = line.split()
    if len(fields) != 2:
        return {"error": f"se esperaba «<tablero> <atril>», hay {len(fields)} campos: «{line}»"}
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


def _register_tournament_commands() -> None:
    from duplicate.tournament_cli import register
    from ranking.cli import register as register_elodi

    register(main)
    register_elodi(main)


_register_tournament_commands()
