"""The chart of a game on the sheet: the same data as the web's SVG, drawn with ReportLab.

Black lines told apart by dash pattern and weight, each labelled with its
player at its end, the target as a dotted rule: it reads printed in greyscale.
Hollywood gets one small chart per game column, side by side.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Table

from scorekeeper import chart as data
from scorekeeper import engine
from scorekeeper.engine.contract import Sheet
from scorekeeper.engine.vocabulary import vocabulary_for

from . import fonts
from .fonts import FONT, FONT_BOLD, shortened
from .styles import INK, MUTED, ruled, styles


def chart_section(score: Sheet, rules: engine.Rules, players: Sequence[str], width: float) -> list[Flowable]:
    """The chart(s) under the box table, kept with their heading; nothing before a box."""
    if not score.boxes:
        return []
    found = data.charts(players, score, target=rules.game_target, unit=vocabulary_for(rules).deal)
    per_row = 1 if len(found) == 1 else min(3, len(found))
    each = width / per_row
    height = 46 * mm if per_row == 1 else 40 * mm
    deal = vocabulary_for(rules).deal
    drawings = [ChartDrawing(c, each - 2 * mm, height, deal) for c in found]
    rows = [drawings[i : i + per_row] for i in range(0, len(drawings), per_row)]
    cells: list[list[Flowable | str]] = [list(row) for row in rows]
    cells[-1] += [""] * (per_row - len(cells[-1]))
    table = Table(cells, colWidths=[each] * per_row, hAlign="LEFT")
    table.setStyle(ruled([("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
    heading = Paragraph(f"The game{'' if per_row == 1 else 's'} {deal} by {deal}", styles().heading)
    return [KeepTogether([heading, table])]


def chart_beside(
    score: Sheet, rules: engine.Rules, players: Sequence[str]
) -> Callable[[float, float], list[Flowable]] | None:
    """The one chart of a game, to stand beside the end tables (``width`` × ``height``
    with its heading); None before a box or for a game of several charts."""
    if not score.boxes:
        return None
    found = data.charts(players, score, target=rules.game_target)
    if len(found) != 1:
        return None
    deal = vocabulary_for(rules).deal

    def beside(width: float, height: float) -> list[Flowable]:
        heading = Paragraph(f"The game {deal} by {deal}", styles().heading)
        tall = heading.wrap(width, height)[1] + heading.getSpaceBefore() + heading.getSpaceAfter()
        return [heading, ChartDrawing(found[0], width, height - tall, deal)]

    return beside


def _clear(found: data.Chart, x: Any, y: Any, span: tuple[float, float], base: float) -> bool:
    """Whether no player's line passes through the box of a 6-point label standing on
    ``base`` across ``span`` (points of the plot, ``x`` and ``y`` its scales)."""
    low, high = base, base + 8
    for line in found.lines:
        points = [(x(box), y(total)) for box, total in line.points]
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            if x1 < span[0] or x0 > span[1]:
                continue
            # The segment's height where it meets the label's span, and at its ends inside it.
            ends = [min(max(span[0], x0), x1), max(min(span[1], x1), x0)]
            heights = [y0 + (y1 - y0) * (at - x0) / (x1 - x0) if x1 != x0 else y0 for at in ends]
            if min(heights) <= high and max(heights) >= low:
                return False
    return True


class ChartDrawing(Flowable):
    """One chart drawn straight on the canvas, ``width`` × ``height`` points, in the
    embedded fonts (a ReportLab Drawing would reference unembedded Helvetica)."""

    def __init__(self, found: data.Chart, width: float, height: float, deal: str = "box") -> None:
        super().__init__()
        self.found, self.width, self.height, self.deal = found, width, height, deal

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        found, canvas = self.found, self.canv
        left, right, top, bottom = 24.0, 66.0, 16.0, 12.0
        plot_w, plot_h = self.width - left - right, self.height - top - bottom
        low, high, span = found.low, found.high, max(found.boxes, 1)

        def x(box: float) -> float:
            return left + plot_w * box / span

        def y(total: float) -> float:
            return bottom + plot_h * (total - low) / (high - low)

        canvas.saveState()
        canvas.setFillColor(INK)
        fonts.draw(canvas, left, self.height - 8, found.caption, FONT_BOLD, 7.5)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.6)
        canvas.lines([(left, self.height - top, left, bottom), (left, bottom, left + plot_w, bottom)])
        canvas.setFillColor(MUTED)
        canvas.setFont(FONT, 6.5)
        for value in sorted({low, high}):
            canvas.drawRightString(left - 2, y(value) - 2.5, str(value).replace("-", "−"))
        canvas.drawRightString(left + plot_w, 2, f"{self.deal} {found.boxes}")
        if found.target and found.target_in_view:
            canvas.setLineWidth(0.4)
            canvas.setDash([1, 1.5])
            canvas.line(left, y(found.target), left + plot_w, y(found.target))
            canvas.setFont(FONT, 6)
            label = f"target {found.target}"
            wide = fonts.width(label, FONT, 6)
            # At the plot's left, where running totals start low, unless a line passes
            # there: at its right a leader's line ran through it (issue 35).
            at = left + 2 if _clear(found, x, y, (left + 1, left + 3 + wide), y(found.target)) else None
            if at is None:
                at = left + plot_w - 2 - wide
            canvas.drawString(at, y(found.target) + 2, label)
        ends = data.label_rows([y(line.points[-1][1]) for line in found.lines], 8)
        for line, end in zip(found.lines, ends, strict=True):
            self._plot(line, end, x, y)
        canvas.restoreState()

    def _plot(self, line: data.Line, end: float, x: Any, y: Any) -> None:
        """One player's line, a leader to his label, and the label: name and total."""
        canvas = self.canv
        canvas.setDash(list(line.dash) or [])
        canvas.setLineWidth(line.stroke * 0.6)
        canvas.setStrokeColor(INK)
        points = [(x(bx), y(total)) for bx, total in line.points]
        last_x = points[-1][0]
        points += [(last_x + 4, end), (last_x + 12, end)]
        path = canvas.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.setFillColor(INK)
        total = str(line.points[-1][1]).replace("-", "−")
        label = f"{shortened(line.player, FONT, 6.5, 38)} {total}"
        fonts.draw(canvas, last_x + 14, end - 2.3, label, FONT, 6.5)
