"""A migrated SQLite database holding the three known games of :mod:`.games`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from scorekeeper import store

from .games import GAME_A, GAME_B, GAME_C, stored


@pytest.fixture
def url(tmp_path: Path) -> str:
    database = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    store.migrate(database)
    return database


@pytest.fixture
def db(url: str) -> Iterator[Session]:
    with store.opened(url) as session:
        yield session


@pytest.fixture
def ids(db: Session) -> list[str]:
    return stored(db, GAME_A, GAME_B, GAME_C)
