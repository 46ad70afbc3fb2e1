"""The clubs API (CONTRACT.md "A club and its season"): begin a club, decide who the
names are (link, split, undo), an event joining with its director's consent, a season
and its ladder after two evenings, errors in the contract's shape."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.web.test_event_api import _record

THREE = ["Ann", "Bob", "Cal"]


def _evening(client: FlaskClient, date: str, key: str) -> dict[str, Any]:
    event = {"name": f"Club night {date}", "date": date, "rounds": 1, "seed": 5, "entrants": THREE}
    answer = client.post("/api/v1/events", json=event, headers={"Idempotency-Key": key})
    assert answer.status_code == 201, answer.get_json()
    body: dict[str, Any] = answer.get_json()
    return body


def test_a_club_its_roster_and_a_season_through_the_api(app: Any, client: FlaskClient) -> None:
    begun = client.post(
        "/api/v1/clubs", json={"name": "Hoboken Gin Club", "public": False}, headers={"Idempotency-Key": "c1"}
    )
    assert begun.status_code == 201
    club = begun.get_json()
    club_id, owner = club["id"], {"Authorization": f"Bearer {club['owner_token']}"}
    assert club["club"] == {"name": "Hoboken Gin Club", "place": None, "public": False, "members": []}
    assert client.get(f"/api/v1/clubs/{club_id}").status_code == 401  # private
    published = client.post(f"/api/v1/clubs/{club_id}/public", json={"public": True}, headers=owner)
    assert published.get_json()["club"]["public"] is True
    assert client.get(f"/api/v1/clubs/{club_id}").status_code == 200  # anyone reads it now
    bad_flag = client.post(f"/api/v1/clubs/{club_id}/public", json={"public": "yes"}, headers=owner)
    assert bad_flag.status_code == 422 and bad_flag.get_json()["error"]["where"] == "public"
    client.post(f"/api/v1/clubs/{club_id}/public", json={"public": False}, headers=owner)
    assert client.get(f"/api/v1/clubs/{club_id}").status_code == 401
    bad = client.post("/api/v1/clubs", json={"name": "x", "colour": "red"})
    assert bad.status_code == 422 and bad.get_json()["error"]["where"] == "colour"
    linked = client.post(
        f"/api/v1/clubs/{club_id}/members", json={"spelling": " ANN ", "member": None}, headers=owner
    )
    (ann,) = linked.get_json()["club"]["members"]
    assert ann["name"] == "ANN" and ann["spellings"] == ["ANN"]
    client.post(
        f"/api/v1/clubs/{club_id}/members", json={"spelling": "Annie", "member": ann["id"]}, headers=owner
    )
    split = client.post(f"/api/v1/clubs/{club_id}/members/split", json={"spelling": "annie"}, headers=owner)
    assert sorted(m["name"] for m in split.get_json()["club"]["members"]) == ["ANN", "Annie"]
    history = client.get(f"/api/v1/clubs/{club_id}/history", headers=owner).get_json()["history"]
    assert [h["kind"] for h in history] == ["club", "published", "published", "member", "linked", "split-off"]
    undone = client.post(f"/api/v1/clubs/{club_id}/history/{history[-1]['line']}/undo", headers=owner)
    assert [m["spellings"] for m in undone.get_json()["club"]["members"]] == [["ANN", "Annie"]]
    refused = client.post(f"/api/v1/clubs/{club_id}/history/{history[-1]['line']}/undo", headers=owner)
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "roster-refused"
    wrong = client.post(
        f"/api/v1/clubs/{club_id}/members", json={"spelling": "x", "member": "ann"}, headers=owner
    )
    assert wrong.status_code == 422 and wrong.get_json()["error"]["where"] == "member"
    for name in ("Bob", "Cal"):
        client.post(
            f"/api/v1/clubs/{club_id}/members", json={"spelling": name, "member": None}, headers=owner
        )
    evenings = [_evening(client, "2027-01-05", "e1"), _evening(client, "2027-01-12", "e2")]
    no_consent = client.post(
        f"/api/v1/clubs/{club_id}/events",
        json={"event": evenings[0]["id"], "director_token": "x"},
        headers=owner,
    )
    assert no_consent.status_code == 403
    for e in evenings:
        joined = client.post(
            f"/api/v1/clubs/{club_id}/events",
            json={"event": e["id"], "director_token": e["director_token"]},
            headers=owner,
        )
        assert joined.status_code == 200
    season = {
        "name": "Winter",
        "from": "2027-01-01",
        "to": "2027-03-31",
        "ladder": {"count": "net", "best": 1, "of": 2},
    }
    made = client.post(
        f"/api/v1/clubs/{club_id}/seasons", json=season, headers={**owner, "Idempotency-Key": "s"}
    )
    assert made.status_code == 201 and made.get_json()["season"]["ladder"] == {
        "count": "net",
        "best": 1,
        "of": 2,
        "min_evenings": 0,
    }
    assert made.get_json()["ladder"] == []  # nothing played yet
    bad_season = client.post(
        f"/api/v1/clubs/{club_id}/seasons", json={**season, "to": "2026-01-01"}, headers=owner
    )
    assert bad_season.status_code == 422 and bad_season.get_json()["error"]["where"] == "to"
    for e in evenings:
        game = e["event"]["games"][0]["game"]
        _record(app, game, e["event"]["seating"][0]["tables"][0], client)
    read = client.get(made.headers["Location"], headers=owner).get_json()
    assert [e["winners"] for e in read["evenings"]] == [
        [e["event"]["seating"][0]["tables"][0][0]] for e in evenings
    ]
    ladder = {line["name"]: line for line in read["ladder"]}
    assert set(ladder) == {"ANN", "Bob", "Cal"} and not any(line["guest"] for line in ladder.values())
    for line in ladder.values():  # best 1 of 2: the better evening counts, the other is kept
        scores = [c["points"] for c in line["contributions"]]
        assert line["points"] == max(scores) and sum(c["counted"] for c in line["contributions"]) == 1
    assert [line["rank"] for line in read["ladder"]] == sorted(line["rank"] for line in read["ladder"])
