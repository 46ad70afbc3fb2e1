"""The page frame every PDF shares: margins, running header, "page N of M".

A story (a list of flowables) goes in, the PDF's bytes come out, built in
memory in ReportLab's invariant mode so the same story gives the same bytes.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from .styles import FONT, FONT_BOLD, INK, MARGIN, MUTED, RULE, register_fonts


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

    @property
    def left_margin(self) -> float:
        return MARGIN + (9 * mm if self.margin_note else 0)


class NumberedCanvas(Canvas):
    """A canvas that holds its pages until the end, to print "page N of M" on each.

    The same trick as pretix's invoices: ``showPage`` only remembers the page
    state, ``save`` replays every page with the total known.
    """

    def __init__(self, *args: Any, layout: Layout, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._layout = layout
        self._pages: list[dict[str, Any]] = []

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


def draw_footer(canvas: Canvas, layout: Layout, pages: int) -> None:
    """The footer: where the sheet came from on the left, "page N of M" on the right."""
    width, _ = layout.page_size
    y = MARGIN - 6 * mm
    canvas.saveState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    canvas.line(layout.left_margin, y + 3.6 * mm, width - MARGIN, y + 3.6 * mm)
    canvas.setFillColor(MUTED)
    canvas.setFont(FONT, 7)
    canvas.drawString(layout.left_margin, y, layout.footer)
    canvas.drawRightString(width - MARGIN, y, f"page {canvas.getPageNumber()} of {pages}")
    canvas.restoreState()


def draw_header(canvas: Canvas, doc: BaseDocTemplate, *, layout: Layout) -> None:
    """The running header from page 2 on (page 1 has the title block), and the margin note."""
    width, height = layout.page_size
    canvas.saveState()
    if doc.page > 1:
        y = height - MARGIN + 1 * mm
        canvas.setFillColor(INK)
        canvas.setFont(FONT_BOLD, 8)
        canvas.drawString(layout.left_margin, y, layout.title)
        canvas.setFont(FONT, 8)
        canvas.drawRightString(width - MARGIN, y, layout.header)
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
    canvas.setFont(FONT, 7.5)
    canvas.drawString(0, 0, layout.margin_note)
    canvas.restoreState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    x = MARGIN + 4.5 * mm
    canvas.line(x, MARGIN, x, height - MARGIN)


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
        bottomMargin=MARGIN,
        title=layout.title,
        subject=subject,
        author="scorekeeper",
        creator="scorekeeper",
        invariant=1,
    )
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    template = PageTemplate(id="page", frames=[frame], pagesize=layout.page_size,
                            onPage=functools.partial(draw_header, layout=layout))
    doc.addPageTemplates([template])
    doc.build(list(story), canvasmaker=functools.partial(NumberedCanvas, layout=layout))
    return buffer.getvalue()
