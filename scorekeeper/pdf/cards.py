"""Cards as people read them: real suit symbols, hearts and diamonds in red.

The engine speaks JSON notation (``7C``, ``10H``); people read ``7♣`` and
``10♥``. A hand's melds, layoffs and deadwood are drawn as a :class:`CardLine`,
a line of coloured words set straight on the canvas: no markup is parsed, so a
name inside it is printed as typed, and a sheet full of cards stays fast.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable

from .. import engine
from ..engine.contract import LaidOff, LaidOut
from . import fonts
from .fonts import is_rtl
from .styles import FONT, INK, MUTED, RED, text

T = TypeVar("T")

RED_SUITS = "♥♦♡♢"
_RED_SYMBOL = re.compile(f"([{RED_SUITS}])")

Word = tuple[str, Color]
"""A word of a card line and its colour."""


def card(code: object) -> Word:
    """One card in people's notation, red when it is a heart or a diamond.

    >>> card("7C")[0], card("Th") == ("10♥", RED)
    ('7♣', True)
    """
    word = engine.shown(code)
    return word, RED if word[-1:] in RED_SUITS else INK


def cards(codes: Iterable[object]) -> list[Word]:
    """Cards as they lie on the table, left to right.

    >>> [word for word, _ in cards(["AS", "2S", "3S"])]
    ['A♠', '2♠', '3♠']
    """
    return [card(c) for c in codes]


def melds(groups: Sequence[Sequence[object]]) -> list[Word]:
    """Melds set apart by a grey dot, each read left to right."""
    words: list[Word] = []
    for group in groups:
        if words:
            words.append(("·", MUTED))
        words += cards(group)
    return words


def layoff(item: LaidOff, hands: Mapping[str, LaidOut]) -> list[Word]:
    """A layoff as "4♠ on Bob’s A♠ 2♠ 3♠" (or "on Bob" when the meld is unknown)."""
    onto = item.onto
    words = [card(item.card), ("on", MUTED)]
    meld = item.meld
    groups = hands[onto].melds if onto in hands else ()
    if meld is not None and 0 <= meld < len(groups):
        return words + _name(onto + "’s") + cards(groups[meld])
    return words + _name(onto)


def _name(name: str) -> list[Word]:
    """A name's words, as typed; a right-to-left name is one word, drawn in its own order."""
    if is_rtl(name):
        return [(name, INK)]
    return [(word, INK) for word in name.split()]


def suited(value: object) -> str:
    """Free text (a note) as Paragraph markup: escaped, its suit symbols in colour.

    >>> suited("4♥ & 5♠") == '4<font color="#c8102e">♥</font> &amp; 5♠'
    True
    """
    return _RED_SYMBOL.sub(lambda m: f'<font color="#{RED.hexval()[2:]}">{m.group(1)}</font>', text(value))


def filled(words: Sequence[T], widths: Sequence[float], space: float, width: float) -> list[list[T]]:
    """Words set in lines of ``width`` greedily, as a Paragraph sets them; a word wider
    than the line gets a line of its own.

    >>> filled("abcde", [4, 4, 4, 12, 4], 1, 10)
    [['a', 'b'], ['c'], ['d'], ['e']]
    """
    lines: list[list[T]] = [[]]
    used = 0.0
    for word, wide in zip(words, widths, strict=True):
        if lines[-1] and used + space + wide > width:
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0) + wide
        lines[-1].append(word)
    return lines


class CardLine(Flowable):
    """Coloured words set in lines, wrapped between words, drawn without markup."""

    def __init__(
        self, words: Sequence[Word], *, size: float = 8, leading: float = 9.5, font: str = FONT
    ) -> None:
        super().__init__()
        self.words = list(words) or [("—", MUTED)]
        self.size, self.leading, self.font = size, leading, font
        self.lines: list[list[Word]] = []

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        # A word (a name) wider than the cell is shortened, never run over the next cell.
        words = [(fonts.shortened(word, self.font, self.size, aW), colour) for word, colour in self.words]
        self.lines = filled(
            words,
            [fonts.width(word, self.font, self.size) for word, _ in words],
            pdfmetrics.stringWidth(" ", self.font, self.size),
            aW,
        )
        self.width, self.height = aW, self.leading * len(self.lines)
        return self.width, self.height

    def draw(self) -> None:
        """One text object a line, the colour changing word by word, a name's letters in
        the font that has them and in their own order."""
        y = self.height - self.size
        for line in self.lines:
            line_text = self.canv.beginText(0, y)
            line_text.setFont(self.font, self.size)
            current = self.font
            for n, (word, colour) in enumerate(line):
                line_text.setFillColor(colour)
                for m, (font, piece) in enumerate(fonts.runs(fonts.visual(word), self.font)):
                    if font != current:
                        line_text.setFont(font, self.size)
                        current = font
                    line_text.textOut(" " + piece if n and not m else piece)
            self.canv.drawText(line_text)
            y -= self.leading
