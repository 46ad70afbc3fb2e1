"""A club's season on paper, fit for the club's wall (issue 36): the ladder (rank,
member, points, evenings, movement), each evening's winner, the top rated, the season's
dates and the time it was printed.

Typed values in (:class:`LadderSheet`), bytes out: no Flask, no database, no clock (the
print time is a value given). The page frame, fonts and styles are the score sheet's.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from . import words
from .blocks import name_cell
from .document import Layout, build
from .styles import FONT, FONT_BOLD, FRAMED_GRID, HEAD, MARGIN, paper_size, ruled, styles, text
from .values import LadderLine, LadderSheet

HEADED = (*FRAMED_GRID, ("BACKGROUND", (0, 0), (-1, 0), HEAD))
SIZE = 9.5
"""The ladder's body size: a name in any script is set at it, as a Latin one is."""


def render_ladder(sheet: LadderSheet, *, size: str = "A4") -> bytes:
    page = paper_size(size)
    width = page[0] - 2 * MARGIN
    look = styles()
    title = f"{sheet.club}: {sheet.season}"
    layout = Layout(page, title=title, header=sheet.period, footer=f"scorekeeper · printed {sheet.printed}")
    story: list[Flowable] = [
        Paragraph(text(title), look.title),
        Paragraph(text(f"{sheet.period} · printed {sheet.printed}"), look.subtitle),
        Spacer(1, 3 * mm),
        Paragraph(text("Ladder"), look.heading),
        Paragraph(text(sheet.counted), look.small),
        Spacer(1, 1.5 * mm),
        _ladder(sheet.lines, width),
    ]
    if sheet.evenings:
        story += [Paragraph(text("The evenings"), look.heading), _evenings(sheet.evenings, width)]
    if sheet.top_rated:
        story.append(Paragraph(text("Top rated"), look.heading))
        story += [
            Paragraph(text(f"{i}. {name} {rating}"), look.body)
            for i, (name, rating) in enumerate(sheet.top_rated, 1)
        ]
    return build(story, layout, subject=f"The ladder of {title}")


def _moved(moved: int) -> str:
    return f"▲{moved}" if moved > 0 else f"▼{-moved}" if moved < 0 else ""


def _ladder(lines: Sequence[LadderLine], width: float) -> Flowable:
    if not lines:
        return Paragraph("No evening has been played yet.", styles().body)
    number_w = 18 * mm
    name_w = max(40 * mm, width - 10 * mm - 3 * number_w - 28 * mm)
    head = styles().head
    rows: list[list[object]] = [
        [Paragraph(h, head) for h in ("#", "Member", "Points", "Evenings", "Moved", "Rating")]
    ]
    for line in lines:
        rows.append(
            [
                "–" if line.rank is None else str(line.rank),
                name_cell(line.name, name_w, size=SIZE),
                words.number(line.points),
                str(line.evenings),
                _moved(line.moved),
                line.rating,
            ]
        )
    table = Table(
        rows, colWidths=[10 * mm, name_w, number_w, number_w, number_w, 28 * mm], repeatRows=1, hAlign="LEFT"
    )
    table.setStyle(
        ruled(
            [
                *HEADED,
                ("ALIGN", (2, 1), (4, -1), "RIGHT"),
                ("FONT", (0, 1), (-1, -1), FONT, SIZE),
                ("FONT", (2, 1), (2, -1), FONT_BOLD, SIZE),
            ]
        )
    )
    return table


def _evenings(evenings: Sequence[tuple[str, str, str]], width: float) -> Flowable:
    head = styles().head
    rows: list[list[object]] = [[Paragraph(h, head) for h in ("Date", "Evening", "Won by")]]
    name_w = (width - 25 * mm) / 2
    rows += [
        [day, name_cell(name, name_w, size=SIZE), name_cell(won, name_w, size=SIZE)]
        for day, name, won in evenings
    ]
    table = Table(rows, colWidths=[25 * mm, name_w, name_w], repeatRows=1, hAlign="LEFT")
    table.setStyle(ruled([*HEADED, ("FONT", (0, 1), (-1, -1), FONT, SIZE)]))
    return table


__all__ = ["render_ladder"]
