"""A club owner's short code is limited as a director's is (issue 36, after issue 33's
director's join): wrong short codes count on their own counters under the club's key,
the one that reaches the limit is answered 429 with Retry-After and says when, the
right short code then rests too, and the owner's link (its long code) is never
refused by the limit, nor is another address."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.web import create_app


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("owner.sqlite3")
    yield create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "o" * 40, "WTF_CSRF_ENABLED": False}
    )


def _club(app: Flask) -> dict[str, Any]:
    answer = app.test_client().post("/api/v1/clubs", json={"name": "Hoboken Gin Club"})
    assert answer.status_code == 201
    created: dict[str, Any] = answer.get_json()
    return created


def _post(app: Flask, path: str, code: str, address: str) -> Any:
    return app.test_client().post(path, data={"code": code}, environ_base={"REMOTE_ADDR": address})


def test_an_address_past_its_own_limit_is_told_when(app: Flask) -> None:
    club = _club(app)
    path = f"/clubs/{club['id']}/owner/join"
    answers = [_post(app, path, "ZZZZZZ", "10.3.3.3") for _ in range(11)]
    assert [a.status_code for a in answers] == [422] * 9 + [429, 429]
    assert "1 more tries before a pause" in answers[8].get_data(as_text=True)
    locked = answers[9]  # the wrong code that reached the limit is told so at once
    assert 1 <= int(locked.headers["Retry-After"]) <= 15 * 60
    assert "owner&#39;s link or QR code still works" in locked.get_data(as_text=True)
    refused = _post(app, path, club["join_code"], "10.3.3.3")
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 15 * 60
    assert _post(app, path, club["owner_token"], "10.3.3.3").status_code == 303
    assert _post(app, path, club["join_code"], "10.3.3.4").status_code == 303


def test_many_wrong_codes_from_many_addresses_never_lock_the_owners_link(app: Flask) -> None:
    club = _club(app)
    path = f"/clubs/{club['id']}/owner/join"
    statuses = [_post(app, path, "ZZZZZZ", f"10.0.{n // 10}.{n % 10}").status_code for n in range(320)]
    assert 429 in statuses  # the club's own cap on the short code (300)
    refused = _post(app, path, club["join_code"], "10.9.9.9")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert _post(app, path, club["owner_token"], "10.9.9.9").status_code == 303
