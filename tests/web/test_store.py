"""The store: migrations, versioned writes, idempotency keys, box history."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from scorekeeper import store

GAME = {"rules": "jersey-scarne", "settings": {}, "players": ["Ann", "Bob", "Cal"],
        "dealer": "Ann"}
BOX = {"ending": "misdeal"}
SCORE_ONE = {"boxes": [{"result": "misdeal", "winner": None}], "totals": {}}


def _db(tmp_path: Path) -> Session:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    store.migrate(url)
    store.migrate(url)  # applying twice is harmless
    return Session(store.connect(url), expire_on_commit=False)


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    db = _db(tmp_path)
    assert db.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    assert db.execute(text("PRAGMA busy_timeout")).scalar() == store.SQLITE_BUSY_MS


def test_versioned_writes_and_history(tmp_path: Path) -> None:
    db = _db(tmp_path)
    game, token = store.create_game(db, GAME, {"totals": {}})
    assert store.check_edit_token(game, token) and not store.check_edit_token(game, "x")
    assert token not in game.edit_token_hash and len(token) >= 32
    written = store.append_box(db, game.id, 1, BOX, SCORE_ONE, key="k")
    assert written.version == 2 and not written.repeated
    assert store.append_box(db, game.id, 1, BOX, SCORE_ONE, key="k").repeated
    with pytest.raises(store.StaleWrite) as stale:
        store.append_box(db, game.id, 1, BOX, SCORE_ONE)
    assert stale.value.current_version == 2
    assert written.box_id is not None
    store.replace_box(db, game.id, written.box_id, 2, {"ending": "misdeal", "note": "n"},
                      SCORE_ONE)
    store.delete_box(db, game.id, written.box_id, 3, {"boxes": [], "totals": {}})
    row = store.get_game(db, game.id)
    assert row is not None and row.version == 4 and store.live_boxes(db, row) == []
    box = store.get_box(db, row, written.box_id)
    assert box is not None and box.deleted
    assert [r.action for r in store.history(db, box)] == ["recorded", "edited", "deleted"]
    with pytest.raises(store.BoxNotFound):
        store.delete_box(db, game.id, written.box_id, 4, {"boxes": []})
    with pytest.raises(store.GameNotFound):
        store.append_box(db, "nope", 1, BOX, SCORE_ONE)
