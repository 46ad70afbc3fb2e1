"""Migration 0013: the names stored before the contract read them in NFC agree with it.
A database whose every name was written with separate accents (as a keyboard may send
"Zoe" and U+0308) holds them composed after the migration: the game scores her under
the name it seats, the event finds her for a penalty, her merge still counts her; an
entrant whose composed name is already in the event keeps hers as typed, and the
migration does not fail. On SQLite and on PostgreSQL."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand
from scorekeeper.engine.event import EventEntry
from scorekeeper.ledger import events, players
from tests.reliability.conftest import database_url, postgres  # noqa: F401  (SQLite and PostgreSQL)

ZOE = "Zo\u00eb"
TYPED = "Zoe\u0308"


def _each_text(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_each_text(item, change) for item in value]
    if isinstance(value, dict):
        return {_each_text(k, change): _each_text(v, change) for k, v in value.items()}
    return value


def _rewrite(url: str, change: Callable[[str], str]) -> None:
    """Every text of every row (JSON documents too) passed through ``change``."""
    engine = sa.create_engine(url)
    meta = sa.MetaData()
    meta.reflect(engine)
    with engine.begin() as conn:
        for table in meta.sorted_tables:
            if table.name == "alembic_version":
                continue
            texts = [c for c in table.c if isinstance(c.type, sa.JSON | sa.String)]
            for row in conn.execute(sa.select(table)).mappings().all():
                changed = {
                    c.name: new for c in texts if (new := _each_text(row[c.name], change)) != row[c.name]
                }
                if changed:
                    key = sa.and_(*(column == row[column.name] for column in table.primary_key))
                    conn.execute(sa.update(table).where(key).values(**changed))
    engine.dispose()


def _not_composed(url: str) -> list[str]:
    """Where a text of the database is not in NFC (table, column)."""
    found: list[str] = []

    def look(text: str) -> str:
        if not unicodedata.is_normalized("NFC", text):
            found.append(text)
        return text

    _rewrite(url, look)
    return found


def _config(url: str) -> Config:
    """Alembic's configuration for the database at ``url``."""
    config = Config()
    config.set_main_option("script_location", str(store.MIGRATIONS))
    config.attributes["database_url"] = url
    return config


def test_stored_names_are_composed_and_found(database_url: str) -> None:  # noqa: F811
    config = _config(database_url)
    store.migrate(database_url)
    six = (ZOE, "Ann", "Bob", "Cal", "Dee", "Eve")
    with store.opened(database_url) as db:
        game_id = ledger.start(db, GameEntry(rules="gin", players=(ZOE, "Bob"), dealer=ZOE)).table.id
        ledger.record(
            db, game_id, BoxEntry(ending="knock", by=ZOE, hands={ZOE: Hand(count=2), "Bob": Hand(count=30)})
        )
        event_id = events.start_event(db, EventEntry("Tuesday", six, seed=1), secret=b"s" * 32).event.id
        events.penalize(db, event_id, ZOE, 3, "slow play")
        players.merge(db, ZOE, f"{ZOE} Lee", [game_id])
    command.downgrade(config, "0011")
    _rewrite(database_url, lambda text: unicodedata.normalize("NFD", text))
    assert TYPED in _not_composed(database_url)  # as a database from before holds her

    store.migrate(database_url)
    assert _not_composed(database_url) == []
    with store.opened(database_url) as db:
        table = ledger.load(db, game_id)
        assert table is not None and table.sheet is not None
        assert table.game.players == (ZOE, "Bob") and table.game.dealer == ZOE
        assert dict(table.sheet.totals) == {ZOE: 28, "Bob": 0}
        loaded = events.penalize(db, event_id, TYPED, 2, "again")
        assert [p.player for p in loaded.entry.penalties] == [ZOE, ZOE]
        assert ZOE in loaded.entry.entrants and {e.name for e in loaded.entrants} == set(six)
        standing = next(s for s in events.board(db, loaded).standings if s.player == ZOE)
        assert standing.penalty == 5
        assert players.names(db).person(ZOE, game_id) == f"{ZOE} Lee".casefold()


def test_an_entrant_composed_already_keeps_her_name_as_typed(database_url: str) -> None:  # noqa: F811
    """Two entrants that one composed name would make the same (possible only before):
    the second keeps hers as typed, rather than break the event's one name an entrant."""
    config = _config(database_url)
    store.migrate(database_url)
    with store.opened(database_url) as db:
        entry = EventEntry("Tuesday", ("Ann", "Bob", "Cal", "Dee", "Eve", ZOE), seed=1)
        event_id = events.start_event(db, entry, secret=b"s" * 32).event.id
    command.downgrade(config, "0011")
    engine = sa.create_engine(database_url)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO event_entrants (event_id, name, position, entered_round) VALUES (:e, :n, 7, 2)"
            ),
            {"e": event_id, "n": TYPED},
        )
        names = conn.execute(sa.text("SELECT name FROM event_entrants WHERE event_id = :e"), {"e": event_id})
        assert sorted(names.scalars()) == sorted(["Ann", "Bob", "Cal", "Dee", "Eve", ZOE, TYPED])
    store.migrate(database_url)
    with engine.connect() as conn:
        names = conn.execute(sa.text("SELECT name FROM event_entrants WHERE event_id = :e"), {"e": event_id})
        assert sorted(names.scalars()) == sorted(["Ann", "Bob", "Cal", "Dee", "Eve", ZOE, TYPED])
    engine.dispose()
