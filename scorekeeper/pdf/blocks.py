"""Blocks every sheet shares: the title block, rule citations, player names in cells."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from scorekeeper import engine

from ..engine.contract import Line
from . import words
from .fonts import FONT, markup, shortened, width
from .fonts import width as width_of
from .runon import TextLine
from .styles import FONT_BOLD, HEAD, INK, MUTED, PAD, RULE, fits, fitted_rows, resized, ruled, styles, text


def name_cell(
    name: object, column: float, *, bold: bool = False, lines: int = 2, size: float | None = None
) -> Flowable | str:
    """A player's name in a column ``column`` wide (padded by ``PAD``), at ``size`` when
    the table sets its names larger than the cell style (a ladder's 9.5 points): a name
    in another script's font is drawn apart from the table's font and size.

    A body cell's name that fits one line is a plain string: the table draws
    it as it is, never as markup, and fast. Otherwise a Paragraph of the
    escaped name, wrapped and shrunk to stay legible.
    """
    sheet = styles()
    style = sheet.head if bold else sheet.cell
    if size is not None:
        style = resized(style, size)
    raw, width = str(name), column - 2 * PAD - 0.5
    if not bold and fits(raw, style, width):
        return raw
    rows, fit = fitted_rows(raw, style, width, lines=lines)
    if len(rows) == 1:
        return TextLine(rows[0], fit)
    return Paragraph("<br/>".join(markup(row, fit.fontName) for row in rows), fit)


def short_names(players: Sequence[str], column: float) -> dict[str, str]:
    """Each player's name as a narrow column (a box's dealer, its winner) prints it on one
    line, so an evening of full names keeps one line a box: the name itself when it fits,
    else its first word when no other player's starts so (the seat list above prints
    every name whole), else its initials and seat ("MJ1"), else the name shortened.

    >>> short_names(["Margarethe Johansson", "Bartholomew Ingalls", "Ann"], 22 * mm)
    {'Margarethe Johansson': 'Margarethe', 'Bartholomew Ingalls': 'Bartholomew', 'Ann': 'Ann'}
    >>> short_names(["Ann Marie Smith-Jones", "Ann Lee Wolfeschlegelstein"], 20 * mm)
    {'Ann Marie Smith-Jones': 'AMSJ1', 'Ann Lee Wolfeschlegelstein': 'ALW2'}
    """
    style = styles().cell
    room = column - 2 * PAD - 0.5
    firsts = [(p.split() or [p])[0] for p in players]
    short: dict[str, str] = {}
    for seat, (player, first) in enumerate(zip(players, firsts, strict=True), start=1):
        initials = "".join(part[:1] for part in re.split(r"[\s-]+", player) if part) + str(seat)
        for candidate in (player, first if firsts.count(first) == 1 else "", initials):
            if candidate and width(candidate, FONT, style.fontSize) <= room:
                short[player] = candidate
                break
        else:
            short[player] = shortened(player, FONT, style.fontSize, room)
    return short


def short_cell(name: str, short: Mapping[str, str], column: float) -> Flowable | str:
    """A player's name in a narrow column: its short form (:func:`short_names`)."""
    return name_cell(short.get(name, name), column, lines=1)


def label_cell(label: str, column: float, style: ParagraphStyle | None = None) -> Flowable | str:
    """A short label (an ending) as a plain string when it fits its column, else wrapped."""
    style = style or styles().cell
    room = column - 2 * PAD - 0.5
    if fits(label, style, room):
        return label
    if "\n" not in label and width(label, style.fontName, style.fontSize) <= room:
        # A name in a script of its own, fallback fonts: one line all the same.
        return TextLine(label, style)
    return Paragraph(text(label), style)


def heading_cell(label: str, column: float) -> Paragraph | str:
    """A column's heading (a fixed word or two) as a plain string when it fits its column,
    set by :func:`heading_row`'s commands as the heading style would set it; else wrapped.
    A table draws a string far faster than it lays out a Paragraph."""
    style = styles().head
    if fits(label, style, column - 2 * PAD - 0.5):
        return label
    return Paragraph(label, style)


def heading_row(start: tuple[int, int], stop: tuple[int, int]) -> list[tuple[Any, ...]]:
    """Table style commands that set the plain headings of ``start``..``stop`` (cells of
    :func:`heading_cell`) as the heading style sets a Paragraph: bold, ink, centred."""
    style = styles().head
    return [
        ("FONT", start, stop, style.fontName, style.fontSize, style.leading),
        ("TEXTCOLOR", start, stop, style.textColor),
        ("ALIGN", start, stop, "CENTER"),
    ]


def title_block(
    title: str,
    lines: Sequence[str],
    fields: Sequence[Field],
    width: float,
    aside: tuple[str, Flowable] | None = None,
) -> list[Flowable]:
    """The top of page 1: the title, what rules apply, and the pad's form fields, with
    ``aside`` (a label and a drawing: the QR code to the game's page) at their right."""
    sheet = styles()
    story: list[Flowable] = [Paragraph(text(title), sheet.title)]
    story += [Paragraph(line, sheet.subtitle) for line in lines]
    story.append(Spacer(1, 2.5 * mm))
    story.append(form_fields(fields, width, aside))
    return story


Field = tuple[str, "str | Sequence[tuple[str, str]]"]
"""A form field: its label, and its value as markup or as lines of (markup lead, plain
name), each name printed whole on its line (shrunk, never cut or split into slivers)."""


def _listed(value: str | Sequence[tuple[str, str]]) -> list[str]:
    return [value] if isinstance(value, str) else [lead + name for lead, name in value] or [""]


def _whole_lines(value: Sequence[tuple[str, str]], style: ParagraphStyle, room: float) -> Paragraph:
    """Lines of a lead (a seat number) and a name, each line in the largest size (down to
    6 points) that prints its name whole; only a name wider still is cut."""
    lines = []
    for lead, name in value:
        size = style.fontSize
        while size > 6 and width(_plain(lead) + name, FONT, size) > room:
            size -= 0.5
        shown = markup(shortened(name, FONT, size, room - width(_plain(lead), FONT_BOLD, size)))
        lines.append(
            f"{lead}{shown}" if size == style.fontSize else f'<font size="{size}">{lead}{shown}</font>'
        )
    return Paragraph("<br/>".join(lines), style)


def form_fields(fields: Sequence[Field], width: float, aside: tuple[str, Flowable] | None = None) -> Table:
    """Labelled fields side by side, as printed at the head of a paper pad.

    ``fields`` holds (label, markup) pairs; an empty value leaves a line to write on.
    ``aside`` is a last field of a label and a drawing (a QR code), as wide as the
    drawing, with no line to write on: it stands beside the seat list, never above the
    box table, so it costs the page no height.
    """
    sheet = styles()
    label_style = sheet.small.clone("field-label", textColor=MUTED, fontSize=6.5, leading=8)
    value_style = sheet.body.clone("field-value", fontSize=9, leading=11)
    # Wider fields for longer values; a list of names may take more, to print them whole.
    weights = [
        max(
            1.0,
            min(3.0, len(_plain(value)) / 12)
            if isinstance(value, str)
            else min(4.0, max(len(_plain(v)) for v in _listed(value)) / 11),
        )
        for _, value in fields
    ]
    # A field is never narrower than its longest word: "2026-05-01" beside five other
    # fields was cut into "2026-05-0" and "1" (issue 35's evening of full names), nor
    # than lets it wrap to more lines than the seat list has. The seat list asks for the
    # width of its longest name, so that names print whole; short of it they shrink.
    drawing = aside[1].wrap(width, width)[0] + 3 * mm if aside else 0.0
    shares = [(width - drawing) * w / sum(weights) for w in weights]
    tallest = max((len(_listed(value)) for _, value in fields if not isinstance(value, str)), default=0)

    # Nor narrower than its label, when it has a value (a pad's blank line to write on
    # keeps its share): a label that wraps makes the whole block a line taller.
    def needs(lines: int) -> list[float]:
        return [
            max(
                width_of(label.upper(), FONT, label_style.fontSize) + 3 * mm + 1 if value else 0.0,
                _room_for(value, value_style, lines)
                if isinstance(value, str)
                else _widest(value, value_style),
            )
            for label, value in fields
        ]

    # What keeps a field within the seat list's lines is sought only when a field is short.
    least = needs(1)
    short = any(need > share for need, share in zip(least, shares, strict=True))
    widths = widened(shares, needs(tallest)) if short else shares
    labels: list[Flowable] = [Paragraph(text(label).upper(), label_style) for label, _ in fields]
    values: list[Flowable] = [
        Paragraph(value or "&nbsp;", value_style)
        if isinstance(value, str)
        else _whole_lines(value, value_style, column - 3 * mm)
        for (_, value), column in zip(fields, widths, strict=True)
    ]
    if aside:
        label, flowable = aside
        labels.append(Paragraph(text(label).upper(), label_style))
        values.append(flowable)
        widths.append(drawing)
    table = Table([labels, values], colWidths=widths, hAlign="LEFT")
    table.setStyle(
        ruled(
            [
                # A line under each value to write on, with a gap between fields.
                ("LINEBELOW", (0, 1), (len(fields) - 1, 1), 0.6, INK),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3 * mm),
                ("TOPPADDING", (0, 0), (-1, 0), 0),
                ("BOTTOMPADDING", (0, 0), (-1, 0), 0.5),
                ("BOTTOMPADDING", (0, 1), (-1, 1), 2),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                # The drawing stands at the right margin, level with the fields' tops.
                *(
                    [
                        ("LEFTPADDING", (-1, 0), (-1, -1), 3 * mm),
                        ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
                        ("VALIGN", (-1, 1), (-1, 1), "TOP"),
                    ]
                    if aside
                    else []
                ),
            ]
        )
    )
    return table


def _widest(value: Sequence[tuple[str, str]], style: ParagraphStyle) -> float:
    """The width a list of names asks for: its longest line at full size, padded."""
    size = style.fontSize
    return (
        max(
            (width(_plain(lead), FONT_BOLD, size) + width(name, FONT, size) for lead, name in value),
            default=0.0,
        )
        + 3 * mm
        + 1
    )


def _room_for(value: str, style: ParagraphStyle, lines: int) -> float:
    """The narrowest a field of ``value`` (markup) can be: its longest word, and room to
    keep within ``lines`` lines when that is more than one (found by halving)."""
    # Words as the lines break them: a no-break space (a date and its time) joins its words.
    words_ = re.split(r"[ \t\n]+", html.unescape(re.sub(r"<[^>]*>", "", value)).strip())
    least = max(
        (width_of(word.replace("\xa0", " "), FONT_BOLD, style.fontSize) for word in words_), default=0.0
    )
    least += 3 * mm + 1
    if lines <= 1 or not value:
        return least
    most = width_of(_plain(value), FONT_BOLD, style.fontSize) + 3 * mm + 1
    paragraph = Paragraph(value, style)
    while most - least > 2:
        middle = (least + most) / 2
        _, tall = paragraph.wrap(middle - 3 * mm, 1000)
        if round(tall / style.leading) <= lines:
            most = middle
        else:
            least = middle
    return max(least, most)


def widened(widths: Sequence[float], needs: Sequence[float]) -> list[float]:
    """``widths`` with each narrower than its need widened to it, the room taken from the
    others in proportion to what they have beyond their own needs; when the others cannot
    spare all of it, they give what they spare, shared in proportion to what is short.

    >>> widened([50, 150], [80, 20])
    [80.0, 120.0]
    >>> widened([50, 150], [80, 140])
    [60.0, 140.0]
    """
    short = sum(max(0.0, need - have) for have, need in zip(widths, needs, strict=True))
    spare = sum(max(0.0, have - need) for have, need in zip(widths, needs, strict=True))
    if not short or not spare:
        return list(widths)
    given = min(short, spare)
    return [
        have + (need - have) * given / short if need > have else have - given * (have - need) / spare
        for have, need in zip(widths, needs, strict=True)
    ]


def _plain(markup: str) -> str:
    """What markup reads as, to weigh how wide a field should be.

    >>> _plain("<b>1</b>&nbsp;Ann &amp; Bob")
    '1 Ann & Bob'
    """
    return html.unescape(re.sub(r"<[^>]*>", "", markup)).replace("\xa0", " ")


def rule_lines(rules: engine.Rules, custom_title: bool) -> list[str]:
    """The rule set and every setting the game changed from its preset, as markup."""
    # Under the rule set's own title the line need not name it again.
    line = f"Rules of {text(rules.title)}" if custom_title else "Rules"
    line += " as the book has them"
    changed = words.changed_settings(rules)
    if not changed:
        return [f"{line}, nothing changed."]
    if len(changed) == 1 and len(line + changed[0]) < 100:
        # One change on the line it belongs to: an evening's sheet keeps its one page.
        return [f"{line}, but for one setting. {text(changed[0])}"]
    return [f"{line}, but for:"] + [f"• {text(c)}" for c in changed]


def citations(
    items: Sequence[Line | str],
    width: float,
    rules: engine.Rules | None = None,
    numbers: Mapping[int, str] | None = None,
    currency: str = "",
) -> Table | None:
    """An explanation: each step with its RULES.md id in a box, so anyone can look it up.

    Steps print with the tables' typography (−, ×, suits), and only those citing
    this game's rules (``rules``): no Jersey Gin ids on a Knock Rummy sheet.
    A step that fits one line is drawn as plain text (fast, never markup);
    a longer one wraps in a Paragraph.
    """
    # The working of a game, in the pad's smallest readable size.
    step = styles().small.clone("step", fontSize=7, leading=8.5)
    column = width - 10 * mm
    rows: list[list[Any]] = []
    for item in items:
        if isinstance(item, Line):
            rule, said = item.rule, item.text
        else:
            rule, said = "", str(item)
        if not words.belongs(rule, said, rules):
            continue
        said = words.typeset(said, numbers)
        if currency and rule.startswith("V6"):
            said = words.priced(said, currency)
        rows.append([rule, label_cell(said, column - 2 * mm + PAD, step)])
    if not rows:
        return None
    table = Table(rows, colWidths=[10 * mm, column], hAlign="LEFT")
    table.setStyle(
        ruled(
            [
                # The rule id sits bold in a tinted box at the left of its step.
                ("BACKGROUND", (0, 0), (0, -1), HEAD),
                ("FONT", (0, 0), (0, -1), FONT_BOLD, 7.5),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("FONT", (1, 0), (1, -1), step.fontName, step.fontSize),
                ("TEXTCOLOR", (0, 0), (-1, -1), INK),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.0),
                ("LEFTPADDING", (0, 0), (-1, -1), PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
                ("LEFTPADDING", (1, 0), (1, -1), 2 * mm),
            ]
        )
    )
    return table
