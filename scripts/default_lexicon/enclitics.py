"""Enclitic verb forms written out word by word in the sources (no flag to remove).

RLA-ES's ``ConjugacionesIrregulares.txt`` lists irregular and defective verbs form by form,
and some of its forms carry a pronoun (ábate, abarse, dame, hazlo); COES and wspanish have a
few too (úsase, acordarse). The affix-level step cannot reach them; :func:`enclitic_words`
finds them by shape.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable

#: Written-out entries the shape test takes for enclitic that are ordinary words or plain
#: verb forms, and interjections the DRAE lists as such (reviewed by hand).
NOT_ENCLITIC = frozenset("ale ameos andase jugase tétanos ándale órale híjole".split())
#: Enclitic forms the shape test misses (their host is itself written out, or a voseo form
#: without accent; reviewed by hand).
ENCLITIC = frozenset(
    """
    alzate armate démoselo érase estaos estate estense estese irgámonos
    vámonos vayámonos váyase váyanse ándele ándeles ándenle ándenles
    """.split()
)

#: The final vowel of a *vos* imperative and its accent (odiá, temé, decí).
VOSEO_ACCENT = {"a": "á", "e": "é", "i": "í"}
#: The single pronouns a *vos* imperative takes (decime, sentate, comelo).
VOSEO_PRONOUNS = frozenset("me te nos lo la le los las les".split())
PRONOUNS = re.compile(r"(?:me|te|se|nos|os|lo|la|le|los|las|les){1,3}")
ACCENTED = re.compile(r"[áéíóú]")


#: The accented small letters of the sources and their plain letters (the fast path of :func:`plain`).
_PLAIN = str.maketrans("áéíóúüàèìòùâêîôûäëïöç", "aeiouuaeiouaeiouaeioc")


def plain(word: str) -> str:
    """Lowercase, accents and diaeresis removed, ñ kept (alzáos → alzaos)."""
    fast = word.lower().translate(_PLAIN)
    if fast.isascii() or fast.replace("ñ", "").isascii():
        return fast
    out = []
    for char in unicodedata.normalize("NFC", word.lower()):
        if char == "ñ":
            out.append(char)
        else:
            out.append("".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)))
    return "".join(out)


def enclitic_words(words: Iterable[str], all_forms: set[str], verb_forms: set[str]) -> set[str]:
    """Those of ``words`` (lowercase, written out in a source) that are a verb form plus one
    to three enclitic pronouns.

    ``all_forms``: every form of the sources; ``verb_forms``: the forms made by conjugation
    rules. A word is enclitic when it splits as host + pronouns (accents ignored; *vamo* +
    *nos* read as *vamos*) and

    a. the pronoun is *se* after an infinitive (antojarse, irse, darse); or
    b. the host is a gerund in -ndo (dándole, yéndose, habiéndoselo); or
    c. the host is a form with at least three different pronoun endings among ``words``
       (da: dale, dame, dalo); or
    d. the host is a verb form and the spelling shows the pronoun: an accent the host lacks
       (ódiame, sírvase, unámonos), a *vosotros* imperative in -d (odiadme), or the -d
       dropped before *os* (alzaos);
    e. the host is a *vos* imperative that lost its accent to one pronoun (odiá + me →
       odiame, decí + le → decile; the American lists of RLA-ES write these out). With two
       pronouns the accent stays (decímelo: rule d), and *vos* takes *te*, never *se* or *os*
       (so lloviznase, an imperfect subjunctive, is not llovizná + se).

    Plus ``ENCLITIC``, minus ``NOT_ENCLITIC``. Pronominal *-rse* headwords are added back
    afterwards by the FISE verb rule (``fise_rules.Verbs.pronominal_headwords``)."""
    words = sorted(set(words))
    forms_plain = {plain(w) for w in all_forms}
    verbs_plain = {plain(w) for w in verb_forms}
    splits: dict[str, list[tuple[str, str, str]]] = {}
    host_endings: dict[str, set[str]] = defaultdict(set)
    for word in words:
        p = plain(word)
        options = []
        for i in range(1, len(p) - 1):
            host, tail = p[:i], p[i:]
            if PRONOUNS.fullmatch(tail):
                written = word[:i]  # plain() keeps one character per character
                if tail.startswith("nos") and host.endswith("mo"):
                    host += "s"  # vámonos = vamos + nos
                    written += "s"
                options.append((host, tail, written))
                host_endings[host].add(tail)
        splits[word] = options
    found = set()
    for word in words:
        if word in NOT_ENCLITIC:
            continue
        if word in ENCLITIC:
            found.add(word)
            continue
        for host, tail, written in splits[word]:
            if (
                (tail == "se" and re.search(r"(ar|er|ir)$", host))
                or re.search(r"[aey]ndo$", host)
                or (host in forms_plain and len(host_endings[host]) >= 3)
                or (
                    host in verbs_plain
                    and (
                        (ACCENTED.search(word) and written not in verb_forms)
                        or (host.endswith("d") and not tail.startswith("os"))
                    )
                )
                or (tail.startswith("os") and host + "d" in verbs_plain)
                or (tail in VOSEO_PRONOUNS and written[-1:] in VOSEO_ACCENT
                    and written[:-1] + VOSEO_ACCENT[written[-1]] in verb_forms)
            ):
                found.add(word)
                break
    return found
