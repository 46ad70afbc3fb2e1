"""Blocks every sheet shares: the title block, rule citations, player names in cells."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from scorekeeper import engine

from . import words
from .cards import suited
from .styles import HEAD, INK, MUTED, PAD, RULE, fitted, styles, text


def name_cell(name: object, column: float, *, bold: bool = False, center: bool = False,
              lines: int = 2) -> Paragraph:
    """A player's name in a column ``column`` wide (padded by ``PAD``): escaped, wrapped,
    shrunk to stay legible."""
    sheet = styles()
    style = sheet.head if bold else (sheet.cell_center if center else sheet.cell)
    markup, fit = fitted(str(name), style, column - 2 * PAD - 0.5, lines=lines)
    return Paragraph(markup, fit)


def title_block(title: str, lines: Sequence[str], fields: Sequence[tuple[str, str]],
                width: float) -> list[Flowable]:
    """The top of page 1: the title, what rules apply, and the pad's form fields."""
    sheet = styles()
    story: list[Flowable] = [Paragraph(text(title), sheet.title)]
    story += [Paragraph(line, sheet.subtitle) for line in lines]
    story.append(Spacer(1, 2.5 * mm))
    story.append(form_fields(fields, width))
    return story


def form_fields(fields: Sequence[tuple[str, str]], width: float) -> Table:
    """Labelled fields side by side, as printed at the head of a paper pad.

    ``fields`` holds (label, markup) pairs; an empty value leaves a line to write on.
    """
    sheet = styles()
    label_style = sheet.small.clone("field-label", textColor=MUTED, fontSize=6.5, leading=8)
    value_style = sheet.body.clone("field-value", fontSize=9, leading=11)
    weights = [max(1.0, min(3.0, len(value) / 16)) for _, value in fields]
    widths = [width * w / sum(weights) for w in weights]
    labels = [Paragraph(text(label).upper(), label_style) for label, _ in fields]
    values = [Paragraph(value or "&nbsp;", value_style) for _, value in fields]
    table = Table([labels, values], colWidths=widths, hAlign="LEFT")
    table.setStyle(TableStyle([
        # A line under each value to write on, with a gap between fields.
        ("LINEBELOW", (0, 1), (-1, 1), 0.6, INK),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3 * mm),
        ("TOPPADDING", (0, 0), (-1, 0), 0),
        ("BOTTOMPADDING", (0, 0), (-1, 0), 0.5),
        ("BOTTOMPADDING", (0, 1), (-1, 1), 2),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
    ]))
    return table


def rule_lines(rules: engine.Rules, custom_title: bool) -> list[str]:
    """The rule set and every setting the game changed from its preset, as markup."""
    line = f"Rules: {text(rules.title)} ({text(rules.name)})"
    if not custom_title:
        line = f"Preset {text(rules.name)}"
    changed = words.changed_settings(rules)
    if not changed:
        return [f"{line}, no settings changed."]
    return [f"{line}; changed from the preset:"] + [f"• {text(c)}" for c in changed]


def citations(items: Sequence[Mapping[str, Any]] | Sequence[Any], width: float) -> Table | None:
    """An explanation: each step with its RULES.md id in a box, so anyone can look it up."""
    sheet = styles()
    rows = []
    for item in items:
        if isinstance(item, Mapping):
            rule, said = item.get("rule", ""), item.get("text", "")
        else:
            rule, said = "", item
        rows.append([Paragraph(text(rule), sheet.rule_id), Paragraph(suited(said), sheet.small)])
    if not rows:
        return None
    table = Table(rows, colWidths=[10 * mm, width - 10 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([
        # The rule id sits in a tinted box at the left of its step.
        ("BACKGROUND", (0, 0), (0, -1), HEAD),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LEFTPADDING", (1, 0), (1, -1), 2 * mm),
    ]))
    return table
