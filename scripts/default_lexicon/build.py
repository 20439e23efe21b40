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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lexicon.alphabet import AlphabetError, spanish
from lexicon.word_limits import MAX_TILES, MIN_TILES
from scripts.default_lexicon import fise_rules
from scripts.default_lexicon.enclitics import enclitic_words, plain
from scripts.default_lexicon.fise_rules import Verbs
from scripts.default_lexicon.hunspell import Affixes, Entry, Grade, Keep
from scripts.default_lexicon.sources import read_coes, read_rla_es, read_wspanish

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
    the source's spellings, before accents are dropped); ``included``: for a line that only
    says how many of the forms already counted are of some kind (voseo forms)."""

    label: str
    added: int = 0
    removed: int = 0
    included: int = 0


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


def expand_groups(affixes: Affixes, entries: list[Entry], grade: Grade,
                  groups: dict[str, Callable[[Entry], bool]]) -> dict[str, dict[str, int]]:
    """The graded forms (:meth:`Affixes.expand_graded`) of all ``entries`` (key ``"all"``) and
    of those in each of the ``groups`` (name → which entries), each entry expanded once; a
    form made by several entries keeps its least grade."""
    out: dict[str, dict[str, int]] = {"all": {}, **{name: {} for name in groups}}
    for entry in entries:
        graded = affixes.expand_graded(entry, grade)
        targets = [out["all"]] + [out[name] for name, within in groups.items() if within(entry)]
        for form, level in graded.items():
            for target in targets:
                if target.get(form, level + 1) > level:
                    target[form] = level
    return out


def american_only_decision(entry: Entry) -> bool:
    """An entry of an American or Philippine list of RLA-ES that says nothing of the plural of
    the words it makes: a verb (its forms are verb forms: *tusar* makes *tuso*, which a word
    list has as an adjective) or a noun or adjective written without flags (``cuy`` in
    ``l10n/es_PE/NombresMasculinos.txt``; these lists leave such plurals open)."""
    place = entry.source.rpartition("/")[0]
    if not place.startswith("l10n/") or place == f"l10n/{fise_rules.SPAIN}":
        return False
    return entry.source.endswith(VERB_LIST_SUFFIXES) or not entry.flags


def pronominal_lemma(infinitive: str, verbs: Verbs) -> bool:
    """Whether the *-rse* headword of ``infinitive`` is admitted from a word list: RLA-ES has a
    pronominal-only headword of it (``Verbs.pronominal``), or RLA-ES does not list the verb at
    all (the list's lemma is then the DRAE's pronominal headword). A verb RLA-ES lists with
    other valencies only, or for Spain only, keeps no -rse headword."""
    return infinitive in verbs.pronominal or infinitive not in verbs.places


def build(root: Path) -> tuple[list[str], list[Step], dict[str, set[str]]]:
    """Build from the sources folder ``root``.

    Returns (words in FISE notation, sorted; the steps; the forms removed by the small
    filters, by label, for review). Raises ``sources.SourceError`` for a missing source file,
    ``ValueError`` when a check on the sources fails (the message says which)."""
    alphabet = spanish()
    steps: list[Step] = []
    listed: dict[str, set[str]] = {}

    # Step 1: RLA-ES, every country's lists, Spain affix rules and voseo rules.
    rla = read_rla_es(root)
    verbs = Verbs.of(rla.entries)
    enclitic_rules = fise_rules.check_enclitic_classes(rla.affixes.rules())
    groups = expand_groups(rla.affixes, rla.entries, fise_rules.rla_grade(verbs, rla.voseo), {
        "spain": lambda e: e.source.rpartition("/")[0] in ("", f"l10n/{fise_rules.SPAIN}"),
        "verbs": lambda e: bool(fise_rules.RLA_CONJUGATION_FLAGS.intersection(e.flags)),
        "words": lambda e: not e.source.endswith(VERB_LIST_SUFFIXES),
        "plural decided": lambda e: not american_only_decision(e),
        "superlatives": lambda e: bool(fise_rules.SUPERLATIVE.search(e.word)),
    })
    graded = groups["all"]
    by_grade = Counter(graded.values())
    rla_forms = {form for form, grade in graded.items() if grade <= fise_rules.VOSEO}
    american = rla_forms - {form for form, grade in groups["spain"].items() if grade <= fise_rules.VOSEO}
    places = len(rla.countries)
    steps.append(Step(f"RLA-ES 2.9: {len(rla.entries):,} entradas de {len(rla.files)} listas RAE (comunes y de "
                      f"{places} países), expandidas con todas las reglas de España y "
                      f"{len(rla.voseo)} de voseo", added=len(graded)))
    steps.append(Step(f"  sin las 45 clases enclíticas y las reglas enclíticas de R y X ({enclitic_rules:,} reglas)",
                      removed=by_grade[fise_rules.ENCLITIC]))
    steps.append(Step(f"  verbos solo de España ({len(verbs.spain_only)}): solo el infinitivo",
                      removed=by_grade[fise_rules.SPAIN_ONLY]))
    steps.append(Step(f"  verbos solo intransitivos/pronominales ({sum(map(verbs.intransitive_only, verbs.valencies)):,}): "
                      "solo el participio -DO", removed=by_grade[fise_rules.PARTICIPLE]))
    steps.append(Step("  (de ellas, formas de voseo: presente e imperativo de vos)", included=by_grade[fise_rules.VOSEO]))
    steps.append(Step("  (de ellas, formas que solo dan las listas de América y Filipinas)", included=len(american)))
    verb_forms = {form for form, grade in groups["verbs"].items() if grade <= fise_rules.VOSEO}
    # Forms of the entries of the lists of nouns, adjectives…: words, whatever else they look like.
    other_words = {form for form, grade in groups["words"].items() if grade <= fise_rules.VOSEO}
    # The words whose plural (or lack of one) a source has decided: forms of every entry but
    # those of american_only_decision.
    decided = {form for form, grade in groups["plural decided"].items() if grade <= fise_rules.VOSEO}
    written_superlatives = {form for form, grade in groups["superlatives"].items() if grade <= fise_rules.VOSEO}
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
    def unknown_verb(entry: Entry) -> bool:
        return bool(fise_rules.COES_CONJUGATION_FLAGS.intersection(entry.flags)) and entry.word not in rla_forms

    groups = expand_groups(coes.affixes, kept_entries, lambda e, r: 0 if coes_keep(e, r) else 1, {
        "verbs": lambda e: bool(fise_rules.COES_CONJUGATION_FLAGS.intersection(e.flags)),
        "unknown verbs": unknown_verb, "others": lambda e: not unknown_verb(e)})
    coes_forms = {form for form, grade in groups["all"].items() if grade == 0}
    coes_verb_forms = {form for form, grade in groups["verbs"].items() if grade == 0}
    verb_forms |= coes_verb_forms
    decided |= coes_forms
    steps.append(Step(f"COES: {len(kept_entries):,} de {len(coes.entries):,} entradas (sin imperativos enclíticos), "
                      "sin banderas enclíticas, -ísimo, -mente, -damente; mismas reglas verbales",
                      added=len(coes_forms - forms)))
    # Verbs COES conjugates whose infinitive RLA-ES does not make: DRAE verbs RLA-ES lacks
    # (rentabilizar) and others (multiprogramar); no source tells them apart, so all stay.
    only_unknown = ({form for form, grade in groups["unknown verbs"].items() if grade == 0} - forms
                    - {form for form, grade in groups["others"].items() if grade == 0})
    steps.append(Step(f"  (de ellas, formas de {sum(map(unknown_verb, kept_entries))} verbos que RLA-ES no tiene)",
                      included=len(only_unknown)))
    forms |= coes_forms

    # Step 4: wspanish.
    wspanish = read_wspanish(root)
    new = [w for w in wspanish if w not in forms]
    kept = [w for w in new if SPANISH_WORD.fullmatch(w)]
    pronominal = {w for w in kept if w.endswith("rse") and pronominal_lemma(w[:-2], verbs)}
    headwords |= pronominal
    kept = [w for w in kept if not w.endswith("rse") or w in pronominal]
    # Its lemmas that the other sources have only from American entries that leave the plural
    # open (cuy, yatay: unflagged nouns; tuso, causeo: forms of American verbs) take it too, as
    # they did when the build read the common and Spain lists only.
    undecided = [w for w in wspanish if w in forms and w not in decided and SPANISH_WORD.fullmatch(w)]
    plural_forms = set()
    for word in kept + undecided:
        if word.endswith("s") and len(re.findall(r"[aeiouáéíóú]+", word)) > 1 and not re.search(r"[áéíóú]s$", word):
            continue  # already plural or invariable (lunes)
        if word in verbs.places:
            continue
        plural_forms.update(fise_rules.plurals(word))
    plural_forms -= forms
    plural_forms -= set(kept)
    steps.append(Step(f"wspanish: {len(kept):,} palabras nuevas de {len(new):,} (letras españolas; -rse solo "
                      f"de verbos pronominales: {len(pronominal)})", added=len(kept)))
    steps.append(Step(f"  plurales regulares de esas palabras y de {len(undecided):,} que las otras fuentes solo "
                      "tienen de listas americanas que no deciden su plural (cuy, tuso)", added=len(plural_forms)))
    listed["wspanish descartadas"] = set(new) - set(kept)
    forms |= set(kept) | plural_forms

    # Step 5: active participles and superlatives only as the DLE lists them.
    infinitives = {w for w in verb_forms if re.search(r"[aei]r$", w)} | set(verbs.places)
    removed = fise_rules.active_participles(forms - rla_forms, infinitives)
    forms -= removed
    listed["participios activos"] = removed
    steps.append(Step("participios activos (-nte) que las listas RAE de RLA-ES no tienen", removed=len(removed)))
    removed = {w for w in forms - written_superlatives - verb_forms if fise_rules.SUPERLATIVE.search(w)}
    forms -= removed
    listed["superlativos"] = removed
    steps.append(Step("superlativos en -ísimo que las listas RAE de RLA-ES no escriben como entrada", removed=len(removed)))

    # Step 6: enclitic forms written out.
    written_out = {e.word for e in rla.entries if e.source.endswith("ConjugacionesIrregulares.txt")}
    written_out |= {e.word for e in coes.entries if not e.flags and e.word[:1].islower()}
    headwords |= {w for w in written_out if w.endswith("rse") and pronominal_lemma(w[:-2], verbs)}
    removed = enclitic_words(written_out, forms, verb_forms) - headwords - other_words
    removed &= forms
    forms -= removed
    listed["enclíticos escritos"] = removed
    steps.append(Step("enclíticos escritos palabra a palabra (dame, hazlo, ábate)", removed=len(removed)))

    # Step 7: proper nouns, abbreviations, alphabet.
    removed = {w for w in forms if w != w.lower()}
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

    # Step 8: short words.
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

    # The tiles' text (alphabet.format) of a word that tokenises is its letters in capitals
    # without accents, Ñ kept: no C+H, L+L or R+R can be two tiles after greedy tokenising.
    # The slow test checks every word against alphabet.format.
    words = sorted({plain(word).upper() for word in codes_of})
    steps.append(Step("fusionadas al normalizar (mayúsculas, sin tildes)", removed=len(codes_of) - len(words)))
    return words, steps, listed
