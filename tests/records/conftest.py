"""A migrated SQLite database holding the three known games of :mod:`.games`."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.orm import Session

from scorekeeper import store

from .games import GAME_A, GAME_B, GAME_C, stored


@pytest.fixture
def url(migrated: Callable[[str], str]) -> str:
    return migrated("records.sqlite3")


@pytest.fixture
def db(url: str) -> Iterator[Session]:
    with store.opened(url) as session:
        yield session


@pytest.fixture
def ids(db: Session) -> list[str]:
    return stored(db, GAME_A, GAME_B, GAME_C)
