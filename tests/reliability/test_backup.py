"""Backups: a game exported as CONTRACT.md JSON imports back to an identical game, and
the whole database survives backup and restore (history, versions, keys included)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from scorekeeper import engine, ledger, store
from scorekeeper.engine.contract import BoxEntry
from scorekeeper.engine.contract.club import ClubEntry, PlanEntry, SeasonEntry
from scorekeeper.engine.event import EventEntry
from scorekeeper.engine.ladder import Ladder
from scorekeeper.ledger import clubs, events, planned

CAL = "C\u0327al 🃏"
"""A combining cedilla and an emoji, as a keyboard may send them: stored composed (NFC,
``Ç`` one character), as the contract reads every name, and compared exactly."""

CARDS_BOX: dict[str, Any] = {
    "ending": "knock",
    "by": "Bob",
    "note": "Cal's layoff argued over ✓",
    "hands": {
        "Bob": {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]},
        "Cal": {
            "melds": [["KH", "KC", "KS"]],
            "deadwood": ["AH", "AD", "2C", "2H", "3D", "4H"],
            "layoffs": [{"card": "4S", "onto": "Bob"}],
        },
        "Ann": {"count": 14},
    },
}
GAME: dict[str, Any] = {
    "rules": "jersey-scarne",
    "settings": {"underknock_bonus": 10},
    "players": ["Ann", "Bob", CAL],
    "dealer": "Ann",
    "stake": 0.05,
    "boxes": [
        {"ending": "misdeal"},
        {
            "ending": "gin",
            "by": "Ann",
            "hands": {"Ann": {"count": 0}, "Bob": {"count": 30}, CAL: {"count": 7}},
        },
    ],
}
"""A game with a settings change, a stake, a name with a combining accent and an emoji, a
misdeal and a gin: everything an export must carry."""


def _game_with_history(db: Session) -> str:
    """A game built by writes: import, append, correct, delete; returns its id."""
    game, _token = ledger.import_game(db, GAME)
    game_id = game.id
    box = {**CARDS_BOX, "hands": {(CAL if k == "Cal" else k): v for k, v in CARDS_BOX["hands"].items()}}
    box["hands"][CAL]["layoffs"] = [{"card": "4S", "onto": "Bob"}]
    ledger.record(db, game_id, BoxEntry.from_json(box), version=1, key="phone-1")
    data = store.export_game(db, game_id)
    first = data["boxes"][0]["id"]
    ledger.correct(
        db,
        game_id,
        first,
        BoxEntry.from_json({**data["boxes"][0], "note": "it was a misdeal", "id": None}),
        version=2,
    )
    ledger.record(db, game_id, BoxEntry(ending="misdeal"), version=3)
    data = store.export_game(db, game_id)
    ledger.delete(db, game_id, data["boxes"][-1]["id"], version=4)
    return game_id


def _without_ids(game: dict[str, Any]) -> dict[str, Any]:
    return {**game, "boxes": [{k: v for k, v in box.items() if k != "id"} for box in game["boxes"]]}


def test_export_then_import_gives_an_identical_game(database_url: str) -> None:
    """Export → JSON text → import → export: the same CONTRACT.md game (box ids aside),
    the same score, the same rulings; and the import is a new game with its own token."""
    engine_ = store.connect(database_url)
    try:
        with Session(engine_, expire_on_commit=False) as db:
            game_id = _game_with_history(db)
            exported = store.export_game(db, game_id)
            text = json.dumps(exported, ensure_ascii=False)
            copy, token = ledger.import_game(db, json.loads(text))
            again = store.export_game(db, copy.id)
            assert copy.id != game_id and store.check_edit_token(copy, token)
            assert _without_ids(again) == _without_ids(exported)
            assert _without_ids(engine.score(again)) == _without_ids(engine.score(exported))
            assert _without_ids({"boxes": [b.ruling for b in store.live_boxes(db, copy)]}) == _without_ids(
                {"boxes": engine.score(again)["boxes"]}
            )
            assert store.verify(db) == []
            with pytest.raises(engine.ScorekeeperError):
                ledger.import_game(db, {**exported, "players": ["Ann"]})
            with pytest.raises(engine.ScorekeeperError):
                ledger.import_game(db, ["not", "a", "game"])
            assert len(list(store.all_game_ids(db))) == 2
    finally:
        engine_.dispose()


def test_the_web_export_imports_through_the_api(tmp_path: Path) -> None:
    """The sheet's "export" download is what the API's POST /games takes back."""
    from scorekeeper.web import create_app

    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    store.migrate(url)
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "x" * 40})
    client = app.test_client()
    created = client.post("/api/v1/games", json=GAME).get_json()
    exported = client.get(f"/games/{created['id']}/export.json").get_json()
    copy = client.post("/api/v1/games", json=exported)
    assert copy.status_code == 201
    back = client.get(f"/api/v1/games/{copy.get_json()['id']}").get_json()
    assert _without_ids(back["game"]) == _without_ids(exported)
    original = client.get(f"/api/v1/games/{created['id']}").get_json()
    assert back["score"]["totals"] == original["score"]["totals"]


def _everything(database_url: str) -> dict[str, Any]:
    """Every row of every table, as plain data, for comparing two databases."""
    engine_ = store.connect(database_url)
    try:
        with engine_.connect() as conn:
            return {
                name: [
                    dict(row)
                    for row in conn.execute(
                        select(store.Base.metadata.tables[name]).order_by(
                            *store.Base.metadata.tables[name].primary_key.columns
                        )
                    ).mappings()
                ]
                for name in store.BACKUP_TABLES
            }
    finally:
        engine_.dispose()


def test_whole_database_backup_and_restore(database_url: str, tmp_path: Path) -> None:
    """backup() writes one private JSON file; restore() into an empty database gives back
    every row of every table (games, boxes with deleted ones, history, idempotency
    keys), the games verify, and the restored database takes new writes."""
    engine_ = store.connect(database_url)
    try:
        with Session(engine_, expire_on_commit=False) as db:
            game_id = _game_with_history(db)
            other, _token = ledger.import_game(db, GAME)
            ledger.change_rules(db, other.id, {"underknock_bonus": 10, "gin_bonus": 50})
            ledger.end(db, other.id)
            store.set_alias(db, "ann", "Ann Smith", game_id)
            event = events.start_event(db, EventEntry("Club", ("Ann", "Bob", "Cal")), secret=b"k" * 32).event
            events.penalize(db, event.id, "Bob", 5, "slow play")
            club = clubs.begin(db, ClubEntry("Hoboken"), secret=b"k" * 32).club.id
            clubs.link(db, club, "Ann", None)
            clubs.attach(db, club, event.id)
            winter = SeasonEntry.from_json({"name": "Winter", "from": "2027-01-01", "to": "2027-03-31"})
            season_id = clubs.add_season(db, club, winter)[1]
            plan = PlanEntry.from_json({"date": "2027-01-12", "time": "19:30", "place": "Back room"})
            planned.plan(db, club, season_id, plan)  # an evening planned, its counting changed
            clubs.change_counting(db, club, season_id, Ladder("placings", best=2))
    finally:
        engine_.dispose()
    path = tmp_path / "backup.json"
    counts = store.backup(path, database_url).rows
    assert counts == {
        "games": 3,
        "boxes": 6,
        "box_revisions": 8,
        "game_events": 3,
        "write_keys": 1,
        "player_aliases": 1,
        "name_decisions": 0,
        "events": 1,
        "event_entrants": 3,
        "event_rounds": 1,
        "event_games": 1,
        "event_penalties": 1,
        "event_history": 2,  # the start (round 1 seated) and the penalty
        "clubs": 1,
        "club_members": 1,
        "club_spellings": 1,
        "club_history": 6,  # begun, Ann a member, the event joined, the season, a plan, its counting
        "club_seasons": 1,
        "club_plans": 1,
        "club_events": 1,
    }
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    restored_url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    assert store.restore(path, restored_url) == counts
    assert _everything(restored_url) == _everything(database_url)
    with pytest.raises(store.StoreError, match="already has games"):
        store.restore(path, restored_url)
    engine_ = store.connect(restored_url)
    try:
        with Session(engine_, expire_on_commit=False) as db:
            assert store.verify(db) == []
            box = BoxEntry(ending="misdeal")
            written = ledger.record(db, game_id, box, version=5)
            assert written.version == 6 and written.box_id == 7
            assert ledger.record(
                db,
                game_id,
                BoxEntry.from_json(
                    {
                        **CARDS_BOX,
                        "hands": {(CAL if k == "Cal" else k): v for k, v in CARDS_BOX["hands"].items()},
                    }
                ),
                key="phone-1",
            ).repeated
    finally:
        engine_.dispose()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(store.StoreError, match="not a scorekeeper backup"):
        store.restore(bad, f"sqlite:///{tmp_path / 'other.sqlite3'}")


@pytest.fixture
def imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[str, Path, dict[str, Any]]:
    """A migrated database the command line uses, with ``GAME`` stored by ``scorekeeper
    import FILE``: the database URL, the file and what the command printed."""
    from scorekeeper import cli

    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    store.migrate(url)
    monkeypatch.setattr("scorekeeper.cli.database._database_url", lambda: url)
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(GAME, ensure_ascii=False), encoding="utf-8")
    assert cli.main(["import", str(game_file)]) == 0
    return url, game_file, json.loads(capsys.readouterr().out)


def test_command_line_backup_and_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], imported: tuple[str, Path, dict[str, Any]]
) -> None:
    """``scorekeeper import FILE`` stores an exported game; ``scorekeeper backup OUT``
    writes the whole database; a game the engine refuses exits 2 with its error."""
    from scorekeeper import cli

    _url, game_file, created = imported
    assert set(created) == {"id", "edit_token", "version"}
    out = tmp_path / "all.json"
    assert cli.main(["backup", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["rows"]["games"] == 1
    assert json.loads(out.read_text())["tables"]["games"][0]["id"] == created["id"]
    game_file.write_text(json.dumps({**GAME, "rules": "snap"}))
    assert cli.main(["import", str(game_file)]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "unknown-rules"


def test_command_line_export_check_and_restore(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    imported: tuple[str, Path, dict[str, Any]],
) -> None:
    """``export ID`` prints the stored game, ``check`` rescores every game (status 1 on a
    tampered ruling), and ``restore FILE`` loads a backup into an empty database only."""
    from scorekeeper import cli

    url, _file, created = imported
    game_id = created["id"]
    assert cli.main(["export", "--", game_id]) == 0  # an id may start with "-"
    exported = json.loads(capsys.readouterr().out)
    assert exported["players"] == [engine.player_name(p) for p in GAME["players"]]
    assert exported["players"][2] == "\u00c7al 🃏" and len(exported["boxes"]) == len(GAME["boxes"])
    assert cli.main(["export", "nope"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "not-found"
    assert cli.main(["check"]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "problems": []}
    backup_file = tmp_path / "all.json"
    assert cli.main(["backup", str(backup_file)]) == 0
    capsys.readouterr()
    with store.opened(url) as db:
        box = db.scalars(select(store.Box)).first()
        assert box is not None
        box.ruling = {**box.ruling, "points": 999}
        db.commit()
    assert cli.main(["check"]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False
    assert cli.main(["restore", str(backup_file)]) == 2  # the database has games already
    assert "empty" in json.loads(capsys.readouterr().out)["error"]["message"]
    empty = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    monkeypatch.setattr("scorekeeper.cli.database._database_url", lambda: empty)
    assert cli.main(["restore", str(backup_file)]) == 0
    assert json.loads(capsys.readouterr().out)["rows"]["games"] == 1
    assert cli.main(["export", "--", game_id]) == 0  # an id may start with "-"
    assert json.loads(capsys.readouterr().out) == exported
