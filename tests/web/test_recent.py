"""The home page's recent games: a finished game shows its final totals (the engine's,
bonuses in), not the credits of its boxes; every game says when it was last changed,
as a <time> in UTC that the phone shows in its own time zone."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.conftest import box_form, start_game


def _recent_totals(page: str) -> dict[str, int]:
    return {
        name: int(value)
        for name, value in re.findall(r'<span data-total="([^"]+)">[^<]*? (-?\d+)</span>', page)
    }


def test_a_finished_game_shows_its_final_totals(client: FlaskClient) -> None:
    game_id = start_game(client, setting_game_target="20")
    for number in (1, 2):
        form = box_form(0, counts={0: 14, 1: 4, 2: 13}, extra={"number": str(number)})
        assert client.post(f"/games/{game_id}/boxes/new", data=form).status_code == 303
    score = client.get(f"/api/v1/games/{game_id}").get_json()["score"]
    assert score["game_over"] and score["final_totals"] != score["totals"]
    page = client.get("/").get_data(as_text=True)
    assert _recent_totals(page) == score["final_totals"]
    assert 'aria-label="Final totals"' in page and ">Final</span>" in page
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">', page)


def test_a_game_in_play_shows_its_totals_so_far(client: FlaskClient) -> None:
    game_id = start_game(client)
    form = box_form(0, counts={0: 14, 1: 4, 2: 13}, extra={"number": "1"})
    assert client.post(f"/games/{game_id}/boxes/new", data=form).status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert _recent_totals(page) == {"Ann": 0, "Bob": 19, "Cal": 0}
    assert 'aria-label="Totals so far"' in page and ">Final</span>" not in page
