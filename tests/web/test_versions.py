"""Each server process remembers the game versions it scored (gamedata.Versions).

What it remembers must be exactly what reading and scoring that version afresh
gives, a version it did not write (another process, the command line) must be read
in full, and a remembered version is read as one row, without its boxes. Its sheet
is rendered once for those who may edit and once for those who watch.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

import flask
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import engine, store
from scorekeeper.web import gamedata, session

from .conftest import box_form, totals

KNOCKS = [{0: 30, 1: 5, 2: 40}, {0: 10, 1: 3, 2: 12}, {0: 14, 1: 8, 2: 9}]
"""Three boxes by counts; Bob knocks each time (hand 1 is Bob's)."""


def _fresh(app: Flask, game_id: str) -> tuple[store.GameRow, gamedata.Scored]:
    """The game read and scored from the database, as a process that never saw it."""
    with store.opened(app.config["DATABASE_URL"]) as db:
        found = store.load_game(db, game_id)
    assert found is not None
    row, boxes = found
    return row, gamedata.Scored.of(row, boxes)


def _remembered(app: Flask, row: store.GameRow) -> gamedata.Scored | None:
    """What this process remembers of the game at ``row``'s version; its row must be
    the row as stored (the write builds it without reading it back)."""
    versions: gamedata.Versions = app.extensions["scorekeeper.versions"]
    game = versions.get(row.id, (row.version, row.updated_at))
    if game is None:
        return None
    assert game.row == row
    return game.scored


def test_a_recorded_box_is_remembered_as_a_fresh_read_scores_it(
        app: Flask, client: FlaskClient, game_id: str) -> None:
    for version, counts in enumerate(KNOCKS, start=1):
        response = client.post(f"/games/{game_id}/boxes/new", data=box_form(version,
                                                                             counts=counts))
        assert response.status_code == 303, response.get_data(as_text=True)[:500]
        row, fresh = _fresh(app, game_id)
        assert row.version == version + 1
        # The write itself remembered the new version: nobody has read it yet.
        assert _remembered(app, row) == fresh
    assert fresh.score is not None and len(fresh.score["boxes"]) == 3
    with store.opened(app.config["DATABASE_URL"]) as db:
        assert store.verify(db) == []  # stored rulings are the engine's


def test_a_box_added_through_the_api_is_remembered_too(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={
        "rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann", "boxes": []}).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    for by, counts in (("Ann", {"Ann": 4, "Bob": 30}), ("Bob", {"Ann": 22, "Bob": 0})):
        box = {"ending": "knock" if counts[by] else "gin", "by": by,
               "hands": {p: {"count": c} for p, c in counts.items()}}
        answer = client.post(f"/api/v1/games/{created['id']}/boxes", json=box, headers=auth)
        assert answer.status_code == 201
        row, fresh = _fresh(app, created["id"])
        assert _remembered(app, row) == fresh
        assert answer.get_json()["score"] == fresh.score


def test_a_version_written_elsewhere_is_read_in_full(
        app: Flask, client: FlaskClient, game_id: str) -> None:
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts=KNOCKS[0]))
    assert totals(client, game_id)["Bob"] == 60  # (30-5)+(40-5), version 2 remembered
    # Another process (here the store, used directly) records the next box.
    with store.opened(app.config["DATABASE_URL"]) as db:
        row = store.get_game(db, game_id)
        assert row is not None
        entry = {"ending": "knock", "by": "Ann",
                 "hands": {"Ann": {"count": 1}, "Bob": {"count": 11}, "Cal": {"count": 21}}}
        data = store.game_input(row, store.live_boxes(db, row))
        scored = engine.score({**data, "boxes": [*data["boxes"], entry]})
        store.append_box(db, game_id, row.version, entry, scored)
    assert totals(client, game_id) == {"Ann": 30, "Bob": 60, "Cal": 0}  # (11-1)+(21-1)


@pytest.fixture
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app runs while the test runs."""
    factory = app.extensions["scorekeeper.store"]
    engine_ = factory.kw["bind"]
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    sa.event.listen(engine_, "before_cursor_execute", note)
    yield seen
    sa.event.remove(engine_, "before_cursor_execute", note)


def test_a_remembered_version_is_read_as_one_row(
        client: FlaskClient, game_id: str, statements: list[str]) -> None:
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts=KNOCKS[0]))
    statements.clear()
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200 and 'data-player-total="Bob">60<' in page.get_data(
        as_text=True)
    assert statements and not any("boxes" in s for s in statements), statements
    # Only the game's version and updated_at: not its settings, players or summary.
    assert not any("settings" in s or "summary" in s for s in statements), statements


def _game(game_id: str, version: int) -> gamedata.LoadedGame:
    at = datetime(2026, 1, 1) + timedelta(minutes=version)
    row = store.GameRow(game_id, "hash", version, "gin", {}, ["Ann", "Bob"], "Ann", None, {},
                        None, at, at)
    return gamedata.LoadedGame(row, gamedata.Scored((), {}, None, None, "nothing"))


def test_versions_keep_the_most_recently_used_games() -> None:
    versions = gamedata.Versions(size=2)
    a, b, c = (_game(game_id, 1) for game_id in "abc")
    versions.put(a)
    versions.put(b)
    assert versions.get("a", a.stamp) is a  # "a" used last: "b" goes first
    versions.put(c)
    assert versions.get("b", b.stamp) is None
    assert versions.get("a", a.stamp) is a and versions.get("c", c.stamp) is c


def test_versions_keep_one_version_of_a_game() -> None:
    versions = gamedata.Versions(size=2)
    first, second = _game("a", 1), _game("a", 2)
    versions.put(first)
    versions.put(second)
    assert versions.get("a", first.stamp) is None  # an older version is never read again
    assert versions.get("a", second.stamp) is second
    assert versions.get("a", (2, first.row.updated_at)) is None  # same number, other write


def test_game_row_has_every_column() -> None:
    assert {f.name for f in dataclasses.fields(store.GameRow)} == set(store.GAME_FIELDS)


# --- the session cookie is renewed once a day -------------------------------------------


class _Tomorrow(date):
    @classmethod
    def today(cls) -> _Tomorrow:
        day = date.today() + timedelta(days=1)
        return cls(day.year, day.month, day.day)


def _sets_cookie(response: Any) -> bool:
    return any(c.startswith("session=") for c in response.headers.getlist("Set-Cookie"))


def test_the_session_cookie_is_renewed_once_a_day(
        client: FlaskClient, game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Signing the cookie again on every response was a sixth of recording a box; a
    phone in use still renews its edit rights (60 days) on its first request each day."""
    assert not _sets_cookie(client.get(f"/games/{game_id}"))  # renewed today, when created
    monkeypatch.setattr(session, "date", _Tomorrow)
    renewed = client.get(f"/games/{game_id}")
    assert _sets_cookie(renewed)
    assert "Expires=" in next(c for c in renewed.headers.getlist("Set-Cookie")
                              if c.startswith("session="))
    assert not _sets_cookie(client.get(f"/games/{game_id}"))
    # The renewed cookie still holds the edit rights.
    assert client.get(f"/games/{game_id}/boxes/new").status_code == 200


def test_a_card_that_is_not_one_of_the_52_is_named(client: FlaskClient, game_id: str) -> None:
    response = client.post(f"/games/{game_id}/boxes/new", data=box_form(
        1, counts={0: 14, 2: 20}, extra={"hands-1-cards": ["AS", "ZZ", "11H"]}))
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "&#39;11H&#39;, &#39;ZZ&#39; are not valid choices" in text
    assert totals(client, game_id) == {"Ann": 0, "Bob": 0, "Cal": 0}


# --- a version's sheet is rendered once per process -------------------------------------


@pytest.fixture
def sheets_rendered(app: Flask) -> Iterator[list[bool]]:
    """Each render of the sheet fragment: whether it was for someone who may edit."""
    seen: list[bool] = []

    def note(_app: Flask, template: Any, context: dict[str, Any], **_extra: Any) -> None:
        if template.name == "games/_sheet.html":
            seen.append(bool(context["editable"]))

    flask.template_rendered.connect(note, app)
    yield seen
    flask.template_rendered.disconnect(note, app)


def test_a_version_is_rendered_once_for_editors_and_once_for_watchers(
        app: Flask, client: FlaskClient, game_id: str, sheets_rendered: list[bool]) -> None:
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts=KNOCKS[0]))
    watchers = [app.test_client(), app.test_client()]
    pages = [client.get(f"/games/{game_id}").get_data(as_text=True),
             client.get(f"/games/{game_id}", headers={"HX-Request": "true"}).get_data(
                 as_text=True)]
    pages += [w.get(f"/games/{game_id}").get_data(as_text=True) for w in watchers]
    assert sheets_rendered == [True, False]
    assert all('data-player-total="Bob">60<' in page for page in pages)
    assert "Record box" in pages[0] and "Record box" in pages[1]
    assert all("Record box" not in page and "You are watching" in page
               for page in pages[2:])
    assert pages[2] == pages[3]  # the watchers' pages are the one rendering
    assert "<html" in pages[0] and "<html" not in pages[1]  # the page, and htmx's fragment
    # The next version is another sheet, rendered anew.
    client.post(f"/games/{game_id}/boxes/new", data=box_form(2, counts=KNOCKS[1]))
    assert totals(client, game_id)["Bob"] == 60 + (10 - 3) + (12 - 3)
    assert sheets_rendered == [True, False, True]
