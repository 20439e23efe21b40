"""Letters five lines tall for the projection screen (readable across a room), and the
``BigText`` widget that shows a row of them.

The glyphs are data: five strings per character, ``#`` a full block, ``.`` a space,
any other character drawn as is (the tilde of Ñ uses half blocks). Characters: A–Z, Ñ,
0–9, ``-``, ``?`` and space; anything else is drawn with ``?``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

HEIGHT = 5

_GLYPHS = """
A .##. #..# #### #..# #..#
B ###. #..# ###. #..# ###.
C .### #... #... #... .###
D ###. #..# #..# #..# ###.
E #### #... ###. #... ####
F #### #... ###. #... #...
G .### #... #.## #..# .###
H #..# #..# #### #..# #..#
I ### .#. .#. .#. ###
J ..## ...# ...# #..# .##.
K #..# #.#. ##.. #.#. #..#
L #... #... #... #... ####
M #...# ##.## #.#.# #...# #...#
N #...# ##..# #.#.# #..## #...#
Ñ .▀▀▀. ##..# #.#.# #..## #...#
O .##. #..# #..# #..# .##.
P ###. #..# ###. #... #...
Q .##. #..# #..# #.## .###
R ###. #..# ###. #.#. #..#
S .### #... .##. ...# ###.
T ##### ..#.. ..#.. ..#.. ..#..
U #..# #..# #..# #..# .##.
V #...# #...# .#.#. .#.#. ..#..
W #...# #...# #.#.# ##.## #...#
X #..# #..# .##. #..# #..#
Y #...# .#.#. ..#.. ..#.. ..#..
Z #### ...# .##. #... ####
0 .##. #.## #..# ##.# .##.
1 .#. ##. .#. .#. ###
2 ###. ...# .##. #... ####
3 ###. ...# .##. ...# ###.
4 #..# #..# #### ...# ...#
5 #### #... ###. ...# ###.
6 .##. #... ###. #..# .##.
7 #### ...# ..#. .#.. .#..
8 .##. #..# .##. #..# .##.
9 .##. #..# .### ...# .##.
- ... ... ### ... ...
? ###. ...# .##. .... .#..
"""

FONT: dict[str, tuple[str, ...]] = {
    line[0]: tuple(row.replace("#", "█").replace(".", " ") for row in line[2:].split())
    for line in _GLYPHS.strip().splitlines()
}
"""Character → its ``HEIGHT`` rows (all of the same width)."""
FONT[" "] = ("  ",) * HEIGHT

Token = tuple[str, str]
"""``(characters, style)``: one tile (``CH`` is one token of two characters) or word."""


def glyph(char: str) -> tuple[str, ...]:
    """The rows of ``char`` (upper-cased; unknown characters as ``?``)."""
    return FONT.get(char.upper(), FONT["?"])


def block_width(tokens: Sequence[Token], gap: int = 2) -> int:
    """Columns ``block_text`` needs: one column between the characters of a token,
    ``gap`` between tokens."""
    widths = [sum(len(glyph(char)[0]) for char in chars) + len(chars) - 1 for chars, _ in tokens if chars]
    return sum(widths) + gap * max(0, len(widths) - 1)


def block_text(tokens: Sequence[Token], gap: int = 2) -> Text:
    """``HEIGHT`` lines of block letters, each token in its style."""
    text = Text()
    tokens = [token for token in tokens if token[0]]
    for row in range(HEIGHT):
        for index, (chars, style) in enumerate(tokens):
            if index:
                text.append(" " * gap)
            text.append(" ".join(glyph(char)[row] for char in chars), style=style)
        if row < HEIGHT - 1:
            text.append("\n")
    return text


def plain_text(tokens: Sequence[Token], gap: int = 2) -> Text:
    """The same tokens on one line, bold, spaced (when block letters do not fit)."""
    text = Text()
    for index, (chars, style) in enumerate(token for token in tokens if token[0]):
        if index:
            text.append(" " * gap)
        text.append(chars, style=f"bold {style}")
    return text


class BigText(Widget):
    """A row of ``tokens`` in block letters, or on one spaced line when the widget is
    too narrow for them. ``placeholder`` is shown (dim) when there are no tokens."""

    DEFAULT_CSS = """
    BigText { height: auto; width: 1fr; }
    """

    tokens: reactive[tuple[Token, ...]] = reactive((), layout=True)
    placeholder: reactive[str] = reactive("")

    def __init__(self, *, gap: int = 2, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.gap = gap

    def block_gap(self, width: int) -> int | None:
        """The gap between tokens with which the block letters fit ``width``: ``gap``,
        else 1 when no token has two characters (so CH stays apart from C H); None
        when they do not fit."""
        if not self.tokens:
            return None
        if block_width(self.tokens, self.gap) <= width:
            return self.gap
        if all(len(chars) == 1 for chars, _ in self.tokens) and block_width(self.tokens, 1) <= width:
            return 1
        return None

    def fits(self, width: int) -> bool:
        return self.block_gap(width) is not None

    def render(self) -> Text:
        if not self.tokens:
            return Text(self.placeholder, style="dim")
        gap = self.block_gap(self.content_region.width)
        if gap is not None:
            return block_text(self.tokens, gap)
        return plain_text(self.tokens, self.gap)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return HEIGHT if self.fits(width) else 1

    @property
    def text(self) -> str:
        """The characters shown, tokens separated by a space (for tests and logs)."""
        return " ".join(chars for chars, _ in self.tokens) if self.tokens else self.placeholder
