"""The sheet says what happened: a game stopped by agreement, a corrected box, the
currency stored with the game, the settings in words, the notes under the table."""

from __future__ import annotations

import pytest

from scorekeeper.engine.contract import GameEntry
from scorekeeper.engine.errors import MalformedError
from scorekeeper.pdf import render_sheet
from scorekeeper.pdf.meta import SheetMeta

from . import games
from .reading import flat, page_texts


def _stopped() -> dict[str, object]:
    game = games.jersey_game(8, ended=False)
    game["ended"] = "agreed"
    return game


def test_a_game_stopped_by_agreement_says_so_and_has_no_bonus_rows() -> None:
    text = flat(games.sheet_pdf(_stopped()))
    assert "Stopped by agreement after box 7; Ann leads" in text  # box 7: one misdeal
    assert "End of game: stopped by agreement" in text
    assert "Box bonuses" not in text and "Game bonus" not in text
    assert "Final total 82 63 40" in text


def test_the_currency_stored_with_the_game_prints_with_every_amount() -> None:
    game = {**games.jersey_game(11), "currency": "eur"}
    entry = GameEntry.from_json(game)
    assert entry.currency == "EUR" and entry.to_json()["currency"] == "EUR"
    text = flat(games.sheet_pdf(game))
    assert "€0.05 a point" in text
    assert "€7.10" in text and "−€4.10" in text
    # A currency given when printing (the command line's --currency) wins.
    typed = games.typed(game)
    assert "$7.10" in flat(render_sheet(*typed, meta=SheetMeta(currency="USD")))
    # A code with no symbol in English use prints after the amount.
    assert "7.10 CHF" in flat(render_sheet(*typed, meta=SheetMeta(currency="CHF")))


@pytest.mark.parametrize("bad", ["EURO", "euro", "E1R", "¤", 3])
def test_a_currency_that_is_no_iso_code_is_refused_by_name(bad: object) -> None:
    with pytest.raises(MalformedError, match="currency is a three-letter ISO 4217 code") as err:
        GameEntry.from_json({**games.jersey_game(3, ended=False), "currency": bad})
    assert err.value.where == "currency"


def test_a_corrected_box_is_marked_with_its_version() -> None:
    game = games.jersey_game(11)
    for n, box in enumerate(game["boxes"]):
        box["id"] = f"b{n}"
    cells = [
        line.strip()
        for text in page_texts(render_sheet(*games.typed(game), meta=SheetMeta(revised={"b2": 3})))
        for line in text.splitlines()
    ]
    assert "3 v3" in cells and "2 v2" not in cells
    assert any("5 v2 box 5 corrected, its version 2" in line for line in cells)
    plain = flat(games.sheet_pdf(game))
    assert " v3" not in plain and "corrected" not in plain


def test_notes_print_under_the_table_and_the_legend_keys_them_only_then() -> None:
    game = games.jersey_game(11)
    assert "note under its box" not in flat(games.sheet_pdf(game))
    game["boxes"][2]["note"] = "Cal showed the 7♥"
    text = flat(games.sheet_pdf(game, detail=True))
    assert "* note under its box" in text
    # Right under its box, before box 4 (issue 35: a note never prints pages after its row).
    assert text.index("3* Cal showed the 7♥") < text.index("4 Ann G Ann")


def test_settings_and_the_preset_in_words() -> None:
    text = flat(games.sheet_pdf(games.jersey_game(11)))
    assert (
        "Rules as the book has them, but for one setting. Total that ends the game: 138 instead "
        "of 100, rule J14" in text
    )
    assert "jersey-scarne" not in text and "(J14)" not in text


def test_no_bonus_row_of_nothing() -> None:
    game = games.preset_game("knock-rummy")
    text = flat(games.sheet_pdf(game))
    assert "End of game" in text
    assert "bonuses, 0 a" not in text and "Game bonus" not in text


def test_the_money_step_of_the_explanation_carries_the_currency() -> None:
    text = flat(games.sheet_pdf({**games.jersey_game(11), "currency": "EUR"}))
    assert "at €0.05 a point: Ann pays Bob 142 × 0.05 = €7.10" in text
    hollywood = flat(games.sheet_pdf({**games.hollywood_game(), "currency": "GBP"}))
    assert "at £0.1 a point: Ann pays Bob 777 × 0.1 = £77.70" in hollywood
