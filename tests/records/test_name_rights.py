"""Issue 23, "merging names is not a way into other people's records": a merge or split
changes only the games the deciding phone keeps score of, is kept in history, and is
undone only by a phone that keeps score of every game it changed."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from flask import Flask
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine.contract import GameEntry
from scorekeeper.ledger import players
from scorekeeper.web import create_app

from .test_pages import figure


def _game(first: str, second: str) -> GameEntry:
    return GameEntry.from_json(
        {
            "rules": "gin",
            "players": [first, second],
            "dealer": first,
            "boxes": [
                {"ending": "knock", "by": first, "hands": {first: {"count": 2}, second: {"count": 20}}}
            ],
        }
    )


def _club(url: str) -> tuple[Flask, list[tuple[str, str]]]:
    """A club server (every game counts): Mallory keeps score of a game with a Quinn,
    Vera of another game with another Quinn; Mal played a third game."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "SECRET_KEY": "n" * 40,
            "WTF_CSRF_ENABLED": False,
            "RECENT_GAMES_PUBLIC": True,
        }
    )
    with store.opened(url) as db:
        started = [
            ledger.start(db, _game(*seats)) for seats in (("Quinn", "Ann"), ("Quinn", "Vera"), ("Mal", "Bob"))
        ]
    return app, [(s.table.id, s.token or "") for s in started]


def test_a_stranger_merging_quinn_leaves_the_other_quinn_alone(migrated: Callable[[str], str]) -> None:
    """Found: Mallory, scorer of one game with a Quinn, merged "Quinn" into her own
    name on the whole server, and Vera's Quinn's page answered 404. Now the merge
    changes Mallory's game only: Vera's Quinn keeps her page and her game."""
    app, games = _club(migrated("names.sqlite3"))
    mallory, vera = app.test_client(), app.test_client()
    assert mallory.post(f"/games/{games[0][0]}/join", data={"code": games[0][1]}).status_code == 303
    assert vera.post(f"/games/{games[1][0]}/join", data={"code": games[1][1]}).status_code == 303
    assert mallory.post("/players/mal/merge", data={"name": "Quinn"}).status_code == 303
    quinn = app.test_client().get("/players/quinn")
    assert quinn.status_code == 200 and figure(quinn.get_data(as_text=True), "games") == "1"
    assert figure(app.test_client().get("/players/mal").get_data(as_text=True), "games") == "2"
    with store.opened(app.config["DATABASE_URL"]) as db:
        (decision,) = store.decisions(db)
        assert decision.games == (games[0][0],)
        assert {(a.name, a.game_id) for a in store.aliases(db)} == {("quinn", games[0][0])}
    page = vera.get("/players/mal").get_data(as_text=True)
    assert "counts as <bdi>Mal</bdi>" in page and f"/players/names/{decision.id}/undo" not in page
    assert vera.post(f"/players/names/{decision.id}/undo").status_code == 403
    assert mallory.post(f"/players/names/{decision.id}/undo").status_code == 303
    assert figure(app.test_client().get("/players/quinn").get_data(as_text=True), "games") == "2"


def test_a_split_needs_the_games_right_and_an_undo_puts_back_what_it_replaced(
    migrated: Callable[[str], str],
) -> None:
    """Vera splits her Quinn off, then merges that name into Quinn Two: undoing the
    merge brings back the split it replaced, not no decision at all."""
    url = migrated("names.sqlite3")
    _app, games = _club(url)
    mine, theirs = games[1][0], games[0][0]
    with store.opened(url) as db:
        try:
            players.split(db, "Quinn", theirs, "Q", {mine})
        except players.NotYours as err:
            assert "keep score of" in str(err)
        else:
            raise AssertionError("a split of a game not kept was stored")
        try:
            players.merge(db, "Quinn", "Vera", {mine})
        except players.NameRefused as err:
            assert "played at one table (Quinn, Vera)" in str(err)
        else:
            raise AssertionError("two seats of one game merged into one person")
        first = players.split(db, "Quinn", mine, "Quinn (Trenton)", {mine})
        second = players.merge(db, "Quinn (Trenton)", "Quinn Two", {mine})
        assert second.changes == (store.NameChange(mine, "quinn", "Quinn (Trenton)"),)
        who = players.names(db)
        assert (who.person("Quinn", mine), who.person("Quinn", theirs)) == ("quinn two", "quinn")
        assert players.undo(db, second.id, {mine}) is not None
        assert players.names(db).person("Quinn", mine) == "quinn (trenton)"
        assert [d.id for d in players.history(db, "quinn (trenton)")] == [second.id, first.id]


def _merged_before(tmp_path: Path) -> tuple[str, list[tuple[str, str]]]:
    """A database with two games where a Quinn played (with Mal, then with Vera) and a
    server-wide merge of "Quinn" into Mal stored before decisions were kept (migration
    0007 keeps it as one): its URL and each game's (id, scorer's code)."""
    url = f"sqlite:///{tmp_path / 'before.sqlite3'}"
    config = Config()
    config.set_main_option("script_location", str(store.MIGRATIONS))
    config.attributes["database_url"] = url
    command.upgrade(config, "0006")
    store.migrate(url)
    with store.opened(url) as db:
        started = [ledger.start(db, _game("Quinn", n)) for n in ("Mal", "Vera")]
    command.downgrade(config, "0006")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO player_aliases (name, person, game_id, at) "
                "VALUES ('quinn', 'Mal', NULL, '2026-11-25 20:00:00')"
            )
        )
    engine.dispose()
    store.migrate(url)
    return url, [(s.table.id, s.token or "") for s in started]


def test_merges_stored_before_become_decisions_that_need_every_games_right(tmp_path: Path) -> None:
    """A server-wide merge stored before this round (migration 0007 keeps it as a
    decision): undoing it needs a right over every game where that name played."""
    url, ((one, _), (two, _)) = _merged_before(tmp_path)
    with store.opened(url) as db:
        (kept,) = store.decisions(db)
        assert (kept.kind, kept.changes) == ("merge", (store.NameChange(None, "quinn", None),))
        assert players.touched(db, kept) == sorted([one, two])
        try:
            players.undo(db, kept.id, {one})
        except players.NotYours as err:
            assert re.search(r"1 game of them", str(err))
        else:
            raise AssertionError("undone without a right over every game")
        assert players.undo(db, kept.id, {one, two}) is not None
        assert store.aliases(db) == []


def test_a_player_page_reads_a_bounded_number_of_games_for_an_old_merge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found in review: every view of Mal's page read every game on the server to tell
    whether the phone may undo the old server-wide merge, anonymous readers' too. Now a
    phone that keeps score of no game reads nothing for it, and a scorer's view reads
    only the newest ``RECORDS_MAX_GAMES`` games."""
    url, games = _merged_before(tmp_path)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "SECRET_KEY": "n" * 40,
            "WTF_CSRF_ENABLED": False,
            "RECENT_GAMES_PUBLIC": True,
            "RECORDS_MAX_GAMES": 1,
        }
    )
    asked: list[Sequence[str] | None] = []
    checked: list[int] = []
    counted_games, touched = store.counted_games, players.touched

    def reading(db: Session, ids: Sequence[str] | None = None) -> list[store.CountedGame]:
        asked.append(ids)
        return counted_games(db, ids)

    def checking(db: Session, decision: store.DecisionRow, *most: int) -> list[str]:
        checked.append(decision.id)
        return touched(db, decision, *most)

    monkeypatch.setattr(store, "counted_games", reading)
    monkeypatch.setattr(players, "touched", checking)
    page = app.test_client().get("/players/mal").get_data(as_text=True)
    assert "counts as <bdi>Mal</bdi> in every game" in page and "/undo" not in page
    assert checked == [] and None not in asked
    scorer = app.test_client()
    for game_id, code in games:
        assert scorer.post(f"/games/{game_id}/join", data={"code": code}).status_code == 303
    asked.clear()
    page = scorer.get("/players/mal").get_data(as_text=True)
    assert len(checked) == 1 and f"/players/names/{checked[0]}/undo" in page
    assert asked and all(ids is not None and len(ids) <= 1 for ids in asked)
