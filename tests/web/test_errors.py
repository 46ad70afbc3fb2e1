"""Every failure of the JSON API answers CONTRACT.md's error object, a 500 included;
pages answer an error page. Nothing answers Werkzeug's bare HTML to an API client."""

from __future__ import annotations

import logging

import pytest
from flask import Flask
from flask.testing import FlaskClient

GAME = {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann", "boxes": []}


def _failing_store(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every read of a game raises, as a bug or a lost database would; Flask turns it
    into a 500 instead of handing the exception to the test."""
    from scorekeeper import store

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(store, "get_game", broken)
    monkeypatch.setattr(store, "load_game", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False


def test_an_api_500_answers_the_error_object(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An exception nothing caught, under /api/: 500 with ``{"error": {"code":
    "internal-error", ...}}`` as JSON, no traceback in the body; the traceback is logged."""
    created = client.post("/api/v1/games", json=GAME)
    assert created.status_code == 201
    _failing_store(app, monkeypatch)
    with caplog.at_level(logging.ERROR):
        failed = client.get(f"/api/v1/games/{(created.json or {})['id']}")
    assert failed.status_code == 500
    assert failed.mimetype == "application/json"
    error = (failed.json or {})["error"]
    assert error["code"] == "internal-error"
    assert "nothing was saved" in error["message"]
    assert "fire" not in failed.get_data(as_text=True)
    assert "the disk caught fire" in caplog.text


def test_a_page_500_answers_an_error_page(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/v1/games", json=GAME)
    _failing_store(app, monkeypatch)
    failed = client.get(f"/games/{(created.json or {})['id']}")
    assert failed.status_code == 500
    assert failed.mimetype == "text/html"
    assert "Something went wrong" in failed.get_data(as_text=True)
    assert "fire" not in failed.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/v1/nowhere", 404, "not-found"),
        ("DELETE", "/api/v1/games", 405, "malformed"),
        ("POST", "/api/v1/games", 422, "malformed"),
        ("PUT", "/api/v1/adjudicate", 405, "malformed"),
    ],
)
def test_api_http_errors_answer_the_error_object(
    client: FlaskClient, method: str, path: str, status: int, code: str
) -> None:
    """Routing and protocol errors under /api/ too: the status, the error object, a
    message that says what was wrong (and a 405 still names the allowed methods)."""
    answer = client.open(
        path, method=method, data="{not json" if method == "POST" else None, content_type="application/json"
    )
    assert answer.status_code == status
    assert answer.mimetype == "application/json"
    error = (answer.json or {})["error"]
    assert error["code"] == code
    assert error["message"]
    if status == 405:
        assert "POST" in answer.headers["Allow"] or "GET" in answer.headers["Allow"]


def test_the_pages_answer_each_refusal_of_the_ledger_in_one_way(client: FlaskClient, game_id: str) -> None:
    """One mapping (web/app.py's REFUSALS) for the views that do not show a form again:
    a stale version is a 409 page, a key used for another change a 422, a missing box a
    404 page, the engine's refusal a 422 naming its reason; htmx gets the fragment."""
    from tests.web.conftest import box_form, version_of

    version = version_of(client, game_id)
    recorded = client.post(
        f"/games/{game_id}/boxes/new", data=box_form(version, counts={0: 14, 1: 4, 2: 13}, key="k1")
    )
    assert recorded.status_code == 303
    version += 1
    stale = client.post(f"/games/{game_id}/end", data={"version": version + 5})
    assert stale.status_code == 409 and stale.mimetype == "text/html"
    assert "Another phone changed this game meanwhile" in stale.get_data(as_text=True)
    assert "<html" in stale.get_data(as_text=True).lower()
    reused = client.post(f"/games/{game_id}/end", data={"version": version, "key": "k1"})
    assert reused.status_code == 422 and "already used" in reused.get_data(as_text=True)
    gone = client.post(f"/games/{game_id}/boxes/999999/delete", data={"version": version})
    assert gone.status_code == 404
    assert "box 999999 is not in this game" in gone.get_data(as_text=True)
    ended = client.post(f"/games/{game_id}/end", data={"version": version, "key": "k2"})
    assert ended.status_code == 303
    again = client.post(
        f"/games/{game_id}/end", headers={"HX-Request": "true"}, data={"version": version + 1}
    )
    assert again.status_code == 422 and "<html" not in again.get_data(as_text=True).lower()
    assert "already ended by agreement" in again.get_data(as_text=True)
