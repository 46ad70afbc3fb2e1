"""Box detail: what lay on the table and why the box scored as it did.

Printed after the score table, one block per box, so a printed sheet settles a
dispute afterwards: each hand's melds, layoffs and deadwood with real suit
symbols, then the engine's explanation with the rule ids to look up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    Paragraph,
    Spacer,
    Table,
)

from scorekeeper import engine

from ..engine.contract import BoxEntry, GameEntry, LaidOut, Sheet, SheetBox
from ..engine.vocabulary import vocabulary_for
from . import words
from .blocks import citations, heading_cell, heading_row, name_cell
from .boxes import box_labels, entered, knocker, note_of
from .cards import CardLine, cards, layoff, melds, suited
from .runon import Piece, RunOnLine, RunOnLines
from .styles import FONT, HEAD, INK, MUTED, PAD, RULE, WON, ruled, styles
from .vocabulary import NOTE_MARK, headline, result


def wants_detail(box: SheetBox, detail: bool | None) -> bool:
    """Whether a box gets a full detail block: only when its cards were entered, unless
    ``detail`` is False (a box of counts only gets one line under ``detail=True``).

    >>> from dataclasses import replace
    >>> laid = LaidOut(melds=(), deadwood=("AS",), layoffs=(), count=1)
    >>> counted = SheetBox(result="knock", winner="Ann", points=9, credits={})
    >>> wants_detail(replace(counted, hands={"Ann": laid}), None), wants_detail(counted, True)
    (True, False)
    """
    return bool(box.hands) and detail is not False


def notes_section(game: GameEntry, sheet: Sheet, rules: engine.Rules | None = None) -> list[Flowable]:
    """The boxes' notes, each after its box's name and the note mark, under the table
    as the legend says; nothing (no heading) when no box has a note."""
    look = styles()
    deal = vocabulary_for(rules).deal if rules is not None else "box"
    notes: list[Flowable] = []
    for index, (label, box) in enumerate(zip(box_labels(sheet.boxes), sheet.boxes, strict=True)):
        note = note_of(box, entered(game, index))
        if note:
            name = f"{deal.capitalize()} {label}" if label else "Misdeal"
            notes.append(Paragraph(f"<b>{name}</b>{NOTE_MARK} {suited(note)}", look.small))
    if not notes:
        return []
    # The heading keeps its first note: never alone at the foot of a page.
    return [KeepTogether([Paragraph("Notes", look.heading), notes[0]]), *notes[1:]]


def detail_section(
    game: GameEntry,
    sheet: Sheet,
    players: Sequence[str],
    width: float,
    *,
    detail: bool | None,
    rules: engine.Rules | None = None,
    notes: bool = True,
) -> list[Flowable]:
    """Every box that wants detail under one heading (a box of counts only: one line
    under ``detail=True``), then the notes unless they print elsewhere (``notes``);
    nothing when there is neither."""
    look = styles()
    deal = vocabulary_for(rules).deal if rules is not None else "box"
    blocks: list[list[Flowable]] = []
    for index, (label, box) in enumerate(zip(box_labels(sheet.boxes), sheet.boxes, strict=True)):
        source = entered(game, index)
        name = f"{deal.capitalize()} {label}" if label else "Misdeal"
        if wants_detail(box, detail):
            blocks.append(box_detail(name, source, box, players, width, rules))
        elif detail:
            blocks.append([RunOnLine(_summary(name, source, box) + _steps(box, rules))])
    story: list[Flowable] = notes_section(game, sheet, rules) if notes else []
    if blocks:
        # The heading goes with the whole first block, never alone at a page's foot (one
        # KeepTogether of both: a KeepTogether inside another always asks for a new page).
        heading = Paragraph(f"{deal.capitalize()} detail", look.heading)
        story += [CondPageBreak(30 * mm), KeepTogether([heading, *blocks[0]])]
        for block in blocks[1:]:
            first = block[0]
            if len(block) > 1:
                story.append(KeepTogether(block))
            elif not isinstance(first, RunOnLine):
                story.append(first)
            elif isinstance(story[-1], RunOnLines):
                # Boxes of counts only in a row: their lines as one flowable.
                story[-1].items.append(first)
            else:
                story.append(RunOnLines([first]))
    return story


def _steps(box: SheetBox, rules: engine.Rules | None) -> list[Piece]:
    """A box of counts only: its explanation run on after its summary line."""
    said = [
        words.typeset(step.text) for step in box.explanation if words.belongs(step.rule, step.text, rules)
    ]
    return [(": ", False), ("; ".join(said), False)] if said else []


def box_detail(
    name: str,
    source: BoxEntry | None,
    box: SheetBox,
    players: Sequence[str],
    width: float,
    rules: engine.Rules | None = None,
) -> list[Flowable]:
    """One box: a heading line, the hands on the table, the explanation, advice and note
    (kept together by the caller)."""
    sheet = styles()
    parts: list[Flowable] = [
        # Drawn as the Paragraph it was, without the markup: laying out 18 of these took a
        # tenth of a 130-box sheet's time.
        RunOnLine(
            _summary(name, source, box),
            size=sheet.body.fontSize,
            leading=sheet.body.leading,
            typed_spaces=True,
        )
    ]
    hands = hands_table(box, players, width)
    if hands is not None:
        parts += [Spacer(1, 1 * mm), hands]
    steps = citations([*box.showdown, *box.explanation], width, rules)
    if steps is not None:
        parts += [Spacer(1, 1 * mm), steps]
    if box.advice:
        parts.append(Paragraph("<b>Advice</b> (not scored: C8)", sheet.small))
        table = citations(box.advice, width, rules)
        if table is not None:
            parts.append(table)
    note = note_of(box, source)
    if note:
        parts.append(Paragraph(f"<b>Note:</b> {suited(note)}", sheet.small))
    parts.append(Spacer(1, 4 * mm))
    return parts


def _summary(name: str, source: BoxEntry | None, box: SheetBox) -> list[Piece]:
    """ "Box 7 · Ann dealt · K · Sal won by an underknock (Marge knocked) · Sal +20", the box,
    the letter and the winner's credit in bold."""
    found = result(box.result)
    line: list[Piece] = [(name, True), (" · ", False), (box.dealer or "", False), (" dealt", False)]
    if found.scores:
        line += [
            (" · ", False),
            (found.letter, True),
            (" ", False),
            (headline(box.result, box.winner, knocker(box, source)), False),
        ]
    if box.multiplier > 1:
        line.append((f" ×{box.multiplier}", False))
    if box.winner is not None:
        line += [(" · ", False), (box.winner, True), (f" {words.number(box.points, signed=True)}", True)]
    for player, penalty in box.penalties.items():
        if penalty:
            line += [(" · ", False), (str(player), False), (f" {words.number(-penalty)}", False)]
    return line


def hands_table(box: SheetBox, players: Sequence[str], width: float) -> Table | None:
    """Melds, layoffs, deadwood and count of each hand, in seat order."""
    hands, counts = box.hands, box.counts
    if not hands and not counts:
        return None
    widths = [28 * mm, 0.0, 0.0, 0.0, 14 * mm]
    rest = width - widths[0] - widths[4]
    widths[1:4] = [rest * 0.44, rest * 0.30, rest * 0.26]
    heads = ("Player", "Melds", "Laid off", "Deadwood", "Count")
    rows: list[list[Any]] = [[heading_cell(h, w) for h, w in zip(heads, widths, strict=True)]]
    winner_row = None
    count_only = []
    for player in players:
        if player not in hands and player not in counts:
            continue
        hand = hands.get(player)
        if player == box.winner:
            winner_row = len(rows)
        if hand is None:
            count_only.append(len(rows))
        rows.append(_hand_row(player, hand, counts.get(player), hands, widths))
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        # Headings tinted, a frame and light rules, counts right-aligned.
        ("BACKGROUND", (0, 0), (-1, 0), HEAD),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        *heading_row((0, 0), (-1, 0)),
        ("INNERGRID", (0, 0), (-1, -1), 0.25, RULE),
        ("BOX", (0, 0), (-1, -1), 0.8, INK),
        ("FONT", (0, 1), (-1, -1), FONT, 8),
        ("ALIGN", (4, 1), (4, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
    ]
    # A hand entered as a count only says so in grey.
    commands += [("TEXTCOLOR", (1, r), (1, r), MUTED) for r in count_only]
    if winner_row is not None:
        # The box winner's hand is marked like his credit in the score table.
        commands.append(("BACKGROUND", (0, winner_row), (0, winner_row), WON))
    table.setStyle(ruled(commands))
    return table


def _hand_row(
    player: str, hand: LaidOut | None, count: object, hands: Mapping[str, LaidOut], widths: Sequence[float]
) -> list[Any]:
    """One hand's row; a hand entered as a count only says so."""
    name = name_cell(player, widths[0])
    if hand is None:
        return [name, "count only", "", "", words.number(count)]
    laid = [CardLine(layoff(item, hands)) for item in hand.layoffs]
    return [
        name,
        CardLine(melds(hand.melds)),
        laid or CardLine([]),
        CardLine(cards(hand.deadwood)),
        words.number(hand.count),
    ]
