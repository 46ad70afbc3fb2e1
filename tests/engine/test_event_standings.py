"""An event's standings (engine.event.standings) against a hand computation, and the
event's typed values read from JSON."""

from __future__ import annotations

import dataclasses
from typing import Literal

import pytest

from scorekeeper.engine import ScorekeeperError
from scorekeeper.engine.event import (
    EventEntry,
    Penalty,
    RoundEnd,
    Seating,
    TableResult,
    paid_nets,
    standings,
)

EVENT = EventEntry(
    "Tuesday",
    ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay"),
    rounds=2,
    seating=(
        Seating(1, (("Ann", "Bob", "Cal"), ("Dee", "Eve", "Fay"))),
        Seating(2, (("Ann", "Dee", "Fay"), ("Bob", "Cal", "Eve"))),
    ),
)

RESULTS = [
    TableResult(
        1,
        1,
        ("Ann", "Bob", "Cal"),
        {"Ann": 150, "Bob": 40, "Cal": 0},
        {"Ann": 3, "Bob": 1},
        True,
        "Ann",
        {"Ann": 100, "Bob": -20, "Cal": -80},
    ),
    TableResult(
        1,
        2,
        ("Dee", "Eve", "Fay"),
        {"Dee": 90, "Eve": 90, "Fay": 30},
        {"Dee": 2, "Eve": 2, "Fay": 1},
        True,
        None,
        {"Dee": 30, "Eve": 30, "Fay": -60},
    ),
    # still playing: the totals as they stand, each pair settling its difference
    TableResult(2, 1, ("Ann", "Dee", "Fay"), {"Ann": 20, "Dee": 50, "Fay": 0}, {"Ann": 1, "Dee": 2}),
    TableResult(
        2,
        2,
        ("Bob", "Cal", "Eve"),
        {"Bob": 125, "Cal": 100, "Eve": 80},
        {"Bob": 2, "Cal": 1},
        True,
        "Bob",
        {"Bob": 40, "Cal": 0, "Eve": -40},
    ),
]


def _rows(event: EventEntry) -> list[tuple[int, str, float, int, float, int]]:
    return [(s.rank, s.player, s.score, s.games, s.won, s.boxes) for s in standings(event, RESULTS)]


@pytest.mark.rule("E1", "E6")
def test_net_standings_equal_the_hand_computation() -> None:
    # Ann 100 + (3*20 - 70) = 90; Bob -20 + 40 = 20; Cal -80 + 0 = -80;
    # Dee 30 + (3*50 - 70) = 110; Eve 30 - 40 = -10; Fay -60 + (0 - 70) = -130.
    # Tables won (E6): Ann (round 1) and Bob (round 2); Dee and Eve tied first share
    # theirs (a half each); the game still playing is no table won.
    assert _rows(EVENT) == [
        (1, "Dee", 110, 2, 0.5, 4),
        (2, "Ann", 90, 2, 1, 4),
        (3, "Bob", 20, 2, 1, 3),
        (4, "Eve", -10, 2, 0.5, 2),
        (5, "Cal", -80, 2, 0, 1),
        (6, "Fay", -130, 2, 0, 1),
    ]


def test_placings_equal_the_hand_computation_ties_shared() -> None:
    # 2, 1, 0 points by place; Dee and Eve share places 1-2: 1.5 each.
    # Ann 2 + 1 = 3; Bob 1 + 2 = 3; Cal 0 + 1 = 1; Dee 1.5 + 2 = 3.5; Eve 1.5 + 0;
    # Fay 0 + 0. Ann and Bob level on 3 and on games won (1): Ann has more boxes (4, 3).
    event = dataclasses.replace(EVENT, standings="placings")
    assert _rows(event) == [
        (1, "Dee", 3.5, 2, 0.5, 4),
        (2, "Ann", 3, 2, 1, 4),
        (3, "Bob", 3, 2, 1, 3),
        (4, "Eve", 1.5, 2, 0.5, 2),
        (5, "Cal", 1, 2, 0, 1),
        (6, "Fay", 0, 2, 0, 1),
    ]
    custom = dataclasses.replace(event, placing_points=(5, 2, 0))
    # Dee (5+2)/2 + 5 = 8.5; Ann 5 + 2 = 7; Bob 2 + 5 = 7; Eve 3.5; Cal 2; Fay 0
    assert [(s.player, s.score) for s in standings(custom, RESULTS)] == [
        ("Dee", 8.5),
        ("Ann", 7),
        ("Bob", 7),
        ("Eve", 3.5),
        ("Cal", 2),
        ("Fay", 0),
    ]


def test_penalties_and_byes_count_as_the_event_says() -> None:
    event = dataclasses.replace(
        EVENT,
        entrants=(*EVENT.entrants, "Gus"),
        seating=(dataclasses.replace(EVENT.seating[0], byes=("Gus",)), EVENT.seating[1]),
        penalties=(Penalty("Eve", 15, "slow play"),),
        standings="placings",
    )
    rows = {s.player: s for s in standings(event, RESULTS)}
    # round 1 handed out 2+1+0 and 1.5+1.5+0: 6 points to 6 players, an average of 1
    assert (rows["Gus"].score, rows["Gus"].byes, rows["Gus"].games) == (1, 1, 0)
    assert (rows["Eve"].score, rows["Eve"].penalty) == (1.5 - 15, 15)
    fixed = dataclasses.replace(event, bye=2)
    assert {s.player: s.score for s in standings(fixed, RESULTS)}["Gus"] == 2


def test_head_to_head_breaks_a_tie_left_by_the_other_breaks() -> None:
    event = EventEntry(
        "x", ("Ann", "Bob", "Cal", "Dee"), rules="gin", table_size=2, tie_breaks=("head_to_head", "won")
    )
    results = [
        TableResult(1, 1, ("Ann", "Bob"), {}, {}, True, "Ann", {"Ann": 50, "Bob": -50}),
        TableResult(1, 2, ("Cal", "Dee"), {}, {}, True, "Cal", {"Cal": 10, "Dee": -10}),
        TableResult(2, 1, ("Bob", "Cal"), {}, {}, True, "Bob", {"Bob": 60, "Cal": -60}),
        TableResult(2, 2, ("Ann", "Dee"), {}, {}, True, "Dee", {"Ann": -40, "Dee": 40}),
    ]
    # Ann 10, Bob 10, Cal -50, Dee 30: Ann beat Bob head to head
    rows = standings(event, results)
    assert [(s.rank, s.player, s.score) for s in rows] == [
        (1, "Dee", 30),
        (2, "Ann", 10),
        (3, "Bob", 10),
        (4, "Cal", -50),
    ]
    assert (rows[1].head_to_head, rows[2].head_to_head) == (50, -50)
    level = EventEntry("x", ("Ann", "Bob"), rules="gin", table_size=2)
    same = standings(level, [TableResult(1, 1, ("Ann", "Bob"), {"Ann": 5, "Bob": 5}, {})])
    assert [s.rank for s in same] == [1, 1]  # equal on everything: one rank


def test_an_event_reads_from_json_and_back() -> None:
    data = {
        "name": "Tuesday Jersey",
        "date": "2026-12-01",
        "rules": "jersey-scarne",
        "settings": {},
        "table_size": 3,
        "rounds": 4,
        "round_ends": {"minutes": 40},
        "standings": "net",
        "entrants": ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"],
        "seating": [{"round": 1, "tables": [["Ann", "Dee", "Fay"], ["Bob", "Cal", "Eve"]], "byes": []}],
        "games": [{"round": 1, "table": 1, "game": "abc"}],
        "seed": 12,
    }
    event = EventEntry.from_json(data)
    assert event.round_ends == RoundEnd("minutes", 40)
    first = event.seating_of(1)
    assert first is not None and first.place_of("Fay") == (1, 3) and first.place_of("X") is None
    assert EventEntry.from_json(event.to_json()) == event
    assert event.to_json()["round_ends"] == {"minutes": 40}
    pasted = EventEntry.from_json({"name": "x", "entrants": "Ann\n\n Bob \nCal\n"})
    assert pasted.entrants == ("Ann", "Bob", "Cal")


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        ({"table_size": 4}, "table_size", "played 3 to a table"),
        ({"rules": "knock-rummy", "table_size": 6}, "table_size", "2 to 5"),
        ({"rules": "gin", "table_size": 3}, "table_size", "played 2"),
        ({"rules": "bridge"}, "rules", "bridge"),
        ({"standings": "wins"}, "standings", "'net' or 'placings'"),
        ({"round_ends": {"minutes": 0}}, "round_ends.minutes", "from 1"),
        ({"round_ends": {"hours": 2}}, "round_ends.hours", "no field"),
        ({"entrants": ["Ann", "ann "]}, "entrants[1]", "entered twice"),
        ({"tie_breaks": ["won", "luck"]}, "tie_breaks[1]", "luck"),
        ({"date": "1/12/2026"}, "date", "2026-12-01"),
        ({"rounds": 0}, "rounds", "from 1"),
        ({"seed": 2**31}, "seed", "0 to 2147483647"),
        ({"seed": -1}, "seed", "0 to 2147483647"),
        ({"seed": 10**30}, "seed", "0 to 2147483647"),
        ({"name": " "}, "name", "a name"),
        ({"bye": "half"}, "bye", "average"),
        ({"settings": {"colour": 1}}, "settings", "colour"),
        ({"seating": [{"round": 1, "tables": [["Ann", "Bob", "Ann"]]}]}, "seating[0].tables[0][2]", "twice"),
    ],
)
def test_a_bad_event_names_its_field(change: dict[str, object], where: str, words: str) -> None:
    data = {"name": "x", "rounds": 2, "entrants": ["Ann", "Bob", "Cal"], **change}
    with pytest.raises(ScorekeeperError) as err:
        EventEntry.from_json(data)
    assert err.value.where is not None and err.value.where.startswith(where)
    assert words in err.value.message


@pytest.mark.rule("K5")
def test_a_game_paid_box_by_box_stands_at_its_payments_while_it_plays() -> None:
    """K5's example after box 1 (Ann knocks with 4; Bob 15 pays 11, Cal 10 pays 6)."""
    paid = paid_nets([("Bob", "Ann", 11), ("Cal", "Ann", 6)])
    playing = TableResult(
        1, 1, ("Ann", "Bob", "Cal"), {"Ann": 17, "Bob": 0, "Cal": 0}, {"Ann": 1}, boxes=1, paid=paid
    )
    assert playing.nets() == {"Ann": 17, "Bob": -11, "Cal": -6}  # not 34, -17, -17
    after_two = paid_nets([("Bob", "Ann", 11), ("Cal", "Ann", 6), ("Ann", "Bob", 10), ("Cal", "Bob", 14)])
    assert after_two == {"Ann": 7, "Bob": 13, "Cal": -20}


@pytest.mark.parametrize("count", ["net", "placings"])
def test_a_table_waiting_for_its_first_box_counts_for_nobody(count: Literal["net", "placings"]) -> None:
    """Seated but not yet played: no game counted, no placing points shared, and no
    share in a bye's round average (the projector said "Games 1" before any box)."""
    event = dataclasses.replace(EVENT, standings=count)
    waiting = [
        TableResult(2, 1, ("Ann", "Dee", "Fay"), {}, {}, boxes=0),
        TableResult(2, 2, ("Bob", "Cal", "Eve"), {}, {}, boxes=0),
    ]
    before = {s.player: s for s in standings(event, RESULTS)}
    after = {s.player: s for s in standings(event, [*RESULTS, *waiting])}
    assert after == before
    assert all(s.games == 0 for s in standings(event, waiting))
    assert all(s.score == 0 for s in standings(event, waiting))
