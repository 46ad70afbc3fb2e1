"""A season's ladder (RULES.md E8), worked by hand: sums, placings points, averages,
the best N of M, the minimum of evenings, ties broken as E1 and then shared, the
movement since the last evening, and a member listed under two names in one evening."""

from __future__ import annotations

import pytest

from scorekeeper.engine.errors import MalformedError
from scorekeeper.engine.event import Standing as EventStanding
from scorekeeper.engine.ladder import (
    Evening,
    Ladder,
    Standing,
    evening_points,
    from_json,
    ladder,
    of_members,
)


def _evening(event: str, *lines: tuple[str, float, int]) -> Evening:
    """An evening's standings from (member, score, tables won), ranked by score."""
    ordered = sorted(lines, key=lambda line: -line[1])
    return Evening(event, tuple(Standing(i, m, s, won=w) for i, (m, s, w) in enumerate(ordered, start=1)))


SEASON = [
    _evening("e1", ("ann", 30, 2), ("bob", -10, 0), ("cal", -20, 0)),
    _evening("e2", ("bob", 25, 1), ("ann", 5, 0), ("cal", -30, 0), ("dee", 0, 1)),
    _evening("e3", ("cal", 40, 2), ("dee", -15, 0), ("ann", -25, 0)),
]


@pytest.mark.rule("E8")
def test_net_sums_every_evening_and_says_what_each_gave() -> None:
    lines = {line.member: line for line in ladder(SEASON, Ladder())}
    assert (lines["ann"].points, lines["bob"].points, lines["cal"].points, lines["dee"].points) == (
        10,
        15,
        -10,
        -15,
    )
    assert lines["ann"].contributions == (("e1", 30, True), ("e2", 5, True), ("e3", -25, True))
    assert [line.member for line in ladder(SEASON, Ladder())] == ["bob", "ann", "cal", "dee"]


@pytest.mark.rule("E8")
def test_the_best_two_of_three_drop_the_worst_evening() -> None:
    lines = {line.member: line for line in ladder(SEASON, Ladder(best=2, of=3))}
    assert lines["ann"].points == 35  # 30 + 5; -25 does not count
    assert lines["ann"].contributions[2] == ("e3", -25, False)
    assert lines["cal"].points == 20  # 40 - 20
    assert lines["bob"].points == 15  # two evenings played: both count


@pytest.mark.rule("E8")
def test_placings_points_give_the_first_as_many_as_there_were_players() -> None:
    assert evening_points(SEASON[1], "placings") == {"bob": 4, "ann": 3, "dee": 2, "cal": 1}
    level = _evening("e4", ("ann", 10, 0), ("bob", 10, 0), ("cal", -20, 0))
    assert evening_points(level, "placings") == {"ann": 2.5, "bob": 2.5, "cal": 1}
    lines = {line.member: line.points for line in ladder(SEASON, Ladder("placings"))}
    assert lines == {"ann": 3 + 3 + 1, "bob": 2 + 4, "cal": 1 + 1 + 3, "dee": 2 + 2}


@pytest.mark.rule("E8")
def test_average_is_per_evening_played() -> None:
    lines = {line.member: line.points for line in ladder(SEASON, Ladder("average"))}
    assert lines["bob"] == 7.5 and lines["dee"] == -7.5 and lines["ann"] == pytest.approx(3.33)


@pytest.mark.rule("E8")
def test_a_member_below_the_minimum_is_listed_but_not_ranked() -> None:
    lines = ladder(SEASON, Ladder(min_evenings=3))
    ranked = [(line.rank, line.member) for line in lines if line.ranked]
    assert ranked == [(1, "ann"), (2, "cal")]
    assert [(line.rank, line.member, line.evenings) for line in lines if not line.ranked] == [
        (0, "bob", 2),
        (0, "dee", 2),
    ]


@pytest.mark.rule("E8", "E1")
def test_ties_go_to_tables_won_then_boxes_then_are_shared() -> None:
    night = Evening(
        "e1",
        (
            Standing(1, "ann", 10, won=1, boxes=3),
            Standing(2, "bob", 10, won=1, boxes=5),
            Standing(3, "cal", 10, won=2, boxes=0),
            Standing(4, "dee", 10, won=1, boxes=5),
        ),
    )
    assert [(line.rank, line.member) for line in ladder([night], Ladder())] == [
        (1, "cal"),
        (2, "bob"),
        (2, "dee"),
        (4, "ann"),
    ]


@pytest.mark.rule("E8")
def test_movement_is_the_places_gained_since_the_ladder_before_the_last_evening() -> None:
    before = {line.member: line.rank for line in ladder(SEASON[:2], Ladder())}
    after = {line.member: line for line in ladder(SEASON, Ladder())}
    assert before == {"ann": 1, "bob": 2, "dee": 3, "cal": 4}
    assert {m: line.moved for m, line in after.items()} == {"bob": 1, "ann": -1, "cal": 1, "dee": -1}


def test_a_ladder_setting_out_of_range_names_its_field() -> None:
    with pytest.raises(MalformedError) as refused:
        from_json({"count": "wins"})
    assert refused.value.where == "ladder.count"
    with pytest.raises(MalformedError) as refused:
        from_json({"best": 0})
    assert refused.value.where == "ladder.best"


def _who(player: str) -> tuple[str, str, bool]:
    """The roster of the examples below: "Ann" and "Annie" are one member, Ann Lee."""
    return ("m1", "Ann Lee", True) if player in ("Ann", "Annie") else (player.lower(), player, False)


TWICE = (  # Tuesday's standings as the event ranked them: Ann and Annie are one member
    EventStanding(1, "Ann", 30, 2, won=1, boxes=4),
    EventStanding(2, "Bob", 10, 2, won=1, boxes=3),
    EventStanding(3, "Annie", -5, 1, won=0, boxes=1),
    EventStanding(4, "Cal", -35, 3, won=0, boxes=2),
)


@pytest.mark.rule("E8")
def test_a_member_twice_in_one_evening_is_one_person_one_evening() -> None:
    """Worked by hand. Tuesday lists Ann (+30) and Annie (-5), one member: Ann Lee
    played one evening, +25 (the two lines added), 1 table and 5 boxes won; the evening
    had three people, so Ann Lee is 1st, Bob 2nd, Cal 3rd (not 4th), and placings
    points give 3, 2, 1 (not 4 to the first of four names). Thursday: Bob +20, Ann 0,
    Cal -20. Net: Bob 10 + 20 = 30, Ann Lee 25 + 0 = 25, Cal -55; placings: Ann Lee and
    Bob 3 + 2 = 5 each (Bob ahead on tables won, 2 to 1), Cal 1 + 1 = 2; Ann Lee
    played two evenings, not three."""
    tuesday = of_members("tue", TWICE, _who)
    assert [(s.rank, s.member, s.score, s.won, s.boxes, s.played_as) for s in tuesday.standings] == [
        (1, "m1", 25, 1, 5, ("Ann", "Annie")),
        (2, "bob", 10, 1, 3, ("Bob",)),
        (3, "cal", -35, 0, 2, ("Cal",)),
    ]
    assert tuesday.standings[0].name == "Ann Lee" and not tuesday.standings[0].guest
    assert evening_points(tuesday, "placings") == {"m1": 3, "bob": 2, "cal": 1}
    thursday = of_members(
        "thu",
        (EventStanding(1, "Bob", 20, won=1), EventStanding(2, "Ann", 0), EventStanding(3, "Cal", -20)),
        _who,
    )
    net = {
        line.member: (line.rank, line.points, line.evenings) for line in ladder([tuesday, thursday], Ladder())
    }
    assert net == {"bob": (1, 30, 2), "m1": (2, 25, 2), "cal": (3, -55, 2)}
    placings = [
        (line.rank, line.member, line.points) for line in ladder([tuesday, thursday], Ladder("placings"))
    ]
    assert placings == [(1, "bob", 5), (2, "m1", 5), (3, "cal", 2)]


@pytest.mark.rule("E8")
def test_an_evening_with_one_name_a_member_keeps_the_events_ranks() -> None:
    """No member twice: the places are the event's, shared ranks and tie-breaks and all
    (Dee and Eve level on everything share 3rd; Bob is above Cal on a tie-break only)."""
    lines = (
        EventStanding(1, "Bob", 10, won=2),
        EventStanding(2, "Cal", 10, won=1),
        EventStanding(3, "Dee", -10),
        EventStanding(3, "Eve", -10),
    )
    assert [(s.rank, s.member) for s in of_members("e", lines, _who).standings] == [
        (1, "bob"),
        (2, "cal"),
        (3, "dee"),
        (3, "eve"),
    ]
