"""What the sheet still tells once the moment is gone (issue 22): a deleted box is
named and linked to its history, whose lines say what changed (not a game version);
a phone that has just joined is told so; a finished game invites no one to join."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from .conftest import box_form, start_game, version_of

KNOCK = {0: 14, 1: 4, 2: 13}


def _box_id(client: FlaskClient, game_id: str) -> str:
    found: list[str] = re.findall(
        rf'href="/games/{game_id}/boxes/(\d+)"', client.get(f"/games/{game_id}").text
    )
    assert found
    return found[-1]


def test_a_deleted_box_is_named_and_its_history_says_what_changed(client: FlaskClient) -> None:
    game_id = start_game(client)
    client.post(f"/games/{game_id}/boxes/new", data=box_form(version_of(client, game_id), counts=KNOCK))
    box_id = _box_id(client, game_id)
    corrected = box_form(version_of(client, game_id), counts={0: 14, 1: 3, 2: 13})
    assert client.post(f"/games/{game_id}/boxes/{box_id}/edit", data=corrected).status_code == 303
    assert "deleted box" not in client.get(f"/games/{game_id}").text
    deleted = client.post(
        f"/games/{game_id}/boxes/{box_id}/delete",
        data={"version": str(version_of(client, game_id)), "key": "d1"},
    )
    assert deleted.status_code == 303
    client.get(f"/games/{game_id}")  # the page that offers Undo
    sheet = client.get(f"/games/{game_id}").text  # and later, Undo gone or not
    assert re.search(
        rf'1 deleted box:\s*<a href="/games/{game_id}/boxes/{box_id}#history">'
        r"Knock · Bob \+21</a>",
        sheet,
    )
    history = client.get(f"/games/{game_id}/boxes/{box_id}").text
    lines = [
        html.unescape(re.sub(r"<[^>]+>", "", li)).split("\n")[0].strip()
        for li in re.findall(r"<li>(.*?)</li>", history.split('id="history"')[1], re.S)
    ]
    # Each line says which phone wrote it (this one started the game and gave no name).
    phone = r"from a phone that started a game at \d\d:\d\d UTC: "
    assert re.match(
        "Recorded " + phone + re.escape("Knock, Bob +19 (counts Ann 14, Bob 4, Cal 13)"), lines[0]
    )
    assert re.match(
        "Corrected " + phone + re.escape("Knock, Bob +19 → Knock, Bob +21; Bob's count 4 → 3"), lines[1]
    )
    assert re.match("Deleted " + phone + re.escape("Knock, Bob +21 is off the sheet"), lines[2])
    assert "game version" not in history


def test_joining_says_so_once(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}").text
    short = re.search(r'id="join-code"[^>]*>([^<]+)<', page)
    assert short is not None
    phone = app.test_client()
    assert "You keep score in this game now" not in phone.get(f"/games/{game_id}").text
    joined = phone.post(f"/games/{game_id}/join", data={"code": short.group(1)})
    assert joined.status_code == 303
    assert "You keep score in this game now" in phone.get(f"/games/{game_id}").text
    assert "You keep score in this game now" not in phone.get(f"/games/{game_id}").text
    assert "You keep score in this game now" not in client.get(f"/games/{game_id}").text


def test_a_finished_game_invites_no_one(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    assert 'id="invite"' in client.get(f"/games/{game_id}").text
    assert "Keep score too?" in app.test_client().get(f"/games/{game_id}").text
    gin = box_form(version_of(client, game_id), "gin", "Bob", counts={0: 60, 1: 0, 2: 50})
    assert client.post(f"/games/{game_id}/boxes/new", data=gin).status_code == 303
    scorer = client.get(f"/games/{game_id}").text
    assert "Game over" in scorer or "wins" in scorer
    assert 'id="invite"' not in scorer and "Join code" not in scorer
    watcher = app.test_client().get(f"/games/{game_id}").text
    assert "Keep score too?" not in watcher and "join code" not in watcher.lower()
