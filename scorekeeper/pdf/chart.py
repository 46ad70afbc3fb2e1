"""The chart of a game on the sheet: the same data as the web's SVG, drawn with ReportLab.

Black lines told apart by dash pattern and weight, each labelled with its
player at its end, the target as a dotted rule: it reads printed in greyscale.
Hollywood gets one small chart per game column, side by side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.graphics.shapes import Drawing, Line, PolyLine, String
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Table, TableStyle

from scorekeeper import chart as data
from scorekeeper import engine

from .fonts import FONT, FONT_BOLD, runs, shortened, visual
from .styles import INK, MUTED, styles


def chart_section(score: Mapping[str, Any], rules: engine.Rules, players: Sequence[str],
                  width: float, game: Mapping[str, Any] | None = None) -> list[Flowable]:
    """The chart(s) under the box table, kept with their heading; nothing before a box."""
    if not score.get("boxes"):
        return []
    found = data.charts(game or {"players": list(players)}, score, target=rules.game_target)
    per_row = 1 if len(found) == 1 else min(3, len(found))
    each = width / per_row
    height = 46 * mm if per_row == 1 else 40 * mm
    drawings = [drawing(c, each - 2 * mm, height) for c in found]
    rows = [drawings[i:i + per_row] for i in range(0, len(drawings), per_row)]
    cells: list[list[Drawing | str]] = [list(row) for row in rows]
    cells[-1] += [""] * (per_row - len(cells[-1]))
    table = Table(cells, colWidths=[each] * per_row, hAlign="LEFT")
    table.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
    heading = Paragraph("The game box by box" if per_row == 1 else "The games box by box",
                        styles().heading)
    return [KeepTogether([heading, table])]


def drawing(found: data.Chart, width: float, height: float) -> Drawing:
    """One chart as a ReportLab drawing ``width`` × ``height`` points."""
    left, right, top, bottom = 24.0, 66.0, 12.0, 12.0
    plot_w, plot_h = width - left - right, height - top - bottom
    low, high, span = found.low, found.high, max(found.boxes, 1)

    def x(box: float) -> float:
        return left + plot_w * box / span

    def y(total: float) -> float:
        return bottom + plot_h * (total - low) / (high - low)

    art = Drawing(width, height)
    art.add(String(left, height - 8, visual(found.title), fontName=FONT_BOLD, fontSize=7.5,
                   fillColor=INK))
    art.add(PolyLine([left, height - top, left, bottom, left + plot_w, bottom],
                     strokeColor=INK, strokeWidth=0.6))
    for value in {low, high}:
        art.add(String(left - 2, y(value) - 2.5, str(value).replace("-", "−"), fontName=FONT,
                       fontSize=6.5, textAnchor="end", fillColor=MUTED))
    art.add(String(left + plot_w, 2, f"box {found.boxes}", fontName=FONT, fontSize=6.5,
                   textAnchor="end", fillColor=MUTED))
    if found.target:
        art.add(Line(left, y(found.target), left + plot_w, y(found.target), strokeColor=INK,
                     strokeWidth=0.4, strokeDashArray=[1, 1.5]))
        art.add(String(left + 2, y(found.target) + 2, f"target {found.target}", fontName=FONT,
                       fontSize=6, fillColor=MUTED))
    ends = data.label_rows([y(line.points[-1][1]) for line in found.lines], 8)
    for line, end in zip(found.lines, ends, strict=True):
        _plot(art, line, end, x, y)
    return art


def _plot(art: Drawing, line: data.Line, end: float, x: Any, y: Any) -> None:
    """One player's line, a leader to his label, and the label: name and total."""
    dash: dict[str, Any] = {"strokeDashArray": list(line.dash)} if line.dash else {}
    stroke = line.stroke * 0.6
    points = [v for bx, total in line.points for v in (x(bx), y(total))]
    art.add(PolyLine(points, strokeColor=INK, strokeWidth=stroke, **dash))
    last_x, last_y = points[-2], points[-1]
    art.add(PolyLine([last_x, last_y, last_x + 4, end, last_x + 12, end], strokeColor=INK,
                     strokeWidth=stroke, **dash))
    label = f"{shortened(line.player, FONT, 6.5, 38)} {line.points[-1][1]}".replace("-", "−")
    _runs(art, last_x + 14, end - 2.3, label, 6.5)


def _runs(art: Drawing, x: float, y: float, shown: str, size: float) -> None:
    """Text already in visual order, each run in the font of the fallback chain that has it."""
    for name, piece in runs(shown, FONT):
        art.add(String(x, y, piece, fontName=name, fontSize=size, fillColor=INK))
        x += pdfmetrics.stringWidth(piece, name, size)
