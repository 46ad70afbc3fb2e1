"""The projector's list of the round's tables, each line drawn once per process for
what it shows (issue 34), is the markup the template drew line by line."""

from __future__ import annotations

import jinja2
import pytest

from scorekeeper.engine.substitutes import Substitute
from scorekeeper.engine.vocabulary import TableStatus
from scorekeeper.web import create_app, projector

AS_FIRST_WRITTEN = jinja2.Environment(autoescape=True).from_string(
    """<li class="{{ t.status }}"><span class="table-no">Table {{ t.table }}</span> <span class="state">{{ t.said }}</span>{% if t.boxes %} <span class="boxes">{{ t.boxes }} box{{ 'es' if t.boxes != 1 }}</span>{% endif %}{% for sub in t.substitutes %} <span class="substitute">{{ sub.words() }}</span>{% endfor %}</li>"""  # noqa: E501
)


class Table:
    def __init__(
        self, status: TableStatus, table: int, boxes: int, substitutes: tuple[Substitute, ...]
    ) -> None:
        self.status, self.table, self.boxes, self.substitutes = status, table, boxes, substitutes
        self.said = status.words


@pytest.mark.parametrize("status", list(TableStatus))
@pytest.mark.parametrize("boxes", [0, 1, 7])
@pytest.mark.parametrize(
    "substitutes",
    [(), (Substitute("Bob", "Zed <b>&", 3),), (Substitute("Bob", "Zed", 2), Substitute("Ann", "O'Hara", 4))],
)
def test_a_table_line_is_the_templates(
    status: TableStatus, boxes: int, substitutes: tuple[Substitute, ...]
) -> None:
    table = Table(status, 12, boxes, substitutes)
    with create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "lines-" + "l" * 40}).app_context():
        drawn = projector._table_line(projector.Line(status, 12, boxes, substitutes))
    assert drawn == AS_FIRST_WRITTEN.render(t=table)
    assert "<b>" not in drawn
