"""The measures every blank pad is ruled in, and the small cells pads share: rows for
handwriting, score cells for three digits, narrow columns for initials (:mod:`.pad`,
:mod:`.hollywood_pad`)."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Paragraph

from .styles import styles, text

ROW = 8 * mm
"""A body row: room for handwriting."""
CELL = 15 * mm
"""The narrowest score cell: three handwritten digits."""
FEWEST_ROWS = 15
"""Hand rows a sheet holds at least (a long game's evening needs pages of them)."""
HOLLYWOOD_BAND = 4
"""Hollywood games a band (a page) holds at most: a portrait page's width in 15 mm cells."""
COUNT_CELL = 11 * mm
"""The narrowest count cell, where the score cells need all the room: two digits."""
NARROW = 7 * mm
"""A column for initials or a letter."""
NAME_ROW = 10 * mm
"""The box a player's name is written in."""
HEAD_ROW = 5 * mm
FOOT_ROW = 8 * mm


def seat_letter(seat: int) -> str:
    """A seat's letter on a pad: seat 1 is A.

    >>> seat_letter(1), seat_letter(3)
    ('A', 'C')
    """
    return chr(ord("A") + seat - 1)


def body_rows(room: float, fixed: list[float]) -> int:
    """How many handwriting rows fit the page beside the headings and the foot (the
    caller moves the foot to a sheet of its own when these are fewer than 15)."""
    return max(1, int((room - sum(fixed)) // ROW))


def narrow_heads(labels: list[str]) -> list[Paragraph]:
    """Headings of the narrow columns, small enough to stay on one line."""
    small = styles().head.clone("narrow", fontSize=6, leading=7)
    return [Paragraph(label, small) for label in labels]


def foot_cells(labels: list[str]) -> list[Paragraph]:
    """The foot's labels, wrapped in the narrow columns they span."""
    small = styles().head.clone("foot", fontSize=6.5, leading=7.5, alignment=0)
    return [Paragraph(text(label), small) for label in labels]
