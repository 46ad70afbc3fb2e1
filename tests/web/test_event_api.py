"""The events API (CONTRACT.md "An event"): start, read with standings, seat and close
rounds with the director's token, the CSV and JSON exports, the OpenAPI document."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import ledger
from scorekeeper.web import database, gamedata

NINE = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", '=HYPERLINK("x")']
EVENT: dict[str, Any] = {
    "name": "Tuesday Jersey",
    "date": "2026-12-01",
    "rounds": 3,
    "round_ends": {"game": True},
    "standings": "net",
    "seed": 99,
    "entrants": "\n".join(NINE),
}


def _started(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/api/v1/events", json=EVENT, headers={"Idempotency-Key": "e-1"})
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def _record(app: Flask, game_id: str, players: list[str], client: FlaskClient) -> None:
    with app.test_request_context():
        row = gamedata.row(game_id)
        token = ledger.codes_of(row, gamedata.secret()).edit
        database.session().close()
    knocker = players[0]
    box = {
        "ending": "knock",
        "by": knocker,
        "hands": {p: {"count": 2 if p == knocker else 30} for p in players},
    }
    written = client.post(
        f"/api/v1/games/{game_id}/boxes", json=box, headers={"Authorization": f"Bearer {token}"}
    )
    assert written.status_code == 201, written.get_json()


def test_an_event_is_started_read_and_its_rounds_closed_and_seated(app: Flask, client: FlaskClient) -> None:
    body = _started(client)
    event_id, token = body["id"], body["director_token"]
    assert body["event"]["seed"] == 99 and len(body["join_code"]) == 6
    seating = body["event"]["seating"][0]
    assert seating["round"] == 1 and [len(t) for t in seating["tables"]] == [3, 3, 3]
    assert [g["table"] for g in body["event"]["games"]] == [1, 2, 3]
    assert {s["player"] for s in body["standings"]} == set(NINE)
    again = client.post("/api/v1/events", json=EVENT, headers={"Idempotency-Key": "e-1"})
    assert again.status_code == 200 and again.get_json()["id"] == event_id

    first = body["tables"][0]
    _record(app, first["game"], first["players"], client)
    read = client.get(f"/api/v1/events/{event_id}").get_json()
    leader = read["standings"][0]
    assert leader["player"] == first["players"][0] and leader["score"] == 2 * 56
    assert read["tables"][0]["boxes"] == 1 and read["tables"][0]["playing"]

    close = f"/api/v1/events/{event_id}/rounds/1/close"
    assert client.post(close).status_code == 401
    assert client.post(close, headers={"Authorization": "Bearer nope"}).status_code == 403
    director = {"Authorization": f"Bearer {token}"}
    refused = client.post(close, headers=director)
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "round-playing"
    assert "tables 1, 2, 3" in refused.get_json()["error"]["message"]
    bad = client.post(close, json={"force": "yes"}, headers=director)
    assert bad.status_code == 422 and bad.get_json()["error"]["where"] == "force"
    closed = client.post(close, json={"force": True}, headers=director)
    assert closed.status_code == 200 and not any(t["playing"] for t in closed.get_json()["tables"])
    seated = client.post(f"/api/v1/events/{event_id}/rounds", headers=director)
    assert seated.status_code == 201 and seated.get_json()["round"] == 2
    twice = client.post(f"/api/v1/events/{event_id}/rounds", headers=director)
    assert twice.status_code == 409 and "round 2 is not closed" in twice.get_json()["error"]["message"]


def test_a_bad_event_is_422_naming_the_field(client: FlaskClient) -> None:
    response = client.post("/api/v1/events", json={**EVENT, "table_size": 2})
    error = response.get_json()["error"]
    assert response.status_code == 422 and error["where"] == "table_size"
    assert "played 3 to a table" in error["message"]
    response = client.post("/api/v1/events", json={**EVENT, "entrants": "Ann\nann"})
    assert response.get_json()["error"]["where"] == "entrants[1]"
    assert client.get("/api/v1/events/nothing").status_code == 404


def test_the_exports_escape_formulas_and_carry_every_round(app: Flask, client: FlaskClient) -> None:
    body = _started(client)
    first = body["tables"][0]
    _record(app, first["game"], first["players"], client)
    text = client.get(f"/api/v1/events/{body['id']}/results.csv").get_data(as_text=True)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0][:4] == ["rank", "player", "score", "games"]
    assert rows[0][-6:] == [
        "round 1 table",
        "round 1 seat",
        "round 1 points",
        "bye points",
        "penalties",
        "how the score is made",
    ]
    names = [row[1] for row in rows[1:]]
    assert '\'=HYPERLINK("x")' in names and '=HYPERLINK("x")' not in names
    winner = rows[1]
    assert winner[1] == first["players"][0] and winner[-6:-3] == ["1", "1", "112"]
    assert winner[-1] == "round 1, table 1: +112 = 112" and winner[-3:-1] == ["0", ""]
    data = client.get(f"/api/v1/events/{body['id']}/results.json").get_json()
    assert data["event"]["name"] == "Tuesday Jersey" and len(data["tables"]) == 3
    assert data["tables"][0]["points"][first["players"][0]] == 112


def test_the_openapi_document_has_the_events(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert {
        "/api/v1/events",
        "/api/v1/events/{event_id}",
        "/api/v1/events/{event_id}/rounds",
        "/api/v1/events/{event_id}/rounds/{number}/close",
        "/api/v1/events/{event_id}/rounds/{number}/start",
    } <= set(doc["paths"])
    event = doc["components"]["schemas"]["Event"]
    assert {
        "name",
        "rules",
        "table_size",
        "rounds",
        "round_ends",
        "standings",
        "entrants",
        "seating",
        "games",
    } <= set(event["properties"])


def test_the_directors_writes(client: FlaskClient) -> None:
    body = _started(client)
    event_id = body["id"]
    director = {"Authorization": f"Bearer {body['director_token']}"}
    base = f"/api/v1/events/{event_id}"
    assert client.post(f"{base}/entrants", json={"name": "Jo"}).status_code == 401
    entered = client.post(f"{base}/entrants", json={"name": "Jo"}, headers=director)
    assert entered.status_code == 201 and "Jo" in entered.get_json()["event"]["entrants"]
    again = client.post(f"{base}/entrants", json={"name": "jo"}, headers=director)
    assert again.status_code == 422 and "already entered" in again.get_json()["error"]["message"]
    gone = client.post(f"{base}/withdrawals", json={"name": "Gus"}, headers=director)
    assert gone.status_code == 200 and gone.get_json()["withdrawn"] == ["Gus"]
    unknown = client.post(f"{base}/withdrawals", json={"name": "Zed"}, headers=director)
    assert unknown.status_code == 422 and unknown.get_json()["error"]["code"] == "unknown-player"
    fined = client.post(
        f"{base}/penalties", json={"player": "Bob", "points": 5, "note": "slow play"}, headers=director
    )
    assert fined.status_code == 201
    assert {s["player"]: s["penalty"] for s in fined.get_json()["standings"]}["Bob"] == 5
    keyed = {**director, "Idempotency-Key": "fine-1"}
    for _ in range(2):  # a retry with the same key takes nothing more
        fined = client.post(
            f"{base}/penalties", json={"player": "Bob", "points": 5, "note": "late"}, headers=keyed
        )
        assert fined.status_code == 201
        assert {s["player"]: s["penalty"] for s in fined.get_json()["standings"]}["Bob"] == 10
    for bad, where in (
        ({"player": "Bob", "points": "5", "note": "x"}, "points"),
        ({"player": "Bob", "points": True, "note": "x"}, "points"),
        ({"player": "Bob", "points": 0, "note": "x"}, "penalty.points"),
        ({"player": "Bob", "points": 5, "note": "x", "extra": 1}, "extra"),
    ):
        refused = client.post(f"{base}/penalties", json=bad, headers=director)
        assert refused.status_code == 422 and refused.get_json()["error"]["where"] == where
    tables = body["event"]["seating"][0]["tables"]
    a, b = tables[0][0], tables[1][0]
    swapped = client.post(f"{base}/swaps", json={"players": [a, b]}, headers=director)
    assert swapped.status_code == 200
    assert swapped.get_json()["event"]["seating"][0]["tables"][0][0] == b
    same = client.post(f"{base}/swaps", json={"players": [a, a]}, headers=director)
    assert same.status_code == 422 and same.get_json()["error"]["where"] == "players"
    replaced = client.post(
        f"{base}/replacements", json={"player": tables[2][1], "by": "Kim"}, headers=director
    )
    assert replaced.status_code == 200
    assert replaced.get_json()["event"]["seating"][0]["tables"][2][1] == "Kim"


def test_the_director_corrects_and_deletes_a_box_of_an_ended_game(app: Flask, client: FlaskClient) -> None:
    """The director's token unlocks every game of the event in the games API, even one
    ended when its round closed by force; the table's own token is refused there, and
    another event's director is refused everywhere (issue 25)."""
    body = _started(client)
    event_id, director = body["id"], {"Authorization": f"Bearer {body['director_token']}"}
    first = body["tables"][0]
    game_id, players = first["game"], first["players"]
    _record(app, game_id, players, client)
    with app.test_request_context():
        table_token = ledger.codes_of(gamedata.row(game_id), gamedata.secret()).edit
        database.session().close()
    closed = client.post(f"/api/v1/events/{event_id}/rounds/1/close", json={"force": True}, headers=director)
    assert closed.status_code == 200
    box = f"/api/v1/games/{game_id}/boxes/1"
    second = players[1]
    corrected = {
        "ending": "knock",
        "by": second,
        "hands": {p: {"count": 2 if p == second else 30} for p in players},
    }
    refused = client.put(box, json=corrected, headers={"Authorization": f"Bearer {table_token}"})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "game-over"
    done = client.put(box, json=corrected, headers=director)
    assert done.status_code == 200, done.get_json()
    standings = client.get(f"/api/v1/events/{event_id}").get_json()["standings"]
    assert standings[0]["player"] == second and standings[0]["boxes"] == 1
    other = client.post("/api/v1/events", json={**EVENT, "name": "Other"}, headers={"Idempotency-Key": "e-2"})
    stranger = {"Authorization": f"Bearer {other.get_json()['director_token']}"}
    assert client.delete(box, headers=stranger).status_code == 403
    deleted = client.delete(box, headers=director)
    assert deleted.status_code == 200, deleted.get_json()
    standings = client.get(f"/api/v1/events/{event_id}").get_json()["standings"]
    assert all(s["boxes"] == 0 for s in standings)


@pytest.mark.rule("E5")
def test_a_substitute_is_named_in_a_box_under_his_own_name(app: Flask, client: FlaskClient) -> None:
    """Mid-game the API replaces a player (the game kept, ``counts_for`` the substitute),
    and a box sent with the substitute's name is the seat's; a third name is refused."""
    body = _started(client)
    first = body["tables"][0]
    game, seat = first["game"], first["players"][1]
    _record(app, game, first["players"], client)
    director = {"Authorization": f"Bearer {body['director_token']}"}
    url = f"/api/v1/events/{body['id']}/replacements"
    wrong = client.post(url, json={"player": seat, "by": "Zed", "counts_for": "Kim"}, headers=director)
    assert wrong.status_code == 422 and wrong.get_json()["error"]["where"] == "counts_for"
    done = client.post(url, json={"player": seat, "by": "Zed", "counts_for": "Zed"}, headers=director)
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["event"]["games"][0]["game"] == game
    with app.test_request_context():
        token = ledger.codes_of(gamedata.row(game), gamedata.secret()).edit
        database.session().close()
    hands = {("Zed" if p == seat else p): {"count": 2 if p == seat else 30} for p in first["players"]}
    box = {"ending": "knock", "by": "Zed", "hands": hands}
    sent = client.post(f"/api/v1/games/{game}/boxes", json=box, headers={"Authorization": f"Bearer {token}"})
    assert sent.status_code == 201, sent.get_json()
    assert sent.get_json()["score"]["boxes"][-1]["winner"] == seat
    stored = client.get(f"/api/v1/games/{game}").get_json()
    assert stored["substitutes"] == [{"seat": seat, "by": "Zed", "from_box": 2, "counts_for": "Zed"}]
    standings = {s["player"]: s for s in client.get(f"/api/v1/events/{body['id']}").get_json()["standings"]}
    assert standings["Zed"]["games"] == 1 and standings[seat]["games"] == 0


@pytest.mark.rule("E7")
def test_the_director_starts_a_timed_rounds_clock_through_the_api(client: FlaskClient) -> None:
    """A round of 40 minutes has no clock when seated; the director's start gives it one,
    a start sent again keeps the first, another phone may not start it, and a round not
    seated is refused saying so."""
    timed = {**EVENT, "round_ends": {"minutes": 40}}
    body = client.post("/api/v1/events", json=timed, headers={"Idempotency-Key": "t-1"}).get_json()
    event_id, director = body["id"], {"Authorization": f"Bearer {body['director_token']}"}
    assert client.get(f"/api/v1/events/{event_id}").get_json()["clock"] is None
    assert client.post(f"/api/v1/events/{event_id}/rounds/1/start").status_code in (401, 403)
    started = client.post(f"/api/v1/events/{event_id}/rounds/1/start", headers=director)
    assert started.status_code == 200, started.get_json()
    clock = started.get_json()["clock"]
    assert clock is not None and clock["minutes"] == 40
    again = client.post(f"/api/v1/events/{event_id}/rounds/1/start", headers=director)
    assert again.status_code == 200 and again.get_json()["clock"] == clock
    later = client.post(f"/api/v1/events/{event_id}/rounds/2/start", headers=director)
    assert later.status_code == 409 and "round 2 is not seated yet" in later.get_json()["error"]["message"]
