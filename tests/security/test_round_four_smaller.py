"""Issue 33's smaller findings, each refused as designed: a watcher's share page builds
no link from a Host header a stranger may have written."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.web import create_app

GAME: dict[str, Any] = {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann"}


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("smaller.sqlite3")
    yield create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "r" * 40, "WTF_CSRF_ENABLED": False}
    )


def test_a_watchers_share_page_builds_no_link_from_an_untrusted_host(app: Flask) -> None:
    """Found: the watcher's share page built its watch link from any Host header, which
    docs/security.md says never happens."""
    game = app.test_client().post("/api/v1/games", json=GAME).get_json()
    watcher = app.test_client()

    def share(host: str) -> str:
        return watcher.get(f"/games/{game['id']}/share", headers={"Host": host}).get_data(as_text=True)

    text = share("evil.example")
    assert "evil.example" not in text and "SCOREKEEPER_PUBLIC_URL" in text
    assert f"http://192.168.1.20:8000/games/{game['id']}" in share("192.168.1.20:8000")
    app.config["PUBLIC_URL"] = "https://cards.example.org/"
    text = share("evil.example")
    assert f"https://cards.example.org/games/{game['id']}" in text and "evil.example" not in text
