"""A player's season on paper, read back with pypdf (the figures of :mod:`.games`)."""

from __future__ import annotations

import io
from datetime import date

from pypdf import PdfReader
from sqlalchemy.orm import Session

from scorekeeper import records, tally
from scorekeeper.pdf import render_season


def _text(body: bytes) -> str:
    reader = PdfReader(io.BytesIO(body))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def test_the_season_prints_the_figures_and_every_game(db: Session, ids: list[str]) -> None:
    games = [g for g in tally.played(db) if g.day.year == 2026]
    record = records.record("ann", games)
    found = records.results_chart(["ann"], games, {"ann": record.name})
    body = render_season(record, 2026, found)
    assert body.startswith(b"%PDF")
    text = _text(body)
    assert text.startswith("Ann: season 2026")  # the name last played under (game C)
    assert "3 games, 2026-10-01 to 2026-11-20" in text
    assert "Games played 3" in text and "Games won 1" in text
    # Jersey and Gin games: a deal is called by the neutral word (issue 21)
    assert "Deals won (of deals played) 5 of 8" in text
    assert "Average credit per deal won 31.6" in text
    assert "Biggest deal 90 (gin, deal 2)" in text
    assert "Longest run of deals won 3" in text
    assert "Shutouts given 2" in text and "Shutouts taken 0" in text
    assert "Money won or lost 103.20" in text
    assert "knock undercut or underknock gin break gin after the break 2 1 1 1 0" in text
    assert "jersey-scarne 2 1 5 31.6 103.20" in text
    assert "Points settled, game by game 0 1032 game 1 Ann 1032" in text
    assert "2026-11-05 jersey-scarne ANN 50 · Dan 37 · bob 0 in progress" in text
    assert "2026-10-01 jersey-scarne Ann 258 · Bob 0 · Cal 0 Ann" in text


def test_an_empty_season_says_so(db: Session, ids: list[str]) -> None:
    record = records.record("ann", [g for g in tally.played(db) if g.day < date(2000, 1, 1)])
    body = render_season(record, 1999, records.results_chart(["ann"], []))
    assert "No game counted in this season." in _text(body)
