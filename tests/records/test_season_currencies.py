"""A season whose games are played for dollars, euros and no unit: one total per currency
(issue 35), read back from the season's PDF."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from scorekeeper import records
from scorekeeper.ledger.players import played
from scorekeeper.pdf import render_season
from tests.pdf.reading import flat, pdftotext_lines

from .games import GAME_A, stored


def _at(currency: str | None, started: str) -> dict[str, Any]:
    """GAME_A (Bob and Cal each pay Ann 51.60 at 0.10 a point) in ``currency``."""
    game = {**GAME_A, "started": started}
    if currency is not None:
        game["currency"] = currency
    return game


def test_a_season_in_three_currencies_prints_one_total_per_currency(
    migrated: Any,
) -> None:
    from scorekeeper import store

    with store.opened(migrated("currencies.sqlite3")) as db:
        _season(db)


def _season(db: Session) -> None:
    stored(
        db,
        _at("USD", "2026-10-01T20:00"),
        _at("€", "2026-10-02T20:00"),  # a symbol, as a player writes it: kept as EUR
        _at(None, "2026-10-03T20:00"),
        _at("usd", "2026-10-04T20:00"),
    )
    games = played(db)
    assert sorted(g.currency for g in games) == ["", "EUR", "USD", "USD"]
    record = records.record("ann", games)
    assert record.overall.money_by_currency == {"USD": 206.4, "EUR": 103.2, "": 103.2}
    pdf = render_season(record, 2026, records.results_chart(["ann"], games, {"ann": "Ann"}))
    text = flat(pdf)
    assert "Money won or lost +$206.40 · +€103.20 · +103.20" in text
    # Never the four games' money added into one figure with no unit.
    assert "412.80" not in text
    assert "Jersey Gin (Scarne) 4 4 8 " in text and "+$206.40 · +€103.20 · +103.20" in text
    # By rule set, a line a currency in the money column: on one line the three totals ran
    # over the average credit beside them ("+€103.2054.0", issue 35's review).
    lines = pdftotext_lines(pdf, layout=True)
    row = next(n for n, line in enumerate(lines) if line.startswith("Jersey Gin (Scarne)"))
    assert lines[row].split()[3:] == ["4", "4", "8", "54.0", "+$206.40"], lines[row]
    assert lines[row + 1].split() == ["+€103.20"] and lines[row + 2].split() == ["+103.20"]
