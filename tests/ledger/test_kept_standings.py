"""The kept standings (issue 34): every write at an event keeps its standings in its own
transaction, and after any sequence of writes they equal a fresh computation from the
stored games (a property test), the difference one game makes is exact, a backup
restores them, and an event stored before them is built by the migration."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine import ScorekeeperError
from scorekeeper.engine.contract import BoxEntry, Hand
from scorekeeper.engine.contract.fields import Ending
from scorekeeper.engine.event import Count, EventEntry, TableResult, TieBreak
from scorekeeper.engine.event.kept import SCALE, Counted, Tally, difference, tally_of, total
from scorekeeper.ledger import events
from scorekeeper.ledger.table import LedgerError
from scorekeeper.store.events import LoadedEvent
from scorekeeper.store.models import KEPT_TABLES
from tests.conftest import copy_database
from tests.walk.kept import assert_kept_is_fresh

SECRET = b"k" * 32
NAMES = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory, migrated_once: Path) -> str:
    """One database for the module: each example starts its own event in it."""
    return copy_database(migrated_once, tmp_path_factory.mktemp("kept") / "kept.sqlite3")


@pytest.fixture
def db(url: str) -> Iterator[Session]:
    with store.opened(url) as session:
        yield session


def _box(table: ledger.Table, by_seat: int, counts: list[int], ending: Ending) -> BoxEntry:
    players = table.players
    by = players[by_seat % len(players)]
    hands = {
        p: Hand(count=0 if p == by and ending == "gin" else c) for p, c in zip(players, counts, strict=False)
    }
    return BoxEntry(ending=ending, by=by, hands=hands)


class _Writes:
    """Random writes at one event, as a director and the tables' scorers make them."""

    def __init__(self, db: Session, event_id: str, draw: Callable[[Any], Any]) -> None:
        self.db, self.id, self.draw = db, event_id, draw
        self.last: dict[str, tuple[int, int]] = {}
        self.n = 0

    def game(self) -> str | None:
        loaded = store.events.load_event(self.db, self.id)
        assert loaded is not None
        games = [g.game for g in loaded.entry.games if g.round == loaded.row.current_round]
        return self.draw(st.sampled_from(games)) if games else None

    def player(self) -> str:
        loaded = store.events.load_event(self.db, self.id)
        assert loaded is not None
        return str(self.draw(st.sampled_from(loaded.playing(max(loaded.row.current_round, 1)))))

    def box(self) -> None:
        game_id = self.game()
        table = ledger.load(self.db, game_id) if game_id else None
        if table is None:
            return
        counts = self.draw(st.lists(st.integers(0, 40), min_size=5, max_size=5))
        entry = _box(
            table, self.draw(st.integers(0, 4)), counts, self.draw(st.sampled_from(["knock", "gin"]))
        )
        written = ledger.record(self.db, table.id, entry)
        if written.box_id is not None:
            self.last[table.id] = (written.box_id, written.version)

    def correct(self) -> None:
        game_id = self.game()
        table = ledger.load(self.db, game_id) if game_id else None
        if table is None or not table.boxes:
            return
        box = self.draw(st.sampled_from(table.boxes))
        counts = self.draw(st.lists(st.integers(0, 40), min_size=5, max_size=5))
        entry = _box(table, self.draw(st.integers(0, 4)), counts, "knock")
        if self.draw(st.booleans()):  # by the director, from his page
            events.correct_box(self.db, self.id, table.id, box.id, entry)
            return
        self.last[table.id] = (box.id, ledger.correct(self.db, table.id, box.id, entry).version)

    def delete(self) -> None:
        game_id = self.game()
        table = ledger.load(self.db, game_id) if game_id else None
        if table is None or not table.boxes:
            return
        box = self.draw(st.sampled_from(table.boxes))
        written = ledger.delete(self.db, table.id, box.id)
        self.last[table.id] = (box.id, written.version)

    def undo(self) -> None:
        if self.last:
            game_id = self.draw(st.sampled_from(sorted(self.last)))
            box_id, version = self.last.pop(game_id)
            ledger.undo(self.db, game_id, box_id, version=version)

    def end_or_reopen(self) -> None:
        game_id = self.game()
        if game_id is None:
            return
        table = ledger.load(self.db, game_id)
        assert table is not None
        by_director = self.draw(st.booleans())
        if table.game.ended:
            (
                events.reopen_table(self.db, self.id, game_id)
                if by_director
                else ledger.reopen(self.db, game_id)
            )
        else:
            (events.end_table(self.db, self.id, game_id) if by_director else ledger.end(self.db, game_id))

    def penalty(self) -> None:
        events.penalize(self.db, self.id, self.player(), self.draw(st.integers(1, 30)), "slow play")

    def withdraw_penalty(self) -> None:
        loaded = store.events.load_event(self.db, self.id)
        assert loaded is not None
        standing = [p.id for p in loaded.entry.penalties if not p.withdrawn and p.id is not None]
        if standing:
            events.withdraw_penalty(self.db, self.id, self.draw(st.sampled_from(standing)), "a mistake")

    def seats(self) -> None:
        first, second = self.player(), self.player()
        if self.draw(st.booleans()):
            events.swap(self.db, self.id, first, second, secret=SECRET)
        else:
            self.n += 1
            events.replace(self.db, self.id, first, f"Sub {self.n}", secret=SECRET)

    def entrants(self) -> None:
        self.n += 1
        if self.draw(st.booleans()):
            events.enter(self.db, self.id, f"Late {self.n}")
        else:
            events.withdraw(self.db, self.id, self.player())

    def round(self) -> None:
        loaded = store.events.load_event(self.db, self.id)
        assert loaded is not None
        current = loaded.round(loaded.row.current_round)
        if current is not None and current.closed_at is None:
            events.close_round(self.db, self.id, force=self.draw(st.booleans()))
        else:
            events.seat_next_round(self.db, self.id, secret=SECRET)


WRITES = ("box", "box", "box", "correct", "delete", "undo", "end_or_reopen", "penalty")
DIRECTOR = ("withdraw_penalty", "seats", "entrants", "round")


@pytest.mark.rule("E1", "E2", "E3", "E4", "E6")
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(
    data=st.data(),
    entrants=st.integers(7, 9),
    count=st.sampled_from(["net", "placings"]),
    bye=st.sampled_from(["average", 5]),
    ties=st.permutations(["won", "boxes", "head_to_head"]),
)
def test_kept_standings_equal_fresh_ones_after_any_writes(
    db: Session,
    data: st.DataObject,
    entrants: int,
    count: Count,
    bye: Literal["average"] | int,
    ties: list[TieBreak],
) -> None:
    entry = EventEntry(
        "Kept", NAMES[:entrants], rounds=3, seed=data.draw(st.integers(0, 10_000)), standings=count, bye=bye
    ).with_changes(tie_breaks=tuple(ties))
    event_id = events.start_event(db, entry, secret=SECRET).event.id
    assert_kept_is_fresh(db, event_id)
    before = _board_after(db, event_id, None)
    writes = _Writes(db, event_id, data.draw)
    for _ in range(data.draw(st.integers(4, 14))):
        action = data.draw(st.sampled_from(WRITES + DIRECTOR))
        try:
            getattr(writes, action)()
        except (LedgerError, ScorekeeperError):
            db.rollback()  # refused: nothing half-saved, the kept rows as they were
        assert_kept_is_fresh(db, event_id)
        before = _board_after(db, event_id, before)


def _board_after(
    db: Session, event_id: str, before: tuple[events.Board, LoadedEvent] | None
) -> tuple[events.Board, LoadedEvent]:
    """The board made from the one before as a projector's process makes it (with the
    event as loaded before when its row did not change, so that only the tables whose
    kept rows changed are made again), held equal to one made from nothing."""
    loaded = store.events.load_event(db, event_id)
    assert loaded is not None
    if before is not None and (before[1].row.version, before[1].row.updated_at) == (
        loaded.row.version,
        loaded.row.updated_at,
    ):
        loaded = before[1]
    made = events.board(db, loaded, before[0] if before else None)
    fresh = events.board(db, store.events.load_event(db, event_id))  # type: ignore[arg-type]
    assert made.standings == fresh.standings
    assert made.tables == fresh.tables
    assert (
        made.every_table
        == fresh.every_table
        == events.table_states(loaded.entry, fresh.results, fresh.ended, substitutes=fresh.substitutes)
    )
    return made, loaded


def _result(game: str, nets: dict[str, int], over: bool = True, boxes: int = 2) -> TableResult:
    return TableResult(1, 1, tuple(nets), dict(nets), {}, over, None, nets, boxes, game)


@pytest.mark.rule("E2", "E6")
def test_a_games_difference_is_exact_both_ways() -> None:
    """A three-way tie for first under placings shares 3 points (1 each) and a third of
    a table won each: adding the game and taking it back leaves nothing, to the point."""
    counting = Counted("placings")
    tied = _result("g1", {"Ann": 0, "Bob": 0, "Cal": 0})
    part = tally_of(counting, tied)
    assert {p: (line.score, line.won) for p, line in part.lines.items()} == {
        p: (SCALE, SCALE // 3) for p in ("Ann", "Bob", "Cal")
    }
    won = _result("g1", {"Ann": 10, "Bob": -4, "Cal": -6})
    change = difference(counting, tied, won)
    assert change.lines["Ann"].score == SCALE  # first's 2 points less the shared 1
    assert change.lines["Ann"].won == SCALE - SCALE // 3
    back = part.plus(change).plus(difference(counting, won, tied))
    assert back.tidy() == part.tidy()
    assert total(counting, [tied]).plus(part, -1).tidy() == Tally()
    assert difference(counting, None, _result("g2", {"Ann": 0, "Bob": 0}, over=False, boxes=0)) == Tally()


def test_a_box_changes_only_its_tables_and_players_rows(db: Session) -> None:
    """A box at one table writes that table's row and its players' rows (the kept
    version they carry goes up), nothing of the other tables."""
    event_id = events.start_event(db, EventEntry("Rows", NAMES, rounds=2, seed=7), secret=SECRET).event.id
    before = store.kept.read(db, event_id)
    assert before is not None and len(before.tables) == 3
    game_id = next(iter(before.tables))
    table = ledger.load(db, game_id)
    assert table is not None
    ledger.record(db, game_id, _box(table, 0, [3, 20, 25], "knock"))
    changed = store.kept.read(db, event_id, since=before.version)
    assert changed is not None and changed.version == before.version + 1 and changed.built == before.built
    assert set(changed.tables) == {game_id}
    assert set(changed.lines) == set(table.players)
    assert_kept_is_fresh(db, event_id)


def test_restore_and_migrate_build_the_kept_standings(db: Session, url: str, tmp_path: Path) -> None:
    """A backup does not carry the kept rows: a restore builds them, and so does
    ``migrate`` for an event that has none (stored before revision 0014)."""
    event_id = events.start_event(db, EventEntry("Kept B", NAMES, rounds=2, seed=11), secret=SECRET).event.id
    game_id = next(iter(store.kept.read(db, event_id).tables))  # type: ignore[union-attr]
    table = ledger.load(db, game_id)
    assert table is not None
    ledger.record(db, game_id, _box(table, 1, [30, 2, 17], "knock"))
    events.penalize(db, event_id, "Ann", 7, "late")
    expected = events.board(db, store.events.load_event(db, event_id)).standings  # type: ignore[arg-type]
    saved = tmp_path / "backup.json"
    store.backup(saved, url)
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    store.restore(saved, target)
    with store.opened(target) as restored:
        assert store.kept.read(restored, event_id) is not None
        assert_kept_is_fresh(restored, event_id)
        loaded = store.events.load_event(restored, event_id)
        assert loaded is not None and events.board(restored, loaded).standings == expected
        for table_ in KEPT_TABLES:
            restored.execute(delete(store.Base.metadata.tables[table_]))
        restored.commit()
        assert store.kept.read(restored, event_id) is None
    store.migrate(target)
    with store.opened(target) as rebuilt:
        assert_kept_is_fresh(rebuilt, event_id)
