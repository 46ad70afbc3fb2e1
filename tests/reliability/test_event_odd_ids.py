"""An event id or a game id with a NUL, or longer than any id, is no event and no game
on either database: PostgreSQL refuses NUL in text (a 500 if it were asked), so the
event's reads refuse such an id before asking, as ``get_event`` and ``get_game`` do."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from scorekeeper import store
from scorekeeper.web import create_app

ODD_IDS = ("a\x00b", "\x00", "e" * 33)


@pytest.mark.parametrize("odd", ODD_IDS)
def test_the_event_reads_answer_none_for_an_odd_id(database_url: str, odd: str) -> None:
    engine_ = store.connect(database_url)
    try:
        with Session(engine_) as db:
            assert store.events.event_stamp(db, odd) is None
            assert store.events.event_of_game(db, odd) is None
            assert store.events.get_event(db, odd) is None
    finally:
        engine_.dispose()


def test_standings_and_game_pages_of_an_odd_id_are_404(database_url: str) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "odd-ids-" + "n" * 40})
    client = app.test_client()
    try:
        # a phone that directs an event asks, for any game, whether it directs it
        with client.session_transaction() as kept:
            kept["direct"] = {"someevent": "sometoken"}
        for url, headers in (
            ("/events/%00/standings", {}),
            ("/events/a%00b/standings", {"HX-Request": "true"}),
            (f"/events/{'e' * 40}/standings", {}),
            ("/games/a%00b", {}),
            ("/games/%00/sheet?since=1", {"HX-Request": "true"}),
        ):
            response = client.get(url, headers=headers)
            assert response.status_code == 404, (url, response.status_code)
    finally:
        app.extensions["scorekeeper.store"].kw["bind"].dispose()
