"""The default lexicon's build, step by step, with what each step adds and removes.

:func:`build` reads the three sources and returns the final words (FISE notation, sorted)
and the :class:`Step` summary. The steps (``docs/lexicon.md`` describes each with the
admission principle it implements):

1. RLA-ES 2.9, RAE and Spain lists, expanded with the Spain affix rules, without the
   enclitic classes and rules; Spain-only verbs as the infinitive only; intransitive and
   pronominal-only verbs with the -DO participle only.
2. The *-rse* infinitive of every pronominal-only verb.
3. COES with the enclitic entries and flags removed, the same verb conventions.
4. wspanish: lowercase Spanish words (its -rse lemmas only for pronominal verbs), without
   enclitic forms, with their regular plurals.
5. Enclitic forms written out word by word in the sources.
6. Proper nouns and acronyms, abbreviations and symbols, foreign letters, length.
7. Two-tile words: only those of the reviewed table ``two_tile_words.tsv``; words of two or
   three tiles never from the plural rule.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from lexicon.alphabet import AlphabetError, spanish
from scripts.default_lexicon import fise_rules
from scripts.default_lexicon.enclitics import enclitic_words
from scripts.default_lexicon.fise_rules import Verbs
from scripts.default_lexicon.hunspell import Affixes, Entry, Keep, Rule, keep_all
from scripts.default_lexicon.sources import read_coes, read_rla_es, read_wspanish

MIN_TILES, MAX_TILES = 2, 15
TWO_TILE_TABLE = Path(__file__).with_name("two_tile_words.tsv")
SPANISH_WORD = re.compile(r"[a-zñáéíóúü]+")
VERB_LIST_SUFFIXES = ("ConjugacionesIrregulares.txt", "ParticipiosIrregulares.txt") + tuple(
    f"Verbos{v}.txt" for v in ("Transitivos", "Intransitivos", "Pronominales", "TransitivosIntransitivos",
                                "TransitivosPronominales", "IntransitivosPronominales",
                                "TransitivosIntransitivosPronominales", "AnticuadosDesusados"))
VOWEL = re.compile(r"[aeiouáéíóúü]")


@dataclass(frozen=True)
class Step:
    """One line of the build summary: ``label``, forms ``added`` and ``removed`` (counted as
    the source's spellings, before accents are dropped)."""

    label: str
    added: int = 0
    removed: int = 0


@dataclass(frozen=True)
class TwoTileWord:
    """A reviewed two-tile word: ``word`` (FISE notation), ``admitted`` or not, and why."""

    word: str
    admitted: bool
    reason: str


def read_two_tile_table(path: Path = TWO_TILE_TABLE) -> dict[str, TwoTileWord]:
    """The reviewed table of two-tile words (TSV: word, ``sí``/``no``, reason), by word.

    Raises ``ValueError`` naming the line when a row is malformed or has no reason."""
    table = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
            if not row or row[0].startswith("#"):
                continue
            if len(row) != 3 or row[1] not in ("sí", "no") or not row[2].strip():
                raise ValueError(f"{path.name}, línea {number}: se esperaba «PALABRA<tab>sí|no<tab>motivo»")
            table[row[0]] = TwoTileWord(row[0], row[1] == "sí", row[2].strip())
    return table


def expand_all(affixes: Affixes, entries: list[Entry], keep: Keep) -> set[str]:
    """The union of the forms of ``entries``."""
    forms: set[str] = set()
    for entry in entries:
        forms |= affixes.expand(entry, keep)
    return forms


def pronominal_lemma(infinitive: str, verbs: Verbs) -> bool:
    """Whether the *-rse* headword of ``infinitive`` is admitted from a word list: the verb is
    pronominal only in RLA-ES, or RLA-ES does not list it (the list's lemma is then the DRAE's
    pronominal headword). A verb RLA-ES lists with another valency keeps no -rse headword."""
    valencies = verbs.valencies.get(infinitive)
    if valencies is None:
        return infinitive not in verbs.spain_only
    return valencies == {"Pronominales"}


def build(root: Path) -> tuple[list[str], list[Step], dict[str, set[str]]]:
    """Build from the sources folder ``root``.

    Returns (words in FISE notation, sorted; the steps; the forms removed by the small
    filters, by label, for review). Raises ``sources.SourceError`` for a missing source file,
    ``ValueError`` when a check on the sources fails (the message says which)."""
    alphabet = spanish()
    steps: list[Step] = []
    listed: dict[str, set[str]] = {}

    # Step 1: RLA-ES.
    rla = read_rla_es(root)
    verbs = Verbs.of(rla.entries)
    enclitic_rules = fise_rules.check_enclitic_classes(rla.affixes.rules())
    everything = expand_all(rla.affixes, rla.entries, keep_all)

    def no_enclitics(entry: Entry, rule: Rule) -> bool:
        return not fise_rules.is_rla_enclitic_rule(rule)

    without_enclitics = expand_all(rla.affixes, rla.entries, no_enclitics)
    verb_rule = fise_rules.rla_keep(verbs)
    rla_forms = expand_all(rla.affixes, rla.entries, verb_rule)
    steps.append(Step(f"RLA-ES 2.9: {len(rla.entries):,} entradas de {len(rla.files)} listas RAE y es_ES, "
                      "expandidas con todas sus reglas", added=len(everything)))
    steps.append(Step(f"  sin las 45 clases enclíticas y las reglas enclíticas de R y X ({enclitic_rules:,} reglas)",
                      removed=len(everything - without_enclitics)))
    steps.append(Step(f"  verbos solo de España ({len(verbs.spain_only)}): solo el infinitivo; verbos solo "
                      f"intransitivos/pronominales ({sum(map(verbs.intransitive_only, verbs.valencies)):,}): "
                      "solo el participio -DO", removed=len(without_enclitics - rla_forms)))
    conjugated = [e for e in rla.entries if fise_rules.RLA_CONJUGATION_FLAGS.intersection(e.flags)]
    verb_forms = expand_all(rla.affixes, conjugated, verb_rule)
    forms = set(rla_forms)

    # Step 2: pronominal headwords.
    headwords = verbs.pronominal_headwords()
    steps.append(Step(f"infinitivos en -rse de los verbos solo pronominales ({len(verbs.pronominal)})",
                      added=len(headwords - forms)))
    forms |= headwords

    # Step 3: COES.
    coes = read_coes(root)
    kept_entries = fise_rules.coes_entries(coes.entries)
    coes_keep = fise_rules.coes_keep(verbs)
    coes_forms = expand_all(coes.affixes, kept_entries, coes_keep)
    coes_verbs = [e for e in kept_entries if fise_rules.COES_CONJUGATION_FLAGS.intersection(e.flags)]
    verb_forms |= expand_all(coes.affixes, coes_verbs, coes_keep)
    steps.append(Step(f"COES: {len(kept_entries):,} de {len(coes.entries):,} entradas (sin imperativos enclíticos), "
                      "sin banderas enclíticas, -ísimo, -mente, -damente; mismas reglas verbales",
                      added=len(coes_forms - forms)))
    forms |= coes_forms

    # Step 4: wspanish.
    new = [w for w in read_wspanish(root) if w not in forms]
    kept = [w for w in new if SPANISH_WORD.fullmatch(w)]
    pronominal = {w for w in kept if w.endswith("rse") and pronominal_lemma(w[:-2], verbs)}
    headwords |= pronominal
    kept = [w for w in kept if not w.endswith("rse") or w in pronominal]
    plural_forms = set()
    for word in kept:
        if word.endswith("s") and len(re.findall(r"[aeiouáéíóú]+", word)) > 1 and not re.search(r"[áéíóú]s$", word):
            continue  # already plural or invariable (lunes)
        if word in verbs.valencies or word in verbs.spain_only:
            continue
        plural_forms.update(fise_rules.plurals(word))
    plural_forms -= forms
    plural_forms -= set(kept)
    steps.append(Step(f"wspanish: {len(kept):,} palabras nuevas de {len(new):,} (letras españolas; -rse solo "
                      f"de verbos pronominales: {len(pronominal)})", added=len(kept)))
    steps.append(Step("  plurales regulares de esas palabras", added=len(plural_forms)))
    listed["wspanish descartadas"] = set(new) - set(kept)
    forms |= set(kept) | plural_forms

    # Step 5: enclitic forms written out.
    written_out = {e.word for e in rla.entries if e.source.endswith("ConjugacionesIrregulares.txt")}
    written_out |= {e.word for e in coes.entries if not e.flags and e.word[:1].islower()}
    headwords |= {w for w in written_out if w.endswith("rse") and pronominal_lemma(w[:-2], verbs)}
    other_words = {e.word for e in rla.entries if not e.source.endswith(VERB_LIST_SUFFIXES)}
    removed = enclitic_words(written_out, forms, verb_forms) - headwords - other_words
    removed &= forms
    forms -= removed
    listed["enclíticos escritos"] = removed
    steps.append(Step("enclíticos escritos palabra a palabra (dame, hazlo, ábate)", removed=len(removed)))

    # Step 6: proper nouns, abbreviations, alphabet.
    removed = {w for w in forms if any(c.isupper() for c in w)}
    forms -= removed
    steps.append(Step("nombres propios y siglas (mayúsculas)", removed=len(removed)))
    removed = {w for w in forms if "." in w or not VOWEL.search(w.lower())}
    forms -= removed
    listed["abreviaturas y símbolos"] = removed
    steps.append(Step("abreviaturas y símbolos (punto, sin vocal)", removed=len(removed)))
    codes_of: dict[str, tuple[int, ...]] = {}
    removed = set()
    for word in forms:
        try:
            codes_of[word] = alphabet.word_codes(word)
        except AlphabetError:
            removed.add(word)
    listed["fuera del alfabeto"] = removed
    steps.append(Step("fuera del alfabeto FISE (K, W, Ç, guion…)", removed=len(removed)))
    removed = {w for w, c in codes_of.items() if not MIN_TILES <= len(c) <= MAX_TILES}
    steps.append(Step(f"menos de {MIN_TILES} o más de {MAX_TILES} fichas", removed=len(removed)))
    for word in removed:
        del codes_of[word]

    # Step 7: short words.
    table = read_two_tile_table()
    removed = set()
    unreviewed = set()
    for word, codes in codes_of.items():
        if len(codes) == 2:
            reviewed = table.get(alphabet.format(codes))
            if reviewed is None:
                unreviewed.add(alphabet.format(codes))
            elif not reviewed.admitted:
                removed.add(word)
        elif len(codes) == 3 and word in plural_forms:
            removed.add(word)
    if unreviewed:
        raise ValueError(f"palabras de dos fichas sin revisar en {TWO_TILE_TABLE.name}: {' '.join(sorted(unreviewed))}")
    for word in removed:
        del codes_of[word]
    listed["dos y tres fichas descartadas"] = removed
    steps.append(Step("dos fichas no admitidas en la tabla revisada; tres fichas de la regla de plurales",
                      removed=len(removed)))

    words = sorted({alphabet.format(codes) for codes in codes_of.values()})
    steps.append(Step("fusionadas al normalizar (mayúsculas, sin tildes)", removed=len(codes_of) - len(words)))
    return words, steps, listed
