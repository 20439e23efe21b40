"""``duplicada lexicon build|info``: compile a word list, read a compiled lexicon."""

from __future__ import annotations

import time
from pathlib import Path

import click

from lexicon.default import read_lines
from lexicon.lexicon import Lexicon, LexiconError, build
from tui.cli.options import load_lexicon


@click.group()
def lexicon() -> None:
    """Léxicos: compilar una lista de palabras, consultar un léxico compilado."""


@lexicon.command("build")
@click.argument("words", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Archivo del léxico compilado que se crea.")
def lexicon_build(words: Path, output: Path) -> None:
    """Compila PALABRAS (una palabra por línea, UTF-8; .xz/.gz/.bz2 admitidos)."""
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


@lexicon.command("words")
@click.option("--lexicon", "lexicon_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Léxico compilado (por defecto, el incluido).")
def lexicon_words(lexicon_path: Path | None) -> None:
    """Escribe las palabras de un léxico, una por línea, en la notación que lee el programa
    (CH, LL y RR como fichas; «[C]H» para una C seguida de una H), para compararlo con otra lista."""
    lexicon_ = load_lexicon(lexicon_path)
    for word in lexicon_.words():
        click.echo(word)


@lexicon.command("info")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path), required=False)
def lexicon_info(path: Path | None) -> None:
    """Número de palabras y huella de un léxico (por defecto, el incluido)."""
    lexicon_ = load_lexicon(path)
    click.echo(f"Léxico: {lexicon_.name}")
    click.echo(f"Palabras: {lexicon_.word_count}")
    click.echo(f"Huella (SHA-256): {lexicon_.content_hash}")
