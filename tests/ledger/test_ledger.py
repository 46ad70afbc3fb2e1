"""The use cases (scorekeeper.ledger) on a real database: one concurrency and
idempotency policy for every caller, typed values in and out."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy.orm import Session

from scorekeeper import engine, ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand

GAME = GameEntry(rules="jersey-scarne", players=("Ann", "Bob", "Cal"), dealer="Ann")


def knock(by: str, **counts: int) -> BoxEntry:
    return BoxEntry(ending="knock", by=by, hands={p: Hand(count=c) for p, c in counts.items()})


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
    written = ledger.record(db, started.table.id, knock("Bob", Ann=14, Bob=4, Cal=13), number=1)
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
        ledger.start(db, GAME.with_boxes([knock("Bob", Ann=14, Bob=4, Cal=13)]), key="start-1")


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


def _same(after: ledger.Table, loaded: ledger.Table | None) -> None:
    """The table a write built is the game as a fresh read scores it."""
    assert loaded is not None
    assert dataclasses.replace(after.row, updated_at=loaded.row.updated_at) == loaded.row
    assert after.boxes == loaded.boxes and after.game == loaded.game
    assert after.sheet == loaded.sheet and after.error is None
    assert after.scoring is not None and loaded.scoring is not None
    assert after.scoring.sheet() == loaded.scoring.sheet()


def test_a_write_scores_its_game_once_and_builds_the_game_after_it(
    db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write reads its game (from the process's cache: the write before it kept the
    game it built), scores it once (a recorded box alone, a change rescores the game)
    and builds the game after it from the game before: what a fresh read scores."""
    load_game, score = store.load_game, engine.Scoring.of
    game_id = ledger.start(db, GAME).table.id
    calls: list[str] = []

    def read(session: Session, wanted: str) -> object:
        calls.append("read")
        return load_game(session, wanted)

    def scored(data: Any) -> engine.Scoring:
        calls.append("score")
        return score(data)

    def fresh() -> ledger.Table:
        found = load_game(db, game_id)
        assert found is not None
        return ledger.Table.of(*found)

    monkeypatch.setattr(store, "load_game", read)
    monkeypatch.setattr(engine.Scoring, "of", scored)
    cards = BoxEntry(
        ending="knock",
        by="Bob",
        hands={
            "Bob": Hand(cards=("AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C")),
            "Ann": Hand(count=14),
            "Cal": Hand(count=13),
        },
    )
    writes: list[Callable[[], ledger.Written]] = [
        lambda: ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), number=1),
        lambda: ledger.record(db, game_id, cards, laid_out=True),
        lambda: ledger.record(db, game_id, knock("Cal", Ann=20, Bob=30, Cal=5)),
    ]
    for write in writes:
        calls.clear()
        written = write()
        assert calls == []  # the box is added to the kept game's score: nothing read
        _same(written.table, fresh())
    table = written.table
    assert table.boxes[1].entry.hands["Bob"].form == "declared"  # laid out (C8)
    first, second, third = (box.id for box in table.boxes)
    later: list[Callable[[ledger.Written], ledger.Written]] = [
        lambda w: ledger.correct(db, game_id, second, knock("Ann", Ann=2, Bob=30, Cal=9)),
        lambda w: ledger.undo(db, game_id, second, version=w.version),
        lambda w: ledger.delete(db, game_id, first),
        lambda w: ledger.undo(db, game_id, first, version=w.version),
        lambda w: ledger.record(db, game_id, knock("Ann", Ann=1, Bob=30, Cal=9)),
        lambda w: ledger.undo(db, game_id, w.box_id or 0, version=w.version),
        lambda w: ledger.change_rules(db, game_id, {"underknock_bonus": 20}),
        lambda w: ledger.end(db, game_id),
    ]
    for change in later:
        calls.clear()
        version = written.version
        written = change(written)
        assert calls in (["score"], [])  # the changed game, once (a new box: no rescore)
        assert not written.repeated
        assert written.version == version + 1 == written.table.version
        _same(written.table, fresh())
    assert [box.id for box in written.table.boxes] == [first, second, third]
    assert written.table.sheet is not None and written.table.sheet.game_over
    calls.clear()
    assert ledger.load(db, game_id) == written.table and calls == []


def test_an_ended_game_refuses_a_change_in_its_own_words(db: Session) -> None:
    """Found in review: a two-hand game ended by agreement refused a correction "after
    box 1", a word its players never see (G-games say hand). Now each game's own word."""
    for game, word in ((GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann"), "hand"), (GAME, "box")):
        game_id = ledger.start(db, game).table.id
        hands = {p: Hand(count=c) for p, c in zip(game.players, (2, 20, 30), strict=False)}
        box_id = ledger.record(db, game_id, BoxEntry(ending="knock", by="Ann", hands=hands)).box_id
        ledger.end(db, game_id)
        with pytest.raises(engine.ScorekeeperError, match=f"ended this game by agreement after {word} 1:"):
            ledger.delete(db, game_id, box_id or 0)
