"""A player's record follows Knock Rummy's box-by-box settlement (K5), also for a game
whose stored summary was written when the settlement was the difference of totals."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from scorekeeper import store
from scorekeeper.ledger import players
from scorekeeper.store.models import Game
from tests.engine.test_knock_rummy_settlement import k5_game

from .games import stored

BY_BOX = [("Bob", "Ann", 1), ("Cal", "Ann", 6), ("Cal", "Bob", 14)]


def _settlement(db: Session, game_id: str) -> list[tuple[str, str, int]]:
    (game,) = players.played(db, [game_id])
    return [(p.payer, p.payee, p.points) for p in game.payments]


@pytest.mark.rule("K5")
def test_the_record_reads_the_box_by_box_settlement(db: Session) -> None:
    (game_id,) = stored(db, k5_game(ended="agreed"))
    assert _settlement(db, game_id) == BY_BOX


@pytest.mark.rule("K5")
def test_a_summary_kept_before_k5_is_scored_again(db: Session) -> None:
    (game_id,) = stored(db, k5_game(ended="agreed"))
    row = store.get_game(db, game_id)
    assert row is not None
    old: dict[str, Any] = dict(row.summary)
    record = {k: v for k, v in old["record"].items() if k != "version"}
    record["settlement"] = [
        {"from": "Ann", "to": "Bob", "points": 7},  # by totals
        {"from": "Cal", "to": "Ann", "points": 17},
        {"from": "Cal", "to": "Bob", "points": 24},
    ]
    db.execute(update(Game).where(Game.id == game_id).values(summary={**old, "record": record}))
    db.commit()
    assert _settlement(db, game_id) == BY_BOX
