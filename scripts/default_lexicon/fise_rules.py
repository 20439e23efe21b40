"""What FISE's official list admits, as rules on the sources' entries and affix rules.

Admission principles (those of the official list, FILE2017, as seen in it; the list is built
on the DRAE): headwords of the DRAE with their plurals and feminines and every simple verb
form; no verb form with an enclitic pronoun; no proper nouns, acronyms or abbreviations; no
foreign words (italics in the DRAE, which our sources do not carry; the FISE tile set has no
K or W). FISE's verb conventions, measured in the sources' README:

* the list is international: the words and verbs the DRAE marks as American are in, with
  every simple form, and so are the forms of *vos* that the DRAE's conjugation tables give
  (present indicative and imperative: CANTÁS, CANTÁ; issue 28);
* a verb that RLA-ES lists only as intransitive and/or pronominal, in every country's lists,
  has the -DO participle only (AULLADO, not AULLADA/AULLADOS/AULLADAS);
* a verb that no RLA-ES list but Spain's (``l10n/es_ES``) holds appears as its infinitive only;
* a verb that RLA-ES lists as pronominal only also has its *-rse* infinitive as a word
  (ABORRASCARSE).

Each rule here says which step of ``build`` applies it (``docs/lexicon.md`` lists them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from scripts.default_lexicon.hunspell import Affixes, Entry, Grade, Keep, Rule

#: The Spain localisation of RLA-ES, and the list of archaic verbs (a place, not a valency).
SPAIN = "es_ES"
ARCHAIC_VERBS = "VerbosAnticuadosDesusados.txt"

#: RLA-ES's 45 enclitic classes (verb + attached pronoun): 36 ``À``…``ä`` and 9 ``ñ``…``ú``
#: (README of the sources; every rule of these classes ends in a pronoun, checked by
#: ``check_enclitic_classes``).
RLA_ENCLITIC_FLAGS = frozenset("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäñòóôõöøùú")
#: RLA-ES conjugation classes (finite forms R E I X, participle D).
RLA_CONJUGATION_FLAGS = frozenset("REIXD")
#: The endings of *vos* in the present indicative (cantás, temés, partís) and the imperative
#: (cantá, temé, partí), which replace the infinitive's -ar, -er, -ir (the DLE's
#: conjugation tables give a form of its own for *vos* in these two tenses only).
VOSEO_ENDING = re.compile(r"[áéí]s?")
#: COES: entries carrying these flags are themselves enclitic imperatives (ábrelo/BDPS).
COES_ENCLITIC_ENTRY_FLAGS = frozenset("ABCDEF")
#: COES flags dropped before expansion: the enclitic classes (O Q R T U Z o q r t u z and
#: A–F) and the productive derivations -ísimo (J), -mente (M), -damente (N), which the DRAE
#: lists one by one.
COES_DROPPED_FLAGS = frozenset("ABCDEFOQRTUZoqrtuzJMN")
#: COES conjugation classes: V regular, W irregular, X and Y participles and gerunds.
COES_CONJUGATION_FLAGS = frozenset("VWXY")
#: COES plural (S) and gender and number (P) classes.
COES_NOMINAL_FLAGS = frozenset("SP")

PRONOUN_ENDING = re.compile(r"(?:me|te|se|nos|os|lo|la|le|los|las|les)$")
INTRANSITIVE_PARTICIPLE_DROPPED = re.compile(r"d[ao]s$|da$")


def is_rla_enclitic_rule(rule: Rule) -> bool:
    """An RLA-ES rule that makes a verb form with an enclitic pronoun.

    Whole classes (``RLA_ENCLITIC_FLAGS``), and inside the conjugation classes R and X the
    gerund + *se* rules (``SFX R ar ándose ar``: hablándose) and the infinitive + *se* rules
    (``SFX R 0 se [aeií]r``: hablarse). Rules that merely end in -se are kept: the imperfect
    subjunctive ``SFX R r se ar`` (hablase) strips the *r*."""
    if rule.flag in RLA_ENCLITIC_FLAGS:
        return True
    if rule.kind == "SFX" and rule.flag in ("R", "X"):
        return rule.add.endswith("ndose") or (rule.strip == "" and rule.add == "se")
    return False


def voseo_rules(spain: list[str], others: dict[str, list[str]]) -> list[Rule]:
    """The voseo rules: the suffix rules of the conjugation classes that the other countries'
    affix files (``others``: lines by country, comments removed) have and the Spain file
    (``spain``) lacks, and that replace the infinitive's ending with a voseo ending
    (``VOSEO_ENDING``: ``SFX R ar ás ar``, ``SFX I er és er``, ``SFX X ir í ir``). Their
    other differences are left out: the Spain file has every *tú* and *vosotros* form, which
    the American files partly lack, and a few variants in which the American files differ
    from it are spelling slips (``SFX I ir amos [^cs]ir`` makes *construamos*) or make the
    same forms (``SFX X ir yera [^g]uir``).

    Returns the rules in the order first met (countries in name order), each once; raises
    ``ValueError`` when no file has any (the wrong folder, or a changed source)."""
    def rule_lines(lines: list[str]) -> list[tuple[str, ...]]:
        return [tuple(line.split()[:5]) for line in lines
                if line.startswith("SFX ") and len(line.split()) >= 5]

    known = set(rule_lines(spain))
    cross = {header[1]: header[2] for line in spain if len(header := line.split()) == 4 and header[0] == "SFX"}
    found: dict[tuple[str, ...], None] = {}
    for country in sorted(others):
        for fields in rule_lines(others[country]):
            _, flag, strip, add, _condition = fields
            if (fields not in known and flag in RLA_CONJUGATION_FLAGS and strip in ("ar", "er", "ir")
                    and VOSEO_ENDING.fullmatch(add)):
                found.setdefault(fields, None)
    if not found:
        raise ValueError("ningún fichero de afijos de RLA-ES tiene reglas de voseo: ¿es la carpeta correcta?")
    lines = ["SET UTF-8", "FLAG UTF-8"]
    for flag in dict.fromkeys(fields[1] for fields in found):
        rules = [fields for fields in found if fields[1] == flag]
        lines.append(f"SFX {flag} {cross.get(flag, 'Y')} {len(rules)}")
        lines.extend(" ".join(fields) for fields in rules)
    return Affixes.read(lines).rules()


def check_enclitic_classes(rules: Iterable[Rule]) -> int:
    """Check that every rule :func:`is_rla_enclitic_rule` picks adds a pronoun; returns how
    many there are. Raises ``ValueError`` naming a rule that does not (a changed affix file)."""
    count = 0
    for rule in rules:
        if is_rla_enclitic_rule(rule):
            count += 1
            if not PRONOUN_ENDING.search(rule.add):
                raise ValueError(f"la regla enclítica no termina en pronombre: {rule}")
    return count


@dataclass
class Verbs:
    """The verbs of RLA-ES by valency list, over the common lists and every country's.

    ``valencies[infinitive]``: the names of the verb lists that hold it, wherever they are
    (``Transitivos``, ``IntransitivosPronominales``…; a verb listed as intransitive in the
    common lists and as transitive in ``l10n/es_MX`` has both); ``places[infinitive]``: where
    (``""`` for the common lists, else the country, e.g. ``es_AR``); ``spain_only``:
    infinitives that no list but ``l10n/es_ES``'s holds (issue 28: a verb of an American list
    is not Spain-only); ``pronominal``: the verbs whose DRAE headword is the *-rse* infinitive:
    those of the common ``VerbosPronominales.txt`` (RLA-ES gives each headword its own line:
    *abrumarse*, pronominal only, is there and its homograph *abrumar* in
    ``VerbosTransitivos.txt``), and the American verbs no common list holds that every list
    holding them calls ``Pronominales`` (an American ``VerbosPronominales.txt`` also lists
    pronominal senses of common verbs, such as *comprar* in ``l10n/es_AR``: the headword stays
    *comprar*). Spain-only verbs are left out. The archaic list
    (``VerbosAnticuadosDesusados``) counts as a place, not as a valency."""

    valencies: dict[str, set[str]] = field(default_factory=dict)
    places: dict[str, set[str]] = field(default_factory=dict)
    spain_only: set[str] = field(default_factory=set)
    pronominal: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Verbs:
        """Classify the verb entries of RLA-ES (``source`` ``Verbos*.txt`` or
        ``l10n/<country>/Verbos*.txt``)."""
        verbs = cls()
        common_pronominal: dict[str, bool] = {}
        for entry in entries:
            place, _, name = entry.source.rpartition("/")
            if not name.startswith("Verbos"):
                continue
            verbs.places.setdefault(entry.word, set()).add(place.removeprefix("l10n/"))
            if place == "" and name == "VerbosPronominales.txt":
                common_pronominal[entry.word] = True
            if name != ARCHAIC_VERBS:
                verbs.valencies.setdefault(entry.word, set()).add(name.removeprefix("Verbos").removesuffix(".txt"))
        verbs.spain_only = {verb for verb, places in verbs.places.items() if places == {SPAIN}}
        common = {verb for verb, places in verbs.places.items() if "" in places}
        verbs.pronominal = {verb for verb in verbs.valencies if verb not in verbs.spain_only and (
            common_pronominal.get(verb, False) if verb in common else verbs.valencies[verb] == {"Pronominales"})}
        return verbs

    def intransitive_only(self, infinitive: str) -> bool:
        """Listed, and in no list with ``Transitivos`` in its name, in any country (only
        intransitive and/or pronominal)."""
        valencies = self.valencies.get(infinitive)
        return valencies is not None and bool(valencies) and not any("Transitivos" in v for v in valencies)

    def pronominal_headwords(self) -> set[str]:
        """The *-rse* infinitives of the pronominal-only verbs (aborrascar → aborrascarse)."""
        return {infinitive + "se" for infinitive in self.pronominal}


#: Grades of RLA-ES rules (:func:`rla_grade`), in the order the build's steps take them out:
#: kept (0) and kept voseo rules (1); dropped: -da/-dos/-das of an intransitive-only verb (2),
#: every rule of a Spain-only verb (3), enclitic rules (4).
KEPT, VOSEO, PARTICIPLE, SPAIN_ONLY, ENCLITIC = range(5)


def rla_grade(verbs: Verbs, voseo: Iterable[Rule] = ()) -> Grade:
    """The grade of each rule for each RLA-ES entry (``KEPT`` … ``ENCLITIC``): an enclitic rule
    is ``ENCLITIC``; every rule of a Spain-only verb's entry in a ``l10n/es_ES`` verb list is
    ``SPAIN_ONLY`` (its infinitive only); the participle class D's -da/-dos/-das rules of an
    intransitive/pronominal-only verb are ``PARTICIPLE`` (-do only); a rule of ``voseo`` is
    ``VOSEO``; anything else ``KEPT``. The forms the build keeps are those of grade at most
    ``VOSEO``."""
    voseo_rules = frozenset(voseo)

    def grade(entry: Entry, rule: Rule) -> int:
        if is_rla_enclitic_rule(rule):
            return ENCLITIC
        place, _, name = entry.source.rpartition("/")
        if place == f"l10n/{SPAIN}" and name.startswith("Verbos") and entry.word in verbs.spain_only:
            return SPAIN_ONLY
        if rule.flag == "D" and name.startswith("Verbos") and verbs.intransitive_only(entry.word) \
                and INTRANSITIVE_PARTICIPLE_DROPPED.search(rule.add):
            return PARTICIPLE
        return VOSEO if rule in voseo_rules else KEPT

    return grade


def rla_keep(verbs: Verbs, voseo: Iterable[Rule] = ()) -> Keep:
    """The ``keep`` predicate of :func:`rla_grade`: the rules of grade ``KEPT`` or ``VOSEO``."""
    grade = rla_grade(verbs, voseo)
    return lambda entry, rule: grade(entry, rule) <= VOSEO


def coes_entries(entries: Iterable[Entry]) -> list[Entry]:
    """COES entries without the enclitic imperatives (any flag ``A``–``F``) and with the
    ``COES_DROPPED_FLAGS`` removed; an infinitive (an entry with a conjugation flag, or in
    -rse) also loses its plural and gender flags (``COES_NOMINAL_FLAGS``): COES gives them to
    thousands of verbs (``abalar/…S`` → *abalares*, ``sollisparse/S`` → *sollisparses*), and an
    infinitive is a noun with a plural only where the DRAE lists the noun (cantares, placeres,
    which RLA-ES's noun lists have)."""
    out = []
    for entry in entries:
        if COES_ENCLITIC_ENTRY_FLAGS.intersection(entry.flags):
            continue
        dropped = COES_DROPPED_FLAGS
        if COES_CONJUGATION_FLAGS.intersection(entry.flags) or re.search(r"(ar|er|ir|ír)se$", entry.word):
            dropped = dropped | COES_NOMINAL_FLAGS
        out.append(Entry(entry.word, "".join(f for f in entry.flags if f not in dropped), entry.source))
    return out


def coes_keep(verbs: Verbs) -> Keep:
    """The ``keep`` predicate for COES entries, the same verb conventions as RLA-ES's
    (RLA-ES classifies the verbs, COES does not): a verb listed only for Spain keeps no
    conjugation rule; an intransitive/pronominal-only verb's participles keep -do."""

    def keep(entry: Entry, rule: Rule) -> bool:
        if rule.flag not in COES_CONJUGATION_FLAGS:
            return True
        if entry.word in verbs.spain_only:
            return False
        if rule.flag in ("X", "Y") and verbs.intransitive_only(entry.word):
            return not INTRANSITIVE_PARTICIPLE_DROPPED.search(rule.add)
        return True

    return keep


#: A superlative in -ísimo (dificilísimo, altísimas). Those in -érrimo (celebérrimo, libérrimo)
#: are Latin forms no Spanish rule makes: every source that has one lists it as the DRAE does.
SUPERLATIVE = re.compile(r"ísim[oa]s?$")


def active_participles(words: Iterable[str], infinitives: Iterable[str]) -> set[str]:
    """Those of ``words`` that are the regular active participle of one of ``infinitives``,
    singular or plural: stem + -ante(s) for -ar (abusar → abusante), stem + -iente(s) or
    -ente(s) for -er and -ir (temer → temiente, fallecer → falleciente, discernir →
    discernente). Irregular ones (dormir → durmiente) are not recognised."""
    candidates: set[str] = set()
    for infinitive in infinitives:
        stem, ending = infinitive[:-2], infinitive[-2:]
        if len(stem) < 2:
            continue
        if ending == "ar":
            candidates.update((stem + "ante", stem + "antes"))
        elif ending in ("er", "ir"):
            candidates.update((stem + "iente", stem + "ientes", stem + "ente", stem + "entes"))
    return candidates.intersection(words)


def plurals(word: str) -> list[str]:
    """The regular plurals of a Spanish noun or adjective (Ortografía de la RAE, 2010, §3.3):
    ``[]`` when the word is taken as invariable or not a noun.

    * unstressed vowel, or stressed á é ó: + s (casa, sofá, café, dominó);
    * stressed í ú: + es and + s (esquí → esquíes, esquís);
    * y after a vowel, and l r n d j: + es (rey → reyes, árbol → árboles);
    * z: -ces (luz → luces);
    * s or x: + es when the last syllable is stressed (autobús, mes, fax), else invariable
      (lunes, tórax);
    * other consonants (club, récord, cómic): + s.
    Infinitives (pronominal ones too: aborrascarse) and -mente adverbs are not pluralised;
    words ending in *s* are taken as plural already unless stressed on the last syllable."""
    if len(word) < 2 or word.endswith("mente") or re.search(r"(ar|er|ir|ír)(se)?$", word):
        return []
    last = word[-1]
    if last in "aeiouáéó":
        return [word + "s"]
    if last in "íú":
        return [word + "es", word + "s"]
    if last == "y":
        return [word + "es"] if word[-2] in "aeiou" else [word + "s"]
    if last in "lrndj":
        return [_unstressed(word) + "es"]
    if last == "z":
        return [_unstressed(word[:-1]) + "ces"]
    if last in "sx":
        vowels = re.findall(r"[aeiouáéíóú]+", word)
        if len(vowels) == 1 or re.search(r"[áéíóú][sx]$", word):
            return [_unstressed(word) + "es"]
        return []
    return [word + "s"]


def _unstressed(word: str) -> str:
    """``word`` with an accent on its last syllable removed (canción → cancion+es)."""
    return re.sub(r"([áéíóú])([^aeiouáéíóú]*)$", lambda m: "aeiou"["áéíóú".index(m.group(1))] + m.group(2), word)
