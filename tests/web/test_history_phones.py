"""Issue 22: "history lines say what changed and from which phone ("Bo's phone")". Each
phone keeps a label in its session (the name it gave when it joined or started a game,
else when it joined) and every change it makes to a box is kept with it."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import box_form, start_game, version_of


def _history(client: FlaskClient, game_id: str, box_id: int) -> list[str]:
    page = client.get(f"/games/{game_id}/boxes/{box_id}").get_data(as_text=True)
    section = re.search(r'<section class="history".*?</section>', page, re.S)
    assert section is not None
    return [
        html.unescape(re.sub(r"<[^>]+>", "", line)).split(": ")[0].strip()
        for line in re.findall(r"<li>(.*?)</li>", section.group(0), re.S)
    ]


def test_history_lines_say_from_which_phone(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, phone="Bo")
    assert (
        client.post(
            f"/games/{game_id}/boxes/new",
            data=box_form(version_of(client, game_id), counts={0: 14, 1: 4, 2: 13}),
        ).status_code
        == 303
    )
    box_id = client.get(f"/api/v1/games/{game_id}").get_json()["game"]["boxes"][0]["id"]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    short = re.search(r'id="join-code"[^>]*>([^<]+)<', page)
    assert short is not None
    named, unnamed = app.test_client(), app.test_client()
    assert (
        named.post(
            f"/games/{game_id}/join", data={"code": short.group(1).replace(" ", ""), "phone": "  Cal  "}
        ).status_code
        == 303
    )
    assert (
        unnamed.post(f"/games/{game_id}/join", data={"code": short.group(1).replace(" ", "")}).status_code
        == 303
    )
    fix = box_form(version_of(named, game_id), counts={0: 16, 1: 4, 2: 13})
    assert named.post(f"/games/{game_id}/boxes/{box_id}/edit", data=fix).status_code == 303
    delete = {"version": str(version_of(unnamed, game_id))}
    assert unnamed.post(f"/games/{game_id}/boxes/{box_id}/delete", data=delete).status_code == 303
    lines = _history(client, game_id, box_id)
    assert lines[:2] == ["Recorded from Bo's phone", "Corrected from Cal's phone"]
    assert re.fullmatch(r"Deleted from a phone that joined at \d\d:\d\d UTC", lines[2]), lines
