"""Issue 23, "a wrong-code limit is not a lock-out": the short code's limit counts per
client first, then a generous cap per game; the join link's long code (the QR code) is
never refused by it; the home page's "Join a game" cannot be locked for every game;
and a refusal says what still works."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.web import create_app

GAME: dict[str, Any] = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann"}


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("limits.sqlite3")
    yield create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "t" * 40, "WTF_CSRF_ENABLED": False}
    )


def _game(app: Flask) -> dict[str, Any]:
    created: dict[str, Any] = app.test_client().post("/api/v1/games", json=GAME).get_json()
    return created


def _wrong(app: Flask, path: str, address: str, times: int) -> list[int]:
    phone = app.test_client()
    return [
        phone.post(path, data={"code": "ZZZZZZ"}, environ_base={"REMOTE_ADDR": address}).status_code
        for _ in range(times)
    ]


def test_thirty_wrong_codes_from_three_addresses_lock_no_one_out(app: Flask) -> None:
    """Found: 30 wrong codes from three addresses closed the game for everyone, even
    with the full link. Now each address meets its own limit; others join with the
    short code, and everyone with the link."""
    game = _game(app)
    path = f"/games/{game['id']}/join"
    for n in range(3):
        assert _wrong(app, path, f"10.0.0.{n}", 10)[-1] == 429
    for code in (game["join_code"], game["edit_token"]):
        joined = app.test_client().post(path, data={"code": code}, environ_base={"REMOTE_ADDR": "10.0.9.9"})
        assert joined.status_code == 303, code


def test_a_client_past_its_limit_still_joins_with_the_link(app: Flask) -> None:
    """The 32-character code cannot be guessed: it is never refused by the short
    code's limit, and the refusal says so."""
    game = _game(app)
    path = f"/games/{game['id']}/join"
    phone = app.test_client()
    statuses = [phone.post(path, data={"code": "ZZZZZZ"}).status_code for _ in range(11)]
    assert statuses[-2:] == [429, 429]
    refused = phone.post(path, data={"code": game["join_code"]})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 429 and "QR code" in text and "join link" in text
    page = phone.get(path).get_data(as_text=True)
    assert "still works" in page
    link = f"http://localhost/games/{game['id']}/join#{game['edit_token']}"
    assert phone.post(path, data={"code": link}).status_code == 303


def test_the_home_pages_join_cannot_be_locked_for_every_game(app: Flask) -> None:
    """Found: the home page's form counted every client's wrong codes as one game's,
    so 30 of them locked "Join a game" for everyone. Now only the client that typed
    them waits."""
    game = _game(app)
    for n in range(40):
        _wrong(app, "/join", f"10.1.{n}.1", 10)
    assert _wrong(app, "/join", "10.1.0.1", 1) == [429]
    joined = app.test_client().post(
        "/join", data={"code": game["join_code"].lower()}, environ_base={"REMOTE_ADDR": "10.2.0.1"}
    )
    assert joined.status_code == 303
    assert joined.headers["Location"] == f"/games/{game['id']}"


def test_the_games_cap_refuses_only_the_short_code_and_says_so(app: Flask) -> None:
    """Past the per-game cap (many addresses guessing one game's short code) the short
    code waits for everyone, the link does not, and the page says which still works."""
    app.config.update(JOIN_TRIES_PER_CLIENT=3, JOIN_TRIES_PER_GAME=6)
    game = _game(app)
    path = f"/games/{game['id']}/join"
    _wrong(app, path, "10.3.0.1", 3)
    _wrong(app, path, "10.3.0.2", 3)
    refused = app.test_client().post(
        path, data={"code": game["join_code"]}, environ_base={"REMOTE_ADDR": "10.3.0.3"}
    )
    text = refused.get_data(as_text=True)
    assert refused.status_code == 429 and "this game" in text and "QR code" in text
    assert (
        app.test_client()
        .post(path, data={"code": game["edit_token"]}, environ_base={"REMOTE_ADDR": "10.3.0.3"})
        .status_code
        == 303
    )
    other = _game(app)
    assert (
        app.test_client()
        .post(
            f"/games/{other['id']}/join",
            data={"code": other["join_code"]},
            environ_base={"REMOTE_ADDR": "10.3.0.4"},
        )
        .status_code
        == 303
    )


def test_wrong_long_codes_do_not_spend_the_short_codes_tries(app: Flask) -> None:
    """A mistyped link is not a guess at a 6-character code: it is refused (403) but
    not counted."""
    game = _game(app)
    path = f"/games/{game['id']}/join"
    phone = app.test_client()
    for _ in range(12):
        wrong = phone.post(path, data={"code": "x" * 32})
        assert wrong.status_code == 403
    typo = phone.post(path, data={"code": "K7M-2Q0"})
    assert typo.status_code == 403 and "without 0, O, 1" in typo.get_data(as_text=True)
    assert phone.post(path, data={"code": game["join_code"]}).status_code == 303
