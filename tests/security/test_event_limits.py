"""Issue 33, "events slip the start limit" and "late entries: no cap, no rate": an
event is charged the tables the engine seats once it has read the entrants (a list or
text, one a line), later rounds and late entries are charged too, an event the engine
refuses answers the engine's 422 (never a 429), and the largest event the engine takes
starts under the default limit. Late entries stop at what the engine seats, a paste of
more than an event takes is refused whole with a word, and seating a round of
thousands pairs without recursion."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine.event import MAX_ENTRANTS
from scorekeeper.engine.movement import seat_round
from scorekeeper.web import create_app, limits

PHONE = {"REMOTE_ADDR": "192.0.2.10"}
OTHER = {"REMOTE_ADDR": "192.0.2.20"}


@pytest.fixture
def limited_app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("events.sqlite3")
    yield create_app(
        {"DATABASE_URL": url, "SECRET_KEY": "event-limit-tests-" + "s" * 32, "WTF_CSRF_ENABLED": False}
    )


def _event(entrants: Any, table_size: int = 2, rounds: int = 3) -> dict[str, Any]:
    rules = "gin" if table_size == 2 else "jersey-scarne"
    return {"name": "Flood", "rules": rules, "table_size": table_size, "rounds": rounds, "entrants": entrants}


def _names(count: int, start: int = 0) -> list[str]:
    return [f"Player {n}" for n in range(start, start + count)]


def test_entrants_sent_as_text_are_charged_the_tables_they_seat(limited_app: Flask) -> None:
    """Found: entrants as text (one a line) cost one start: 25 events of 500 tables in
    52 s from one address. Now 600 names at tables of two cost 300 of 400."""
    limited_app.config["START_LIMIT"] = "400 per minute"
    client = limited_app.test_client()
    text = "\n".join(_names(600))
    assert client.post("/api/v1/events", json=_event(text), environ_base=PHONE).status_code == 201
    refused = client.post("/api/v1/events", json=_event(text), environ_base=PHONE)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 61
    assert client.post("/api/v1/events", json=_event(text), environ_base=OTHER).status_code == 201


def test_an_event_the_engine_refuses_is_its_422_and_costs_nothing(limited_app: Flask) -> None:
    """Found: 1,001 entrants answered 429 and blocked the address for a minute."""
    client = limited_app.test_client()
    for entrants in (_names(MAX_ENTRANTS + 1), "\n".join(_names(MAX_ENTRANTS + 1))):
        answer = client.post("/api/v1/events", json=_event(entrants), environ_base=PHONE)
        assert answer.status_code == 422, answer.get_json()
        assert answer.get_json()["error"]["where"] == "entrants"
        assert "1000 at most" in answer.get_json()["error"]["message"]
    largest = client.post("/api/v1/events", json=_event(_names(MAX_ENTRANTS)), environ_base=PHONE)
    assert largest.status_code == 201


def test_the_largest_event_the_engine_takes_starts_under_the_default_limit(limited_app: Flask) -> None:
    """1,000 entrants at tables of two: 500 tables, in one request, by the form too."""
    assert limited_app.config["START_LIMIT"] == limits.START_LIMIT
    from tests.web.test_event_pages import event_form

    client = limited_app.test_client()
    form = event_form(rules="gin", table_size="2", entrants="\n".join(_names(MAX_ENTRANTS)))
    for name in ("tie_break_1", "tie_break_2", "tie_break_3"):
        form.pop(name, None)
    page = client.post("/events/new?rules=gin", data=form, environ_base=PHONE)
    assert page.status_code == 303, page.get_data(as_text=True)[:2000]
    event_id = page.headers["Location"].rsplit("/", 1)[-1]
    body = client.get(f"/api/v1/events/{event_id}").get_json()
    assert body["round"] == 1 and len(body["tables"]) == 500


def _started(client: FlaskClient, entrants: int = 9, table_size: int = 3) -> dict[str, Any]:
    answer = client.post("/api/v1/events", json=_event(_names(entrants), table_size), environ_base=PHONE)
    assert answer.status_code == 201
    started: dict[str, Any] = answer.get_json()
    return started


def test_later_rounds_are_charged(limited_app: Flask) -> None:
    """Found: only round 1 was charged; every later round seated its tables free."""
    limited_app.config["START_LIMIT"] = "5 per minute"
    client = limited_app.test_client()
    event = _started(client)  # 3 tables of 5
    director = {"Authorization": f"Bearer {event['director_token']}"}
    closed = client.post(
        f"/api/v1/events/{event['id']}/rounds/1/close",
        json={"force": True},
        headers=director,
        environ_base=PHONE,
    )
    assert closed.status_code == 200, closed.get_json()
    seated = client.post(f"/api/v1/events/{event['id']}/rounds", headers=director, environ_base=PHONE)
    assert seated.status_code == 429 and "Retry-After" in seated.headers
    # From another address (the director's phone on the club's Wi-Fi, say) it is seated.
    again = client.post(f"/api/v1/events/{event['id']}/rounds", headers=director, environ_base=OTHER)
    assert again.status_code == 201


def test_late_entries_are_charged(limited_app: Flask) -> None:
    limited_app.config["START_LIMIT"] = "4 per minute"
    client = limited_app.test_client()
    event = _started(client)  # 3 tables of 4
    director = {"Authorization": f"Bearer {event['director_token']}"}
    path = f"/api/v1/events/{event['id']}/entrants"
    assert client.post(path, json={"name": "Late 1"}, headers=director, environ_base=PHONE).status_code == 201
    refused = client.post(path, json={"name": "Late 2"}, headers=director, environ_base=PHONE)
    assert refused.status_code == 429 and "Retry-After" in refused.headers


def test_late_entries_stop_at_what_the_engine_seats(limited_app: Flask) -> None:
    """Found: pasting names again and again grew an event to 4,004 entrants."""
    limited_app.config["START_LIMIT"] = "100000 per minute"
    client = limited_app.test_client()
    event = _started(client, entrants=MAX_ENTRANTS - 1, table_size=2)
    director = {"Authorization": f"Bearer {event['director_token']}"}
    path = f"/api/v1/events/{event['id']}/entrants"
    assert client.post(path, json={"name": "Last in"}, headers=director).status_code == 201
    refused = client.post(path, json={"name": "One too many"}, headers=director)
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert error["where"] == "name" and "1000 at most" in error["message"]


def _director_client(client: FlaskClient, event: dict[str, Any]) -> None:
    joined = client.post(f"/events/{event['id']}/director/join", data={"code": event["director_token"]})
    assert joined.status_code == 303


def test_a_paste_of_more_names_than_an_event_takes_is_refused_not_cut(limited_app: Flask) -> None:
    """Found: the names past 1,000 of a paste were dropped without a word."""
    limited_app.config["START_LIMIT"] = "100000 per minute"
    client = limited_app.test_client()
    event = _started(client)
    _director_client(client, event)
    paste = "\n".join(_names(MAX_ENTRANTS + 5, start=100))
    page = client.post(f"/events/{event['id']}/entrants", data={"add": paste})
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    assert "1005 late entries: an event takes 1000 entrants at most" in text
    assert len(client.get(f"/api/v1/events/{event['id']}").get_json()["event"]["entrants"]) == 9
    # What fits is entered, all of it; one more is refused on the field, with the count.
    fits = client.post(f"/events/{event['id']}/entrants", data={"add": "\n".join(_names(991, start=100))})
    assert fits.status_code == 303
    over = client.post(f"/events/{event['id']}/entrants", data={"add": "Late one"})
    assert over.status_code == 422 and "1000 entrants play and 1 more make 1001" in over.get_data(
        as_text=True
    )


def test_a_swiss_round_of_thousands_is_paired_without_recursion() -> None:
    """Found: an event grown to 4,004 entrants answered 500 RecursionError when seating
    (the pairing recursed a pair a level)."""
    names = _names(4004)
    first = seat_round(names, 1, (), seed=3, table_size=2)
    ranking = sorted(names)
    second = seat_round(names, 2, (first,), seed=3, table_size=2, ranking=ranking, rounds=9)
    assert len(second.tables) == 2002 and not second.byes
    met_before = Counter(frozenset(t) for t in first.tables)
    assert not any(met_before[frozenset(t)] for t in second.tables)


def test_nested_json_to_start_an_event_is_refused_not_a_500(limited_app: Flask) -> None:
    """Found: the limiter read the body before the view, and the parser's RecursionError
    escaped as a 500."""
    client = limited_app.test_client()
    deep = "[" * 100_000 + "]" * 100_000
    for body in (deep, '{"name": "x", "entrants": ' + deep + "}"):
        answer = client.post("/api/v1/events", data=body, content_type="application/json", environ_base=PHONE)
        assert answer.status_code == 422, answer.status_code
        assert answer.get_json()["error"]["code"] == "malformed"
