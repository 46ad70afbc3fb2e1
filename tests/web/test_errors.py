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


def test_an_api_500_answers_the_error_object(app: Flask, client: FlaskClient,
                                             monkeypatch: pytest.MonkeyPatch,
                                             caplog: pytest.LogCaptureFixture) -> None:
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


def test_a_page_500_answers_an_error_page(app: Flask, client: FlaskClient,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    created = client.post("/api/v1/games", json=GAME)
    _failing_store(app, monkeypatch)
    failed = client.get(f"/games/{(created.json or {})['id']}")
    assert failed.status_code == 500
    assert failed.mimetype == "text/html"
    assert "Something went wrong" in failed.get_data(as_text=True)
    assert "fire" not in failed.get_data(as_text=True)


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/api/v1/nowhere", 404, "not-found"),
    ("DELETE", "/api/v1/games", 405, "malformed"),
    ("POST", "/api/v1/games", 422, "malformed"),
    ("PUT", "/api/v1/adjudicate", 405, "malformed"),
])
def test_api_http_errors_answer_the_error_object(client: FlaskClient, method: str, path: str,
                                                 status: int, code: str) -> None:
    """Routing and protocol errors under /api/ too: the status, the error object, a
    message that says what was wrong (and a 405 still names the allowed methods)."""
    answer = client.open(path, method=method, data="{not json" if method == "POST" else None,
                         content_type="application/json")
    assert answer.status_code == status
    assert answer.mimetype == "application/json"
    error = (answer.json or {})["error"]
    assert error["code"] == code
    assert error["message"]
    if status == 405:
        assert "POST" in answer.headers["Allow"] or "GET" in answer.headers["Allow"]
