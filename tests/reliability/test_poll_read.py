"""The unchanged poll's read (issue 34: ``store.version_on``, through the database
driver on a pooled connection) reads what the app reads, on SQLite and PostgreSQL."""

from __future__ import annotations

import time

import pytest
from flask import Flask

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand
from scorekeeper.web import create_app, database

from .conftest import Postgres


def _started(app: Flask) -> tuple[str, int | None]:
    """A new Jersey game of the app's database: its id and version."""
    with app.app_context():
        db = database.session()
        game = GameEntry.from_json(
            {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann"}
        )
        game_id = ledger.start(db, game).table.id
        return game_id, store.game_version(db, game_id)


def _event_at_its_first_table(database_url: str, name: str) -> tuple[str, str]:
    """A new six-player event of two rounds: its id and its first table's game."""
    from scorekeeper.engine.event import EventEntry
    from scorekeeper.ledger import events

    with store.db.opened(database_url) as db:
        entry = EventEntry(name, ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay"), rounds=2, seed=7)
        event_id = events.start_event(db, entry, secret=b"k" * 40).event.id
        kept = store.kept.read(db, event_id)
        assert kept is not None
        return event_id, sorted(kept.tables)[0]


def test_the_poll_reads_the_games_version_on_either_database(database_url: str) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "poll-" + "p" * 40})
    engine = app.extensions["scorekeeper.engine"]
    client = app.test_client()
    try:
        game_id, before = _started(app)
        assert before is not None and store.version_on(engine, game_id) == before
        poll = f"/games/{game_id}/sheet?since={before}"
        assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
        with app.app_context():
            db = database.session()
            hands = {"Ann": Hand(count=14), "Bob": Hand(count=4), "Cal": Hand(count=13)}
            ledger.record(db, game_id, BoxEntry(ending="knock", by="Bob", hands=hands))
            after = store.game_version(db, game_id)
        assert after == store.version_on(engine, game_id) and after != before
        changed = client.get(poll, headers={"HX-Request": "true"})
        assert changed.status_code == 200 and f'data-version="{after}"' in changed.get_data(as_text=True)
        for nothing in ("nosuchgame", "a\x00b", "x" * 40):
            assert store.version_on(engine, nothing) is None
        # every connection the polls took went back to the pool
        assert engine.pool.checkedout() == 0
    finally:
        engine.dispose()


def test_a_box_at_an_event_table_keeps_its_sums_on_either_database(database_url: str) -> None:
    """Issue 34: the kept standings' write (``store.kept.game_written``, its statements
    built once) adds a box's difference on PostgreSQL as on SQLite: a player's first
    line, then his line again, a table's end by agreement, and the sums stay fresh."""
    from tests.walk.kept import assert_kept_is_fresh

    event_id, game_id = _event_at_its_first_table(database_url, "Kept")
    with store.db.opened(database_url) as db:
        before = store.kept.read(db, event_id)
        assert before is not None
        for counts in ((14, 4, 13), (3, 20, 25)):
            table = ledger.load(db, game_id)
            assert table is not None
            hands = {p: Hand(count=n) for p, n in zip(table.players, counts, strict=True)}
            ledger.record(
                db,
                game_id,
                BoxEntry(ending="knock", by=table.players[counts.index(min(counts))], hands=hands),
            )
            assert_kept_is_fresh(db, event_id)
        ledger.end(db, game_id)
        assert_kept_is_fresh(db, event_id)
        after = store.kept.read(db, event_id, since=before.version)
        assert after is not None and set(after.tables) == {game_id} and after.tables[game_id].ended


@pytest.mark.postgres
def test_connections_the_server_closed_are_replaced_unnoticed(postgres: Postgres) -> None:
    """Issue 34: no ``SELECT 1`` before every checkout any more (``store.db._alive``
    asks the socket instead). A PostgreSQL that closed the app's pooled connections (a
    restart, an administrator, its idle timeout) costs no request an error: the poll's
    read, a page and a write each take a fresh connection, and the poll read in
    autocommit leaves its connection in no transaction."""
    import psycopg

    url = postgres.new_database(template=postgres.migrated)
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "poll-" + "p" * 40})
    engine = app.extensions["scorekeeper.engine"]
    client = app.test_client()
    hx = {"HX-Request": "true"}
    try:
        game_id, version = _started(app)
        poll = f"/games/{game_id}/sheet?since={version}"
        # several pooled connections: polls and pages at once would leave as many
        held = [engine.raw_connection() for _ in range(3)]
        for each in held:
            each.close()
        assert engine.pool.checkedin() == 3
        assert client.get(poll, headers=hx).status_code == 204
        with psycopg.connect(postgres.admin_url, autocommit=True) as admin:
            closed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s",
                (url.rsplit("/", 1)[1],),
            ).fetchone()
        assert closed is not None and closed[0] == 3
        time.sleep(0.2)  # the server's goodbye reaches the sockets
        for _ in range(4):
            assert client.get(poll, headers=hx).status_code == 204
        assert client.get(f"/games/{game_id}").status_code == 200
        with app.app_context():
            db = database.session()
            hands = {"Ann": Hand(count=14), "Bob": Hand(count=4), "Cal": Hand(count=13)}
            ledger.record(db, game_id, BoxEntry(ending="knock", by="Bob", hands=hands))
            after = store.game_version(db, game_id)
        assert after is not None and after != version
        changed = client.get(poll, headers=hx)
        assert changed.status_code == 200 and f'data-version="{after}"' in changed.get_data(as_text=True)
        with engine.connect() as sql:
            assert sql.exec_driver_sql("SELECT 1").scalar() == 1
        raw = engine.raw_connection()
        try:
            assert raw.driver_connection.autocommit is False
        finally:
            raw.close()
    finally:
        engine.dispose()


def test_the_standings_poll_reads_the_stamp_on_either_database(database_url: str) -> None:
    """The projector's unchanged poll (its stamp read in autocommit on PostgreSQL) is a
    204 until a box changes the standings, then the app's new board; the connection it
    read on goes back to the pool in a transaction as any other."""
    import re

    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "poll-" + "p" * 40})
    engine = app.extensions["scorekeeper.engine"]
    client = app.test_client()
    hx = {"HX-Request": "true"}
    try:
        event_id, game_id = _event_at_its_first_table(database_url, "Stamp")
        page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
        stamp = re.search(r'data-stamp="([^"]+)"', page)
        assert stamp is not None
        poll = f"/events/{event_id}/standings?since={stamp.group(1)}"
        for _ in range(3):
            assert client.get(poll, headers=hx).status_code == 204
        with store.db.opened(database_url) as db:
            table = ledger.load(db, game_id)
            assert table is not None
            hands = {p: Hand(count=n) for p, n in zip(table.players, (14, 4, 13), strict=True)}
            ledger.record(db, game_id, BoxEntry(ending="knock", by=table.players[1], hands=hands))
        moved = client.get(poll, headers=hx)
        assert moved.status_code == 200 and stamp.group(1) not in moved.get_data(as_text=True)
        assert engine.pool.checkedout() == 0
        with engine.connect() as sql:
            assert sql.get_isolation_level() != "AUTOCOMMIT"
    finally:
        engine.dispose()
