"""One vocabulary (issue 17): the pages and the PDF take their words from the engine's
vocabulary module, so a two-hand game says hand and undercut everywhere, Jersey box
and underknock, and "gin after the break" reads the same on the phone and the paper."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from scorekeeper.engine import SETTINGS
from scorekeeper.engine.vocabulary import RESULT_LETTERS, RESULT_NAMES, title_of
from scorekeeper.pdf.vocabulary import RESULTS, legend

from .conftest import start_preset

ROOT = Path(__file__).resolve().parents[2]


def test_the_pdf_words_are_the_engines() -> None:
    assert {key: r.name for key, r in RESULTS.items()} == RESULT_NAMES
    assert {key: r.letter for key, r in RESULTS.items()} == RESULT_LETTERS
    assert f"BG {RESULT_NAMES['break-gin']}" in legend(beaten="underknock")


def test_no_page_keeps_its_own_word_table() -> None:
    """The result names live in the engine only: no template spells them out again."""
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert '"break-gin":' not in text and "Gin after break" not in text, template


def test_a_two_hand_game_says_hand_and_jersey_says_box(client: FlaskClient) -> None:
    gin = start_preset(client, "gin", ["Ann", "Bob"])
    page = client.get(f"/games/{gin}/boxes/new").get_data(as_text=True)
    assert "How did the hand end?" in page and "How did the box end?" not in page
    sheet = client.get(f"/games/{gin}").get_data(as_text=True)
    assert "Record hand 1" in sheet and "Hands won" in sheet and "Record box" not in sheet
    jersey = start_preset(client, "jersey-scarne", ["Ann", "Bob", "Cal"])
    page = client.get(f"/games/{jersey}/boxes/new").get_data(as_text=True)
    assert "How did the box end?" in page and title_of("break-gin") in page
    assert "Record box 1" in client.get(f"/games/{jersey}").get_data(as_text=True)


def test_the_rules_pages_show_each_setting_with_its_source(client: FlaskClient) -> None:
    page = client.get("/rules/gin").get_data(as_text=True)
    assert 'id="setting-gin_layoffs"' in page and 'id="setting-hollywood_entry"' in page
    assert "Source: G7: Parlett &#39;the deal passes&#39;" in page or (
        "Source: G7: Parlett 'the deal passes'" in page
    )
    everything = client.get("/rules/all").get_data(as_text=True)
    assert everything.count("Source: ") == len(SETTINGS)


def test_a_two_hand_pdf_has_no_break_in_its_legend() -> None:
    from scorekeeper.pdf import render_blank_pad
    from tests.pdf.games import sheet_pdf
    from tests.pdf.reading import flat

    game = {
        "rules": "gin",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "boxes": [{"ending": "knock", "by": "Ann", "hands": {"Ann": {"count": 3}, "Bob": {"count": 20}}}],
    }
    for pdf in (sheet_pdf(game), render_blank_pad("gin")):
        text = flat(pdf)
        assert "K knock · U undercut · G gin" in text and RESULT_NAMES["break-gin"] not in text
    assert RESULT_NAMES["break-gin"] in flat(render_blank_pad("jersey-scarne"))
