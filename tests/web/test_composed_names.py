"""A name typed with a separate accent ("Zoe" and U+0308) is one name from the edge in
(issue 31): the contract reads every name in NFC, spaces collapsed, so the game stores
her as it scores her, and the sheet, the PDF and the standings find her column and her
totals, whether she came through a form or the API. Before, the game kept the name as
typed and the engine scored the composed one: a blank column, net +0."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import ledger
from scorekeeper.web import database, gamedata
from tests.pdf.reading import flat
from tests.web.conftest import box_form, start_preset, totals, version_of
from tests.web.test_event_pages import start_event, tables_of

TYPED = "Zoe\u0308"
"""Zoë as a keyboard may send her: an e, then the combining diaeresis."""
ZOE = "Zo\u00eb"
"""Zoë composed (NFC): one character for the ë."""
SIX = ["Ann", "Bob", TYPED, "Dee", "Eve", "Fay"]


def _token(app: Flask, game_id: str) -> str:
    with app.test_request_context():
        token = ledger.codes_of(gamedata.row(game_id), gamedata.secret()).edit
        database.session().close()
    return token


def _knock(by: str, players: list[str]) -> dict[str, Any]:
    """``by`` knocks with 2 against 30 from every other hand."""
    return {"ending": "knock", "by": by, "hands": {p: {"count": 2 if p == by else 30} for p in players}}


def _her_total_in_pdf(pdf: bytes) -> str:
    text = unicodedata.normalize("NFC", flat(pdf))
    assert ZOE in text
    return text


def test_a_game_through_the_api_stores_and_scores_her_composed(app: Flask, client: FlaskClient) -> None:
    started = client.post("/api/v1/games", json={"rules": "gin", "players": [TYPED, "Bob"], "dealer": TYPED})
    assert started.status_code == 201, started.get_json()
    game_id = started.get_json()["id"]
    written = client.post(
        f"/api/v1/games/{game_id}/boxes",
        json=_knock(TYPED, [TYPED, "Bob"]),
        headers={"Authorization": f"Bearer {_token(app, game_id)}"},
    )
    assert written.status_code == 201, written.get_json()
    read = client.get(f"/api/v1/games/{game_id}").get_json()
    assert read["game"]["players"] == [ZOE, "Bob"] and read["game"]["dealer"] == ZOE
    (box,) = read["game"]["boxes"]
    assert box["by"] == ZOE and set(box["hands"]) == {ZOE, "Bob"}
    assert read["score"]["totals"] == {ZOE: 28, "Bob": 0}
    assert totals(client, game_id) == {ZOE: 28, "Bob": 0}
    assert re.search(f"{ZOE} 28", _her_total_in_pdf(client.get(f"/games/{game_id}/sheet.pdf").data))


def test_a_game_through_the_form_keeps_her_column(client: FlaskClient) -> None:
    game_id = start_preset(client, "gin", [TYPED, "Bob"])
    version = version_of(client, game_id)
    answer = client.post(f"/games/{game_id}/boxes/new", data=box_form(version, by=ZOE, counts={0: 2, 1: 30}))
    assert answer.status_code in (200, 303), answer.get_data(as_text=True)[:2000]
    assert totals(client, game_id) == {ZOE: 28, "Bob": 0}
    assert re.search(f"{ZOE} 28", _her_total_in_pdf(client.get(f"/games/{game_id}/sheet.pdf").data))


def _her_table(tables: list[tuple[str, list[str]]]) -> tuple[str, list[str]]:
    return next((game, players) for game, players in tables if ZOE in players)


def _standings(client: FlaskClient, event_id: str) -> dict[str, int]:
    read = client.get(f"/api/v1/events/{event_id}").get_json()
    return {s["player"]: s["score"] for s in read["standings"]}


def test_an_event_through_the_api_seats_and_ranks_her_composed(app: Flask, client: FlaskClient) -> None:
    event = {"name": "Tuesday Jersey", "rounds": 2, "seed": 7, "entrants": SIX}
    started = client.post("/api/v1/events", json=event, headers={"Idempotency-Key": "zoe-1"})
    assert started.status_code == 201, started.get_json()
    body = started.get_json()
    assert ZOE in body["event"]["entrants"] and TYPED not in body["event"]["entrants"]
    (table,) = [t for t in body["tables"] if ZOE in t["players"]]
    typed_players = [TYPED if p == ZOE else p for p in table["players"]]
    written = client.post(
        f"/api/v1/games/{table['game']}/boxes",
        json=_knock(TYPED, typed_players),
        headers={"Authorization": f"Bearer {_token(app, table['game'])}"},
    )
    assert written.status_code == 201, written.get_json()
    assert totals(client, table["game"])[ZOE] == 56
    standings = {
        s["player"]: s["score"] for s in client.get(f"/api/v1/events/{body['id']}").get_json()["standings"]
    }
    assert set(standings) == {unicodedata.normalize("NFC", p) for p in SIX}
    assert standings[ZOE] == max(standings.values()) > 0
    penalized = client.post(
        f"/api/v1/events/{body['id']}/penalties",
        json={"player": TYPED, "points": 5, "note": "slow play"},
        headers={"Authorization": f"Bearer {body['director_token']}"},
    )
    assert penalized.status_code in (200, 201), penalized.get_json()
    after = {
        s["player"]: s["score"] for s in client.get(f"/api/v1/events/{body['id']}").get_json()["standings"]
    }
    assert after[ZOE] == standings[ZOE] - 5


def test_an_event_through_the_form_shows_her_column_and_totals(client: FlaskClient) -> None:
    event_id = start_event(client, entrants="\n".join(SIX), table_size="3")
    game_id, players = _her_table(tables_of(client, event_id))
    version = version_of(client, game_id)
    counts = {i: 2 if p == ZOE else 30 for i, p in enumerate(players)}
    answer = client.post(f"/games/{game_id}/boxes/new", data=box_form(version, by=ZOE, counts=counts))
    assert answer.status_code in (200, 303), answer.get_data(as_text=True)[:2000]
    assert totals(client, game_id)[ZOE] == 56
    assert re.search(f"{ZOE} 56", _her_total_in_pdf(client.get(f"/games/{game_id}/sheet.pdf").data))
    page = unicodedata.normalize("NFC", client.get(f"/events/{event_id}").get_data(as_text=True))
    assert ZOE in page


def test_the_directors_names_are_read_as_the_entrants_are(client: FlaskClient) -> None:
    """A swap, a replacement and a withdrawal typed with the separate accent find the
    composed entrant; the replacement is entered composed."""
    event = {"name": "Tuesday Jersey", "rounds": 2, "seed": 7, "entrants": SIX}
    body = client.post("/api/v1/events", json=event, headers={"Idempotency-Key": "zoe-2"}).get_json()
    director = {"Authorization": f"Bearer {body['director_token']}"}
    seated = {p: t["table"] for t in body["tables"] for p in t["players"]}
    other = next(p for p in seated if seated[p] != seated[ZOE])
    swapped = client.post(
        f"/api/v1/events/{body['id']}/swaps", json={"players": [TYPED, other]}, headers=director
    )
    assert swapped.status_code == 200, swapped.get_json()
    now = {p: t["table"] for t in swapped.get_json()["tables"] for p in t["players"]}
    assert now[ZOE] == seated[other] and now[other] == seated[ZOE]
    replaced = client.post(
        f"/api/v1/events/{body['id']}/replacements",
        json={"player": TYPED, "by": "Rene\u0301e"},
        headers=director,
    )
    assert replaced.status_code == 200, replaced.get_json()
    players = {p for t in replaced.get_json()["tables"] for p in t["players"]}
    assert "Ren\u00e9e" in players and ZOE not in players
    assert "Ren\u00e9e" in replaced.get_json()["event"]["entrants"]
