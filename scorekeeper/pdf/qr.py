"""The QR codes we draw, on pages and on paper alike (segno, no ReportLab: the pages
draw theirs as SVG without loading the PDF's libraries)."""

from __future__ import annotations

import segno

QR_MASK = 4
"""The mask of every QR code we draw (pages, cards, sheets). segno otherwise draws the
code with each of the eight masks and keeps the one its penalty rules score best: 7 of
the 9 ms a code took, the most of a scorer's first sheet and of a 300-table evening's
table cards (issue 34). Any mask makes a valid code every reader decodes; 4 is the
one the search chose most often for our join links (34 of 100)."""


def qr_code(text: str) -> segno.QRCode:
    """The QR code of ``text`` as we draw it everywhere: error correction M (survives a
    glare on a screen, a crease on paper), never a Micro QR, the mask fixed."""
    return segno.make(text, error="m", micro=False, mask=QR_MASK)
