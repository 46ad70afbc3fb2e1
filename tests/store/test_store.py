"""The store: migrations, versioned writes of plain records, idempotency keys, box
history, and the database's own write lock."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from scorekeeper import store
from scorekeeper.ledger.codes import free_codes, make_codes

GAME = store.NewGame(
    rules="jersey-scarne",
    settings={},
    players=["Ann", "Bob", "Cal"],
    dealer="Ann",
    stake=None,
    summary={"totals": {}},
)
BOX = {"ending": "misdeal"}
RULING = {"result": "misdeal", "winner": None}
SUMMARY = {"totals": {}, "boxes": 1}


def _url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    store.migrate(url)
    store.migrate(url)  # applying twice is harmless
    return url


def _db(tmp_path: Path) -> Session:
    return Session(store.connect(_url(tmp_path)), expire_on_commit=False)


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    db = _db(tmp_path)
    assert db.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    assert db.execute(text("PRAGMA busy_timeout")).scalar() == store.SQLITE_BUSY_MS


def test_versioned_writes_and_history(tmp_path: Path) -> None:
    db = _db(tmp_path)
    game, token = store.create_game(db, GAME)
    assert store.check_edit_token(game, token) and not store.check_edit_token(game, "x")
    assert token not in game.edit_token_hash and len(token) >= 32
    key = store.Key("k", "digest-1")
    written = store.append_box(db, game.id, 1, BOX, rulings={None: RULING}, summary=SUMMARY, key=key)
    assert written.version == 2 and not written.repeated
    again = store.append_box(db, game.id, 1, BOX, rulings={None: RULING}, summary=SUMMARY, key=key)
    assert again.repeated and again.digest == "digest-1"
    with pytest.raises(store.StaleWrite) as stale:
        store.append_box(db, game.id, 1, BOX, rulings={None: RULING}, summary=SUMMARY)
    assert stale.value.current_version == 2
    assert written.box_id is not None
    store.replace_box(
        db,
        game.id,
        written.box_id,
        2,
        {"ending": "misdeal", "note": "n"},
        rulings={written.box_id: RULING},
        summary=SUMMARY,
    )
    store.delete_box(db, game.id, written.box_id, 3, rulings={}, summary={"totals": {}})
    row = store.get_game(db, game.id)
    assert row is not None and row.version == 4 and store.live_boxes(db, row) == []
    box = store.get_box(db, row, written.box_id)
    assert box is not None and box.deleted
    assert [r.action for r in store.history(db, box)] == ["recorded", "edited", "deleted"]
    with pytest.raises(store.BoxNotFound):
        store.delete_box(db, game.id, written.box_id, 4, rulings={}, summary={})
    with pytest.raises(store.GameNotFound):
        store.append_box(db, "nope", 1, BOX, rulings={None: RULING}, summary=SUMMARY)


def test_a_repeated_key_at_the_current_version_writes_nothing(tmp_path: Path) -> None:
    """The key's uniqueness, not a look-up beforehand, catches a repeat that names the
    version as it is now: the second write is undone and answered with the first."""
    db = _db(tmp_path)
    game, _token = store.create_game(db, GAME)
    key = store.Key("tap", "d")
    first = store.append_box(db, game.id, 1, BOX, rulings={None: RULING}, summary=SUMMARY, key=key)
    again = store.append_box(db, game.id, 2, BOX, rulings={None: RULING}, summary=SUMMARY, key=key)
    assert again == store.WriteResult(2, first.box_id, repeated=True, digest="d")
    row = store.get_game(db, game.id)
    assert row is not None and row.version == 2
    boxes = store.live_boxes(db, row)
    assert len(boxes) == 1 and len(store.history(db, boxes[0])) == 1


def test_a_start_key_is_taken_once(tmp_path: Path) -> None:
    db = _db(tmp_path)
    game, _token = store.create_game(db, GAME, key=store.Key("start", "d"))
    assert store.started_with(db, "start") == (game.id, "d")
    with pytest.raises(store.KeyTaken):
        store.create_game(db, GAME, key=store.Key("start", "d"))
    assert len(list(store.all_game_ids(db))) == 1


def test_the_other_rulings_a_write_names_are_stored(tmp_path: Path) -> None:
    """A correction early in a game changes the rulings after it: the store writes the
    ones it is given, by box id, in the same transaction."""
    db = _db(tmp_path)
    game, _token = store.create_game(db, GAME)
    one = store.append_box(db, game.id, 1, BOX, rulings={None: RULING}, summary=SUMMARY)
    two = store.append_box(db, game.id, 2, BOX, rulings={None: RULING}, summary=SUMMARY)
    assert one.box_id is not None and two.box_id is not None
    store.replace_box(
        db,
        game.id,
        one.box_id,
        3,
        {"ending": "misdeal", "note": "x"},
        rulings={one.box_id: {**RULING, "note": "x"}, two.box_id: {**RULING, "totals": {"Ann": 1}}},
        summary=SUMMARY,
    )
    row = store.get_game(db, game.id)
    assert row is not None
    rulings = {box.id: box.ruling for box in store.live_boxes(db, row)}
    assert rulings == {one.box_id: {**RULING, "note": "x"}, two.box_id: {**RULING, "totals": {"Ann": 1}}}


def test_a_writer_holds_the_database_until_it_ends(tmp_path: Path) -> None:
    """store.writing begins BEGIN IMMEDIATE on SQLite: while the first writer holds the
    game another writer cannot begin (a connection that will not wait is refused at
    once) and one that waits goes ahead once the first ends, while readers are not held
    up; an error inside the block rolls the write back and lets the lock go. The
    threads are ordered by events, not by sleeping."""
    url = _url(tmp_path)
    with store.opened(url) as db:
        game, _token = store.create_game(db, GAME)
    order: list[str] = []
    held, checked = threading.Event(), threading.Event()

    def first() -> None:
        with store.opened(url) as db, store.writing(db, game.id):
            held.set()
            checked.wait(timeout=30)
            order.append("first done")

    thread = threading.Thread(target=first)
    thread.start()
    assert held.wait(timeout=30)
    with store.opened(url) as reader:
        assert store.game_version(reader, game.id) == 1  # readers go on
        order.append("read")
    impatient = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=0, isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            impatient.execute("BEGIN IMMEDIATE")  # the first writer holds the database
    finally:
        impatient.close()
    checked.set()
    with store.opened(url) as db, store.writing(db, game.id):
        order.append("second in")
    thread.join()
    assert order == ["read", "first done", "second in"]
    with store.opened(url) as db:
        with pytest.raises(RuntimeError), store.writing(db, game.id):
            db.connection().execute(text("UPDATE games SET version = 99"))
            raise RuntimeError("refused")
        assert not db.in_transaction()
        assert store.game_version(db, game.id) == 1


def test_a_join_code_is_taken_only_by_another_game(tmp_path: Path) -> None:
    """Starting a game asks whether another game has the short code it would get (one
    existence check, ``free_codes``): the game's own code is not taken, another's is."""
    db = _db(tmp_path)
    secret = b"s" * 32
    first, _ = store.create_game(db, GAME, game_id="first", codes=make_codes(secret, "first", 1))
    taken = make_codes(secret, "first", 1).join
    assert store.join_code_taken(db, taken, "second")
    assert not store.join_code_taken(db, taken, first.id)
    assert not store.join_code_taken(db, make_codes(secret, "second", 1).join, "second")
    # A game whose first round's short code another game has goes on to round 2.
    clash = store.Codes("e" * 32, make_codes(secret, "third", 1).join, 1)
    store.create_game(db, GAME, game_id="other", codes=clash)
    assert free_codes(db, secret, "third", 1) == make_codes(secret, "third", 2)
    assert free_codes(db, secret, "first", 1) == make_codes(secret, "first", 1)
