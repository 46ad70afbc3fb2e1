"""Records in the order the games were played (issue 22): games of one day are charted,
listed and head-to-headed by when play began, not in the order they were stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from scorekeeper import records
from scorekeeper.ledger import players

from .games import box, stored


def _gin(winner: str, loser: str, started: str | None) -> dict[str, Any]:
    """A two-hand game over in one box: ``winner`` goes gin against a count of 80."""
    game: dict[str, Any] = {
        "rules": "gin",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "boxes": [box("gin", winner, **{winner: 0, loser: 80})],
    }
    if started is not None:
        game["started"] = started
    return game


def test_games_of_one_day_by_when_play_began(db: Session) -> None:
    # The morning's game was entered last, from a paper sheet.
    afternoon, evening, morning = stored(
        db,
        _gin("Ann", "Bob", "2026-11-01T15:00"),
        _gin("Bob", "Ann", "2026-11-01T21:00"),
        _gin("Bob", "Ann", "2026-11-01T10:00"),
    )
    games = players.played(db)
    newest = [evening, afternoon, morning]
    assert [g.id for g in records.record("ann", games).games] == newest
    alone = {g.id: records.running_net("ann", [g])[1][1] for g in games}
    assert alone[afternoon] > 0 > alone[evening]
    running = [alone[morning], alone[morning] + alone[afternoon], sum(alone.values())]
    assert records.running_net("ann", games) == ((0, 0), *enumerate(running, start=1))
    versus = records.head_to_head(["ann", "bob"], games)
    assert [g.id for g in versus.games] == newest


def test_games_of_one_day_without_a_start_in_the_order_stored(db: Session) -> None:
    first, second, third = stored(
        db, _gin("Ann", "Bob", None), _gin("Bob", "Ann", None), _gin("Bob", "Ann", None)
    )
    games = players.played(db)
    assert [g.id for g in records.record("bob", games).games] == [third, second, first]
    alone = {g.id: records.running_net("bob", [g])[1][1] for g in games}
    assert records.running_net("bob", games)[1] == (1, alone[first])
    assert records.running_net("bob", games)[3][1] == sum(alone.values())
