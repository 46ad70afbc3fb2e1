"""Words and ids on the sheets (issue 35), read back with pdftotext: no bracketed setting
names in box detail, the key's word for a beaten knock is the one the box detail uses,
Parlett's totals and settlement cite its own P8 (P8 -> G8) and never Jersey's J16, and
one apostrophe on a page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.pdf import render_blank_pad

from . import games
from .reading import pdftotext


def _text(game: dict[str, Any], **options: Any) -> str:
    return " ".join(pdftotext(games.sheet_pdf(game, **options)).split())


def _tie_game() -> dict[str, Any]:
    """Marge knocks with 5; Sal ties her 5 and wins the box: a tie goes to the defender."""
    return {
        "rules": "jersey-scarne",
        "players": ["Marge", "Sal", "Tom"],
        "dealer": "Marge",
        "boxes": [
            {"ending": "knock", "by": "Marge", "hands": games.counts(Marge=5, Sal=5, Tom=20)},
            {"ending": "knock", "by": "Sal", "hands": games.counts(Marge=12, Sal=3, Tom=9)},
        ],
    }


def test_box_detail_says_a_setting_in_words_without_its_bracketed_name() -> None:
    text = _text(_tie_game(), detail=True)
    assert "a tie goes to the defender" in text
    assert "(tie goes to defender)" not in text and "tie_goes" not in text
    assert not re.search(r"\([a-z]+(?: [a-z]+)+\)\s*$", text)


def test_one_apostrophe_on_a_page() -> None:
    text = _text(_tie_game(), detail=True)
    assert "Marge’s count" in text
    assert "'s" not in text


@pytest.mark.parametrize(
    ("players", "word"), [(["Ann", "Bob"], "undercut"), (["Ann", "Bob", "Cal"], "underknock")]
)
def test_the_knock_rummy_key_uses_the_word_of_its_box_detail(players: list[str], word: str) -> None:
    game = {
        "rules": "knock-rummy",
        "players": players,
        "dealer": "Ann",
        "boxes": [games.knock("Ann", {**{p: 20 for p in players}, "Ann": 6, "Bob": 2})],
    }
    text = _text(game, detail=True)
    assert f"U {word}" in text  # the key
    assert f"by an {word}" in text  # the box detail
    other = {"undercut": "underknock", "underknock": "undercut"}[word]
    assert other not in text


@pytest.mark.parametrize(("players", "word"), [(2, "undercut"), (4, "underknock")])
def test_a_knock_rummy_pad_keys_its_bonus_in_the_word_of_its_legend(players: int, word: str) -> None:
    # A pad for four said "U underknock" in its legend and "Undercut bonus 10" in its key
    # numbers, in the title and up the margin (issue 35's review).
    said = " ".join(pdftotext(render_blank_pad("knock-rummy", players=players)).split())
    other = {"undercut": "underknock", "underknock": "undercut"}[word]
    assert f"U {word}" in said
    assert said.count(f"{word.capitalize()} bonus 10") >= 2  # the title and the margin
    assert other not in said.lower()


def test_parletts_pad_names_the_undercut_knocker_in_the_word_of_its_legend() -> None:
    # Parlett's pad keyed "Undercut knocker −20" beside its legend's "U underknock" and its
    # sheets' "Ann was underknocked and loses 20" (issue 35's review).
    said = " ".join(pdftotext(render_blank_pad("three-hand-parlett")).split())
    assert "U underknock" in said
    assert said.count("Underknocked knocker −20") >= 2  # the title and the margin
    assert "undercut" not in said.lower()


def test_parlett_cites_its_own_rules_for_totals_and_settlement() -> None:
    text = _text(games.preset_game("three-hand-parlett"))
    assert "J16" not in text and "J14" not in text and "J15" not in text
    game = {**games.preset_game("three-hand-parlett"), "ended": "agreed"}  # settled as it stands
    ended = _text(game)
    assert "P8" in ended and "J16" not in ended
