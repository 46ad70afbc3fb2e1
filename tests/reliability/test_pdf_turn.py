"""The PDF turnstile comes before the game is read (issue 23): while every turn to print
is taken, a request for a score sheet or a player's season is answered 503 with
Retry-After at once, without reading or scoring a game; its turn come, it is printed."""

from __future__ import annotations

import threading
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from scorekeeper import ledger, records, store
from scorekeeper.web import players, printing
from tests.waiting import until

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

    def loading(db: Session, game_id: str, row: store.GameRow | None = None) -> ledger.Table | None:
        seen.append(game_id)
        return load(db, game_id, row)

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


def test_past_the_waiting_requests_a_turn_is_refused_at_once() -> None:
    """Eight PDF loops used to hold every thread of the server waiting for the one turn
    (the tables' requests then waited for a thread): past ``waiting`` waiters, refused."""
    turnstile = printing.Turnstile(1, waiting=1)
    assert turnstile.acquire(timeout=1)  # printing

    def wait_then_print() -> None:
        if turnstile.acquire(timeout=2):
            turnstile.release()

    waiter = threading.Thread(target=wait_then_print)
    waiter.start()
    until(lambda: turnstile._waiters == 1, seconds=5, every=0.001)  # the one allowed waiter is waiting
    started = time.monotonic()
    assert not turnstile.acquire(timeout=5)
    assert time.monotonic() - started < 1
    turnstile.release()
    waiter.join(timeout=5)
    assert turnstile.acquire(blocking=False)  # the turn came back
    turnstile.release()


def test_a_blank_pad_takes_the_same_turn(printing_app: Flask, client: FlaskClient) -> None:
    """A blank pad is about 0.1 s of CPU, asked for anonymously: it was rendered in the
    request's thread, outside the turn, as many at once as clients asked."""
    gate = _gate(printing_app)
    assert gate.acquire(blocking=False)
    try:
        assert client.get("/pads/pad.pdf?rules=gin").status_code == 503
    finally:
        gate.release()
    assert client.get("/pads/pad.pdf?rules=gin").data.startswith(b"%PDF")
    refused = client.get("/pads/pad.pdf?rules=gin&players=9")
    assert refused.status_code == 422 and "2 players, not 9" in refused.get_data(as_text=True)
