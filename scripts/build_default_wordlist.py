#!/usr/bin/env python3
"""Build the default lexicon ``data/lexicon-es.txt.xz`` from Debian's hunspell-es.

Run from the repository root::

    apt-get install hunspell-es hunspell-tools     # once: dictionary + unmunch
    python3 scripts/build_default_wordlist.py

Source: the RLA-ES "Diccionario español para hunspell" (es_ES variant) as
shipped by Debian's ``hunspell-es`` package 1:7.5.0-1 (upstream
libreoffice-dictionaries 7.5.0, whose Spanish dictionaries are RLA-ES 2.6), i.e.
``/usr/share/hunspell/es_ES.dic`` + ``es_ES.aff``. The .dic holds ~70,000
stems with affix flags; ``unmunch`` (package ``hunspell-tools``) expands them
into full word forms. Pipeline:

1. Strip the *enclitic* affixes (verb + attached pronoun: DÁMELO, DECIRLO,
   COMIÉNDOSELO, HABLARTE...) at the affix-flag level: remove the 45 suffix
   classes that only produce enclitic forms (``CLITIC_FLAGS`` below) from the
   .dic entries and from a filtered copy of the .aff, and drop the few
   individual enclitic rules that live inside the ordinary conjugation classes
   R and X (``is_clitic_rule_in_conjugation_class``).
2. Expand with ``unmunch`` (two passes: unmunch does not apply "twofold"
   continuation classes such as ``SFX A r ción/S ar``; it prints
   ``abdicación/S|``, which we feed back as a stem to get ``abdicaciones``).
3. Drop the enclitic forms that the .dic lists *literally* as flagless
   entries (irregular-verb paradigms: dame, dímelo, hazlo, váyase, darse,
   antojarse...), which no flag edit can reach (``explicit_clitic_entries``).
4. Drop proper nouns / acronyms (any uppercase letter in the entry),
   abbreviations (entries with a dot, the upstream list of abbreviations that
   the .dic stores without their dot, and vowelless symbols like cfr),
   anything outside the FISE alphabet (K, W, Ç, digits, hyphens, spaces...)
   and words outside 2..15 tiles.
5. Normalize (uppercase, accents removed, Ñ kept) with ``lexicon.alphabet``,
   deduplicate, sort, and write UTF-8 text compressed with xz (preset 9).

This is NOT the official FISE lexicon; see ``docs/lexicon.md`` and
``data/LICENSE-lexicon-es.txt``.
"""

from __future__ import annotations

import argparse
import lzma
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from lexicon.alphabet import AlphabetError, spanish  # noqa: E402

DEFAULT_DIC = Path("/usr/share/hunspell/es_ES.dic")
DEFAULT_AFF = Path("/usr/share/hunspell/es_ES.aff")
DEFAULT_OUT = REPO / "data" / "lexicon-es.txt.xz"
MIN_TILES, MAX_TILES = 2, 15

# --------------------------------------------------------------------------
# 1. Enclitic suffix classes (hunspell-es 7.5.0, es_ES.aff, "FLAG UTF-8").
#
# The RLA-ES affix file keeps verb + enclitic pronoun forms in their own
# suffix classes, all named by non-ASCII flags. Every rule of each class below
# appends a form ending in me/te/se/nos/os/lo/la/le/los/las/les (checked at
# run time by check_clitic_classes). Flag: rules, examples of forms produced.
#
#   À    4  infinitive + lo/la/los/las       acercarla, acercarlo
#   Á    4  infinitive + me/te/nos/os        acercarme, acercarte
#   Â    2  infinitive + le/les              acercarle, acercarles
#   Ã   80  infinitive + two pronouns        acercármela, acercármelo
#   Ä   16  gerund (-ar) + lo/la/los/las     acercándola, acercándolo
#   Å   16  gerund (-ar) + me/te/nos/os      acercándome, acercándote
#   Æ    8  gerund + le/les                  acercándole, acercándoles
#   Ç   60  gerund (-ar) + two pronouns      acercándomela, acercándomelo
#   È   76  gerund (-er/-ir) + lo/la...      diciéndola, diciéndolo
#   É   60  gerund (-er/-ir) + me/te...      diciéndome, diciéndote
#   Ê   38  gerund (-er/-ir) + le/les        diciéndole, diciéndoles
#   Ë  140  gerund (-er/-ir) + two pronouns  diciéndomela, diciéndomelo
#   Ì  388  imperative (tú/vos) + lo/la...   comela, cómelas, ábala
#   Í  174  imperative + me/nos              acercame, acercanos
#   Î   88  imperative + le/les              acercale, acercales
#   Ï  324  imperative + two pronouns        cantámela, cantámelas
#   Ð   60  imperative (e>ie verbs) + lo...  niégala, enviala
#   Ñ   26  imperative (-ecer...) + me/nos   enviame, envianos
#   Ò   22  imperative (-ecer...) + le/les   enviale, enviales
#   Ó  120  imperative + two pronouns        envíamela, envíamelas
#   Ô   64  imperative (-aer/-acer) + lo...  hacela, hacelas
#   Õ   28  imperative + me/nos              pedime, pedinos
#   Ö   16  imperative + le/les              hacele, haceles
#   Ø   84  imperative + two pronouns        pídemela, pídemelas
#   Ù  664  usted(es) imperative + lo/la...  acérquela, acérquelas
#   Ú  184  usted(es) imperative + me/nos    cánteme, cántenme
#   Û  144  usted(es) imperative + le/les    mírele, míreles
#   Ü  264  usted(es) imperative + two       apréndamela, apréndamelas
#   Ý  120  usted(es) imp. (-iar/-egar) + lo envíela, envíelas
#   Þ   36  usted(es) imp. + me/nos          envíeme, envíenme
#   ß   24  usted(es) imp. + le/les          envíele, envíeles
#   à   72  usted(es) imp. + two pronouns    envíemela, envíemelas
#   á  128  usted(es) imp. (irregular) + lo  dígala, dígalas
#   â   28  usted(es) imp. (irregular) + me  dígame, díganme
#   ã   20  usted(es) imp. (irregular) + le  dígale, dígales
#   ä   72  usted(es) imp. (irregular) + two dígamela, dígamelas
#   ñ    4  infinitive + me/te/nos/os (refl) acercarme, acercarte
#   ò   16  gerund (-ar) + reflexive         acercándome, acercándonos
#   ó   72  gerund (-er/-ir) + reflexive     diciéndome, diciéndonos
#   ô  138  imperative + te/os (reflexive)   acercate, acercaos
#   õ   31  imperative + te/os (-aer...)     cáete, caete
#   ö   18  imperative + te/os (-ir...)      dormite, dormíos
#   ø  253  nosotros/ustedes imp. + nos/se   acerquémonos, acérquense
#   ù   55  idem, irregular stems            cáiganse, cáigase
#   ú   66  idem, irregular stems            digámonos, díganse
#
# None of the ASCII flags is removed as a whole: A-U are derivations
# (-ción, -dura, -ble, -illo, -ito...), G and S are feminine/plural, D is
# participles, PFX a-w are prefixes, and R, E, I, X are the conjugation
# classes (finite forms, infinitive, gerund, participle).
CLITIC_FLAGS = frozenset("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäñòóôõöøùú")

CLITIC_PRONOUN = re.compile(r"(?:me|te|se|nos|os|lo|la|le|los|las|les)$")


def is_clitic_rule_in_conjugation_class(flag: str, strip: str, affix: str, condition: str) -> bool:
    """The enclitic rules inside the conjugation classes R and X.

    Besides the finite forms, R (regular verbs) and X (irregular -er/-ir
    verbs) each generate two enclitic shapes, which we drop rule by rule:

    * gerund + se (R: 10 rules, X: 26 rules), e.g. ``SFX R ar ándose ar``
      (hablar → hablándose), ``SFX X er iéndose [^añ]er`` (comer →
      comiéndose), ``SFX X ecir iciéndose ecir`` (decir → diciéndose);
    * infinitive + se, ``SFX R 0 se [aeií]r`` and ``SFX X 0 se [eií]r``
      (hablar → hablarse, comer → comerse, reír → reírse).

    Rules that merely *end* in -se/-te/-mos are ordinary verb forms and are
    kept: imperfect subjunctive ``SFX R r se ar`` (hablar → hablase),
    ``SFX X r se ñer`` (tañer → tañese), preterite ``-aste``/``-iste``,
    ``-mos`` (hablamos). E and I have no enclitic rules.
    """
    if flag not in ("R", "X"):
        return False
    return affix.endswith("ndose") or (strip == "" and affix == "se" and condition.endswith("r"))


# --------------------------------------------------------------------------
# 4. Abbreviations stored without their dot. The .dic holds the upstream
# list ortograf/palabras/noRAE/Abreviaturas.txt of RLA-ES (the dot is added by
# hunspell's tokenizer). Lowercase ones (uppercase ones go with the proper
# nouns), as "word" or "word/flags" exactly as the .dic has them; "del"
# (also the contraction de + el) is deliberately left out.
ABBREVIATIONS = frozenset(
    """
    admón adv afmo/G ap apdo art atte atto/G av avd avda ayto bibl blv bs bv
    caj cap cent/S cént/S cgo cit cl cm cód col coord cta cte ctvo dcho/G depto
    der diag dicc dir dpto dto dupdo ed edit ef ej entlo etc fca fig fol fra
    geneal geogr geom gob gral gta hab hno/GS ib ibíd íd imp impr impto incl
    ing inst izq izqdo/G jhs km ldo/G lic loc ltdo/G máx mín ms mtro nro núm ob
    op pág/S pár pat pbro pdta pdte pg pl plza pol pp ppal pral prof pról prov
    pta/S pts pza rdo reg rel rep rev rte rvd rvdo sdad sig soc sr/GS srta ss
    sto/G tel teléf tfno tít tpo trad univ vid vol vs vto/G xto
    """.split()
)

# Flagless .dic entries matched by the explicit-enclitic heuristic that are
# ordinary words or plain verb forms (see explicit_clitic_entries), and
# interjections that the DRAE lists as such; reviewed by hand.
NOT_CLITIC = frozenset(
    """
    ale ameos andase jugase tétanos ándale órale híjole
    """.split()
)
# Flagless enclitic forms of the irregular verbs that the heuristic misses
# (their host is itself a flagless entry, or a voseo form without accent).
EXPLICIT_CLITIC = frozenset(
    """
    alzate armate démoselo érase estaos estate estense estese irgámonos
    vámonos vayámonos váyase váyanse ándele ándeles ándenle ándenles
    """.split()
)


# --------------------------------------------------------------------------
# Reading and writing hunspell files


def read_dic(path: Path) -> list[tuple[str, str]]:
    """(word, flags) pairs of a .dic, first line (the count) skipped, duplicates dropped.

    Invisible format characters are removed (7.5.0 has "papeleri<U+00AD>o" and
    "Caldas<U+200E>"), as is whitespace around the word ("Ascope ").
    """
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    seen: set[tuple[str, str]] = set()
    out = []
    for line in lines:
        line = "".join(c for c in line if unicodedata.category(c) != "Cf").strip()
        if not line:
            continue
        word, _, flags = line.partition("/")
        entry = (word.strip(), flags.strip())
        if entry not in seen:
            seen.add(entry)
            out.append(entry)
    return out


def tidy_aff(text: str) -> str:
    """The .aff with PFX/SFX lines re-spaced: unmunch splits on spaces only,
    and 7.5.0 has "PFX w 0 ex<TAB> ." (it would give "ex<TAB>combatiente")."""
    out = []
    for line in text.splitlines():
        fields = line.split()
        out.append(" ".join(fields) if fields and fields[0] in ("PFX", "SFX") else line)
    return "\n".join(out) + "\n"


def filter_aff(text: str) -> tuple[str, dict[str, list[str]], list[str]]:
    """The .aff without the enclitic classes and rules.

    Returns (filtered text, removed class flag -> its rule lines,
    removed individual rule lines).
    """
    lines = text.splitlines()
    # Count the kept rules of each class first, to rewrite the headers.
    kept_count: dict[str, int] = defaultdict(int)
    removed_classes: dict[str, list[str]] = defaultdict(list)
    removed_rules: list[str] = []
    keep_line: list[bool] = []
    for line in lines:
        fields = line.split()
        keep = True
        if len(fields) >= 4 and fields[0] in ("PFX", "SFX"):
            flag = fields[1]
            header = len(fields) == 4 and fields[2] in ("Y", "N") and fields[3].isdigit()
            if flag in CLITIC_FLAGS:
                keep = False
                if not header:
                    removed_classes[flag].append(line)
            elif not header:
                strip = "" if fields[2] == "0" else fields[2]
                affix = fields[3].split("/")[0]
                affix = "" if affix == "0" else affix
                condition = fields[4] if len(fields) > 4 else "."
                if fields[0] == "SFX" and is_clitic_rule_in_conjugation_class(flag, strip, affix, condition):
                    keep = False
                    removed_rules.append(line)
                else:
                    kept_count[(fields[0], flag)] += 1
        keep_line.append(keep)
    out = []
    for line, keep in zip(lines, keep_line):
        if not keep:
            continue
        fields = line.split()
        if len(fields) == 4 and fields[0] in ("PFX", "SFX") and fields[2] in ("Y", "N") and fields[3].isdigit():
            line = f"{fields[0]} {fields[1]} {fields[2]} {kept_count[(fields[0], fields[1])]}"
        out.append(line)
    return tidy_aff("\n".join(out)), dict(removed_classes), removed_rules


def check_clitic_classes(removed_classes: dict[str, list[str]], removed_rules: list[str]) -> None:
    """Sanity checks on what filter_aff removed (guards against a changed .aff)."""
    missing = CLITIC_FLAGS - removed_classes.keys()
    if missing:
        raise SystemExit(f"clases enclíticas ausentes del .aff: {''.join(sorted(missing))}")
    for flag, rules in removed_classes.items():
        for rule in rules:
            affix = rule.split()[3].split("/")[0]
            if not CLITIC_PRONOUN.search(affix):
                raise SystemExit(f"la clase {flag} tiene una regla no enclítica: {rule}")
    if len(removed_rules) != 38:  # R: 10 gerund+se, 1 infinitive+se; X: 26 + 1
        raise SystemExit(f"se esperaban 38 reglas enclíticas en R y X, hay {len(removed_rules)}")


def run_unmunch(unmunch: str, entries: list[tuple[str, str]], aff_path: Path, workdir: Path) -> list[str]:
    """Expand ``entries`` with unmunch; returns its output lines (may contain 'word/S|')."""
    dic_path = workdir / "in.dic"
    with dic_path.open("w", encoding="utf-8") as f:
        f.write(f"{len(entries)}\n")
        for word, flags in entries:
            f.write(f"{word}/{flags}\n" if flags else f"{word}\n")
    result = subprocess.run(
        [unmunch, str(dic_path), str(aff_path)], capture_output=True, check=True
    )
    return [line for line in result.stdout.decode("utf-8").splitlines() if line.strip()]


def expand(unmunch: str, entries: list[tuple[str, str]], aff_path: Path, workdir: Path) -> tuple[int, set[str]]:
    """All forms of ``entries``: (unmunch output line count, set of forms).

    unmunch does not apply continuation classes: a rule like
    ``SFX A r ción/S ar`` comes out as ``abdicación/S|``. Those are expanded
    in a second unmunch pass with the continuation flags as stem flags.
    """
    lines = run_unmunch(unmunch, entries, aff_path, workdir)
    raw = len(lines)
    forms: set[str] = set()
    twofold: list[tuple[str, str]] = []
    for line in lines:
        word, slash, cont = line.strip().partition("/")
        forms.add(word)
        if slash:
            twofold.append((word, cont.rstrip("|")))
    while twofold:
        lines = run_unmunch(unmunch, twofold, aff_path, workdir)
        raw += len(lines)
        twofold = []
        for line in lines:
            word, slash, cont = line.strip().partition("/")
            if slash and word not in forms:
                twofold.append((word, cont.rstrip("|")))
            forms.add(word)
    return raw, forms


# --------------------------------------------------------------------------
# 3. Enclitic forms listed literally in the .dic


def _plain(word: str) -> str:
    """Lowercase, accents removed, ñ kept (for comparing verb hosts)."""
    out = []
    for ch in unicodedata.normalize("NFC", word.lower()):
        if ch == "ñ":
            out.append(ch)
        else:
            out.append("".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c)))
    return "".join(out)


CLITIC_SEQUENCE = re.compile(r"(?:me|te|se|nos|os|lo|la|le|los|las|les){1,3}")
ACCENTED = re.compile(r"[áéíóú]")


def explicit_clitic_entries(flagless: list[str], all_forms: set[str], verb_forms: set[str]) -> list[str]:
    """Flagless lowercase .dic entries that are a verb form + enclitic pronoun(s).

    The irregular and defective verbs (dar, ir, ser, estar, haber, oler,
    jugar, abolir...) are listed form by form without flags, enclitic forms
    included (upstream ConjugacionesIrregulares.txt): dame, dámelo, dile,
    hazlo, darse, habiéndoselo, váyase, plus pronominal lemmas such as
    antojarse. ``verb_forms`` are the forms of the conjugation classes R, E,
    I, X. An entry is taken as enclitic when it splits as host + 1-3 pronouns
    (accents ignored; "vamo" + nos read as "vamos") and

    a. the pronoun is "se" after an infinitive (antojarse, irse, darse); or
    b. the host is a gerund, -ndo (dándole, yéndose, habiéndoselo); or
    c. the host is a word form with at least three different pronoun endings
       among the flagless entries (da: dale, dame, dalo...; haz: hazlo...); or
    d. the host is a verb form and the spelling shows the clitic: an accent
       the host lacks (ódiame, sírvase, apañárselas, unámonos), a vosotros
       imperative in -d (odiadme), or -d dropped before "os" (alzaos).

    Plus EXPLICIT_CLITIC, minus NOT_CLITIC (both reviewed by hand).
    """
    plain = {w: _plain(w) for w in flagless}
    forms_plain = {_plain(w) for w in all_forms}
    verbs_plain = {_plain(w) for w in verb_forms}
    splits: dict[str, list[tuple[str, str, str]]] = {}
    host_endings: dict[str, set[str]] = defaultdict(set)
    for word, p in plain.items():
        options = []
        for i in range(1, len(p) - 1):
            host, tail = p[:i], p[i:]
            if CLITIC_SEQUENCE.fullmatch(tail):
                written = word[:i]  # same length: _plain keeps one char per char
                if tail.startswith("nos") and host.endswith("mo"):
                    host += "s"  # vámonos = vamos + nos
                    written += "s"
                options.append((host, tail, written))
                host_endings[host].add(tail)
        splits[word] = options
    out = []
    for word in flagless:
        if word in NOT_CLITIC:
            continue
        if word in EXPLICIT_CLITIC:
            out.append(word)
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
            ):
                out.append(word)
                break
    return out


# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dic", type=Path, default=DEFAULT_DIC)
    parser.add_argument("--aff", type=Path, default=DEFAULT_AFF)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--unmunch", default=shutil.which("unmunch") or "unmunch")
    parser.add_argument("--list", action="store_true", help="also print the removed forms of the small filters")
    args = parser.parse_args(argv)
    start = time.monotonic()
    for path in (args.dic, args.aff):
        if not path.exists():
            raise SystemExit(f"no existe {path}: apt-get install hunspell-es hunspell-tools")
    if not shutil.which(args.unmunch):
        raise SystemExit("falta unmunch: apt-get install hunspell-tools")

    alphabet = spanish()
    entries = read_dic(args.dic)
    aff_text = args.aff.read_text(encoding="utf-8")
    filtered_aff, removed_classes, removed_rules = filter_aff(aff_text)
    check_clitic_classes(removed_classes, removed_rules)

    # Step 1: strip the enclitic flags from the entries.
    stripped = [(w, "".join(f for f in flags if f not in CLITIC_FLAGS)) for w, flags in entries]
    bad = {f for _, flags in stripped for f in flags if ord(f) > 127}
    if bad:
        raise SystemExit(f"quedan banderas no ASCII (unmunch no las admite): {''.join(sorted(bad))}")
    touched = sum(1 for (_, a), (_, b) in zip(entries, stripped) if a != b)
    is_abbreviation = [(f"{w}/{f}" if f else w) in ABBREVIATIONS for w, f in entries]
    # Entries without flags in the .dic produce only themselves; they are
    # kept apart from unmunch because steps 3 and 4 look at them.
    flagless = [w for w, f in entries if not f]
    flagged = [s for s, (_, f) in zip(stripped, entries) if f]
    flagged_kept = [s for s, (_, f), abbr in zip(stripped, entries, is_abbreviation) if f and not abbr]

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        aff_path = work / "filtered.aff"
        aff_path.write_text(filtered_aff, encoding="utf-8")
        tidy_path = work / "tidy.aff"
        tidy_path.write_text(tidy_aff(aff_text), encoding="utf-8")
        # Reference run on the unmodified dictionary. NB: unmunch reads flags
        # byte by byte, so with this "FLAG UTF-8" .aff it lumps all the
        # non-ASCII (enclitic) classes together and over-generates (e.g.
        # "piégala" from pegar, which does not diphthongize). Only ASCII
        # flags are left after step 1, so the expansion actually used is not
        # affected (checked against an independent expander: identical).
        reference = subprocess.run([args.unmunch, str(args.dic), str(args.aff)], capture_output=True, check=True)
        full_raw = sum(1 for line in reference.stdout.decode("utf-8").splitlines() if line.strip())
        _, full_forms = expand(args.unmunch, entries, tidy_path, work)
        # Step 2: the real expansion.
        raw, flagged_forms = expand(args.unmunch, flagged, aff_path, work)
        _, flagged_kept_forms = expand(args.unmunch, flagged_kept, aff_path, work)
        conjugated = [(w, "".join(c for c in f if c in "REIX")) for w, f in flagged]
        _, verb_forms = expand(args.unmunch, [e for e in conjugated if e[1]], aff_path, work)

    steps: list[tuple[str, int]] = []
    forms = flagged_forms | set(flagless)
    steps.append(("enclíticos, por banderas/reglas del .aff", len(full_forms - forms)))

    # Step 3: enclitic forms written out in the .dic.
    explicit = set(explicit_clitic_entries([w for w in flagless if w[:1].islower()], forms, verb_forms))
    flagless_kept = [w for w in flagless if w not in explicit]
    removed = forms - (flagged_forms | set(flagless_kept))
    forms -= removed
    listed = {"enclíticos escritos en el .dic": removed}
    steps.append((f"enclíticos escritos en el .dic ({len(explicit)} entradas)", len(removed)))

    # Step 4: proper nouns and acronyms (any uppercase letter: Abad, ADSL, iPad, pH).
    removed = {w for w in forms if any(c.isupper() for c in w)}
    forms -= removed
    steps.append(("nombres propios y siglas (mayúsculas)", len(removed)))

    # Abbreviations: dotted entries, the upstream list (stored without the
    # dot) with the forms of its flagged members (págs, sras, hnos...), and
    # vowelless symbols (cfr, cf, ch). A form that a non-abbreviation entry
    # also produces is kept (vid, col).
    abbreviation_entries = {w for (w, f), abbr in zip(entries, is_abbreviation) if abbr}
    others = flagged_kept_forms | {w for w in flagless_kept if w not in abbreviation_entries}
    removed = {
        w
        for w in forms
        if w not in others or "." in w or not re.search(r"[aeiouáéíóúü]", w, re.IGNORECASE)
    }
    forms -= removed
    listed["abreviaturas y símbolos"] = removed
    steps.append(("abreviaturas y símbolos", len(removed)))

    # Step 5: alphabet and length.
    codes_of: dict[str, tuple[int, ...]] = {}
    removed = set()
    for w in forms:
        try:
            codes_of[w] = alphabet.word_codes(w)
        except AlphabetError:
            removed.add(w)
    listed["fuera del alfabeto"] = removed
    steps.append(("fuera del alfabeto FISE (K, W, Ç, guion, espacio...)", len(removed)))
    short = {w for w, c in codes_of.items() if len(c) < MIN_TILES}
    long = {w for w, c in codes_of.items() if len(c) > MAX_TILES}
    steps.append((f"menos de {MIN_TILES} fichas", len(short)))
    steps.append((f"más de {MAX_TILES} fichas", len(long)))
    kept = [c for w, c in codes_of.items() if w not in short and w not in long]
    words = sorted({alphabet.format(c) for c in kept})
    steps.append(("fusionadas al normalizar (mayúsculas, sin tildes)", len(kept) - len(words)))

    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = ("\n".join(words) + "\n").encode("utf-8")
    args.out.write_bytes(lzma.compress(payload, format=lzma.FORMAT_XZ, preset=9))

    print(f"entradas del .dic: {len(entries):,} ({len(flagless):,} sin banderas)")
    print(f"unmunch, diccionario sin modificar: {full_raw:,} líneas, {len(full_forms):,} formas distintas")
    print(
        f"quitadas del .aff: {len(removed_classes)} clases enclíticas "
        f"({sum(map(len, removed_classes.values())):,} reglas) + {len(removed_rules)} reglas de R y X;"
        f" {touched:,} entradas del .dic pierden banderas"
    )
    print(f"unmunch, sin enclíticos: {raw:,} líneas (dos pasadas), {len(flagged_forms | set(flagless)):,} formas distintas")
    for label, n in steps:
        print(f"  - {label}: {n:,}")
    print(f"final: {len(words):,} palabras -> {args.out} ({args.out.stat().st_size:,} bytes)")
    print(f"tiempo: {time.monotonic() - start:.1f} s")
    if args.list:
        for label, removed in listed.items():
            print(f"\n# {label} ({len(removed)}):\n" + " ".join(sorted(removed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
