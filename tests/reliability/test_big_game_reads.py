"""Readers of a big game do not take the server from the tables (issue 23): a watcher's
sheet is rendered once a version, and a game past ``BIG_GAME_BOXES`` boxes is read one
request at a time (503 with Retry-After past a short wait)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import ledger
from scorekeeper.web import games
from tests.web.conftest import box_form

KNOCK = {"ending": "knock", "by": "Ann", "hands": {"Ann": {"count": 5}, "Bob": {"count": 30}}}
GAME: dict[str, Any] = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann", "boxes": [KNOCK]}
BOX = {"ending": "knock", "by": "Bob", "hands": {"Ann": {"count": 40}, "Bob": {"count": 2}}}


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each sheet rendered: whether for a scorer."""
    seen: list[bool] = []
    context = games._sheet_context

    def counting(table: ledger.Table, editable: bool) -> dict[str, Any]:
        seen.append(editable)
        return context(table, editable)

    monkeypatch.setattr(games, "_sheet_context", counting)
    return seen


def test_a_watchers_sheet_is_rendered_once_a_version(client: FlaskClient, renders: list[bool]) -> None:
    created = client.post("/api/v1/games", json=GAME).get_json()
    watcher = f"/games/{created['id']}"
    first = client.get(watcher).get_data(as_text=True)
    again = client.get(watcher).get_data(as_text=True)
    polled = client.get(f"{watcher}/sheet", headers={"HX-Request": "true"})
    assert renders == [False]
    assert first == again and "You are watching this game" in first
    assert polled.get_data(as_text=True).strip() in first
    assert 'id="join-prompt"' in first and 'id="join-prompt"' not in polled.get_data(True)
    # A box recorded (a new version): rendered again, with the box.
    client.post(
        f"{watcher.replace('/games', '/api/v1/games')}/boxes",
        json=BOX,
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    after = client.get(watcher).get_data(as_text=True)
    assert renders == [False, False] and after != first
    assert 'data-version="2"' in after


def test_a_scorers_sheet_is_never_the_kept_one(app: Flask, renders: list[bool]) -> None:
    scorer, watcher = app.test_client(), app.test_client()
    created = scorer.post("/api/v1/games", json=GAME).get_json()
    sheet = f"/games/{created['id']}"
    assert scorer.post(f"{sheet}/join", data={"code": created["edit_token"]}).status_code == 303
    assert "You are watching" in watcher.get(sheet).get_data(as_text=True)
    page = scorer.get(sheet).get_data(as_text=True)
    assert "You are watching" not in page and "csrf_token" in page
    assert renders == [False, True]


def test_a_big_game_waits_for_its_turn(app: Flask, client: FlaskClient) -> None:
    app.config.update(BIG_GAME_BOXES=1, BIG_GAME_WAIT_SECONDS=0.05)
    small = client.post("/api/v1/games", json=GAME).get_json()["id"]
    big = client.post("/api/v1/games", json={**GAME, "boxes": [KNOCK, KNOCK]}).get_json()["id"]
    gate = app.extensions["scorekeeper.big_game_gate"]
    assert isinstance(gate, threading.BoundedSemaphore)
    assert gate.acquire(blocking=False)  # another request is reading a big game
    try:
        busy = client.get(f"/games/{big}")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "10"
        assert "very large games" in busy.get_data(as_text=True)
        assert client.get(f"/api/v1/games/{big}").status_code == 503
        assert client.get(f"/games/{small}").status_code == 200
        # Printing it takes the print turn, which is turn enough.
        app.config["PDF_IN_PROCESS"] = True
        assert client.get(f"/games/{big}/sheet.pdf").data.startswith(b"%PDF")
    finally:
        gate.release()
    for _ in range(2):  # each request gives its turn back as it ends
        assert client.get(f"/games/{big}").status_code == 200


def test_a_big_games_turn_comes_before_it_is_read(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found in review: the reader was refused its turn only after the game had been
    read and scored, the very work the turn keeps from the tables. Now a refused reader
    has read nothing but the game's row."""
    app.config.update(BIG_GAME_BOXES=1, BIG_GAME_WAIT_SECONDS=0.05)
    big = client.post("/api/v1/games", json={**GAME, "boxes": [KNOCK, KNOCK]}).get_json()["id"]
    loaded: list[str] = []
    load = ledger.load

    def loading(db: Any, game_id: str, row: Any = None) -> ledger.Table | None:
        loaded.append(game_id)
        return load(db, game_id, row)

    monkeypatch.setattr(ledger, "load", loading)
    gate = app.extensions["scorekeeper.big_game_gate"]
    assert gate.acquire(blocking=False)
    try:
        assert client.get(f"/games/{big}").status_code == 503
        assert client.get(f"/api/v1/games/{big}").status_code == 503
        assert loaded == []
    finally:
        gate.release()
    assert client.get(f"/games/{big}").status_code == 200 and loaded == [big]


def test_a_scorer_does_not_queue_behind_the_readers(app: Flask) -> None:
    """Found in review: a scorer's own sheet and save of a big game took the one turn
    the anonymous readers share, so three readers made the table's save answer 503.
    Now a phone that keeps score of the game, and any write, takes no readers' turn."""
    app.config.update(BIG_GAME_BOXES=1, BIG_GAME_WAIT_SECONDS=0.05)
    scorer, reader = app.test_client(), app.test_client()
    created = scorer.post("/api/v1/games", json={**GAME, "boxes": [KNOCK, KNOCK]}).get_json()
    sheet = f"/games/{created['id']}"
    assert scorer.post(f"{sheet}/join", data={"code": created["edit_token"]}).status_code == 303
    gate = app.extensions["scorekeeper.big_game_gate"]
    assert gate.acquire(blocking=False)  # the readers' turn is taken
    try:
        assert reader.get(sheet).status_code == 503
        page = scorer.get(sheet).get_data(as_text=True)
        assert "csrf_token" in page and 'data-version="1"' in page
        unfinished = scorer.post(f"{sheet}/boxes/new", data=box_form(1, by="Ann", counts={0: 5}))
        assert unfinished.status_code == 422
        assert "Enter Bob&#39;s count" in unfinished.get_data(as_text=True)
        saved = scorer.post(f"{sheet}/boxes/new", data=box_form(1, by="Ann", counts={0: 5, 1: 30}))
        assert saved.status_code == 303
        assert 'data-version="2"' in scorer.get(sheet).get_data(as_text=True)
    finally:
        gate.release()
