"""Box detail: what lay on the table and why the box scored as it did.

Printed after the score table, one block per box, so a printed sheet settles a
dispute afterwards: each hand's melds, layoffs and deadwood with real suit
symbols, then the engine's explanation with the rule ids to look up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from . import words
from .blocks import citations, name_cell
from .cards import CardLine, cards, layoff, melds, suited
from .styles import FONT, HEAD, INK, MUTED, PAD, RULE, WON, styles, text


def wants_detail(box: Mapping[str, Any], detail: bool | None) -> bool:
    """Whether a box gets a detail block: by default, when its cards were entered.

    >>> wants_detail({"hands": {"Ann": {"melds": []}}}, None), wants_detail({}, None)
    (True, False)
    """
    if detail is None:
        return bool(box.get("hands"))
    return detail


def detail_section(game: Mapping[str, Any], score: Mapping[str, Any], players: Sequence[str],
                   width: float, *, detail: bool | None) -> list[Flowable]:
    """Every box that wants detail, under one heading; nothing when none does."""
    sheet = styles()
    entered = list(game.get("boxes", ()))
    blocks: list[Flowable] = []
    for number, box in enumerate(score.get("boxes", ()), start=1):
        source = entered[number - 1] if number <= len(entered) else {}
        note = box.get("note", source.get("note"))
        if wants_detail(box, detail):
            blocks.append(box_detail(number, source, box, players, width))
        elif note:
            blocks.append(Paragraph(f"<b>Box {number}</b> note: {suited(note)}", sheet.small))
    if not blocks:
        return []
    title = "Box detail" if any(wants_detail(b, detail) for b in score.get("boxes", ())) else "Notes"
    # The heading goes with the first block, never alone at the foot of a page.
    return [KeepTogether([Paragraph(title, sheet.heading), blocks[0]]), *blocks[1:]]


def box_detail(number: int, source: Mapping[str, Any], box: Mapping[str, Any],
               players: Sequence[str], width: float) -> Flowable:
    """One box: a heading line, the hands on the table, the explanation, advice and note."""
    sheet = styles()
    parts: list[Flowable] = [Paragraph(_summary(number, source, box), sheet.body)]
    hands = hands_table(box, players, width)
    if hands is not None:
        parts += [Spacer(1, 1 * mm), hands]
    steps = citations([*(box.get("showdown") or []), *(box.get("explanation") or [])], width)
    if steps is not None:
        parts += [Spacer(1, 1 * mm), steps]
    advice = box.get("advice") or []
    if advice:
        parts.append(Paragraph("<b>Advice</b> (not scored: C8)", sheet.small))
        table = citations(advice, width)
        if table is not None:
            parts.append(table)
    note = box.get("note", source.get("note"))
    if note:
        parts.append(Paragraph(f"<b>Note:</b> {suited(note)}", sheet.small))
    parts.append(Spacer(1, 4 * mm))
    return KeepTogether(parts)


def _summary(number: int, source: Mapping[str, Any], box: Mapping[str, Any]) -> str:
    """"Box 7 · Ann dealt · Knock by Bob · Bob +19" as markup."""
    line = f"<b>Box {number}</b> · {text(box.get('dealer', ''))} dealt · {text(words.ending(box))}"
    by = box.get("by", source.get("by"))
    if by is not None:
        line += f" by {text(by)}"
    winner = box.get("winner")
    if winner is not None:
        line += f" · <b>{text(winner)} {words.number(box.get('points'), signed=True)}</b>"
    for player, penalty in (box.get("penalties") or {}).items():
        if penalty:
            line += f" · {text(player)} {words.number(-penalty)}"
    return line


def hands_table(box: Mapping[str, Any], players: Sequence[str], width: float) -> Table | None:
    """Melds, layoffs, deadwood and count of each hand, in seat order."""
    sheet = styles()
    hands = box.get("hands") or {}
    counts = box.get("counts") or {}
    if not hands and not counts:
        return None
    widths = [28 * mm, 0.0, 0.0, 0.0, 14 * mm]
    rest = width - widths[0] - widths[4]
    widths[1:4] = [rest * 0.44, rest * 0.30, rest * 0.26]
    rows: list[list[Any]] = [[Paragraph(h, sheet.head) for h in
                              ("Player", "Melds", "Laid off", "Deadwood", "Count")]]
    winner_row = None
    count_only = []
    for player in players:
        if player not in hands and player not in counts:
            continue
        hand = hands.get(player)
        if player == box.get("winner"):
            winner_row = len(rows)
        if hand is None:
            count_only.append(len(rows))
        rows.append(_hand_row(player, hand, counts.get(player), hands, widths))
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        # Headings tinted, a frame and light rules, counts right-aligned.
        ("BACKGROUND", (0, 0), (-1, 0), HEAD),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
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
    table.setStyle(TableStyle(commands))
    return table


def _hand_row(player: str, hand: Mapping[str, Any] | None, count: object,
              hands: Mapping[str, Any], widths: Sequence[float]) -> list[Any]:
    """One hand's row; a hand entered as a count only says so."""
    name = name_cell(player, widths[0])
    if hand is None:
        return [name, "count only", "", "", words.number(count)]
    laid = [CardLine(layoff(item, hands)) for item in hand.get("layoffs") or []]
    return [
        name,
        CardLine(melds(hand.get("melds") or [])),
        laid or CardLine([]),
        CardLine(cards(hand.get("deadwood") or [])),
        words.number(hand.get("count", count)),
    ]
