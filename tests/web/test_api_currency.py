"""The stored-game API takes the currency symbols players use (issue 35): "€" and "£"
are kept as their codes and print as the symbols on the game's sheet."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.pdf.reading import flat

from .test_api import GAME


@pytest.mark.parametrize(
    ("written", "kept", "printed"), [("€", "EUR", "€0.05"), ("£", "GBP", "£0.05"), ("chf", "CHF", "0.05 CHF")]
)
def test_a_game_stored_with_a_symbol_keeps_its_code_and_prints_the_symbol(
    client: FlaskClient, written: str, kept: str, printed: str
) -> None:
    answer = client.post("/api/v1/games", json={**GAME, "currency": written})
    assert answer.status_code == 201, answer.get_json()
    game_id = answer.get_json()["id"]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["game"]["currency"] == kept
    assert f"{printed} a point" in flat(client.get(f"/api/v1/games/{game_id}/sheet.pdf").data)


def test_a_currency_that_is_neither_code_nor_symbol_is_refused(client: FlaskClient) -> None:
    answer = client.post("/api/v1/games", json={**GAME, "currency": "euro"})
    assert answer.status_code == 422
    assert answer.get_json()["error"]["where"] == "currency"
