"""Issue 33's readers of a big game: an unchanged game's JSON is written once a version
(about 40 ms every read before), a scorer reading through the API with its bearer token
takes no turn among the anonymous readers, and reading a big game's row no longer walks
its stored summary place by place (what eight readers from eight addresses cost the
other tables: benchmarks/hostile.py, docs/security.md)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from benchmarks.hostile import biggest_game
from scorekeeper import store
from scorekeeper.engine import contract
from scorekeeper.web.api import games as api
from scorekeeper.web.database import session

KNOCK = {"ending": "knock", "by": "Ann", "hands": {"Ann": {"count": 5}, "Bob": {"count": 30}}}
GAME: dict[str, Any] = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann", "boxes": [KNOCK, KNOCK]}
BOX = {"ending": "knock", "by": "Bob", "hands": {"Ann": {"count": 40}, "Bob": {"count": 2}}}


def test_an_unchanged_games_json_is_written_once_a_version(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[str] = []
    game_json = api._game_json

    def counting(table: Any) -> dict[str, Any]:
        written.append(table.id)
        return game_json(table)

    monkeypatch.setattr(api, "_game_json", counting)
    created = client.post("/api/v1/games", json=GAME).get_json()
    path = f"/api/v1/games/{created['id']}"
    first, again = client.get(path), client.get(path)
    assert first.get_json() == again.get_json() and again.headers["ETag"] == '"1"'
    assert first.data == again.data and len(written) == 1
    client.post(f"{path}/boxes", json=BOX, headers={"Authorization": f"Bearer {created['edit_token']}"})
    after = client.get(path)
    assert after.headers["ETag"] == '"2"' and len(after.get_json()["game"]["boxes"]) == 3
    assert len(written) == 2


def test_a_scorer_reading_through_the_api_takes_no_readers_turn(app: Flask, client: FlaskClient) -> None:
    """Found: 8 scorers appending to one 120-box game through the API, reading it back
    with their bearer token, got 7 busy 503s in about 600 reads."""
    app.config.update(BIG_GAME_BOXES=1, BIG_GAME_WAIT_SECONDS=0.05)
    created = client.post("/api/v1/games", json=GAME).get_json()
    path = f"/api/v1/games/{created['id']}"
    gate = app.extensions["scorekeeper.big_game_gate"]
    assert gate.acquire(blocking=False)  # anonymous readers hold the turn
    try:
        assert client.get(path).status_code == 503
        wrong = client.get(path, headers={"Authorization": "Bearer not-the-token"})
        assert wrong.status_code == 503
        scorer = client.get(path, headers={"Authorization": f"Bearer {created['edit_token']}"})
        assert scorer.status_code == 200 and scorer.get_json()["version"] == 1
    finally:
        gate.release()


def test_reading_a_big_games_row_does_not_walk_its_summary(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/v1/games", json=biggest_game(60)).get_json()
    walked: list[str] = []
    escaped = contract.escaped

    def counting(text: str) -> str:
        walked.append(text)
        return escaped(text)

    monkeypatch.setattr(contract, "escaped", counting)
    with app.app_context():
        row = store.get_game(session(), created["id"])
    assert row is not None and row.summary["boxes"] == 60
    assert len(walked) < 30, len(walked)  # the row's own texts; with its summary's, 91
