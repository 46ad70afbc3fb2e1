"""The printed sheet of a game stored through the app (issue 15): it keeps the game's
date, prints where and when it was played as the table entered them, and its footer
traces it (game id, version, printed time, app version) with a QR code to the game."""

from __future__ import annotations

import datetime
import re

from flask.testing import FlaskClient

from tests.pdf.reading import flat, reader
from tests.web.conftest import box_form, start_game, version_of


def test_the_sheet_of_a_stored_game_traces_itself(client: FlaskClient) -> None:
    game_id = start_game(client, place="Elm Street  Club", started="2026-11-20T19:30")
    client.post(
        f"/games/{game_id}/boxes/new", data=box_form(version_of(client, game_id), counts={0: 14, 1: 4, 2: 13})
    )
    version = version_of(client, game_id)
    answer = client.get(f"/games/{game_id}/sheet.pdf")
    assert answer.mimetype == "application/pdf"
    pdf = answer.get_data()
    text = flat(pdf)
    assert f"game {game_id} · version {version} · printed " in text
    assert "Elm Street Club" in text and "2026-11-20 19:30" in text
    today = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d")
    info = reader(pdf).metadata
    assert info is not None and str(info["/CreationDate"]).startswith("D:202611201930")
    assert str(info["/ModDate"]).startswith(f"D:{today}")  # printed now
    # The footer's QR code is drawn (a vector image: many small filled squares).
    content = reader(pdf).pages[0].get_contents()
    assert content is not None and len(re.findall(rb" re\b", content.get_data())) > 100


def test_place_and_time_are_checked(client: FlaskClient) -> None:
    answer = client.post(
        "/games/new?rules=jersey-scarne", data={**_form(), "place": "x" * 121, "started": "yesterday"}
    )
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert "Field cannot be longer than 120 characters." in page
    assert "Not a valid datetime value." in page


def test_the_currency_taken_on_the_form_is_stored_and_printed(client: FlaskClient) -> None:
    game_id = start_game(client, stake="0.05", currency="eur")
    for counts in ({0: 14, 1: 4, 2: 13}, {0: 30, 1: 2, 2: 25}):
        client.post(f"/games/{game_id}/boxes/new", data=box_form(version_of(client, game_id), counts=counts))
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert game["game"]["currency"] == "EUR"  # stored with the game, read back by the API
    text = flat(client.get(f"/games/{game_id}/sheet.pdf").get_data())
    assert "€0.05 a point" in text
    answer = client.post("/games/new?rules=jersey-scarne", data={**_form(), "currency": "euro"})
    assert answer.status_code == 422
    assert "Enter a three-letter currency code such as EUR or USD, or a symbol such as €." in answer.get_data(
        as_text=True
    )


def _form() -> dict[str, str]:
    from tests.web.conftest import new_game_form

    return new_game_form()


def test_the_footer_links_only_to_a_host_this_server_trusts(client: FlaskClient) -> None:
    """The footer's QR code and link name the server as a table's LAN reaches it (or its
    configured address), never a Host header a stranger wrote (issue 23)."""
    game_id = start_game(client)
    trusted = client.get(f"/games/{game_id}/sheet.pdf", headers={"Host": "192.168.1.20:8000"}).get_data()
    stranger = client.get(f"/games/{game_id}/sheet.pdf", headers={"Host": "evil.example"}).get_data()

    def squares(pdf: bytes) -> int:
        content = reader(pdf).pages[0].get_contents()
        assert content is not None
        return len(re.findall(rb" re\b", content.get_data()))

    assert b"evil.example" not in stranger and "evil.example" not in flat(stranger)
    assert squares(trusted) > 100 and squares(stranger) < 20  # a QR code only for the first
    assert f"game {game_id}" in flat(stranger)  # the rest of the footer still traces it
