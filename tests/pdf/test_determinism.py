"""Same game, same bytes: ReportLab's invariant mode, nothing left over between renders."""

from __future__ import annotations

from typing import Any

from scorekeeper.pdf import render_blank_pad

from . import games
from .conftest import DATE


def test_two_renders_are_equal_byte_for_byte(
    jersey: tuple[dict[str, Any], dict[str, Any]], jersey_pdf: bytes
) -> None:
    game, score = jersey
    other = games.knock_rummy_game(["Ann", games.CYRILLIC, games.GREEK])
    games.sheet_pdf(other)  # another document in between, other glyphs
    assert games.sheet_pdf(game, score, created=DATE) == jersey_pdf


def test_blank_pads_are_deterministic() -> None:
    assert render_blank_pad("hollywood") == render_blank_pad("hollywood")


def test_the_date_printed_is_the_only_thing_that_changes_the_bytes(
    jersey: tuple[dict[str, Any], dict[str, Any]], jersey_pdf: bytes
) -> None:
    game, score = jersey
    undated = games.sheet_pdf(game, score)
    assert undated != jersey_pdf
    assert undated == games.sheet_pdf(game, score)
