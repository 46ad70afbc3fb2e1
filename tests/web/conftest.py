"""Fixtures for the web tests: a Jersey Gin game started through the new-game form."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import engine

JERSEY_DEFAULTS = {
    f"setting_{s.name}": (
        ("true" if getattr(engine.PRESETS["jersey-scarne"], s.name) else "false")
        if s.kind is bool
        else (
            ""
            if getattr(engine.PRESETS["jersey-scarne"], s.name) is None
            else str(getattr(engine.PRESETS["jersey-scarne"], s.name))
        )
    )
    for s in engine.SETTINGS
}


def new_game_form(**changes: str) -> dict[str, str]:
    """The new-game form as a browser posts it: Ann, Bob, Cal, Ann deals, book rules."""
    data = {
        "rules": "jersey-scarne",
        "players-0": "Ann",
        "players-1": "Bob",
        "players-2": "Cal",
        "dealer": "0",
        "stake": "",
    }
    data.update(JERSEY_DEFAULTS)
    data.update(changes)
    return data


def start_game(client: FlaskClient, **changes: str) -> str:
    """Start a game through the form; returns its id."""
    response = client.post("/games/new?rules=jersey-scarne", data=new_game_form(**changes))
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].rsplit("/", 1)[1]


def box_form(
    version: int,
    ending: str = "knock",
    by: str | None = "Bob",
    counts: dict[int, int] | None = None,
    key: str | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A box form by counts (hand index -> count)."""
    data: dict[str, Any] = {"version": str(version), "ending": ending}
    if by is not None:
        data["by"] = by
    for index, count in (counts or {}).items():
        data[f"hands-{index}-count"] = str(count)
    if key is not None:
        data["key"] = key
    data.update(extra or {})
    return data


def version_of(client: FlaskClient, game_id: str) -> int:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    match = re.search(r'data-version="(\d+)"', page)
    assert match is not None
    return int(match.group(1))


def totals(client: FlaskClient, game_id: str) -> dict[str, int]:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    return {name: int(value) for name, value in re.findall(r'data-player-total="([^"]+)">(-?\d+)<', page)}


@pytest.fixture
def game_id(client: FlaskClient) -> str:
    return start_game(client)


def preset_defaults(preset: str) -> dict[str, str]:
    """Every setting field of the new-game form as the browser sends it untouched."""
    rules = engine.PRESETS[preset]
    data: dict[str, str] = {}
    for s in engine.SETTINGS:
        value = getattr(rules, s.name)
        if s.kind is bool:
            data[f"setting_{s.name}"] = "true" if value else "false"
        else:
            data[f"setting_{s.name}"] = "" if value is None else str(value)
    return data


def start_preset(
    client: FlaskClient, preset: str, players: list[str], dealer: int = 0, **changes: str
) -> str:
    """Start a game of any preset through the form; returns its id."""
    data = {"rules": preset, "dealer": str(dealer), "stake": ""}
    data.update({f"players-{i}": name for i, name in enumerate(players)})
    data.update(preset_defaults(preset))
    data.update(changes)
    response = client.post(f"/games/new?rules={preset}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    return response.headers["Location"].rsplit("/", 1)[1]
