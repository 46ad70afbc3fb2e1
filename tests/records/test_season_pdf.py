"""A player's season on paper, read back with pypdf (the figures of :mod:`.games`)."""

from __future__ import annotations

import io
import re
import unicodedata
from datetime import UTC, date, datetime
from typing import Any

from pypdf import PdfReader
from sqlalchemy.orm import Session

from scorekeeper import engine, records
from scorekeeper.engine.contract import GameEntry, Sheet
from scorekeeper.ledger import players
from scorekeeper.pdf import render_season


def _text(body: bytes) -> str:
    reader = PdfReader(io.BytesIO(body))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def test_the_season_prints_the_figures_and_every_game(db: Session, ids: list[str]) -> None:
    games = [g for g in players.played(db) if g.day.year == 2026]
    record = records.record("ann", games)
    found = records.results_chart(["ann"], games, {"ann": record.name})
    body = render_season(record, 2026, found)
    assert body.startswith(b"%PDF")
    text = _text(body)
    assert text.startswith("Ann: season 2026")  # the name last played under (game C)
    assert "3 games, 2026-10-01 to 2026-11-20" in text
    assert "Games played 3" in text and "Games won 1" in text
    # Jersey and Gin games: a deal is called by the neutral word (issue 21); the biggest
    # one is named as its own sheet numbers it (issue 26)
    assert "Deals won (of deals played) 5 of 8" in text
    assert "Average credit per deal won 31.6" in text
    assert "Biggest deal 90 (gin, box 2 of 2026-10-01)" in text
    assert "Longest run of deals won 3" in text
    assert "Shutouts given 2" in text and "Shutouts taken 0" in text
    assert "Money won or lost +103.20" in text
    assert "knock undercut or underknock gin break gin after the break 2 1 1 1 0" in text
    assert "Jersey Gin (Scarne) 2 1 5 31.6 +103.20" in text
    assert "Points settled, game by game 0 1032 game 1 Ann 1032" in text
    assert "2026-11-05 Jersey Gin (Scarne) ANN 50 · Dan 37 · bob 0 in progress" in text
    assert "2026-10-01 Jersey Gin (Scarne) Ann 258 · Bob 0 · Cal 0 Ann" in text
    assert "jersey-scarne" not in text  # the rule set in words


def test_an_empty_season_says_so(db: Session, ids: list[str]) -> None:
    record = records.record("ann", [g for g in players.played(db) if g.day < date(2000, 1, 1)])
    body = render_season(record, 1999, records.results_chart(["ann"], []))
    assert "No game counted in this season." in _text(body)


def _played(game: dict[str, Any], day: date, game_id: str) -> records.Played:
    entry = GameEntry.from_json(game)
    return records.Played(
        game_id,
        day,
        entry.rules,
        entry.players,
        tuple(records.fold(p) for p in entry.players),
        entry.stake,
        Sheet.from_json(engine.score(game)),
    )


NAMES = ["محمد العربي", "דוד כהן", "李雷"]


def test_names_in_every_script_money_with_currency_print_time_and_version() -> None:
    game = {
        "rules": "jersey-scarne",
        "players": NAMES,
        "dealer": NAMES[0],
        "stake": 0.1,
        "boxes": [
            {"ending": "misdeal"},
            {
                "ending": "gin",
                "by": NAMES[0],
                "hands": {NAMES[0]: {"count": 0}, NAMES[1]: {"count": 30}, NAMES[2]: {"count": 20}},
            },
            {
                "ending": "knock",
                "by": NAMES[1],
                "hands": {NAMES[0]: {"count": 14}, NAMES[1]: {"count": 4}, NAMES[2]: {"count": 10}},
            },
        ],
    }
    played = [_played(game, date(2026, 3, 1), "g1")]
    person = records.fold(NAMES[0])
    record = records.record(person, played)
    body = render_season(
        record,
        2026,
        records.results_chart([person], played, {person: record.name}),
        currency="EUR",
        printed=datetime(2026, 11, 26, 12, 5, tzinfo=UTC),
        app_version="9.9",
    )
    pages = [
        re.sub(r"\s+", "", unicodedata.normalize("NFKC", page.extract_text()))
        for page in PdfReader(io.BytesIO(body)).pages
    ]
    text = "".join(pages)
    squeezed = "".join(NAMES[0].split())
    # The title, the running order of the players' line and the footer, each name in
    # its own order (pypdf reads a right-to-left run back in reading order).
    assert text.startswith(f"{squeezed}:season2026")
    assert f"{squeezed}90·{''.join(NAMES[1].split())}16·李雷0" in text
    assert f"scorekeeper9.9·seasonsummaryof{squeezed}·printed2026-11-2612:05UTC" in text
    # The gin is the second deal but the first box: numbered as its sheet numbers it.
    assert "Biggestbox90(gin,box1of2026-03-01)" in text
    assert "Moneywonorlost" in text and "€" in text


def test_every_drawn_character_of_the_season_is_in_its_font(monkeypatch: Any) -> None:
    from tests.pdf.test_bidi import _drawn, _missing

    game = {
        "rules": "gin",
        "players": ["عبد الله", "😀 Zoë"],
        "dealer": "عبد الله",
        "boxes": [
            {
                "ending": "knock",
                "by": "عبد الله",
                "hands": {"عبد الله": {"count": 3}, "😀 Zoë": {"count": 20}},
            }
        ],
    }
    played = [_played(game, date(2026, 3, 1), "g1")]
    person = records.fold("عبد الله")
    record = records.record(person, played)
    seen = _drawn(monkeypatch)
    render_season(record, 2026, records.results_chart([person], played, {person: record.name}))
    assert seen and sorted(set(_missing(seen))) == []
