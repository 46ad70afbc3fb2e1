"""A sheet brought to a dispute answers the first questions: who won each box and how, which
game and version it is, when and where it was played, what each player takes home."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from scorekeeper import engine
from scorekeeper.pdf.boxes import Columns, box_table
from scorekeeper.pdf.fonts import FONT_BOLD
from scorekeeper.pdf.meta import SheetMeta

from . import games
from .reading import contains_run, flat, lines, page_texts, reader

SEATS = ["Marge", "Sal", "Tom"]
META = SheetMeta(
    "g7Qx2",
    41,
    created=datetime.datetime(2026, 5, 1, 19, 2),
    started=datetime.datetime(2026, 5, 1, 19, 30),
    place="Club Nord",
    printed=datetime.datetime(2026, 5, 2, 9, 30),
    read_only_url="http://192.168.1.20:8000/g/g7Qx2",
    currency="EUR",
    app_version="9.9.9",
)


def underknock_game() -> dict[str, Any]:
    """Marge knocks with 8, Sal has 5: Sal wins the box by an underknock."""
    return {
        "rules": "jersey-scarne",
        "players": SEATS,
        "dealer": "Marge",
        "stake": 0.05,
        "boxes": [
            games.knock("Marge", {"Marge": 8, "Sal": 5, "Tom": 30}),
            {"ending": "misdeal", "note": "Tom showed a card"},
            games.knock("Sal", {"Sal": 2, "Tom": 11, "Marge": 20}),
        ],
    }


def test_the_winner_is_named_not_the_knocker_and_the_knockers_count_is_marked() -> None:
    game = underknock_game()
    score = engine.score(game)
    assert score["boxes"][0]["winner"] == "Sal"
    cells = lines(games.sheet_pdf(game, score, detail=True))
    assert contains_run(cells, ["1", "Marge", "U", "Sal", "8ᵏ"])
    text = flat(games.sheet_pdf(game, score, detail=True))
    assert "Box 1 · Marge dealt · U Sal won by an underknock (Marge knocked) · Sal +" in text
    assert "Underknock by Marge" not in text


def test_a_misdeal_takes_no_box_number_and_a_note_is_marked() -> None:
    game = underknock_game()
    score = engine.score(game)
    pdf = games.sheet_pdf(game, score)
    cells = lines(pdf)
    # The misdeal's row starts with its dealer (no number, marked for its note); the next box is 2.
    assert contains_run(cells, ["*", "Sal", "–", "misdeal"])
    assert contains_run(cells, ["2", "Sal", "K", "Sal", "20"])
    text = flat(pdf)
    assert "2 boxes (and 1 misdeal); in progress" in text
    # The note in a row of its own right under its misdeal, before the next box (issue 35).
    assert "* Sal – misdeal 0 38 0 * Tom showed a card 2 Sal K Sal" in text


def test_the_legend_and_the_trace_are_on_every_page() -> None:
    game = games.jersey_game(60, ended=False)
    pdf = games.sheet_pdf(game, meta=META)
    texts = [" ".join(t.split()) for t in page_texts(pdf)]
    assert len(texts) >= 2
    for number, text in enumerate(texts, start=1):
        assert "K knock · U underknock · G gin · B break · BG gin after the break" in text
        assert "game g7Qx2 · version 41 · printed 2026-05-02 09:30 · scorekeeper 9.9.9" in text
        assert f"page {number} of {len(texts)}" in text
    assert "DATE PLACE" in texts[0] and "2026-05-01 19:30 Club Nord" in texts[0]


def test_the_metadata_carries_the_games_dates() -> None:
    game = underknock_game()
    info = reader(games.sheet_pdf(game, meta=META)).metadata
    assert info is not None
    assert str(info["/CreationDate"]) == "D:20260501193000+00'00'"
    assert str(info["/ModDate"]) == "D:20260502093000+00'00'"
    dated = reader(games.sheet_pdf(game, created=datetime.date(2025, 3, 14))).metadata
    assert dated is not None and str(dated["/CreationDate"]).startswith("D:20250314")
    undated = reader(games.sheet_pdf(game)).metadata
    assert undated is not None and "/CreationDate" not in undated  # never 2000-01-01


def test_the_same_game_and_meta_give_the_same_bytes() -> None:
    game = underknock_game()
    score = engine.score(game)
    assert games.sheet_pdf(game, score, meta=META) == games.sheet_pdf(game, score, meta=META)


def test_only_the_running_totals_that_changed_are_bold() -> None:
    game = underknock_game()
    score = engine.score(game)
    table: Any = box_table(*games.typed(game, score), SEATS, Columns(), 500)  # its cell styles are internal
    totals = {seat: 4 + 3 * seat + 2 for seat in range(3)}
    bold = {
        (row, seat)
        for row in range(2, 6)
        for seat, column in totals.items()
        if table._cellStyles[row][column].fontname == FONT_BOLD
    }
    # Box 1: Sal's underknock; the misdeal changes nothing (its note is row 4); box 2 (row
    # 5): Sal's knock.
    assert bold == {(2, 1), (5, 1)}
    credit = 4 + 3 * 1 + 1
    assert table._cellStyles[2][credit].fontname == FONT_BOLD


@pytest.mark.parametrize("rules", ["knock-rummy", "hollywood"])
def test_only_the_rule_ids_of_the_game_played(rules: str) -> None:
    game = games.knock_rummy_game(["Ann", "Bob", "Cal"]) if rules == "knock-rummy" else games.hollywood_game()
    text = flat(games.sheet_pdf(game, detail=True))
    assert not any(f" J{n} " in text for n in range(1, 20))
    assert "bonus of 0" not in text


def test_explanations_use_the_tables_typography() -> None:
    game = games.gin_shutout_game("Ann", "Bob")
    text = flat(games.sheet_pdf(game, detail=True))
    assert "(270 − 0) × 2 = 540" in text
    assert " x 2" not in text and "270 - 0" not in text


def test_oklahoma_prints_the_upcard_and_the_knock_limit_it_set() -> None:
    game = {
        "rules": "oklahoma",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "boxes": [
            {**games.knock("Ann", {"Ann": 5, "Bob": 30}), "upcard": "7S"},
            {**games.gin("Bob", {"Ann": 20}), "upcard": "AH"},
        ],
    }
    cells = lines(games.sheet_pdf(game))
    assert contains_run(cells, ["Hand", "Dealer", "How", "Won by", "Upcard"])
    assert contains_run(cells, ["1", "Ann", "K", "Ann", "7♠ ≤7", "5ᵏ"])
    assert contains_run(cells, ["2", "Bob", "G", "Bob", "A♥ gin"])


def test_settlement_nets_money_in_its_currency_and_marks_the_shutout() -> None:
    game = games.gin_shutout_game("Ann", "Bob")
    score = engine.score(game)
    cells = lines(games.sheet_pdf(game, score, meta=META))
    assert contains_run(cells, ["Bob", "Ann", "540", "€135.00", "×2 shut out"])
    assert contains_run(cells, ["Points", "+540", "−540"])
    assert contains_run(cells, ["Money", "+€135.00", "−€135.00"])
