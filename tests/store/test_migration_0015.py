"""Migration 0015: a game keeps its substitutes (RULES.md E5); the games stored before
have none, and a downgrade drops the column and nothing else (no box, no alias lost)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand
from scorekeeper.ledger import players


def test_games_from_before_have_no_substitutes_and_a_downgrade_keeps_their_boxes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'substitutes.sqlite3'}"
    config = Config()
    config.set_main_option("script_location", str(store.MIGRATIONS))
    config.attributes["database_url"] = url
    store.migrate(url)
    with store.opened(url) as db:
        game_id = ledger.start(db, GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann")).table.id
        box = BoxEntry(ending="knock", by="Ann", hands={"Ann": Hand(count=2), "Bob": Hand(count=30)})
        ledger.record(db, game_id, box)
        players.merge(db, "Ann", "Ann Lee", [game_id])
    command.downgrade(config, "0014_kept_standings")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        assert "substitutes" not in {c["name"] for c in sa.inspect(conn).get_columns("games")}
        assert conn.execute(sa.text("SELECT count(*) FROM boxes")).scalar() == 1
        assert conn.execute(sa.text("SELECT count(*) FROM player_aliases")).scalar() == 1
    engine.dispose()
    store.migrate(url)
    with store.opened(url) as db:
        table = ledger.load(db, game_id)
        assert table is not None and table.substitutes == () and len(table.boxes) == 1
