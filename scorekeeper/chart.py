"""A game's running totals as chart data, and a small black-and-white SVG of them.

Pure standard library, so the web page can inline the SVG (rendered on the
server, no chart library in the browser) and the PDF can draw the same
:class:`Chart` with ReportLab. Players are told apart by line style and by a
label at the end of each line, never by colour, so it reads in greyscale and on
a 390 px phone. Names are escaped: a name is user text.

>>> from scorekeeper.engine.contract import Sheet, SheetBox
>>> def box(result, ann, bob):
...     return SheetBox(result=result, winner=None, points=0, credits={},
...                     totals={"Ann": ann, "Bob": bob})
>>> sheet = Sheet(totals={"Ann": 20, "Bob": 45},
...               boxes=(box("knock", 20, 0), box("misdeal", 20, 0), box("gin", 20, 45)))
>>> (chart,) = charts(["Ann", "Bob"], sheet, target=100)
>>> [(line.player, line.points) for line in chart.lines]
[('Ann', ((0, 0), (1, 20), (2, 20))), ('Bob', ((0, 0), (1, 0), (2, 45)))]
>>> svg(chart).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from scorekeeper.engine.contract import Sheet

DASHES: tuple[tuple[float, ...], ...] = ((), (6, 3), (1.5, 2.5), (8, 3, 2, 3), (12, 4))
"""One line style per seat: solid, dashed, dotted, dash-dot, long dash (on/off lengths)."""
WIDTHS = (2.0, 1.6, 1.8, 1.4, 1.2)
"""Stroke widths by seat, so even two dashed lines differ in weight."""


@dataclass(frozen=True)
class Line:
    """One player's running total: (box played, total) from (0, 0) on."""

    player: str
    points: tuple[tuple[int, int], ...]
    seat: int

    @property
    def dash(self) -> tuple[float, ...]:
        return DASHES[self.seat % len(DASHES)]

    @property
    def stroke(self) -> float:
        return WIDTHS[self.seat % len(WIDTHS)]


@dataclass(frozen=True)
class Chart:
    """Every player's running total against the target, box by box."""

    title: str
    target: int | None
    lines: tuple[Line, ...]
    unit: str = "box"
    """What the horizontal axis counts (a player's record counts games)."""

    @property
    def boxes(self) -> int:
        return max((line.points[-1][0] for line in self.lines), default=0)

    @property
    def low(self) -> int:
        return min([0, *(y for line in self.lines for _, y in line.points)])

    @property
    def high(self) -> int:
        """The top of the scale: the target, unless it is so far off that the lines would
        be flat along the bottom (a game to 5000 after ten boxes)."""
        top = max([1, *(y for line in self.lines for _, y in line.points)])
        target = self.target or 0
        return max(top, target) if target <= 2 * top else top

    @property
    def target_in_view(self) -> bool:
        return bool(self.target) and (self.target or 0) <= self.high

    @property
    def caption(self) -> str:
        """The title, saying where the target is when it is off the scale."""
        if self.target and not self.target_in_view:
            return f"{self.title} (game to {self.target})"
        return self.title


def charts(
    players: Sequence[str], sheet: Sheet, *, target: int | None = None, unit: str = "box"
) -> list[Chart]:
    """The chart of a game (Hollywood: one per game column) from its score sheet.

    A misdeal is no box, so it takes no step on the box axis.
    """
    boxes = [box for box in sheet.boxes if box.result != "misdeal"]
    if not sheet.games:
        return [_chart("Running totals", target, players, [box.totals for box in boxes], unit)]
    result = []
    for column in range(1, len(sheet.games) + 1):
        entered = [
            box.column_totals[column - 1]
            for box in boxes
            if column in box.columns and column <= len(box.column_totals)
        ]
        result.append(_chart(f"Game {column}", target, players, entered, unit))
    return result


def _chart(
    title: str,
    target: int | None,
    players: Sequence[str],
    totals: Sequence[Mapping[str, int]],
    unit: str = "box",
) -> Chart:
    lines = []
    for seat, player in enumerate(players):
        points = [(0, 0)] + [(n, t.get(player, 0)) for n, t in enumerate(totals, start=1)]
        lines.append(Line(player, tuple(points), seat))
    return Chart(title, target, tuple(lines), unit)


def label_rows(ends: Sequence[float], gap: float) -> list[float]:
    """End-label heights pushed apart by at least ``gap``, keeping their order.

    >>> label_rows([10, 11, 50], 8)
    [6.5, 14.5, 50.0]
    """
    order = sorted(range(len(ends)), key=lambda i: ends[i])
    placed = [float(ends[i]) for i in order]
    for _ in range(len(placed)):
        for k in range(1, len(placed)):
            overlap = gap - (placed[k] - placed[k - 1])
            if overlap > 0:
                placed[k - 1] -= overlap / 2
                placed[k] += overlap / 2
    result = [0.0] * len(ends)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


def short(name: str, limit: int = 12) -> str:
    """A name cut for an end label; the whole name is in the player list.

    >>> short("Maximiliano Hohenzollern"), short("Ann")
    ('Maximiliano…', 'Ann')
    """
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def svg(chart: Chart, *, width: int = 360, height: int = 180) -> str:
    """The chart as an inline SVG string, black on white, scaled to its container's width."""
    left, right, top, bottom = 34, 84, 24, 22
    plot_w, plot_h = width - left - right, height - top - bottom
    low, high = chart.low, chart.high
    span_x = max(chart.boxes, 1)

    def x(box: float) -> float:
        return round(left + plot_w * box / span_x, 1)

    def y(total: float) -> float:
        return round(top + plot_h * (high - total) / (high - low), 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label={quoteattr(_summary(chart))} '
        'font-family="sans-serif" font-size="11" fill="#000">',
        f"<title>{escape(_summary(chart))}</title>",
        f'<text x="{left}" y="12" font-weight="bold">{escape(chart.caption)}</text>',
        f'<path d="M{left} {top}V{top + plot_h}H{left + plot_w}" fill="none" '
        'stroke="#000" stroke-width="1"/>',
        f'<text x="{left - 4}" y="{y(high) + 4}" text-anchor="end">{high}</text>',
        f'<text x="{left - 4}" y="{y(low) + 4}" text-anchor="end">{low}</text>',
        f'<text x="{left + plot_w}" y="{height - 6}" text-anchor="end">'
        f"{escape(chart.unit)} {chart.boxes}</text>",
    ]
    if chart.target and chart.target_in_view:
        out.append(
            f'<path d="M{left} {y(chart.target)}H{left + plot_w}" stroke="#000" '
            'stroke-width="0.6" stroke-dasharray="2 2" fill="none"/>'
        )
        out.append(
            f'<text x="{left + plot_w - 2}" y="{y(chart.target) - 3}" font-size="9" '
            f'text-anchor="end">target {chart.target}</text>'
        )
    ends = label_rows([y(line.points[-1][1]) for line in chart.lines], 12)
    for line, end in zip(chart.lines, ends, strict=True):
        path = " ".join(
            f"{'M' if n == 0 else 'L'}{x(bx)} {y(total)}" for n, (bx, total) in enumerate(line.points)
        )
        dash = f' stroke-dasharray="{" ".join(f"{d:g}" for d in line.dash)}"' if line.dash else ""
        out.append(f'<path d="{path}" fill="none" stroke="#000" stroke-width="{line.stroke:g}"{dash}/>')
        last_x, last_y = x(line.points[-1][0]), y(line.points[-1][1])
        out.append(
            f'<path d="M{last_x} {last_y}L{last_x + 6} {end}H{last_x + 14}" '
            f'stroke="#000" stroke-width="{line.stroke:g}"{dash} fill="none"/>'
        )
        out.append(
            f'<text x="{last_x + 16}" y="{end + 4}">{escape(short(line.player))} {line.points[-1][1]}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _summary(chart: Chart) -> str:
    """What the chart shows, in words, for a screen reader."""
    ends = ", ".join(f"{line.player} {line.points[-1][1]}" for line in chart.lines)
    target = f" against the target {chart.target}" if chart.target else ""
    plural = "boxes" if chart.unit == "box" else f"{chart.unit}s"
    return f"{chart.title}{target} after {chart.boxes} {plural}: {ends}"
