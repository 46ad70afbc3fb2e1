"""The event's director corrects and deletes boxes at a table whose game was ended (closed
with its round, by agreement) through the ordinary box routes (issue 25: "the director
corrects or deletes any box"), kept in the box's history; a phone without the right
cannot."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import box_form, totals, version_of
from tests.web.test_event_pages import start_event, tables_of


def test_the_director_corrects_and_deletes_a_box_after_the_round_closed(
    app: Flask, client: FlaskClient
) -> None:
    event_id = start_event(client)  # this phone directs the event
    game_id, players = tables_of(client, event_id)[0]
    for by in (0, 1):
        recorded = client.post(
            f"/games/{game_id}/boxes/new",
            data=box_form(
                version_of(client, game_id), by=players[by], counts={0: 20, 1: 25, 2: 30} | {by: 5}
            ),
        )
        assert recorded.status_code in (200, 303)
    closed = client.post(f"/events/{event_id}/close", data={"round": "1", "force": "y"})
    assert closed.status_code == 303
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ended by agreement" in sheet
    first, second = dict.fromkeys(re.findall(rf"/games/{game_id}/boxes/(\d+)", sheet))
    before = totals(client, game_id)
    corrected = client.post(
        f"/games/{game_id}/boxes/{first}/edit",
        data=box_form(version_of(client, game_id), by=players[2], counts={0: 20, 1: 25, 2: 5}, key="fix-1"),
    )
    assert corrected.status_code == 303, corrected.get_data(as_text=True)[:2000]
    after = totals(client, game_id)
    assert after[players[2]] > before[players[2]] and after[players[0]] < before[players[0]]
    page = client.get(f"/games/{game_id}/boxes/{first}").get_data(as_text=True)
    assert "Recorded" in page and "Corrected" in page  # kept in the box's history
    assert "Ended by agreement" in client.get(f"/games/{game_id}").get_data(as_text=True)
    watcher = app.test_client()
    assert (
        watcher.post(
            f"/games/{game_id}/boxes/{second}/delete",
            data={"version": str(version_of(client, game_id)), "key": "w"},
        ).status_code
        == 403
    )
    deleted = client.post(
        f"/games/{game_id}/boxes/{second}/delete",
        data={"version": str(version_of(client, game_id)), "key": "d"},
    )
    assert deleted.status_code == 303
    assert "This box was deleted" in client.get(f"/games/{game_id}/boxes/{second}").get_data(as_text=True)
