"""The projector's list of the round's tables, each line drawn once per process for
what it shows (issue 34).

A projector's page is drawn again for every new state of the event, and at a
300-table evening its list of the round's tables was 300 lines through the template
(escaping each value) for every box, which changes one table. Each line
(``templates/events/_table_line.html``) is drawn here once for its table's number,
status, boxes and substitutes, and the lines joined, as
:func:`.eventdata.standing_rows` does for the standings.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from flask import current_app
from markupsafe import Markup

from ..engine.substitutes import Substitute
from ..engine.vocabulary import TableStatus
from . import standings
from .eventdata import EventView, TableView

LINES = 4096
"""Table lines kept drawn per process (a hundred bytes each)."""


class Line(NamedTuple):
    """What a table's line shows."""

    status: TableStatus
    table: int
    boxes: int
    substitutes: tuple[Substitute, ...]


def table_lines(event: EventView, number: int) -> Markup:
    """The ``<li>`` of each table of round ``number``, each on a line of its own: found
    by the table (a new state keeps every table whose kept row did not change:
    :func:`scorekeeper.ledger.events.table_states`), else by what it shows."""
    drawn = current_app.extensions.get("scorekeeper.table_lines")
    if drawn is None:
        drawn = current_app.extensions.setdefault(
            "scorekeeper.table_lines",
            (standings.ByIdentity[str](LINES), functools.lru_cache(maxsize=LINES)(_table_line)),
        )
    by_table, by_values = drawn

    def draw(t: TableView) -> str:
        return f"\n        {by_values(Line(t.status, t.table, t.boxes, t.substitutes))}\n      "

    return Markup("".join(by_table.each(event.round_tables(number), None, draw)))


def _table_line(line: Line) -> str:
    return current_app.jinja_env.get_template("events/_table_line.html").render(t=line)
