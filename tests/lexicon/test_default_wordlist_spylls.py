"""The default word list's affix expansion (issues 15 and 28) against an independent Hunspell
implementation (spylls) on the shared sources' RLA-ES entries; run where the sources are
(skipped elsewhere, saying so). The build rules: ``test_default_wordlist_rules.py``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scripts.build_default_wordlist import DEFAULT_SOURCES
from scripts.default_lexicon.hunspell import content_lines


@pytest.mark.slow
@pytest.mark.skipif(not (Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES)) / "README.md").exists(),
                    reason="las fuentes (shared/lexicon-sources) no están en esta máquina")
def test_expansion_agrees_with_spylls_lookup(tmp_path: Path) -> None:
    """Cross-check of the expander against an independent Hunspell implementation: every form
    it makes of 1,500 random RLA-ES entries (all rules, no FISE rule) is one spylls accepts,
    with the Spain affix file, or, for the forms only the voseo rules make, with Argentina's.
    The one known difference: the prefix class ☎️ (tele-) is named by two code points; like
    Hunspell we reach it by the first, spylls by both, so spylls rejects its forms."""
    import random

    from spylls.hunspell import Dictionary

    from scripts.default_lexicon.sources import RLA_ES_AFFIXES, read_rla_es

    root = Path(os.environ.get("DUPLICADA_LEXICON_SOURCES", DEFAULT_SOURCES))
    rla = read_rla_es(root)
    lines = sorted({f"{e.word}/{e.flags}" if e.flags else e.word for e in rla.entries})
    dictionaries = {}
    for country in ("es_ES", "es_AR"):
        affix_file = root / RLA_ES_AFFIXES.parent.parent / country / "afijos.txt"
        (tmp_path / f"{country}.aff").write_text("\n".join(content_lines(affix_file)) + "\n", encoding="utf-8")
        (tmp_path / f"{country}.dic").write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
        dictionaries[country] = Dictionary.from_files(str(tmp_path / country))
    sample = random.Random(28).sample(rla.entries, 1500)
    voseo = set(rla.voseo)
    spain = {form for entry in sample for form in rla.affixes.expand(entry, lambda e, r: r not in voseo)}
    only_voseo = {form for entry in sample for form in rla.affixes.expand(entry)} - spain
    rejected = {form for form in spain if not dictionaries["es_ES"].lookup(form)}
    rejected |= {form for form in only_voseo if not dictionaries["es_AR"].lookup(form)}
    made_by_tele = {form for entry in sample if "☎" in entry.flags
                    for form in rla.affixes.expand(entry) if form.startswith("tel")}
    assert rejected <= made_by_tele
    assert len(spain) > 10_000 and len(only_voseo) > 100
