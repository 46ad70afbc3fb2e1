"""A ReportLab Table that sets its plain-text cells in one text object.

ReportLab draws each plain-text cell with a text object of its own (``BT ... ET``,
the font, colour and origin set again, the string measured again): on a 130-box
sheet, with some 2,000 cells of counts and totals, that was a fifth of the time.
:class:`Grid` draws the same strings at the same places and in the same order, one text
object for each run of text cells, setting the font and colour only where they
change. Everything else (cells of
flowables, backgrounds, rules, splitting across pages) is ReportLab's own.
"""

from __future__ import annotations

import functools
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.textobject import PDFTextObject
from reportlab.platypus import Flowable, Table
from reportlab.platypus.tables import CellStyle


class Grid(Table):
    """A Table whose plain-text cells are drawn in one text object, as ReportLab places them.

    ``cells`` (:func:`cell_defaults`) is what every cell starts with, instead of a style
    command over the whole table: ReportLab applies such a command cell by cell, and the
    box table of 130 boxes has some 2,000 cells and had eight of them.
    """

    def __init__(self, data: Any, *args: Any, cells: type[CellStyle] | None = None, **kwargs: Any) -> None:
        if cells is not None:
            kwargs["cellStyles"] = [
                [cells(repr((i, j))) for j in range(len(row))] for i, row in enumerate(data)
            ]
        super().__init__(data, *args, **kwargs)

    _text: PDFTextObject | None = None
    _set: tuple[Any, ...] = ()
    """The text object's font, size and colour so far."""

    def _drawCell(
        self, cellval: Any, cellstyle: Any, pos: tuple[float, float], size: tuple[float, float]
    ) -> None:
        if (
            isinstance(cellval, tuple | list | Flowable)
            or cellstyle.href
            or cellstyle.destination
            or cellstyle.direction
            or cellstyle.shaping
            or cellstyle.alignment not in _ALIGNED
        ):
            # The text so far goes first: the page's text keeps the cells' order.
            self._flush()
            super()._drawCell(cellval, cellstyle, pos, size)  # type: ignore[misc]
            return
        # The next flowable cell sets the canvas's font and colour again, as after a cell
        # ReportLab drew itself.
        self._curcellstyle = None
        lines = str(cellval).split("\n")
        if lines == [""]:
            return
        (colpos, rowpos), (colwidth, rowheight) = pos, size
        font, fontsize, leading = cellstyle.fontname, cellstyle.fontsize, cellstyle.leading
        # The same arithmetic as Table._drawCell's for a text cell.
        if cellstyle.valign == "BOTTOM":
            y = rowpos + cellstyle.bottomPadding + len(lines) * leading - fontsize
        elif cellstyle.valign == "TOP":
            y = rowpos + rowheight - cellstyle.topPadding - fontsize
        else:
            y = (
                rowpos
                + (cellstyle.bottomPadding + rowheight - cellstyle.topPadding + len(lines) * leading) / 2.0
                - fontsize
            )
        text = self._text
        if text is None:
            text = self._text = self.canv.beginText()
            self._set = ()
        else:
            # Each string its own text block, as ReportLab draws them: what reads the text
            # layer back (a viewer's copy, pypdf) takes each cell as a line of its own. The
            # font and colour carry over, as the PDF's text state does.
            _new_block(text)
        if self._set[:2] != (font, fontsize):
            text.setFont(font, fontsize, leading)
        if self._set[2:] != (cellstyle.color,):
            text.setFillColor(cellstyle.color)
        self._set = (font, fontsize, cellstyle.color)
        share = _ALIGNED[cellstyle.alignment]
        if share == 0:
            x = colpos + cellstyle.leftPadding
        elif share == 1:
            x = colpos + colwidth - cellstyle.rightPadding
        else:
            x = colpos + (colwidth + cellstyle.leftPadding - cellstyle.rightPadding) * 0.5
        for n, line in enumerate(lines):
            if n:
                _new_block(text)
            text.setTextOrigin(x - share * stringWidth(line, font, fontsize) if share else x, y)
            text.textLine(line)
            y -= leading

    def _flush(self) -> None:
        """Put the text object's strings on the page; the next string starts another."""
        if self._text is not None:
            self.canv.drawText(self._text)
            self._text = None

    def _drawLines(self) -> None:
        """The cells' text first (still inside the table's saved state), then the rules."""
        self._flush()
        super()._drawLines()  # type: ignore[misc]


@functools.cache
def cell_defaults(**defaults: Any) -> type[CellStyle]:
    """A kind of table cell that starts with ``defaults`` (CellStyle's attributes: fontname,
    fontsize, leading, the four paddings, valign, ...) instead of ReportLab's.

    >>> cell_defaults(fontsize=8, valign="MIDDLE")("c").fontsize
    8
    """
    return type("Cell", (CellStyle,), defaults)


def _new_block(text: PDFTextObject) -> None:
    """End the text object's block and begin another (``ET BT``): the font, its size and
    the colour set in it stay, as the PDF's text state does outside a block."""
    text._code.append("ET BT")  # type: ignore[attr-defined]


_ALIGNED = {"LEFT": 0, "RIGHT": 1, "CENTRE": 0.5, "CENTER": 0.5}
"""Which share of a string's width goes left of the cell's anchor, by alignment."""
