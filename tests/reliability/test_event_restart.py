"""A server restart (SIGKILL) in the middle of an event's round loses nothing: the
seating, the seed, every acknowledged box, the standings, the round's clock; and the
event goes on after it (the round closes, the next one is seated)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import requests

from scorekeeper import ledger

from .conftest import LiveServer
from .liveserver import SECRET_KEY
from .test_concurrency import TIMEOUT

EVENT: dict[str, Any] = {
    "name": "Restart night",
    "rounds": 2,
    "seed": 4,
    "round_ends": {"minutes": 45},
    "entrants": ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"],
}


def _token(game_id: str) -> dict[str, str]:
    code = ledger.make_codes(SECRET_KEY.encode("utf-8"), game_id, 1).edit
    return {"Authorization": f"Bearer {code}"}


def test_a_restart_in_the_middle_of_a_round_loses_nothing(database_url: str, tmp_path: Path) -> None:
    server = LiveServer(database_url, tmp_path / "server.log").start()
    started = requests.post(f"{server.url}/api/v1/events", json=EVENT, timeout=TIMEOUT)
    assert started.status_code == 201
    body = started.json()
    event_id, director = body["id"], {"Authorization": f"Bearer {body['director_token']}"}
    recorded = 0
    for table in body["tables"]:
        players = table["players"]
        for knocker in players[:2]:
            box = {
                "ending": "knock",
                "by": knocker,
                "hands": {p: {"count": 1 if p == knocker else 10} for p in players},
            }
            written = requests.post(
                f"{server.url}/api/v1/games/{table['game']}/boxes",
                json=box,
                headers=_token(table["game"]),
                timeout=TIMEOUT,
            )
            assert written.status_code == 201
            recorded += 1
    before = requests.get(f"{server.url}/api/v1/events/{event_id}", timeout=TIMEOUT).json()
    assert sum(t["boxes"] for t in before["tables"]) == recorded == 6
    assert before["event"]["seating"][0]["byes"]  # ten in threes: one sits out

    server.kill()
    server = LiveServer(database_url, tmp_path / "server.log").start()
    after = requests.get(f"{server.url}/api/v1/events/{event_id}", timeout=TIMEOUT).json()
    for name in ("event", "standings", "tables", "clock", "round", "version"):
        assert after[name] == before[name], name
    assert after["clock"]["minutes"] == 45

    close = f"{server.url}/api/v1/events/{event_id}/rounds/1/close"
    assert requests.post(close, headers=director, timeout=TIMEOUT).status_code == 409
    closed = requests.post(close, json={"force": True}, headers=director, timeout=TIMEOUT)
    assert closed.status_code == 200
    seated = requests.post(f"{server.url}/api/v1/events/{event_id}/rounds", headers=director, timeout=TIMEOUT)
    assert seated.status_code == 201 and seated.json()["round"] == 2
    byes = [s["byes"] for s in seated.json()["event"]["seating"]]
    assert byes[0] != byes[1]  # never the same player's bye twice while avoidable
    server.stop()
