"""The use cases (scorekeeper.ledger) on a real database: one concurrency and
idempotency policy for every caller, typed values in and out."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.orm import Session

from scorekeeper import engine, ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand

GAME = GameEntry(rules="jersey-scarne", players=("Ann", "Bob", "Cal"), dealer="Ann")


def knock(by: str, **counts: int) -> BoxEntry:
    return BoxEntry(ending="knock", by=by,
                    hands={p: Hand(count=c) for p, c in counts.items()})


@pytest.fixture
def url(migrated: Callable[[str], str]) -> str:
    return migrated("ledger.sqlite3")


@pytest.fixture
def db(url: str) -> Iterator[Session]:
    with store.opened(url) as session:
        yield session


def test_a_game_is_started_recorded_and_loaded_as_typed_values(db: Session) -> None:
    started = ledger.start(db, GAME)
    assert started.token and not started.repeated
    written = ledger.record(db, started.table.id, knock("Bob", Ann=14, Bob=4, Cal=13),
                            number=1)
    assert written.version == 2 and written.box is not None
    assert written.box.winner == "Bob" and written.box.points == 19
    table = ledger.load(db, started.table.id)
    assert table is not None and table.sheet is not None
    assert table.sheet.totals == {"Ann": 0, "Bob": 19, "Cal": 0}
    assert table.game.boxes[0].hands["Bob"] == Hand(count=4)
    assert table.next_number == 2


def test_the_box_a_save_names_is_taken_by_another_phone(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), number=1)
    with pytest.raises(ledger.BoxTaken) as taken:
        ledger.record(db, game_id, knock("Cal", Ann=20, Bob=30, Cal=5), number=1)
    assert taken.value.number == 1 and taken.value.box.winner == "Bob"
    assert len(taken.value.table.boxes) == 1
    # recorded as the next box instead, on purpose
    ledger.record(db, game_id, knock("Cal", Ann=20, Bob=30, Cal=5), number=2)
    table = ledger.load(db, game_id)
    assert table is not None and len(table.boxes) == 2


def test_a_stale_version_is_a_conflict_with_the_game_as_it_is_now(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), version=1)
    with pytest.raises(ledger.Stale) as stale:
        ledger.record(db, game_id, knock("Cal", Ann=20, Bob=30, Cal=5), version=1)
    assert stale.value.table.version == 2


def test_a_resent_key_does_the_write_once(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    box = knock("Bob", Ann=14, Bob=4, Cal=13)
    first = ledger.record(db, game_id, box, number=1, key="k1")
    again = ledger.record(db, game_id, box, number=1, key="k1")
    assert again.repeated and again.box_id == first.box_id
    table = ledger.load(db, game_id)
    assert table is not None and len(table.boxes) == 1


def test_a_reused_key_with_other_content_is_refused_not_dropped(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), key="k1")
    with pytest.raises(ledger.KeyReused):
        ledger.record(db, game_id, knock("Cal", Ann=20, Bob=30, Cal=5), key="k1")


def test_a_double_tapped_start_makes_one_game(db: Session) -> None:
    first = ledger.start(db, GAME, key="start-1")
    again = ledger.start(db, GAME, key="start-1")
    assert again.repeated and again.table.id == first.table.id and again.token is None
    with pytest.raises(ledger.KeyReused):
        ledger.start(db, GAME.with_boxes([knock("Bob", Ann=14, Bob=4, Cal=13)]),
                     key="start-1")


def test_a_correction_rescores_the_boxes_after_it(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    first = ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13))
    ledger.record(db, game_id, knock("Cal", Ann=20, Bob=30, Cal=5))
    assert first.box_id is not None
    corrected = ledger.correct(db, game_id, first.box_id, knock("Ann", Ann=2, Bob=4, Cal=13))
    sheet = corrected.table.sheet
    assert sheet is not None
    assert [box.winner for box in sheet.boxes] == ["Ann", "Cal"]
    assert sheet.boxes[1].totals["Ann"] == sheet.boxes[0].points
    assert store.verify_game(db, game_id) == []


def test_a_deleted_box_leaves_the_game_consistent(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    first = ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13))
    ledger.record(db, game_id, knock("Cal", Ann=20, Bob=30, Cal=5))
    assert first.box_id is not None
    deleted = ledger.delete(db, game_id, first.box_id, version=3)
    assert deleted.table.sheet is not None and len(deleted.table.sheet.boxes) == 1
    with pytest.raises(ledger.NotFound):
        ledger.delete(db, game_id, first.box_id)
    assert store.verify_game(db, game_id) == []


def test_the_engine_refuses_before_anything_is_stored(db: Session) -> None:
    game_id = ledger.start(db, GAME).table.id
    with pytest.raises(engine.ScorekeeperError):
        ledger.record(db, game_id, knock("Dan", Ann=14, Bob=4, Cal=13))
    table = ledger.load(db, game_id)
    assert table is not None and table.version == 1 and not table.boxes


def test_two_phones_saving_the_same_box_at_once_store_one(url: str) -> None:
    """Two writers race for box 1: one records it, the other is told it was taken."""
    with store.opened(url) as db:
        game_id = ledger.start(db, GAME).table.id
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def phone(by: str) -> None:
        with store.opened(url) as db:
            barrier.wait()
            try:
                counts = {"Ann": 14, "Bob": 20, "Cal": 13, by: 4}
                ledger.record(db, game_id, knock(by, **counts), number=1)
                outcomes.append("recorded")
            except ledger.BoxTaken:
                outcomes.append("taken")

    threads = [threading.Thread(target=phone, args=(by,)) for by in ("Bob", "Cal")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["recorded", "taken"]
    with store.opened(url) as db:
        table = ledger.load(db, game_id)
        assert table is not None and len(table.boxes) == 1
        assert store.verify_game(db, game_id) == []


def test_a_rematch_moves_the_deal_on(db: Session) -> None:
    table = ledger.start(db, GAME).table
    ledger.record(db, table.id, knock("Bob", Ann=14, Bob=4, Cal=13))
    new = ledger.rematch(db, table.id)
    assert new.table.row.rematch_of == table.id
    assert new.table.row.dealer == "Bob"  # the last box was dealt by Ann
