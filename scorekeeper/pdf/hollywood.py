"""Hollywood Gin's games side by side (V3), as on a paper Hollywood pad.

Each box row shows the deal, the counts and the points, then each game's two
columns: the winner's new running total in every game the box was entered in,
blank elsewhere, and grey once a game is closed. The foot sums each game and
all of them, and the settlement lists each game's payments and the net.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from scorekeeper import engine

from ..engine.contract import BoxEntry, GameEntry, Sheet, SheetBox, Summary
from ..engine.vocabulary import vocabulary_for
from . import words
from .blocks import citations, name_cell
from .boxes import box_labels, entered, knocker, note_of, sheet_numbers
from .chart import chart_section
from .meta import SheetMeta
from .styles import BAND, CLOSED, FONT, FONT_BOLD, FRAMED_GRID, HEAD, INK, PAD, RULE, WON, ruled, styles
from .vocabulary import KNOCKER_MARK, NOTE_MARK, result

Cell = Flowable | str


def hollywood_section(
    game: GameEntry,
    score: Sheet,
    rules: engine.Rules,
    players: Sequence[str],
    width: float,
    meta: SheetMeta | None = None,
) -> list[Flowable]:
    """The box table with the games side by side (in bands of as many game columns as the
    page holds readably), a chart per game, then the games' foot and settlement."""
    games = score.games
    story: list[Flowable] = []
    for band in bands(len(games), width):
        if story:
            story.append(Spacer(1, 4 * mm))
        story.append(hollywood_table(game, score, players, band, width, vocabulary_for(rules).deal))
    story += chart_section(score, rules, players, width)
    story += hollywood_foot(score, games, rules, players, game.stake, width, meta.currency if meta else "")
    return story


FIXED = [10 * mm, 16 * mm, 9.5 * mm, 18 * mm, 11 * mm, 11 * mm, 12 * mm]
"""Box, dealer, how, won by, the two counts and the points."""


def bands(games: int, width: float) -> list[list[int]]:
    """The game columns cut into bands that each fit beside the deal's columns.

    >>> bands(3, 500), [len(b) for b in bands(12, 500)]
    ([[1, 2, 3]], [4, 4, 4])
    """
    per_band = max(1, int((width - sum(FIXED)) // (2 * 11 * mm)))
    return [
        list(range(start, min(games, start + per_band - 1) + 1)) for start in range(1, games + 1, per_band)
    ] or [[]]


def _widths(games: int, width: float) -> list[float]:
    column = (width - sum(FIXED)) / (2 * max(games, 1))
    return FIXED + [column] * (2 * games)


def hollywood_table(
    game: GameEntry, score: Sheet, players: Sequence[str], band: list[int], width: float, deal: str = "hand"
) -> Table:
    """One row per box; each game's columns get the winner's running total when entered."""
    sheet = styles()
    games = len(band)
    widths = _widths(games, width)
    top: list[Cell] = [Paragraph(h, sheet.head) for h in (deal.capitalize(), "Dealer", "How", "Won by")]
    top += [Paragraph("count", sheet.head), "", Paragraph(deal, sheet.head)]
    sub: list[Cell] = ["", "", "", ""]
    sub += [name_cell(p, widths[4], bold=True, lines=3) for p in players]
    sub.append("")
    for column in band:
        top += [Paragraph(f"Game {column}", sheet.head), ""]
        sub += [name_cell(p, widths[7], bold=True, lines=3) for p in players]
    rows: list[list[Cell]] = [top, sub]
    marks: list[tuple[str, int, int]] = []
    closed_from = [0] * games
    summaries = score.games
    for index, (label, box) in enumerate(zip(box_labels(score.boxes), score.boxes, strict=True)):
        row = len(rows)
        rows.append(_row(label, entered(game, index), box, players, band, widths))
        for column in box.columns:
            if box.winner in players and column in band:
                marks.append(("won", row, 7 + 2 * band.index(column) + players.index(box.winner)))
        for n, column in enumerate(band):
            if column > len(summaries):
                continue
            summary = summaries[column - 1]
            if summary.game_over and not closed_from[n] and _reached(box, column - 1, summary):
                closed_from[n] = row + 1
    table = Table(rows, colWidths=widths, repeatRows=2, hAlign="LEFT")
    table.setStyle(_table_style(len(rows), games, marks, closed_from))
    return table


def _reached(box: SheetBox, column: int, summary: Summary) -> bool:
    """Whether the game in ``column`` closed with this box (its totals are now final)."""
    totals = box.column_totals[column] if column < len(box.column_totals) else {}
    return bool(totals) and totals == summary.totals


def _row(
    label: str,
    source: BoxEntry | None,
    box: SheetBox,
    players: Sequence[str],
    band: list[int],
    widths: Sequence[float],
) -> list[Cell]:
    """A box: the deal, both counts, the points, and the new totals where it was entered."""
    counts = box.counts
    by = knocker(box, source)
    winner = box.winner
    how = result(box.result)
    row: list[Cell] = [
        label + (NOTE_MARK if note_of(box, source) else ""),
        name_cell(box.dealer or "", widths[1]),
        how.letter,
        name_cell(winner, widths[3]) if winner is not None else how.name,
        *[
            words.number(counts.get(p)) + (KNOCKER_MARK if p == by and counts.get(p) is not None else "")
            for p in players
        ],
        words.number(box.points) if winner is not None else "",
    ]
    column_totals = box.column_totals
    into = set(box.columns)
    for column in band:
        totals = column_totals[column - 1] if column - 1 < len(column_totals) else {}
        row += [words.number(totals.get(p)) if column in into and p == winner else "" for p in players]
    return row


def _table_style(
    rows: int, games: int, marks: Sequence[tuple[str, int, int]], closed_from: Sequence[int]
) -> TableStyle:
    """Ruling of the Hollywood box table, commented."""
    commands: list[tuple[Any, ...]] = [
        # Headings: deal columns span both heading rows, counts and games span their pairs.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        ("LINEBELOW", (0, 1), (-1, 1), 1.0, INK),
        *[("SPAN", (c, 0), (c, 1)) for c in (0, 1, 2, 3, 6)],
        ("SPAN", (4, 0), (5, 0)),
        *[("SPAN", (7 + 2 * g, 0), (8 + 2 * g, 0)) for g in range(games)],
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        # Body numbers right-aligned, box numbers centred, the points in bold.
        ("FONT", (0, 2), (-1, -1), FONT, 8),
        ("ALIGN", (4, 2), (-1, -1), "RIGHT"),
        ("ALIGN", (0, 2), (0, -1), "CENTER"),
        ("ALIGN", (2, 2), (2, -1), "CENTER"),
        ("FONT", (2, 2), (2, -1), FONT_BOLD, 8),
        ("FONT", (6, 2), (6, -1), FONT_BOLD, 8),
        ("TOPPADDING", (0, 0), (-1, -1), 1.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        # Light ruling, a frame, heavy rules before the counts and before each game.
        ("INNERGRID", (0, 0), (-1, -1), 0.25, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, INK),
        ("LINEBEFORE", (4, 0), (4, -1), 0.9, INK),
        *[("LINEBEFORE", (7 + 2 * g, 0), (7 + 2 * g, -1), 1.2, INK) for g in range(games)],
    ]
    # Every other box tinted across the deal columns.
    commands += [("BACKGROUND", (0, r), (6, r), BAND) for r in range(3, rows, 2)]
    # A closed game greys out below the box that closed it, ruled off by a double line
    # under that box as on a paper pad (V3).
    commands += [
        ("BACKGROUND", (7 + 2 * g, start), (8 + 2 * g, -1), CLOSED)
        for g, start in enumerate(closed_from)
        if start and start < rows
    ]
    commands += [
        ("LINEBELOW", (7 + 2 * g, start - 1), (8 + 2 * g, start - 1), 0.9, INK, 1, None, 1, 2, 1.6)
        for g, start in enumerate(closed_from)
        if start
    ]
    # Each entry of a box win, bold on the winner's colour.
    for _, row, column in marks:
        commands += [
            ("BACKGROUND", (column, row), (column, row), WON),
            ("FONT", (column, row), (column, row), FONT_BOLD, 8),
        ]
    return ruled(commands)


def hollywood_foot(
    score: Sheet,
    games: Sequence[Summary],
    rules: engine.Rules,
    players: Sequence[str],
    stake: object,
    width: float,
    currency: str = "",
) -> list[Flowable]:
    """Each game summed in its own pair of columns, all games summed at the right."""
    sheet = styles()
    label = 36 * mm
    column = (width - label) / (2 * (len(games) + 1))
    summaries: list[Summary] = [*games, score]
    top: list[Cell] = [""]
    sub: list[Cell] = [""]
    for n, summary in enumerate(summaries, start=1):
        state = "closed" if summary.game_over else "open"
        head = f"Game {n} · {state}" if n <= len(games) else "All games"
        top += [Paragraph(head, sheet.head), ""]
        sub += [name_cell(p, column, bold=True, lines=3) for p in players]
    words_ = vocabulary_for(rules)
    lines = [("Credits", "totals"), (f"{words_.deals.capitalize()} won", "boxes_won")]
    if any(g.game_over for g in games):
        # Bonuses and final totals once a game has closed; open games leave them blank.
        lines += [
            (f"{words_.deal.capitalize()} bonuses × {rules.box_bonus}", "box_bonuses"),
            ("Game bonus", "game_bonus"),
            ("Final total", "final_totals"),
        ]
    rows: list[list[Cell]] = [top, sub]
    for caption, field in lines:
        row: list[Cell] = [caption]
        for summary in summaries:
            values: Mapping[str, int] = getattr(summary, field)
            row += [words.number(values.get(p)) for p in players]
        rows.append(row)
    final_row = len(rows) - 1 if len(lines) > 2 else 0
    if any(s.shutouts for s in summaries):
        rows.append(
            ["Shut out", *[("shut out" if p in s.shutouts else "") for s in summaries for p in players]]
        )
    table = Table(rows, colWidths=[label] + [column] * (2 * len(summaries)), hAlign="LEFT")
    table.setStyle(_foot_style(final_row, len(summaries)))
    block: list[Flowable] = [Paragraph("The games", sheet.heading), table]
    payments = settlement_rows(games, score, stake, currency)
    if payments is not None:
        block += [
            Spacer(1, 3 * mm),
            Paragraph("Settlement", sheet.heading.clone("sub", fontSize=9.5, spaceBefore=0)),
            payments,
        ]
    story: list[Flowable] = [KeepTogether(block)]
    numbers = sheet_numbers(score.boxes)
    steps = citations(score.explanation, width, rules, numbers, currency=currency)
    if steps is not None:
        story += [Spacer(1, 3 * mm), steps]
    for n, summary in enumerate(games, start=1):
        steps = citations(summary.explanation, width, rules, numbers, currency=currency)
        if steps is not None and summary.game_over:
            # The game's heading goes with its working, never alone at a page's foot.
            heading = Paragraph(f"Game {n}", sheet.small.clone("g", fontName=FONT_BOLD, spaceBefore=2 * mm))
            story.append(KeepTogether([heading, steps]))
    return story


def _foot_style(final: int, groups: int) -> TableStyle:
    """The foot's ruling: game pairs framed, the final total (row ``final``, 0 for none
    yet) under a double rule."""
    commands: list[tuple[Any, ...]] = [
        # Game headings span their pairs of columns, names beneath.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        *[("SPAN", (1 + 2 * g, 0), (2 + 2 * g, 0)) for g in range(groups)],
        ("SPAN", (0, 0), (0, 1)),
        ("LINEBELOW", (0, 1), (-1, 1), 0.9, INK),
        ("FONT", (0, 2), (-1, -1), FONT, 8),
        ("ALIGN", (1, 2), (-1, -1), "RIGHT"),
        *FRAMED_GRID,
        *[("LINEBEFORE", (1 + 2 * g, 0), (1 + 2 * g, -1), 1.2, INK) for g in range(groups)],
    ]
    if final:
        # The final totals: bold, banded, under a double rule, as a sum is written.
        commands += [
            ("LINEABOVE", (0, final), (-1, final), 1.6, INK),
            ("FONT", (0, final), (-1, final), FONT_BOLD, 8.5),
            ("BACKGROUND", (0, final), (-1, final), BAND),
        ]
    return ruled(commands)


def settlement_rows(
    games: Sequence[Summary], score: Sheet, stake: object, currency: str = ""
) -> Table | None:
    """Each closed game's payments, then the net over all games: what changes hands."""
    sheet = styles()
    lines = [(f"Game {n}", p) for n, g in enumerate(games, start=1) for p in g.settlement]
    net = [("Net", p) for p in score.settlement]
    if not lines and not net:
        return None
    money = words.stake(stake) != "none"
    head = ["", "Pays", "To", "Points"] + (["Amount"] if money else [])
    rows: list[list[Cell]] = [[Paragraph(h, sheet.head) for h in head]]
    for caption, payment in [*lines, *net]:
        row: list[Cell] = [
            caption,
            name_cell(payment.payer, 40 * mm),
            name_cell(payment.payee, 40 * mm),
            words.number(payment.points),
        ]
        if money:
            row.append(words.money(payment.amount, currency))
        rows.append(row)
    widths = [18 * mm, 40 * mm, 40 * mm, 18 * mm] + ([22 * mm] if money else [])
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    first_net = 1 + len(lines)
    table.setStyle(
        ruled(
            [
                # As the settlement of a single game, with the net lines bold under a heavy rule.
                ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                ("LINEBELOW", (0, 0), (-1, 0), 0.9, INK),
                ("FONT", (0, 1), (-1, -1), FONT, 8.5),
                ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("INNERGRID", (0, 0), (-1, -1), 0.25, RULE),
                ("BOX", (0, 0), (-1, -1), 0.9, INK),
                ("LINEABOVE", (0, first_net), (-1, first_net), 1.2, INK),
                ("FONT", (0, first_net), (0, -1), FONT_BOLD, 8.5),
                ("FONT", (3, first_net), (-1, -1), FONT_BOLD, 8.5),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
            ]
        )
    )
    return table
