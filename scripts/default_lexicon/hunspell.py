"""Hunspell word lists and affix files: reading entries, expanding them into word forms.

The affix file is parsed by spylls (a Python port of Hunspell, https://github.com/zverok/spylls):
its ``Prefix``/``Suffix`` objects carry the strip, the addition, the continuation flags and
the condition compiled to a regular expression. Expanding an entry into its forms (what
Hunspell's ``unmunch`` does) is the small loop in :meth:`Affixes.expand`, with a ``keep``
predicate through which the FISE rules drop single rules for single entries.

Hunspell semantics followed (hunspell(5)):

* a suffix applies when the stem ends with its condition and with its strip, and something
  of the stem remains after stripping; a prefix likewise at the start;
* a suffix's continuation flags name suffixes that apply to the suffixed form ("twofold"
  suffixes: abdicar → abdicación → abdicaciones);
* a prefix and a suffix combine when both are cross-product (``Y`` in the class header);
  both conditions are checked on the stem.

Flags are single code points (``FLAG UTF-8`` in RLA-ES; single Latin-1 letters in COES).
An affix class named by several code points (RLA-ES's ``☎️``, telephone + variation
selector) is reached by its first code point, as in the entries.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from spylls.hunspell.readers import read_aff
from spylls.hunspell.readers.file_reader import FileReader

#: A trailing comment: ``#`` after spaces or tabs (``anémico/GS  # Contribuida por…``).
TRAILING_COMMENT = re.compile(r"\s+#.*$")


@dataclass(frozen=True)
class Entry:
    """One line of a word list: ``word`` and its ``flags`` (one flag per character), and the
    file it came from (``source``, a path relative to the source folder)."""

    word: str
    flags: str
    source: str


@dataclass(frozen=True)
class Rule:
    """One affix rule: ``kind`` ``"SFX"`` or ``"PFX"``, its class ``flag``, ``strip`` and
    ``add`` (plain text), ``condition`` (compiled, anchored), ``cross`` (cross-product) and
    ``continuation`` flags."""

    kind: str
    flag: str
    strip: str
    add: str
    condition: re.Pattern[str]
    cross: bool
    continuation: frozenset[str]

    def applies(self, stem: str) -> bool:
        """Whether the rule applies to ``stem`` (condition, strip, something left)."""
        if len(stem) <= len(self.strip):
            return False
        if self.kind == "SFX":
            return stem.endswith(self.strip) and self.condition.search(stem) is not None
        return stem.startswith(self.strip) and self.condition.match(stem) is not None

    def apply(self, stem: str) -> str:
        """The form the rule makes of ``stem`` (call :meth:`applies` first)."""
        if self.kind == "SFX":
            return stem[: len(stem) - len(self.strip)] + self.add
        return self.add + stem[len(self.strip):]

    def __str__(self) -> str:
        cont = "/" + "".join(sorted(self.continuation)) if self.continuation else ""
        return f"{self.kind} {self.flag} {self.strip or '0'} {self.add or '0'}{cont} {self.condition.pattern}"


Keep = Callable[[Entry, Rule], bool]


def keep_all(entry: Entry, rule: Rule) -> bool:
    """The ``keep`` predicate that keeps every rule."""
    return True


def content_lines(path: Path, encoding: str = "utf-8") -> list[str]:
    """Lines of ``path`` without comments (whole-line ``#`` and trailing ``  # …``), blank
    lines, invisible format characters (soft hyphens) or surrounding white space.

    Raises ``OSError`` or ``UnicodeDecodeError`` for a missing or mis-encoded file."""
    out = []
    for line in path.read_text(encoding=encoding).splitlines():
        if line.lstrip().startswith("#"):
            continue
        line = TRAILING_COMMENT.sub("", line)
        line = "".join(c for c in line if c not in "\u00ad\u200b\u200e\u200f\ufeff").strip()
        if line:
            out.append(line)
    return out


def read_entries(path: Path, source: str, *, encoding: str = "utf-8", count_line: bool = False) -> list[Entry]:
    """The entries (``word`` or ``word/FLAGS``) of a word list or ``.dic`` file.

    ``count_line``: the first line is the entry count of a ``.dic`` and is skipped."""
    lines = content_lines(path, encoding)
    if count_line and lines and lines[0].isdigit():
        lines = lines[1:]
    entries = []
    for line in lines:
        word, _, flags = line.partition("/")
        entries.append(Entry(word.strip(), flags.strip(), source))
    return entries


class Affixes:
    """The affix classes of an affix file, by flag: ``suffixes[flag]`` and ``prefixes[flag]``,
    lists of :class:`Rule` in file order."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.suffixes: dict[str, list[Rule]] = {}
        self.prefixes: dict[str, list[Rule]] = {}
        for rule in rules:
            table = self.suffixes if rule.kind == "SFX" else self.prefixes
            table.setdefault(rule.flag, []).append(rule)

    @classmethod
    def read(cls, lines: list[str], encoding: str = "utf-8") -> Affixes:
        """Parse affix-file ``lines`` (comments already removed) with spylls."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "rules.aff"
            path.write_text("\n".join(lines) + "\n", encoding=encoding)
            aff, _ = read_aff(FileReader(str(path), encoding=encoding))
        rules = []
        for kind, table in (("SFX", aff.SFX), ("PFX", aff.PFX)):
            for flag, affixes in table.items():
                for affix in affixes:
                    condition = affix.cond_regexp
                    rules.append(Rule(kind, flag[0], affix.strip, affix.add, condition, affix.crossproduct,
                                      frozenset(f[0] for f in affix.flags)))
        return cls(rules)

    def rules(self) -> list[Rule]:
        """Every rule, suffixes first, in file order within a class."""
        return [r for table in (self.suffixes, self.prefixes) for rules in table.values() for r in rules]

    def without(self, drop: Callable[[Rule], bool]) -> Affixes:
        """A copy without the rules for which ``drop`` is true."""
        return Affixes(r for r in self.rules() if not drop(r))

    def expand(self, entry: Entry, keep: Keep = keep_all) -> set[str]:
        """Every form of ``entry``: the word itself, its suffixed forms (two levels), its
        prefixed forms and the cross-product combinations. ``keep(entry, rule)`` false leaves
        a rule out for this entry."""
        word = entry.word
        forms = {word}
        suffixed: list[tuple[str, bool]] = []
        for flag in entry.flags:
            for rule in self.suffixes.get(flag, ()):
                if not (rule.applies(word) and keep(entry, rule)):
                    continue
                form = rule.apply(word)
                forms.add(form)
                suffixed.append((form, rule.cross))
                for inner in rule.continuation:
                    for second in self.suffixes.get(inner, ()):
                        if second.applies(form) and keep(entry, second):
                            twofold = second.apply(form)
                            forms.add(twofold)
                            suffixed.append((twofold, rule.cross and second.cross))
        for flag in entry.flags:
            for rule in self.prefixes.get(flag, ()):
                if not (rule.applies(word) and keep(entry, rule)):
                    continue
                forms.add(rule.apply(word))
                if rule.cross:
                    forms.update(rule.apply(form) for form, cross in suffixed if cross and form.startswith(rule.strip))
        return forms
