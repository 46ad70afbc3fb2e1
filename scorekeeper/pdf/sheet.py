"""A game's score sheet: title block, one row per box, the end of the game, box detail.

:func:`render_sheet` takes the game as ``engine.score`` takes it and the score
it returned (CONTRACT.md), and gives the PDF's bytes. Nothing here computes a
score: every number printed is one the engine gave.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from scorekeeper import engine

from . import words
from .blocks import label_cell, name_cell, rule_lines, title_block
from .detail import detail_section
from .document import Layout, build
from .ending import end_of_game
from .hollywood import hollywood_section
from .styles import (
    BAND,
    FONT,
    FONT_BOLD,
    HEAD,
    INK,
    MARGIN,
    MUTED,
    PAD,
    RULE,
    WON,
    paper_size,
    styles,
    text,
)

Cell = Paragraph | str


def render_sheet(game: Mapping[str, Any], score: Mapping[str, Any], *,
                 detail: bool | None = None, page_size: str = "A4",
                 title: str | None = None, created: datetime.date | None = None) -> bytes:
    """The score sheet of ``game`` as PDF bytes.

    ``score`` is ``engine.score(game)``. ``detail`` prints each box's melds,
    layoffs, deadwood and explanation: ``None`` does so for the boxes entered
    with cards, ``True`` for every box, ``False`` for none. ``title`` replaces
    the rule set's title at the top; ``created`` is the date printed (else the
    game's ``date``, else a blank line to write it on).
    """
    rules = words.rules_of(game)
    players = [str(p) for p in game.get("players", ())]
    wide = len(players) >= 4 and not rules.hollywood
    # Four or five players get a landscape page, so their columns stay readable.
    size = paper_size(page_size, landscape=wide)
    heading = title or rules.title
    date = words.date(created, game)
    layout = Layout(size, title=heading, header=_running_header(players, date),
                    footer=f"scorekeeper · {rules.title} score sheet")
    width = size[0] - layout.left_margin - MARGIN
    story = _title(game, score, rules, heading, custom=title is not None, date=date, width=width)
    if rules.hollywood:
        story += hollywood_section(game, score, rules, players, width)
    else:
        story.append(box_table(game, score, players, width))
        story += end_of_game(score, rules, players, game.get("stake"), width)
    story += detail_section(game, score, players, width, detail=detail)
    return build(story, layout, subject=f"Score sheet: {', '.join(players)}")


def _running_header(players: Sequence[str], date: str) -> str:
    """What every page after the first repeats at its top right."""
    shown = " · ".join(players)
    return f"{shown} · {date}" if date else shown


def _title(game: Mapping[str, Any], score: Mapping[str, Any], rules: engine.Rules, heading: str, *,
           custom: bool, date: str, width: float) -> list[Flowable]:
    """Title, rules and changed settings, then date, players, stake and where the game stands."""
    seats = [f"<b>{n}</b>&nbsp;{text(p)}" for n, p in enumerate(game.get("players", ()), start=1)]
    dealer = game.get("dealer")
    if dealer is not None:
        seats[-1] += f"; first dealer {text(dealer)}"
    boxes = len(score.get("boxes", ()))
    if score.get("game_over"):
        status = f"{boxes} boxes; won by <b>{text(score.get('winner', ''))}</b>"
    else:
        status = f"{boxes} boxes; in progress"
        if score.get("next_dealer") is not None:
            status += f", {text(score['next_dealer'])} deals next"
    fields = [("Date", text(date)), ("Players in seat order", " &nbsp; ".join(seats)),
              ("Stake", text(words.stake(game.get("stake")))), ("Game", status)]
    lines = rule_lines(rules, custom)
    return title_block(heading, lines, fields, width)


def box_widths(players: int, width: float) -> list[float]:
    """Column widths: box number, dealer, ending, by, then count, box and total per player."""
    name = {2: 30 * mm, 3: 22 * mm}.get(players, 25 * mm)
    fixed = [8 * mm, name, 21 * mm, name]
    group = (width - sum(fixed)) / players
    return fixed + [group * 0.31, group * 0.31, group * 0.38] * players


def box_table(game: Mapping[str, Any], score: Mapping[str, Any], players: Sequence[str],
              width: float) -> Table:
    """One row per box, like the ruled body of a paper pad; the headings repeat on every page."""
    widths = box_widths(len(players), width)
    entered = list(game.get("boxes", ()))
    rows: list[list[Cell]] = _box_headings(players, widths)
    winners: list[tuple[int, int]] = []
    voids: list[int] = []
    for number, box in enumerate(score.get("boxes", ()), start=1):
        source = entered[number - 1] if number <= len(entered) else {}
        rows.append(_box_row(number, source, box, players, widths))
        if box.get("winner") in players:
            winners.append((len(rows) - 1, players.index(box["winner"])))
        if box.get("result") in words.VOID_ENDINGS:
            voids.append(len(rows) - 1)
    if len(rows) == 2:
        rows.append(["", "No boxes yet", *[""] * (len(widths) - 2)])
    table = Table(rows, colWidths=widths, repeatRows=2, hAlign="LEFT")
    table.setStyle(box_table_style(len(rows), len(players), winners, voids))
    return table


def _box_headings(players: Sequence[str], widths: Sequence[float]) -> list[list[Cell]]:
    """Two heading rows: the players' names over their three columns, then what each holds."""
    sheet = styles()
    top: list[Cell] = [Paragraph(h, sheet.head) for h in ("Box", "Dealer", "Ending", "By")]
    sub: list[Cell] = ["", "", "", ""]
    for seat, name in enumerate(players):
        span = sum(widths[4 + 3 * seat: 7 + 3 * seat])
        top += [name_cell(name, span, bold=True), "", ""]
        sub += [Paragraph(h, sheet.head) for h in ("count", "box", "total")]
    return [top, sub]


def _box_row(number: int, source: Mapping[str, Any], box: Mapping[str, Any],
             players: Sequence[str], widths: Sequence[float]) -> list[Cell]:
    """A box as a pad records it: who dealt, how it ended, counts, credits, running totals."""
    counts = box.get("counts") or {}
    credits = box.get("credits") or {}
    penalties = box.get("penalties") or {}
    totals = box.get("totals") or {}
    by = box.get("by", source.get("by"))
    row: list[Cell] = [
        str(number),
        name_cell(box.get("dealer", ""), widths[1]),
        label_cell(words.ending(box), widths[2], _ending_style(box)),
        name_cell(by, widths[3]) if by is not None else "",
    ]
    for player in players:
        credit = (credits.get(player) or 0) - (penalties.get(player) or 0)
        row += [words.number(counts.get(player)),
                words.number(credit) if credit else "",
                words.number(totals.get(player))]
    return row


def _ending_style(box: Mapping[str, Any]) -> ParagraphStyle:
    """Endings in the body style; a void box (draw, misdeal) in grey, as it scores nothing."""
    sheet = styles()
    return sheet.cell_muted if box.get("result") in words.VOID_ENDINGS else sheet.cell


def box_table_style(rows: int, players: int, winners: Sequence[tuple[int, int]],
                    voids: Sequence[int] = ()) -> TableStyle:
    """The ruling of the box table, commented line by line."""
    last = 3 + 3 * players
    commands: list[tuple[Any, ...]] = [
        # Headings: tinted, bold, a heavy rule under them; names span their three columns.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        ("LINEBELOW", (0, 1), (-1, 1), 1.0, INK),
        *[("SPAN", (c, 0), (c, 1)) for c in range(4)],
        *[("SPAN", (4 + 3 * p, 0), (6 + 3 * p, 0)) for p in range(players)],
        ("VALIGN", (0, 0), (-1, 1), "MIDDLE"),
        # Body: numbers right-aligned in a readable size, box numbers centred.
        ("FONT", (0, 2), (-1, -1), FONT, 8),
        ("ALIGN", (4, 2), (-1, -1), "RIGHT"),
        ("ALIGN", (0, 2), (0, -1), "CENTER"),
        ("VALIGN", (0, 2), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        # Running totals in bold: they are what players read off the pad.
        *[("FONT", (6 + 3 * p, 2), (6 + 3 * p, -1), FONT_BOLD, 8) for p in range(players)],
        # Light ruling between rows and columns, a frame round the whole pad.
        ("INNERGRID", (0, 0), (-1, -1), 0.25, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, INK),
        # A heavier rule before each player's columns, as on a printed pad.
        *[("LINEBEFORE", (4 + 3 * p, 0), (4 + 3 * p, -1), 0.9, INK) for p in range(players)],
    ]
    # Every other box tinted so a row can be followed across the page.
    commands += [("BACKGROUND", (0, r), (last, r), BAND) for r in range(3, rows, 2)]
    # A void box (draw, misdeal) scores nothing: its ending in grey.
    commands += [("TEXTCOLOR", (2, r), (2, r), MUTED) for r in voids]
    # The box winner's credit stands out.
    commands += [("BACKGROUND", (5 + 3 * p, r), (5 + 3 * p, r), WON) for r, p in winners]
    commands += [("FONT", (5 + 3 * p, r), (5 + 3 * p, r), FONT_BOLD, 8)
                 for r, p in winners]
    return TableStyle(commands)
