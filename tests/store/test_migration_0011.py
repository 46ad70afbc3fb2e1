"""Migration 0011: a penalty keeps the key of the form or call that took it, one per
event; the penalties stored before keep none, and a downgrade drops the column."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from scorekeeper import store
from scorekeeper.engine.event import EventEntry
from scorekeeper.ledger import events


def test_penalties_from_before_keep_no_key_and_new_ones_are_taken_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'penalties.sqlite3'}"
    config = Config()
    config.set_main_option("script_location", str(store.MIGRATIONS))
    config.attributes["database_url"] = url
    store.migrate(url)
    entry = EventEntry("Tuesday", ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay"), seed=1)
    with store.opened(url) as db:
        event_id = events.start_event(db, entry, secret=b"s" * 32).event.id
    command.downgrade(config, "0010")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        assert "key" not in {c["name"] for c in sa.inspect(conn).get_columns("event_penalties")}
        conn.execute(
            sa.text(
                "INSERT INTO event_penalties (event_id, player, points, note, at) "
                "VALUES (:e, 'Bob', 3, 'before', CURRENT_TIMESTAMP)"
            ),
            {"e": event_id},
        )
    engine.dispose()
    store.migrate(url)
    with store.opened(url) as db:
        events.penalize(db, event_id, "Cal", 2, "slow play", key="k1")
        loaded = events.penalize(db, event_id, "Cal", 2, "slow play", key="k1")
        assert [(p.player, p.points) for p in loaded.entry.penalties] == [("Bob", 3), ("Cal", 2)]
        keys = db.scalars(
            sa.select(store.models.EventHistory.key).where(store.models.EventHistory.action == "penalty")
        )
        assert list(keys) == ["k1"]  # kept with the write since migration 0012 (the event's history)
