"""Issue 33, "the director's join can be locked": after 300 wrong codes from 32
addresses the right director link answered 429 (without Retry-After), and wrong game
codes counted against an address's director join. Now it is a game's join: the link's
32-character code is never limited, the director's short code has its own counters,
and every 429 says when to come back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.web import create_app

EVENT = {
    "name": "Tuesday Jersey",
    "rules": "jersey-scarne",
    "table_size": 3,
    "rounds": 2,
    "entrants": ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"],
}
GAME: dict[str, Any] = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann"}


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("director.sqlite3")
    yield create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "d" * 40, "WTF_CSRF_ENABLED": False}
    )


def _event(app: Flask) -> dict[str, Any]:
    created: dict[str, Any] = app.test_client().post("/api/v1/events", json=EVENT).get_json()
    return created


def _post(app: Flask, path: str, code: str, address: str) -> Any:
    return app.test_client().post(path, data={"code": code}, environ_base={"REMOTE_ADDR": address})


def test_many_wrong_codes_from_many_addresses_never_lock_the_directors_link(app: Flask) -> None:
    event = _event(app)
    path = f"/events/{event['id']}/director/join"
    statuses = [_post(app, path, "ZZZZZZ", f"10.0.{n // 10}.{n % 10}").status_code for n in range(320)]
    assert 429 in statuses  # the event's own cap on the short code (300)
    refused = _post(app, path, event["join_code"], "10.9.9.9")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "link or QR code still works" in refused.get_data(as_text=True)
    joined = _post(app, path, event["director_token"], "10.9.9.9")
    assert joined.status_code == 303


def test_wrong_long_codes_are_not_counted(app: Flask) -> None:
    event = _event(app)
    path = f"/events/{event['id']}/director/join"
    for _ in range(15):
        assert _post(app, path, "x" * 32, "10.1.1.1").status_code == 403
    assert _post(app, path, event["join_code"], "10.1.1.1").status_code == 303


def test_wrong_game_codes_do_not_count_against_a_director_join(app: Flask) -> None:
    event = _event(app)
    game = app.test_client().post("/api/v1/games", json=GAME).get_json()
    for _ in range(10):
        _post(app, f"/games/{game['id']}/join", "ZZZZZZ", "10.2.2.2")
        _post(app, "/join", "ZZZZZZ", "10.2.2.2")
    assert _post(app, f"/games/{game['id']}/join", "ZZZZZZ", "10.2.2.2").status_code == 429
    joined = _post(app, f"/events/{event['id']}/director/join", event["join_code"], "10.2.2.2")
    assert joined.status_code == 303


def test_an_address_past_its_own_limit_is_told_when(app: Flask) -> None:
    event = _event(app)
    path = f"/events/{event['id']}/director/join"
    statuses = [_post(app, path, "ZZZZZZ", "10.3.3.3").status_code for _ in range(11)]
    assert statuses[:9] == [403] * 9 and statuses[9:] == [429, 429]
    refused = _post(app, path, event["join_code"], "10.3.3.3")
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 15 * 60
    assert _post(app, path, event["director_token"], "10.3.3.3").status_code == 303
    assert _post(app, path, event["join_code"], "10.3.3.4").status_code == 303
