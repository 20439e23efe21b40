"""The three free sources of the default lexicon, read from ``shared/lexicon-sources/``.

* RLA-ES 2.9: the RAE word lists, common and of every country (``l10n/<country>``: es_ES and
  the American and Philippine localisations), with the Spain affix file (every simple verb form,
  *vosotros* included) and the voseo rules of the American affix files (the inputs of all of
  upstream's country builds, without ``noRAE`` and toponyms; issue 28);
* COES 1.11 (Debian ``myspell-es`` 1.11-20): ``es.dic``/``es.aff``, Latin-1;
* wspanish 1.0.30 (Debian): ``spanish``, one word a line.

Versions, licences and the facts measured about them: the sources' ``README.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scripts.default_lexicon import fise_rules
from scripts.default_lexicon.hunspell import Affixes, Entry, Rule, content_lines, read_entries

RLA_ES = Path("rla-es-2.9")
RAE_LISTS = RLA_ES / "ortografia" / "palabras" / "RAE"
SPAIN = fise_rules.SPAIN
SPAIN_LISTS = RAE_LISTS / "l10n" / SPAIN
AFFIX_FOLDER = RLA_ES / "ortografia" / "afijos" / "l10n"
RLA_ES_AFFIXES = AFFIX_FOLDER / SPAIN / "afijos.txt"
COES_DIC = Path("coes") / "es.dic"
COES_AFF = Path("coes") / "es.aff"
WSPANISH = Path("wspanish") / "spanish"
ARCHAIC_VERBS = fise_rules.ARCHAIC_VERBS


class SourceError(Exception):
    """A source file is missing or unreadable; the message names it."""


@dataclass
class RlaEs:
    """RLA-ES 2.9: ``entries`` of every RAE list, common and of every country (``source`` is the
    path under ``palabras/RAE``, e.g. ``VerbosIntransitivos.txt`` or
    ``l10n/es_AR/VerbosTransitivos.txt``); ``affixes``: the Spain affix file's rules and the
    ``voseo`` rules taken from the other countries' affix files
    (:func:`fise_rules.voseo_rules`); ``countries``: the localisations read."""

    entries: list[Entry]
    affixes: Affixes
    files: list[str] = field(default_factory=list)
    voseo: list[Rule] = field(default_factory=list)
    countries: list[str] = field(default_factory=list)


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
    """Read RLA-ES from the sources folder ``root``: the common lists, then each country's
    lists (countries in name order, files in name order), the Spain affix file and the voseo
    rules of the other affix files. Raises ``SourceError`` if a file is missing, ``ValueError``
    if the voseo rules are not what :func:`fise_rules.voseo_rules` expects."""
    folder = _checked(root, RAE_LISTS / "Adjetivos.txt").parent
    _checked(root, SPAIN_LISTS / "VerbosTransitivos.txt")
    countries = sorted(p.name for p in (folder / "l10n").iterdir() if p.is_dir())
    files = sorted(folder.glob("*.txt")) + [p for c in countries for p in sorted((folder / "l10n" / c).glob("*.txt"))]
    entries = []
    names = []
    for path in files:
        name = path.relative_to(folder).as_posix()
        names.append(name)
        entries.extend(read_entries(path, name))
    spain_lines = content_lines(_checked(root, RLA_ES_AFFIXES))
    others = {path.parent.name: content_lines(path)
              for path in sorted((root / AFFIX_FOLDER).glob("*/afijos.txt")) if path.parent.name != SPAIN}
    voseo = fise_rules.voseo_rules(spain_lines, others)
    affixes = Affixes(Affixes.read(spain_lines).rules() + voseo)
    return RlaEs(entries, affixes, names, voseo, countries)


def read_coes(root: Path) -> Coes:
    """Read COES (Latin-1) from the sources folder ``root``."""
    entries = read_entries(_checked(root, COES_DIC), "coes/es.dic", encoding="latin-1", count_line=True)
    affixes = Affixes.read(content_lines(_checked(root, COES_AFF), "latin-1"), "latin-1")
    return Coes(entries, affixes)


def read_wspanish(root: Path) -> list[str]:
    """The words of wspanish, in file order."""
    return content_lines(_checked(root, WSPANISH))
