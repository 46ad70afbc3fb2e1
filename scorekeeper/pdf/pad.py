"""Blank score pads to print for a game played on paper.

One page (a Hollywood pad with many game columns: one band of columns a page),
ruled for handwriting: boxes to write the players' names in, at least 15 rows a
sheet at least 8 mm high, a Carried forward row to bring totals from the sheet
before, score cells at least 15 mm wide for three handwritten digits, the
dealer, "how" and winner columns narrow for initials. When the foot's sums do not
fit under 15 rows (a landscape pad for five, a Hollywood band), they go on a
summary sheet of their own, ruled in the same columns. Each game gets the
columns it needs: Oklahoma the upcard, Doubling the ×, Hollywood each game's
boxes won and net, Jersey Gin the three pairwise payments. The rule set's key
numbers run up the margin, and the letters' legend sits above the footer.
"""

from __future__ import annotations

import datetime
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from scorekeeper import engine

from ..engine.vocabulary import vocabulary_for
from . import words
from .blocks import Field, form_fields, title_block
from .boxes import Columns
from .document import Layout, build
from .hollywood_pad import hollywood_pad
from .ruling import (
    CELL,
    COUNT_CELL,
    FEWEST_ROWS,
    FOOT_ROW,
    HEAD_ROW,
    NAME_ROW,
    NARROW,
    ROW,
    body_rows,
    foot_cells,
    narrow_heads,
    seat_letter,
)
from .styles import BAND, FONT, FONT_BOLD, HEAD, INK, MARGIN, MUTED, RULE, paper_size, ruled, styles, text
from .vocabulary import beaten_word, legend


def render_blank_pad(
    rules: str,
    *,
    players: int | None = None,
    page_size: str = "A4",
    columns: int | None = None,
    printed: datetime.date | None = None,
) -> bytes:
    """A blank score pad for the preset ``rules`` as PDF bytes.

    ``players`` defaults to the game's usual number (three for Jersey Gin, two
    for Gin and Hollywood, four for Knock Rummy) and must be one the rules allow.
    ``columns`` is Hollywood's number of games scored at once (default: the preset's).
    ``printed`` is the date in the footer (default: today), so a club can tell an
    old stack of pads from one printed after the rules changed.
    """
    preset = engine.find_rules(rules)
    seats = _seats(preset, players)
    games = _games(preset, columns)
    # Four or five seats need a landscape page for their cells; Hollywood stays portrait,
    # its games in bands of four, for the height of its rows.
    size = paper_size(page_size, landscape=seats >= 4 and not preset.hollywood)
    note = f"{preset.title}:  " + "   ·   ".join(
        f"{label} {value}" for label, value in words.key_numbers(preset, seats)
    )
    layout = Layout(
        size,
        title=f"{preset.title} score pad",
        margin_note=note,
        footer=f"scorekeeper · blank {preset.title} pad · printed "
        f"{(printed or datetime.date.today()).isoformat()}",
        legend=legend(
            beaten=beaten_word(preset, seats), knocker=False, has_break=vocabulary_for(preset).has_break
        )
        + " · write initials in the narrow columns",
    )
    width = size[0] - layout.left_margin - MARGIN
    height = size[1] - MARGIN - 5 * mm - layout.bottom_margin
    story = _pad_title(preset, seats, width)
    after = _after_pad(preset, seats, width)

    def tall(flowables: list[Flowable]) -> float:
        return sum(f.wrap(width, height)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in flowables)

    # Page 1's frame starts 5 mm higher (no running header there: document.build).
    first = height + 5 * mm - tall(story) - 2 * mm
    if preset.hollywood:
        story += hollywood_pad(preset, games, width, first, tall(after), height - 2 * mm)
    else:
        story += box_pad_pages(preset, seats, width, first, tall(after))
    story += after
    return build(story, layout, subject=f"Blank score pad: {preset.title}")


def box_pad_pages(
    preset: engine.Rules, seats: int, width: float, room: float, after: float
) -> list[Flowable]:
    """The ruled pad in ``room`` (under the title), its foot under it when at least
    :data:`FEWEST_ROWS` rows fit above foot and ``after`` (the pairs, the agreed line),
    else the rows on this sheet and the foot on a summary sheet of its own."""
    feet = [FOOT_ROW] * len(_foot_labels(preset, seats))
    if body_rows(room - after, [NAME_ROW, HEAD_ROW, *feet]) > FEWEST_ROWS:  # Carried forward and 15
        return [box_pad(preset, seats, width, room - after)]
    return [
        box_pad(preset, seats, width, room, foot=False),
        PageBreak(),
        box_pad(preset, seats, width, 0, rows=False),
    ]


def _seats(preset: engine.Rules, players: int | None) -> int:
    """How many players the pad is ruled for, checked against the rule set.

    >>> _seats(engine.find_rules("jersey-scarne"), None), _seats(engine.find_rules("knock-rummy"), 5)
    (3, 5)
    >>> _seats(engine.find_rules("gin"), 3)
    Traceback (most recent call last):
    ...
    ValueError: Gin Rummy is for 2 players, not 3
    """
    if players is None:
        return preset.min_players if preset.min_players > 2 else min(4, preset.max_players)
    if not preset.min_players <= players <= preset.max_players:
        allowed = (
            f"{preset.min_players}"
            if preset.min_players == preset.max_players
            else f"{preset.min_players} to {preset.max_players}"
        )
        raise ValueError(f"{preset.title} is for {allowed} players, not {players}")
    return players


def _games(preset: engine.Rules, columns: int | None) -> int:
    """How many Hollywood game columns the pad rules (1 to 50); 0 for other games.

    >>> _games(engine.find_rules("hollywood"), None), _games(engine.find_rules("gin"), None)
    (3, 0)
    >>> _games(engine.find_rules("hollywood"), 51)
    Traceback (most recent call last):
    ...
    ValueError: Hollywood is scored in 1 to 50 game columns, not 51
    """
    if not preset.hollywood:
        return 0
    if columns is None:
        return preset.hollywood_columns
    if not 1 <= columns <= 50:
        raise ValueError(f"Hollywood is scored in 1 to 50 game columns, not {columns}")
    return columns


def _pad_title(preset: engine.Rules, seats: int, width: float) -> list[Flowable]:
    """Title and the fields a table fills in before the first deal: where and when, the
    stake and its currency, the target the table plays to, which sheet of the game this
    is; Hollywood's players by letter, their names written once."""
    line = (
        f"Rules of {text(preset.title)}. Key numbers: "
        + "; ".join(f"{text(k)} {text(v)}" for k, v in words.key_numbers(preset, seats))
        + "."
    )
    fields: list[Field] = [
        ("Date", ""),
        ("Place", ""),
        ("Start", ""),
        ("First dealer", ""),
        ("Stake a point", ""),
        ("Currency", ""),
    ]
    second: list[Field] = [
        (f"Game to (book: {preset.game_target or 'none'})", ""),
        ("Sheet", "&nbsp;" * 8 + "of"),
        ("Misdeals (tally, no row)", ""),
    ]
    if preset.hollywood:
        second = [(f"Player {seat_letter(n)}", "") for n in range(1, seats + 1)] + second
    if width > 230 * mm:
        # A landscape page takes every field in one row: its height goes to the rows.
        return [*title_block(f"{preset.title} score pad", [line], fields + second, width), Spacer(1, 3 * mm)]
    return [
        *title_block(f"{preset.title} score pad", [line], fields, width),
        Spacer(1, 2 * mm),
        form_fields(second, width),
        Spacer(1, 3 * mm),
    ]


def _after_pad(preset: engine.Rules, seats: int, width: float) -> list[Flowable]:
    """Under the ruled table: Jersey Gin's three pairs to settle (J16), each with its ×2
    shutout box (J15) and money; Hollywood's net over all games; then the line where the
    players initial the result as agreed."""
    sheet = styles()
    story: list[Flowable] = [Spacer(1, 2.5 * mm)]
    if preset.family == "jersey" and seats == 3 and not preset.hollywood:
        story.append(_pairs_table([("A", "B"), ("A", "C"), ("B", "C")], width))
    elif preset.hollywood:
        story.append(_pairs_table([("A", "B")], width, label="All games: net", shutout=False))
    agreed = "Agreed: " + "".join(f"{seat_letter(n)} " + "_" * 14 + "&nbsp;" * 4 for n in range(1, seats + 1))
    story += [Spacer(1, 2 * mm), Paragraph(agreed, sheet.small)]
    return story


def _pairs_table(
    pairs: list[tuple[str, str]], width: float, *, label: str = "Pair", shutout: bool = True
) -> Table:
    """One row a pair: who pays (initial), the points, a box to tick when a shutout
    doubles it, and the money."""
    sheet = styles()
    head = [label, "Who pays", "Points", *(["×2 shutout"] if shutout else []), "Money"]
    rows: list[list[Any]] = [[Paragraph(h, sheet.head) for h in head]]
    rows += [[f"{a}–{b}", "", "", *(["☐"] if shutout else []), ""] for a, b in pairs]
    widths = [28 * mm, 22 * mm, 26 * mm, *([24 * mm] if shutout else []), 30 * mm]
    table = Table(rows, colWidths=widths, rowHeights=[HEAD_ROW] + [ROW] * len(pairs), hAlign="LEFT")
    table.setStyle(
        ruled(
            [
                # A small settlement grid: tinted heading, light ruling, a frame; the tick box
                # centred in its column.
                ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                ("FONT", (0, 1), (0, -1), FONT_BOLD, 8),
                *(
                    [("FONT", (3, 1), (3, -1), FONT, 12), ("ALIGN", (3, 1), (3, -1), "CENTER")]
                    if shutout
                    else []
                ),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("INNERGRID", (0, 0), (-1, -1), 0.3, RULE),
                ("BOX", (0, 0), (-1, -1), 1.0, INK),
            ]
        )
    )
    _ = width
    return table


def _seat_head(seat: int) -> Paragraph:
    """The label in the corner of a name box: the seat's letter, as the pairs below name it."""
    return Paragraph(
        f"seat {seat_letter(seat)}",
        styles().head.clone("seat", textColor=MUTED, alignment=0, fontSize=6, leading=7),
    )


def box_pad(
    preset: engine.Rules, seats: int, width: float, room: float, *, foot: bool = True, rows: bool = True
) -> Table:
    """The ruled box table of Jersey Gin, two-hand Gin and Knock Rummy: the name boxes,
    the Carried forward row, the hand rows that fit ``room`` (none when not ``rows``: the
    summary sheet), the foot's sums (when ``foot``)."""
    sheet = styles()
    columns = Columns.of(preset)
    fixed = [9 * mm] + [NARROW] * 3 + [11 * mm] * columns.upcard + [NARROW] * columns.multiplier
    group = (width - sum(fixed)) / seats
    if group >= 3 * CELL:
        widths = fixed + [group / 3] * 3 * seats
    else:
        # Five seats on letter paper: the count (two digits of deadwood) gives up room, so
        # the score cells keep their 15 mm and the table its margins (it ran 13 mm into
        # the right one, 1 mm from the paper's edge).
        count = max(COUNT_CELL, group - 2 * CELL)
        widths = fixed + [count, CELL, CELL] * seats
    heads_text = [
        columns.deal.capitalize(),
        "Dlr",
        "How",
        "Won",
        *(["Upcard"] if columns.upcard else []),
        *(["×"] if columns.multiplier else []),
    ]
    top: list[Any] = list(narrow_heads(heads_text))
    sub: list[Any] = [""] * len(fixed)
    for seat in range(1, seats + 1):
        top += [_seat_head(seat), "", ""]
        sub += [Paragraph(h, sheet.head) for h in ("count", columns.deal, "total")]
    labels = _foot_labels(preset, seats) if foot else []
    heads, feet = [NAME_ROW, HEAD_ROW], [FOOT_ROW] * len(labels)
    body = body_rows(room, heads + feet) if rows else 1
    # The first row carries the totals forward from the sheet before (a game past one page).
    cells = [
        top,
        sub,
        [foot_cells(["Carried forward"])[0]] + [""] * (len(widths) - 1),
        *[[str(n)] + [""] * (len(widths) - 1) for n in range(1, body)],
    ]
    cells += [[label] + [""] * (len(widths) - 1) for label in foot_cells(labels)]
    table = Table(cells, colWidths=widths, rowHeights=heads + [ROW] * body + feet, hAlign="LEFT")
    table.setStyle(_box_pad_style(len(fixed), seats, body, len(labels)))
    return table


def _foot_labels(preset: engine.Rules, seats: int) -> list[str]:
    """The sums at the foot of the pad, with the rule set's numbers filled in; Jersey Gin
    ends with its three pairwise payments (J16)."""
    deals = vocabulary_for(preset).deals
    labels = ["Credits", f"{deals.capitalize()} won"]
    if preset.box_bonus:
        labels.append(f"{vocabulary_for(preset).deal.capitalize()} bonuses: {deals} won × {preset.box_bonus}")
    if preset.game_bonus:
        labels.append(f"Game bonus: {preset.game_bonus} to the winner")
    labels.append("Final total")
    if preset.family == "jersey" and seats == 3:
        return labels  # the three pairs settle in their own grid under the pad
    return [*labels, "Settlement: who pays whom"]


def _box_pad_style(fixed: int, seats: int, body: int, feet: int) -> TableStyle:
    """Ruling of the blank pad: the box table's look, with the foot summed per player."""
    first_foot = 2 + body
    payments = [r for r in range(first_foot, first_foot + feet)]
    commands: list[tuple[Any, ...]] = [
        # Headings as on the score sheet; each name box spans its player's three columns.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        ("BACKGROUND", (fixed, 0), (-1, 0), colors.white),
        ("LINEBELOW", (0, 1), (-1, 1), 1.0, INK),
        *[("SPAN", (c, 0), (c, 1)) for c in range(fixed)],
        *[("SPAN", (fixed + 3 * p, 0), (fixed + 2 + 3 * p, 0)) for p in range(seats)],
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (fixed, 0), (-1, 0), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 1.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 1.5),
        # The carried-forward row spans the narrow columns, on a band.
        ("SPAN", (0, 2), (fixed - 1, 2)),
        ("BACKGROUND", (0, 2), (-1, 2), BAND),
        ("LINEBELOW", (0, 2), (-1, 2), 0.9, INK),
        # Box numbers small and grey in their column, ready for the rows.
        ("FONT", (0, 2), (0, first_foot - 1), FONT, 7),
        ("TEXTCOLOR", (0, 2), (0, first_foot - 1), MUTED),
        ("ALIGN", (0, 2), (0, first_foot - 1), "CENTER"),
        # Ruling: light inside, heavy round the pad and before each player.
        ("INNERGRID", (0, 0), (-1, -1), 0.3, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, INK),
        *[("LINEBEFORE", (fixed + 3 * p, 0), (fixed + 3 * p, -1), 0.9, INK) for p in range(seats)],
    ]
    if feet:
        commands += [
            # The foot: a double rule above, labels across the narrow columns and the first
            # player's count, one sum per player across his three columns.
            ("LINEABOVE", (0, first_foot), (-1, first_foot), 1.6, INK),
            ("BACKGROUND", (0, first_foot), (-1, -1), BAND),
            ("FONT", (0, first_foot), (-1, -1), FONT_BOLD, 7),
            *[("SPAN", (0, r), (fixed - 1, r)) for r in payments],
            *[("SPAN", (fixed + 3 * p, r), (fixed + 2 + 3 * p, r)) for r in payments for p in range(seats)],
        ]
    # Every other row tinted, like the ruled body of a paper pad.
    commands += [("BACKGROUND", (0, r), (-1, r), BAND) for r in range(4, first_foot, 2)]
    return ruled(commands)


__all__ = ["box_pad", "box_pad_pages", "hollywood_pad", "render_blank_pad", "seat_letter"]
