"""Hollywood's blank pad: three games or more scored at once, in bands of up to four games
a page beside the deal's narrow columns, every band ruled with the same hand rows."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Table

from scorekeeper import engine

from ..engine.vocabulary import vocabulary_for
from .ruling import (
    CELL,
    FEWEST_ROWS,
    FOOT_ROW,
    HEAD_ROW,
    HOLLYWOOD_BAND,
    NARROW,
    ROW,
    body_rows,
    foot_cells,
    narrow_heads,
    seat_letter,
)
from .styles import BAND, FONT, FONT_BOLD, HEAD, INK, MUTED, RULE, ruled, styles

HOLLYWOOD_HEADS = (HEAD_ROW * 1.4, HEAD_ROW)
HOLLYWOOD_SUMS = (
    "Credits",
    "{deals} won",
    "{deal} bonuses × {preset.box_bonus}",
    "Game bonus {preset.game_bonus}",
    "Shut out (tick the loser)",
    "Final total",
    "Net: who is up, by how much",
)
"""The foot of each Hollywood game: its sums, in the game's words."""


def hollywood_pad(
    preset: engine.Rules, games: int, width: float, room: float, after: float, page: float
) -> list[Flowable]:
    """The deal's narrow columns, then each game's two score columns; up to four games a
    band (cells 15 mm wide), one band a page (``room`` on the first, under the title;
    ``page`` on the others), each game's sums at its foot, the last band followed by
    ``after`` high of net and agreed line. A band whose foot leaves fewer than 15 rows
    has its foot on a summary sheet of its own."""
    deal = [9 * mm] + [NARROW] * 3 + [10 * mm]
    per_band = max(1, min(HOLLYWOOD_BAND, int((width - sum(deal)) // (2 * CELL))))
    bands = [
        list(range(start, min(games, start + per_band - 1) + 1)) for start in range(1, games + 1, per_band)
    ]
    footed = [*HOLLYWOOD_HEADS, *[FOOT_ROW] * len(HOLLYWOOD_SUMS)]
    plans = []
    for n in range(len(bands)):
        space = room if n == 0 else page
        below = after if n == len(bands) - 1 else 0
        with_foot = body_rows(space - below, footed) > FEWEST_ROWS
        rows = body_rows(space - below, footed) if with_foot else body_rows(space, list(HOLLYWOOD_HEADS))
        plans.append((with_foot, rows))
    # Every band the same hand rows: a hand is written across the bands on one row, and
    # every sheet is turned at the same hand (page 1 held 17 hands, page 2 19).
    body = min(rows for _, rows in plans)
    story: list[Flowable] = []
    for n, (band, (with_foot, _)) in enumerate(zip(bands, plans, strict=True)):
        if n:
            story.append(PageBreak())
        if with_foot:
            story.append(_hollywood_band(preset, band, deal, width, body=body))
        else:
            story += [
                _hollywood_band(preset, band, deal, width, body=body, foot=False),
                PageBreak(),
                _hollywood_band(preset, band, deal, width, body=1, rows=False),
            ]
    return story


def _hollywood_band(
    preset: engine.Rules,
    band: list[int],
    deal: list[float],
    width: float,
    *,
    body: int,
    foot: bool = True,
    rows: bool = True,
) -> Table:
    """One band of Hollywood game columns beside the deal's columns: the Carried forward
    row, ``body`` - 1 hand rows (none on a summary sheet), the games' sums."""
    sheet = styles()
    column = (width - sum(deal)) / (2 * len(band))
    words_ = vocabulary_for(preset)
    top: list[Any] = list(narrow_heads([words_.deal.capitalize(), "Dlr", "How", "Won", "Points"]))
    sub: list[Any] = [""] * len(deal)
    for game in band:
        top += [Paragraph(f"Game {game} · to {preset.game_target}", sheet.head), ""]
        # The names are written once, at the top as players A and B: here their letters.
        sub += [Paragraph(seat_letter(1), sheet.head), Paragraph(seat_letter(2), sheet.head)]
    sums = [
        label.format(deals=words_.deals.capitalize(), deal=words_.deal.capitalize(), preset=preset)
        for label in HOLLYWOOD_SUMS
    ]
    foot_labels = sums if foot else []
    heads, feet = list(HOLLYWOOD_HEADS), [FOOT_ROW] * len(foot_labels)
    body = body if rows else 1
    cells = len(deal) + 2 * len(band)
    # The first row carries each game's totals forward from the sheet before.
    carried = [foot_cells(["Carried forward"])[0]] + [""] * (cells - 1)
    grid = [top, sub, carried, *[[str(n)] + [""] * (cells - 1) for n in range(1, body)]]
    grid += [[label] + [""] * (cells - 1) for label in foot_cells(foot_labels)]
    table = Table(
        grid,
        colWidths=deal + [column] * (2 * len(band)),
        rowHeights=heads + [ROW] * body + feet,
        hAlign="LEFT",
    )
    first_foot = 2 + body
    fixed = len(deal)
    last = len(grid) - 1
    commands: list[tuple[Any, ...]] = [
        # Game headings span their two columns; the players' names are written under them.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        *[("SPAN", (fixed + 2 * g, 0), (fixed + 1 + 2 * g, 0)) for g in range(len(band))],
        *[("SPAN", (c, 0), (c, 1)) for c in range(fixed)],
        ("LINEBELOW", (0, 1), (-1, 1), 1.0, INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 1.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 1.5),
        ("FONT", (0, 2), (0, first_foot - 1), FONT, 7),
        ("TEXTCOLOR", (0, 2), (0, first_foot - 1), MUTED),
        ("ALIGN", (0, 2), (0, first_foot - 1), "CENTER"),
        # The carried-forward row spans the narrow columns, on a band, under a rule.
        ("SPAN", (0, 2), (fixed - 1, 2)),
        ("BACKGROUND", (0, 2), (-1, 2), BAND),
        ("LINEBELOW", (0, 2), (-1, 2), 0.9, INK),
        # Light ruling, a heavy rule between games, a frame round the pad.
        ("INNERGRID", (0, 0), (-1, -1), 0.3, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, INK),
        *[("LINEBEFORE", (fixed + 2 * g, 0), (fixed + 2 * g, -1), 1.2, INK) for g in range(len(band))],
    ]
    if foot_labels:
        commands += [
            # The foot under a double rule: each sum written in each game's columns; the
            # net of a game spans its pair.
            ("LINEABOVE", (0, first_foot), (-1, first_foot), 1.6, INK),
            ("BACKGROUND", (0, first_foot), (-1, -1), BAND),
            ("FONT", (0, first_foot), (0, -1), FONT_BOLD, 7),
            *[("SPAN", (0, r), (fixed - 1, r)) for r in range(first_foot, last + 1)],
            *[("SPAN", (fixed + 2 * g, last), (fixed + 1 + 2 * g, last)) for g in range(len(band))],
        ]
    commands += [("BACKGROUND", (0, r), (-1, r), BAND) for r in range(4, first_foot, 2)]
    table.setStyle(ruled(commands))
    return table
