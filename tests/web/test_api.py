"""The JSON API against CONTRACT.md: shapes, errors, tokens, If-Match, idempotency."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.engine.test_showdown import CONTRACT_BOX, CONTRACT_RULING

BOX: dict[str, Any] = CONTRACT_BOX
GAME: dict[str, Any] = {
    "rules": "jersey-scarne",
    "settings": {},
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "stake": 0.05,
    "boxes": [],
}
KNOCK: dict[str, Any] = {
    "ending": "knock",
    "by": "Bob",
    "hands": {"Ann": {"count": 14}, "Bob": {"count": 4}, "Cal": {"count": 13}},
}


def test_adjudicate_the_contract_example(client: FlaskClient) -> None:
    ruling = client.post("/api/v1/adjudicate", json=BOX).get_json()
    assert {key: ruling[key] for key in CONTRACT_RULING} == CONTRACT_RULING
    assert ruling["result"] == "knock" and ruling["winner"] == "Bob" and ruling["points"] == 19
    assert ruling["credits"] == {"Ann": 0, "Bob": 19, "Cal": 0}
    assert ruling["counts"] == {"Ann": 14, "Bob": 4, "Cal": 13}
    assert ruling["hands"]["Cal"]["layoffs"] == [{"card": "4S", "onto": "Bob", "meld": 0}]
    assert [step["rule"] for step in ruling["explanation"]][-1] == "J6"


def test_engine_errors_are_422_error_objects(client: FlaskClient) -> None:
    bad = {**BOX, "hands": {**BOX["hands"], "Ann": {"cards": ["7H"] * 10}}}
    response = client.post("/api/v1/adjudicate", json=bad)
    error = response.get_json()["error"]
    assert response.status_code == 422 and error["code"] == "duplicate-card"
    assert error["where"].startswith("hands.")
    for body in (b"not json", b"[1, 2]"):
        response = client.post("/api/v1/score", data=body, content_type="application/json")
        assert response.status_code == 422
        assert response.get_json()["error"]["code"] == "malformed"


def test_score_and_arrange(client: FlaskClient) -> None:
    score = client.post("/api/v1/score", json={**GAME, "boxes": [KNOCK]}).get_json()
    assert score["totals"] == {"Ann": 0, "Bob": 19, "Cal": 0}
    assert score["game_over"] is False and score["next_dealer"] == "Bob"
    arranged = client.post("/api/v1/arrange", json={"cards": BOX["hands"]["Bob"]["cards"]})
    assert arranged.get_json()["count"] == 4
    eleven = client.post("/api/v1/arrange", json={"cards": [*BOX["hands"]["Bob"]["cards"], "KS"]})
    assert eleven.get_json()["discard"] == "KS"
    bad = client.post("/api/v1/arrange", json={"cards": 7})
    assert bad.status_code == 422 and bad.get_json()["error"]["where"] == "cards"


def test_openapi_document(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    for path in (
        "/api/v1/adjudicate",
        "/api/v1/score",
        "/api/v1/arrange",
        "/api/v1/games",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/boxes",
        "/api/v1/games/{game_id}/sheet.pdf",
    ):
        assert path in doc["paths"], path


def _create(client: FlaskClient) -> tuple[str, str]:
    response = client.post("/api/v1/games", json=GAME)
    body = response.get_json()
    assert response.status_code == 201 and set(body) == {"id", "edit_token", "join_code", "version"}
    return body["id"], body["edit_token"]


def test_stored_game_round_trip(client: FlaskClient) -> None:
    game_id, token = _create(client)
    stored = client.get(f"/api/v1/games/{game_id}")
    body = stored.get_json()
    assert body["id"] == game_id and body["version"] == 1 and stored.headers["ETag"] == '"1"'
    assert body["game"] == GAME and body["score"]["totals"] == {"Ann": 0, "Bob": 0, "Cal": 0}
    auth = {"Authorization": f"Bearer {token}"}
    added = client.post(f"/api/v1/games/{game_id}/boxes", json=KNOCK, headers={**auth, "If-Match": '"1"'})
    assert added.status_code == 201
    assert added.get_json()["version"] == 2 and added.get_json()["box"]["points"] == 19
    body = client.get(f"/api/v1/games/{game_id}").get_json()
    assert body["score"]["totals"]["Bob"] == 19 and body["game"]["boxes"][0]["ending"] == "knock"
    assert "id" in body["game"]["boxes"][0]
    assert client.get(f"/api/v1/games/{game_id}/sheet.pdf").data.startswith(b"%PDF")


def test_writes_need_the_edit_token(client: FlaskClient) -> None:
    game_id, _token = _create(client)
    missing = client.post(f"/api/v1/games/{game_id}/boxes", json=KNOCK)
    assert missing.status_code == 401 and "Bearer" in missing.headers["WWW-Authenticate"]
    wrong = client.post(
        f"/api/v1/games/{game_id}/boxes", json=KNOCK, headers={"Authorization": "Bearer nope"}
    )
    assert wrong.status_code == 403 and wrong.get_json()["error"]["code"] == "forbidden"
    assert client.get(f"/api/v1/games/{game_id}").get_json()["version"] == 1
    assert client.get("/api/v1/games/nope").status_code == 404


def test_stale_writes_and_retries(client: FlaskClient) -> None:
    game_id, token = _create(client)
    auth = {"Authorization": f"Bearer {token}"}
    first = client.post(
        f"/api/v1/games/{game_id}/boxes",
        json=KNOCK,
        headers={**auth, "If-Match": "1", "Idempotency-Key": "box-1"},
    )
    assert first.status_code == 201
    again = client.post(
        f"/api/v1/games/{game_id}/boxes",
        json=KNOCK,
        headers={**auth, "If-Match": "1", "Idempotency-Key": "box-1"},
    )
    assert again.status_code == 200 and again.get_json()["repeated"] is True
    stale = client.post(f"/api/v1/games/{game_id}/boxes", json=KNOCK, headers={**auth, "If-Match": "1"})
    assert stale.status_code == 409 and stale.headers["ETag"] == '"2"'
    assert len(client.get(f"/api/v1/games/{game_id}").get_json()["game"]["boxes"]) == 1


def test_correct_and_delete_boxes(client: FlaskClient) -> None:
    game_id, token = _create(client)
    auth = {"Authorization": f"Bearer {token}"}
    box_id = client.post(f"/api/v1/games/{game_id}/boxes", json=KNOCK, headers=auth).get_json()["box_id"]
    changed = {**KNOCK, "hands": {**KNOCK["hands"], "Ann": {"count": 16}}}
    put = client.put(
        f"/api/v1/games/{game_id}/boxes/{box_id}", json=changed, headers={**auth, "If-Match": "2"}
    )
    assert put.status_code == 200 and put.get_json()["score"]["totals"]["Bob"] == 21
    gone = client.delete(f"/api/v1/games/{game_id}/boxes/{box_id}", headers=auth)
    assert gone.status_code == 200 and gone.get_json()["score"]["totals"]["Bob"] == 0
    assert client.delete(f"/api/v1/games/{game_id}/boxes/{box_id}", headers=auth).status_code == 404
    bad = client.post(
        f"/api/v1/games/{game_id}/boxes", headers=auth, json={"ending": "knock", "by": "Zed", "hands": {}}
    )
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "unknown-player"


def test_stored_boxes_keep_round_two_fields(client: FlaskClient) -> None:
    """A non-knocker's cards with the layoffs he made, a refused double and a gin after
    the break naming its breaker are stored as sent and ruled by the engine."""
    from tests.engine.test_explanations import BREAKER, GIN_HAND, LAID_BEFORE_GIN
    from tests.engine.test_showdown import CAL_CHAIN, KNOCKER_RUN

    created = client.post(
        "/api/v1/games", json={"rules": "doubling", "players": ["Bob", "Cal"], "dealer": "Cal", "boxes": []}
    ).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    laid = {
        "ending": "knock",
        "by": "Bob",
        "multiplier": 2,
        "double_refused": "Bob",
        "hands": {
            "Bob": {"cards": KNOCKER_RUN},
            "Cal": {"cards": CAL_CHAIN, "layoffs": [{"card": "6S", "onto": "Bob"}]},
        },
    }
    added = client.post(f"/api/v1/games/{created['id']}/boxes", json=laid, headers=auth)
    assert added.status_code == 201, added.get_json()
    ruling = added.get_json()["box"]
    assert ruling["hands"]["Cal"]["layoffs"] == [{"card": "6S", "onto": "Bob", "meld": 0}]
    assert (ruling["counts"]["Cal"], ruling["points"]) == (36, (36 - 2) * 2)
    assert ruling["double_refused"] == "Bob"
    stored = client.get(f"/api/v1/games/{created['id']}").get_json()["game"]["boxes"][0]
    assert stored["hands"]["Cal"]["layoffs"] == [{"card": "6S", "onto": "Bob"}]
    assert stored["double_refused"] == "Bob"

    jersey = client.post(
        "/api/v1/adjudicate",
        json={
            "rules": "jersey-scarne",
            "players": ["Ann", "Bob", "Cal"],
            "ending": "gin",
            "by": "Ann",
            "after_break": True,
            "breaker": "Cal",
            "hands": {"Ann": {"cards": GIN_HAND}, "Bob": BREAKER, "Cal": LAID_BEFORE_GIN},
        },
    )
    assert jersey.status_code == 422
    assert jersey.get_json()["error"]["code"] == "illegal-layoff"
