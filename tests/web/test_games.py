"""Home, new game, Scarne's cut, the score sheet and its polling, sharing, rematch,
export and the PDF: each route with and without HX-Request."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient

from .conftest import box_form, new_game_form, start_game, totals, version_of

HX = {"HX-Request": "true"}


def test_home_page_and_fragment(client: FlaskClient, game_id: str) -> None:
    page = client.get("/")
    text = page.get_data(as_text=True)
    assert "<html" in text and "New game" in text and "Check a hand" in text
    assert "Settle a showdown" in text and "<bdi>Ann</bdi> · <bdi>Bob</bdi> · <bdi>Cal</bdi>" in text
    assert "HX-Request" in page.headers["Vary"]
    fragment = client.get("/", headers=HX).get_data(as_text=True)
    assert (
        "<html" not in fragment
        and 'id="recent"' in fragment
        and "<bdi>Ann</bdi> · <bdi>Bob</bdi> · <bdi>Cal</bdi>" in fragment
    )


def test_security_headers(client: FlaskClient) -> None:
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


def test_pages_have_no_inline_script_or_style(client: FlaskClient, game_id: str) -> None:
    for path in (
        "/",
        "/games/new",
        f"/games/{game_id}",
        f"/games/{game_id}/boxes/new",
        "/rules/",
        "/check",
        "/settle",
    ):
        text = client.get(path).get_data(as_text=True)
        assert "<script>" not in text and "style=" not in text and "<style" not in text, path
        assert 'name="htmx-config"' in text and '"includeIndicatorStyles":false' in text.replace("&#34;", '"')


def test_new_game_form_lists_games_and_settings(client: FlaskClient) -> None:
    text = client.get("/games/new").get_data(as_text=True)
    assert text.index(">Jersey Gin (Scarne) · 3 players<") < text.index(">Gin Rummy · 2 players<")
    assert "Bonus for an underknock or undercut" in text and "Scarne's cut" in text
    fragment = client.get("/games/new?rules=gin", headers=HX).get_data(as_text=True)
    assert "<html" not in fragment and 'id="new-game"' in fragment
    assert '<option value="gin" selected>' in fragment and "Scarne's cut" not in fragment


def test_start_a_game_with_house_rules(client: FlaskClient) -> None:
    game_id = start_game(client, setting_underknock_bonus="20", stake="0.05")
    text = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "House rules: underknock bonus 20" in text and "stake 0.05" in text
    exported = json.loads(client.get(f"/games/{game_id}/export.json").get_data())
    assert exported == {
        "rules": "jersey-scarne",
        "settings": {"underknock_bonus": 20},
        "players": ["Ann", "Bob", "Cal"],
        "dealer": "Ann",
        "stake": 0.05,
        "boxes": [],
    }


def test_start_a_game_with_htmx_redirects_by_header(client: FlaskClient) -> None:
    response = client.post("/games/new?rules=jersey-scarne", data=new_game_form(), headers=HX)
    assert response.status_code == 200
    assert response.headers["HX-Redirect"].startswith("/games/")


def test_new_game_errors_are_422_and_inline(client: FlaskClient) -> None:
    response = client.post("/games/new?rules=jersey-scarne", data=new_game_form(**{"players-2": ""}))
    assert response.status_code == 422
    assert "Jersey Gin (Scarne) needs at least 3 players" in response.get_data(as_text=True)
    response = client.post(
        "/games/new?rules=jersey-scarne", data=new_game_form(**{"players-2": "ann"}), headers=HX
    )
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Two players have this name" in text and "<html" not in text
    response = client.post("/games/new?rules=jersey-scarne", data=new_game_form(setting_shutout="triple"))
    assert response.status_code == 422
    assert "Write double, none, or a number of points" in response.get_data(as_text=True)
    response = client.post("/games/new?rules=jersey-scarne", data=new_game_form(setting_game_target="0"))
    assert response.status_code == 422


def test_scarne_cut_picks_the_dealer_and_seats(client: FlaskClient) -> None:
    data = new_game_form(**{"cuts-0": "7", "cuts-1": "K", "cuts-2": "2"})
    response = client.post("/games/new/cut?rules=jersey-scarne", data=data)
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Bob cut high (K): he chooses his seat, whose discards he takes, and deals first" in text
    assert 'name="dealer" value="1" checked' in text
    fragment = client.post("/games/new/cut?rules=jersey-scarne", data=data, headers=HX)
    assert "<html" not in fragment.get_data(as_text=True)
    # Bob takes Ann's discards: Ann sits at his right, so she comes just before him.
    data.update({"dealer": "1", "cut_receives": "0"})
    response = client.post("/games/new?rules=jersey-scarne", data=data)
    exported = client.get(response.headers["Location"] + "/export.json").get_json()
    assert exported["players"] == ["Bob", "Cal", "Ann"] and exported["dealer"] == "Bob"


def test_scarne_cut_ties_cut_again(client: FlaskClient) -> None:
    data = new_game_form(**{"cuts-0": "7", "cuts-1": "7", "cuts-2": "2"})
    response = client.post("/games/new/cut?rules=jersey-scarne", data=data)
    assert response.status_code == 422
    assert "Ann and Bob cut equal ranks and cut again (J1)" in response.get_data(as_text=True)


def test_sheet_page_fragment_and_polling(client: FlaskClient, game_id: str) -> None:
    text = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Jersey Gin (Scarne)" in text and "Record box" in text
    assert "<strong>Ann</strong> deals next; <strong>Bob</strong> plays first" in text
    assert 'hx-trigger="every 3s"' in text and "Download score sheet (PDF)" in text
    unchanged = client.get(f"/games/{game_id}/sheet?since=1", headers=HX)
    assert unchanged.status_code == 204 and unchanged.data == b""
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}))
    changed = client.get(f"/games/{game_id}/sheet?since=1", headers=HX)
    body = changed.get_data(as_text=True)
    assert changed.status_code == 200 and "<html" not in body and "+19" in body
    assert "since=2" in body
    full = client.get(f"/games/{game_id}/sheet?since=1").get_data(as_text=True)
    assert "<html" in full and "+19" in full


def test_unknown_game_is_404(client: FlaskClient) -> None:
    response = client.get("/games/nope")
    assert response.status_code == 404
    assert "There is no game at this address" in response.get_data(as_text=True)


def test_share_edit_code_and_read_only_watchers(app: Flask, client: FlaskClient, game_id: str) -> None:
    share = client.get(f"/games/{game_id}/share").get_data(as_text=True)
    assert "Score with us" in share and f"/games/{game_id}/join#" in share
    token = share.split(f"/games/{game_id}/join#")[1].split('"')[0]
    watcher = app.test_client()
    watched = watcher.get(f"/games/{game_id}").get_data(as_text=True)
    assert "You are watching this game" in watched and "Record box" not in watched
    assert token not in watched and "Score with us" not in watched
    assert "Join as scorer" in watcher.get(f"/games/{game_id}/share").get_data(True)
    assert watcher.get(f"/games/{game_id}/boxes/new").status_code == 403
    refused = watcher.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 1}))
    assert refused.status_code == 403
    wrong = watcher.post(f"/games/{game_id}/join", data={"code": "guess"})
    assert wrong.status_code == 403 and "Wrong code" in wrong.get_data(as_text=True)
    looked = watcher.get(f"/games/{game_id}/join/{token}")
    assert looked.status_code == 303 and "Record box" not in watcher.get(f"/games/{game_id}").get_data(
        as_text=True
    )
    joined = watcher.post(f"/games/{game_id}/join", data={"code": token}, headers=HX)
    assert joined.headers["HX-Redirect"] == f"/games/{game_id}"
    assert "Record box" in watcher.get(f"/games/{game_id}").get_data(as_text=True)


def test_share_fragment(client: FlaskClient, game_id: str) -> None:
    text = client.get(f"/games/{game_id}/share", headers=HX).get_data(as_text=True)
    assert "<html" not in text and "Watch" in text and "Score with us" in text


def _play_to_the_end(client: FlaskClient, game_id: str) -> None:
    version = version_of(client, game_id)
    for by, counts in (
        ("Bob", {0: 40, 1: 4, 2: 40}),
        ("Cal", {0: 3, 1: 20, 2: 2}),
        ("Bob", {0: 20, 1: 4, 2: 30}),
    ):
        response = client.post(f"/games/{game_id}/boxes/new", data=box_form(version, by=by, counts=counts))
        assert response.status_code == 303, response.get_data(as_text=True)
        version += 1


def test_game_over_panel_and_rematch(client: FlaskClient, game_id: str) -> None:
    _play_to_the_end(client, game_id)
    text = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Game over: <bdi>Bob</bdi> wins" in text and "Who pays whom" in text and "Rematch" in text
    assert "Record box" not in text
    assert "pays <strong>Bob</strong>" in text and "shut out" in text
    response = client.post(f"/games/{game_id}/rematch", headers=HX)
    new_id = response.headers["HX-Redirect"].rsplit("/", 1)[1]
    assert new_id != game_id
    exported = client.get(f"/games/{new_id}/export.json").get_json()
    # Box 3 was dealt by Cal (J2); the rematch's first deal moves on to Ann.
    assert exported["players"] == ["Ann", "Bob", "Cal"] and exported["dealer"] == "Ann"
    assert exported["boxes"] == []
    assert client.post(f"/games/{game_id}/rematch").status_code == 303


def test_recording_after_the_end_is_refused(client: FlaskClient, game_id: str) -> None:
    _play_to_the_end(client, game_id)
    version = version_of(client, game_id)
    response = client.post(f"/games/{game_id}/boxes/new", data=box_form(version, counts={0: 1, 1: 2, 2: 3}))
    assert response.status_code == 422
    assert "the game is over" in response.get_data(as_text=True)
    assert totals(client, game_id) == {"Ann": 0, "Bob": 114, "Cal": 19}


def test_sheet_pdf(client: FlaskClient, game_id: str) -> None:
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}))
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")


def test_health(client: FlaskClient) -> None:
    response = client.get("/health")
    assert response.get_json() == {"status": "ok", "database": "ok", "schema": "current"}
