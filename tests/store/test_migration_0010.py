"""Migration 0010: each box revision may name the phone that wrote it (issue 22); the
revisions stored before keep none, and a downgrade drops the column."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand


def test_revisions_from_before_name_no_phone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'phones.sqlite3'}"
    config = Config()
    config.set_main_option("script_location", str(store.MIGRATIONS))
    config.attributes["database_url"] = url
    command.upgrade(config, "0009")
    store.migrate(url)
    box = BoxEntry(ending="knock", by="Ann", hands={"Ann": Hand(count=2), "Bob": Hand(count=20)})
    with store.opened(url) as db:
        game_id = ledger.start(db, GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann")).table.id
        ledger.record(db, game_id, box, phone="Bo's phone")
    command.downgrade(config, "0009")
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("box_revisions")}
    engine.dispose()
    assert "phone" not in columns
    store.migrate(url)
    with store.opened(url) as db:
        table = ledger.load(db, game_id)
        assert table is not None
        (kept,) = table.boxes
        first = store.history(db, kept.row)
        ledger.record(db, game_id, box, phone="Bo's phone")
        table = ledger.load(db, game_id)
        assert table is not None
        later = store.history(db, table.boxes[1].row)
    assert [r.phone for r in first] == [None] and [r.phone for r in later] == ["Bo's phone"]
