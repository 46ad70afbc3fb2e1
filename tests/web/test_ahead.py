"""A new state of the standings a projector watches is read and ranked before it is
asked for, by a thread of the process's own (issue 34: ``scorekeeper.web.ahead``); what
a projector then gets is what it would have got reading it itself."""

from __future__ import annotations

import gzip
import itertools
import json
import logging
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.ledger import events as ledger_events
from scorekeeper.web import ahead, create_app, database, standings
from tests.waiting import until
from tests.web.conftest import box_form, version_of
from tests.web.test_event_pages import start_event, tables_of

HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}


@pytest.fixture(autouse=True)
def _threads_end_with_their_test(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every reading thread a test starts ends with it. One left reading (every 0.05 s,
    watching for 30 s) read in the next test of its process, on that test's ``KEPT``."""
    readers: list[ahead.Ahead] = []
    reading = ahead.reading

    def noted(app: Flask, every: float) -> ahead.Ahead:
        readers.append(reading(app, every))
        return readers[-1]

    monkeypatch.setattr(ahead, "reading", noted)
    yield
    for reader in readers:
        thread = reader.thread
        reader.stop()
        if thread is not None:
            thread.join(5)


def _box(client: FlaskClient, event_id: str) -> None:
    game_id, players = tables_of(client, event_id)[0]
    recorded = client.post(
        f"/games/{game_id}/boxes/new",
        data=box_form(version_of(client, game_id), by=players[1], counts={0: 14, 1: 4, 2: 13}),
    )
    assert recorded.status_code in (200, 303)


def _stamp(app: Flask, event_id: str) -> tuple[tuple[str, str], str]:
    """The key this process keeps ``event_id``'s states under, and its stamp now."""
    with app.app_context():
        db = database.session()
        parts = store.kept.stamp(db, event_id)
        assert parts is not None
        return (str(db.get_bind().engine.url), event_id), standings.stamp_of(parts)


def _read_by_the_thread(app: Flask, event_id: str, seconds: float = 10.0) -> standings.Now:
    """The state of ``event_id`` now, once the thread has read it."""
    key, stamp = _stamp(app, event_id)

    def read() -> bool:
        kept = standings.KEPT.latest(key)
        return kept is not None and kept.stamp == stamp

    until(read, seconds)
    kept = standings.KEPT.latest(key)
    assert kept is not None
    return kept


def test_a_watched_events_new_state_is_read_before_a_projector_asks(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The box's commit in this process has the state read at once (the thread's own
    turn is a minute away); the projector's poll then reads nothing."""
    reader = ahead.reading(app, every=60)
    event_id = start_event(client)
    monkeypatch.setattr(standings, "KEPT", standings.Kept())
    first = client.get(f"/events/{event_id}/standings?since=old", headers=HTMX)
    assert event_id in reader.watched and reader.thread is not None
    _box(client, event_id)
    kept = _read_by_the_thread(app, event_id, seconds=5)
    assert sum(t.boxes for t in kept.board.tables) == 1
    reads: list[Any] = []
    board = ledger_events.board
    requests = threading.get_ident()  # the test client's requests run in this thread

    def noted(*args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() == requests:
            reads.append(1)
        return board(*args, **kwargs)

    monkeypatch.setattr(ledger_events, "board", noted)
    page = gzip.decompress(client.get(f"/events/{event_id}/standings?since=old", headers=HTMX).get_data())
    body = client.get(f"/api/v1/events/{event_id}").get_data(as_text=True)
    assert reads == []  # the state was read ahead
    assert f'data-stamp="{kept.stamp}"'.encode() in page
    assert f'data-stamp="{kept.stamp}"'.encode() not in gzip.decompress(first.get_data())
    assert sum(t["boxes"] for t in json.loads(body)["tables"]) == 1
    # what a projector gets is what it gets in a process that does not read ahead
    monkeypatch.setattr(standings, "KEPT", standings.Kept())
    app.extensions.pop(ahead.KEY)
    again = client.get(f"/events/{event_id}/standings?since=old", headers=HTMX)
    assert gzip.decompress(again.get_data()) == page and reads == [1]
    assert client.get(f"/api/v1/events/{event_id}").get_data(as_text=True) == body


def test_commits_closer_than_the_spacing_are_read_together_at_its_end(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Boxes come faster than the thread's spacing (two workers at a big evening): the
    first is read at once, those after it together once the spacing is over, not one
    reading each; the state read is the newest."""
    monkeypatch.setattr(ahead, "SPACING", 1.0)
    reader = ahead.reading(app, every=60)
    event_id = start_event(client)
    monkeypatch.setattr(standings, "KEPT", standings.Kept())
    client.get(f"/api/v1/events/{event_id}")
    readings: list[float] = []
    now = standings.now

    def noted(event_id: str, parts: tuple[object, ...] | None = None) -> standings.Now | None:
        if threading.current_thread() is reader.thread:
            readings.append(time.monotonic())
        return now(event_id, parts)

    monkeypatch.setattr(standings, "now", noted)
    _box(client, event_id)
    _read_by_the_thread(app, event_id, seconds=5)
    for _ in range(3):
        _box(client, event_id)
    kept = _read_by_the_thread(app, event_id, seconds=5)
    assert sum(t.boxes for t in kept.board.tables) == 4
    assert 2 <= len(readings) < 4, readings
    assert all(later - earlier >= 0.95 for earlier, later in itertools.pairwise(readings))


def test_another_processs_write_is_read_at_the_threads_next_turn(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A box written by another process (gunicorn's other worker) is not seen
    committed here: the thread finds it when it reads the watched events' stamps."""
    ahead.reading(app, every=0.05)
    event_id = start_event(client)
    monkeypatch.setattr(standings, "KEPT", standings.Kept())
    client.get(f"/api/v1/events/{event_id}")
    other = create_app({**app.config, "READ_AHEAD_SECONDS": 0})
    phone = other.test_client()  # the same phone, its box sent to the other worker
    cookie = client.get_cookie("session")
    assert cookie is not None
    phone.set_cookie("session", cookie.value)
    _box(phone, event_id)
    kept = _read_by_the_thread(app, event_id)
    assert sum(t.boxes for t in kept.board.tables) == 1


def test_an_event_no_projector_asks_for_is_no_longer_watched(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ahead, "WATCHED", 0.2)
    reader = ahead.reading(app, 0.01)
    event_id = start_event(client)
    client.get(f"/api/v1/events/{event_id}")
    thread = reader.thread
    assert thread is not None and thread.is_alive() and event_id in reader.watched
    thread.join(5)
    assert not thread.is_alive() and reader.thread is None and reader.watched == {}
    client.get(f"/api/v1/events/{event_id}")  # asked again: watched again, a new thread
    again = reader.thread
    assert again is not None and again is not thread and event_id in reader.watched
    reader.stop()  # watched no more: the thread ends at once
    again.join(1)
    assert not again.is_alive() and reader.thread is None


def test_a_reading_ahead_that_fails_stops_watching_and_is_logged(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    reader = ahead.reading(app, 0.01)
    event_id = start_event(client)
    assert client.get(f"/api/v1/events/{event_id}").status_code == 200

    def gone(event_id: str) -> None:
        raise RuntimeError("the database went away")

    with caplog.at_level(logging.ERROR):
        monkeypatch.setattr(standings, "now", gone)
        until(lambda: event_id not in reader.watched)
    assert f"reading event {event_id} ahead failed" in caplog.text
    assert "the database went away" in caplog.text


def test_a_rolled_back_write_names_no_event(app: Flask, client: FlaskClient) -> None:
    """What a transaction wrote is named after its commit only: a rollback forgets it."""
    reader = ahead.reading(app, 60)
    event_id = start_event(client)
    reader.watched[event_id] = time.monotonic()
    with app.app_context():
        db = database.session()
        db.connection()  # in a transaction, as a write is
        db.info[store.kept.WRITTEN] = {event_id}
        db.rollback()
        assert store.kept.WRITTEN not in db.info
        db.connection()
        db.info[store.kept.WRITTEN] = {event_id, "another"}
        db.commit()
        assert store.kept.WRITTEN not in db.info
    assert reader.written == {event_id} and reader.wake.is_set()  # the other was not watched


def test_a_server_reads_ahead_unless_told_not_to(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    served = create_app({"DATABASE_URL": url, "SECRET_KEY": "s"})
    assert isinstance(served.extensions[ahead.KEY], ahead.Ahead)
    assert served.extensions[ahead.KEY].every == ahead.EVERY == 0.25
    quiet = create_app({"DATABASE_URL": url, "SECRET_KEY": "s", "READ_AHEAD_SECONDS": 0})
    assert ahead.KEY not in quiet.extensions
    tested = create_app({"DATABASE_URL": url, "SECRET_KEY": "s", "TESTING": True})
    assert ahead.KEY not in tested.extensions  # a test reads its states itself
    asked = create_app({"DATABASE_URL": url, "SECRET_KEY": "s", "TESTING": True, "READ_AHEAD_SECONDS": 1})
    assert asked.extensions[ahead.KEY].every == 1
