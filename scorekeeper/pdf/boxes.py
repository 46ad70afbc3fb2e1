"""The box table of a score sheet: one row per box, as the ruled body of a paper pad.

Each row says who dealt, how the box ended (a letter: K, U, G, B, BG) and who
won it, then each player's count, credit and running total. Meaning never rests
on colour alone: the winner is named, the knocker's count carries a mark, the
winner's credit and every running total that changed are bold. Oklahoma adds the
first upcard and the knock limit it set, doubling the box's multiplier.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from scorekeeper import engine

from ..engine.contract import BoxEntry, GameEntry, Sheet, SheetBox
from ..engine.vocabulary import vocabulary_for
from . import words
from .blocks import heading_cell, heading_row, name_cell, short_cell, short_names
from .cards import card, suited
from .grid import Grid, cell_defaults
from .styles import BAND, FONT, FONT_BOLD, HEAD, INK, MUTED, PAD, RULE, WON, styles, text
from .vocabulary import KNOCKER_MARK, NOTE_MARK, result

Cell = Flowable | str


@dataclass(frozen=True)
class Columns:
    """The columns before the players' groups: which extra ones this game needs."""

    upcard: bool = False
    """Oklahoma: the first upcard and the knock limit it set."""
    multiplier: bool = False
    """Doubling (or Oklahoma's spade): the box's multiplier."""
    deal: str = "box"
    """What the game calls a deal (engine vocabulary): "box" or "hand"."""

    @classmethod
    def of(cls, rules: engine.Rules, boxes: Sequence[SheetBox] = ()) -> Columns:
        """The columns ``rules`` call for, and a multiplier column whenever a box was doubled."""
        doubled = any(b.multiplier > 1 for b in boxes)
        return cls(
            upcard=rules.knock_limit_from != "fixed",
            multiplier=rules.doubling or rules.spade_doubles or doubled,
            deal=vocabulary_for(rules).deal,
        )

    @property
    def headings(self) -> list[str]:
        extra = (["Upcard"] if self.upcard else []) + (["×"] if self.multiplier else [])
        return [self.deal.capitalize(), "Dealer", "How", "Won by", *extra]

    @property
    def fixed(self) -> int:
        """How many columns come before the first player's."""
        return len(self.headings)


def box_widths(columns: Columns, players: int, width: float) -> list[float]:
    """Widths: box number, dealer, how, winner, extras, then count, box and total per player."""
    name = {2: 28 * mm, 3: 21 * mm}.get(players, 22 * mm)
    fixed = [10 * mm, name, 9.5 * mm, name]
    fixed += [14 * mm] * columns.upcard + [8 * mm] * columns.multiplier
    group = (width - sum(fixed)) / players
    return fixed + [group * 0.31, group * 0.31, group * 0.38] * players


def box_labels(boxes: Sequence[SheetBox]) -> list[str]:
    """Each box's number as printed: a misdeal is no box, so it takes no number.

    >>> box_labels([ruled_as("knock"), ruled_as("misdeal"), ruled_as("gin")])
    ['1', '', '2']
    """
    labels, played = [], 0
    for box in boxes:
        if box.result == "misdeal":
            labels.append("")
        else:
            played += 1
            labels.append(str(played))
    return labels


def ruled_as(result_key: str) -> SheetBox:
    """A box the engine ruled ``result_key`` with nothing else said (for the examples)."""
    return SheetBox(result=result_key, winner=None, points=0, credits={})


def sheet_numbers(boxes: Sequence[SheetBox]) -> dict[int, str]:
    """The engine's box numbers (every entry counted) to the sheet's (misdeals take none).

    >>> sheet_numbers([ruled_as("misdeal"), ruled_as("gin")])
    {2: '1'}
    """
    return {n: label for n, label in enumerate(box_labels(boxes), start=1) if label}


def entered(game: GameEntry, index: int) -> BoxEntry | None:
    """The box as it was entered, beside the engine's ruling on it (its by, note, upcard)."""
    return game.boxes[index] if index < len(game.boxes) else None


def knocker(box: SheetBox, source: BoxEntry | None) -> str | None:
    """Who knocked or broke: as ruled, else as entered."""
    return box.by if box.by is not None or source is None else source.by


def note_of(box: SheetBox, source: BoxEntry | None) -> str | None:
    """The box's note: as the ruling carries it, else as entered."""
    return box.note if box.note is not None or source is None else source.note


def box_table(
    game: GameEntry,
    sheet: Sheet,
    players: Sequence[str],
    columns: Columns,
    width: float,
    revised: Mapping[str, int] | None = None,
) -> Table:
    """One row per box; the headings repeat on every page. A corrected box (``revised``:
    its version by its id) has its version beside its number: "5 v2"."""
    widths = box_widths(columns, len(players), width)
    short = short_names(players, min(widths[1], widths[3]))
    rows: list[list[Cell]] = _headings(players, columns, widths)
    marks = Marks()
    before: Mapping[str, int] = {p: 0 for p in players}
    for index, (label, box) in enumerate(zip(box_labels(sheet.boxes), sheet.boxes, strict=True)):
        row = len(rows)
        source = entered(game, index)
        version = (revised or {}).get(str(source.id)) if source is not None else None
        if version and version > 1:
            label = f"{label} v{version}".strip()
        rows.append(_row(label, source, box, players, columns, widths, short))
        marks.changed += [(row, seat) for seat, p in enumerate(players) if box.totals.get(p) != before.get(p)]
        before = box.totals
        if box.winner in players:
            marks.winners.append((row, players.index(box.winner)))
        if not result(box.result).scores:
            marks.voids.append(row)
        if index % 2:
            marks.banded.append(row)
        note = note_of(box, source)
        if note:
            # The note under its own box, across the row: on the same page as the box,
            # however long the table.
            rows.append([note_cell(label, note, sum(widths)), *[""] * (len(widths) - 1)])
            marks.notes.append(len(rows) - 1)
            if index % 2:
                marks.banded.append(len(rows) - 1)
    if len(rows) == 2:
        rows.append(["", "No boxes yet", *[""] * (len(widths) - 2)])
    table = Grid(rows, colWidths=widths, repeatRows=2, hAlign="LEFT", cells=BOX_CELL)
    table.setStyle(box_table_style(len(rows), len(players), columns.fixed, marks))
    return table


BOX_CELL = cell_defaults(
    fontname=FONT,
    fontsize=8,
    leading=8 * 1.2,  # as ReportLab's FONT command sets it
    valign="MIDDLE",
    topPadding=0.9,
    bottomPadding=0.9,
    leftPadding=PAD,
    rightPadding=PAD,
)
"""Every cell of the box table before its style's commands."""


@dataclass
class Marks:
    """Cells the table style sets apart: (row, seat) pairs and whole rows."""

    winners: list[tuple[int, int]]
    changed: list[tuple[int, int]]
    voids: list[int]
    notes: list[int]
    """Rows that hold a box's note, under the box."""
    banded: list[int]
    """Rows tinted: every other box (and its note row)."""

    def __init__(self) -> None:
        self.winners, self.changed, self.voids, self.notes, self.banded = [], [], [], [], []


def note_cell(label: str, note: str, width: float) -> Paragraph:
    """A box's note in a row of its own under the box, marked as the box number is."""
    style = styles().small.clone("note-row", fontSize=7, leading=8.5, textColor=MUTED)
    lead = f"{label}{NOTE_MARK}" if label else NOTE_MARK
    return Paragraph(f"<b>{text(lead)}</b> {suited(note)}", style)


def _headings(players: Sequence[str], columns: Columns, widths: Sequence[float]) -> list[list[Cell]]:
    """Two heading rows: the players' names over their three columns, then what each holds."""
    top: list[Cell] = [heading_cell(h, w) for h, w in zip(columns.headings, widths, strict=False)]
    sub: list[Cell] = [""] * columns.fixed
    for seat, name in enumerate(players):
        first = columns.fixed + 3 * seat
        top += [name_cell(name, sum(widths[first : first + 3]), bold=True), "", ""]
        sub += [
            heading_cell(h, w) for h, w in zip(("count", columns.deal, "total"), widths[first:], strict=False)
        ]
    return [top, sub]


def _row(
    label: str,
    source: BoxEntry | None,
    box: SheetBox,
    players: Sequence[str],
    columns: Columns,
    widths: Sequence[float],
    short: Mapping[str, str],
) -> list[Cell]:
    """A box as a pad records it: who dealt, how it ended and who won (each on one line,
    by a short form of a long name), the numbers."""
    how = result(box.result)
    winner = box.winner
    row: list[Cell] = [
        label + (NOTE_MARK if note_of(box, source) else ""),
        short_cell(box.dealer or "", short, widths[1]),
        how.letter,
        short_cell(winner, short, widths[3]) if winner is not None else how.name,
    ]
    if columns.upcard:
        row.append(upcard(box, source))
    if columns.multiplier:
        row.append(f"×{box.multiplier}" if box.multiplier > 1 else "")
    by = knocker(box, source)
    for player in players:
        credit = (box.credits.get(player) or 0) - (box.penalties.get(player) or 0)
        count = words.number(box.counts.get(player))
        if player == by and count:
            count += KNOCKER_MARK
        row += [count, words.number(credit) if credit else "", words.number(box.totals.get(player))]
    return row


def upcard(box: SheetBox, source: BoxEntry | None) -> str:
    """Oklahoma's first upcard and the knock limit it set ("7♠ ≤7"; an ace may mean gin only).

    >>> from dataclasses import replace
    >>> seven, ace = BoxEntry("knock", upcard="7S"), BoxEntry("gin", upcard="AH")
    >>> upcard(replace(ruled_as("knock"), knock_limit=7), seven), upcard(
    ...     replace(ruled_as("gin"), knock_limit=0), ace)
    ('7♠ ≤7', 'A♥ gin')
    >>> upcard(ruled_as("misdeal"), None)
    ''
    """
    code = source.upcard if source is not None else None
    if not code:
        return ""
    limit = box.knock_limit
    shown = card(code)[0]
    if limit == 0:
        return f"{shown} gin"
    return f"{shown} ≤{limit}" if limit is not None else shown


def box_table_style(rows: int, players: int, fixed: int, marks: Marks) -> TableStyle:
    """The ruling of the box table, commented line by line."""
    last = fixed - 1 + 3 * players
    commands: list[tuple[Any, ...]] = [
        # Headings: tinted, bold, a heavy rule under them; names span their three columns.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        ("LINEBELOW", (0, 1), (-1, 1), 1.0, INK),
        *[("SPAN", (c, 0), (c, 1)) for c in range(fixed)],
        *[("SPAN", (fixed + 3 * p, 0), (fixed + 2 + 3 * p, 0)) for p in range(players)],
        *heading_row((0, 0), (fixed - 1, 1)),
        *heading_row((fixed, 1), (-1, 1)),
        # Body (BOX_CELL: every cell in the body font, 8 points, centred vertically, tight
        # padding): numbers right-aligned; box number, letter, extras centred.
        ("ALIGN", (fixed, 2), (-1, -1), "RIGHT"),
        ("ALIGN", (0, 2), (0, -1), "CENTER"),
        ("ALIGN", (2, 2), (2, -1), "CENTER"),
        ("ALIGN", (4, 2), (fixed - 1, -1), "CENTER"),
        ("FONT", (2, 2), (2, -1), FONT_BOLD, 8),
        # Running totals that did not change in a row are grey: the eye finds the ones that did.
        *[("TEXTCOLOR", (fixed + 2 + 3 * p, 2), (fixed + 2 + 3 * p, -1), MUTED) for p in range(players)],
        # Light ruling between rows and columns, a frame round the whole pad.
        ("INNERGRID", (0, 0), (-1, -1), 0.25, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, INK),
        # A heavier rule before each player's columns, as on a printed pad.
        *[("LINEBEFORE", (fixed + 3 * p, 0), (fixed + 3 * p, -1), 0.9, INK) for p in range(players)],
    ]
    # Every other box tinted so a row can be followed across the page.
    commands += [("BACKGROUND", (0, r), (last, r), BAND) for r in marks.banded]
    # A note row spans the table under its box, in small grey type, no rule between them.
    for r in marks.notes:
        commands += [
            ("SPAN", (0, r), (-1, r)),
            ("LINEABOVE", (0, r), (-1, r), 0.25, BAND),
            ("LEFTPADDING", (0, r), (-1, r), 10 * mm + PAD),
            # Never a page break between a box and its note.
            ("NOSPLIT", (0, r - 1), (-1, r)),
        ]
    # A void box (draw, misdeal) scores nothing: its ending in grey.
    commands += [("TEXTCOLOR", (2, r), (3, r), MUTED) for r in marks.voids]
    # A running total that changed: bold and in ink.
    for r, p in marks.changed:
        column = fixed + 2 + 3 * p
        commands += [
            ("FONT", (column, r), (column, r), FONT_BOLD, 8),
            ("TEXTCOLOR", (column, r), (column, r), INK),
        ]
    # The box winner's credit: bold on a tint (the "won by" column names him as well).
    for r, p in marks.winners:
        column = fixed + 1 + 3 * p
        commands += [
            ("BACKGROUND", (column, r), (column, r), WON),
            ("FONT", (column, r), (column, r), FONT_BOLD, 8),
        ]
    return TableStyle(commands)
