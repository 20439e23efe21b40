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
#: ``grade(entry, rule)``: a small integer, 0 for a rule always kept (:meth:`Affixes.expand_graded`).
Grade = Callable[[Entry, Rule], int]


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


def _positions(rule: Rule) -> int:
    """How many characters the condition of ``rule`` looks at (``[^aeo]er`` → 3)."""
    pattern = rule.condition.pattern.removeprefix("^").removesuffix("$")
    return len(re.findall(r"\\.|\[[^\]]*\]|.", pattern))


class Affixes:
    """The affix classes of an affix file, by flag: ``suffixes[flag]`` and ``prefixes[flag]``,
    lists of :class:`Rule` in file order."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.suffixes: dict[str, list[Rule]] = {}
        self.prefixes: dict[str, list[Rule]] = {}
        for rule in rules:
            table = self.suffixes if rule.kind == "SFX" else self.prefixes
            table.setdefault(rule.flag, []).append(rule)
        # How many characters at the stem's end (suffixes) or start (prefixes) decide whether
        # a rule of a class applies: its strip and its condition's positions, plus one so that
        # "something of the stem remains" is decided too.
        self._span = {(kind, flag): 1 + max(max(len(r.strip), _positions(r)) for r in rules)
                      for kind, table in (("SFX", self.suffixes), ("PFX", self.prefixes))
                      for flag, rules in table.items()}
        # The rules of a class grouped by their test (strip and condition), tested once each.
        self._tests: dict[tuple[str, str], list[tuple[Rule, list[Rule]]]] = {}
        for kind, table in (("SFX", self.suffixes), ("PFX", self.prefixes)):
            for flag, rules in table.items():
                groups: dict[tuple[str, str], list[Rule]] = {}
                for rule in rules:
                    groups.setdefault((rule.strip, rule.condition.pattern), []).append(rule)
                self._tests[(kind, flag)] = [(same[0], same) for same in groups.values()]
        self._applicable: dict[tuple[str, str, str], list[Rule]] = {}

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

    def applicable(self, kind: str, flag: str, stem: str) -> list[Rule]:
        """The rules of class ``flag`` (``kind`` ``"SFX"`` or ``"PFX"``) that apply to ``stem``
        (rules with the same strip and condition together, in the order first met). Whether a rule applies depends only on the stem's last (first, for a
        prefix) few characters, so the answer is remembered by those characters: stems with
        the same ending share it (the expansion of 70,000 entries asks about 60 million
        times, for a few thousand different endings)."""
        table = self.suffixes if kind == "SFX" else self.prefixes
        rules = table.get(flag)
        if not rules:
            return []
        span = self._span[(kind, flag)]
        key = (kind, flag, stem[-span:] if kind == "SFX" else stem[:span])
        found = self._applicable.get(key)
        if found is None:
            found = self._applicable[key] = [r for test, same in self._tests[(kind, flag)] if test.applies(stem)
                                             for r in same]
        return found

    def expand(self, entry: Entry, keep: Keep = keep_all) -> set[str]:
        """Every form of ``entry``: the word itself, its suffixed forms (two levels), its
        prefixed forms and the cross-product combinations. ``keep(entry, rule)`` false leaves
        a rule out for this entry."""
        graded = self.expand_graded(entry, lambda e, r: 0 if keep(e, r) else 1)
        return {form for form, grade in graded.items() if grade == 0}

    def expand_graded(self, entry: Entry, grade: Grade) -> dict[str, int]:
        """Every form of ``entry`` (as :meth:`expand` with every rule) with a grade: the least,
        over the ways the form is made, of the highest ``grade(entry, rule)`` of the rules
        used (the word itself has grade 0).

        The forms of grade at most *g* are exactly those :meth:`expand` makes keeping the
        rules of grade at most *g*, so one expansion answers several ``keep`` predicates
        that each keep more rules than the last (the build's steps)."""
        word = entry.word
        forms = {word: 0}

        def add(form: str, level: int) -> None:
            if forms.get(form, level + 1) > level:
                forms[form] = level

        suffixed: list[tuple[str, bool, int]] = []
        for flag in entry.flags:
            for rule in self.applicable("SFX", flag, word):
                level = grade(entry, rule)
                form = rule.apply(word)
                add(form, level)
                suffixed.append((form, rule.cross, level))
                for inner in rule.continuation:
                    for second in self.applicable("SFX", inner, form):
                        twofold_level = max(level, grade(entry, second))
                        twofold = second.apply(form)
                        add(twofold, twofold_level)
                        suffixed.append((twofold, rule.cross and second.cross, twofold_level))
        for flag in entry.flags:
            for rule in self.applicable("PFX", flag, word):
                level = grade(entry, rule)
                add(rule.apply(word), level)
                if rule.cross:
                    for form, cross, suffix_level in suffixed:
                        if cross and form.startswith(rule.strip):
                            add(rule.apply(form), max(level, suffix_level))
        return forms
