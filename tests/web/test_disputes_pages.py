"""Check a hand, settle a showdown, and the rules pages, with and without htmx."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

HX = {"HX-Request": "true"}
HAND = ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]


def _query(cards: list[str]) -> str:
    return "&".join(f"cards={c}" for c in cards)


def test_check_a_hand(client: FlaskClient) -> None:
    empty = client.get("/check").get_data(as_text=True)
    assert "Tap 10 cards" in empty and empty.count('name="cards"') == 52
    text = client.get(f"/check?{_query(HAND)}").get_data(as_text=True)
    assert "Count 4" in text
    assert "Can knock: count 4 is within 10, the limit of Jersey Gin (Scarne) (C6)." in text
    assert "Best discard" not in text
    fragment = client.get(f"/check?{_query([*HAND, 'KS'])}", headers=HX).get_data(True)
    assert "<html" not in fragment and 'id="check-result"' in fragment
    assert "Best discard" in fragment and "K♠" in fragment
    typed = client.get("/check?typed=AS+2S+3S+KH+KD+KC+9D+10D+JD+QS").get_data(as_text=True)
    assert "Count 10" in typed and "Can knock" in typed


def test_check_a_hand_errors(client: FlaskClient) -> None:
    response = client.get("/check?typed=ZZ")
    assert response.status_code == 422 and "is not a card" in response.get_data(as_text=True)
    short = client.get(f"/check?{_query(HAND[:4])}", headers=HX)
    assert short.status_code == 422 and 'class="error"' in short.get_data(as_text=True)


def test_settle_a_showdown(client: FlaskClient) -> None:
    page = client.get("/settle").get_data(as_text=True)
    assert "Players in seat order" in page and 'id="box-form"' in page and "Rule the box" in page
    url = "/settle?rules=jersey-scarne&players=Ann,+Bob,+Cal"
    data = {
        "ending": "knock",
        "by": "Bob",
        "hands-0-count": "14",
        "hands-2-count": "13",
        "hands-1-cards": HAND,
    }
    text = client.post(url, data=data).get_data(as_text=True)
    assert "<html" in text and "Knock: Bob" in text and "+19" in text and "J6" in text
    preview = client.post(url, data=data, headers={**HX, "HX-Target": "preview"})
    body = preview.get_data(as_text=True)
    assert "<html" not in body and 'id="box-form"' not in body and "+19" in body
    whole = client.post(url, data=data, headers=HX).get_data(as_text=True)
    assert "<html" not in whole and 'id="box-form"' in whole and "+19" in whole
    bad = client.post(url, data={**data, "hands-0-count": "99"})
    assert bad.status_code == 422


def test_settle_a_two_hand_showdown(client: FlaskClient) -> None:
    url = "/settle?rules=gin&players=Ann,Bob"
    text = client.post(
        url, data={"ending": "knock", "by": "Ann", "hands-0-count": "8", "hands-1-count": "5"}
    ).get_data(as_text=True)
    assert "Undercut: Bob" in text and "+28" in text


def test_settle_needs_the_right_players(client: FlaskClient) -> None:
    response = client.get("/settle?rules=jersey-scarne&players=Ann,Bob")
    assert response.status_code == 422
    assert "played by 3 players" in response.get_data(as_text=True)


def test_rules_index_search_and_preset(client: FlaskClient) -> None:
    text = client.get("/rules/").get_data(as_text=True)
    assert "Jersey Gin (Scarne)" in text and "Search the rules" in text
    found = client.get("/rules/?q=underknock").get_data(as_text=True)
    assert "J7" in found and "underknock_bonus" in found
    fragment = client.get("/rules/?q=break", headers=HX).get_data(as_text=True)
    assert "<html" not in fragment and "J10" in fragment and "The break" in fragment
    nothing = client.get("/rules/?q=canasta").get_data(as_text=True)
    assert "Nothing found" in nothing
    preset = client.get("/rules/jersey-scarne").get_data(as_text=True)
    assert 'id="J6"' in preset and "Knock credit" in preset
    assert "each on the melds before him (J5)" in preset and "<code>layoffs</code>" in preset
    assert "<strong>on the knocker&#39;s own melds only (P5)</strong> (Three-hand Gin (Parlett))" in preset
    assert 'id="setting-layoffs"' in preset
    assert 'id="G4"' not in preset
    gin = client.get("/rules/gin", headers=HX).get_data(as_text=True)
    assert "<html" not in gin and 'id="G5"' in gin
    assert client.get("/rules/canasta").status_code == 404


def test_csrf_is_required_when_enabled(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    response = client.post("/games/new?rules=jersey-scarne", data={"players-0": "Ann"})
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)
    page = client.get("/games/new").get_data(as_text=True)
    assert 'name="csrf_token"' in page


def test_oversized_request_is_413(client: FlaskClient) -> None:
    response = client.post("/games/new", data={"players-0": "x" * 300_000})
    assert response.status_code == 413
    assert "Too much data" in response.get_data(as_text=True)


def test_check_a_hand_with_a_house_limit_or_an_upcard(client: FlaskClient) -> None:
    eight = ["AS", "2S", "3S", "KH", "KD", "KC", "9D", "10D", "JD", "8C"]
    text = client.get(f"/check?{_query(eight)}&knock_limit=5").get_data(as_text=True)
    assert "Cannot knock: count 8 is over 5, the house limit (C6)." in text
    okla = client.get(f"/check?{_query(eight)}&rules=oklahoma&upcard=9H", headers=HX)
    assert "Can knock: count 8 is within 9, the first upcard 9" in okla.get_data(True)
    ace = client.get(f"/check?{_query(eight)}&rules=oklahoma&upcard=AH").get_data(True)
    assert "Cannot knock: count 8, and the first upcard A" in ace and "gin only" in ace
    asked = client.get(f"/check?{_query(eight)}&rules=oklahoma").get_data(True)
    assert "the upcard sets the limit (V2): give it" in asked
    bad = client.get(f"/check?{_query(eight)}&rules=oklahoma&upcard=ZZ")
    assert bad.status_code == 422 and "is not a card" in bad.get_data(as_text=True)
    assert client.get(f"/check?{_query(eight)}&knock_limit=abc").status_code == 422


def test_check_shows_every_best_arrangement(client: FlaskClient) -> None:
    """6-7-8 of clubs or the three 7s: either leaves 14 beside 2-3-4 of spades."""
    hand = ["6C", "7C", "8C", "7D", "7H", "2S", "3S", "4S", "KD", "QH"]
    text = client.get(f"/check?{_query(hand)}").get_data(as_text=True)
    assert "best arrangements" in text and text.count('<li><span class="meld">') >= 2


def test_settle_with_house_rules_and_dealer(client: FlaskClient) -> None:
    page = client.get("/settle?rules=gin&players=Ann,Bob").get_data(as_text=True)
    assert 'name="dealer"' in page and 'name="setting_gin_bonus"' in page
    url = "/settle?rules=gin&players=Ann,+Bob&dealer=Bob&setting_gin_bonus=30"
    data = {"ending": "gin", "by": "Ann", "hands-1-count": "20"}
    text = client.post(url, data=data).get_data(as_text=True)
    assert "Gin: Ann" in text and "+50" in text  # 20 + the house gin bonus of 30
    assert 'action="/settle?rules=gin&amp;players=Ann,+Bob&amp;dealer=Bob' in text
    bad = client.get("/settle?rules=gin&players=Ann,Bob&setting_gin_bonus=lots")
    assert bad.status_code == 422


def test_settle_offers_every_ending(client: FlaskClient) -> None:
    jersey = client.get("/settle").get_data(as_text=True)
    for ending in ("knock", "gin", "break", "misdeal"):
        assert f'value="{ending}"' in jersey
    assert 'name="after_break"' in jersey and 'name="second_round"' in jersey
    url = "/settle?rules=jersey-scarne&players=Ann,+Bob,+Cal&dealer=Cal"
    broke = client.post(
        url,
        data={
            "ending": "break",
            "by": "Ann",
            "hands-0-count": "3",
            "hands-1-count": "10",
            "hands-2-count": "20",
        },
    )
    assert broke.status_code == 200 and "Break: Ann" in broke.get_data(as_text=True)
    late = client.post(
        url,
        data={"ending": "gin", "by": "Bob", "after_break": "y", "hands-0-count": "10", "hands-2-count": "20"},
    )
    assert "Gin after the break: Bob" in late.get_data(as_text=True)
    parlett = client.get("/settle?rules=three-hand-parlett&players=A,B,C").get_data(True)
    assert 'value="draw"' in parlett
    drawn = client.post("/settle?rules=three-hand-parlett&players=A,B,C", data={"ending": "draw"})
    assert drawn.status_code == 200 and "Draw" in drawn.get_data(as_text=True)


def test_rule_ids_link_to_their_text(client: FlaskClient) -> None:
    url = "/settle?rules=gin&players=Ann,Bob"
    text = client.post(
        url, data={"ending": "knock", "by": "Ann", "hands-0-count": "8", "hands-1-count": "5"}
    ).get_data(as_text=True)
    assert 'href="/rules/gin#G5"' in text
    everything = client.get("/rules/all").get_data(as_text=True)
    for rule_id in ("C1", "J6", "P4", "G5", "V3", "K3"):
        assert f'id="{rule_id}"' in everything
    assert 'id="setting-shutout"' in everything
    fragment = client.get("/rules/all", headers=HX).get_data(as_text=True)
    assert "<html" not in fragment and 'id="J2"' in fragment
    found = client.get("/rules/?q=gin-only").get_data(as_text=True)
    assert "ace_upcard" in found and 'href="/rules/all#setting-ace_upcard"' in found
