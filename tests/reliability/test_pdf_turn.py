"""The PDF turnstile comes before the game is read (issue 23): while every turn to print
is taken, a request for a score sheet or a player's season is answered 503 with
Retry-After at once, without reading or scoring a game; its turn come, it is printed."""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from scorekeeper import ledger, records
from scorekeeper.web import players

GAME = {
    "rules": "gin",
    "players": ["Ann", "Bob"],
    "dealer": "Ann",
    "boxes": [{"ending": "knock", "by": "Ann", "hands": {"Ann": {"count": 5}, "Bob": {"count": 30}}}],
}


@pytest.fixture
def printing_app(app: Flask) -> Flask:
    app.config.update(PDF_IN_PROCESS=True, PDF_WAIT_SECONDS=0.05, RECENT_GAMES_PUBLIC=True)
    return app


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the requests read: each game loaded, and each list of counted games."""
    seen: list[str] = []
    load, counted = ledger.load, players.counted

    def loading(db: Session, game_id: str) -> ledger.Table | None:
        seen.append(game_id)
        return load(db, game_id)

    def counting() -> list[records.Played]:
        seen.append("counted")
        return counted()

    monkeypatch.setattr(ledger, "load", loading)
    monkeypatch.setattr(players, "counted", counting)
    return seen


def _gate(app: Flask) -> threading.BoundedSemaphore:
    gate = app.extensions["scorekeeper.pdf_gate"]
    assert isinstance(gate, threading.BoundedSemaphore)
    return gate


def test_a_refused_pdf_reads_no_game(printing_app: Flask, client: FlaskClient, reads: list[str]) -> None:
    game_id = client.post("/api/v1/games", json=GAME).get_json()["id"]
    addresses = [
        f"/games/{game_id}/sheet.pdf",
        f"/api/v1/games/{game_id}/sheet.pdf",
        "/players/Ann/season.pdf",
    ]
    gate = _gate(printing_app)
    assert gate.acquire(blocking=False)  # another request is printing
    try:
        reads.clear()
        for address in addresses:
            busy = client.get(address)
            assert busy.status_code == 503, address
            assert busy.headers["Retry-After"] == "10", address
        assert reads == []
    finally:
        gate.release()
    for address in addresses:
        printed = client.get(address)
        assert printed.status_code == 200 and printed.data.startswith(b"%PDF"), address
    assert reads.count(game_id) == 2 and reads.count("counted") == 1


def test_a_season_pdf_takes_the_same_turn(printing_app: Flask, client: FlaskClient) -> None:
    """The season used to be rendered outside the turnstile, in the request's thread:
    eight clients asking for it rendered eight at once."""
    client.post("/api/v1/games", json=GAME)
    gate = _gate(printing_app)
    assert gate.acquire(blocking=False)
    try:
        assert client.get("/players/Ann/season.pdf").status_code == 503
    finally:
        gate.release()
    assert client.get("/players/Ann/season.pdf?year=20x6").status_code == 422
