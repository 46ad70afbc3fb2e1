"""Blank score pads and the score sheet's PDF options, through the test client."""

from __future__ import annotations

import io

from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.web.conftest import box_form

LETTER_WIDTH, A4_WIDTH = 612, 595


def pdf_width(data: bytes) -> int:
    return round(float(PdfReader(io.BytesIO(data)).pages[0].mediabox.width))


def test_pads_page_offers_every_game(client: FlaskClient) -> None:
    text = client.get("/pads/").get_data(as_text=True)
    assert "Jersey Gin (Scarne)" in text and "Knock Rummy" in text and "US Letter" in text
    assert "Blank score pads" in client.get("/").get_data(as_text=True)


def test_pad_pdf_in_letter_for_hollywood(client: FlaskClient) -> None:
    response = client.get("/pads/pad.pdf?rules=hollywood&size=letter")
    assert response.mimetype == "application/pdf"
    assert pdf_width(response.data) == LETTER_WIDTH
    text = PdfReader(io.BytesIO(response.data)).pages[0].extract_text()
    assert "Hollywood" in text and "Game 1" in text


def test_a_hollywood_pad_with_twelve_columns(client: FlaskClient) -> None:
    response = client.get("/pads/pad.pdf?rules=hollywood&columns=12")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    assert "Game 12 · to 100" in text and "Game 13" not in text


def test_bad_pad_choices_come_back_to_the_form(client: FlaskClient) -> None:
    for query, reason in [
        ("rules=canasta", "not a rule set"),
        ("rules=gin&players=7", "for 2 players"),
        ("rules=knock-rummy&players=lots", "not a number of players"),
        ("rules=hollywood&columns=51", "1 to 50 game columns, not 51"),
        ("rules=hollywood&columns=six", "not a number of Hollywood games"),
    ]:
        response = client.get(f"/pads/pad.pdf?{query}")
        assert response.status_code == 422
        assert reason in response.get_data(as_text=True)


def test_sheet_pdf_paper_and_detail(client: FlaskClient, game_id: str) -> None:
    recorded = client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13}))
    assert recorded.status_code == 303
    letter = client.get(f"/games/{game_id}/sheet.pdf?size=letter&detail=0")
    assert pdf_width(letter.data) == LETTER_WIDTH
    a4 = client.get(f"/games/{game_id}/sheet.pdf?size=nonsense&detail=1")
    assert pdf_width(a4.data) == A4_WIDTH
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(a4.data)).pages)
    assert "Box detail" in text and "Bob knocked with 4" in text
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'name="size"' in page and 'name="detail"' in page
