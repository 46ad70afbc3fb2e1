"""Club play (RULES.md §8): an event's standings by net and by placings, byes,
penalties and their withdrawal, tables won with ties at the top shared."""

from __future__ import annotations

import pytest

from scorekeeper.engine.event import EventEntry, Penalty, Seating, TableResult, standings
from scorekeeper.engine.movement import seat_round

SIX = ("Ann", "Bob", "Cal", "Dee", "Eve", "Fay")


def _over(round: int, table: int, net: dict[str, int], boxes: dict[str, int] | None = None) -> TableResult:
    """A finished table with these settlements (a zero-sum net) and boxes won."""
    players = tuple(net)
    return TableResult(round, table, players, dict(net), boxes or {players[0]: 1}, True, players[0], net, 3)


def _scores(event: EventEntry, results: list[TableResult]) -> dict[str, float]:
    return {s.player: s.score for s in standings(event, results)}


@pytest.mark.rule("E1")
def test_net_is_the_sum_of_settlements_less_penalties_and_ties_go_to_tables_won() -> None:
    event = EventEntry(
        "x", SIX, penalties=(Penalty("Cal", 5, "late"),), tie_breaks=("won", "boxes", "head_to_head")
    )
    results = [
        _over(1, 1, {"Ann": 40, "Bob": -10, "Cal": -30}),
        _over(1, 2, {"Dee": 20, "Eve": 10, "Fay": -30}, {"Dee": 2}),
        _over(2, 1, {"Eve": 30, "Ann": -20, "Dee": -10}, {"Eve": 1}),
    ]
    assert _scores(event, results) == {"Ann": 20, "Bob": -10, "Cal": -35, "Dee": 10, "Eve": 40, "Fay": -30}
    ranked = standings(event, results)
    assert [s.player for s in ranked][:3] == ["Eve", "Ann", "Dee"]
    # Level on score: the one with more tables won goes first.
    level = EventEntry("x", ("Ann", "Bob", "Cal", "Dee"), table_size=2, rules="gin")
    tied = [
        _over(1, 1, {"Ann": 10, "Bob": -10}),
        _over(1, 2, {"Cal": 5, "Dee": -5}),
        _over(2, 1, {"Cal": 5, "Bob": -5}),
    ]
    order = standings(level, tied)
    assert [(s.rank, s.player, s.score, s.won) for s in order][:2] == [(1, "Cal", 10, 2), (2, "Ann", 10, 1)]


@pytest.mark.rule("E2")
def test_placings_give_a_table_of_n_from_n_minus_1_down_and_ties_share() -> None:
    event = EventEntry("x", SIX, standings="placings")
    results = [
        _over(1, 1, {"Ann": 40, "Bob": -10, "Cal": -30}),
        _over(1, 2, {"Dee": 15, "Eve": 15, "Fay": -30}),
    ]
    assert _scores(event, results) == {"Ann": 2, "Bob": 1, "Cal": 0, "Dee": 1.5, "Eve": 1.5, "Fay": 0}


@pytest.mark.rule("E3")
def test_a_bye_scores_the_average_zero_or_a_number_and_nobody_gets_two_first() -> None:
    seven = (*SIX, "Gus")
    seating = (Seating(1, (("Ann", "Bob", "Cal"), ("Dee", "Eve", "Fay")), ("Gus",)),)
    results = [_over(1, 1, {"Ann": 40, "Bob": -10, "Cal": -30}), _over(1, 2, {"Dee": 9, "Eve": 0, "Fay": -9})]
    average = EventEntry("x", seven, seating=seating)
    assert _scores(average, results)["Gus"] == 0  # the round's average under net
    placings = EventEntry("x", seven, seating=seating, standings="placings")
    assert _scores(placings, results)["Gus"] == 1  # the average of 2, 1, 0, 2, 1, 0
    fixed = EventEntry("x", seven, seating=seating, bye=7)
    assert _scores(fixed, results)["Gus"] == 7
    byes: list[str] = []
    rounds: tuple[Seating, ...] = ()
    for number in range(1, 8):
        seated = seat_round(
            seven, number, rounds, seed=3, table_size=3, least=3, most=3, ranking=None, rounds=7
        )
        rounds = (*rounds, seated)
        byes += seated.byes
    assert sorted(byes) == sorted(seven)  # seven rounds of one bye: everyone once


@pytest.mark.rule("E4")
def test_a_penalty_comes_off_the_event_score_and_a_withdrawn_one_takes_nothing() -> None:
    results = [_over(1, 1, {"Ann": 40, "Bob": -10, "Cal": -30})]
    given = EventEntry("x", ("Ann", "Bob", "Cal"), penalties=(Penalty("Ann", 15, "slow play", 1, 1),))
    taken_back = EventEntry(
        "x", ("Ann", "Bob", "Cal"), penalties=(Penalty("Ann", 15, "slow play", 1, 1, withdrawn=True),)
    )
    assert _scores(given, results)["Ann"] == 25
    assert [s.penalty for s in standings(given, results) if s.player == "Ann"] == [15]
    assert _scores(taken_back, results)["Ann"] == 40
    assert results[0].net == {"Ann": 40, "Bob": -10, "Cal": -30}  # the game's settlement untouched
    assert Penalty.from_json(taken_back.penalties[0].to_json()) == taken_back.penalties[0]


@pytest.mark.rule("E6")
def test_a_table_is_won_by_the_highest_settlement_and_a_tie_at_the_top_shares_it() -> None:
    event = EventEntry("x", SIX)
    ended_early = TableResult(
        1, 1, ("Ann", "Bob", "Cal"), {}, {}, True, None, {"Ann": 20, "Bob": 20, "Cal": -40}, 2
    )
    played_out = _over(1, 2, {"Dee": 50, "Eve": -20, "Fay": -30})
    won = {s.player: s.won for s in standings(event, [ended_early, played_out])}
    assert won == {"Ann": 0.5, "Bob": 0.5, "Cal": 0, "Dee": 1, "Eve": 0, "Fay": 0}
    assert next(s for s in standings(event, [ended_early]) if s.player == "Ann").to_json()["won"] == 0.5
