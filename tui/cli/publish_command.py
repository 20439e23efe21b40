"""``duplicada publish``: the static site, PDFs, CSV and XLSX of a tournament (III.26, IV.32)."""

from __future__ import annotations

from pathlib import Path

import click

from duplicate.labels import spanish_number
from duplicate.publishing.site import FORMATS, publish_results
from tui.cli.options import NUMBER, Context, common


def _formats(_context: click.Context, _parameter: click.Parameter, value: str) -> tuple[str, ...]:
    names = tuple(name.strip().lower() for name in value.split(",") if name.strip())
    unknown = [name for name in names if name not in FORMATS]
    if unknown or not names:
        raise click.BadParameter(f"formato desconocido: {', '.join(unknown) or '(ninguno)'}; "
                                 f"se espera una lista de {', '.join(FORMATS)}")
    return names


@click.command("publish")
@common
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Carpeta donde escribir los resultados (se crea si no existe).")
@click.option("--game", "game_number", type=NUMBER, default=None,
              help="Sólo los documentos de esta partida (por defecto, todas).")
@click.option("--formats", default=",".join(FORMATS), show_default=True, callback=_formats,
              help="Formatos separados por comas: html, pdf, csv, xlsx.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Procesos en paralelo (por defecto, uno por procesador).")
def publish(context: Context, out: Path, game_number: int | None, formats: tuple[str, ...],
            workers: int | None) -> None:
    """Publica los resultados: web estática (HTML), PDF para el tablón, CSV y XLSX,
    hojas de seguimiento y papeletas (III.26, IV.32, II.8, II.9)."""
    publication = publish_results(context.service, out, game=game_number, formats=formats,
                                  tournament_id=context.tournament, workers=workers)
    parts = [f"{publication.count(suffix)} {label}" for suffix, label in
             ((".html", "páginas HTML"), (".pdf", "PDF"), (".csv", "CSV"), (".xlsx", "XLSX"))
             if publication.count(suffix)]
    click.echo(f"Publicado en {out}: {', '.join(parts)} en {spanish_number(publication.seconds, 1)} s.")
    if "html" in formats:
        click.echo(f"Abra {out / 'index.html'} en un navegador.")
