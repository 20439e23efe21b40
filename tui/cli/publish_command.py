"""``duplicada publish``: the static site, PDFs, CSV and XLSX of a tournament (III.26, IV.32)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from duplicate.labels import spanish_number
from duplicate.publishing.site import FORMATS, Progress, publish_results
from tui.cli.options import NUMBER, Context, common

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress as Bars
    from rich.progress import TaskID

FORMAT_LABELS = {"html": "Sitio web", "pdf": "Documentos PDF", "csv": "Tablas CSV", "xlsx": "Libro XLSX"}
"""What each format's bar is called (the ``format`` of ``duplicate.publishing.site.Progress``): the
web site's bar counts its pages and their stylesheet, so it is not called «páginas»."""


class ProgressBars:
    """The bars of a publication on a terminal (rich.progress): one per format, «files done
    / total» and the time taken, redrawn at most every ``interval`` seconds and when a format
    is complete. Redrawn by the caller's thread only (no refresh thread: ``publish_results``
    forks its workers only from a process that runs no other thread); until the first
    report, a line «Leyendo el torneo…». Use as a context manager; call it with each
    ``Progress``. Only the bars of ``formats`` (those asked for) are drawn."""

    def __init__(self, console: Console, interval: float = 0.1, formats: tuple[str, ...] = FORMATS) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bars: Bars = Progress(TextColumn("{task.description:<15}"), BarColumn(), MofNCompleteColumn(),
                                   TimeElapsedColumn(), console=console, auto_refresh=False, transient=False)
        self.tasks: dict[str, TaskID] = {}
        self.interval = interval
        self.drawn = 0.0
        self.formats = formats

    def __enter__(self) -> ProgressBars:
        self.bars.start()
        self.reading: TaskID | None = self.bars.add_task("Leyendo el torneo…", total=None)
        self.bars.refresh()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.bars.refresh()
        self.bars.stop()

    def __call__(self, step: Progress) -> None:
        if self.reading is not None:            # the record read: the files' bars replace that line
            self.bars.remove_task(self.reading)
            self.reading = None
        if step.format not in self.formats:     # the stylesheet, always copied, of a publication without pages
            return
        task = self.tasks.get(step.format)
        if task is None:
            task = self.tasks[step.format] = self.bars.add_task(FORMAT_LABELS.get(step.format, step.format),
                                                                total=step.total)
        self.bars.update(task, completed=step.done, total=step.total)
        now = time.monotonic()
        if step.done == step.total or now - self.drawn >= self.interval:
            self.drawn = now
            self.bars.refresh()


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
    from rich.console import Console

    console = Console(stderr=True)
    service = context.service
    if console.is_terminal:             # on a pipe or in a file: the summary only
        with ProgressBars(console, formats=formats) as bars:
            publication = publish_results(service, out, game=game_number, formats=formats,
                                          tournament_id=context.tournament, workers=workers, progress=bars)
    else:
        publication = publish_results(service, out, game=game_number, formats=formats,
                                      tournament_id=context.tournament, workers=workers)
    parts = [f"{publication.count(suffix)} {label}" for suffix, label in
             ((".html", "páginas HTML"), (".pdf", "PDF"), (".csv", "CSV"), (".xlsx", "XLSX"))
             if publication.count(suffix)]
    click.echo(f"Publicado en {out}: {', '.join(parts)} en {spanish_number(publication.seconds, 1)} s.")
    unchanged = len(publication.files) - len(publication.written)
    if unchanged:
        click.echo(f"Reescritos {len(publication.written)} de {len(publication.files)} archivos; "
                   f"{unchanged} siguen como en la publicación anterior (no ha cambiado lo que muestran).")
    if "html" in formats:
        click.echo(f"Abra {out / 'index.html'} en un navegador.")
