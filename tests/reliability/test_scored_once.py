"""Reads that cost nothing when nothing changed (issue 23): a game read again at the
same version is not ruled again, and a write anywhere (this process, another one, a
restored backup) is never answered with the game as it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand
from scorekeeper.ledger import cache
from scorekeeper.store.models import Box, Game

GAME = GameEntry(rules="jersey-scarne", players=("Ann", "Bob", "Cal"), dealer="Ann")
SECRET = b"s" * 32


def knock(by: str, **counts: int) -> BoxEntry:
    return BoxEntry(ending="knock", by=by, hands={p: Hand(count=c) for p, c in counts.items()})


@pytest.fixture
def db(migrated: Callable[[str], str]) -> Iterator[Session]:
    with store.opened(migrated("cache.sqlite3")) as session:
        yield session


@pytest.fixture
def rulings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the games the ledger scores from their boxes, one entry a scoring."""
    scored: list[str] = []
    original = ledger.Table.of

    def counting(cls: type[ledger.Table], row: store.GameRow, boxes: Sequence[store.BoxRow]) -> ledger.Table:
        scored.append(row.id)
        return original(row, boxes)

    monkeypatch.setattr(ledger.Table, "of", classmethod(counting))
    return scored


def test_a_game_read_again_unchanged_is_not_scored_again(db: Session, rulings: list[str]) -> None:
    game_id = ledger.start(db, GAME).table.id
    ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), number=1)
    rulings.clear()
    first = ledger.load(db, game_id)
    again = ledger.load(db, game_id)
    assert first is not None and again is not None
    assert again.sheet == first.sheet and again.version == first.version == 2
    assert rulings.count(game_id) <= 1, rulings  # the write may have kept it already


def test_a_write_from_another_process_is_never_served_stale(
    db: Session, rulings: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = ledger.start(db, GAME).table.id
    before = ledger.load(db, game_id)
    assert before is not None and before.sheet is not None and not before.boxes
    with monkeypatch.context() as elsewhere:  # another process: its own kept games
        elsewhere.setattr(cache, "KEPT", cache.Kept())
        ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), number=1)
    after = ledger.load(db, game_id)
    assert after is not None and after.sheet is not None
    assert after.version == 2 and len(after.boxes) == 1
    assert after.sheet.totals == {"Ann": 0, "Bob": 19, "Cal": 0}


def test_a_restored_game_at_a_version_it_had_before_is_scored_again(db: Session, rulings: list[str]) -> None:
    """A backup restored under a running server: the game may reach a version it had
    with other boxes. Its ``updated_at`` tells them apart."""
    game_id = ledger.start(db, GAME).table.id
    ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), number=1)
    kept = ledger.load(db, game_id)
    assert kept is not None and kept.sheet is not None
    # The same version with another first box, written later (as after a restore).
    db.execute(
        sa.update(Box)
        .where(Box.game_id == game_id)
        .values(entry=knock("Cal", Ann=20, Bob=30, Cal=5).to_json())
    )
    db.execute(
        sa.update(Game)
        .where(Game.id == game_id)
        .values(updated_at=kept.row.updated_at + timedelta(seconds=1))
    )
    db.commit()
    now = ledger.load(db, game_id)
    assert now is not None and now.sheet is not None and now.version == kept.version
    assert now.sheet.totals == {"Ann": 0, "Bob": 0, "Cal": 40}


def test_renewed_codes_are_read_though_the_game_is_kept(db: Session) -> None:
    """Renewing codes changes the row but not the version: the kept game carries the
    row read now, so an old edit code never unlocks it again."""
    game_id = ledger.start(db, GAME, secret=SECRET).table.id
    before = ledger.load(db, game_id)
    assert before is not None
    old = ledger.codes_of(before.row, SECRET)
    ledger.renew_codes(db, game_id, SECRET)
    after = ledger.load(db, game_id)
    assert after is not None and after.version == before.version
    assert after.row.codes_round == (before.row.codes_round or 0) + 1
    assert not store.check_edit_token(after.row, old.edit)


def test_the_kept_games_are_bounded_least_recently_read_first_out(db: Session) -> None:
    kept = cache.Kept(size=2)
    ids = [ledger.start(db, GAME).table.id for _ in range(3)]
    for game_id in ids:
        assert cache.scored(db, game_id, ledger.Table.of, kept) is not None
    assert len(kept) == 2
    assert cache.scored(db, "no-such-game", ledger.Table.of, kept) is None


def test_a_game_is_kept_once_at_its_last_version_and_boxes_are_bounded(db: Session) -> None:
    """A club evening writes a new version of each game every few minutes: the old one
    makes room, and the boxes kept over all games stay under the bound (memory)."""
    kept = cache.Kept(boxes=3)
    game_id = ledger.start(db, GAME).table.id
    for number in (1, 2):
        ledger.record(db, game_id, knock("Bob", Ann=14, Bob=4, Cal=13), number=number)
        assert cache.scored(db, game_id, ledger.Table.of, kept) is not None
        assert len(kept) == 1
    other = ledger.start(db, GAME).table.id
    assert cache.scored(db, other, ledger.Table.of, kept) is not None
    assert len(kept) == 2  # 2 boxes + 1 for the empty game
    ledger.record(db, other, knock("Bob", Ann=14, Bob=4, Cal=13), number=1)
    ledger.record(db, other, knock("Bob", Ann=14, Bob=4, Cal=13), number=2)
    assert cache.scored(db, other, ledger.Table.of, kept) is not None
    assert len(kept) == 1  # 2 + 2 boxes are past the bound: the game read longest ago went
