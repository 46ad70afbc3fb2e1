"""The page frame every PDF shares: margins, running header, legend, traceable footer.

A story (a list of flowables) goes in, the PDF's bytes come out, built in
memory in ReportLab's invariant mode so the same story and :class:`SheetMeta`
give the same bytes; the metadata dates are the game's, never the clock's.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFInfo, PDFName, PDFString
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from . import fonts
from .meta import SheetMeta, pdf_date
from .qr import qr_code
from .styles import FONT, FONT_BOLD, INK, MARGIN, MUTED, RULE, register_fonts

EDGE = 10 * mm
"""The footer's lowest ink stays this far from the paper's edge (inkjet margins)."""
QR_SIZE = 15 * mm
"""A phone's camera reads a code this size from a sheet on the table (11 mm did not)."""
LEGEND_LEADING = 3.4 * mm


@dataclass(frozen=True)
class Layout:
    """What the page furniture says, and how big the page is."""

    page_size: tuple[float, float]
    title: str
    """The document title (PDF metadata) and the left part of the running header."""
    header: str = ""
    """The right part of the running header (players, date)."""
    footer: str = "scorekeeper"
    margin_note: str = ""
    """Printed up the left margin of every page (a blank pad's key numbers)."""
    legend: str = ""
    """The key to the table's letters and marks, printed above the footer of every page."""
    meta: SheetMeta | None = None
    """Where a score sheet came from (a blank pad has none)."""

    @property
    def left_margin(self) -> float:
        return MARGIN + (9 * mm if self.margin_note else 0)

    @property
    def footer_right(self) -> float:
        """Where the footer's text ends: the right margin (the QR code to the game's page
        stands in the title block, :class:`QRCode`, so the footer stays one line)."""
        return self.page_size[0] - MARGIN

    @functools.cached_property
    def legend_lines(self) -> tuple[str, ...]:
        """The legend cut at its " · " into lines that fit the footer's width, last key
        first filled: never cut short ("5 v2 box 5…")."""
        if not self.legend:
            return ()
        room = self.footer_right - self.left_margin
        lines: list[str] = []
        for key in self.legend.split(" · "):
            joined = f"{lines[-1]} · {key}" if lines else key
            if lines and fonts.width(joined, FONT, 7) <= room:
                lines[-1] = joined
            else:
                lines.append(key)
        return tuple(lines)

    @property
    def bottom_margin(self) -> float:
        """Room for the footer: its lines, and a line more for each line the legend needs
        past its first."""
        extra = max(0, len(self.legend_lines) - 1) * LEGEND_LEADING
        return EDGE + 11 * mm + extra


class GameInfo(PDFInfo):
    """The PDF's information dictionary with the game's dates instead of the clock's.

    ReportLab's invariant mode writes 2000-01-01 for both dates; a sheet says
    when its game was played (CreationDate) and when it was printed (ModDate).
    """

    def __init__(self, meta: SheetMeta) -> None:
        super().__init__()
        self.meta = meta

    def format(self, document: Any) -> bytes:
        created = self.meta.played or self.meta.printed
        printed = self.meta.printed or created
        entries: dict[str, Any] = {
            "Title": PDFString(self.title),
            "Author": PDFString(self.author),
            "Producer": PDFString(self.producer),
            "Creator": PDFString(self.creator),
            "Subject": PDFString(self.subject),
            "Keywords": PDFString(self.keywords),
            "Trapped": PDFName(self.trapped),
        }
        if created is not None and printed is not None:
            entries["CreationDate"] = PDFString(pdf_date(created))
            entries["ModDate"] = PDFString(pdf_date(printed))
        return bytes(PDFDictionary(entries).format(document))


class NumberedCanvas(Canvas):
    """A canvas that holds its pages until the end, to print "page N of M" on each.

    The same trick as pretix's invoices: ``showPage`` only remembers the page
    state, ``save`` replays every page with the total known.
    """

    def __init__(self, *args: Any, layout: Layout, **kwargs: Any) -> None:
        # Start in the embedded body font, so no unembedded Helvetica is ever referenced.
        kwargs.update(initialFontName=FONT, initialFontSize=8)
        super().__init__(*args, **kwargs)
        self._layout = layout
        self._pages: list[dict[str, Any]] = []
        if layout.meta is not None:
            self._doc.info = GameInfo(layout.meta)  # type: ignore[attr-defined]

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:
        """A text object that sets each string of a font once per document (:class:`SetOnce`)."""
        return SetOnce(self, x, y, direction=direction)

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()  # type: ignore[attr-defined]

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            draw_footer(self, self._layout, total)
            super().showPage()
        super().save()


class SetOnce(PDFTextObject):
    """A text object that turns a string into PDF operators once per document and font.

    ReportLab maps each string to the subset codes of its embedded font character by
    character, every time it is drawn; a 130-box sheet draws the same few hundred
    strings (counts, totals, names, rule ids) thousands of times. The operators depend
    only on the font, its size and leading, the subset last set and the string, and a
    character keeps its code for the rest of the document once it has one: so the
    canvas (one per document) keeps them (``_set_once``) by those.
    """

    # ReportLab's text object keeps its state in attributes its type stubs do not declare.
    _fontname: str
    _fontsize: float
    _leading: float
    _curSubset: int
    _canvas: Canvas

    def _formatText(self, text: str) -> str:
        base: Any = super()
        font: Any = getFont(self._fontname)
        if type(text) is not str or not font._dynamicFont:
            return str(base._formatText(text))
        cache: dict[tuple[Any, ...], tuple[str, int]] = self._canvas.__dict__.setdefault("_set_once", {})
        key = (self._fontname, self._fontsize, self._leading, self._curSubset, text)
        found = cache.get(key)
        if found is None:
            found = cache[key] = (str(base._formatText(text)), self._curSubset)
        else:
            self._curSubset = found[1]
        return found[0]


def draw_footer(canvas: Canvas, layout: Layout, pages: int) -> None:
    """The footer: the legend, then where the sheet came from and "page N of M"."""
    canvas.saveState()
    right = layout.footer_right
    y = EDGE + 0.5 * mm
    top = layout.bottom_margin - 2 * mm
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    canvas.line(layout.left_margin, top, right, top)
    canvas.setFillColor(MUTED)
    trace = layout.meta.footer() if layout.meta else layout.footer
    canvas.setFont(FONT, 7)
    page = f"page {canvas.getPageNumber()} of {pages}"
    canvas.drawRightString(right, y, page)
    # The trace may hold a name (a season's player) in any script: drawn in the fonts that
    # have its letters, in its own order, and shortened before it meets the page number.
    room = right - layout.left_margin - fonts.width(page, FONT, 7) - 4 * mm
    fonts.draw(canvas, layout.left_margin, y, trace, FONT, 7, room=room)
    canvas.setFillColor(INK)
    for n, line in enumerate(reversed(layout.legend_lines), start=1):
        fonts.draw(
            canvas, layout.left_margin, y + n * LEGEND_LEADING, line, FONT, 7, room=right - layout.left_margin
        )
    canvas.restoreState()


def draw_qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """A QR code of ``url`` as filled squares (vector, so it prints sharp at any size)."""
    code = qr_code(url)
    rows = list(code.matrix)
    module = size / (len(rows) + 2)
    canvas.setFillColor(INK)
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            if dark:
                canvas.rect(
                    x + (c + 1) * module, y + size - (r + 2) * module, module, module, stroke=0, fill=1
                )


class QRCode(Flowable):
    """A QR code of ``url``, ``size`` square, as a flowable: a score sheet's title block
    carries the one to its game's read-only page beside the seat list. In the footer it
    took 7 mm off every page's body, and an evening's game on letter paper spilled its
    last money line onto a second sheet (issue 35)."""

    def __init__(self, url: str, size: float = QR_SIZE) -> None:
        super().__init__()
        self.url = url
        self.width = self.height = size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        draw_qr(self.canv, self.url, 0, 0, self.width)


def draw_header(canvas: Canvas, doc: BaseDocTemplate, *, layout: Layout) -> None:
    """The running header from page 2 on (page 1 has the title block), and the margin note."""
    width, height = layout.page_size
    canvas.saveState()
    if doc.page > 1:
        y = height - MARGIN + 1 * mm
        canvas.setFillColor(INK)
        room = (width - MARGIN - layout.left_margin) / 2 - 2 * mm
        fonts.draw(canvas, layout.left_margin, y, layout.title, FONT_BOLD, 8, room=room)
        fonts.draw(canvas, width - MARGIN, y, layout.header, FONT, 8, align="right", room=room)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.6)
        canvas.line(layout.left_margin, y - 1.6 * mm, width - MARGIN, y - 1.6 * mm)
    if layout.margin_note:
        draw_margin_note(canvas, layout)
    canvas.restoreState()


def draw_margin_note(canvas: Canvas, layout: Layout) -> None:
    """The key numbers up the left margin, read with the page turned clockwise."""
    _, height = layout.page_size
    canvas.saveState()
    canvas.translate(MARGIN + 2 * mm, MARGIN)
    canvas.rotate(90)
    canvas.setFillColor(MUTED)
    room = height - 2 * MARGIN
    size = min(7.5, 7.5 * room / fonts.width(layout.margin_note, FONT, 7.5))
    fonts.draw(canvas, 0, 0, layout.margin_note, FONT, size, room=room)
    canvas.restoreState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    x = MARGIN + 4.5 * mm
    canvas.line(x, MARGIN, x, height - MARGIN)


def _frame(doc: BaseDocTemplate, above: float = 0) -> Frame:
    """The body's frame inside the margins, ``above`` taller at its top."""
    return Frame(
        doc.leftMargin,
        doc.bottomMargin,
        doc.width,
        doc.height + above,
        id="body",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )


def build(story: Sequence[Flowable], layout: Layout, *, subject: str) -> bytes:
    """Lay the story out on pages in memory and return the PDF's bytes."""
    register_fonts()
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=layout.page_size,
        leftMargin=layout.left_margin,
        rightMargin=MARGIN,
        topMargin=MARGIN + 5 * mm,
        bottomMargin=layout.bottom_margin,
        title=layout.title,
        subject=subject,
        author="scorekeeper",
        creator="scorekeeper",
        invariant=1,
    )
    # Page 1 has the title block and no running header: its frame starts higher, the
    # room an evening's game needs to stay one sheet of paper.
    first = PageTemplate(
        id="first",
        frames=[_frame(doc, above=5 * mm)],
        pagesize=layout.page_size,
        onPage=functools.partial(draw_header, layout=layout),
        autoNextPageTemplate="later",
    )
    later = PageTemplate(
        id="later",
        frames=[_frame(doc)],
        pagesize=layout.page_size,
        onPage=functools.partial(draw_header, layout=layout),
    )
    doc.addPageTemplates([first, later])
    doc.build(list(story), canvasmaker=functools.partial(NumberedCanvas, layout=layout))
    return buffer.getvalue()
