"""What FISE's official list admits, as rules on the sources' entries and affix rules.

Admission principles (those of the official list, FILE2017, as seen in it; the list is built
on the DRAE): headwords of the DRAE with their plurals and feminines and every simple verb
form; no verb form with an enclitic pronoun; no proper nouns, acronyms or abbreviations; no
foreign words (italics in the DRAE, which our sources do not carry; the FISE tile set has no
K or W). FISE's verb conventions, measured in the sources' README:

* a verb that RLA-ES lists only as intransitive and/or pronominal has the -DO participle
  only (AULLADO, not AULLADA/AULLADOS/AULLADAS);
* a verb that RLA-ES lists only for Spain (``l10n/es_ES``) appears as its infinitive only;
* a verb that RLA-ES lists as pronominal only also has its *-rse* infinitive as a word
  (ABORRASCARSE).

Each rule here says which step of ``build`` applies it (``docs/lexicon.md`` lists them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from scripts.default_lexicon.hunspell import Entry, Keep, Rule

#: RLA-ES's 45 enclitic classes (verb + attached pronoun): 36 ``À``…``ä`` and 9 ``ñ``…``ú``
#: (README of the sources; every rule of these classes ends in a pronoun, checked by
#: ``check_enclitic_classes``).
RLA_ENCLITIC_FLAGS = frozenset("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäñòóôõöøùú")
#: RLA-ES conjugation classes (finite forms R E I X, participle D).
RLA_CONJUGATION_FLAGS = frozenset("REIXD")
#: COES: entries carrying these flags are themselves enclitic imperatives (ábrelo/BDPS).
COES_ENCLITIC_ENTRY_FLAGS = frozenset("ABCDEF")
#: COES flags dropped before expansion: the enclitic classes (O Q R T U Z o q r t u z and
#: A–F) and the productive derivations -ísimo (J), -mente (M), -damente (N), which the DRAE
#: lists one by one.
COES_DROPPED_FLAGS = frozenset("ABCDEFOQRTUZoqrtuzJMN")
#: COES conjugation classes: V regular, W irregular, X and Y participles and gerunds.
COES_CONJUGATION_FLAGS = frozenset("VWXY")

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
    """The verbs of RLA-ES by valency list.

    ``valencies[infinitive]``: the names of the RAE verb lists that hold it (``Transitivos``,
    ``IntransitivosPronominales``…); ``spain_only``: infinitives listed only in ``l10n/es_ES``
    verb lists; ``pronominal``: infinitives of the RAE ``VerbosPronominales.txt``."""

    valencies: dict[str, set[str]] = field(default_factory=dict)
    spain_only: set[str] = field(default_factory=set)
    pronominal: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Verbs:
        """Classify the verb entries of RLA-ES (``source`` ``Verbos*.txt`` or
        ``l10n/es_ES/Verbos*.txt``; the archaic list is not a valency)."""
        verbs = cls()
        spain: set[str] = set()
        for entry in entries:
            name = entry.source.rsplit("/", 1)[-1]
            if not name.startswith("Verbos") or name == "VerbosAnticuadosDesusados.txt":
                continue
            valency = name.removeprefix("Verbos").removesuffix(".txt")
            if entry.source.startswith("l10n/"):
                spain.add(entry.word)
                continue
            verbs.valencies.setdefault(entry.word, set()).add(valency)
            if valency == "Pronominales":
                verbs.pronominal.add(entry.word)
        verbs.spain_only = spain - verbs.valencies.keys()
        return verbs

    def intransitive_only(self, infinitive: str) -> bool:
        """Listed, and in no list with ``Transitivos`` in its name (only intransitive and/or
        pronominal)."""
        valencies = self.valencies.get(infinitive)
        return bool(valencies) and not any("Transitivos" in v for v in valencies)

    def pronominal_headwords(self) -> set[str]:
        """The *-rse* infinitives of the pronominal-only verbs (aborrascar → aborrascarse)."""
        return {infinitive + "se" for infinitive in self.pronominal}


def rla_keep(verbs: Verbs) -> Keep:
    """The ``keep`` predicate for RLA-ES entries: no enclitic rule; a verb listed only for
    Spain keeps no rule (its infinitive only); an intransitive/pronominal-only verb's
    participle class D keeps the -do rules only."""

    def keep(entry: Entry, rule: Rule) -> bool:
        if is_rla_enclitic_rule(rule):
            return False
        if entry.source.startswith("l10n/es_ES/Verbos") and entry.word in verbs.spain_only:
            return False
        if rule.flag == "D" and entry.source.startswith("Verbos") and verbs.intransitive_only(entry.word):
            return not INTRANSITIVE_PARTICIPLE_DROPPED.search(rule.add)
        return True

    return keep


def coes_entries(entries: Iterable[Entry]) -> list[Entry]:
    """COES entries without the enclitic imperatives (any flag ``A``–``F``) and with the
    ``COES_DROPPED_FLAGS`` removed."""
    out = []
    for entry in entries:
        if COES_ENCLITIC_ENTRY_FLAGS.intersection(entry.flags):
            continue
        out.append(Entry(entry.word, "".join(f for f in entry.flags if f not in COES_DROPPED_FLAGS), entry.source))
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
    Infinitives and -mente adverbs are not pluralised; words ending in *s* are taken as
    plural already unless stressed on the last syllable."""
    if len(word) < 2 or word.endswith("mente") or re.search(r"(ar|er|ir|ír)$", word):
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
