"""What one game, and one request, may make the server do: a game holds at most
``MAX_BOXES`` boxes (the review stored 10,000 draws in one request); the engine refuses
more than its own bound before reading them; sheets are printed a few at a time and a
request that cannot start in time is told to come back (503, Retry-After)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper import engine
from scorekeeper.web import create_app
from tests.web.conftest import box_form, start_game, version_of

from .conftest import snapshot

MOST = 6


def draws(count: int) -> dict[str, Any]:
    """A Gin game of ``count`` draws: they score nothing, so it never ends."""
    return {
        "rules": "gin",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "boxes": [{"ending": "draw"} for _ in range(count)],
    }


@pytest.fixture
def small_app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    """A server that keeps at most MOST boxes a game, and waits no time for a printer."""
    url = migrated("limits.sqlite3")
    yield create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "SECRET_KEY": "l" * 40,
            "WTF_CSRF_ENABLED": False,
            "MAX_BOXES": MOST,
            "PDF_WAIT_SECONDS": 0,
        }
    )


def test_a_game_past_the_box_limit_is_refused_naming_the_box(small_app: Flask) -> None:
    client = small_app.test_client()
    before = snapshot(small_app)
    refused = client.post("/api/v1/games", json=draws(MOST + 1))
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert error["where"] == f"boxes[{MOST}]" and f"box {MOST + 1}" in error["message"]
    assert f"at most {MOST} boxes" in error["message"]
    assert snapshot(small_app) == before

    created = client.post("/api/v1/games", json=draws(MOST)).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    one_more = client.post(f"/api/v1/games/{created['id']}/boxes", json={"ending": "draw"}, headers=auth)
    assert one_more.status_code == 422
    assert one_more.get_json()["error"]["where"] == f"boxes[{MOST}]"
    stored = client.get(f"/api/v1/games/{created['id']}").get_json()
    assert len(stored["game"]["boxes"]) == MOST and stored["version"] == 1


def test_the_box_form_says_the_game_is_full(small_app: Flask) -> None:
    client = small_app.test_client()
    game_id = start_game(client)
    for _ in range(MOST):
        response = client.post(
            f"/games/{game_id}/boxes/new",
            data=box_form(version_of(client, game_id), ending="misdeal", by=None),
        )
        assert response.status_code == 303
    version = version_of(client, game_id)
    full = client.post(f"/games/{game_id}/boxes/new", data=box_form(version, ending="misdeal", by=None))
    assert full.status_code == 422
    page = full.get_data(as_text=True)
    assert "This game is full" in page and f"box {MOST + 1} cannot be added" in page
    assert version_of(client, game_id) == version


def test_the_engine_refuses_a_huge_game_before_reading_its_boxes() -> None:
    """/api/v1/score and ``scorekeeper score`` hold no game, so the engine's own bound
    (1000) applies; the 10,000 boxes are never ruled one by one."""
    huge = draws(10_000)
    huge["boxes"][-1] = {"ending": "nonsense"}  # never reached: the count is checked first
    with pytest.raises(engine.ScorekeeperError) as refused:
        engine.contract.GameEntry.from_json(huge)
    assert refused.value.where == f"boxes[{engine.MAX_BOXES}]"
    with pytest.raises(engine.ScorekeeperError, match="at most 1000 boxes"):
        engine.score(draws(engine.MAX_BOXES + 1))


def test_the_api_score_route_is_bounded(small_app: Flask) -> None:
    body = json.dumps(draws(engine.MAX_BOXES + 1))
    response = small_app.test_client().post("/api/v1/score", data=body, content_type="application/json")
    assert response.status_code == 422
    assert response.get_json()["error"]["where"] == f"boxes[{engine.MAX_BOXES}]"


def test_a_sheet_that_cannot_start_in_time_is_a_503_with_retry_after(small_app: Flask) -> None:
    client = small_app.test_client()
    created = client.post("/api/v1/games", json=draws(2)).get_json()
    gate = small_app.extensions["scorekeeper.pdf_gate"]
    assert gate.acquire(timeout=1)  # another request is printing
    try:
        api = client.get(f"/api/v1/games/{created['id']}/sheet.pdf")
        assert api.status_code == 503 and api.headers["Retry-After"] == "10"
        assert api.get_json()["error"]["code"] == "busy"
        page = client.get(f"/games/{created['id']}/sheet.pdf")
        assert page.status_code == 503 and page.headers["Retry-After"] == "10"
        assert "busy printing" in page.get_data(as_text=True)
    finally:
        gate.release()
    printed = client.get(f"/api/v1/games/{created['id']}/sheet.pdf")
    assert printed.status_code == 200 and printed.data.startswith(b"%PDF")
