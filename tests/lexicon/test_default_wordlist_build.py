"""The default word list's build (issues 15 and 28) run end to end on a small synthetic copy of
the sources: RLA-ES common lists and three countries' lists (es_ES, es_AR, es_PE) with their
affix files, COES and wspanish, each a few lines, laid out as in ``shared/lexicon-sources``.

Each test names the FISE admission principle it checks (``docs/lexicon.md``): the list is
international (American verbs conjugated, *vos* forms), a Spain-only verb is the one no list but
Spain's holds, the -DO-only participle and the *-rse* headword go by the valencies of every
country's lists, active participles and superlatives only as the DLE-based lists have them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.default_lexicon.build import build
from scripts.default_lexicon.sources import read_rla_es

# The Spain affix file, in RLA-ES's shape: E regular present, R forms every verb shares (with
# vosotros and the two enclitic rule kinds), I irregular present (encerrar → encierro), D
# participles, S plural, G gender, the superlative class 🥇 and an enclitic class À.
SPAIN_AFFIXES = """\
# es_ES.aff (sintético)
SET UTF-8
FLAG UTF-8
SFX E Y 4
SFX E ar o ar
SFX E r s ar
SFX E r 0 ar
SFX E r n ar
SFX R Y 8
SFX R r mos ar
SFX R ar áis ar   # 2ª pers. pl.
SFX R r ba ar
SFX R r ra ar
SFX R r se ar
SFX R r ndo ar
SFX R ar ándose ar
SFX R 0 se [aeií]r
SFX I Y 4
SFX I errar ierro errar
SFX I errar ierras errar
SFX I errar ierra errar
SFX I ir amos [^csu]ir
SFX D Y 4
SFX D r do [aií]r
SFX D r dos [aií]r
SFX D r da [aií]r
SFX D r das [aií]r
SFX S Y 2
SFX S 0 s [aeiou]
SFX S 0 es [^aeiou]
SFX G Y 3
SFX G o a o
SFX G o os o
SFX G o as o
SFX 🥇 Y 1
SFX 🥇 o ísimo/GS o
SFX À Y 2
SFX À 0 lo r
SFX À 0 la r
"""

#: Argentina's file: Spain's without *vosotros*, plus the voseo rules, plus a variant of an I
#: rule that is not voseo (RLA-ES's American files have such slips).
AMERICAN_AFFIXES = (SPAIN_AFFIXES.replace("es_ES", "es_AR").replace("SFX R Y 8", "SFX R Y 9")
                    .replace("SFX R ar áis ar   # 2ª pers. pl.\n", "SFX R ar ás ar   # vos\nSFX R ar á ar\n")
                    .replace("SFX I Y 4", "SFX I Y 5").replace("SFX I ir amos [^csu]ir", "SFX I ir amos [^cs]ir\nSFX I errar ás errar")
                    .replace("SFX I errar ás errar", "SFX I ar ás ar"))

COMMON = {
    "Adjetivos.txt": "claro/GS🥇\npaupérrimo/GS\naltísimo/GS\n",
    "NombresComunes.txt": "cantante/S\n",
    "NombresMasculinos.txt": "abril/S\ncanto/S\n",
    "VerbosTransitivos.txt": "amar/REDÀ\nencerrar/RID\ncomprar/RED\nodiar/RED\nabusar/RED\ncantar/RED\n",
    "VerbosIntransitivos.txt": "aullar/RED\nregresar/RED\nlloviznar/RED\n",
    "VerbosPronominales.txt": "aborrascar/RED\n",
    "VerbosAnticuadosDesusados.txt": "abarrar\n",
    "ConjugacionesIrregulares.txt": "lloviznase\n",
}
COUNTRIES = {
    "es_ES": {"VerbosTransitivos.txt": "abalar/RED\nchingar/RED\n"},
    "es_AR": {
        "VerbosTransitivos.txt": "acotejar/RED\n",
        "VerbosPronominales.txt": "comprar/RED\n",
        "ConjugacionesIrregulares.txt": "odiá\nodiame\nodiala\nabrile\n",
        "NombresMasculinos.txt": "yatay\n",
    },
    "es_PE": {
        "VerbosTransitivos.txt": "regresar/RED\n",
        "VerbosPronominales.txt": "acholar/RED\n",
        "VerbosIntransitivos.txt": "chingar/RED\n",
        "NombresMasculinos.txt": "cuy\n",
    },
}
WSPANISH = """\
abusante
cantante
cuy
yatay
dificilísimo
celebérrimo
acholarse
aborrascarse
ilusionarse
gato
"""


def write_sources(root: Path) -> Path:
    """A sources folder with the layout of ``shared/lexicon-sources``."""
    rae = root / "rla-es-2.9" / "ortografia" / "palabras" / "RAE"
    affixes = root / "rla-es-2.9" / "ortografia" / "afijos" / "l10n"
    for name, text in COMMON.items():
        (rae / name).parent.mkdir(parents=True, exist_ok=True)
        (rae / name).write_text("# lista sintética\n" + text, encoding="utf-8")
    for country, files in COUNTRIES.items():
        for name, text in files.items():
            (rae / "l10n" / country).mkdir(parents=True, exist_ok=True)
            (rae / "l10n" / country / name).write_text(text, encoding="utf-8")
    for country, text in (("es_ES", SPAIN_AFFIXES), ("es_AR", AMERICAN_AFFIXES),
                          ("es_PE", SPAIN_AFFIXES.replace("SFX R ar áis ar   # 2ª pers. pl.\n", "")
                           .replace("SFX R Y 8", "SFX R Y 7"))):
        (affixes / country).mkdir(parents=True, exist_ok=True)
        (affixes / country / "afijos.txt").write_text(text, encoding="utf-8")
    (root / "coes").mkdir()
    (root / "coes" / "es.aff").write_text("SET ISO8859-1\nSFX S Y 1\nSFX S 0 s [aeiou]\n", encoding="latin-1")
    (root / "coes" / "es.dic").write_text("2\ncasa/S\ndificilísimo/S\n", encoding="latin-1")
    (root / "wspanish").mkdir()
    (root / "wspanish" / "spanish").write_text(WSPANISH, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_sources(tmp_path_factory.mktemp("sources"))


@pytest.fixture(scope="module")
def built(synthetic: Path) -> set[str]:
    words, _steps, _listed = build(synthetic)
    return set(words)


def test_the_voseo_rules_are_read_from_the_american_affix_files(synthetic: Path) -> None:
    # The rules Argentina's file adds that replace -ar/-er/-ir by a vos ending; not its other
    # differences (the I rule with [^cs]ir would make *construamos*).
    rla = read_rla_es(synthetic)
    assert {str(rule) for rule in rla.voseo} == {"SFX I ar ás ar$", "SFX R ar ás ar$", "SFX R ar á ar$"}
    assert rla.countries == ["es_AR", "es_ES", "es_PE"]
    assert "l10n/es_AR/VerbosTransitivos.txt" in rla.files


def test_american_verbs_are_conjugated_with_every_simple_form(built: set[str]) -> None:
    # FISE's list is international: a verb of an American list only (acotejar) has all its
    # forms, vosotros included (the Spain affix rules), and its vos forms.
    assert {"ACOTEJAR", "ACOTEJO", "ACOTEJAMOS", "ACOTEJAIS", "ACOTEJARA", "ACOTEJADA", "ACOTEJADOS"} <= built


def test_vos_forms_of_every_verb(built: set[str]) -> None:
    # Present indicative and imperative of vos; for an irregular present, on the regular stem.
    assert {"ENCERRAS", "ENCIERRAS", "ENCERRA", "ENCIERRA"} <= built      # vos encerrás, tú encierras
    assert {"AMAS", "AMA"} <= built
    assert "ENCERRO" not in built                                         # no vos form in the 1st person


def test_spain_only_means_no_list_but_spain(built: set[str]) -> None:
    # abalar: only l10n/es_ES → the infinitive only. chingar: es_ES and es_PE → conjugated.
    assert "ABALAR" in built and not {"ABALO", "ABALAMOS", "ABALARA", "ABALADO"} & built
    assert {"CHINGAR", "CHINGAMOS", "CHINGARA"} <= built


def test_participles_go_by_the_valencies_of_every_country(built: set[str]) -> None:
    # aullar: intransitive everywhere → -DO only. regresar: intransitive in the common lists,
    # transitive in Peru's → all four participles. aborrascar (pronominal only) → -DO only.
    # chingar: transitive in Spain's list, intransitive in Peru's → all four.
    assert "AULLADO" in built and not {"AULLADA", "AULLADOS", "AULLADAS"} & built
    assert {"REGRESADO", "REGRESADA", "REGRESADOS", "REGRESADAS"} <= built
    assert "ABORRASCADO" in built and "ABORRASCADA" not in built
    assert {"CHINGADA", "CHINGADAS"} <= built


def test_rse_headwords_of_pronominal_only_verbs(built: set[str]) -> None:
    # aborrascar (common VerbosPronominales) and acholar (pronominal in every list that has
    # it, all American) have the -RSE headword; comprar, transitive in the common lists and
    # pronominal in Argentina's, does not (the DRAE's headword is *comprar*); nor does a
    # wspanish -rse lemma of a verb RLA-ES lists otherwise (ilusionar is not listed here at
    # all, so its -rse lemma is taken).
    assert {"ABORRASCARSE", "ACHOLARSE", "ILUSIONARSE"} <= built
    assert "COMPRARSE" not in built
    assert "ACHOLARSES" not in built and "ABORRASCARSES" not in built   # an infinitive has no plural


def test_written_out_vos_enclitics_are_removed_and_verb_forms_kept(built: set[str]) -> None:
    # odiame = odiá + me (the accent goes with one pronoun); lloviznase is an imperfect
    # subjunctive, not lloviznná + se (vos takes te). ABRILES is the plural of abril, not abrí + les.
    assert not {"ODIAME", "ODIALA"} & built
    assert {"ODIA", "LLOVIZNASE", "ABRILES"} <= built


def test_active_participles_only_as_the_dle_lists_list_them(built: set[str]) -> None:
    # abusante (wspanish: the participle of abusar, an older dictionary's entry) is out;
    # cantante (a noun of RLA-ES's RAE lists) stays, with its plural.
    assert not {"ABUSANTE", "ABUSANTES"} & built
    assert {"CANTANTE", "CANTANTES"} <= built


def test_superlatives_only_as_the_dle_lists_write_them(built: set[str]) -> None:
    # clarísimo (RLA-ES's productive flag) and dificilísimo (COES, wspanish) are out; altísimo
    # (written out in RLA-ES) and -érrimo forms (celebérrimo) stay.
    assert not {"CLARISIMO", "CLARISIMAS", "DIFICILISIMO", "DIFICILISIMOS"} & built
    assert {"ALTISIMO", "ALTISIMAS", "PAUPERRIMO", "CELEBERRIMO", "CELEBERRIMOS", "CLARO"} <= built


def test_plurals_of_words_the_american_lists_leave_open(built: set[str]) -> None:
    # cuy and yatay: unflagged in Peru's and Argentina's lists; wspanish has them → regular plural.
    assert {"CUY", "CUYES", "YATAY", "YATAYES", "GATOS"} <= built


def test_the_build_is_deterministic(synthetic: Path) -> None:
    assert build(synthetic)[0] == build(synthetic)[0]
