"""Known games for the records tests, stored through the ledger; every figure the
tests expect is worked out by hand in the comments here (RULES.md J6-J16, G4)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from scorekeeper import ledger
from scorekeeper.engine.contract import BoxEntry, GameEntry


def box(ending: str, by: str | None = None, **counts: int) -> dict[str, Any]:
    body: dict[str, Any] = {"ending": ending, "hands": {p: {"count": c} for p, c in counts.items()}}
    if by is not None:
        body["by"] = by
    return body


GAME_A: dict[str, Any] = {
    # Ann, Bob, Cal at 0.10 a point, game to 100.
    "rules": "jersey-scarne",
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "stake": 0.1,
    "started": "2026-10-01T20:00",
    "boxes": [
        box("knock", "Ann", Ann=5, Bob=15, Cal=13),  # J6: (15-5)+(13-5) = 18
        box("gin", "Ann", Ann=0, Bob=20, Cal=30),  # J9: 20+30+40 = 90; Ann 108: over
    ],
    # Final: Ann 108 + game 100 + 2 boxes x 25 = 258; Bob and Cal 0, both shut out
    # (J15): each pays Ann 258 x 2 = 516 points, 51.60 at 0.10.
}
GAME_B: dict[str, Any] = {
    # The same Ann and Bob written otherwise ("ANN", "bob"), with Dan; no stake.
    "rules": "jersey-scarne",
    "players": ["bob", "ANN", "Dan"],
    "dealer": "bob",
    "started": "2026-11-05T20:00",
    "boxes": [
        box("knock", "Dan", Dan=3, ANN=10, bob=8),  # Dan (10-3)+(8-3) = 12
        box("knock", "bob", bob=6, ANN=4, Dan=20),  # ANN underknocks: 2+16+10 = 28
        {"ending": "misdeal"},  # no box: ANN's run goes on
        box("knock", "ANN", ANN=2, bob=12, Dan=10),  # ANN 10+8 = 18
        box("break", "bob", bob=5, ANN=4, Dan=7),  # J12: ANN lowest, 1+3 = 4
        {
            "ending": "gin",
            "by": "Dan",
            "after_break": True,
            "hands": {"Dan": {"count": 0}, "ANN": {"count": 10}, "bob": {"count": 15}},
        },
        # J13: Dan 10+15 = 25, no bonus.  Totals: ANN 50, Dan 37, bob 0; not over.
    ],
}
GAME_C: dict[str, Any] = {
    # Two-hand gin, Cal and Ann: Cal knocks 3 against 10 (G4: 7). Not over.
    "rules": "gin",
    "players": ["Cal", "Ann"],
    "dealer": "Cal",
    "started": "2026-11-20T19:00",
    "boxes": [box("knock", "Cal", Cal=3, Ann=10)],
}


def stored(db: Session, *games: dict[str, Any]) -> list[str]:
    """Store the games through the ledger; their ids in order."""
    return [ledger.start(db, GameEntry.from_json(game)).table.id for game in games]


def entries(game: dict[str, Any]) -> list[BoxEntry]:
    return [BoxEntry.from_json(b) for b in game["boxes"]]
