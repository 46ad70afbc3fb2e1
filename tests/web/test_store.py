"""The store: migrations, versioned writes, idempotency keys, box history."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def test_a_repeated_key_at_the_current_version_writes_nothing(tmp_path: Path) -> None:
    """The key's uniqueness, not a look-up beforehand, catches a repeat that names the
    version as it is now: the second write is undone and answered with the first."""
    db = _db(tmp_path)
    game, _token = store.create_game(db, GAME, {"totals": {}})
    first = store.append_box(db, game.id, 1, BOX, SCORE_ONE, key="tap")
    two = {"boxes": [*SCORE_ONE["boxes"], *SCORE_ONE["boxes"]], "totals": {}}
    again = store.append_box(db, game.id, 2, BOX, two, key="tap")
    assert again == store.WriteResult(2, first.box_id, repeated=True)
    row = store.get_game(db, game.id)
    assert row is not None and row.version == 2
    boxes = store.live_boxes(db, row)
    assert len(boxes) == 1 and len(store.history(db, boxes[0])) == 1


@pytest.mark.parametrize(("previous", "message"), [
    ({}, "2 rulings for 1 boxes"),  # the rulings read (none) plus the new box
    (None, "3 rulings for 2 boxes"),  # counted in the database, the new box included
])
def test_a_score_of_another_game_is_refused(tmp_path: Path, previous: dict[int, Any] | None,
                                            message: str) -> None:
    """Rulings are written only for a score of as many boxes as the game has after the
    change; nothing is half saved."""
    db = _db(tmp_path)
    game, _token = store.create_game(db, GAME, {"totals": {}})
    store.append_box(db, game.id, 1, BOX, SCORE_ONE)
    boxes = [{"result": "misdeal", "winner": None}] * (2 if previous is not None else 3)
    with pytest.raises(store.StoreError, match=message):
        store.append_box(db, game.id, 2, BOX, {"boxes": boxes}, previous=previous)
    row = store.get_game(db, game.id)
    assert row is not None and row.version == 2 and len(store.live_boxes(db, row)) == 1
