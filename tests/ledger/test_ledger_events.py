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
from scorekeeper.engine import ScorekeeperError
from scorekeeper.engine.contract import BoxEntry, Hand, Sheet
from scorekeeper.engine.errors import GameOverError
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


def _first_table(db: Session) -> tuple[store.events.LoadedEvent, str, ledger.Table]:
    """A new event, the game at its first round's table 1, and that table as loaded."""
    event = _start(db).event
    game_id = event.entry.game_of(1, 1)
    assert game_id is not None
    table = ledger.load(db, game_id)
    assert table is not None
    return event, game_id, table


def _box_for(table: ledger.Table, by_seat: int = 0) -> BoxEntry:
    players = table.players
    knocker = players[by_seat]
    return knock(knocker, **{p: (3 if p == knocker else 20 + i) for i, p in enumerate(players)})


def _twice_at_once(url: str, write: Callable[[Session], object]) -> None:
    """``write`` from two threads let go together, each on its own session: neither fails."""
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def run() -> None:
        with store.opened(url) as own:
            barrier.wait()
            try:
                write(own)
            except BaseException as err:
                failures.append(err)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []


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
    event, game_id, table = _first_table(db)
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


def test_a_board_read_beside_the_last_equals_a_fresh_one(db: Session) -> None:
    """The projector's board reads again only the kept rows that changed since the board
    before it (issues 25 and 34): after a box, a correction, a deletion and a forced
    close it is the board read from scratch, and an unchanged table is the very row read
    before until a director's write builds them all again."""
    event, game_id, table = _first_table(db)
    before = events.board(db, event)
    box_id = ledger.record(db, game_id, _box_for(table)).box_id
    assert box_id is not None
    steps: list[Callable[[], object]] = [
        lambda: None,
        lambda: events.correct_box(db, event.id, game_id, box_id, _box_for(table, 1)),
        lambda: events.delete_box(db, event.id, game_id, box_id),
        lambda: ledger.record(db, game_id, _box_for(table, 2)),
        lambda: events.close_round(db, event.id, force=True),
    ]
    for n, step in enumerate(steps):
        step()
        loaded = store.events.load_event(db, event.id)
        assert loaded is not None
        beside, fresh = events.board(db, loaded, before), events.board(db, loaded)
        assert (beside.standings, beside.tables, beside.results, beside.ended) == (
            fresh.standings,
            fresh.tables,
            fresh.results,
            fresh.ended,
        )
        assert beside.kept is not None and before.kept is not None
        unchanged = [g for g in beside.kept.tables if g != game_id]
        kept = [beside.kept.tables[g] is before.kept.tables[g] for g in unchanged]
        # a box, its correction or deletion changes that table's kept row alone; the
        # forced close (a director's write) builds them all again
        assert kept == [n < len(steps) - 1] * 2
        assert (n < len(steps) - 1) == (beside.kept.built == before.kept.built)
        before = beside
    assert before.ended and game_id in before.ended


def test_a_box_makes_the_next_board_from_the_one_before(db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A box at a table (the event as read before: its row did not change) makes the
    next board from the one before without a pass over every table or every name
    (issue 34): the other tables' states are the very objects of the board before, and
    the board equals one made from nothing."""
    event, game_id, table = _first_table(db)
    before = events.board(db, event)
    ledger.record(db, game_id, _box_for(table))

    def every(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pass over every table")

    with monkeypatch.context() as patched:
        patched.setattr(events.reading, "table_states", every)
        patched.setattr(events.reading, "names_of", every)
        after = events.board(db, event, before)
    fresh = events.board(db, event)
    assert (after.standings, after.tables, after.results, after.every_table) == (
        fresh.standings,
        fresh.tables,
        fresh.results,
        fresh.every_table,
    )
    moved = [t.game for t, was in zip(after.every_table, before.every_table, strict=True) if t is not was]
    assert moved == [game_id]
    assert after.tables[0].boxes == 1


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
    # Ann's round-1 game was ended by the forced close; Jo's table has no box yet, so
    # it counts no game for Jo
    assert rows["Ann"].withdrawn and rows["Ann"].games == 1 and rows["Jo"].games == 0
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
    assert old is not None and [e.action for e in store.game_events(db, old)] == ["director", "ended"]
    ledger.record(db, new, _box_for(table))
    with pytest.raises(events.RoundRefused, match="table 1 has started"):
        events.swap(db, event.id, a, b, secret=SECRET)
    c = seating.tables[2][0]
    event = events.replace(db, event.id, c, "Kim", secret=SECRET)
    seating = event.entry.seating_of(1)
    assert seating is not None and seating.place_of("Kim") == (3, 1)
    assert "Kim" in event.playing(2) and c not in event.playing(2)


def test_a_penalty_with_a_note_comes_off_the_score_and_into_the_games_history(db: Session) -> None:
    event = _start(db, standings="placings").event
    with pytest.raises(Exception, match="note"):
        events.penalize(db, event.id, "Bob", 2, " ")
    event = events.penalize(db, event.id, "Bob", 2, "slow play")
    rows = {s.player: s for s in events.standings(db, event.id)}
    # no table has a box yet, so no placing points are shared out: 0 less 2
    assert (rows["Bob"].score, rows["Bob"].penalty) == (0 - 2, 2)
    seating = event.entry.seating_of(1)
    assert seating is not None
    place = seating.place_of("Bob")
    assert place is not None
    game_id = event.entry.game_of(1, place[0])
    assert game_id is not None
    history = store.game_events(db, game_id)
    assert [(e.action, e.detail["note"], e.detail["points"]) for e in history] == [
        ("penalty", "slow play", 2)
    ]


@pytest.mark.rule("E7")
def test_a_timed_round_keeps_its_clock_and_ends_its_games_when_time_is_up(db: Session) -> None:
    """The clock starts with the director's start (not at seating: the cards print, the
    players sit), once per key; the round closes by itself once its minutes are up."""
    seated_at = datetime(2026, 12, 1, 18, 45)
    start = datetime(2026, 12, 1, 19, 0)
    event = events.start_event(
        db,
        EventEntry("Timed", NINE, rounds=2, seed=5, round_ends=RoundEnd("minutes", 40)),
        secret=SECRET,
        now=seated_at,
    ).event
    assert events.clock(event) is None  # seated, not started
    game_id = event.entry.game_of(1, 2)
    assert game_id is not None
    seat = events.seat_of_game(db, game_id)
    assert seat is not None and (seat.event_id, seat.round, seat.table, seat.clock) == (event.id, 1, 2, None)
    with pytest.raises(events.RoundStillPlaying):  # no clock runs: nothing is up
        events.close_round(db, event.id, now=seated_at + timedelta(hours=2))
    event = events.start_round(db, event.id, 1, now=start, key="go-1")
    assert events.clock(event) == (start, 40)
    again = events.start_round(db, event.id, 1, now=start + timedelta(minutes=5), key="go-1")
    assert events.clock(again) == (start, 40) and again.row.version == event.row.version  # written once
    other = events.start_round(db, event.id, 1, now=start + timedelta(minutes=6), key="go-1b")
    assert events.clock(other) == (start, 40) and other.row.version == event.row.version  # runs already
    with pytest.raises(events.RoundRefused):
        events.start_round(db, event.id, 2, now=start, key="go-2")
    assert [h.kind.value for h in store.events.event_history(db, event.id)].count("clock") == 1
    seat = events.seat_of_game(db, game_id)
    assert seat is not None and (seat.table, seat.clock) == (2, (start, 40))
    assert events.seat_of_game(db, "nothing") is None
    with pytest.raises(events.RoundStillPlaying):
        events.close_round(db, event.id, now=start + timedelta(minutes=39))
    event = events.close_round(db, event.id, now=start + timedelta(minutes=40))
    assert event.rounds[0].closed_at is not None
    seat = events.seat_of_game(db, game_id)
    assert seat is not None and seat.clock is None  # a closed round shows no clock
    later = start + timedelta(hours=1)
    seated = events.seat_next_round(db, event.id, secret=SECRET, now=later)
    assert events.clock(seated) is None  # the next round's clock waits for its start too
    assert events.clock(events.start_round(db, event.id, 2, now=later)) == (later, 40)


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
    games = [
        records.Played(
            g,
            datetime(2026, 12, 1).date(),
            "jersey-scarne",
            ("Ann", "Bob"),
            ("ann", "bob"),
            None,
            Sheet(totals={}),
        )
        for g in [*only, "elsewhere"]
    ]
    assert len(records.record("ann", games).games) == 4
    assert len(records.record("ann", games, only=only).games) == 3


def test_a_seating_cut_short_leaves_nothing_and_is_done_again(
    db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash between starting a round's games and storing its seating leaves nothing
    of it (one transaction: no round half seated, no game started for nothing); seating
    again seats it whole."""
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
    assert games_before == 3  # round 1's only
    monkeypatch.setattr(store.events, "add_round", real)
    seated = events.seat_next_round(db, event.id, secret=SECRET)
    assert seated.row.current_round == 2
    assert db.scalar(select(func.count()).select_from(store.Game)) == 6


def test_two_directors_seating_at_once_seat_one_round(migrated: Callable[[str], str]) -> None:
    url = migrated("race.sqlite3")
    with store.opened(url) as db:
        event = _start(db).event
        events.close_round(db, event.id, force=True)
    _twice_at_once(url, lambda own: events.seat_next_round(own, event.id, secret=SECRET))
    with store.opened(url) as db:
        loaded = events.load_event(db, event.id)
        assert loaded is not None and [r.number for r in loaded.rounds] == [1, 2]
        assert len(loaded.entry.games) == 6
        assert db.scalar(select(func.count()).select_from(store.Game)) == 6


@pytest.mark.parametrize(
    ("rules", "size", "count", "sizes"),
    [
        ("knock-rummy", 4, 11, [4, 4, 3]),
        ("gin", 2, 7, [2, 2, 2]),
        ("three-hand-parlett", 3, 7, [3, 3]),
    ],
)
def test_every_rule_set_seats_tables_its_games_accept(
    db: Session, rules: str, size: int, count: int, sizes: list[int]
) -> None:
    names = tuple(f"P{n}" for n in range(count))
    event = events.start_event(
        db, EventEntry("x", names, rounds=3, rules=rules, table_size=size, seed=3), secret=SECRET
    ).event
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


def test_a_penalty_and_its_line_in_the_game_are_one_write(
    db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The penalty and the line it writes in the player's game are one transaction
    (the event's prologue): when the game's line cannot be written, no penalty is kept,
    the event's version is as it was, and the same key then takes it once."""
    event = _start(db).event
    seating = event.entry.seating_of(1)
    assert seating is not None
    place = seating.place_of("Bob")
    assert place is not None
    game_id = event.entry.game_of(1, place[0])
    assert game_id is not None
    before = _state(db, event.id)
    real = store.amend_game

    def cut(*args: object, **kwargs: object) -> object:
        raise RuntimeError("power cut")

    monkeypatch.setattr(store, "amend_game", cut)
    with pytest.raises(RuntimeError):
        events.penalize(db, event.id, "Bob", 2, "slow play", key="p1")
    assert _state(db, event.id) == before
    after = events.load_event(db, event.id)
    assert after is not None and after.entry.penalties == () and after.row.version == event.row.version
    assert store.game_events(db, game_id) == []
    monkeypatch.setattr(store, "amend_game", real)
    once = events.penalize(db, event.id, "Bob", 2, "slow play", key="p1")
    again = events.penalize(db, event.id, "Bob", 2, "slow play", key="p1")
    assert [(p.player, p.points) for p in again.entry.penalties] == [("Bob", 2)]
    assert again.row.version == once.row.version
    assert [e.kind.value for e in store.game_events(db, game_id)] == ["penalty"]
    with pytest.raises(ledger.KeyReused):
        events.penalize(db, event.id, "Bob", 3, "slow play", key="p1")


def test_an_event_that_cannot_seat_round_one_is_not_stored(db: Session) -> None:
    with pytest.raises(ScorekeeperError) as refused:
        events.start_event(db, EventEntry("Too few", ("Ann", "Bob"), seed=1), secret=SECRET)
    assert refused.value.where == "entrants" and "2 entrants" in refused.value.message
    assert db.scalar(select(func.count()).select_from(store.models.Event)) == 0
    assert db.scalar(select(func.count()).select_from(store.Game)) == 0


def _state(db: Session, event_id: str) -> tuple[object, ...]:
    loaded = events.load_event(db, event_id)
    assert loaded is not None
    return (loaded.entrants, tuple((r.number, r.tables) for r in loaded.rounds), loaded.entry.games)


def test_a_swap_or_a_replacement_cut_short_changes_nothing_and_is_done_again(
    db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entrant changes and every table's new seating are one write: a failure at the
    second table (or a refusal) leaves the event as it was, and doing it again starts
    no game twice (the new games' keys)."""
    event = _start(db).event
    seating = event.entry.seating_of(1)
    assert seating is not None
    a, b = seating.tables[0][0], seating.tables[1][2]
    before = _state(db, event.id)
    real = store.events.reseat_table
    calls: list[int] = []

    def cut(*args: object, **kwargs: object) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("power cut")
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store.events, "reseat_table", cut)
    with pytest.raises(RuntimeError):
        events.swap(db, event.id, a, b, secret=SECRET)
    assert _state(db, event.id) == before
    for number in (1, 2):
        game_id = event.entry.game_of(1, number)
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None and not table.game.ended
    games = db.scalar(select(func.count()).select_from(store.Game))
    assert games == 3  # no game started for nothing: one transaction
    monkeypatch.setattr(store.events, "reseat_table", real)
    event = events.swap(db, event.id, a, b, secret=SECRET)
    assert db.scalar(select(func.count()).select_from(store.Game)) == games + 2  # the two tables' new games
    before = _state(db, event.id)
    c = seating.tables[2][1]
    monkeypatch.setattr(store.events, "reseat_table", cut)
    calls[:] = [1]  # the replacement's one table fails
    with pytest.raises(RuntimeError):
        events.replace(db, event.id, c, "Kim", secret=SECRET)
    assert _state(db, event.id) == before  # Kim not entered, c not withdrawn
    games = db.scalar(select(func.count()).select_from(store.Game))
    assert games == 5
    monkeypatch.setattr(store.events, "reseat_table", real)
    event = events.replace(db, event.id, c, "Kim", secret=SECRET)
    assert db.scalar(select(func.count()).select_from(store.Game)) == games + 1
    after = event.entry.seating_of(1)
    assert after is not None and after.place_of(b) == (1, 1) and after.place_of("Kim") == (3, 2)
    assert c in event.withdrawn


@pytest.mark.rule("E5")
def test_a_replacement_refused_mid_game_enters_nobody_and_changes_no_game(db: Session) -> None:
    """Refused mid-game: a player of record who is neither the leaver nor the
    substitute, a game already over. Nothing is written: no entrant, no substitute, no
    history line."""
    event, game_id, table = _first_table(db)
    seating = event.entry.seating_of(1)
    assert seating is not None
    ledger.record(db, game_id, _box_for(table))
    before = _state(db, event.id)
    leaving = seating.tables[0][1]
    with pytest.raises(ScorekeeperError, match="counts for"):
        events.replace(db, event.id, leaving, "Kim", counts_for="Ann Other", secret=SECRET)
    ledger.end(db, game_id, by="director")
    with pytest.raises(events.RoundRefused, match="table 1's game is over"):
        events.replace(db, event.id, leaving, "Kim", secret=SECRET)
    assert _state(db, event.id) == before
    kept = ledger.load(db, game_id)
    assert kept is not None and kept.substitutes == ()
    assert [e.action for e in store.game_events(db, game_id)] == ["ended"]


@pytest.mark.rule("K5")
def test_knock_rummy_live_standings_settle_box_by_box(db: Session) -> None:
    """RULES.md K5's example: while the game plays, the standings are the box-by-box
    settlement as it stands, never the difference of totals."""
    event = events.start_event(
        db,
        EventEntry("Knock night", ("Ann", "Bob", "Cal"), rules="knock-rummy", table_size=3, seed=7),
        secret=SECRET,
    ).event
    game_id = event.entry.game_of(1, 1)
    assert game_id is not None
    ledger.record(db, game_id, knock("Ann", Ann=4, Bob=15, Cal=10))
    rows = {s.player: s.score for s in events.standings(db, event.id)}
    assert rows == {"Ann": 17, "Bob": -11, "Cal": -6}  # not 34, -17, -17
    ledger.record(db, game_id, knock("Cal", Ann=12, Bob=2, Cal=6))
    rows = {s.player: s.score for s in events.standings(db, event.id)}
    assert rows == {"Ann": 7, "Bob": 13, "Cal": -20}  # Bob pays Ann 1; Cal pays 6 and 14
    events.close_round(db, event.id, force=True)  # ended by agreement: the same (K5)
    rows = {s.player: s.score for s in events.standings(db, event.id)}
    assert rows == {"Ann": 7, "Bob": 13, "Cal": -20}


def test_the_director_corrects_and_deletes_boxes_of_a_table_that_was_ended(db: Session) -> None:
    """Issue 25: the director corrects or deletes any box, also at a table closed with
    its round (ended by agreement), each kept in the box's history; the players cannot."""
    event, game_id, table = _first_table(db)
    players = table.players
    first = ledger.record(db, game_id, _box_for(table)).box_id
    second = ledger.record(db, game_id, _box_for(table, 1)).box_id
    assert first is not None and second is not None
    events.close_round(db, event.id, force=True)
    ended = ledger.load(db, game_id)
    assert ended is not None and ended.game.ended == "agreed"
    with pytest.raises(GameOverError):
        ledger.correct(db, game_id, first, _box_for(table, 2))  # a player's phone: no
    with pytest.raises(GameOverError):
        ledger.delete(db, game_id, second)
    with pytest.raises(events.NotInEvent):
        events.correct_box(db, "another", game_id, first, _box_for(table, 2))
    written = events.correct_box(db, event.id, game_id, first, _box_for(table, 2))
    assert written.table.game.ended == "agreed"  # still ended, settled as it now stands
    assert written.table.boxes[0].entry.by == players[2]
    totals = {s.player: s.score for s in events.standings(db, event.id)}
    assert totals[players[2]] > 0
    written = events.delete_box(db, event.id, game_id, second)
    assert [b.id for b in written.table.boxes] == [first]
    history = store.history(db, written.table.boxes[0].row)
    assert [r.action for r in history] == ["recorded", "edited"]  # the correction kept
    assert [e.action for e in store.game_events(db, game_id)] == ["ended"]


def test_entrants_change_all_together_or_not_at_all(db: Session) -> None:
    """Late entries and withdrawals sent together (the director's form) are stored in
    one write: one refused name (not entered, entered twice) leaves the event as it was."""
    event = _start(db).event
    version = event.row.version
    with pytest.raises(events.NotInEvent):
        events.change_entrants(db, event.id, ["Jo", "Kim"], ["Nobody"])
    with pytest.raises(ScorekeeperError, match="already entered"):
        events.change_entrants(db, event.id, ["Jo", "jo"], [])
    unchanged = store.events.load_event(db, event.id)
    assert unchanged is not None and unchanged.row.version == version
    assert [e.name for e in unchanged.entrants] == list(NINE)
    changed = events.change_entrants(db, event.id, ["Jo", "Kim"], ["Ann", "Bob"])
    assert changed.row.version > version
    assert [e.name for e in changed.entrants][-2:] == ["Jo", "Kim"] and changed.withdrawn == ("Ann", "Bob")
    with pytest.raises(ScorekeeperError, match="both enter and withdraw"):
        events.change_entrants(db, event.id, ["ann"], ["Ann"])


def test_a_penalty_key_takes_points_once_even_from_two_taps_at_once(migrated: Callable[[str], str]) -> None:
    """Two requests of one double tap arrive together, before either phone's session
    remembers the form: the event's lock lets one in at a time, and the key stored with
    the first penalty makes the second take nothing."""
    url = migrated("penalty-race.sqlite3")
    with store.opened(url) as db:
        event = _start(db).event
    _twice_at_once(url, lambda own: events.penalize(own, event.id, "Bob", 2, "slow play", key="pen-1"))
    with store.opened(url) as db:
        loaded = events.load_event(db, event.id)
        assert loaded is not None and [p.points for p in loaded.entry.penalties] == [2]
        place = loaded.entry.seating[0].place_of("Bob")
        assert place is not None
        game_id = loaded.entry.game_of(1, place[0])
        assert game_id is not None  # the penalty is in Bob's game's history once
        assert [e.action for e in store.game_events(db, game_id)].count("penalty") == 1
        again = events.penalize(db, event.id, "Bob", 2, "slow play", key="pen-2")
        assert [p.points for p in again.entry.penalties] == [2, 2]  # a new form takes again


@pytest.mark.rule("E7")
def test_a_round_of_n_boxes_counts_scored_boxes_only(db: Session) -> None:
    """A round that ends after two boxes: a misdeal does not count, so a table with one
    scored box and a misdeal still plays; with its second scored box the round closes
    without force."""
    event = _start(db, round_ends=RoundEnd("boxes", 2)).event
    for number in (1, 2, 3):
        game_id = event.entry.game_of(1, number)
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None
        ledger.record(db, game_id, _box_for(table))
        if number == 1:
            ledger.record(db, game_id, BoxEntry(ending="misdeal"))
        else:
            ledger.record(db, game_id, _box_for(table, 1))
    with pytest.raises(events.RoundStillPlaying) as playing:
        events.close_round(db, event.id)
    assert playing.value.tables == (1,)
    first = event.entry.game_of(1, 1)
    assert first is not None
    table = ledger.load(db, first)
    assert table is not None
    ledger.record(db, first, _box_for(table, 2))
    closed = events.close_round(db, event.id)
    assert closed.round(1) is not None and closed.round(1).closed_at is not None  # type: ignore[union-attr]


@pytest.mark.rule("E5")
def test_a_substitute_takes_the_seat_and_the_one_replaced_stays_in_the_standings(db: Session) -> None:
    """E5 before a table's first box: the substitute takes the seat in a new game of
    the table (kept in the old game's history) and plays on in the rounds after; the
    player replaced stays in the standings, marked withdrawn. (Mid-game: below.)"""
    event = _start(db).event
    seating = event.entry.seating_of(1)
    assert seating is not None
    leaving = seating.tables[1][2]
    old_game = event.entry.game_of(1, 2)
    replaced = events.replace(db, event.id, leaving, "Kim", secret=SECRET)
    after = replaced.entry.seating_of(1)
    assert after is not None and after.place_of("Kim") == (2, 3)
    assert leaving in replaced.withdrawn and "Kim" in replaced.playing(2)
    assert leaving in [s.player for s in events.standings(db, replaced)]
    assert old_game is not None
    lines = store.game_events(db, old_game)
    assert [line.kind.value for line in lines] == ["director", "ended"]
    assert lines[0].detail["game"] == replaced.entry.game_of(1, 2)


@pytest.mark.rule("E5")
@pytest.mark.parametrize("counts_for", [None, "Zed"])
def test_a_substitute_mid_game_plays_the_seat_from_the_next_box_and_counts_for_whom_the_director_says(
    db: Session, counts_for: str | None
) -> None:
    """E5 mid-game: the game is kept; the substitute plays the seat from the next box
    (data on the game and a line in its history); the seat's whole result counts for
    the original entrant by default, for the substitute when the director names him;
    the key sent again changes nothing; the leaver withdraws from the next round and the
    substitute takes his place there."""
    event = _start(db).event
    game_id = event.entry.game_of(1, 2)
    assert game_id is not None
    table = ledger.load(db, game_id)
    assert table is not None
    seat = table.players[1]
    ledger.record(db, game_id, _box_for(table, 1))  # the seat wins box 1: 3 against 20 + 22
    replaced = events.replace(db, event.id, seat, "Zed", counts_for=counts_for, secret=SECRET, key="r-1")
    again = events.replace(db, event.id, seat, "Zed", counts_for=counts_for, secret=SECRET, key="r-1")
    assert again.row.version == replaced.row.version
    assert replaced.entry.game_of(1, 2) == game_id  # the game is kept
    kept = ledger.load(db, game_id)
    assert kept is not None and kept.players == table.players and len(kept.boxes) == 1
    owner = counts_for or seat
    assert [s.to_json() for s in kept.substitutes] == [
        {"seat": seat, "by": "Zed", "from_box": 2, "counts_for": owner}
    ]
    line = store.game_events(db, game_id)[-1]
    assert line.kind.value == "replaced" and line.detail["from_box"] == 2
    ledger.record(db, game_id, _box_for(kept, 1))  # Zed plays the seat: box 2 is the seat's
    ledger.end(db, game_id, by="director")
    after = events.load_event(db, event.id)
    assert after is not None
    result = ledger.load(db, game_id)
    assert result is not None and result.sheet is not None
    seat_net = records.counted_result(
        next(g for g in store.events.table_games(db, event.id) if g.game_id == game_id)
    ).net[owner]
    settled = {p: 0 for p in result.players}
    for pay in result.sheet.settlement:
        settled[pay.payer] -= pay.points
        settled[pay.payee] += pay.points
    assert seat_net == settled[seat] and seat_net > 0
    rows = {s.player: s for s in events.standings(db, after)}
    assert rows[owner].score == seat_net and rows[owner].games == 1
    other = "Zed" if owner == seat else seat
    assert other not in rows or rows[other].games == 0
    assert seat in after.withdrawn and "Zed" in after.playing(2) and "Zed" not in after.playing(1)
