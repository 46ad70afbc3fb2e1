"""A box of counts only as one run-on line: words in two weights, set without markup.

Under ``detail=True`` every box entered as counts only gets one line, its
explanation run on: a 130-box sheet has over a hundred of them. As Paragraphs
they cost about a millisecond each (markup parsed, lines broken fragment by
fragment, twice), which alone put such a sheet over its 300 ms. Here each word
is measured once (:func:`.fonts.width` is cached) and drawn straight on the
canvas, as :class:`.cards.CardLine` draws cards; user text is printed as typed
(never parsed as markup), shaped and in its fallback font like any other name.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import Color
from reportlab.platypus import Flowable

from . import fonts
from .cards import filled
from .styles import FONT, FONT_BOLD, INK, text

Piece = tuple[str, bool]
"""Some words of a line as typed, and whether they print bold."""
Fragment = tuple[str, str]
"""Part of a word in visual order, and the font (of the two weights) it is set in."""


def markup(pieces: Sequence[Piece]) -> str:
    """The same line as Paragraph markup (a box detail's heading), each piece escaped and
    shaped on its own, a run of bold pieces in one ``<b>``.

    >>> markup([("Box 1", True), (" · <Ann> dealt", False), ("Ann", True), (" +5", True)])
    '<b>Box 1</b> · &lt;Ann&gt; dealt<b>Ann +5</b>'
    """
    out, bold = "", False
    for said, heavy in pieces:
        if heavy != bold:
            out += "<b>" if heavy else "</b>"
            bold = heavy
        out += text(said, FONT_BOLD if heavy else FONT)
    return out + ("</b>" if bold else "")


def words_of(pieces: Sequence[Piece]) -> list[list[Fragment]]:
    """The line cut into words at its spaces; a word may change weight inside ("+21:").

    >>> [[part for part, _ in word] for word in words_of([("Box 1", True), (" · Ann", False),
    ...                                                    ("+5:", True), (" ok", False)])]
    [['Box'], ['1'], ['·'], ['Ann', '+5:'], ['ok']]
    """
    words: list[list[Fragment]] = [[]]
    for said, bold in pieces:
        font = FONT_BOLD if bold else FONT
        for n, part in enumerate(fonts.visual(said).split(" ")):
            if n:
                words.append([])
            if part:
                words[-1].append((part, font))
    return [word for word in words if word]


class RunOnLine(Flowable):
    """Words in two weights set in lines, wrapped between words, drawn without markup."""

    def __init__(
        self, pieces: Sequence[Piece], *, size: float = 7.5, leading: float = 9.5, colour: Color = INK
    ) -> None:
        super().__init__()
        self.size, self.leading, self.colour = size, leading, colour
        self.words = [
            (word, sum(fonts.width(part, font, size, shaped=True) for part, font in word))
            for word in words_of(pieces)
        ]
        self.lines: list[list[list[Fragment]]] = []

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        self.lines = filled(
            [word for word, _ in self.words],
            [width for _, width in self.words],
            fonts.width(" ", FONT, self.size),
            aW,
        )
        self.width, self.height = aW, self.leading * len(self.lines)
        return self.width, self.height

    def draw(self) -> None:
        """One text object a line, one string for each run of one font: the font changes
        only where a word's weight or script does (a string a word cost most of a 130-box
        sheet's time)."""
        y = self.height - self.size
        for line in self.lines:
            out = self.canv.beginText(0, y)
            out.setFillColor(self.colour)
            for font, said in set_in_runs(line):
                out.setFont(font, self.size)
                out.textOut(said)
            self.canv.drawText(out)
            y -= self.leading


def set_in_runs(line: Sequence[Sequence[Fragment]]) -> list[tuple[str, str]]:
    """A line's words joined by spaces (in the regular weight) as (font, text) runs, each
    run as long as its font lasts.

    >>> runs = set_in_runs([[("Box", FONT_BOLD)], [("1", FONT_BOLD)], [("Ann", FONT), ("+5", FONT_BOLD)]])
    >>> [said for _, said in runs], [font == FONT_BOLD for font, _ in runs]
    (['Box', ' ', '1', ' Ann', '+5'], [True, False, True, False, True])
    """
    out: list[tuple[str, str]] = []

    def add(font: str, said: str) -> None:
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + said)
        else:
            out.append((font, said))

    for n, word in enumerate(line):
        if n:
            add(FONT, " ")
        for part, weight in word:
            for font, piece in fonts.runs(part, weight):
                add(font, piece)
    return out
