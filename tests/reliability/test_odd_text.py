"""Text that is not valid Unicode, stored by an older version (the review stored
``"\\udfff"`` through the API, in a note and in unknown keys), never breaks a backup,
an export, ``score`` or a page: it is written escaped and said. What enters now, a
restore included, is refused naming the place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from scorekeeper import cli, ledger, store
from scorekeeper.engine.contract import GameEntry
from scorekeeper.web import create_app

GAME: dict[str, Any] = {
    "rules": "jersey-scarne",
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "boxes": [
        {
            "ending": "knock",
            "by": "Bob",
            "note": "fine",
            "hands": {"Ann": {"count": 14}, "Bob": {"count": 4}, "Cal": {"count": 13}},
        }
    ],
}
BAD_ENTRY = (
    '{"ending": "knock", "by": "Bob", "note": "x\\udfff", "colour": "\\udcff", '
    '"hands": {"Ann": {"count": 14}, "Bob": {"count": 4}, "Cal": {"count": 13}}}'
)
"""What the review stored: a lone surrogate in the note and in an unknown key, as the
JSON text an older version wrote (JSON escapes keep it storable)."""


def _poisoned(database_url: str) -> str:
    """A game whose box (and its history) and players hold lone surrogates, put there
    with raw SQL as an older version would have; returns its id."""
    engine_ = store.connect(database_url)
    try:
        with Session(engine_) as db:
            game_id = ledger.start(db, GameEntry.from_json(GAME)).table.id
        with engine_.begin() as conn:
            try:
                conn.execute(sa.text("UPDATE boxes SET entry = :e"), {"e": BAD_ENTRY})
                conn.execute(sa.text("UPDATE box_revisions SET entry = :e"), {"e": BAD_ENTRY})
                conn.execute(
                    sa.text("UPDATE games SET players = :p"), {"p": '["Ann", "Bob", "Cal", "D\\udfff"]'}
                )
            except sa.exc.DataError:
                pytest.skip("this database refuses a lone surrogate even in JSON text")
    finally:
        engine_.dispose()
    # Written behind the ledger's back: nothing of the game may stay kept from before,
    # as in a server started on such a database.
    ledger.cache.KEPT.clear()
    return game_id


def test_backup_and_export_write_it_escaped_and_say_so(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = _poisoned(database_url)
    monkeypatch.setattr("scorekeeper.cli.database._database_url", lambda: database_url)
    out = tmp_path / "all.json"
    assert cli.main(["backup", str(out)]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["rows"]["boxes"] == 1
    assert "boxes 1 entry.note: x\\udfff" in said.err
    assert "box_revisions 1 entry.colour" in said.err
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["tables"]["boxes"][0]["entry"]["note"] == "x\\udfff"

    assert cli.main(["export", game_id]) == 0
    said = capsys.readouterr()
    exported = json.loads(said.out)
    assert exported["boxes"][0]["note"] == "x\\udfff" and "colour" not in exported["boxes"][0]
    assert "box 1.note" in said.err and "game players[3]: D\\udfff" in said.err
    export_file = tmp_path / "game.json"
    export_file.write_text(said.out, encoding="utf-8")
    assert cli.main(["score", str(export_file)]) == 2  # a fourth player in Jersey Gin
    assert json.loads(capsys.readouterr().out)["error"]["where"] == "players"

    restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    assert store.restore(out, restored)["boxes"] == 1


def test_pages_and_the_api_show_it_escaped(database_url: str) -> None:
    game_id = _poisoned(database_url)
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "odd-" + "o" * 40})
    client = app.test_client()
    try:
        box_id = client.get(f"/api/v1/games/{game_id}").get_json()["game"]["boxes"][0]["id"]
        for url in (
            f"/games/{game_id}",
            f"/games/{game_id}/boxes/{box_id}",
            f"/games/{game_id}/export.json",
            f"/api/v1/games/{game_id}",
            "/",
        ):
            response = client.get(url)
            assert response.status_code == 200, url
            assert "\\udfff" in response.get_data(as_text=True) or url == "/", url
    finally:
        app.extensions["scorekeeper.store"].kw["bind"].dispose()


def test_a_restore_refuses_text_that_is_not_unicode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "bad.json"
    backup.write_text(
        '{"format": "scorekeeper-backup", "format_version": 1, "tables": {"games": [{"id": "g\\udfff"}]}}',
        encoding="utf-8",
    )
    target = f"sqlite:///{tmp_path / 'target.sqlite3'}"
    monkeypatch.setattr("scorekeeper.cli.database._database_url", lambda: target)
    assert cli.main(["restore", str(backup)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert "tables.games[0].id" in error["message"] and "nothing was restored" in error["message"]


FOUND_BY_FUZZING = [
    "",
    " ",
    "<script>alert(1)</script>",
    "A\u202eB",
    "\u200b",
    "e\u0301\u0301\u0301",
    "🂡🃏",
    "\x00",
    "9" * 400,
    "-1",
    "1e999",
    "NaN",
    "0x10",
    "٣",
    "Ⅻ",
    "\ufeff7",
    "7S",
    "10H",
    "\\udfff",
    "'; DROP TABLE games; --",
    "\u0000\u0001\u001f",
    "\ud83c\udca1",
    "ﬀ",
    "İ",
    "\r\n",
    "a" * 1000,
]
"""Every odd string the fuzzers send (tests/security/test_fuzz_forms.py's ODD_TEXT and
what schemathesis found), and a few of their cousins."""


def test_a_backup_of_every_odd_string_restores_exactly(database_url: str, tmp_path: Path) -> None:
    """Each odd string as a box's note and a game's place, stored through the ledger where
    the contract takes it (the rest is refused, so never stored): backup, restore into
    an empty database of the same kind, and every row comes back equal."""
    from tests.reliability.test_backup import _everything

    engine_ = store.connect(database_url)
    stored = 0
    try:
        with Session(engine_) as db:
            for text in FOUND_BY_FUZZING:
                box = {**GAME["boxes"][0], "note": text}
                try:
                    entry = GameEntry.from_json({**GAME, "place": text[:120], "boxes": [box]})
                except ValueError:
                    continue
                ledger.start(db, entry)
                stored += 1
    finally:
        engine_.dispose()
    assert stored >= len(FOUND_BY_FUZZING) - 3
    path = tmp_path / "odd.json"
    written = store.backup(path, database_url)
    assert written.odd == [] and written.rows["games"] == stored
    if database_url.startswith("sqlite"):
        restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    else:
        restored = database_url.rsplit("/", 1)[0] + "/" + _new_postgres_database(database_url)
    assert store.restore(path, restored)["games"] == stored
    assert _everything(restored) == _everything(database_url)


def _new_postgres_database(url: str) -> str:
    """An empty database beside ``url``'s on the same PostgreSQL server: its name."""
    import uuid

    import psycopg

    name = f"r_{uuid.uuid4().hex[:12]}"
    admin = url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return name


def test_a_nul_in_a_url_is_no_game_on_either_database(database_url: str) -> None:
    """PostgreSQL refuses NUL in text: a game id with one must be 404, not a 500."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "nul-" + "n" * 40})
    client = app.test_client()
    try:
        for url, headers in (
            ("/api/v1/games/a%00b", {}),
            ("/games/a%00b", {}),
            ("/games/a%00b/sheet?since=1", {"HX-Request": "true"}),
            ("/api/v1/games/a%00b/sheet.pdf", {}),
        ):
            assert client.get(url, headers=headers).status_code == 404, url
        response = client.post(
            "/api/v1/games/a%00b/boxes", json={"ending": "misdeal"}, headers={"Authorization": "Bearer x"}
        )
        assert response.status_code == 404
    finally:
        app.extensions["scorekeeper.store"].kw["bind"].dispose()
