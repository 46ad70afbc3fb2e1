"""Ending a game by agreement (K5; a table that breaks up) and changing its house rules
after the start: scorers only, through the ledger, recorded in the game's history, on
the phone and in the API alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import engine
from scorekeeper.engine.contract import BoxEntry, GameEntry
from tests.web.conftest import box_form, start_game, version_of

KNOCK = {0: 14, 1: 4, 2: 13}
"""Bob knocks with 4 against 14 and 13: he scores 10 + 9 = 19."""


def _api_game(client: FlaskClient, **extra: Any) -> tuple[str, dict[str, str]]:
    game = {
        "rules": "jersey-scarne",
        "players": ["Ann", "Bob", "Cal"],
        "dealer": "Ann",
        "stake": 0.1,
        "boxes": [
            {
                "ending": "knock",
                "by": "Bob",
                "hands": {"Ann": {"count": 14}, "Bob": {"count": 9}, "Cal": {"count": 13}},
            }
        ],
        **extra,
    }
    created = client.post("/api/v1/games", json=game).get_json()
    return created["id"], {"Authorization": f"Bearer {created['edit_token']}"}


@pytest.mark.rule("K5")
def test_the_engine_settles_an_agreed_stop_without_bonuses() -> None:
    """The totals as they stand are the final totals; no game bonus, no box bonus, no
    shutout; the leader wins; the settlement is box by box (K5), in money
    at the stake; no box may follow."""
    game = {
        "rules": "knock-rummy",
        "players": ["Ann", "Bob", "Cal"],
        "dealer": "Ann",
        "stake": 0.5,
        "ended": "agreed",
        "boxes": [
            {
                "ending": "knock",
                "by": "Bob",
                "hands": {"Ann": {"count": 20}, "Bob": {"count": 5}, "Cal": {"count": 12}},
            }
        ],
    }
    sheet = engine.score(game)
    assert sheet["game_over"] is True and sheet["ended"] == "agreed"
    assert sheet["winner"] == "Bob" and sheet["next_dealer"] is None
    assert sheet["final_totals"] == sheet["totals"] == {"Ann": 0, "Bob": 22, "Cal": 0}
    assert sheet["game_bonus"] == {} and sheet["box_bonuses"] == {} and sheet["shutouts"] == []
    # box by box (K5): each pays Bob what he paid in the box, not the difference of totals
    assert sheet["settlement"] == [
        {"from": "Ann", "to": "Bob", "points": 15, "amount": 7.5},
        {"from": "Cal", "to": "Bob", "points": 7, "amount": 3.5},
    ]
    assert sheet["explanation"][0]["rule"] == "K5"
    assert "by agreement after hand 1" in sheet["explanation"][0]["text"]  # its own word
    with pytest.raises(engine.ScorekeeperError, match="ended the game by agreement after hand 1"):
        engine.scoring_with(engine.scoring(GameEntry.from_json(game)), BoxEntry(ending="misdeal"))
    with pytest.raises(engine.ScorekeeperError) as bad:
        engine.score({**game, "ended": "bored"})
    assert bad.value.where == "ended"


def test_a_scorer_ends_the_game_on_the_phone(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, stake="0.10")
    version = version_of(client, game_id)
    assert client.post(f"/games/{game_id}/boxes/new", data=box_form(version, counts=KNOCK)).status_code == 303
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "End the game by agreement after box 1" in sheet
    watcher = app.test_client()
    assert watcher.post(f"/games/{game_id}/end", data={"version": version + 1}).status_code == 403
    assert "End the game" not in watcher.get(f"/games/{game_id}").get_data(as_text=True)
    stale = client.post(f"/games/{game_id}/end", data={"version": version, "key": "e1"})
    assert stale.status_code == 409
    ended = client.post(f"/games/{game_id}/end", data={"version": version + 1, "key": "e2"})
    assert ended.status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ended by agreement: <bdi>Bob</bdi> leads" in page
    assert "Ended by agreement after box 1" in page  # the game's history
    assert re.search(r'data-settle="Ann&gt;Bob&gt;19"|data-settle="Ann>Bob>19"', page)
    assert "Record box 2" not in page
    again = client.post(f"/games/{game_id}/end", data={"version": version + 2, "key": "e3"})
    assert again.status_code == 422 and "already ended" in again.get_data(as_text=True)
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["ended"] == "agreed"


def test_a_scorer_changes_the_house_rules_and_the_game_is_rescored(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    version = version_of(client, game_id)
    client.post(f"/games/{game_id}/boxes/new", data=box_form(version, counts=KNOCK))
    form = client.get(f"/games/{game_id}/rules").get_data(as_text=True)
    assert 'name="setting_underknock_bonus"' in form
    assert app.test_client().get(f"/games/{game_id}/rules").status_code == 403
    fields = dict(re.findall(r'name="(setting_[a-z_]+)"[^>]*value="([^"]*)"', form))
    selects = dict(
        re.findall(
            r'name="(setting_[a-z_]+)"[^>]*>\s*(?:<option value="[^"]*">[^<]*</option>\s*)*'
            r'<option value="([^"]*)" selected',
            form,
        )
    )
    data = {**fields, **selects, "version": str(version + 1), "key": "r1", "setting_knock_limit": "3"}
    refused = client.post(f"/games/{game_id}/rules", data=data)
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "box 1 is not valid under these rules" in text and "knock limit is 3" in text
    assert version_of(client, game_id) == version + 1
    data.update(setting_knock_limit="10", setting_gin_bonus="60", key="r2")
    assert client.post(f"/games/{game_id}/rules", data=data).status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "House rules changed: gin bonus 60" in page
    api = client.get(f"/api/v1/games/{game_id}").get_json()
    assert api["game"]["settings"] == {"gin_bonus": 60} and api["version"] == version + 2


def test_the_api_ends_a_game_and_changes_its_rules(client: FlaskClient) -> None:
    game_id, auth = _api_game(client)
    url = f"/api/v1/games/{game_id}"
    assert client.put(f"{url}/settings", json={"knock_limit": 5}).status_code == 401
    refused = client.put(f"{url}/settings", json={"knock_limit": 5}, headers=auth)
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert error["where"] == "boxes[0].hands.Bob.count" and "box 1 is not valid" in error["message"]
    unknown = client.put(f"{url}/settings", json={"colour": "red"}, headers=auth)
    assert unknown.status_code == 422 and unknown.get_json()["error"]["code"] == "unknown-setting"
    changed = client.put(
        f"{url}/settings", json={"underknock_bonus": 20}, headers={**auth, "If-Match": '"1"'}
    )
    assert changed.status_code == 200 and changed.get_json()["version"] == 2
    stale = client.post(f"{url}/end", headers={**auth, "If-Match": '"1"'})
    assert stale.status_code == 409
    ended = client.post(f"{url}/end", headers={**auth, "Idempotency-Key": "end-1"})
    assert ended.status_code == 200
    score = ended.get_json()["score"]
    assert score["game_over"] and score["ended"] == "agreed" and score["winner"] == "Bob"
    assert (
        client.post(f"{url}/end", headers={**auth, "Idempotency-Key": "end-1"}).get_json()["repeated"] is True
    )
    late = client.post(f"{url}/boxes", json={"ending": "misdeal"}, headers=auth)
    assert late.status_code == 422 and late.get_json()["error"]["code"] == "game-over"
    stored = client.get(url).get_json()
    assert stored["game"]["ended"] == "agreed" and stored["version"] == 3
