"""CSV exports a spreadsheet cannot turn against its user (issue 22): a cell that would
start a formula is written with a leading single quote (OWASP's CSV injection advice),
and the file begins with a UTF-8 byte order mark. Read back from the file written."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import exports, ledger, store
from scorekeeper.engine.contract import GameEntry
from scorekeeper.web import create_app

NAMES = ["=1+2", '=HYPERLINK("http://evil.example","x")', "+Ann", "-Bob", "@Cal", "李雷"]


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE_URL": migrated("csv.sqlite3"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            "RECENT_GAMES_PUBLIC": True,
        }
    )


def _game(app: Flask, players: list[str]) -> str:
    """A two-hand game of ``players`` with one knock by the first (credit 7)."""
    game = {
        "rules": "gin",
        "players": players,
        "dealer": players[0],
        "boxes": [
            {
                "ending": "knock",
                "by": players[0],
                "hands": {players[0]: {"count": 3}, players[1]: {"count": 10}},
            }
        ],
    }
    with store.opened(app.config["DATABASE_URL"]) as db:
        return ledger.start(db, GameEntry.from_json(game)).table.id


def _read_back(tmp_path: Path, body: bytes) -> list[list[str]]:
    """The download saved as a file and read as a spreadsheet would (BOM first)."""
    path = tmp_path / "export.csv"
    path.write_bytes(body)
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    with path.open(encoding="utf-8-sig", newline="") as file:
        return list(csv.reader(file))


@pytest.mark.parametrize("pair", [NAMES[0:2], NAMES[2:4], NAMES[4:6]])
def test_a_games_csv_escapes_formulas_and_keeps_unicode(app: Flask, tmp_path: Path, pair: list[str]) -> None:
    game_id = _game(app, pair)
    response = app.test_client().get(f"/games/{game_id}/boxes.csv")
    assert response.mimetype == "text/csv"
    rows = _read_back(tmp_path, response.data)
    assert rows[0][0] == "date"
    box = rows[1]
    expected = [name if name == "李雷" else "'" + name for name in pair]
    assert box[4] == box[7] == box[8] == expected[0]  # dealer, by, winner
    assert [box[10], box[13]] == expected  # the seats
    assert box[9] == "7" and box[12] == "7"  # numbers stay numbers
    assert not any(cell.startswith(tuple("=+-@")) for row in rows for cell in row)


def test_a_players_csv_escapes_the_names_of_every_seat(app: Flask, tmp_path: Path) -> None:
    _game(app, ["Ann", "=cmd|' /C calc'!A0"])
    response = app.test_client().get("/players/ann/record.csv")
    rows = _read_back(tmp_path, response.data)
    assert rows[1][13] == "'=cmd|' /C calc'!A0" and rows[1][10] == "Ann"


@pytest.mark.parametrize("start", list(exports.FORMULA_STARTS))
def test_every_formula_start_is_made_inert_once(start: str) -> None:
    cell = exports.inert(start + "1")
    assert cell == "'" + start + "1"
    assert exports.inert(cell) == cell  # already inert: not quoted again
    assert exports.inert(-12) == -12
