"""The use cases of an event (ledger.events): start, seat, close, entrants, seats, the
director's right, penalties, timed rounds and the standings they leave."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from scorekeeper import ledger, records, store
from scorekeeper.engine.contract import BoxEntry, Hand, Sheet
from scorekeeper.engine.event import EventEntry, RoundEnd
from scorekeeper.engine.movement import met, repeats
from scorekeeper.ledger import events

SECRET = b"s" * 32
NINE = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")


def knock(by: str, **counts: int) -> BoxEntry:
    return BoxEntry(ending="knock", by=by, hands={p: Hand(count=c) for p, c in counts.items()})


@pytest.fixture
def db(migrated: Callable[[str], str]) -> Iterator[Session]:
    with store.opened(migrated("events.sqlite3")) as session:
        yield session


def _start(db: Session, key: str = "form-1", **changes: object) -> events.Started:
    event = EventEntry("Tuesday Jersey", NINE, rounds=3, seed=2026, place="Club")
    return events.start_event(db, event.with_changes(**changes), secret=SECRET, key=key)


def _box_for(table: ledger.Table, by_seat: int = 0) -> BoxEntry:
    players = table.players
    knocker = players[by_seat]
    return knock(knocker, **{p: (3 if p == knocker else 20 + i) for i, p in enumerate(players)})


def test_starting_an_event_seats_round_one_and_creates_each_tables_game(db: Session) -> None:
    started = _start(db)
    event = started.event
    assert started.codes is not None and event.row.seed == 2026
    seating = event.entry.seating_of(1)
    assert seating is not None and len(seating.tables) == 3 and not seating.byes
    assert sorted(seating.players) == sorted(NINE)
    for number, seats in enumerate(seating.tables, start=1):
        game_id = event.entry.game_of(1, number)
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None
        assert tuple(table.players) == seats and table.game.rules == "jersey-scarne"
        assert table.row.dealer in seats  # by the cut (J1)
        assert table.row.place == f"Tuesday Jersey, round 1, table {number}, Club"
        assert table.row.codes_round == 1  # a table card's QR code opens it to score
    again = _start(db)  # the same form sent twice: one event
    assert again.repeated and again.event.id == event.id
    assert events.is_director(event.row, started.codes.director)
    joined = events.director_joined(db, started.codes.join.lower(), SECRET)
    assert joined is not None and joined[0].id == event.id
    renewed = events.renew_director_codes(db, event.id, SECRET)
    row = store.events.get_event(db, event.id)
    assert row is not None and not events.is_director(row, started.codes.director)
    assert events.is_director(row, renewed.director)


def test_standings_follow_every_box_correction_and_deletion(db: Session) -> None:
    event = _start(db).event
    game_id = event.entry.game_of(1, 1)
    assert game_id is not None
    table = ledger.load(db, game_id)
    assert table is not None
    first = table.players[0]
    written = ledger.record(db, game_id, _box_for(table))
    rows = {s.player: s for s in events.standings(db, event.id)}
    # a knock with 3 against 20 and 21 (or 22): the running net as the totals stand
    totals = written.table.sheet.totals if written.table.sheet else {}
    assert rows[first].score == 3 * totals[first] - sum(totals.values()) > 0
    assert rows[first].boxes == 1 and rows[first].games == 1
    box_id = written.box_id
    assert box_id is not None
    second = table.players[1]
    events.correct_box(db, event.id, game_id, box_id, _box_for(table, 1))
    rows = {s.player: s for s in events.standings(db, event.id)}
    assert rows[second].boxes == 1 and rows[first].boxes == 0 and rows[second].rank == 1
    events.delete_box(db, event.id, game_id, box_id)
    assert all(s.score == 0 and s.boxes == 0 for s in events.standings(db, event.id))
    with pytest.raises(ledger.KeyReused):  # the same form's key, another event
        _start(db, name="Other", entrants=("Zed", "Yan", "Xia"))
    other = _start(db, "form-2", name="Other", entrants=("Zed", "Yan", "Xia")).event
    with pytest.raises(events.NotInEvent):
        events.delete_box(db, other.id, game_id, box_id)


@pytest.mark.rule("K5")
def test_closing_a_round_refuses_while_tables_play_unless_forced(db: Session) -> None:
    event = _start(db).event
    game_ids = [event.entry.game_of(1, n) for n in (1, 2, 3)]
    for game_id in game_ids:
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None
        ledger.record(db, game_id, _box_for(table))
    with pytest.raises(events.RoundStillPlaying) as refused:
        events.close_round(db, event.id)
    assert refused.value.tables == (1, 2, 3) and "tables 1, 2, 3" in str(refused.value)
    with pytest.raises(events.RoundRefused):
        events.seat_next_round(db, event.id, secret=SECRET)
    closed = events.close_round(db, event.id, force=True)
    for game_id in game_ids:
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None and table.game.ended == "agreed"  # settled as it stands
        assert [e.action for e in store.game_events(db, game_id)] == ["ended"]
    assert closed.rounds[0].closed_at is not None
    rows = events.standings(db, event.id)
    assert sum(s.score for s in rows) == 0 and sum(s.won for s in rows) == 3
    second = events.seat_next_round(db, event.id, secret=SECRET)
    seating = second.entry.seating_of(2)
    assert seating is not None
    assert repeats(seating.tables, met(second.entry.seating[:1])) == 0
    with pytest.raises(events.RoundRefused, match="round 2 is not closed"):
        events.seat_next_round(db, event.id, secret=SECRET)  # a second tap: nothing more


def test_late_entries_and_withdrawals_take_effect_next_round(db: Session) -> None:
    event = _start(db).event
    events.enter(db, event.id, "Jo")
    events.withdraw(db, event.id, "ann")
    with pytest.raises(events.NotInEvent):
        events.withdraw(db, event.id, "Nobody")
    event = events.close_round(db, event.id, force=True)
    event = events.seat_next_round(db, event.id, secret=SECRET)
    seating = event.entry.seating_of(2)
    assert seating is not None
    everyone = [*seating.players, *seating.byes]
    assert "Jo" in everyone and "Ann" not in everyone and len(everyone) == 9
    rows = {s.player: s for s in events.standings(db, event.id)}
    assert rows["Ann"].withdrawn and rows["Ann"].games == 1 and rows["Jo"].games == 1
    with pytest.raises(Exception, match="already entered"):
        events.enter(db, event.id, "JO")


def test_seats_are_swapped_before_a_table_starts_and_not_after(db: Session) -> None:
    event = _start(db).event
    seating = event.entry.seating_of(1)
    assert seating is not None
    a, b = seating.tables[0][0], seating.tables[1][2]
    old = event.entry.game_of(1, 1)
    event = events.swap(db, event.id, a, b, secret=SECRET)
    seating = event.entry.seating_of(1)
    assert seating is not None and seating.place_of(b) == (1, 1) and seating.place_of(a) == (2, 3)
    new = event.entry.game_of(1, 1)
    assert new != old and new is not None
    table = ledger.load(db, new)
    assert table is not None and table.players[0] == b
    assert old is not None and [e.action for e in store.game_events(db, old)] == [
        "director", "ended"]
    ledger.record(db, new, _box_for(table))
    with pytest.raises(events.RoundRefused, match="table 1 has started"):
        events.swap(db, event.id, a, b, secret=SECRET)
    with pytest.raises(events.RoundRefused):
        events.replace(db, event.id, b, "Kim", secret=SECRET)
    assert "Kim" not in [e.name for e in events.load_event(db, event.id).entrants]  # type: ignore[union-attr]
    c = seating.tables[2][0]
    event = events.replace(db, event.id, c, "Kim", secret=SECRET)
    seating = event.entry.seating_of(1)
    assert seating is not None and seating.place_of("Kim") == (3, 1)
    assert "Kim" in event.playing(2) and c not in event.playing(2)


def test_a_penalty_with_a_note_comes_off_the_score_and_into_the_games_history(
        db: Session) -> None:
    event = _start(db, standings="placings").event
    with pytest.raises(Exception, match="note"):
        events.penalize(db, event.id, "Bob", 2, " ")
    event = events.penalize(db, event.id, "Bob", 2, "slow play")
    rows = {s.player: s for s in events.standings(db, event.id)}
    assert (rows["Bob"].score, rows["Bob"].penalty) == (1 - 2, 2)  # level at 1 each, less 2
    seating = event.entry.seating_of(1)
    assert seating is not None
    place = seating.place_of("Bob")
    assert place is not None
    game_id = event.entry.game_of(1, place[0])
    assert game_id is not None
    history = store.game_events(db, game_id)
    assert [(e.action, e.detail["note"], e.detail["points"]) for e in history] == [
        ("penalty", "slow play", 2)]


def test_a_timed_round_keeps_its_clock_and_ends_its_games_when_time_is_up(
        db: Session) -> None:
    start = datetime(2026, 12, 1, 19, 0)
    event = events.start_event(
        db, EventEntry("Timed", NINE, rounds=2, seed=5, round_ends=RoundEnd("minutes", 40)),
        secret=SECRET, now=start).event
    assert events.clock(event) == (start, 40)
    game_id = event.entry.game_of(1, 2)
    assert game_id is not None
    assert events.seat_of_game(db, game_id) == events.Seat(event.id, 1, 2, (start, 40))
    assert events.seat_of_game(db, "nothing") is None
    with pytest.raises(events.RoundStillPlaying):
        events.close_round(db, event.id, now=start + timedelta(minutes=39))
    event = events.close_round(db, event.id, now=start + timedelta(minutes=40))
    assert event.rounds[0].closed_at is not None
    seat = events.seat_of_game(db, game_id)
    assert seat is not None and seat.clock is None  # a closed round shows no clock
    later = start + timedelta(hours=1)
    seated = events.seat_next_round(db, event.id, secret=SECRET, now=later)
    assert events.clock(seated) == (later, 40)  # the next round's clock starts seated


def test_a_round_ending_after_boxes_closes_once_each_table_has_them(db: Session) -> None:
    event = _start(db, round_ends=RoundEnd("boxes", 1)).event
    for number in (1, 2):
        game_id = event.entry.game_of(1, number)
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None
        ledger.record(db, game_id, _box_for(table))
    with pytest.raises(events.RoundStillPlaying) as refused:
        events.close_round(db, event.id)
    assert refused.value.tables == (3,)


def test_event_games_count_in_players_records_with_an_event_filter(db: Session) -> None:
    event = _start(db).event
    only = store.events.event_game_ids(db, event.id)
    assert len(only) == 3
    games = [records.Played(g, datetime(2026, 12, 1).date(), "jersey-scarne",
                            ("Ann", "Bob"), ("ann", "bob"), None,
                            Sheet(totals={}))
             for g in [*only, "elsewhere"]]
    assert len(records.record("ann", games).games) == 4
    assert len(records.record("ann", games, only=only).games) == 3


def test_a_seating_cut_short_is_done_again_with_the_same_games(
        db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash between starting a round's games and storing its seating leaves no round
    half seated; seating again finds the games it started (their keys) and stores it."""
    event = _start(db).event
    events.close_round(db, event.id, force=True)
    real = store.events.add_round

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("power cut")

    monkeypatch.setattr(store.events, "add_round", crash)
    with pytest.raises(RuntimeError):
        events.seat_next_round(db, event.id, secret=SECRET)
    loaded = events.load_event(db, event.id)
    assert loaded is not None and loaded.row.current_round == 1 and len(loaded.rounds) == 1
    games_before = db.scalar(select(func.count()).select_from(store.Game))
    monkeypatch.setattr(store.events, "add_round", real)
    seated = events.seat_next_round(db, event.id, secret=SECRET)
    assert seated.row.current_round == 2
    assert db.scalar(select(func.count()).select_from(store.Game)) == games_before == 6


def test_two_directors_seating_at_once_seat_one_round(migrated: Callable[[str], str]) -> None:
    url = migrated("race.sqlite3")
    with store.opened(url) as db:
        event = _start(db).event
        events.close_round(db, event.id, force=True)
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def seat() -> None:
        with store.opened(url) as own:
            barrier.wait()
            try:
                events.seat_next_round(own, event.id, secret=SECRET)
            except BaseException as err:
                failures.append(err)

    threads = [threading.Thread(target=seat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    with store.opened(url) as db:
        loaded = events.load_event(db, event.id)
        assert loaded is not None and [r.number for r in loaded.rounds] == [1, 2]
        assert len(loaded.entry.games) == 6
        assert db.scalar(select(func.count()).select_from(store.Game)) == 6


@pytest.mark.parametrize(("rules", "size", "count", "sizes"), [
    ("knock-rummy", 4, 11, [4, 4, 3]),
    ("gin", 2, 7, [2, 2, 2]),
    ("three-hand-parlett", 3, 7, [3, 3]),
])
def test_every_rule_set_seats_tables_its_games_accept(
        db: Session, rules: str, size: int, count: int, sizes: list[int]) -> None:
    names = tuple(f"P{n}" for n in range(count))
    event = events.start_event(db, EventEntry("x", names, rounds=3, rules=rules,
                                              table_size=size, seed=3), secret=SECRET).event
    seating = event.entry.seating_of(1)
    assert seating is not None and sorted(map(len, seating.tables), reverse=True) == sizes
    for number, seats in enumerate(seating.tables, start=1):
        game_id = event.entry.game_of(1, number)
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None and table.game.rules == rules and table.sheet is not None
        assert tuple(table.players) == seats
    events.close_round(db, event.id, force=True)
    second = events.seat_next_round(db, event.id, secret=SECRET).entry.seating_of(2)
    assert second is not None and len(second.byes) == count - sum(sizes)
    assert not set(second.byes) & set(seating.byes)  # byes spread
