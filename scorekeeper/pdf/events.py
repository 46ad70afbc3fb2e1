"""A club night on paper: the table cards of a round and the evening's results.

:func:`render_table_cards` prints one card per table (four to an A4 or Letter page,
with cut marks): the table's number, the round, the seats, and a QR code that opens
the table's game to score it. :func:`render_results` prints the final standings, every
round's tables with their final totals, and the evening's highest box and most gins.

Typed values in (:class:`TableCard`, :class:`Results`), bytes out: no Flask, no
database, no clock. The page frame, fonts and styles are the score sheet's.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from ..engine.vocabulary import TableStatus
from . import fonts, words
from .blocks import name_cell
from .document import Layout, build, draw_qr
from .styles import (
    FONT,
    FONT_BOLD,
    FRAMED_GRID,
    HEAD,
    INK,
    MARGIN,
    MUTED,
    PAD,
    RULE,
    WON,
    fits,
    fitted,
    paper_size,
    register_fonts,
    ruled,
    styles,
    text,
)
from .values import Results, TableCard, TableResult

CARD_COLUMNS, CARD_ROWS = 2, 2
"""Four cards a page: A6 on A4, about 4 x 5.5 inches on Letter."""
CARD_QR = 46 * mm


def render_table_cards(cards: Sequence[TableCard], *, size: str = "A4") -> bytes:
    """One card per table, four to a page with cut marks between them, as PDF bytes."""
    register_fonts()
    page = paper_size(size)
    buffer = io.BytesIO()
    # Start in the embedded body font, so no unembedded Helvetica is ever referenced.
    options: dict[str, Any] = {"initialFontName": FONT, "initialFontSize": 8}
    canvas = Canvas(buffer, pagesize=page, invariant=1, **options)
    first = cards[0] if cards else None
    title = f"{first.event}: table cards, round {first.round}" if first else "Table cards"
    canvas.setTitle(title)
    canvas.setAuthor("scorekeeper")
    canvas.setCreator("scorekeeper")
    canvas.setSubject(title)
    width, height = page
    cell_w, cell_h = width / CARD_COLUMNS, height / CARD_ROWS
    per_page = CARD_COLUMNS * CARD_ROWS
    for start in range(0, max(len(cards), 1), per_page):
        _cut_marks(canvas, page)
        for place, card in enumerate(cards[start : start + per_page]):
            column, row = place % CARD_COLUMNS, place // CARD_COLUMNS
            _card(canvas, card, column * cell_w, height - (row + 1) * cell_h, cell_w, cell_h)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _cut_marks(canvas: Canvas, page: tuple[float, float]) -> None:
    """Dashed lines where the page is cut into cards."""
    width, height = page
    canvas.saveState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    canvas.setDash(3, 3)
    for c in range(1, CARD_COLUMNS):
        canvas.line(width * c / CARD_COLUMNS, 0, width * c / CARD_COLUMNS, height)
    for r in range(1, CARD_ROWS):
        canvas.line(0, height * r / CARD_ROWS, width, height * r / CARD_ROWS)
    canvas.restoreState()


def _card(canvas: Canvas, card: TableCard, x: float, y: float, w: float, h: float) -> None:
    """One card in the cell whose lower left corner is (x, y): table number large,
    round and event, the seats (the first dealer marked: the cut chose), the QR code and
    the short code under it."""
    inner = 9 * mm
    left, right, top = x + inner, x + w - inner, y + h - inner
    room = right - left
    canvas.saveState()
    canvas.setFillColor(MUTED)
    fonts.draw(canvas, left, top - 9, card.event, FONT, 9, room=room)
    canvas.setFillColor(INK)
    canvas.setFont(FONT_BOLD, 44)
    canvas.drawString(left, top - 52, f"Table {card.table}")
    canvas.setFont(FONT, 14)
    round_line = f"Round {card.round}"
    if card.round_ends:
        round_line += f" · {card.round_ends}"
    fonts.draw(canvas, left, top - 72, round_line, FONT, 14, room=room)
    seat_y = top - 98
    for number, player in enumerate(card.seats, start=1):
        canvas.setFillColor(MUTED)
        canvas.setFont(FONT, 11)
        canvas.drawString(left, seat_y, f"Seat {number}")
        canvas.setFillColor(INK)
        deals = player == card.dealer
        note = "deals first (the cut)"
        beside = room - 16 * mm - fonts.width(note, FONT, 9) - 2 * mm
        # The first dealer's note beside his name when the name fits there at 11 points or
        # more, else on a line under it: a full name is never cut short for it (it was).
        below = deals and fonts.width(player, FONT_BOLD, 11) > beside
        size = _seat_size(player, beside if deals and not below else room - 16 * mm)
        fonts.draw(canvas, left + 16 * mm, seat_y, player, FONT_BOLD, size, room=room - 16 * mm)
        if deals:
            canvas.setFillColor(MUTED)
            if below:
                seat_y -= 12
                fonts.draw(canvas, left + 16 * mm, seat_y, note, FONT, 9)
            else:
                fonts.draw(canvas, right, seat_y, note, FONT, 9, align="right")
        seat_y -= 20
    if card.rules:
        canvas.setFillColor(MUTED)
        fonts.draw(canvas, left, seat_y - 2, card.rules, FONT, 8.5, room=room)
    if card.url:
        qr_x = x + (w - CARD_QR) / 2
        qr_y = y + inner + 14
        draw_qr(canvas, card.url, qr_x, qr_y, CARD_QR)
        canvas.setFillColor(INK)
        said = "Scan to score this table"
        if card.code:
            said += f" · or type the code {card.code[:3]} {card.code[3:]}"
        fonts.draw(canvas, x + w / 2, y + inner + 2, said, FONT, 8.5, align="centre", room=room)
    canvas.restoreState()


def _seat_size(player: str, room: float) -> float:
    """The size a card sets a seat's name in: 14 points, shrunk (to 10) to fit ``room``."""
    size = 14.0
    while size > 10 and fonts.width(player, FONT_BOLD, size) > room:
        size -= 0.5
    return size


HEADED = (*FRAMED_GRID, ("BACKGROUND", (0, 0), (-1, 0), HEAD))
"""A table whose first row is its heading."""


def render_results(results: Results, *, size: str = "A4") -> bytes:
    """The evening's results as PDF bytes: standings, the tables round by round, the
    highest box and the most gins."""
    page = paper_size(size)
    width = page[0] - 2 * MARGIN
    sheet = styles()
    subtitle = " · ".join(part for part in (results.date, results.place, results.rules) if part)
    layout = Layout(
        page,
        title=f"{results.name}: results",
        header=subtitle,
        footer=results.footer or f"scorekeeper · results of {results.name}",
    )
    story: list[Flowable] = [Paragraph(text(f"{results.name}: results"), sheet.title)]
    if subtitle:
        story.append(Paragraph(text(subtitle), sheet.subtitle))
    if results.printed:
        story.append(Paragraph(text(f"Printed {results.printed}"), sheet.small))
    story.append(Spacer(1, 3 * mm))
    counted = (
        "the sum of each player’s settlements"
        if results.count == "net"
        else "points by place at the table, ties shared"
    )
    story += [
        _heading(results.standing_title),
        Paragraph(text(f"Score: {counted}."), sheet.small),
        *[Paragraph(text(line), sheet.small) for line in results.legend],
        Spacer(1, 1.5 * mm),
        _standings(results, width),
    ]
    story += _highlights(results)
    story += _score_lines(results)
    rounds = sorted({t.round for t in results.tables})
    for number in rounds:
        tables = [t for t in results.tables if t.round == number]
        story.append(KeepTogether([_heading(f"Round {number}"), _round(tables, width)]))
    return build(story, layout, subject=f"Results of {results.name}")


def _score_lines(results: Results) -> list[Flowable]:
    """Each player's score from the boxes: every table's points, byes, penalties with
    their notes (a withdrawn one struck out), and the sum, the standing's score."""
    if not results.lines:
        return []
    story: list[Flowable] = [_heading("How each score is made")]
    for each in results.lines:
        parts = [f"<strike>{text(said)}</strike>" if struck else text(said) for said, struck in each.lines]
        gone = " (withdrawn)" if each.withdrawn else ""
        body = "; ".join(parts) if parts else "nothing yet"
        # The name bold in its own script's bold face (Arabic printed regular beside bold).
        line = f"<b>{text(each.player, FONT_BOLD)}</b>{gone}: {body} = <b>{text(each.score, FONT_BOLD)}</b>"
        story.append(Paragraph(line, styles().body))
    if results.stake:
        story.append(_heading(f"Who pays whom (stake {results.stake})"))
        said = results.payments or ("Nobody owes anybody.",)
        story += [Paragraph(text(line), styles().body) for line in said]
    if results.replacements:
        story.append(_heading("Replacements"))
        story += [Paragraph(text(said), styles().body) for said in results.replacements]
    return story


def _heading(said: str) -> Paragraph:
    return Paragraph(text(said), styles().heading)


def _standings(results: Results, width: float) -> Flowable:
    """Rank, player, score, games, games won, boxes won, then the tie-breaks."""
    if not results.standings:
        return Paragraph("No game has been scored yet.", styles().body)
    fixed = ["#", "Score", "Games", "Won", "Boxes", *results.tie_breaks]
    number_w = 15 * mm
    name_w = max(35 * mm, width - number_w * (len(fixed) - 1) - 10 * mm)
    widths = [10 * mm, name_w] + [number_w] * (len(fixed) - 1)
    head = styles().head
    rows: list[list[object]] = [[Paragraph(h, head) for h in ["#", "Player", *fixed[1:]]]]
    for line in results.standings:
        rows.append(
            [
                str(line.rank),
                _standing_name(line.player, name_w),
                words.number(line.score),
                str(line.games),
                words.number(line.won),
                str(line.boxes),
                *line.tie_breaks,
            ]
        )
    table = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        ruled(
            [
                *HEADED,
                ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
                ("FONT", (0, 1), (-1, -1), FONT, 9.5),
                ("FONT", (2, 1), (2, -1), FONT_BOLD, 9.5),
            ]
        )
    )
    return table


STANDING_SIZE = 9.5
"""The standings' body size: a name in any script is set at it, as a Latin one is."""


@functools.cache
def _standing_style() -> ParagraphStyle:
    cell = styles().cell
    return ParagraphStyle("standing-name", parent=cell, fontSize=STANDING_SIZE, leading=STANDING_SIZE * 1.18)


def _standing_name(player: str, column: float) -> Paragraph | str:
    """A player's name in the standings at the size of the other cells (a name that
    needs another script's font or shaping was set at the small cell size)."""
    style, room = _standing_style(), column - 2 * PAD - 0.5
    if fits(player, style, room):
        return player
    markup, fit = fitted(player, style, room)
    return Paragraph(markup, fit)


def _highlights(results: Results) -> list[Flowable]:
    """The evening's highest box and most gins, when any box was scored."""
    said: list[str] = []
    highest = results.highest_boxes or ((results.highest_box,) if results.highest_box else ())
    if highest:
        boxes = "; ".join(f"{text(p)}, {n} points (round {r}, table {t})" for p, n, r, t in highest)
        said.append(f"<b>Highest box:</b> {boxes}")
    if results.most_gins:
        count = results.most_gins[0][1]
        names = ", ".join(text(p) for p, _ in results.most_gins)
        said.append(f"<b>Most gins:</b> {names}, {count} gin{'' if count == 1 else 's'}")
    if not said:
        return []
    story: list[Flowable] = [_heading("The evening’s best")]
    return story + [Paragraph(s, styles().body) for s in said]


STATUS_WORDS = {**{status.value: status.words for status in TableStatus}, "bye": "bye"}
"""A table's status in the engine's words (the pages say the same), and a bye."""


def _round(tables: Sequence[TableResult], width: float) -> Flowable:
    """One line per table: its number, each seat's player and final total, status."""
    seats = max((len(t.totals) for t in tables), default=1)
    seat_w = (width - 14 * mm - 30 * mm) / seats
    head = styles().head
    titles = ["Table", *(f"Seat {n}" for n in range(1, seats + 1)), "Boxes"]
    rows: list[list[object]] = [[Paragraph(t, head) for t in titles]]
    style: list[tuple[object, ...]] = [*HEADED]
    for r, table in enumerate(tables, start=1):
        best = max((total for _, total in table.totals), default=None)
        cells: list[object] = [str(table.table) if table.status != "bye" else "bye"]
        for c, (player, total) in enumerate(table.totals, start=1):
            said = player if table.status == "bye" else f"{player} {words.number(total, signed=True)}"
            shown = name_cell(said, seat_w)
            cells.append(shown)
            if total == best and table.boxes and len(table.totals) > 1:
                style.append(("BACKGROUND", (c, r), (c, r), WON))
        cells += [""] * (seats - len(table.totals))
        note = STATUS_WORDS.get(table.status, table.status)
        said = "" if table.status == "bye" else f"{table.boxes}" + (f" · {note}" if note else "")
        cells.append(Paragraph(text(said), styles().cell))
        rows.append(cells)
    grid = Table(rows, colWidths=[14 * mm] + [seat_w] * seats + [30 * mm], hAlign="LEFT")
    grid.setStyle(ruled(style))
    return grid
