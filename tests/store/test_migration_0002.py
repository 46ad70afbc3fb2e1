"""Migration 0002: games stored before round two keep the preset defaults they were
played under (RULES.md G7 and V3 changed the two-hand presets' defaults)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from scorekeeper import store
from scorekeeper.engine import score
from scorekeeper.store.db import head_revisions

SCHEMA_0001 = """
CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL,
    CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num));
CREATE TABLE games (id VARCHAR(32) NOT NULL, edit_token_hash VARCHAR(64) NOT NULL,
    version INTEGER NOT NULL, rules VARCHAR(40) NOT NULL, settings JSON NOT NULL,
    players JSON NOT NULL, dealer VARCHAR(80) NOT NULL, stake DOUBLE, summary JSON NOT NULL,
    rematch_of VARCHAR(32), created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL,
    PRIMARY KEY (id));
CREATE INDEX ix_games_updated_at ON games (updated_at);
CREATE TABLE boxes (id INTEGER NOT NULL, game_id VARCHAR(32) NOT NULL,
    position INTEGER NOT NULL, entry JSON NOT NULL, ruling JSON NOT NULL,
    revision INTEGER NOT NULL, deleted BOOLEAN NOT NULL, created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL, PRIMARY KEY (id),
    FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE);
CREATE INDEX ix_boxes_game_id ON boxes (game_id);
CREATE TABLE write_keys (game_id VARCHAR(32) NOT NULL, "key" VARCHAR(64) NOT NULL,
    box_id INTEGER, version INTEGER NOT NULL, at DATETIME NOT NULL,
    PRIMARY KEY (game_id, "key"), FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE);
CREATE TABLE box_revisions (id INTEGER NOT NULL, box_id INTEGER NOT NULL,
    revision INTEGER NOT NULL, action VARCHAR(16) NOT NULL, entry JSON NOT NULL, ruling JSON,
    game_version INTEGER NOT NULL, at DATETIME NOT NULL, PRIMARY KEY (id),
    FOREIGN KEY(box_id) REFERENCES boxes (id) ON DELETE CASCADE);
CREATE INDEX ix_box_revisions_box_id ON box_revisions (box_id);
INSERT INTO alembic_version VALUES ('0001');
"""
"""The schema as revision 0001 left it, written by hand so the test does not depend on it."""

(LATEST,) = head_revisions()
"""The newest migration: the one a migrated database ends at."""


def knock(winner: str, points: int) -> dict[str, Any]:
    loser = "Bob" if winner == "Ann" else "Ann"
    return {"ending": "knock", "by": winner, "hands": {winner: {"count": 1}, loser: {"count": points + 1}}}


DRAW = {"ending": "draw"}
OLD_HOLLYWOOD = [knock("Bob", 10), knock("Ann", 10), DRAW, knock("Ann", 10), knock("Bob", 10)]
"""Per win (the old default) Bob's second win goes in columns 1 and 2; per deal in all
three. After the draw the old default kept Ann dealing."""


def insert_game(
    conn: sa.Connection, game_id: str, rules: str, settings: dict[str, Any], boxes: list[dict[str, Any]]
) -> None:
    """A game and its boxes as the store wrote them at revision 0001."""
    conn.execute(
        sa.text(
            "INSERT INTO games VALUES (:id, 'x', :version, :rules, :settings, :players, 'Ann', "
            "NULL, '{}', NULL, '2026-11-01 10:00:00', '2026-11-01 10:00:00')"
        ),
        {
            "id": game_id,
            "version": len(boxes) + 1,
            "rules": rules,
            "settings": json.dumps(settings),
            "players": json.dumps(["Ann", "Bob"]),
        },
    )
    for position, entry in enumerate(boxes):
        conn.execute(
            sa.text(
                "INSERT INTO boxes (game_id, position, entry, ruling, revision, deleted, "
                "created_at, updated_at) VALUES (:game, :position, :entry, '{}', 1, 0, "
                "'2026-11-01 10:00:00', '2026-11-01 10:00:00')"
            ),
            {"game": game_id, "position": position, "entry": json.dumps(entry)},
        )


def stored_game(conn: sa.Connection, game_id: str) -> dict[str, Any]:
    """The game as ``score`` takes it, read back with plain SQL."""
    rules, settings, players, dealer = conn.execute(
        sa.text("SELECT rules, settings, players, dealer FROM games WHERE id = :id"), {"id": game_id}
    ).one()
    boxes = [
        json.loads(entry)
        for (entry,) in conn.execute(
            sa.text("SELECT entry FROM boxes WHERE game_id = :id ORDER BY position"), {"id": game_id}
        )
    ]
    return {
        "rules": rules,
        "settings": json.loads(settings),
        "players": json.loads(players),
        "dealer": dealer,
        "boxes": boxes,
    }


@pytest.fixture
def old_database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = store.connect(url)
    with engine.begin() as conn:
        for statement in SCHEMA_0001.split(";"):
            if statement.strip():
                conn.execute(sa.text(statement))
        insert_game(conn, "hollywood-old", "hollywood", {}, OLD_HOLLYWOOD)
        insert_game(conn, "gin-old", "gin", {"gin_bonus": 20}, [DRAW, knock("Ann", 5)])
        insert_game(conn, "chose-next", "gin", {"redeal_after_draw": "next"}, [DRAW])
        insert_game(conn, "jersey", "jersey-scarne", {}, [])
    engine.dispose()
    return url


@pytest.mark.rule("V3", "G7")
def test_an_old_hollywood_game_scores_as_before_after_migrating(old_database: str) -> None:
    engine = store.connect(old_database)
    with engine.connect() as conn:
        before = stored_game(conn, "hollywood-old")
    # Under the new defaults this game would score differently: the test has teeth.
    assert score(before)["boxes"][4]["columns"] == [1, 2, 3]
    store.migrate(old_database)
    with engine.connect() as conn:
        after = stored_game(conn, "hollywood-old")
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == LATEST
    engine.dispose()
    assert after["settings"] == {"redeal_after_draw": "same", "hollywood_entry": "per-win"}
    sheet = score(after)
    assert [box["columns"] for box in sheet["boxes"]] == [[1], [1], [], [1, 2], [1, 2]]
    assert [box["dealer"] for box in sheet["boxes"]] == ["Ann", "Bob", "Ann", "Ann", "Bob"]
    assert [g["totals"] for g in sheet["games"]] == [
        {"Ann": 20, "Bob": 20},
        {"Ann": 10, "Bob": 10},
        {"Ann": 0, "Bob": 0},
    ]


@pytest.mark.rule("G7")
def test_migration_pins_only_what_a_game_did_not_choose(old_database: str) -> None:
    store.migrate(old_database)
    engine = store.connect(old_database)
    with engine.connect() as conn:
        gin = stored_game(conn, "gin-old")
        chose = stored_game(conn, "chose-next")
        jersey = stored_game(conn, "jersey")
    engine.dispose()
    assert gin["settings"] == {"gin_bonus": 20, "redeal_after_draw": "same"}
    assert [box["dealer"] for box in score(gin)["boxes"]] == ["Ann", "Ann"]
    assert chose["settings"] == {"redeal_after_draw": "next"}
    assert jersey["settings"] == {}


def test_a_new_database_migrates_to_the_latest_revision(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    store.migrate(url)
    store.migrate(url)  # twice is harmless
    engine = store.connect(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == LATEST
    engine.dispose()
