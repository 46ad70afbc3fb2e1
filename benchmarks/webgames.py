"""The stored games the web benchmarks play on, and the box they record.

Games are written straight through :mod:`scorekeeper.store` (as the app writes
them, without going through HTTP), so setting up hundreds of tables costs the
measured server nothing. The boxes are those of :func:`benchmarks.pdf_sheet.game`:
knocks, gins, a misdeal and boxes entered with cards, as a club plays them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from scorekeeper import engine, store
from scorekeeper.engine.contract import Sheet

from . import pdf_sheet

PLAYERS = pdf_sheet.PLAYERS
BOB = ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]
RECORDED_BOX: dict[str, Any] = {
    "ending": "knock",
    "by": "Bob",
    "hands": {"Ann": {"count": 14}, "Bob": {"cards": BOB}, "Cal": {"count": 13}},
}
"""What each benchmark request records or previews: Bob knocks with his ten cards tapped
in (the engine arranges them, C9), the others give their counts. Bob's count is 4."""


@dataclass(frozen=True)
class Table:
    """A stored game and the edit token that unlocks it."""

    game_id: str
    token: str


def box_form(version: int, csrf_token: str, players: list[str] | None = None) -> list[tuple[str, str]]:
    """:data:`RECORDED_BOX` as the box form posts it (a fresh idempotency key each time);
    with ``players`` (seat order), the second seat knocks as Bob does."""
    by = players[1] if players else "Bob"
    fields = [
        ("csrf_token", csrf_token),
        ("version", str(version)),
        ("key", secrets.token_urlsafe(16)),
        ("ending", "knock"),
        ("by", by),
        ("hands-0-count", "14"),
        ("hands-2-count", "13"),
    ]
    fields += [("hands-1-cards", card) for card in BOB]
    return fields


def finished_game() -> dict[str, Any]:
    """The 40-box game of the PDF benchmark, over at its 40th box."""
    return pdf_sheet.game()


def game_in_progress(boxes: int) -> dict[str, Any]:
    """The first ``boxes`` boxes of that game, with a target no box here will reach."""
    played = pdf_sheet.game()
    played["settings"] = {"game_target": 100000}
    played["boxes"] = played["boxes"][:boxes]
    return played


@contextmanager
def database(url: str) -> Iterator[Session]:
    """A session on a migrated database (created if missing)."""
    store.migrate(url)
    factory = sessionmaker(store.connect(url), expire_on_commit=False)
    db = factory()
    try:
        yield db
    finally:
        db.close()


def seed(db: Session, played: dict[str, Any], count: int) -> list[Table]:
    """Store ``count`` copies of a game, scored once by the engine."""
    sheet = Sheet.from_json(engine.score(played))
    game = store.NewGame(
        rules=played["rules"],
        settings=dict(played["settings"]),
        players=list(played["players"]),
        dealer=played["dealer"],
        stake=played.get("stake"),
        summary=store.summarize(sheet),
    )
    boxes = [
        store.StoredBox(dict(entry), {k: v for k, v in ruled.to_json().items() if k != "id"})
        for entry, ruled in zip(played["boxes"], sheet.boxes, strict=True)
    ]
    tables = []
    for _ in range(count):
        row, token = store.create_game(db, game, boxes)
        tables.append(Table(row.id, token))
    return tables
