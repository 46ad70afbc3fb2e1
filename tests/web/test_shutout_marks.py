"""A shutout marks only what it doubles (RULES.md J15, G8): a shut-out player's debt to
the winner, not his other payments. The sheet page and the PDF read back, from a game
stored through the API."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.engine.test_game import CONTRACT_GAME
from tests.pdf.reading import lines

# Ann 109 in two wins, Bob 70 in one, Cal shut out: Cal owes Ann double, Bob single.


def _stored(client: FlaskClient) -> str:
    response = client.post("/api/v1/games", json=CONTRACT_GAME)
    assert response.status_code == 201, response.get_data(as_text=True)
    game_id: str = response.get_json()["id"]
    return game_id


@pytest.mark.rule("J15")
def test_the_sheet_marks_only_the_doubled_payment(client: FlaskClient) -> None:
    page = client.get(f"/games/{_stored(client)}").get_data(as_text=True)
    settled = re.findall(r'<li data-settle="([^"]+)">(.*?)</li>', page)
    assert [line for line, _ in settled] == ["Bob>Ann>164", "Cal>Ann>518", "Cal>Bob>95"]
    marked = [line for line, text in settled if "shut out" in text]
    assert marked == ["Cal>Ann>518"]  # not Cal's payment to Bob, which is not doubled
    assert 'data-shutout="Cal"' in page
    assert "Shut out (won no box, J15): Cal." in page


@pytest.mark.rule("J15")
def test_the_pdf_marks_only_the_doubled_payment(client: FlaskClient) -> None:
    pdf = client.get(f"/api/v1/games/{_stored(client)}/sheet.pdf").data
    cells = lines(pdf)
    start = cells.index("Settlement")
    rows = cells[start : start + 40]
    assert rows.count("×2 shut out") == 1
    mark = rows.index("×2 shut out")
    assert rows[mark - 4 : mark] == ["Cal", "Ann", "518", "25.90"], rows


@pytest.mark.rule("G8")
def test_a_gin_shutout_cites_g8_in_the_games_words(client: FlaskClient) -> None:
    game = {
        "rules": "gin",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "boxes": [{"ending": "gin", "by": "Ann", "hands": {"Ann": {"count": 0}, "Bob": {"count": 80}}}],
    }
    response = client.post("/api/v1/games", json=game)
    assert response.status_code == 201
    game_id = response.get_json()["id"]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Shut out (won no hand, G8): Bob." in page
    assert "J15" not in page and "won no box" not in page
    assert re.findall(r'<li data-settle="([^"]+)">.*?shut out', page) == ["Bob>Ann>460"]
    pdf = lines(client.get(f"/api/v1/games/{game_id}/sheet.pdf").data)
    assert "×2 shut out" in pdf and not [line for line in pdf if "J15" in line]
