"""Blank score pads: one page, A4 or Letter, the rule set's key numbers in the margin."""

from __future__ import annotations

import datetime

import pytest

from scorekeeper import engine
from scorekeeper.pdf import render_blank_pad

from .reading import contains_run, flat, lines, page_size_mm, reader


@pytest.mark.parametrize(("size", "mm"), [("A4", (210, 297)), ("letter", (216, 279))])
@pytest.mark.parametrize("rules", ["jersey-scarne", "gin", "hollywood"])
def test_a_sheet_of_rows_and_its_summary_in_the_size_asked(
    rules: str, size: str, mm: tuple[int, int]
) -> None:
    pdf = render_blank_pad(rules, page_size=size)
    # One page when 15 rows and the foot fit it, else the summary on a sheet of its own.
    assert len(reader(pdf).pages) in (1, 2)
    assert page_size_mm(pdf) == mm
    assert f"page 1 of {len(reader(pdf).pages)}" in flat(pdf)


def test_jersey_pad_margin_carries_the_key_numbers() -> None:
    text = flat(render_blank_pad("jersey-scarne"))
    assert (
        "Jersey Gin (Scarne): Knock 10 or less · Gin bonus 40 · Underknock bonus 10 · "
        "Box bonus 25 · Game bonus 100 · Game 100 up · Shutout doubles"
    ) in text
    assert "Jersey Gin (Scarne) score pad" in text


def test_jersey_pad_is_ruled_for_three_with_its_foot() -> None:
    cells = lines(render_blank_pad("jersey-scarne"))
    assert contains_run(cells, ["seat A", "seat B", "seat C"])
    assert "seat D" not in cells
    text = " ".join(cells)
    assert ("Credits Boxes won Box bonuses: boxes won × 25 Game bonus: 100 to the winner Final total") in text
    numbers = [int(c) for c in cells if c.isdigit()]
    assert numbers[:15] == list(range(1, 16))


def test_two_hand_pad_uses_its_own_numbers() -> None:
    text = flat(render_blank_pad("gin-classic", page_size="letter"))
    assert "Gin bonus 20 · Undercut bonus 10 · Hand bonus 20" in text
    assert "seat B" in text and "seat C" not in text


def test_hollywood_pad_has_three_games_side_by_side() -> None:
    cells = lines(render_blank_pad("hollywood"))
    assert contains_run(cells, ["Game 1 · to 100", "Game 2 · to 100", "Game 3 · to 100"])
    assert cells.count("A") >= 3 and "seat A" not in cells  # names written once, at the top
    assert (
        "Credits Hands won Hand bonuses × 25 Game bonus 100 Shut out (tick the loser) "
        "Final total Net: who is up, by how much"
    ) in " ".join(cells)


def test_knock_rummy_pad_for_five_is_landscape() -> None:
    pdf = render_blank_pad("knock-rummy", players=5)
    assert page_size_mm(pdf) == (297, 210)
    assert "seat E" in lines(pdf)
    assert "Knock any count" in flat(pdf)


def test_players_must_suit_the_rules() -> None:
    with pytest.raises(ValueError, match="Gin Rummy is for 2 players, not 3"):
        render_blank_pad("gin", players=3)
    with pytest.raises(ValueError, match="Knock Rummy is for 2 to 5 players, not 6"):
        render_blank_pad("knock-rummy", players=6)
    with pytest.raises(engine.ScorekeeperError):
        render_blank_pad("canasta")


def test_jersey_pad_settles_three_pairs_with_a_shutout_box_and_money() -> None:
    cells = lines(render_blank_pad("jersey-scarne", printed=datetime.date(2026, 11, 26)))
    assert contains_run(cells, ["Pair", "Who pays", "Points", "×2 shutout", "Money"])
    for pair in ("A–B", "A–C", "B–C"):
        assert contains_run(cells, [pair, "☐"]), pair
    text = " ".join(cells)
    assert "GAME TO (BOOK: 100)" in text and "SHEET" in text and "of" in cells
    assert "MISDEALS (TALLY, NO ROW)" in text
    assert cells.index("Carried forward") < cells.index("1")
    assert "Agreed: A" in text and " B " in text and " C " in text
    assert "blank Jersey Gin (Scarne) pad · printed 2026-11-26" in text


def test_hollywood_pad_writes_names_once_and_nets_all_games_in_money() -> None:
    cells = lines(render_blank_pad("hollywood"))
    text = " ".join(cells)
    assert "PLAYER A" in text and "PLAYER B" in text
    assert contains_run(cells, ["All games: net", "Who pays", "Points", "Money"])
    assert "A–B" in cells and "×2" not in cells
    assert f"printed {datetime.date.today().isoformat()}" in text
