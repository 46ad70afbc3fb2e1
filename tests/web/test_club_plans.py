"""A season's calendar planned ahead, its counting changed and its evenings moved in and
out of the club (issue 36), from the pages (no JavaScript) and through the API: each a
write kept in the club's history; errors name their field; the iCalendar feed updates
one entry per planned evening (a stable UID, STATUS:CANCELLED when cancelled)."""

from __future__ import annotations

import re
from typing import Any

import icalendar
import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_club_api import _evening
from tests.web.test_club_pages import _begin, _form_key, _play_first_table
from tests.web.test_event_pages import start_event

PLAN = {
    "date": "2098-03-03",
    "time": "19:30",
    "name": "Spring opener",
    "place": "Back room",
    "rules": "jersey-scarne",
    "table_size": "3",
    "notes": "Bring a deck",
}


def _feed(client: FlaskClient, season: str) -> list[Any]:
    return list(icalendar.Calendar.from_ical(client.get(season + "/calendar.ics").data).walk("VEVENT"))


def _season(client: FlaskClient, club_id: str) -> str:
    answer = client.post(
        f"/clubs/{club_id}/seasons",
        data={"name": "Long", "starts": "2027-01-01", "ends": "2099-12-31", "count": "net", **_form_key()},
    )
    return str(answer.headers["Location"])


def test_an_evening_planned_changed_cancelled_and_started_from_the_pages(
    app: Flask, client: FlaskClient
) -> None:
    club_id = _begin(client, public="y")
    season = _season(client, club_id)
    past = client.post(season + "/plans", data={**PLAN, "date": "2026-01-05", **_form_key()})
    assert past.status_code == 422
    assert re.search(r'id="date-errors"[^>]*>.*is past', past.get_data(as_text=True), re.S)
    wide = client.post(season + "/plans", data={**PLAN, "table_size": "9", **_form_key()})
    assert wide.status_code == 422 and "played 3 to a table, not 9" in wide.get_data(as_text=True)
    assert client.post(season + "/plans", data={**PLAN, "time": "", **_form_key()}).status_code == 422
    assert client.post(season + "/plans", data={**PLAN, **_form_key()}).status_code == 303

    page = client.get(season).get_data(as_text=True)
    upcoming = page.split('id="upcoming"', 1)[1].split("</ul>", 1)[0]
    assert "2098-03-03 19:30" in upcoming and "Spring opener" in upcoming and "Back room" in upcoming
    assert "Jersey Gin" in upcoming and "3 a table" in upcoming and "Bring a deck" in upcoming
    plan_id = int(re.findall(r'id="plan-(\d+)"', upcoming)[0])
    stranger = app.test_client().get(season).get_data(as_text=True)
    assert (
        "Spring opener" in stranger and "Start this evening" not in stranger and "Cancel it" not in stranger
    )
    (entry,) = _feed(client, season)
    assert str(entry["UID"]) == f"plan-{plan_id}@scorekeeper" and str(entry["STATUS"]) == "CONFIRMED"
    assert entry.decoded("DTSTART").isoformat() == "2098-03-03T19:30:00"

    edit = f"/clubs/{club_id}/plans/{plan_id}"
    assert 'value="Back room"' in client.get(edit).get_data(as_text=True)
    moved = client.post(edit, data={**PLAN, "time": "20:00", "place": "Front room", **_form_key()})
    assert moved.status_code == 303
    (entry,) = _feed(client, season)  # the same entry, changed: not a second one
    assert str(entry["UID"]) == f"plan-{plan_id}@scorekeeper" and str(entry["LOCATION"]) == "Front room"
    assert entry.decoded("DTSTART").isoformat() == "2098-03-03T20:00:00"

    client.post(f"/clubs/{club_id}/plans/{plan_id}/cancel", data=_form_key())
    (entry,) = _feed(client, season)
    assert str(entry["STATUS"]) == "CANCELLED"
    assert "<strong>cancelled</strong>" in client.get(season).get_data(as_text=True)
    club_page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    undo = re.findall(r'action="(/clubs/\w+/undo/\d+)"', club_page)[0]  # the newest line first
    assert "2098-03-03 20:00 cancelled" in club_page
    client.post(undo, data=_form_key())
    (entry,) = _feed(client, season)
    assert str(entry["STATUS"]) == "CONFIRMED"

    start = client.get(f"/events/new?rules=jersey-scarne&plan={plan_id}").get_data(as_text=True)
    assert (
        'value="Spring opener"' in start and 'value="2098-03-03"' in start and 'value="Front room"' in start
    )
    assert f'name="plan" type="hidden" value="{plan_id}"' in start
    assert re.search(rf'<option selected value="{club_id}">|<option value="{club_id}" selected', start)
    event_id = start_event(
        client,
        name="Spring opener",
        date="2098-03-03",
        place="Front room",
        entrants="Ann\nBob\nCal",
        club=club_id,
        plan=str(plan_id),
    )
    page = client.get(season).get_data(as_text=True)
    upcoming = page.split('id="upcoming"', 1)[1].split("</ul>", 1)[0]
    assert (
        f'href="/events/{event_id}">Spring opener</a>' in upcoming and f'id="plan-{plan_id}"' not in upcoming
    )
    (entry,) = _feed(client, season)  # the evening now, under the plan's UID
    assert str(entry["UID"]) == f"plan-{plan_id}@scorekeeper" and f"/events/{event_id}" in str(entry["URL"])
    assert "(the evening planned for 2098-03-03 20:00)" in client.get(f"/clubs/{club_id}").get_data(
        as_text=True
    )
    _play_first_table(app, event_id, "Ann")
    page = client.get(season).get_data(as_text=True)
    assert f'href="/events/{event_id}">Spring opener</a>: won by' in page.split('id="past"', 1)[1]


@pytest.mark.rule("E8")
def test_the_counting_changed_and_an_evening_leaving_and_joining_from_the_pages(
    app: Flask, client: FlaskClient
) -> None:
    """Two evenings of one table of three: counting placings with the best one evening
    and two to be ranked, each member's points are their better evening's placings (3
    for a win of three players); the evening that leaves takes its points with it."""
    club_id = _begin(client)
    season = _season(client, club_id)
    first = start_event(client, name="Week 1", date="2027-01-05", entrants="Ann\nBob\nCal", table_size="3")
    second = start_event(client, name="Week 2", date="2027-01-12", entrants="Ann\nBob\nDee", table_size="3")
    for event_id in (first, second):
        client.post(f"/clubs/{club_id}/events", data={"event": event_id, **_form_key()})
    _play_first_table(app, first, "Ann")
    _play_first_table(app, second, "Bob")
    refused = client.post(season + "/counting", data={"count": "placings", "best": "0", **_form_key()})
    assert refused.status_code == 422 and 'id="best-errors"' in refused.get_data(as_text=True)
    changed = client.post(  # htmx: the season swapped in place, ranked anew, its address pushed
        season + "/counting",
        data={"count": "placings", "best": "1", "min_evenings": "2", **_form_key()},
        headers={"HX-Request": "true"},
    )
    assert changed.status_code == 200 and changed.headers["HX-Push-Url"] == season + "#ladder-rules"
    swapped = changed.get_data(as_text=True)
    assert swapped.lstrip().startswith('<section id="season"') and "<html" not in swapped
    assert 'id="counting-changed"' in swapped
    page = client.get(season).get_data(as_text=True)
    assert (
        "Placings points" in page.split('id="ladder-rules"', 1)[1][:300] and 'id="counting-changed"' in page
    )
    ladder = page.split('id="ladder"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r'<tr( class="unranked")?>\s*<td>([^<]*)</td>\s*<th scope="row"><a [^>]*>([^<]+)</a>', ladder
    )
    assert [(rank, name) for _, rank, name in rows][:2] == [("1", "Ann"), ("1", "Bob")]  # 3 each, tied
    assert {name for unranked, _, name in rows if unranked} == {"Cal", "Dee"}  # one evening each
    assert (
        "counts placings points, the best 1 evenings, 2 evenings to be ranked (was total net, every evening)"
        in (client.get(f"/clubs/{club_id}").get_data(as_text=True))
    )

    leave = re.findall(r'action="(/clubs/\w+/events/\w+/leave)"', page)
    assert len(leave) == 2
    left = client.post(
        f"/clubs/{club_id}/events/{second}/leave", data={"season": season.rsplit("/", 1)[1], **_form_key()}
    )
    assert left.status_code == 303 and left.headers["Location"].endswith(season + "#past")
    club_page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert re.findall(r'action="/clubs/\w+/events/(\w+)/leave"', club_page) == [first]  # the club's page too
    page = client.get(season).get_data(as_text=True)
    shown = page.split('id="join-season-form"', 1)[0]  # the ladder and the evenings
    assert "Week 2" not in shown and "Dee" not in shown and "Week 1" in shown
    assert client.get(f"/events/{second}").status_code == 200  # its own pages still answer
    assert client.get(f"/events/{second}/director").status_code == 200  # its director's right kept
    join = re.search(r'id="join-season-form".*?</form>', page, re.S)
    assert join is not None and f'value="{second}"' in join.group(0)
    joined = client.post(season + "/events", data={"event": second, **_form_key()})
    assert joined.status_code == 303
    assert "Week 2" in client.get(season).get_data(as_text=True)


def test_plans_counting_and_evenings_through_the_api(client: FlaskClient) -> None:
    begun = client.post("/api/v1/clubs", json={"name": "API club", "public": True}).get_json()
    club_id, owner = begun["id"], {"Authorization": f"Bearer {begun['owner_token']}"}
    season = {"name": "Winter", "from": "2027-01-01", "to": "2099-12-31"}
    made = client.post(f"/api/v1/clubs/{club_id}/seasons", json=season, headers=owner).get_json()
    base = f"/api/v1/clubs/{club_id}/seasons/{made['id']}"
    plan = {"date": "2098-01-05", "time": "19:30", "rules": "gin", "table_size": 2, "place": "Hall"}
    for wrong, where in (
        ({**plan, "date": "2001-01-01"}, "date"),
        ({**plan, "rules": "snap"}, "rules"),
        ({**plan, "table_size": 7}, "table_size"),
        ({**plan, "time": "7pm"}, "time"),
        ({**plan, "colour": "red"}, "colour"),
    ):
        refused = client.post(base + "/plans", json=wrong, headers=owner)
        assert refused.status_code == 422 and refused.get_json()["error"]["where"] == where, wrong
    assert client.post(base + "/plans", json=plan).status_code == 401
    planned = client.post(base + "/plans", json=plan, headers={**owner, "Idempotency-Key": "p1"})
    assert planned.status_code == 201
    body = planned.get_json()
    assert (body["date"], body["time"], body["rules"], body["cancelled"], body["event"]) == (
        "2098-01-05",
        "19:30",
        "gin",
        False,
        None,
    )
    again = client.post(base + "/plans", json=plan, headers={**owner, "Idempotency-Key": "p1"})
    assert again.status_code == 200 and again.get_json()["id"] == body["id"]
    changed = client.put(
        f"/api/v1/clubs/{club_id}/plans/{body['id']}", json={**plan, "place": "Annex"}, headers=owner
    )
    assert changed.status_code == 200 and changed.get_json()["place"] == "Annex"
    cancelled = client.post(f"/api/v1/clubs/{club_id}/plans/{body['id']}/cancel", headers=owner)
    assert cancelled.get_json()["cancelled"] is True
    history = client.get(f"/api/v1/clubs/{club_id}/history", headers=owner).get_json()["history"]
    assert [h["kind"] for h in history][-3:] == ["planned", "plan-changed", "plan-cancelled"]
    client.post(f"/api/v1/clubs/{club_id}/history/{history[-1]['line']}/undo", headers=owner)
    read = client.get(base).get_json()
    assert [(p["id"], p["cancelled"], p["place"]) for p in read["plans"]] == [(body["id"], False, "Annex")]

    evening = _evening(client, "2098-01-05", "ev")
    started = client.post(
        f"/api/v1/clubs/{club_id}/events",
        json={"event": evening["id"], "director_token": evening["director_token"], "plan": body["id"]},
        headers=owner,
    )
    assert started.status_code == 200 and started.get_json()["events"] == [evening["id"]]
    read = client.get(base).get_json()
    assert read["plans"][0]["event"] == evening["id"] and read["evenings"][0]["plan"] == body["id"]

    counted = client.post(
        base + "/counting", json={"ladder": {"count": "average", "min_evenings": 1}}, headers=owner
    )
    assert counted.status_code == 200 and counted.get_json()["season"]["ladder"] == {
        "count": "average",
        "min_evenings": 1,
    }
    assert counted.get_json()["counting_changed"] is not None
    bad = client.post(base + "/counting", json={"ladder": {"count": "sum"}}, headers=owner)
    assert bad.status_code == 422 and bad.get_json()["error"]["where"] == "ladder.count"

    left = client.delete(f"/api/v1/clubs/{club_id}/events/{evening['id']}", headers=owner)
    assert left.status_code == 200 and left.get_json()["events"] == []
    assert client.get(base).get_json()["plans"][0]["event"] is None  # the plan stands again
    again_left = client.delete(f"/api/v1/clubs/{club_id}/events/{evening['id']}", headers=owner)
    assert again_left.status_code == 422 and again_left.get_json()["error"]["code"] == "roster-refused"
    outside = _evening(client, "2026-06-01", "old")
    refused = client.post(
        base + "/events",
        json={"event": outside["id"], "director_token": outside["director_token"]},
        headers=owner,
    )
    assert refused.status_code == 422 and refused.get_json()["error"]["where"] == "event"
    joined = client.post(
        base + "/events",
        json={"event": evening["id"], "director_token": evening["director_token"]},
        headers=owner,
    )
    assert joined.status_code == 200 and [e["event"] for e in joined.get_json()["evenings"]] == [
        evening["id"]
    ]
