"""The three free sources of the default lexicon, read from ``shared/lexicon-sources/``.

* RLA-ES 2.9: the RAE word lists and the Spain (``l10n/es_ES``) lists, with the Spain affix
  file (exactly the inputs of upstream's ``es_ES`` build, without ``noRAE`` and toponyms);
* COES 1.11 (Debian ``myspell-es`` 1.11-20): ``es.dic``/``es.aff``, Latin-1;
* wspanish 1.0.30 (Debian): ``spanish``, one word a line.

Versions, licences and the facts measured about them: the sources' ``README.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scripts.default_lexicon.hunspell import Affixes, Entry, content_lines, read_entries

RLA_ES = Path("rla-es-2.9")
RAE_LISTS = RLA_ES / "ortografia" / "palabras" / "RAE"
SPAIN_LISTS = RAE_LISTS / "l10n" / "es_ES"
RLA_ES_AFFIXES = RLA_ES / "ortografia" / "afijos" / "l10n" / "es_ES" / "afijos.txt"
COES_DIC = Path("coes") / "es.dic"
COES_AFF = Path("coes") / "es.aff"
WSPANISH = Path("wspanish") / "spanish"
ARCHAIC_VERBS = "VerbosAnticuadosDesusados.txt"


class SourceError(Exception):
    """A source file is missing or unreadable; the message names it."""


@dataclass
class RlaEs:
    """RLA-ES 2.9: ``entries`` of every RAE and Spain list (``source`` is the path under
    ``palabras/RAE``, e.g. ``VerbosIntransitivos.txt`` or ``l10n/es_ES/VerbosTransitivos.txt``)
    and the Spain ``affixes``."""

    entries: list[Entry]
    affixes: Affixes
    files: list[str] = field(default_factory=list)


@dataclass
class Coes:
    """COES: ``entries`` of ``es.dic`` and the ``affixes`` of ``es.aff``."""

    entries: list[Entry]
    affixes: Affixes


def _checked(root: Path, relative: Path) -> Path:
    path = root / relative
    if not path.is_file():
        raise SourceError(f"falta {path}: indique la carpeta de las fuentes con --sources")
    return path


def read_rla_es(root: Path) -> RlaEs:
    """Read RLA-ES from the sources folder ``root``; raises ``SourceError`` if a file is missing."""
    folder = _checked(root, RAE_LISTS / "Adjetivos.txt").parent
    files = sorted(p for p in folder.glob("*.txt")) + sorted((folder / "l10n" / "es_ES").glob("*.txt"))
    entries = []
    names = []
    for path in files:
        name = path.relative_to(folder).as_posix()
        names.append(name)
        entries.extend(read_entries(path, name))
    affixes = Affixes.read(content_lines(_checked(root, RLA_ES_AFFIXES)))
    return RlaEs(entries, affixes, names)


def read_coes(root: Path) -> Coes:
    """Read COES (Latin-1) from the sources folder ``root``."""
    entries = read_entries(_checked(root, COES_DIC), "coes/es.dic", encoding="latin-1", count_line=True)
    affixes = Affixes.read(content_lines(_checked(root, COES_AFF), "latin-1"), "latin-1")
    return Coes(entries, affixes)


def read_wspanish(root: Path) -> list[str]:
    """The words of wspanish, in file order."""
    return content_lines(_checked(root, WSPANISH))
