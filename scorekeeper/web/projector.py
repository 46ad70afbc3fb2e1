"""The projector's list of the round's tables, each line drawn once per process for
what it shows (issue 34).

A projector's page is drawn again for every new state of the event, and at a
300-table evening its list of the round's tables was 300 lines through the template
(escaping each value) for every box, which changes one table. Each line is drawn here
once for its table's number, status, boxes and substitutes, and the lines joined.
"""

from __future__ import annotations

import functools

from markupsafe import Markup, escape

from ..engine.substitutes import Substitute
from ..engine.vocabulary import TableStatus
from .eventdata import EventView

LINES = 4096
"""Table lines kept drawn per process (a hundred bytes each)."""


def table_lines(event: EventView, number: int) -> Markup:
    """The ``<li>`` of each table of round ``number``, each on a line of its own."""
    return Markup(
        "".join(
            f"\n        {_table_line(t.status, t.table, t.boxes, t.substitutes)}\n      "
            for t in event.round_tables(number)
        )
    )


@functools.lru_cache(maxsize=LINES)
def _table_line(status: TableStatus, table: int, boxes: int, substitutes: tuple[Substitute, ...]) -> str:
    shown = f' <span class="boxes">{boxes} box{"es" if boxes != 1 else ""}</span>' if boxes else ""
    subs = "".join(f' <span class="substitute">{escape(sub.words())}</span>' for sub in substitutes)
    return (
        f'<li class="{escape(status)}"><span class="table-no">Table {table}</span> '
        f'<span class="state">{escape(status.words)}</span>{shown}{subs}</li>'
    )
