"""Typed count vs tapped cards on a phone and through the API: when both are given and
disagree, the box is refused with an error naming the player and both numbers, on that
player's count field; nothing is stored."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import box_form, start_game
from tests.web.test_api import GAME

BOB_CARDS = ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]  # counts 4


def _boxes(client: FlaskClient, game_id: str) -> int:
    return len(client.get(f"/api/v1/games/{game_id}").get_json()["game"]["boxes"])


def test_the_box_form_refuses_a_count_that_disagrees_with_the_cards(client: FlaskClient) -> None:
    game_id = start_game(client)
    form = box_form(
        1, counts={0: 14, 1: 3, 2: 13}, key="k1", extra={"number": "1", "hands-1-cards": BOB_CARDS}
    )
    for url in (f"/games/{game_id}/boxes/preview", f"/games/{game_id}/boxes/new"):
        answer = client.post(url, data=form)
        page = answer.get_data(as_text=True)
        assert answer.status_code == (200 if url.endswith("preview") else 422)
        message = "Bob&#39;s count was entered as 3, but Bob&#39;s cards count 4 (C4)"
        assert message in page
        # on Bob's count field: the field is marked and the message follows it
        count_at = page.index('id="hands-1-count"')
        assert 'aria-invalid="true"' in page[count_at - 200 : count_at + 300]
        assert page.index(message, count_at) < page.index('id="hands-2-count"')
    assert _boxes(client, game_id) == 0
    form["hands-1-count"] = "4"
    assert client.post(f"/games/{game_id}/boxes/new", data=form).status_code == 303
    assert _boxes(client, game_id) == 1


def test_the_api_refuses_a_count_that_disagrees_with_the_cards(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json=GAME).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    box = {
        "ending": "knock",
        "by": "Bob",
        "hands": {"Ann": {"count": 14}, "Bob": {"cards": BOB_CARDS, "count": 5}, "Cal": {"count": 13}},
    }
    answer = client.post(f"/api/v1/games/{created['id']}/boxes", json=box, headers=auth)
    error = answer.get_json()["error"]
    assert answer.status_code == 422 and error["code"] == "deadwood-mismatch"
    assert error["message"].startswith("Bob's count was entered as 5, but Bob's cards count 4")
    assert error["where"].endswith("hands.Bob.count")
    assert _boxes(client, created["id"]) == 0
