"""Hostile and broken input on every form and API route: a clear 4xx, nothing stored,
never a 500. The cases found by fuzzing are kept here as regressions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store

from .conftest import GAME, StoredGame, snapshot

HOSTILE_NAMES = [
    "<script>alert(1)</script>",
    "A\u202eB",
    "\u200bAnn",
    "Ann\u0000",
    "e\u0301" * 50,
    "🂡" * 41,
    "A" * 5000,
    "",
    "   ",
    "\ufeff",
    "<img src=x onerror=alert(1)>",
]
"""Script, a right-to-left override, a zero-width space, NUL, stacked combining accents,
emoji past the length limit, a huge name, blanks, a byte-order mark, an HTML injection."""

WRONG_TYPES: list[Any] = [None, 1, 1.5, True, "text", [], [1, 2], {"a": {}}, 10**40, -1]

REGRESSIONS: list[tuple[str, str, bytes]] = [
    # Found while writing this suite: each was a 500.
    (
        "nesting 50,000 deep (RecursionError in the JSON parser)",
        "/api/v1/score",
        b"[" * 50_000 + b"]" * 50_000,
    ),
    (
        "NaN stake (stored, then invalid JSON out)",
        "/api/v1/games",
        json.dumps({**GAME, "stake": float("nan")}).encode(),
    ),
    (
        "1e999 stake (infinity)",
        "/api/v1/games",
        b'{"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann", "stake": 1e999}',
    ),
]


def _json(client: FlaskClient, url: str, body: Any, **headers: str) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json", headers=headers)


@pytest.mark.parametrize(("why", "url", "body"), REGRESSIONS, ids=[r[0][:20] for r in REGRESSIONS])
def test_found_by_fuzzing(secure_app: Flask, why: str, url: str, body: bytes) -> None:
    before = snapshot(secure_app)
    response = secure_app.test_client().post(url, data=body, content_type="application/json")
    assert response.status_code == 422, why
    assert response.get_json()["error"]["code"] == "malformed"
    assert snapshot(secure_app) == before


def test_huge_box_ids_in_urls_are_not_found(editor: FlaskClient, stored_game: StoredGame) -> None:
    """Found while writing this suite: a 40-digit box id overflowed the database's
    integer (500); now it is simply no such box."""
    huge = "9" * 40
    auth = {"Authorization": f"Bearer {stored_game.token}"}
    for response in (
        editor.get(f"/games/{stored_game.id}/boxes/{huge}"),
        editor.get(f"/games/{stored_game.id}/boxes/{huge}/edit"),
        editor.put(f"/api/v1/games/{stored_game.id}/boxes/{huge}", json={"ending": "misdeal"}, headers=auth),
        editor.delete(f"/api/v1/games/{stored_game.id}/boxes/{huge}", headers=auth),
    ):
        assert response.status_code == 404


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_through_the_api(secure_app: Flask, name: str) -> None:
    """A name is either refused with a 422 that says why, or stored exactly and shown
    escaped: never run as markup."""
    client = secure_app.test_client()
    response = _json(
        client, "/api/v1/games", {**GAME, "boxes": [], "players": [name, "Bob", "Cal"], "dealer": "Bob"}
    )
    if response.status_code == 422:
        error = response.get_json()["error"]
        assert error["code"] in ("malformed", "unknown-player") and error["message"]
        assert error["where"].startswith(("players", "dealer"))
        return
    assert response.status_code == 201
    game_id = response.get_json()["id"]
    stored = client.get(f"/api/v1/games/{game_id}").get_json()["game"]["players"]
    assert stored[0] == name
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<script>alert" not in page and "<img src=x" not in page


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_through_the_new_game_form(secure_app: Flask, name: str) -> None:
    secure_app.config["WTF_CSRF_ENABLED"] = False
    client = secure_app.test_client()
    before = snapshot(secure_app)
    form = {
        "rules": "jersey-scarne",
        "players-0": name,
        "players-1": "Bob",
        "players-2": "Cal",
        "dealer": "1",
    }
    response = client.post("/games/new?rules=jersey-scarne", data=form)
    page = response.get_data(as_text=True)
    assert "<script>alert" not in page and "<img src=x" not in page
    if response.status_code == 303:
        sheet = client.get(response.headers["Location"]).get_data(as_text=True)
        assert "<script>alert" not in sheet and "<img src=x" not in sheet
        return
    assert response.status_code == 422
    assert 'class="error' in page or "error" in page
    assert snapshot(secure_app) == before


@pytest.mark.parametrize("value", WRONG_TYPES, ids=repr)
def test_wrong_json_types_on_every_api_route(secure_app: Flask, stored_game: StoredGame, value: Any) -> None:
    """Each route, given the value in place of the whole body and of each field: 422
    with CONTRACT.md's error object, or (when the value happens to be valid there, like
    an empty list of boxes) accepted; nothing else, and every stored game verifies."""
    client = secure_app.test_client()
    auth = {"Authorization": f"Bearer {stored_game.token}"}
    before = snapshot(secure_app)
    game_fields = {"rules", "settings", "players", "dealer", "stake", "boxes"}
    box = {
        "ending": "knock",
        "by": "Bob",
        "hands": {"Ann": {"count": 14}, "Bob": {"count": 4}, "Cal": {"count": 13}},
    }
    bodies: list[tuple[str, str, Any]] = []
    for route in ("/api/v1/score", "/api/v1/games"):
        bodies.append(("POST", route, value))
        bodies += [
            ("POST", route, {**GAME, field: value})
            for field in game_fields
            if not (field == "stake" and value is None) and not (field == "settings" and value is None)
        ]
    bodies.append(("POST", "/api/v1/adjudicate", value))
    bodies += [
        (
            "POST",
            "/api/v1/adjudicate",
            {**box, "rules": "jersey-scarne", "players": GAME["players"], "dealer": "Ann", field: value},
        )
        for field in ("ending", "by", "hands", "players", "rules")
    ]
    bodies += [("POST", "/api/v1/arrange", value), ("POST", "/api/v1/arrange", {"cards": value})]
    writes = [
        ("POST", f"/api/v1/games/{stored_game.id}/boxes"),
        ("PUT", f"/api/v1/games/{stored_game.id}/boxes/{stored_game.box_id}"),
    ]
    for method, url in writes:
        bodies.append((method, url, value))
        bodies += [(method, url, {**box, field: value}) for field in ("ending", "by", "hands")]
        bodies.append(
            (method, url, {**box, "hands": {"Ann": value, "Bob": {"count": 4}, "Cal": {"count": 13}}})
        )
    for method, url, body in bodies:
        response = client.open(
            url, method=method, data=json.dumps(body), content_type="application/json", headers=auth
        )
        assert response.status_code in (200, 201, 422), (url, body, response.status_code)
        if response.status_code == 422:
            assert set(response.get_json()["error"]) >= {"code", "message"}
    with store.opened(str(secure_app.config["DATABASE_URL"])) as db:
        assert store.verify(db) == []
    assert {g["id"] for g in before["games"]} <= {g["id"] for g in snapshot(secure_app)["games"]}


def test_not_json_and_oversized(secure_app: Flask, stored_game: StoredGame) -> None:
    client = secure_app.test_client()
    before = snapshot(secure_app)
    auth = {"Authorization": f"Bearer {stored_game.token}"}
    for url in ("/api/v1/score", "/api/v1/games", f"/api/v1/games/{stored_game.id}/boxes"):
        for data, kind in (
            (b"{not json", "application/json"),
            (b"\xff\xfe", "application/json"),
            (b'{"a": 1}', "text/plain"),
            (b"", "application/json"),
        ):
            response = client.post(url, data=data, content_type=kind, headers=auth)
            assert response.status_code == 422, (url, data)
            assert response.get_json()["error"]["code"] == "malformed"
        big = client.post(
            url, data=b'{"note": "' + b"x" * 300_000 + b'"}', content_type="application/json", headers=auth
        )
        assert big.status_code == 413
        assert "256 KB" in big.get_json()["error"]["message"]
    form = client.post("/games/new", data={"players-0": "x" * 300_000})
    assert form.status_code == 413 and "Too much data" in form.get_data(as_text=True)
    assert snapshot(secure_app) == before


def test_bad_headers_on_writes(secure_app: Flask, stored_game: StoredGame) -> None:
    client = secure_app.test_client()
    auth = {"Authorization": f"Bearer {stored_game.token}"}
    url = f"/api/v1/games/{stored_game.id}/boxes"
    before = snapshot(secure_app)
    for headers, status in (
        ({"If-Match": "yesterday"}, 412),
        ({"If-Match": "9" * 13}, 412),
        ({"If-Match": '"1", "2"'}, 412),
        ({"If-Match": "１"}, 412),
        ({"If-Match": '""'}, 412),
        ({"If-Match": "999"}, 409),
        ({"If-Match": 'W/"999"'}, 409),
        ({"Idempotency-Key": "é"}, 422),
        ({"Idempotency-Key": "k" * 65}, 422),
        ({"Authorization": "Basic abc"}, 401),
        ({"Authorization": "Bearer " + "x" * 10_000}, 403),
    ):
        response = client.post(url, json={"ending": "misdeal"}, headers={**auth, **headers})
        assert response.status_code == status, (headers, response.status_code)
        assert response.get_json()["error"]["message"]
    assert snapshot(secure_app) == before


def test_out_of_range_numbers_in_the_box_form(
    secure_app: Flask, editor: FlaskClient, stored_game: StoredGame
) -> None:
    """Counts, multipliers and versions beyond range, negative, huge or not numbers:
    422 with the form shown again (or 409 for a version that is not the game's)."""
    secure_app.config["WTF_CSRF_ENABLED"] = False
    before = snapshot(secure_app)
    url = f"/games/{stored_game.id}/boxes/new"
    base = {
        "version": "1",
        "key": "x",
        "ending": "knock",
        "by": "Bob",
        "hands-0-count": "14",
        "hands-1-count": "4",
        "hands-2-count": "13",
    }
    for field, value in (
        ("hands-0-count", "99"),
        ("hands-0-count", "-1"),
        ("hands-0-count", "9" * 400),
        ("hands-0-count", "1e3"),
        ("multiplier", "0"),
        ("multiplier", "9" * 50),
        ("ending", "nap"),
        ("by", "<b>Zed</b>"),
        ("upcard", "ZZ"),
        ("note", "n" * 201),
        ("hands-0-cards", "1X"),
    ):
        response = editor.post(url, data={**base, field: value})
        assert response.status_code == 422, (field, value, response.status_code)
        assert "<b>Zed</b>" not in response.get_data(as_text=True)
    for version in ("", "abc", "9" * 30, "-5", "2"):
        response = editor.post(url, data={**base, "version": version})
        assert response.status_code == 409, (version, response.status_code)
    assert snapshot(secure_app) == before


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [30, 200, 600, 900, 950, 980, 1000, 1100, 5000])
def test_deep_nesting_is_refused_by_the_parser_or_the_contract(secure_app: Flask, depth: int) -> None:
    """No hand-written depth scan: Python's JSON parser refuses nesting past the
    recursion limit (RecursionError, a 422), and what it parses the contract's readers
    refuse by field without recursing into it: never a 500, at every depth up to the
    limit and past it, wherever the nesting sits."""
    deep = _nested(depth)
    bodies = {
        "/api/v1/score": [
            deep,
            f'{{"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann", '
            f'"boxes": [{{"ending": "gin", "by": "Ann", "hands": {deep}}}]}}',
            f'{{"rules": "gin", "players": {deep}, "boxes": []}}',
        ],
        "/api/v1/adjudicate": [
            f'{{"rules": "gin", "players": ["Ann", "Bob"], '
            f'"ending": "gin", "by": "Ann", "settings": {{"x": {deep}}}, '
            f'"hands": {{"Ann": {{"melds": {deep}}}}}}}'
        ],
        "/api/v1/arrange": [f'{{"cards": {deep}}}'],
        "/api/v1/games": [
            f'{{"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann", "note": {deep}, "boxes": []}}'
        ],
    }
    client = secure_app.test_client()
    for url, texts in bodies.items():
        for text in texts:
            response = client.post(url, data=text, content_type="application/json")
            assert response.status_code == 422, (url, depth, response.status_code)
            assert (response.json or {})["error"]["message"]
