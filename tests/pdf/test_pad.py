"""Blank score pads: one page, A4 or Letter, the rule set's key numbers in the margin."""

from __future__ import annotations

import pytest

from scorekeeper import engine
from scorekeeper.pdf import render_blank_pad

from .reading import contains_run, flat, lines, page_size_mm, reader


@pytest.mark.parametrize(("size", "mm"), [("A4", (210, 297)), ("letter", (216, 279))])
@pytest.mark.parametrize("rules", ["jersey-scarne", "gin", "hollywood"])
def test_one_page_in_the_size_asked(rules: str, size: str, mm: tuple[int, int]) -> None:
    pdf = render_blank_pad(rules, page_size=size)
    assert len(reader(pdf).pages) == 1
    assert page_size_mm(pdf) == mm
    assert "page 1 of 1" in flat(pdf)


def test_jersey_pad_margin_carries_the_key_numbers() -> None:
    text = flat(render_blank_pad("jersey-scarne"))
    assert ("Jersey Gin (Scarne): Knock 10 or less · Gin bonus 40 · Underknock bonus 10 · "
            "Box bonus 25 · Game bonus 100 · Game 100 up · Shutout doubles") in text
    assert "Jersey Gin (Scarne) score pad" in text


def test_jersey_pad_is_ruled_for_three_with_its_foot() -> None:
    cells = lines(render_blank_pad("jersey-scarne"))
    assert contains_run(cells, ["seat 1", "seat 2", "seat 3"])
    assert "seat 4" not in cells
    text = " ".join(cells)
    assert ("Credits Boxes won Box bonuses: boxes won × 25 Game bonus: 100 to the winner "
            "Final total Seats 1 and 2: who pays whom Seats 1 and 3: who pays whom "
            "Seats 2 and 3: who pays whom") in text
    numbers = [int(c) for c in cells if c.isdigit()]
    assert numbers[:18] == list(range(1, 19))


def test_two_hand_pad_uses_its_own_numbers() -> None:
    text = flat(render_blank_pad("gin-classic", page_size="letter"))
    assert "Gin bonus 20 · Undercut bonus 10 · Hand bonus 20" in text
    assert "seat 2" in text and "seat 3" not in text


def test_hollywood_pad_has_three_games_side_by_side() -> None:
    cells = lines(render_blank_pad("hollywood"))
    assert contains_run(cells, ["Game 1 · to 100", "Game 2 · to 100", "Game 3 · to 100"])
    assert cells.count("seat 1") == 3
    assert ("Credits Hands won Hand bonuses × 25 Game bonus 100 Final total "
            "Net: who is up, by how much") in " ".join(cells)


def test_knock_rummy_pad_for_five_is_landscape() -> None:
    pdf = render_blank_pad("knock-rummy", players=5)
    assert page_size_mm(pdf) == (297, 210)
    assert "seat 5" in lines(pdf)
    assert "Knock any count" in flat(pdf)


def test_players_must_suit_the_rules() -> None:
    with pytest.raises(ValueError, match="Gin Rummy is for 2 players, not 3"):
        render_blank_pad("gin", players=3)
    with pytest.raises(ValueError, match="Knock Rummy is for 2 to 5 players, not 6"):
        render_blank_pad("knock-rummy", players=6)
    with pytest.raises(engine.ScorekeeperError):
        render_blank_pad("canasta")
