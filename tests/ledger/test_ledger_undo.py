"""Undo (scorekeeper.ledger.undo) on a real database: it takes back the last write to
a box through the box's history, once, and only while nothing else was written."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.orm import Session

from scorekeeper import engine, ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand

GAME = GameEntry(rules="jersey-scarne", players=("Ann", "Bob", "Cal"), dealer="Ann")


def knock(by: str, **counts: int) -> BoxEntry:
    return BoxEntry(ending="knock", by=by, hands={p: Hand(count=c) for p, c in counts.items()})


BOB = knock("Bob", Ann=14, Bob=4, Cal=13)  # Bob +19
CAL = knock("Cal", Ann=20, Bob=30, Cal=5)  # Cal +40
ANN = knock("Ann", Ann=2, Bob=10, Cal=11)  # Ann +17


@pytest.fixture
def db(migrated: Callable[[str], str]) -> Iterator[Session]:
    url = migrated("undo.sqlite3")
    with store.opened(url) as session:
        yield session


def _totals(db: Session, game_id: str) -> dict[str, int]:
    table = ledger.load(db, game_id)
    assert table is not None and table.sheet is not None
    return dict(table.sheet.totals)


def _engine_totals(*boxes: BoxEntry) -> dict[str, int]:
    """What the engine makes of the intended boxes, scored from scratch."""
    return dict(engine.score(GAME.with_boxes(boxes).to_json())["totals"])


def _actions(db: Session, game_id: str, box_id: int) -> list[str]:
    table = ledger.load(db, game_id)
    assert table is not None
    box = store.get_box(db, table.row, box_id)
    assert box is not None
    return [rev.action for rev in store.history(db, box)]


def test_undo_of_a_record_deletes_the_box_through_its_history(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    ledger.record(db, game_id, BOB, number=1)
    written = ledger.record(db, game_id, CAL, number=2)
    assert written.box_id is not None
    undone = ledger.undo(db, game_id, written.box_id, version=written.version, key="u1")
    assert (undone.action, undone.number, undone.repeated) == ("recorded", 2, False)
    assert _totals(db, game_id) == _engine_totals(BOB)
    assert _actions(db, game_id, written.box_id) == ["recorded", "undone"]
    # the same undo sent again (a double tap) does nothing more and answers the same
    again = ledger.undo(db, game_id, written.box_id, version=written.version, key="u1")
    assert again.repeated and (again.action, again.number) == ("recorded", 2)
    assert _actions(db, game_id, written.box_id) == ["recorded", "undone"]
    # a second undo with a new key has nothing left to undo
    table = ledger.load(db, game_id)
    assert table is not None
    with pytest.raises(ledger.NothingToUndo):
        ledger.undo(db, game_id, written.box_id, version=table.version, key="u2")


def test_undo_of_a_correction_restores_the_previous_version(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    first = ledger.record(db, game_id, BOB, number=1)
    ledger.record(db, game_id, CAL, number=2)
    assert first.box_id is not None
    fixed = ledger.correct(db, game_id, first.box_id, ANN, key="fix")
    assert _totals(db, game_id) == _engine_totals(ANN, CAL)
    undone = ledger.undo(db, game_id, first.box_id, version=fixed.version, key="u")
    assert (undone.action, undone.number) == ("edited", 1)
    assert _totals(db, game_id) == _engine_totals(BOB, CAL)
    table = ledger.load(db, game_id)
    assert table is not None and table.game.boxes[0].hands["Bob"] == Hand(count=4)
    assert _actions(db, game_id, first.box_id) == ["recorded", "edited", "undone"]


def test_undo_of_a_delete_puts_the_box_back_at_its_place(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    ledger.record(db, game_id, BOB, number=1)
    middle = ledger.record(db, game_id, CAL, number=2)
    ledger.record(db, game_id, ANN, number=3)
    assert middle.box_id is not None
    gone = ledger.delete(db, game_id, middle.box_id, key="d")
    assert _totals(db, game_id) == _engine_totals(BOB, ANN)
    undone = ledger.undo(db, game_id, middle.box_id, version=gone.version, key="u")
    assert (undone.action, undone.number) == ("deleted", 2)
    table = ledger.load(db, game_id)
    assert table is not None and [b.id for b in table.boxes][1] == middle.box_id
    assert _totals(db, game_id) == _engine_totals(BOB, CAL, ANN)
    assert table.sheet is not None and table.sheet.boxes[1].winner == "Cal"


def test_undo_is_refused_once_another_phone_wrote(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    mine = ledger.record(db, game_id, BOB, number=1)
    ledger.record(db, game_id, CAL, number=2)  # the other phone
    assert mine.box_id is not None
    with pytest.raises(ledger.NothingToUndo, match="another phone changed this game"):
        ledger.undo(db, game_id, mine.box_id, version=mine.version, key="late")
    assert _totals(db, game_id) == _engine_totals(BOB, CAL)
    assert _actions(db, game_id, mine.box_id) == ["recorded"]


def test_an_undo_key_reused_for_another_box_is_refused(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    first = ledger.record(db, game_id, BOB, number=1)
    assert first.box_id is not None
    ledger.undo(db, game_id, first.box_id, version=first.version, key="k")
    second = ledger.record(db, game_id, CAL, number=1)
    assert second.box_id is not None
    with pytest.raises(ledger.KeyReused):
        ledger.undo(db, game_id, second.box_id, version=second.version, key="k")
    assert _totals(db, game_id) == _engine_totals(CAL)


def test_each_revision_keeps_the_phone_that_wrote_it(db: Session) -> None:
    """Issue 22: history lines say from which phone. A write from the API or the command
    line names none; a revision stored before migration 0010 has none either."""
    game_id = ledger.start(db, GAME).table.id
    box_id = ledger.record(db, game_id, BOB, phone="Bo's phone").box_id or 0
    fixed = ledger.correct(db, game_id, box_id, CAL, phone="Cal's phone")
    ledger.undo(db, game_id, box_id, version=fixed.version, phone="Ann's phone")
    ledger.delete(db, game_id, box_id)
    table = ledger.load(db, game_id)
    assert table is not None
    box = store.get_box(db, table.row, box_id)
    assert box is not None
    assert [(r.action, r.phone) for r in store.history(db, box)] == [
        ("recorded", "Bo's phone"),
        ("edited", "Cal's phone"),
        ("undone", "Ann's phone"),
        ("deleted", None),
    ]
