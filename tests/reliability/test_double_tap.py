"""A double tap, or a phone resending a form after a dropped answer, one after the
other: the write happens once and the second answer is the first one's, even when the
first changed what the second would see (the box is gone, the game is over)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import box_form, start_game, totals, version_of


def _boxes(client: FlaskClient, game_id: str) -> int:
    return len(client.get(f"/api/v1/games/{game_id}").get_json()["game"]["boxes"])


def test_double_tapped_save_stores_one_box(client: FlaskClient) -> None:
    game_id = start_game(client)
    form = box_form(1, counts={0: 14, 1: 4, 2: 13}, key="tap-1")
    first = client.post(f"/games/{game_id}/boxes/new", data=form)
    second = client.post(f"/games/{game_id}/boxes/new", data=form)
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert _boxes(client, game_id) == 1 and totals(client, game_id)["Bob"] == 19
    other = client.post(
        f"/games/{game_id}/boxes/new", data=box_form(2, counts={0: 14, 1: 4, 2: 13}, key="tap-2")
    )
    assert other.status_code == 303 and _boxes(client, game_id) == 2


def test_double_tapped_correction_and_delete(client: FlaskClient) -> None:
    game_id = start_game(client)
    client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}))
    box_id = client.get(f"/api/v1/games/{game_id}").get_json()["game"]["boxes"][0]["id"]
    fix = box_form(2, counts={0: 16, 1: 4, 2: 13}, key="fix-1")
    for _ in range(2):
        answer = client.post(f"/games/{game_id}/boxes/{box_id}/edit", data=fix)
        assert answer.status_code == 303
    assert version_of(client, game_id) == 3 and totals(client, game_id)["Bob"] == 21
    delete = {"version": "3", "key": "del-1"}
    for _ in range(2):
        answer = client.post(f"/games/{game_id}/boxes/{box_id}/delete", data=delete)
        assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    assert version_of(client, game_id) == 4 and _boxes(client, game_id) == 0


def test_resent_last_box_of_a_game(client: FlaskClient) -> None:
    """The box that ends the game, sent twice: the second is not "the game is over"."""
    game_id = start_game(client, setting_game_target="20")
    form = box_form(1, counts={0: 14, 1: 4, 2: 13}, key="last")
    client.post(f"/games/{game_id}/boxes/new", data=form)
    form = box_form(2, counts={0: 14, 1: 4, 2: 13}, key="final")
    first = client.post(f"/games/{game_id}/boxes/new", data=form)
    assert first.status_code == 303
    again = client.post(f"/games/{game_id}/boxes/new", data=form)
    assert again.status_code == 303, again.get_data(as_text=True)[:500]
    assert _boxes(client, game_id) == 2
