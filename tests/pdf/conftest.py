"""Games scored once per test session, and their sheets rendered once."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from scorekeeper import engine

from . import games

DATE = datetime.date(2025, 3, 14)


@pytest.fixture(scope="session")
def jersey() -> tuple[dict[str, Any], dict[str, Any]]:
    """The 40-box Jersey Gin game that ends with its last box, and its score."""
    game = games.jersey_game(40)
    return game, engine.score(game)


@pytest.fixture(scope="session")
def jersey_pdf(jersey: tuple[dict[str, Any], dict[str, Any]]) -> bytes:
    game, score = jersey
    return games.sheet_pdf(game, score, created=DATE)
