"""Fixtures for the security suite: an app with CSRF on (as served), a stored game with
a box, its edit token, and browsers with and without edit rights."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import create_app

GAME: dict[str, Any] = {
    "rules": "jersey-scarne",
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "stake": 0.05,
    "boxes": [
        {
            "ending": "knock",
            "by": "Bob",
            "hands": {"Ann": {"count": 14}, "Bob": {"count": 4}, "Cal": {"count": 13}},
        }
    ],
}


@pytest.fixture
def secure_app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    """The app as it runs for real: CSRF on, not in testing mode."""
    url = migrated("security.sqlite3")
    yield create_app({"DATABASE_URL": url, "SECRET_KEY": "security-tests-" + "s" * 32})


@dataclass
class StoredGame:
    id: str
    token: str
    box_id: int


@pytest.fixture
def stored_game(secure_app: Flask) -> StoredGame:
    created = secure_app.test_client().post("/api/v1/games", json=GAME).get_json()
    body = secure_app.test_client().get(f"/api/v1/games/{created['id']}").get_json()
    return StoredGame(created["id"], created["edit_token"], body["game"]["boxes"][0]["id"])


def join(client: FlaskClient, game_id: str, code: str, **options: Any) -> Any:
    """Join as a browser does: open the join link's confirm page (the code in the
    fragment, which the server never sees), then confirm with the page's CSRF token."""
    page = client.get(f"/games/{game_id}/join", **options).get_data(as_text=True)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert match is not None, page[:500]
    if "base_url" in options:  # over HTTPS the CSRF check wants the page as Referer
        headers = dict(options.pop("headers", {}))
        headers["Referer"] = f"{options['base_url']}/games/{game_id}/join"
        options["headers"] = headers
    return client.post(f"/games/{game_id}/join", data={"csrf_token": match.group(1), "code": code}, **options)


@pytest.fixture
def editor(secure_app: Flask, stored_game: StoredGame) -> FlaskClient:
    """A browser that opened the join link and confirmed."""
    client = secure_app.test_client()
    assert join(client, stored_game.id, stored_game.token).status_code == 303
    return client


@pytest.fixture
def viewer(secure_app: Flask) -> FlaskClient:
    """A browser that only has the read-only link."""
    return secure_app.test_client()


def snapshot(app: Flask) -> dict[str, Any]:
    """Everything stored, to prove a request changed nothing."""
    from tests.reliability.test_backup import _everything

    return _everything(str(app.config["DATABASE_URL"]))
