"""Issue 33: a phone's rights in its cookie. Director rights were kept in a dict of
their own (the session's JSON sorts its keys: dropped in order of event id, not least
recently used), beside 60 game rights whole: the cookie reached 4,060 characters and
Chromium dropped it, silently, from the 10th director join on. Now every right, a
game's or a director's, is one list used least recently first, kept compact (a pass as
a mark, a code as the start of its stored hash), and bounded."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import create_app, gamedata

GAME: dict[str, Any] = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann"}
EVENT = {
    "name": "Tuesday Jersey",
    "rules": "jersey-scarne",
    "table_size": 3,
    "rounds": 2,
    "entrants": ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"],
}


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("cookie.sqlite3")
    yield create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "SECRET_KEY": "c" * 40,
            "WTF_CSRF_ENABLED": False,
            "START_LIMIT": "10000 per minute",
        }
    )


def _directs(phone: FlaskClient, event_id: str) -> bool:
    return phone.get(f"/events/{event_id}/director").status_code == 200


def _scores(phone: FlaskClient, game_id: str) -> bool:
    return "Record" in phone.get(f"/games/{game_id}").get_data(as_text=True)


def test_sixty_game_rights_and_twelve_director_joins_keep_the_cookie_under_4_kb(app: Flask) -> None:
    maker = app.test_client()
    games = [maker.post("/api/v1/games", json=GAME).get_json() for _ in range(gamedata.MAX_EDIT_RIGHTS)]
    events = [maker.post("/api/v1/events", json=EVENT).get_json() for _ in range(12)]
    phone = app.test_client()
    phone.post("/games/new", data={"rules": "gin", "players-0": "Ann", "players-1": "Bob"})
    for game in games:
        assert phone.post(f"/games/{game['id']}/join", data={"code": game["edit_token"]}).status_code == 303
    phone.post(
        f"/games/{games[-1]['id']}/boxes/new",
        data={"version": "1", "number": "1", "ending": "misdeal", "key": "k" * 22},
    )
    for event in events:
        joined = phone.post(f"/events/{event['id']}/director/join", data={"code": event["director_token"]})
        assert joined.status_code == 303
        cookie = phone.get_cookie("session")
        assert cookie is not None
        assert len(cookie.value) < 4000, len(cookie.value)
    # Every director right is kept, whatever the events' ids; the games least recently
    # used went, and the phone was told.
    assert all(_directs(phone, event["id"]) for event in events)
    kept = [_scores(phone, game["id"]) for game in games]
    assert kept == [False] * 12 + [True] * 48
    # A director's action uses the right: the oldest director right is now the newest.
    first = events[0]
    assert (
        phone.post(f"/events/{first['id']}/entrants", data={"add": "Gus", "key": "g" * 22}).status_code == 303
    )
    with phone.session_transaction() as session:
        assert session["edit"][-1][0] == "e:" + first["id"]
        assert "direct" not in session


def test_director_rights_go_least_recently_used_not_by_event_id(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The order, not the number: with room for six rights, the seventh event joined
    drops the first one joined (the test of the size above keeps the real sixty). They
    are joined from the highest id down, so that dropping the lowest id would drop the
    last one joined."""
    monkeypatch.setattr(gamedata, "MAX_EDIT_RIGHTS", 6)
    maker = app.test_client()
    events = sorted(
        (maker.post("/api/v1/events", json=EVENT).get_json() for _ in range(gamedata.MAX_EDIT_RIGHTS + 1)),
        key=lambda event: str(event["id"]),
        reverse=True,
    )
    phone = app.test_client()
    for event in events:
        assert (
            phone.post(f"/events/{event['id']}/director/join", data={"code": event["join_code"]}).status_code
            == 303
        )
    assert not _directs(phone, events[0]["id"])
    assert all(_directs(phone, event["id"]) for event in events[1:])


def test_rights_kept_before_in_the_old_shapes_still_work(app: Flask) -> None:
    maker = app.test_client()
    event = maker.post("/api/v1/events", json=EVENT).get_json()
    game = maker.post("/api/v1/games", json=GAME).get_json()
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["direct"] = {event["id"]: event["director_token"]}
        session["edit"] = [[game["id"], game["edit_token"]]]
    assert _directs(phone, event["id"]) and _scores(phone, game["id"])
