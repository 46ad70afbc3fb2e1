"""A season changed after it is made (issue 36): its counting changed and undone, an
evening leaving the club and joining a season, an evening planned, changed, cancelled,
uncancelled and started; each a write of the club's prologue with its history line,
the ladder and the ratings following in the same write."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine import ScorekeeperError
from scorekeeper.engine.contract.club import PlanEntry, SeasonEntry
from scorekeeper.engine.errors import MalformedError
from scorekeeper.engine.history import Kind, words
from scorekeeper.engine.ladder import Ladder
from scorekeeper.ledger import clubs, planned, ratings, seasons
from tests.ledger.test_ledger_clubs import _club, _evening, _play
from tests.walk.kept import assert_ladder_is_fresh


@pytest.fixture
def db(migrated: Callable[[str], str]) -> Iterator[Session]:
    with store.opened(migrated("season-changes.sqlite3")) as session:
        yield session


def _ladder(db: Session, season_id: int) -> list[tuple[int | None, str, float, int]]:
    return [
        (line.line.rank if line.line.ranked else None, line.name, line.line.points, line.line.evenings)
        for line in seasons.season(db, season_id).ladder
    ]


def _last(db: Session, club_id: str) -> store.clubs.HistoryRow:
    return store.clubs.history(db, club_id)[-1]


@pytest.mark.rule("E8")
def test_a_seasons_counting_changed_ranks_its_ladder_anew_and_is_undone(db: Session) -> None:
    """Worked by hand, placings points of two-player tables (the winner 2, the loser 1):
    evening 1 Ann beats Bob, evening 2 Bob beats Ann, evening 3 Cal beats Ann.
    Counting every evening: Ann 2+1+1 = 4, Bob 1+2 = 3, Cal 2. Changed to the best one
    evening with two to be ranked: Ann 2, Bob 2 (tables won 1 each, boxes won 1 each:
    shared first), Cal 2 but one evening, unranked. Evening 3 leaving the club: Ann and
    Bob as before, Cal gone from the ladder and the ratings."""
    club_id = _club(db)
    entry = SeasonEntry.from_json(
        {"name": "Winter", "from": "2027-01-01", "to": "2027-03-31", "ladder": {"count": "placings"}}
    )
    season_id = clubs.add_season(db, club_id, entry, key="s")[1]
    nights = [
        _evening(db, "2027-01-05", ("Ann", "Bob"), "e1"),
        _evening(db, "2027-01-12", ("Ann", "Bob"), "e2"),
        _evening(db, "2027-01-19", ("Ann", "Cal"), "e3"),
    ]
    for night in nights:
        clubs.attach(db, club_id, night)
    for night, (winner, loser) in zip(nights, [("Ann", "Bob"), ("Bob", "Ann"), ("Cal", "Ann")], strict=True):
        _play(db, night, winner, loser)
    assert _ladder(db, season_id) == [(1, "Ann", 4, 3), (2, "Bob", 3, 2), (3, "Cal", 2, 1)]

    changed = clubs.change_counting(db, club_id, season_id, Ladder("placings", best=1, min_evenings=2), "c1")
    assert not changed.repeated
    assert _ladder(db, season_id) == [(1, "Ann", 2, 3), (1, "Bob", 2, 2), (None, "Cal", 2, 1)]
    line = _last(db, club_id)
    assert line.line.kind is Kind.COUNTING
    assert words(line.line) == (
        "Owner: Winter counts placings points, the best 1 evenings, 2 evenings to be ranked"
        " (was placings points, every evening)"
    )
    row = store.clubs.get_season(db, season_id)
    assert row is not None and row.counting_at is not None  # the page says when
    assert clubs.change_counting(
        db, club_id, season_id, Ladder("placings", best=1, min_evenings=2), "c1"
    ).repeated
    with pytest.raises(ledger.KeyReused):
        clubs.change_counting(db, club_id, season_id, Ladder("net"), "c1")
    assert_ladder_is_fresh(db, club_id, [season_id])

    clubs.detach(db, club_id, nights[2], key="d1")
    assert _ladder(db, season_id) == [(1, "Ann", 2, 2), (1, "Bob", 2, 2)]
    assert "Cal" not in ratings.club_ratings(db, club_id).names.values()
    assert words(_last(db, club_id).line) == "Owner: the evening Tuesday 2027-01-19 left the club"
    assert store.events.get_event(db, nights[2]) is not None  # its own pages still answer
    assert_ladder_is_fresh(db, club_id, [season_id])
    with pytest.raises(clubs.RosterRefused, match="does not belong to this club"):
        clubs.detach(db, club_id, nights[2], key="d2")

    counting = next(h for h in store.clubs.history(db, club_id) if h.line.kind is Kind.COUNTING)
    clubs.undo(db, club_id, counting.id, key="u1")
    assert _ladder(db, season_id) == [(1, "Ann", 3, 2), (1, "Bob", 3, 2)]  # placings, every evening
    with pytest.raises(clubs.RosterRefused, match="undone already"):
        clubs.undo(db, club_id, counting.id, key="u2")

    # back in the club through the season; a season whose period misses it is refused
    other = clubs.add_season(
        db, club_id, SeasonEntry.from_json({"name": "Spring", "from": "2027-04-01", "to": "2027-06-30"}), "s2"
    )[1]
    with pytest.raises(MalformedError, match="outside the season Spring") as refused:
        clubs.attach(db, club_id, nights[2], key="a1", season=other)
    assert refused.value.where == "event"
    clubs.attach(db, club_id, nights[2], key="a2", season=season_id)
    assert _ladder(db, season_id) == [(1, "Ann", 4, 3), (2, "Bob", 3, 2), (3, "Cal", 2, 1)]
    assert "Cal" in ratings.club_ratings(db, club_id).names.values()
    assert_ladder_is_fresh(db, club_id, [season_id, other])


def test_a_later_counting_change_must_be_undone_first(db: Session) -> None:
    club_id = _club(db)
    entry = SeasonEntry.from_json({"name": "Winter", "from": "2027-01-01", "to": "2027-03-31"})
    season_id = clubs.add_season(db, club_id, entry, key="s")[1]
    clubs.change_counting(db, club_id, season_id, Ladder("average"))
    first = _last(db, club_id).id
    clubs.change_counting(db, club_id, season_id, Ladder("placings", best=2))
    second = _last(db, club_id).id
    with pytest.raises(clubs.RosterRefused, match="later change of Winter's counting"):
        clubs.undo(db, club_id, first)
    clubs.undo(db, club_id, second)
    clubs.undo(db, club_id, first)
    assert seasons.season(db, season_id).entry.ladder == Ladder("net")


def test_an_evening_planned_changed_cancelled_and_started(db: Session) -> None:
    """A plan carries no entrants; it is changed (history says what), cancelled and the
    cancel undone, and the event started from it joins the club pointing at it, in one
    write; leaving the club puts the plan back unstarted."""
    club_id = _club(db)
    season = SeasonEntry.from_json({"name": "Winter", "from": "2027-01-01", "to": "2027-03-31"})
    season_id = clubs.add_season(db, club_id, season, key="s")[1]
    today = dt.date(2027, 1, 2)
    with pytest.raises(MalformedError, match="is past") as past:
        PlanEntry.from_json({"date": "2027-01-01", "time": "19:30"}, today=today)
    assert past.value.where == "date"
    with pytest.raises(ScorekeeperError, match="'snap' is not a rule set") as preset:
        PlanEntry.from_json({"date": "2027-01-05", "time": "19:30", "rules": "snap"})
    assert preset.value.where == "rules"
    with pytest.raises(MalformedError, match="written 19:30") as late:
        PlanEntry.from_json({"date": "2027-01-05", "time": "25:00"})
    assert late.value.where == "time"
    outside = PlanEntry.from_json({"date": "2027-05-05", "time": "19:30"})
    with pytest.raises(MalformedError, match="outside the season Winter"):
        planned.plan(db, club_id, season_id, outside)
    entry = PlanEntry.from_json(
        {
            "date": "2027-01-05",
            "time": "19:30",
            "rules": "gin-classic",
            "table_size": 2,
            "place": "Back room",
        },
        today=today,
    )
    made = planned.plan(db, club_id, season_id, entry, key="p1")
    assert planned.plan(db, club_id, season_id, entry, key="p1").plan.id == made.plan.id  # a resend
    assert [p.id for p in store.plans.plans(db, season_id)] == [made.plan.id]
    assert words(_last(db, club_id).line) == "Owner: an evening planned for 2027-01-05 19:30"

    moved = PlanEntry.from_json({**entry.to_json(), "time": "20:00", "place": "Front room"})
    planned.change(db, club_id, made.plan.id, moved, key="p2")
    assert words(_last(db, club_id).line) == (
        "Owner: the evening planned for 2027-01-05 19:30 changed: "
        "time 19:30 → 20:00; place Back room → Front room"
    )
    planned.cancel(db, club_id, made.plan.id, key="p3")
    assert store.plans.get_plan(db, made.plan.id).cancelled  # type: ignore[union-attr]
    night = _evening(db, "2027-01-05", ("Ann", "Bob"), "e1")
    with pytest.raises(clubs.RosterRefused, match="cancelled"):
        clubs.attach(db, club_id, night, key="a0", plan=made.plan.id)
    clubs.undo(db, club_id, _last(db, club_id).id, key="p4")
    assert not store.plans.get_plan(db, made.plan.id).cancelled  # type: ignore[union-attr]

    clubs.attach(db, club_id, night, key="a1", plan=made.plan.id)
    started = store.plans.get_plan(db, made.plan.id)
    assert started is not None and started.event_id == night
    assert words(_last(db, club_id).line) == (
        "Owner: the evening Tuesday 2027-01-05 joined the club (the evening planned for 2027-01-05 20:00)"
    )
    assert seasons.season(db, season_id).plan_of(night) == started
    with pytest.raises(planned.PlanRefused, match="started"):
        planned.cancel(db, club_id, made.plan.id, key="p5")
    clubs.detach(db, club_id, night, key="d1")
    again = store.plans.get_plan(db, made.plan.id)
    assert again is not None and again.event_id is None and not again.cancelled
