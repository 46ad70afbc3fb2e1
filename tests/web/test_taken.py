"""Two scorers enter the same box: the second save names box 1, finds it taken, and is
shown both boxes side by side; it keeps theirs, replaces it, or records as the next box.
Nothing is saved twice by accident and nothing typed is lost."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from .conftest import box_form, totals

MINE = {"number": "1", "key": "second-phone"}


def _second_phone(client: FlaskClient, game_id: str) -> dict[str, Any]:
    """What the second phone posts: box 1, Cal knocked (the first phone said Bob)."""
    return box_form(1, by="Cal", counts={0: 20, 1: 30, 2: 5}, extra=MINE)


def _taken(client: FlaskClient, game_id: str) -> str:
    first = client.post(
        f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}, extra={"number": "1"})
    )
    assert first.status_code == 303
    second = client.post(f"/games/{game_id}/boxes/new", data=_second_phone(client, game_id))
    assert second.status_code == 409
    return second.get_data(as_text=True)


def _hidden(form_html: str) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form_html):
        fields.setdefault(name, []).append(value)
    return fields


def _choice(page: str, button: str) -> tuple[str, dict[str, list[str]]]:
    """The action and the fields of the form whose button says ``button``."""
    for action, body in re.findall(r'<form method="post" action="([^"]+)">(.*?)</form>', page, re.S):
        if button in body:
            return action, _hidden(body)
    raise AssertionError(f"no form with {button!r}")


def test_the_second_save_of_a_box_shows_both_side_by_side(client: FlaskClient, game_id: str) -> None:
    page = _taken(client, game_id)
    assert "Box 1 was saved on another phone" in page
    assert "Saved by the other phone" in page and "What you entered" in page
    assert "Bob" in page and "Cal" in page and "Keep theirs" in page
    assert "Replace box 1 with mine" in page and "Record mine as box 2" in page
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 0}  # nothing doubled


def test_record_mine_as_the_next_box(client: FlaskClient, game_id: str) -> None:
    page = _taken(client, game_id)
    # Keep theirs first; three alike (none primary); the next box asks again first.
    assert (
        page.index("Keep theirs")
        < page.index("Replace box 1")
        < page.index("Record mine as box 2")
        < page.index("Yes, store it as box 2")
    )
    assert "primary" not in page.split('class="choices"')[1]
    assert re.search(r'<details class="ask">\s*<summary[^>]*>Record mine as box 2</summary>', page)
    action, fields = _choice(page, "Yes, store it as box 2")
    assert fields["number"] == ["2"] and fields["hands-2-count"] == ["5"]
    assert client.post(action, data=fields).status_code == 303
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 40}


def test_replace_theirs_with_mine(client: FlaskClient, game_id: str) -> None:
    action, fields = _choice(_taken(client, game_id), "Replace box 1 with mine")
    assert "/edit" in action
    assert client.post(action, data=fields).status_code == 303
    assert totals(client, game_id) == {"Ann": 0, "Bob": 0, "Cal": 40}


def test_keep_theirs_stores_nothing(client: FlaskClient, game_id: str) -> None:
    page = _taken(client, game_id)
    assert f'href="/games/{game_id}">Keep theirs' in page
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 0}


def test_the_same_box_saved_twice_is_kept_once(client: FlaskClient, game_id: str) -> None:
    """Both phones entered the same box 1: the page says so and offers only to keep it
    (recording it as box 2 would count its credit twice)."""
    same = box_form(1, counts={0: 14, 1: 4, 2: 13}, extra={"number": "1"})
    assert client.post(f"/games/{game_id}/boxes/new", data=same).status_code == 303
    second = client.post(f"/games/{game_id}/boxes/new", data={**same, "key": "second"})
    assert second.status_code == 409
    page = second.get_data(as_text=True)
    assert "it is the same as yours" in page
    assert f'href="/games/{game_id}">Keep box 1 (it is yours too)' in page
    assert "Record mine" not in page and "Replace box 1" not in page
    assert "<form" not in page.split('class="choices"')[1]
    assert totals(client, game_id) == {"Ann": 0, "Bob": 19, "Cal": 0}
