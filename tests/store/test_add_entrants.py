"""Issue 33: late entries written in one go. A paste of 1,000 names wrote a row and a
version at a time and held the write lock for seconds (another table's saves went from
20 ms to 1,248 ms median); ``store.events.add_entrants`` writes them with one statement
for the new names, one for those back from a withdrawal, and one version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from scorekeeper import store
from scorekeeper.engine.event import EventEntry

ENTRY = EventEntry.from_json(
    {
        "name": "Tuesday",
        "rules": "gin",
        "table_size": 2,
        "rounds": 3,
        "entrants": ["Ann", "Bob", "Cal"],
        "seed": 7,
    }
)


def test_late_entries_are_written_in_one_statement(migrated: Callable[[str], str]) -> None:
    url = migrated("entrants.sqlite3")
    engine = store.connect(url)
    try:
        with Session(engine, expire_on_commit=False) as db:
            store.events.create_event(
                db, event_id="ev1", entry=ENTRY, director="d" * 32, join=None, codes_round=None
            )
            store.events.withdraw(db, "ev1", "Bob", 2)
            before = store.events.get_event(db, "ev1")
            assert before is not None
            statements: list[str] = []

            def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
                statements.append(statement.split()[0].upper())

            event.listen(engine, "before_cursor_execute", seen)
            names = ["Bob", *[f"Late {n}" for n in range(1000)]]
            store.events.add_entrants(db, "ev1", names, 3)
            event.remove(engine, "before_cursor_execute", seen)
            loaded = store.events.load_event(db, "ev1")
            assert loaded is not None
            assert [e.name for e in loaded.entrants][:4] == ["Ann", "Bob", "Cal", "Late 0"]
            assert len(loaded.entrants) == 1003
            assert [e.position for e in loaded.entrants] == list(range(1003))
            late = {e.name: e for e in loaded.entrants}
            assert late["Late 999"].entered_round == 3 and late["Bob"].withdrawn_round is None
            assert late["Bob"].entered_round == 1
            # The event's version goes up once, with the director's write that called this
            # (store.events.log_write, the prologue's end), not per name.
            assert loaded.row.version == before.version
            assert statements.count("INSERT") == 1, statements
            assert len(statements) <= 6, statements
    finally:
        engine.dispose()
