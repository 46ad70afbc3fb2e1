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
from .eventdata import EventView

LINES = 4096
"""Table lines kept drawn per process (a hundred bytes each)."""


class Line(NamedTuple):
    """What a table's line shows."""

    status: TableStatus
    table: int
    boxes: int
    substitutes: tuple[Substitute, ...]


def table_lines(event: EventView, number: int) -> Markup:
    """The ``<li>`` of each table of round ``number``, each on a line of its own."""
    drawn = current_app.extensions.get("scorekeeper.table_lines")
    if drawn is None:
        drawn = current_app.extensions.setdefault(
            "scorekeeper.table_lines", functools.lru_cache(maxsize=LINES)(_table_line)
        )
    lines = (drawn(Line(t.status, t.table, t.boxes, t.substitutes)) for t in event.round_tables(number))
    return Markup("".join(f"\n        {line}\n      " for line in lines))


def _table_line(line: Line) -> str:
    return current_app.jinja_env.get_template("events/_table_line.html").render(t=line)
