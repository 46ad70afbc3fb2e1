"""Undo through the pages (test client, no JavaScript): after a save, a correction or a
deletion the sheet says what this phone did and offers Undo, a plain POST form that
goes through the ledger; a double tap undoes once; once another phone wrote, the undo
is refused and says so."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import box_form, start_game, totals, version_of


@pytest.fixture
def other(app: Flask) -> FlaskClient:
    """A second phone: its own cookies."""
    return app.test_client()


def _box_ids(client: FlaskClient, game_id: str) -> list[int]:
    return [box["id"] for box in client.get(f"/api/v1/games/{game_id}").get_json()["game"]["boxes"]]


def _undo_form(page: str) -> tuple[str, dict[str, str]]:
    """The sheet's Undo form: where it posts and its hidden fields."""
    bar = re.search(r'<section class="undo-bar".*?</section>', page, re.S)
    assert bar is not None, "the sheet offers no undo"
    action = re.search(r'<form method="post" action="([^"]+)"', bar.group(0))
    assert action is not None
    fields = dict(re.findall(r'name="(version|key)" type="hidden" value="([^"]*)"', bar.group(0)))
    return action.group(1), fields


def _save(client: FlaskClient, game_id: str, number: int, **counts: int) -> None:
    form = box_form(0, counts=dict(enumerate(counts.values())), extra={"number": str(number)})
    answer = client.post(f"/games/{game_id}/boxes/new", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:800]


def test_undo_a_saved_box_once_even_when_tapped_twice(client: FlaskClient) -> None:
    game_id = start_game(client)
    _save(client, game_id, 1, Ann=14, Bob=4, Cal=13)
    _save(client, game_id, 2, Ann=20, Bob=5, Cal=30)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Box 2 saved." in page
    action, fields = _undo_form(page)
    for _ in range(2):  # a double tap
        answer = client.post(action, data=fields)
        assert answer.status_code == 303, answer.get_data(as_text=True)[:800]
    assert len(_box_ids(client, game_id)) == 1
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 0}
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Undone: box 2 is off the sheet." in page and ">Undo</button>" not in page
    history = client.get(f"/games/{game_id}/boxes/{action.split('/')[-2]}").get_data(as_text=True)
    assert "<strong>Recorded</strong>" in history and "<strong>Undone</strong>" in history


def test_undo_a_correction_and_a_deletion(client: FlaskClient) -> None:
    game_id = start_game(client)
    _save(client, game_id, 1, Ann=14, Bob=4, Cal=13)
    box_id = _box_ids(client, game_id)[0]
    fix = box_form(version_of(client, game_id), counts={0: 16, 1: 4, 2: 13}, key="fix")
    assert client.post(f"/games/{game_id}/boxes/{box_id}/edit", data=fix).status_code == 303
    assert totals(client, game_id)["Bob"] == 21
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Box 1 corrected." in page
    action, fields = _undo_form(page)
    assert client.post(action, data=fields).status_code == 303
    assert totals(client, game_id)["Bob"] == 19
    delete = {"version": str(version_of(client, game_id)), "key": "del"}
    assert client.post(f"/games/{game_id}/boxes/{box_id}/delete", data=delete).status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Box 1 deleted." in page and _box_ids(client, game_id) == []
    action, fields = _undo_form(page)
    assert client.post(action, data=fields).status_code == 303
    assert _box_ids(client, game_id) == [box_id] and totals(client, game_id)["Bob"] == 19
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Undone: box 1 is back on the sheet." in page
    # the sheet links the box's history, four changes after its recording (a link, not
    # its markup shown as text)
    assert (
        f'<a href="/games/{game_id}/boxes/{box_id}#history" class="edited">changed 4×</a>' in page
        and "&lt;a" not in page
    )


def test_undo_refused_after_another_phone_wrote(client: FlaskClient, other: FlaskClient) -> None:
    game_id = start_game(client)
    _save(client, game_id, 1, Ann=14, Bob=4, Cal=13)
    action, fields = _undo_form(client.get(f"/games/{game_id}").get_data(as_text=True))
    with client.session_transaction() as mine:
        rights = dict(mine["edit"])
    with other.session_transaction() as theirs:
        theirs["edit"] = rights
    _save(other, game_id, 2, Ann=20, Bob=5, Cal=30)
    # this phone's sheet no longer offers the undo ...
    assert "undo-bar" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    # ... and a form sent anyway is refused, saying why, with nothing changed
    answer = client.post(action, data=fields)
    body = answer.get_data(as_text=True)
    assert answer.status_code == 409
    assert "Not undone." in body and "Another phone changed this game since" in body
    assert len(_box_ids(client, game_id)) == 2


def test_a_watcher_cannot_undo(client: FlaskClient, other: FlaskClient) -> None:
    game_id = start_game(client)
    _save(client, game_id, 1, Ann=14, Bob=4, Cal=13)
    action, fields = _undo_form(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert other.post(action, data=fields).status_code == 403
    assert len(_box_ids(client, game_id)) == 1
