"""A player's season on paper: the figures, boxes won by kind, each rule set, the
points settled game by game, and every game with its final totals.

:func:`render_season` takes the :class:`~scorekeeper.records.Record` of the season's
games and gives the PDF's bytes (records in, bytes out: no Flask, no database); the
page frame, fonts and styles are the score sheet's.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from scorekeeper import chart as data
from scorekeeper import engine
from scorekeeper.engine.vocabulary import vocabulary_for
from scorekeeper.records import Figures, Played, Record, Words, words_of

from . import words
from .blocks import name_cell
from .boxes import box_labels
from .chart import ChartDrawing
from .document import Layout, build
from .meta import installed_version, stamp
from .styles import FRAMED_GRID, HEAD, MARGIN, paper_size, ruled, styles, text

HEADED = (*FRAMED_GRID, ("BACKGROUND", (0, 0), (-1, 0), HEAD))
"""A small table whose first row is its heading."""


def render_season(
    record: Record,
    year: int,
    found: data.Chart,
    *,
    size: str = "A4",
    currency: str = "",
    printed: datetime.datetime | None = None,
    app_version: str | None = None,
) -> bytes:
    """The season ``year`` of ``record`` (its games already those of the season), with
    ``found``, the chart of points settled game by game, as PDF bytes. The footer says
    when it was ``printed`` (default: now) and by which version of scorekeeper."""
    page = paper_size(size)
    width = page[0] - 2 * MARGIN
    title = f"{record.name}: season {year}"
    moment = printed or datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    version = app_version or installed_version()
    layout = Layout(
        page,
        title=title,
        header=f"{record.name} · {year}",
        footer=f"scorekeeper {version} · season summary of {record.name} · printed {stamp(moment)}",
    )
    sheet = styles()
    story: list[Flowable] = [
        Paragraph(text(title), sheet.title),
        Paragraph(text(_span(record.games)), sheet.subtitle),
        Spacer(1, 3 * mm),
    ]
    if not record.games:
        story.append(Paragraph("No game counted in this season.", sheet.body))
        return build(story, layout, subject=title)
    figures = record.overall
    said = words_of(record.games)
    story += [
        _heading("The season in figures"),
        _figures(record, figures, width, currency, said),
        _heading(f"{said.deals.capitalize()} won, by kind"),
        _kinds(figures, width, said),
        _heading("By rule set"),
        _presets(record, width, currency, said),
    ]
    if len(found.lines[0].points) > 1:
        story.append(
            KeepTogether(
                [_heading("Results over the season"), ChartDrawing(found, width, 50 * mm, found.unit)]
            )
        )
    story += [_heading("Every game"), _games(record, width)]
    return build(story, layout, subject=title)


def _heading(words_: str) -> Paragraph:
    return Paragraph(words_, styles().heading)


def _span(games: Sequence[Played]) -> str:
    if not games:
        return ""
    first, last = min(g.day for g in games), max(g.day for g in games)
    count = f"{len(games)} game" + ("" if len(games) == 1 else "s")
    return f"{count}, {first.isoformat()} to {last.isoformat()}"


def _table(rows: list[list[object]], widths: Sequence[float]) -> Table:
    table = Table(rows, colWidths=list(widths), hAlign="LEFT", repeatRows=1)
    table.setStyle(ruled([*HEADED, ("ALIGN", (1, 1), (-1, -1), "RIGHT")]))
    return table


def rules_title(name: str) -> str:
    """A rule set in words: its title, or its name when no preset has it any more.

    >>> rules_title("jersey-scarne"), rules_title("house-special")
    ('Jersey Gin (Scarne)', 'house-special')
    """
    try:
        return engine.find_rules(name).title
    except engine.ScorekeeperError:
        return name


def biggest_box(record: Record, figures: Figures, said: Words) -> str:
    """The biggest box won: its credit, kind, the box's number as its sheet numbers it (a
    misdeal takes no number) and the game's day.

    The record counts every deal, misdeals too; the sheet does not, so a box after a
    misdeal printed one number higher here than on its own sheet.
    """
    big = figures.biggest
    if big is None:
        return "–"
    game = next((g for g in record.games if g.id == big.game), None)
    kind = said.kinds.get(big.kind, big.kind)
    if game is None:
        return f"{big.points} ({kind})"
    labels = box_labels(game.sheet.boxes)
    label = labels[big.number - 1] if 0 < big.number <= len(labels) else str(big.number)
    deal = vocabulary_for(engine.find_rules(game.rules)).deal if _known(game.rules) else "box"
    return f"{big.points} ({kind}, {deal} {label} of {game.day.isoformat()})"


def _known(rules: str) -> bool:
    return rules_title(rules) != rules


def _figures(record: Record, figures: Figures, width: float, currency: str, said: Words) -> Table:
    """Label and value, one figure a row, in the games' words for a deal."""
    deal, deals = said.deal, said.deals
    average = "–" if figures.average_credit is None else f"{figures.average_credit:.1f}"
    biggest = biggest_box(record, figures, said)
    rows: list[list[object]] = [
        ["Figure", "Season"],
        ["Games played", figures.games],
        ["Games won", figures.won],
        [f"{deals.capitalize()} won (of {deals} played)", f"{figures.boxes_won} of {figures.boxes}"],
        [f"Average credit per {deal} won", average],
        [f"Biggest {deal}", biggest],
        [f"Longest run of {deals} won", figures.longest_run],
        ["Shutouts given", figures.shutouts_given],
        ["Shutouts taken", figures.shutouts_taken],
        ["Points settled (won less lost)", words.number(figures.points, signed=True)],
    ]
    if figures.money_by_currency:
        rows.append(["Money won or lost", per_currency(figures, currency)])
    return _table(rows, [width * 0.6, width * 0.4])


def per_currency(figures: Figures, currency: str = "") -> str:
    """The money won or lost, one signed total per currency (a season of dollar, euro and
    unitless games has three), largest first; ``currency`` names the games that named none.

    >>> per_currency(Figures(money_by_currency={"USD": 12.5, "EUR": -3.0, "": 2.45}))
    '+$12.50 · +2.45 · −€3.00'
    """
    return " · ".join(currency_totals(figures, currency))


def currency_totals(figures: Figures, currency: str = "") -> list[str]:
    """:func:`per_currency`'s totals one by one, for a narrow column to set a line each."""
    totals = sorted(figures.money_by_currency.items(), key=lambda item: (-item[1], not item[0], item[0]))
    return [("+" if amount > 0 else "") + words.money(amount, code or currency) for code, amount in totals]


def _kinds(figures: Figures, width: float, said: Words) -> Table:
    kinds = list(said.kinds)
    rows: list[list[object]] = [[said.kinds[k] for k in kinds], [figures.kinds.get(k, 0) for k in kinds]]
    table = Table(rows, colWidths=[width / len(kinds)] * len(kinds), hAlign="LEFT")
    table.setStyle(ruled([*HEADED, ("ALIGN", (0, 0), (-1, -1), "CENTER")]))
    return table


def _presets(record: Record, width: float, currency: str, said: Words) -> Table:
    rows: list[list[object]] = [
        ["Rule set", "Games", "Won", f"{said.deals.capitalize()} won", "Avg credit", "Money"]
    ]
    for name, figures in sorted(record.presets.items()):
        average = "–" if figures.average_credit is None else f"{figures.average_credit:.1f}"
        rows.append(
            [
                name_cell(rules_title(name), width * 0.3),
                figures.games,
                figures.won,
                figures.boxes_won,
                average,
                # A line a currency: three totals on one line ran over "Avg credit".
                "\n".join(currency_totals(figures, currency)) or "–",
            ]
        )
    table = _table(rows, [width * 0.3] + [width * 0.14] * 5)
    table.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP")])
    return table


def _games(record: Record, width: float) -> Table:
    """Date, rule set, every player's final total (the winner first), who won."""
    column = width * 0.52
    rows: list[list[object]] = [["Date", "Rule set", "Players and totals", "Winner"]]
    for game in record.games:
        final = game.final
        shown = " · ".join(
            f"{p} {final.get(p, 0)}" for p in sorted(game.players, key=lambda p: -final.get(p, 0))
        )
        winner = game.sheet.winner or ("in progress" if not game.sheet.game_over else "–")
        rows.append(
            [
                game.day.isoformat(),
                name_cell(rules_title(game.rules), width * 0.18),
                name_cell(shown, column, lines=3),
                name_cell(winner, width * 0.16),
            ]
        )
    table = Table(
        rows, colWidths=[width * 0.14, width * 0.18, column, width * 0.16], hAlign="LEFT", repeatRows=1
    )
    table.setStyle(ruled(HEADED))
    return table
