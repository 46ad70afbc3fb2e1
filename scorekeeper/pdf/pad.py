"""Blank score pads to print for a game played on paper.

One page, ruled for handwriting: the form fields at the top, a row per box,
the end-of-game sums at the foot, and the rule set's key numbers up the
margin. Jersey Gin and Knock Rummy get a column group per player, two-hand Gin
two groups, Hollywood its three games side by side.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from scorekeeper import engine

from . import words
from .blocks import title_block
from .document import Layout, build
from .sheet import box_widths
from .styles import (
    BAND,
    FONT,
    FONT_BOLD,
    HEAD,
    INK,
    MARGIN,
    MUTED,
    RULE,
    paper_size,
    styles,
    text,
)

ROW = 7.2 * mm
"""A body row: room for handwriting."""
HEAD_ROW = 5 * mm
FOOT_ROW = 6.6 * mm


def render_blank_pad(rules: str, *, players: int | None = None, page_size: str = "A4") -> bytes:
    """A one-page blank score pad for the preset ``rules`` as PDF bytes.

    ``players`` defaults to the game's usual number (three for Jersey Gin, two
    for Gin and Hollywood, four for Knock Rummy) and must be one the rules allow.
    """
    preset = engine.find_rules(rules)
    seats = _seats(preset, players)
    size = paper_size(page_size, landscape=seats >= 4 and not preset.hollywood)
    note = f"{preset.title}:  " + "   ·   ".join(
        f"{label} {value}" for label, value in words.key_numbers(preset))
    layout = Layout(size, title=f"{preset.title} score pad", margin_note=note,
                    footer=f"scorekeeper · blank {preset.title} pad ({preset.name})")
    width = size[0] - layout.left_margin - MARGIN
    height = size[1] - 2 * MARGIN - 5 * mm
    story = _pad_title(preset, seats, width)
    room = height - sum(f.wrap(width, height)[1] for f in story) - 4 * mm
    if preset.hollywood:
        story.append(hollywood_pad(preset, width, room))
    else:
        story.append(box_pad(preset, seats, width, room))
    return build(story, layout, subject=f"Blank score pad: {preset.title}")


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
        allowed = (f"{preset.min_players}" if preset.min_players == preset.max_players
                   else f"{preset.min_players} to {preset.max_players}")
        raise ValueError(f"{preset.title} is for {allowed} players, not {players}")
    return players


def _pad_title(preset: engine.Rules, seats: int, width: float) -> list[Flowable]:
    """Title and the fields a table fills in before the first deal."""
    line = (f"Preset {text(preset.name)}. Key numbers: "
            + "; ".join(f"{text(k)} {text(v)}" for k, v in words.key_numbers(preset)) + ".")
    blanks = "&nbsp;" * 22
    seat_line = " ".join(f"{n}.{blanks}" for n in range(1, seats + 1))
    fields = [("Date", ""), ("Players in seat order", seat_line), ("First dealer", ""),
              ("Stake a point", "")]
    return [*title_block(f"{preset.title} score pad", [line], fields, width), Spacer(1, 3 * mm)]


def _body_rows(room: float, fixed: list[float]) -> int:
    """How many handwriting rows fit the page beside the headings and the foot."""
    return max(5, int((room - sum(fixed)) // ROW))


def box_pad(preset: engine.Rules, seats: int, width: float, room: float) -> Table:
    """The ruled box table of Jersey Gin, two-hand Gin and Knock Rummy, with its foot."""
    sheet = styles()
    widths = box_widths(seats, width)
    top: list[Any] = [Paragraph(h, sheet.head) for h in ("Box", "Dealer", "Ending", "By")]
    sub: list[Any] = ["", "", "", ""]
    for seat in range(1, seats + 1):
        top += [Paragraph(f"seat {seat}", sheet.head.clone("seat", textColor=MUTED)), "", ""]
        sub += [Paragraph(h, sheet.head) for h in ("count", "box", "total")]
    foot = _foot_labels(preset)
    heads, feet = [HEAD_ROW * 1.6, HEAD_ROW], [FOOT_ROW] * len(foot)
    body = _body_rows(room, heads + feet)
    rows = [top, sub, *[[str(n)] + [""] * (len(widths) - 1) for n in range(1, body + 1)]]
    rows += [[label, "", "", ""] + [""] * (3 * seats) for label in foot]
    heights = heads + [ROW] * body + feet
    table = Table(rows, colWidths=widths, rowHeights=heights, hAlign="LEFT")
    table.setStyle(_box_pad_style(seats, body, len(foot)))
    return table


def _foot_labels(preset: engine.Rules) -> list[str]:
    """The sums at the foot of the pad, with the rule set's numbers filled in."""
    labels = ["Credits"]
    if preset.box_bonus:
        labels.append(f"Box bonuses: boxes won × {preset.box_bonus}")
    if preset.game_bonus:
        labels.append(f"Game bonus: {preset.game_bonus} to the winner")
    labels += ["Final total", "Settlement (J16)" if preset.family == "jersey" else "Settlement"]
    return labels


def _box_pad_style(seats: int, body: int, feet: int) -> TableStyle:
    """Ruling of the blank pad: the box table's look, with the foot summed per player."""
    first_foot = 2 + body
    commands: list[tuple[Any, ...]] = [
        # Headings as on the score sheet.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        ("LINEBELOW", (0, 1), (-1, 1), 1.0, INK),
        *[("SPAN", (c, 0), (c, 1)) for c in range(4)],
        *[("SPAN", (4 + 3 * p, 0), (6 + 3 * p, 0)) for p in range(seats)],
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        # Box numbers small and grey in their column, ready for the rows.
        ("FONT", (0, 2), (0, first_foot - 1), FONT, 7),
        ("TEXTCOLOR", (0, 2), (0, first_foot - 1), MUTED),
        ("ALIGN", (0, 2), (0, -1), "CENTER"),
        # Ruling: light inside, heavy round the pad and before each player.
        ("INNERGRID", (0, 0), (-1, -1), 0.3, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, INK),
        *[("LINEBEFORE", (4 + 3 * p, 0), (4 + 3 * p, -1), 0.9, INK) for p in range(seats)],
        # The foot: a double rule above, labels across the first four columns,
        # one sum per player across his three columns.
        ("LINEABOVE", (0, first_foot), (-1, first_foot), 1.6, INK),
        ("BACKGROUND", (0, first_foot), (-1, -1), BAND),
        ("FONT", (0, first_foot), (-1, -1), FONT_BOLD, 7.5),
        *[("SPAN", (0, r), (3, r)) for r in range(first_foot, first_foot + feet)],
        *[("SPAN", (4 + 3 * p, r), (6 + 3 * p, r))
          for r in range(first_foot, first_foot + feet) for p in range(seats)],
    ]
    # Every other row tinted, like the ruled body of a paper pad.
    commands += [("BACKGROUND", (0, r), (-1, r), BAND) for r in range(3, first_foot, 2)]
    return TableStyle(commands)


def hollywood_pad(preset: engine.Rules, width: float, room: float) -> Table:
    """Three games side by side, two columns each, like a paper Hollywood pad (V3)."""
    sheet = styles()
    games = preset.hollywood_columns
    number = 30 * mm
    column = (width - number) / (2 * games)
    top: list[Any] = [Paragraph("Entry", sheet.head)]
    sub: list[Any] = [""]
    for game in range(1, games + 1):
        top += [Paragraph(f"Game {game} · to {preset.game_target}", sheet.head), ""]
        sub += [Paragraph(h, sheet.head.clone("seat", textColor=MUTED))
                for h in ("player 1", "player 2")]
    foot = [f"Box bonuses × {preset.box_bonus}", f"Game bonus {preset.game_bonus}",
            "Final total", "Difference"]
    heads, feet = [HEAD_ROW * 1.4, HEAD_ROW], [FOOT_ROW * 1.25] * len(foot)
    body = _body_rows(room, heads + feet)
    rows = [top, sub, *[[str(n)] + [""] * (2 * games) for n in range(1, body + 1)]]
    rows += [[label] + [""] * (2 * games) for label in foot]
    heights = heads + [ROW] * body + feet
    table = Table(rows, colWidths=[number] + [column] * (2 * games), rowHeights=heights,
                  hAlign="LEFT")
    first_foot = 2 + body
    commands: list[tuple[Any, ...]] = [
        # Game headings span their two columns; player names are written under them.
        ("BACKGROUND", (0, 0), (-1, 1), HEAD),
        *[("SPAN", (1 + 2 * g, 0), (2 + 2 * g, 0)) for g in range(games)],
        ("SPAN", (0, 0), (0, 1)),
        ("LINEBELOW", (0, 1), (-1, 1), 1.0, INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("FONT", (0, 2), (0, first_foot - 1), FONT, 7),
        ("TEXTCOLOR", (0, 2), (0, first_foot - 1), MUTED),
        ("ALIGN", (0, 2), (0, first_foot - 1), "CENTER"),
        # Light ruling, a heavy rule between games, a frame round the pad.
        ("INNERGRID", (0, 0), (-1, -1), 0.3, RULE),
        ("BOX", (0, 0), (-1, -1), 1.0, INK),
        *[("LINEBEFORE", (1 + 2 * g, 0), (1 + 2 * g, -1), 1.2, INK) for g in range(games)],
        # The foot under a double rule: one line per sum, each game's written beside it.
        ("LINEABOVE", (0, first_foot), (-1, first_foot), 1.6, INK),
        ("BACKGROUND", (0, first_foot), (-1, -1), BAND),
        ("FONT", (0, first_foot), (0, -1), FONT_BOLD, 7),
    ]
    commands += [("BACKGROUND", (0, r), (-1, r), BAND) for r in range(3, first_foot, 2)]
    table.setStyle(TableStyle(commands))
    return table
