"""A poll that finds nothing new costs almost nothing (issue 34): answered before the
app (web/polls.py) from one indexed read, with the app's own 204 headers; a poll that
finds a change, or is no htmx poll, is the app's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import polls, standings
from tests.web.conftest import box_form, version_of
from tests.web.test_event_pages import start_event, tables_of

HX = {"HX-Request": "true"}


def _flask_saw(monkeypatch: pytest.MonkeyPatch, app: Flask) -> list[str]:
    """The paths of the requests the layer handed to the Flask app."""
    seen: list[str] = []
    layer = app.wsgi_app
    assert isinstance(layer, polls.Unchanged)
    inner = layer.app

    def noted(environ: dict[str, Any], start_response: Any) -> Any:
        seen.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    monkeypatch.setattr(layer, "app", noted)
    return seen


def test_an_unchanged_poll_is_answered_before_the_app(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = start_event(client)
    game_id, players = tables_of(client, event_id)[0]
    version = version_of(client, game_id)
    page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    stamp = re.search(r'data-stamp="([^"]+)"', page)
    assert stamp is not None
    seen = _flask_saw(monkeypatch, app)
    from_app = client.get(f"/games/{game_id}/sheet?since={version}")  # no htmx: the app's page
    assert from_app.status_code == 200 and len(seen) == 1
    sheet = client.get(f"/games/{game_id}/sheet?since={version}", headers=HX)
    board = client.get(f"/events/{event_id}/standings?since={stamp.group(1)}", headers=HX)
    assert (sheet.status_code, board.status_code) == (204, 204)
    assert len(seen) == 1  # neither reached the app
    assert sheet.data == b"" and "Content-Encoding" not in sheet.headers
    for name in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert sheet.headers[name] == from_app.headers[name]
    assert {"HX-Request", "Accept-Encoding"} <= {v.strip() for v in sheet.headers["Vary"].split(",")}

    # a box: both polls now find a change, answered by the app with the new state
    client.post(
        f"/games/{game_id}/boxes/new", data=box_form(version, by=players[1], counts={0: 14, 1: 4, 2: 13})
    )
    seen.clear()
    changed = client.get(f"/games/{game_id}/sheet?since={version}", headers=HX)
    moved = client.get(f"/events/{event_id}/standings?since={stamp.group(1)}", headers=HX)
    assert (changed.status_code, moved.status_code) == (200, 200) and len(seen) == 2
    assert f'data-version="{version + 1}"' in changed.get_data(as_text=True)
    new_stamp = re.search(r'data-stamp="([^"]+)"', moved.get_data(as_text=True))
    assert new_stamp is not None and new_stamp.group(1) != stamp.group(1)
    assert (
        client.get(f"/events/{event_id}/standings?since={new_stamp.group(1)}", headers=HX).status_code == 204
    )
    assert len(seen) == 2


@pytest.mark.parametrize(
    "path",
    [
        "/games/nosuchgame/sheet?since=1",
        "/games/x/sheet?since=-1",
        "/games/x/sheet?since=a&since=b",
        "/events/nosuchevent/standings?since=abc",
        "/games/" + "x" * 40 + "/sheet?since=1",
    ],
)
def test_a_poll_the_layer_cannot_answer_is_the_apps(client: FlaskClient, path: str) -> None:
    """An unknown game or event, or a ``since`` that is not one version: the app's
    answer (404, or the page), never a 204 nor a 500."""
    answer = client.get(path, headers=HX)
    assert answer.status_code in (200, 404), answer.status_code


def test_the_standings_stamp_is_the_apps(app: Flask, client: FlaskClient) -> None:
    """The layer's stamp and the app's are one function of one read."""
    event_id = start_event(client)
    with app.app_context():
        now = standings.now(event_id)
    assert now is not None
    page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert f'data-stamp="{now.stamp}"' in page


def test_a_changed_standings_poll_reads_the_stamp_once(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The layer hands the stamp it read to the view (``polls.READ``), which does not
    read it again; the page without htmx, which the layer does not ask, reads its own."""
    from scorekeeper import store

    event_id = start_event(client)
    read: list[str] = []
    stamp = store.kept.stamp

    def noted(db: Any, event: str) -> Any:
        read.append(event)
        return stamp(db, event)

    monkeypatch.setattr(store.kept, "stamp", noted)
    answer = client.get(f"/events/{event_id}/standings?since=old", headers=HX)
    assert answer.status_code == 200 and read == [event_id]
    with app.app_context():
        now = standings.now(event_id)
    assert now is not None and f'data-stamp="{now.stamp}"' in answer.get_data(as_text=True)
    read.clear()
    assert client.get(f"/events/{event_id}/standings").status_code == 200 and read == [event_id]
    # another event's stamp is not this one's
    assert polls.read_of({polls.READ: ("other", (1,))}, event_id) is None
    assert polls.read_of({polls.READ: (event_id, (1,))}, event_id) == (1,)
