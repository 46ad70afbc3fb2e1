"""A 40-box Jersey Gin game's sheet, read back: every box, every total, the settlement."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import engine
from scorekeeper.engine.contract import Sheet
from scorekeeper.pdf.boxes import box_labels, sheet_numbers
from scorekeeper.pdf.words import typeset

from . import games
from .conftest import DATE
from .reading import contains_run, flat, lines, page_size_mm, page_texts, reader

Game = tuple[dict[str, Any], dict[str, Any]]
LETTERS = {"knock": "K", "underknock": "U", "gin": "G", "misdeal": "–"}


def row_of(label: str, box: dict[str, Any], players: list[str]) -> list[str]:
    """What one box's row must read, cell by cell; empty cells are not extracted. A misdeal
    takes no box number; the winner is named (not the knocker), whose count is marked ᵏ."""
    row = [label] if label else []
    row += [box["dealer"], LETTERS[box["result"]], box["winner"] or box["result"]]
    for player in players:
        if player in box["counts"]:
            mark = "ᵏ" if player == box["by"] else ""
            row.append(f"{box['counts'][player]}{mark}")
        if box["credits"].get(player):
            row.append(str(box["credits"][player]))
        row.append(str(box["totals"][player]))
    return row


def test_the_game_is_the_one_described(jersey: Game) -> None:
    _, score = jersey
    assert len(score["boxes"]) == 40 and score["game_over"]
    assert any(box["hands"] for box in score["boxes"])
    assert {box["result"] for box in score["boxes"]} >= {"knock", "gin", "misdeal"}


def test_every_box_row_with_its_counts_credits_and_running_totals(jersey: Game, jersey_pdf: bytes) -> None:
    game, score = jersey
    cells = lines(jersey_pdf)
    labels = box_labels(Sheet.from_json(score).boxes)
    assert labels[:8] == ["1", "2", "3", "4", "5", "6", "", "7"]
    for label, box in zip(labels, score["boxes"], strict=True):
        assert contains_run(cells, row_of(label, box, game["players"])), label


def test_title_block(jersey: Game, jersey_pdf: bytes) -> None:
    game, _ = jersey
    first = " ".join(page_texts(jersey_pdf)[0].split())
    assert first.startswith("Jersey Gin (Scarne)")
    target = game["settings"]["game_target"]
    assert (
        "Rules as the book has them, but for one setting. "
        f"Total that ends the game: {target} instead of 100, rule J14"
    ) in first
    assert "2025-03-14" in first
    assert "1 Ann 2 Bob 3 Cal first dealer Ann" in first
    assert "0.05 a point" in first
    assert "35 boxes (and 5 misdeals); won by Ann" in first


def test_end_of_game_block(jersey: Game, jersey_pdf: bytes) -> None:
    game, score = jersey
    cells = lines(jersey_pdf)
    players = game["players"]
    assert contains_run(cells, ["Credits", *[str(score["totals"][p]) for p in players]])
    assert contains_run(cells, ["Boxes won", *[str(score["boxes_won"][p]) for p in players]])
    assert contains_run(cells, ["Box bonuses, 25 a box", *[str(score["box_bonuses"][p]) for p in players]])
    assert contains_run(cells, ["Game bonus", "100"])
    assert contains_run(cells, ["Final total", *[str(score["final_totals"][p]) for p in players]])
    assert score["winner"] == "Ann" and score["game_bonus"] == {"Ann": 100}


def test_settlement_in_points_and_money(jersey: Game, jersey_pdf: bytes) -> None:
    _, score = jersey
    cells = lines(jersey_pdf)
    assert len(score["settlement"]) == 3
    for payment in score["settlement"]:
        money = f"{payment['amount']:.2f}"
        assert contains_run(cells, [payment["from"], payment["to"], str(payment["points"]), money]), payment


def test_game_explanation_with_rule_ids(jersey: Game, jersey_pdf: bytes) -> None:
    _, score = jersey
    text = flat(jersey_pdf)
    numbers = sheet_numbers(Sheet.from_json(score).boxes)
    for step in score["explanation"]:
        assert f"{step['rule']} {typeset(step['text'], numbers)}" in text
    # The engine counts the misdeals among its boxes; the sheet numbers only boxes played.
    assert "J14 Ann reached 477 in box 35 (target 477): the game is over" in text
    assert "J14 box bonuses at 25 a box: Ann 12 × 25 = 300, Bob 11 × 25 = 275" in text


def test_page_count_and_page_numbers(jersey_pdf: bytes) -> None:
    texts = page_texts(jersey_pdf)
    # The table fills page 1, the end of the game page 2, the five boxes with cards page 3.
    assert len(texts) == 3
    for number, text in enumerate(texts, start=1):
        assert f"page {number} of 3" in text
    # Pages after the first carry the running header.
    assert all("Jersey Gin (Scarne)" in t and "Ann · Bob · Cal · 2025-03-14" in t for t in texts[1:])


def test_box_detail_by_default_only_for_boxes_with_cards(jersey: Game, jersey_pdf: bytes) -> None:
    _, score = jersey
    text = flat(jersey_pdf)
    labels = box_labels(Sheet.from_json(score).boxes)
    with_cards = [int(labels[n]) for n, box in enumerate(score["boxes"]) if box["hands"]]
    assert with_cards == [6, 12, 18, 24, 30]
    for number in range(1, 36):
        assert (f"Box {number} ·" in text) == (number in with_cards)
    # The knocker's arrangement, the layoff onto his run, the deadwood, with suit symbols.
    assert "A♠ 2♠ 3♠ · 7♣ 7♦ 7♥ · 9♦ 10♦ J♦" in text
    assert "4♠ on Cal’s A♠ 2♠ 3♠" in text
    assert "A♦ A♥ 2♣ 2♥ 3♦ 4♥" in text
    assert "count only" in text
    for step in score["boxes"][5]["explanation"]:
        assert f"{step['rule']} {typeset(step['text'])}" in text


def test_detail_off_and_on(jersey: Game) -> None:
    game, score = jersey
    off = games.sheet_pdf(game, score, detail=False, created=DATE)
    assert "Box detail" not in flat(off) and len(reader(off).pages) == 2
    on = games.sheet_pdf(game, score, detail=True, created=DATE)
    text = flat(on)
    assert all(f"Box {n} ·" in text for n in range(1, 36))
    # A box of counts only is one line, its explanation run on; the cards' boxes have tables.
    assert "Box 1 · Ann dealt · K Ann won by a knock · Ann +21: Ann knocked with 1" in text
    assert text.count("Misdeal · ") == 5 and "Misdeal · Ann dealt: misdeal: the same" in text
    assert len(reader(on).pages) <= 5


def test_headings_repeat_on_every_page_of_a_long_table() -> None:
    game = games.jersey_game(100, ended=False, stake=None)
    score = engine.score(game)
    texts = page_texts(games.sheet_pdf(game, score, detail=False, page_size="letter"))
    assert len(texts) >= 2
    with_boxes = [text for text in texts if "Dealer" in text]
    assert len(with_boxes) >= 2
    for text in with_boxes:
        cells = [line.strip() for line in text.splitlines()]
        assert contains_run(cells, ["Box", "Dealer", "How", "Won by", "Ann", "Bob", "Cal"])
        assert cells.count("total") == 3
    played = sum(1 for box in score["boxes"] if box["result"] != "misdeal")  # misdeals: no box
    assert f"Standing after {played} boxes" in texts[-1]
    assert f"Next dealer: {score['next_dealer']}." in texts[-1]
    assert "86 boxes (and 14 misdeals); in progress" in texts[0]


def test_letter_and_a4_page_sizes(jersey: Game, jersey_pdf: bytes) -> None:
    game, score = jersey
    assert page_size_mm(jersey_pdf) == (210, 297)
    assert page_size_mm(games.sheet_pdf(game, score, page_size="letter")) == (216, 279)
    with pytest.raises(ValueError, match="page size must be 'A4' or 'letter'"):
        games.sheet_pdf(game, score, page_size="A3")


def test_custom_title_keeps_the_rule_set_and_no_date_leaves_a_blank(jersey: Game) -> None:
    game, score = jersey
    first = page_texts(games.sheet_pdf(game, score, title="Club night & <friends>"))[0]
    assert first.startswith("Club night & <friends>")
    assert "Rules of Jersey Gin (Scarne) as the book has them" in first
    assert "2025" not in first
    dated = page_texts(games.sheet_pdf({**game, "started": "2024-12-31T20:00:00"}, score))[0]
    assert "2024-12-31" in dated


def test_pdf_metadata(jersey_pdf: bytes) -> None:
    info = reader(jersey_pdf).metadata
    assert info is not None
    assert info.title == "Jersey Gin (Scarne)"
    assert info.subject == "Score sheet: Ann, Bob, Cal"
