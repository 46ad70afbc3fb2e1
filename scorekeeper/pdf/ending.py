"""The end of a game: bonuses, shutouts, final totals and the settlement (J14–J16, G8)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from scorekeeper import engine

from ..engine.contract import Payment, Sheet, Summary
from ..engine.vocabulary import deal_word, vocabulary_for
from . import words
from .blocks import citations, name_cell
from .boxes import sheet_numbers
from .meta import SheetMeta
from .styles import BAND, FONT, FONT_BOLD, FRAMED_GRID, HEAD, INK, ruled, styles, text

LABEL_WIDTH = 44 * mm


Beside = Callable[[float, float], list[Flowable]]
"""What may stand at the right of the end tables (the chart): given its width and the
tables' height, its flowables."""
BESIDE_SHARE = 0.36
"""The share of the page's width the chart takes beside the end tables."""


def end_of_game(
    score: Sheet,
    rules: engine.Rules,
    players: Sequence[str],
    stake: object,
    width: float,
    *,
    heading: str = "End of game",
    meta: SheetMeta | None = None,
    beside: Beside | None = None,
) -> list[Flowable]:
    """The block under the box table: how the game ended, or where it stands; with
    ``beside``, the chart stands at the right of its tables instead of taking a band
    of its own, so a short game's sheet stays one page. The explanation follows, the
    page's full width."""
    sheet = styles()
    gap = 4 * mm
    room = width - (width * BESIDE_SHARE + gap if beside is not None else 0)
    if not score.game_over:
        block: list[Flowable] = [
            Paragraph(f"Standing after {_played(score, rules)}", sheet.heading),
            totals_table(score, rules, players, room),
            Paragraph(_standing_note(score, rules), sheet.small),
        ]
        return _side_by_side(block, beside, room, width, gap)
    if stopped_by_agreement(score):
        heading += ": stopped by agreement"
    block = [
        Paragraph(heading, sheet.heading),
        totals_table(score, rules, players, room),
        Spacer(1, 3 * mm),
    ]
    currency = meta.currency if meta else ""
    payments = settlement_table(
        score.settlement, stake, room, currency=currency, shutout_mark=shutout_mark(rules)
    )
    if payments is not None:
        block += [
            Paragraph("Settlement", sheet.heading.clone("sub", fontSize=9.5, spaceBefore=0)),
            payments,
            Spacer(1, 2 * mm),
            net_table(score.settlement, players, stake, currency, room),
        ]
    story = _side_by_side(block, beside, room, width, gap)
    steps = citations(
        score.explanation, width, rules, sheet_numbers(score.boxes), currency=meta.currency if meta else ""
    )
    if steps is not None:
        story += [Spacer(1, 3 * mm), steps]
    return story


def _side_by_side(
    block: list[Flowable], beside: Beside | None, room: float, width: float, gap: float
) -> list[Flowable]:
    """The end tables kept together, with what stands beside them as tall as they are."""
    if beside is None:
        return [KeepTogether(block)]
    tall = sum(f.wrap(room, 10_000)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in block)
    right = beside(width - room - gap, max(tall, 45 * mm))
    table = Table([[block, right]], colWidths=[room + gap, width - room - gap], hAlign="LEFT")
    table.setStyle(
        ruled(
            [
                # Two columns without ruling or padding: the tables at the left, the chart right.
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    # The heading's space above, which a table cell does not give it.
    return [Spacer(1, styles().heading.spaceBefore), table]


def stopped_by_agreement(score: Summary) -> bool:
    """Whether the players ended the game by agreement (CONTRACT.md ``ended``)."""
    return score.ended == "agreed"


def _standing_note(score: Sheet, rules: engine.Rules) -> str:
    """Target and next dealer of a game still going."""
    note = f"Game to {rules.game_target}."
    if score.next_dealer is not None:
        note += f" Next dealer: {text(score.next_dealer)}."
    return note


def totals_table(score: Summary, rules: engine.Rules, players: Sequence[str], width: float) -> Table:
    """Credits, boxes won, bonuses and final totals per player, summed like a pad's foot."""
    over = score.game_over
    column = min((width - LABEL_WIDTH) / max(len(players), 1), 34 * mm)
    header = ["", *[name_cell(p, column, bold=True) for p in players]]
    rows: list[list[Any]] = [
        header,
        _row("Credits", score.totals, players),
        _row(f"{vocabulary_for(rules).deals.capitalize()} won", score.boxes_won, players),
    ]
    agreed = stopped_by_agreement(score)
    if over and not agreed:  # stopped by agreement: no bonus of any kind, so no such rows
        if rules.box_bonus or any(score.box_bonuses.values()):
            deal = vocabulary_for(rules).deal
            rows.append(
                _row(f"{deal.capitalize()} bonuses, {rules.box_bonus} a {deal}", score.box_bonuses, players)
            )
        if rules.game_bonus or any(score.game_bonus.values()):
            rows.append(_row("Game bonus", score.game_bonus, players))
        shut = set(score.shutouts)
        if shut:
            rows.append(["Shut out", *["shut out" if p in shut else "" for p in players]])
    if over:
        rows.append(_row("Final total", score.final_totals, players))
    table = Table(rows, colWidths=[LABEL_WIDTH] + [column] * len(players), hAlign="LEFT")
    table.setStyle(_totals_style(len(rows), final=over))
    return table


def _played(score: Sheet, rules: engine.Rules | None = None) -> str:
    """How many boxes were played, as the sheet numbers them (a misdeal takes none), in
    the game's word for a deal.

    >>> from scorekeeper.pdf.boxes import ruled_as
    >>> _played(Sheet(totals={}, boxes=(ruled_as("knock"), ruled_as("misdeal"))))
    '1 box'
    >>> _played(Sheet(totals={}, boxes=(ruled_as("knock"),) * 2), engine.find_rules("gin"))
    '2 hands'
    """
    played = sum(1 for box in score.boxes if box.result != "misdeal")
    return f"{played} {deal_word(rules, plural=played != 1)}"


def _row(label: str, values: Mapping[str, int], players: Sequence[str]) -> list[str]:
    """A labelled row of numbers by player; a player missing from ``values`` gets nothing."""
    return [label, *[words.number(values.get(p)) for p in players]]


def _totals_style(rows: int, *, final: bool) -> TableStyle:
    """Ruling of the totals table; the final total sits under a double rule, as a sum does."""
    commands: list[tuple[Any, ...]] = [
        # Player names over tinted headings.
        ("BACKGROUND", (0, 0), (-1, 0), HEAD),
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, INK),
        # Labels on the left in the body font, numbers right-aligned.
        ("FONT", (0, 1), (-1, -1), FONT, 8.5),
        ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
        *FRAMED_GRID,
    ]
    if final:
        commands += [
            # The final total: bold, on a band, under a double rule.
            ("LINEABOVE", (0, rows - 1), (-1, rows - 1), 1.6, INK),
            ("FONT", (0, rows - 1), (-1, rows - 1), FONT_BOLD, 9),
            ("BACKGROUND", (0, rows - 1), (-1, rows - 1), BAND),
        ]
    return ruled(commands)


def shutout_mark(rules: engine.Rules) -> str:
    """What a payment the shutout changed says: doubled, or a flat amount added (J15).

    >>> shutout_mark(engine.find_rules("gin")), shutout_mark(engine.find_rules("gin")
    ...     .with_settings({"shutout": 50}))
    ('×2 shut out', '+50 shut out')
    """
    return "×2 shut out" if rules.shutout == "double" else f"+{rules.shutout} shut out"


POINTS_WIDTH, AMOUNT_WIDTH = 14 * mm, 20 * mm
"""The settlement's figure columns: "Points" and its number, "−€1,234.56"."""


def settlement_table(
    payments: Sequence[Payment],
    stake: object,
    width: float,
    *,
    currency: str = "",
    shutout_mark: str = "×2 shut out",
) -> Table | None:
    """Who pays whom, in points and, when there is a stake, in money (J16); the one
    payment a shutout changed (a shut-out player's to the winner, J15) says so in words,
    and no other payment of his."""
    if not payments:
        return None
    sheet = styles()
    money = any(p.amount not in (None, 0) for p in payments) or words.stake(stake) != "none"
    shutout = any(p.shutout for p in payments)
    # The figures take what "−€1,234.56" needs; the names the rest, so that two full names
    # (20 characters) keep a payment on one line on A4 beside the chart (they wrapped).
    rest = POINTS_WIDTH + (AMOUNT_WIDTH if money else 0) + 22 * mm * shutout
    name_width = max(24 * mm, min(40 * mm, (width - rest) / 2))
    head = ["Pays", "To", "Points"] + (["Amount"] if money else []) + (["Shutout"] * shutout)
    rows: list[list[Any]] = [[Paragraph(h, sheet.head) for h in head]]
    for payment in payments:
        row = [
            name_cell(payment.payer, name_width),
            name_cell(payment.payee, name_width),
            words.number(payment.points),
        ]
        if money:
            row.append(words.money(payment.amount, currency))
        if shutout:
            row.append(shutout_mark if payment.shutout else "")
        rows.append(row)
    widths = [name_width, name_width, POINTS_WIDTH] + ([AMOUNT_WIDTH] if money else []) + [22 * mm] * shutout
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    table.setStyle(
        ruled(
            [
                # Same ruling as the totals table; points and money right-aligned, money in bold.
                ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                ("LINEBELOW", (0, 0), (-1, 0), 0.9, INK),
                ("FONT", (0, 1), (-1, -1), FONT, 8.5),
                ("FONT", (3, 1), (3, -1), FONT_BOLD, 8.5),
                ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
                *FRAMED_GRID,
            ]
        )
    )
    return table


def net_table(
    payments: Sequence[Payment],
    players: Sequence[str],
    stake: object,
    currency: str,
    width: float | None = None,
) -> Table:
    """Each player's net result: what he takes home (+) or pays out (−) over all payments."""
    sheet = styles()
    points = {p: 0.0 for p in players}
    amounts = {p: 0.0 for p in players}
    for payment in payments:
        for who, sign in ((payment.payer, -1), (payment.payee, 1)):
            if who in points:
                points[who] += sign * float(payment.points or 0)
                amounts[who] += sign * float(payment.amount or 0)
    money = words.stake(stake) != "none" or any(amounts.values())
    label = LABEL_WIDTH if width is None else min(LABEL_WIDTH, 26 * mm)
    column = 30 * mm if width is None else min(30 * mm, (width - label) / max(len(players), 1))
    rows: list[list[Any]] = [
        ["Net result", *[name_cell(p, column, bold=True) for p in players]],
        ["Points", *[words.number(points[p], signed=True) for p in players]],
    ]
    if money:
        rows.append(["Money", *[_signed_money(amounts[p], currency) for p in players]])
    table = Table(rows, colWidths=[label] + [column] * len(players), hAlign="LEFT")
    table.setStyle(
        ruled(
            [
                # As the totals table: names over tinted headings, numbers right-aligned and bold.
                ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                ("LINEBELOW", (0, 0), (-1, 0), 0.9, INK),
                ("FONT", (0, 0), (0, 0), FONT_BOLD, 8.5),
                ("FONT", (0, 1), (-1, -1), FONT_BOLD, 8.5),
                ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                *FRAMED_GRID,
            ]
        )
    )
    _ = sheet
    return table


def _signed_money(value: float, currency: str) -> str:
    """A net amount with its sign: +€8.20, −€8.20, +8.20 CHF.

    >>> _signed_money(8.2, "EUR"), _signed_money(-3, ""), _signed_money(0, "$")
    ('+€8.20', '−3.00', '$0.00')
    """
    shown = words.money(round(value, 2), currency)
    return "+" + shown if round(value, 2) > 0 else shown
