"""The records pages of a public club server stay bounded as games grow (issue 23):
with every game counted (``RECENT_GAMES_PUBLIC``), one request reads at most the
newest ``RECORDS_MAX_GAMES`` games, however many the server holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import pytest
from flask import Flask
from sqlalchemy.orm import Session

from scorekeeper import store
from scorekeeper.web import create_app

MOST = 3


def game(players: list[str]) -> dict[str, object]:
    return {
        "rules": "jersey-scarne",
        "players": players,
        "dealer": players[0],
        "boxes": [
            {
                "ending": "knock",
                "by": players[1],
                "hands": {players[0]: {"count": 14}, players[1]: {"count": 4}, players[2]: {"count": 13}},
            }
        ],
    }


@pytest.fixture
def club_app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("club.sqlite3")
    yield create_app(
        {
            "DATABASE_URL": url,
            "SECRET_KEY": "records-tests-" + "s" * 32,
            "RECENT_GAMES_PUBLIC": True,
            "RECORDS_MAX_GAMES": MOST,
        }
    )


@pytest.fixture
def rows_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many games each read of counted games returned."""
    read: list[int] = []
    counted_games = store.counted_games

    def counting(db: Session, ids: Sequence[str] | None = None) -> list[store.CountedGame]:
        found = counted_games(db, ids)
        read.append(len(found))
        return found

    monkeypatch.setattr(store, "counted_games", counting)
    return read


def test_the_records_pages_count_only_the_newest_games(club_app: Flask, rows_read: list[int]) -> None:
    client = club_app.test_client()
    client.post("/api/v1/games", json=game(["Olga", "Bob", "Cal"]))  # the oldest
    for _ in range(MOST + 1):
        client.post("/api/v1/games", json=game(["Ann", "Bob", "Cal"]))
    everyone = client.get("/players/").get_data(as_text=True)
    assert "Bob" in everyone and "Olga" not in everyone
    assert client.get("/players/Olga").status_code == 404
    bob = client.get("/players/Bob/record.json").get_json()
    assert len(bob["games"]) == MOST
    assert client.get("/players/Bob").status_code == 200
    assert rows_read and max(rows_read) <= MOST
