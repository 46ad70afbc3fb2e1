"""The second adversarial review's findings (issue 14), each as the request that broke
things then: a lone surrogate, unknown fields, a reused idempotency key, a stake of
thousands of digits, a game without rules, names differing only in capitals, ``by``
with stray spaces, a watcher's rematch, static files' caching. (Joining, edit codes
and HEAD are tested in test_access.py.)"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import cli
from tests.web.conftest import box_form, start_game, version_of

from .conftest import GAME, StoredGame, snapshot

SURROGATE_BODY = (
    b'{"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], '
    b'"dealer": "Ann", "boxes": [{"ending": "knock", "by": "Bob", '
    b'"note": "\\udfff", "hands": {"Ann": {"count": 14}, '
    b'"Bob": {"count": 4}, "Cal": {"count": 13}}}]}'
)
"""The review's request, byte for byte: JSON's escape makes a lone surrogate."""


def _post(client: FlaskClient, url: str, body: bytes | Any, **headers: str) -> Any:
    data = body if isinstance(body, bytes) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", headers=headers)


def test_a_lone_surrogate_is_refused_naming_the_field(secure_app: Flask) -> None:
    before = snapshot(secure_app)
    response = _post(secure_app.test_client(), "/api/v1/games", SURROGATE_BODY)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["where"] == "boxes[0].note" and "U+DFFF" in error["message"]
    assert snapshot(secure_app) == before


@pytest.mark.parametrize(
    ("where", "body"),
    [
        ("boxes[0].colour", {**GAME, "boxes": [{**GAME["boxes"][0], "colour": "red"}]}),
        (
            "boxes[0].hands.Bob.colour",
            {
                **GAME,
                "boxes": [
                    {
                        **GAME["boxes"][0],
                        "hands": {**GAME["boxes"][0]["hands"], "Bob": {"count": 4, "colour": "red"}},
                    }
                ],
            },
        ),
        ("colour", {**GAME, "colour": "red"}),
    ],
)
def test_unknown_fields_are_refused_not_stored(secure_app: Flask, where: str, body: dict[str, Any]) -> None:
    before = snapshot(secure_app)
    response = _post(secure_app.test_client(), "/api/v1/games", body)
    assert response.status_code == 422
    assert response.get_json()["error"]["where"] == where
    assert snapshot(secure_app) == before


def test_a_reused_idempotency_key_with_other_content_says_so(
    secure_app: Flask, stored_game: StoredGame
) -> None:
    client = secure_app.test_client()
    url = f"/api/v1/games/{stored_game.id}/boxes"
    auth = {"Authorization": f"Bearer {stored_game.token}", "Idempotency-Key": "k-1"}
    first = {"ending": "misdeal"}
    assert _post(client, url, first, **auth).status_code == 201
    after_first = snapshot(secure_app)
    other = _post(client, url, {"ending": "misdeal", "note": "another"}, **auth)
    assert other.status_code == 422
    assert other.get_json()["error"]["code"] == "key-reused"
    assert snapshot(secure_app) == after_first
    again = _post(client, url, first, **auth)
    assert again.status_code == 200 and again.get_json()["repeated"] is True


def test_a_reused_form_key_with_other_content_says_so(client: FlaskClient) -> None:
    game_id = start_game(client)
    version = version_of(client, game_id)
    first = box_form(version, counts={0: 14, 1: 4, 2: 13}, key="form-1")
    assert client.post(f"/games/{game_id}/boxes/new", data=first).status_code == 303
    other = box_form(version, counts={0: 20, 1: 4, 2: 13}, key="form-1")
    response = client.post(f"/games/{game_id}/boxes/new", data=other)
    assert response.status_code == 422
    assert "already used" in response.get_data(as_text=True)
    assert version_of(client, game_id) == version + 1


@pytest.mark.parametrize("url", ["/api/v1/score", "/api/v1/games"])
def test_a_stake_of_thousands_of_digits_is_a_422(secure_app: Flask, url: str) -> None:
    body = json.dumps({**GAME, "stake": 0}).replace('"stake": 0', '"stake": ' + "9" * 4000)
    response = _post(secure_app.test_client(), url, body.encode())
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["where"] == "stake" and "digits" in error["message"]


def test_a_game_without_rules_takes_the_preset_for_its_players(secure_app: Flask) -> None:
    """CONTRACT.md: without ``rules`` the preset follows the number of players (three:
    Jersey Gin); never a 500. Without players either, a 422 naming ``players``."""
    client = secure_app.test_client()
    body = {k: v for k, v in GAME.items() if k != "rules"}
    created = _post(client, "/api/v1/games", body)
    assert created.status_code == 201
    stored = client.get(f"/api/v1/games/{created.get_json()['id']}").get_json()
    assert stored["game"]["rules"] == "jersey-scarne"
    bare = _post(client, "/api/v1/games", {"dealer": "Ann"})
    assert bare.status_code == 422 and bare.get_json()["error"]["where"] == "players"


def test_the_command_line_stake_and_rules(
    tmp_path: Path,
    migrated: Callable[[str], str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = migrated("cli.sqlite3")
    monkeypatch.setattr("scorekeeper.cli.database._database_url", lambda: url)
    game = tmp_path / "game.json"
    game.write_text(json.dumps({**GAME, "stake": 0}).replace('"stake": 0', '"stake": ' + "9" * 4000))
    for command in ("score", "import"):
        assert cli.main([command, str(game)]) == 2
        assert json.loads(capsys.readouterr().out)["error"]["where"] == "stake"
    game.write_text(json.dumps({"dealer": "Ann", "boxes": []}))
    assert cli.main(["import", str(game)]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["where"] == "players"
    game.write_text(json.dumps({k: v for k, v in GAME.items() if k != "rules"}))
    assert cli.main(["import", str(game)]) == 0


def test_player_names_differing_only_in_capitals_are_refused(secure_app: Flask) -> None:
    response = _post(
        secure_app.test_client(), "/api/v1/games", {**GAME, "players": ["Ann", "Bob", "ann"], "boxes": []}
    )
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["where"] == "players[2]" and "capitals" in error["message"]


def test_by_is_stored_as_the_player_is_seated(secure_app: Flask, stored_game: StoredGame) -> None:
    client = secure_app.test_client()
    box = {
        "ending": "knock",
        "by": "  Bob ",
        "breaker": None,
        "hands": {"Ann": {"count": 14}, " Bob": {"count": 4}, "Cal  ": {"count": 13}},
    }
    response = _post(
        client, f"/api/v1/games/{stored_game.id}/boxes", box, Authorization=f"Bearer {stored_game.token}"
    )
    assert response.status_code == 201, response.get_json()
    stored = client.get(f"/api/v1/games/{stored_game.id}").get_json()["game"]["boxes"][-1]
    assert stored["by"] == "Bob" and set(stored["hands"]) == {"Ann", "Bob", "Cal"}
    twice = {**box, "hands": {"Bob": {"count": 4}, " Bob": {"count": 4}}}
    response = _post(
        client, f"/api/v1/games/{stored_game.id}/boxes", twice, Authorization=f"Bearer {stored_game.token}"
    )
    assert response.status_code == 422 and "two hands" in response.get_json()["error"]["message"]


def test_a_watcher_cannot_start_a_rematch(
    secure_app: Flask, stored_game: StoredGame, viewer: FlaskClient
) -> None:
    """Refused before the CSRF check even matters: the watcher holds no edit right."""
    app = secure_app
    app.config["WTF_CSRF_ENABLED"] = False
    before = snapshot(app)
    response = viewer.post(f"/games/{stored_game.id}/rematch", data={"key": "r-1"})
    assert response.status_code == 403
    assert snapshot(app) == before


def test_static_files_get_one_consistent_cache_control(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    versioned = next(
        part.split('"')[0] for part in page.split('href="') if part.startswith("/static/app.css")
    )
    assert "?v=" in versioned
    with client.get(versioned) as cached:
        assert cached.headers.get_all("Cache-Control") == ["public, max-age=31536000, immutable"]
    for url in ("/static/app.css", "/static/app.css?v=0123456789ab"):
        with client.get(url) as fresh:
            assert fresh.headers.get_all("Cache-Control") == ["no-cache"]
