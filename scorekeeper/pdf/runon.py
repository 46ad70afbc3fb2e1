"""A box of counts only as one run-on line: words in two weights, set without markup.

Under ``detail=True`` every box entered as counts only gets one line, its
explanation run on: a 130-box sheet has over a hundred of them. As Paragraphs
they cost about a millisecond each (markup parsed, lines broken fragment by
fragment, twice), which alone put such a sheet over its 300 ms. Here each word
is measured once (:func:`.fonts.width` is cached) and drawn straight on the
canvas, as :class:`.cards.CardLine` draws cards; user text is printed as typed
(never parsed as markup), shaped and in its fallback font like any other name.
A box detail's heading line is drawn the same way (issue 35: its Paragraphs took a
tenth of a 130-box sheet's time).
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab import rl_config
from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from . import fonts
from .cards import filled
from .styles import FONT, FONT_BOLD, INK

Piece = tuple[str, bool]
"""Some words of a line as typed, and whether they print bold."""
Fragment = tuple[str, str]
"""Part of a word in visual order, and the font (of the two weights) it is set in."""
Word = tuple[str, list[Fragment]]
"""The font of the space before a word, and the word's parts."""


def words_of(pieces: Sequence[Piece]) -> list[list[Fragment]]:
    """The line cut into words at its spaces; a word may change weight inside ("+21:").

    >>> [[part for part, _ in word] for word in words_of([("Box 1", True), (" · Ann", False),
    ...                                                    ("+5:", True), (" ok", False)])]
    [['Box'], ['1'], ['·'], ['Ann', '+5:'], ['ok']]
    """
    return [word for _, word in spaced_words(pieces)]


def spaced_words(pieces: Sequence[Piece]) -> list[Word]:
    """The words of :func:`words_of`, each with the weight of the space before it: the
    weight of the piece the space was typed in, as a Paragraph sets it ("Box 1" bold).

    >>> [gap == FONT_BOLD for gap, _ in spaced_words([("Box 1", True), (" · Ann", False)])]
    [False, True, False, False]
    """
    words: list[Word] = [(FONT, [])]
    for said, bold in pieces:
        font = FONT_BOLD if bold else FONT
        for n, part in enumerate(fonts.visual(said).split(" ")):
            if n:
                if words[-1][1]:
                    words.append((font, []))
                else:
                    # Spaces in a row make one gap, in the weight of its last space.
                    words[-1] = (font, words[-1][1])
            if part:
                words[-1][1].append((part, font))
    return [word for word in words if word[1]]


class RunOnLine(Flowable):
    """Words in two weights set in lines, wrapped between words, drawn without markup.

    The space between two words is set in the regular weight, as the run-on lines of a
    box of counts always were; ``typed_spaces`` sets each space in the weight of the
    piece it was typed in, as a Paragraph of the same pieces would (a box detail's
    heading: "Box 7" bold, its space too). Lines are filled by the regular space's width.
    """

    def __init__(
        self,
        pieces: Sequence[Piece],
        *,
        size: float = 7.5,
        leading: float = 9.5,
        colour: Color = INK,
        typed_spaces: bool = False,
    ) -> None:
        super().__init__()
        self.size, self.leading, self.colour = size, leading, colour
        self.words = [
            (
                (gap if typed_spaces else FONT, word),
                sum(fonts.width(part, font, size, shaped=True) for part, font in word),
            )
            for gap, word in spaced_words(pieces)
        ]
        self.lines: list[list[Word]] = []

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
        self.draw_at(self.canv, self.height)

    def draw_at(self, canvas: Canvas, top: float) -> None:
        """The lines from ``top`` down: one text object a line, one string for each run of
        one font, the font changed only where a word's weight or script does (a string a
        word cost most of a 130-box sheet's time)."""
        y = top - self.size
        for line in self.lines:
            out = canvas.beginText(0, y)
            out.setFillColor(self.colour)
            for font, said in set_in_runs(line):
                out.setFont(font, self.size)
                out.textOut(said)
            canvas.drawText(out)
            y -= self.leading


class RunOnLines(Flowable):
    """Run-on lines one under another as one flowable, split between them and never inside
    one: the page breaks where it did when each was a flowable of its own, without a
    frame's work (a wrap, a saved and restored state) for each of a sheet's hundred."""

    def __init__(self, items: Sequence[RunOnLine]) -> None:
        super().__init__()
        self.items = list(items)
        self.heights: list[float] = []

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        self.heights = [item.wrap(aW, aH)[1] for item in self.items]
        self.width, self.height = aW, sum(self.heights)
        return self.width, self.height

    def split(self, aW: float, aH: float) -> list[Flowable]:
        """The lines that fit ``aH`` (as a frame fits them, within its fuzz), then the rest."""
        used, fit = 0.0, 0
        for item in self.items:
            used += item.wrap(aW, aH)[1]
            if used > aH + rl_config._FUZZ:
                break
            fit += 1
        if fit == 0:
            return []
        return [RunOnLines(self.items[:fit]), RunOnLines(self.items[fit:])]

    def draw(self) -> None:
        top = self.height
        for item, height in zip(self.items, self.heights, strict=True):
            item.draw_at(self.canv, top)
            top -= height


def set_in_runs(line: Sequence[Word]) -> list[tuple[str, str]]:
    """A line's words joined by their spaces as (font, text) runs, each run as long as its
    font lasts.

    >>> runs = set_in_runs([(FONT, [("Box", FONT_BOLD)]), (FONT, [("1", FONT_BOLD)]),
    ...                     (FONT, [("Ann", FONT), ("+5", FONT_BOLD)])])
    >>> [said for _, said in runs], [font == FONT_BOLD for font, _ in runs]
    (['Box', ' ', '1', ' Ann', '+5'], [True, False, True, False, True])
    """
    out: list[tuple[str, str]] = []

    def add(font: str, said: str) -> None:
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + said)
        else:
            out.append((font, said))

    for n, (gap, word) in enumerate(line):
        if n:
            add(gap, " ")
        for part, weight in word:
            for font, piece in fonts.runs(part, weight):
                add(font, piece)
    return out


class TextLine(Flowable):
    """One line of user text as a Paragraph of its escaped markup sets it (at its left, or
    centred: ``centre``), drawn run by run without markup: a name in a script of its own
    that fits its cell (a Paragraph of it took a millisecond to lay out, and a sheet
    has hundreds)."""

    def __init__(self, raw: str, style: ParagraphStyle) -> None:
        super().__init__()
        self.runs = fonts.runs(fonts.visual(raw), style.fontName)
        self.size, self.leading, self.colour = style.fontSize, style.leading, style.textColor
        self.centre = style.alignment == TA_CENTER
        self.wide = sum(stringWidth(piece, font, self.size) for font, piece in self.runs)

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        self.width, self.height = aW, self.leading
        return self.width, self.height

    def draw(self) -> None:
        out = self.canv.beginText((self.width - self.wide) / 2 if self.centre else 0, self.height - self.size)
        out.setFillColor(self.colour)
        for n, (font, piece) in enumerate(self.runs, start=1):
            out.setFont(font, self.size)
            # The line ends as a Paragraph's does (T*): what reads the text back (pypdf)
            # takes the cell as a line of its own.
            if n == len(self.runs):
                out.textLine(piece)
            else:
                out.textOut(piece)
        self.canv.drawText(out)
