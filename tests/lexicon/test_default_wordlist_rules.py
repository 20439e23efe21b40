"""The default word list's build rules (issue 15): the FISE admission rules, on small
synthetic sources and on the shipped ``data/lexicon-es.txt.xz``; the shipped file is what
the script builds from the shared sources, byte for byte.

Tests on the rules, not on counts: enclitic forms never appear, an intransitive verb has
-DO and no -DA, a verb listed only for Spain has its infinitive only, a pronominal verb has
its -RSE headword, every two-tile word is there for a reviewed reason.
"""

from __future__ import annotations

import lzma
import os
import re
from pathlib import Path

import pytest

import data
from lexicon.alphabet import spanish
from lexicon.default import WORD_LIST
from scripts.build_default_wordlist import DEFAULT_SOURCES, compressed
from scripts.default_lexicon import fise_rules
from scripts.default_lexicon.build import build, pronominal_lemma, read_two_tile_table
from scripts.default_lexicon.enclitics import enclitic_words
from scripts.default_lexicon.fise_rules import Verbs, plurals
from scripts.default_lexicon.hunspell import Affixes, Entry, content_lines

# A small affix file in RLA-ES's shape: D participles, R finite forms with the two enclitic
# rule kinds, S plural, A twofold (-ción/S), a cross-product prefix, an enclitic class.
AFFIXES = """
SET UTF-8
FLAG UTF-8
SFX D Y 4
SFX D r do [aií]r
SFX D r dos [aií]r
SFX D r da [aií]r
SFX D r das [aií]r
SFX R Y 5
SFX R ar o ar   # 1ª pers. sing.
SFX R r mos ar
SFX R r se ar
SFX R ar ándose ar
SFX R 0 se [aeií]r
SFX S Y 2
SFX S 0 s [aeiou]
SFX S 0 es [^aeiou]
SFX A Y 1
SFX A r ción/S ar
PFX d Y 1
PFX d 0 des .
SFX À Y 2
SFX À 0 lo r
SFX À 0 la r
"""


@pytest.fixture(scope="module")
def affixes(tmp_path_factory: pytest.TempPathFactory) -> Affixes:
    path = tmp_path_factory.mktemp("aff") / "rules.aff"
    path.write_text(AFFIXES, encoding="utf-8")
    return Affixes.read(content_lines(path))


@pytest.fixture(scope="module")
def shipped() -> set[str]:
    return set(lzma.decompress(data.path(WORD_LIST).read_bytes()).decode("utf-8").split())


def test_expansion_follows_hunspell(affixes: Affixes) -> None:
    # Suffix with strip and condition, twofold continuation (abdicación → abdicaciones),
    # cross-product prefix with suffixes (deshablo), the rule's trailing comment ignored.
    forms = affixes.expand(Entry("abdicar", "ARd", "VerbosTransitivos.txt"))
    assert {"abdicar", "abdico", "abdicamos", "abdicación", "abdicaciónes", "desabdicar", "desabdico"} <= forms
    assert affixes.expand(Entry("casa", "S", "NombresFemeninos.txt")) == {"casa", "casas"}
    assert affixes.expand(Entry("red", "S", "NombresFemeninos.txt")) == {"red", "redes"}


def test_enclitic_rules_are_told_from_forms_that_merely_end_in_se(affixes: Affixes) -> None:
    verdicts = {(rule.strip, rule.add): fise_rules.is_rla_enclitic_rule(rule) for rule in affixes.rules()}
    assert verdicts[("ar", "ándose")] and verdicts[("", "se")]      # hablándose, hablarse
    assert verdicts[("", "lo")] and verdicts[("", "la")]            # the enclitic class À
    assert not verdicts[("r", "se")] and not verdicts[("r", "mos")]  # hablase, hablamos
    assert fise_rules.check_enclitic_classes(affixes.rules()) == 4


def test_fise_verb_rules_on_rla_entries(affixes: Affixes) -> None:
    entries = [
        Entry("aullar", "RD", "VerbosIntransitivos.txt"),
        Entry("amar", "RD", "VerbosTransitivos.txt"),
        Entry("abalar", "RD", "l10n/es_ES/VerbosTransitivos.txt"),
        Entry("aborrascar", "RD", "VerbosPronominales.txt"),
        Entry("hablar", "RDÀ", "VerbosTransitivosIntransitivos.txt"),
    ]
    verbs = Verbs.of(entries)
    keep = fise_rules.rla_keep(verbs)
    forms = {e.word: affixes.expand(e, keep) for e in entries}
    # Intransitive: -DO only (III: FISE's convention, sources' README).
    assert "aullado" in forms["aullar"] and not {"aullada", "aullados", "aulladas"} & forms["aullar"]
    assert {"amado", "amada", "amados", "amadas"} <= forms["amar"]
    # Listed only for Spain: the infinitive only.
    assert forms["abalar"] == {"abalar"}
    # Pronominal only: -DO only, and the -rse headword.
    assert verbs.pronominal_headwords() == {"aborrascarse"}
    assert not {"aborrascada"} & forms["aborrascar"]
    # No enclitic form; the imperfect subjunctive in -se stays.
    assert "hablase" in forms["hablar"]
    assert not {"hablarse", "hablándose", "hablarlo", "hablarla"} & forms["hablar"]


def test_coes_rules_drop_enclitic_entries_and_flags() -> None:
    entries = [Entry("ábrelo", "BDPS", "coes"), Entry("abrir", "WXOR", "coes"), Entry("rápido", "PSM", "coes")]
    assert fise_rules.coes_entries(entries) == [Entry("abrir", "WX", "coes"), Entry("rápido", "PS", "coes")]


def test_wspanish_pronominal_lemmas_only_for_pronominal_verbs() -> None:
    verbs = Verbs.of([Entry("aborrascar", "R", "VerbosPronominales.txt"),
                      Entry("ilusionar", "R", "VerbosTransitivosPronominales.txt")])
    assert pronominal_lemma("aborrascar", verbs)
    assert pronominal_lemma("amapolar", verbs)          # not in RLA-ES: the list's -rse lemma
    assert not pronominal_lemma("ilusionar", verbs)     # RLA-ES lists it with another valency


@pytest.mark.parametrize(("word", "expected"), [
    ("casa", ["casas"]), ("sofá", ["sofás"]), ("esquí", ["esquíes", "esquís"]), ("rey", ["reyes"]),
    ("árbol", ["árboles"]), ("canción", ["canciones"]), ("luz", ["luces"]), ("autobús", ["autobuses"]),
    ("mes", ["meses"]), ("lunes", []), ("tórax", []), ("club", ["clubs"]), ("amar", []), ("lentamente", []),
])
def test_regular_plurals(word: str, expected: list[str]) -> None:
    assert plurals(word) == expected


def test_written_out_enclitics_are_found_and_ordinary_words_kept() -> None:
    words = ["dame", "dale", "dalo", "hazlo", "darse", "dándole", "ódiame", "tétanos", "da", "haz"]
    found = enclitic_words(words, set(words) | {"odia"}, {"da", "haz", "odia", "dar", "dando"})
    assert {"dame", "dale", "dalo", "darse", "dándole", "ódiame"} <= found
    assert not {"tétanos", "da", "haz"} & found


def test_two_tile_table_refuses_a_row_without_reason(tmp_path: Path) -> None:
    bad = tmp_path / "two.tsv"
    bad.write_text("# comentario\nÑU\tsí\tsustantivo\nZZ\tsí\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match="línea 3"):
        read_two_tile_table(bad)


# The shipped list ----------------------------------------------------------------------------

#: Words of the shipped list that look like infinitive/gerund + pronoun and are other words
#: (nouns, adjectives, other verb forms): ALARME (alarma), FUERTE, MUERTE, ESTANDARTE…
HOMOGRAPHS = frozenset("""
    ABANDONOS ALARME AMARTELO ANDOLA ANDOLAS AYERME BALLARTE BANDOLA BANDOLAS BUSCARLA BUSCARLAS
    CONTRAPARTE CUERNOS DESAMARTELO DORMIRLAS ESPADARTE ESQUIPARTE ESTANDARTE ETERNOS FUERTE IMPARTE
    INTERNOS LIBERTE MUERTE PATERNOS PETARTE PLACARTE SOLERTE SUPERNOS TRASVERTE VELARTE
""".split())


def test_no_enclitic_forms_in_the_shipped_list(shipped: set[str]) -> None:
    # FISE: no verb form with an attached pronoun. Every infinitive or gerund + pronoun(s)
    # in the list is a documented homograph.
    pronouns = ["LO", "LA", "LOS", "LAS", "LE", "LES", "ME", "TE", "NOS", "MELO", "SELO", "TELO", "NOSLO"]
    hosts = [w for w in shipped if len(w) >= 4 and re.search(r"(AR|ER|IR|ANDO|IENDO|YENDO)$", w)]
    found = {host + p for host in hosts for p in pronouns if host + p in shipped}
    assert found == HOMOGRAPHS
    assert not {"DAMELO", "DECIRLO", "COMIENDOSELO", "HABLARTE", "HABLARSE", "ACERCATE", "HAZLO"} & shipped


def test_verb_conventions_in_the_shipped_list(shipped: set[str]) -> None:
    # Intransitive (RLA-ES VerbosIntransitivos: aullar, bostezar): -DO, no -DA/-DOS/-DAS.
    for stem in ("AULL", "BOSTEZ"):
        assert {f"{stem}AR", f"{stem}ADO", f"{stem}AMOS"} <= shipped
        assert not {f"{stem}ADA", f"{stem}ADOS", f"{stem}ADAS"} & shipped
    # Listed only for Spain (l10n/es_ES: abalar): the infinitive only.
    # (ABALADO is there as wspanish's adjective lemma, not as a verb form.)
    assert "ABALAR" in shipped and not {"ABALO", "ABALAMOS", "ABALARA", "ABALASTEIS", "ABALANDO"} & shipped
    # Pronominal only (VerbosPronominales: aborrascar): conjugated, -DO, and the -RSE headword.
    assert {"ABORRASCARSE", "ABORRASCO", "ABORRASCADO"} <= shipped and "ABORRASCADA" not in shipped


def test_every_two_tile_word_has_a_reviewed_reason(shipped: set[str]) -> None:
    alphabet = spanish()
    two_tiles = {w for w in shipped if len(alphabet.word_codes(w)) == 2}
    admitted = {word for word, row in read_two_tile_table().items() if row.admitted}
    assert two_tiles == admitted
    assert {"FI", "HI", "HU", "NA", "OX", "ÑU", "CHE", "XI"} <= two_tiles
    assert not {"AD", "ET", "QU", "LLE"} & shipped


@pytest.mark.slow
@pytest.mark.skipif(not (Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES)) / "README.md").exists(),
                    reason="las fuentes (shared/lexicon-sources) no están en esta máquina")
def test_the_shipped_list_is_what_the_script_builds() -> None:
    words, steps, _ = build(Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES)))
    assert compressed(words) == data.path(WORD_LIST).read_bytes()
    assert words == sorted(set(words)) and all(2 <= len(spanish().word_codes(w)) <= 15 for w in words)
    assert steps[0].added > len(words)


@pytest.mark.slow
@pytest.mark.skipif(not (Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES)) / "README.md").exists(),
                    reason="las fuentes (shared/lexicon-sources) no están en esta máquina")
def test_expansion_agrees_with_spylls_lookup(tmp_path: Path) -> None:
    """Cross-check of the expander against an independent Hunspell implementation: every form
    it makes of 1,500 random RLA-ES entries (all rules, no FISE rule) is one spylls accepts.
    The one known difference: the prefix class ☎️ (tele-) is named by two code points; like
    Hunspell we reach it by the first, spylls by both, so spylls rejects its forms."""
    import random

    from spylls.hunspell import Dictionary

    from scripts.default_lexicon.sources import RLA_ES_AFFIXES, read_rla_es

    root = Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES))
    rla = read_rla_es(root)
    (tmp_path / "es.aff").write_text("\n".join(content_lines(root / RLA_ES_AFFIXES)) + "\n", encoding="utf-8")
    lines = sorted({f"{e.word}/{e.flags}" if e.flags else e.word for e in rla.entries})
    (tmp_path / "es.dic").write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    hunspell = Dictionary.from_files(str(tmp_path / "es"))
    sample = random.Random(15).sample(rla.entries, 1500)
    rejected = {form for entry in sample for form in rla.affixes.expand(entry) if not hunspell.lookup(form)}
    made_by_tele = {form for entry in sample if "☎" in entry.flags
                    for form in rla.affixes.expand(entry) if form.startswith("tel")}
    assert rejected <= made_by_tele
    assert sum(len(rla.affixes.expand(entry)) for entry in sample) > 10_000
