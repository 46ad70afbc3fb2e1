"""Issue 23's smaller findings, each reproduced first: edit rights past 60 dropped
least recently used first with a message; old join links with the code in the path;
a database behind its migrations refuses writes; the share page's links come from a
configured or trusted host."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import Client

from scorekeeper import store
from scorekeeper.web import create_app, gamedata

GAME: dict[str, Any] = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann"}


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("smaller.sqlite3")
    yield create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "s" * 40, "WTF_CSRF_ENABLED": False}
    )


def _game(app: Flask) -> dict[str, Any]:
    created: dict[str, Any] = app.test_client().post("/api/v1/games", json=GAME).get_json()
    return created


def _scorer(client: Any, game_id: str) -> bool:
    return "Record" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_rights_past_sixty_go_least_recently_used_first(app: Flask) -> None:
    """Found: past 60 rights the cookie kept the last 60 in order of game id (the
    session's JSON sorts its keys), so a game joined a minute ago could lose its right.
    Now the least recently used right goes, and the phone is told which."""
    phone = app.test_client()
    games = [_game(app) for _ in range(gamedata.MAX_EDIT_RIGHTS + 1)]
    newest = min(games, key=lambda g: g["id"])  # the lowest id: the first to go before
    games.remove(newest)
    for game in games:
        assert phone.post(f"/games/{game['id']}/join", data={"code": game["edit_token"]}).status_code == 303
    oldest = games[0]
    assert _scorer(phone, oldest["id"])
    # A write with the oldest right uses it: the second oldest is now the least used.
    assert (
        phone.post(
            f"/games/{oldest['id']}/boxes/new", data={"version": "1", "ending": "misdeal", "key": "use"}
        ).status_code
        == 303
    )
    joined = phone.post(f"/games/{newest['id']}/join", data={"code": newest["edit_token"]})
    assert joined.status_code == 303
    page = phone.get(joined.headers["Location"]).get_data(as_text=True)
    assert _scorer(phone, newest["id"]) and _scorer(phone, oldest["id"])
    assert not _scorer(phone, games[1]["id"])
    assert "no longer keeps score" in page and "least recently used" in page
    assert "no longer keeps score" not in phone.get("/").get_data(as_text=True)
    cookie = phone.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 4000


def test_rights_kept_before_in_a_dict_still_work(app: Flask) -> None:
    """A cookie from before (rights as a dict) keeps its rights."""
    game = _game(app)
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["edit"] = {game["id"]: game["edit_token"]}
    assert _scorer(phone, game["id"])


def test_an_old_join_link_redirects_and_its_code_stays_out_of_the_log(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    """An old link (/games/<id>/join/<code>) goes to the join page with the code in the
    fragment, which no server sees again; the access log shows the path without it."""
    from scorekeeper.serve import access_logged

    game = _game(app)
    old = f"/games/{game['id']}/join/{game['edit_token']}"
    client = app.test_client()
    response = client.get(old)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game['id']}/join#{game['edit_token']}"
    assert response.headers["Cache-Control"] == "no-store"
    logged = Client(access_logged(app.wsgi_app), app.response_class)
    log = logging.getLogger("scorekeeper.access")
    handler = caplog.handler
    log.addHandler(handler)
    try:
        with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
            assert logged.get(old).status_code == 303
    finally:
        log.removeHandler(handler)
    lines = [r.getMessage() for r in caplog.records if r.name == "scorekeeper.access"]
    assert lines and all(game["edit_token"] not in line for line in lines)
    assert f"/games/{game['id']}/join/" in lines[0]


def test_a_database_behind_refuses_writes_as_health_does(app: Flask, tmp_path: Path) -> None:
    """Found: /health said 503 when the schema was behind, yet writes went on (and
    failed half-way with 500s). Now every write is refused with 503 and says why."""
    game = _game(app)
    behind = tmp_path / "behind.sqlite3"
    url = f"sqlite:///{behind}"
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(store.MIGRATIONS))
    config.attributes["database_url"] = url
    command.upgrade(config, "0001")
    old = create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "s" * 40, "WTF_CSRF_ENABLED": False}
    )
    client = old.test_client()
    assert client.get("/health").status_code == 503
    api = client.post("/api/v1/games", json=GAME)
    assert api.status_code == 503 and api.get_json()["error"]["code"] == "schema-behind"
    page = client.post("/games/new?rules=gin", data={"players-0": "Ann"})
    assert page.status_code == 503 and "scorekeeper migrate" in page.get_data(as_text=True)
    assert "Retry-After" in page.headers
    # What stores nothing still answers: a ruling, a score.
    assert client.post("/api/v1/score", json={**GAME, "boxes": []}).status_code == 200
    assert (
        app.test_client()
        .post(
            f"/api/v1/games/{game['id']}/boxes",
            json={"ending": "misdeal"},
            headers={"Authorization": f"Bearer {game['edit_token']}"},
        )
        .status_code
        == 201
    )


def test_the_share_page_builds_links_from_a_configured_or_trusted_host(app: Flask) -> None:
    """Found: the join link and its QR code took whatever Host header came. Now they
    use SCOREKEEPER_PUBLIC_URL when set, else a trusted host (TRUSTED_HOSTS, or an
    address a table's LAN uses: an IP, localhost, a .local name)."""
    phone = app.test_client()
    game = _game(app)
    phone.post(f"/games/{game['id']}/join", data={"code": game["edit_token"]})
    cookie = phone.get_cookie("session")
    assert cookie is not None

    def sheet(host: str) -> str:
        """The scorer's sheet asked for under another Host (the cookie sent along)."""
        return (
            app.test_client(use_cookies=False)
            .get(f"/games/{game['id']}", headers={"Host": host, "Cookie": f"session={cookie.value}"})
            .get_data(as_text=True)
        )

    text = sheet("evil.example")
    assert "Renew the codes" in text and "Join code" in text
    assert "evil.example" not in text and "SCOREKEEPER_PUBLIC_URL" in text
    lan = sheet("192.168.1.20:8000")
    assert f"http://192.168.1.20:8000/games/{game['id']}/join#" in lan
    app.config["PUBLIC_URL"] = "https://cards.example.org/"
    text = sheet("evil.example")
    assert f"https://cards.example.org/games/{game['id']}/join#" in text
    assert "evil.example" not in text


def _knock(version: int, key: str) -> dict[str, str]:
    return {
        "version": str(version),
        "key": key,
        "ending": "knock",
        "by": "Ann",
        "hands-0-count": "2",
        "hands-1-count": "20",
    }


def test_undo_undoes_only_this_phones_own_write(app: Flask) -> None:
    """Found: any scorer could post the undo form of another phone's write (the
    version and the box are on every scorer's sheet) and take that write back. Now
    only the phone that made the write may, as the sheet promises."""
    game = _game(app)
    ann, bob = app.test_client(), app.test_client()
    for phone in (ann, bob):
        phone.post(f"/games/{game['id']}/join", data={"code": game["edit_token"]})
    assert ann.post(f"/games/{game['id']}/boxes/new", data=_knock(1, "a1")).status_code == 303
    (box,) = app.test_client().get(f"/api/v1/games/{game['id']}").get_json()["game"]["boxes"]
    undo = f"/games/{game['id']}/boxes/{box['id']}/undo"
    refused = bob.post(undo, data={"version": "2", "key": "b-undo"})
    assert refused.status_code == 409
    assert "Only the phone that made a write can undo it" in refused.get_data(as_text=True)
    assert len(app.test_client().get(f"/api/v1/games/{game['id']}").get_json()["game"]["boxes"]) == 1
    for _ in range(2):  # Ann's own undo, tapped twice
        assert ann.post(undo, data={"version": "2", "key": "a-undo"}).status_code == 303
    assert app.test_client().get(f"/api/v1/games/{game['id']}").get_json()["game"]["boxes"] == []


def test_a_game_ended_by_agreement_refuses_further_edits(app: Flask) -> None:
    """Found: after the players ended a game by agreement, a box could still be
    corrected or deleted and the rules changed (only a new box was refused). Now every
    edit is refused alike, in pages and API, saying how to play on."""
    game = _game(app)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    api = app.test_client()
    assert (
        api.post(
            f"/api/v1/games/{game['id']}/boxes",
            headers=auth,
            json={"ending": "knock", "by": "Ann", "hands": {"Ann": {"count": 2}, "Bob": {"count": 20}}},
        ).status_code
        == 201
    )
    assert api.post(f"/api/v1/games/{game['id']}/end", headers=auth).status_code == 200
    (box,) = api.get(f"/api/v1/games/{game['id']}").get_json()["game"]["boxes"]
    base = f"/api/v1/games/{game['id']}"
    refusals = [
        api.put(f"{base}/boxes/{box['id']}", headers=auth, json={"ending": "misdeal"}),
        api.delete(f"{base}/boxes/{box['id']}", headers=auth),
        api.put(f"{base}/settings", headers=auth, json={"gin_bonus": 50}),
        api.post(f"{base}/boxes", headers=auth, json={"ending": "misdeal"}),
    ]
    for refused in refusals:
        assert refused.status_code == 422, refused.get_json()
        error = refused.get_json()["error"]
        assert error["code"] == "game-over" and "ended" in error["message"]
        assert "new game" in error["message"]
    phone = app.test_client()
    phone.post(f"/games/{game['id']}/join", data={"code": game["edit_token"]})
    version = api.get(base).get_json()["version"]
    page = phone.post(
        f"/games/{game['id']}/boxes/{box['id']}/delete", data={"version": str(version), "key": "d"}
    )
    assert page.status_code in (409, 422) and "new game" in page.get_data(as_text=True)
    assert api.get(base).get_json()["version"] == version
