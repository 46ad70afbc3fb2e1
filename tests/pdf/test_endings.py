"""Every kind of box and game state prints: empty, void, break, penalty, doubling, open games."""

from __future__ import annotations

from typing import Any

from scorekeeper import engine

from . import games
from .reading import contains_run, flat, lines

SEATS = ["Ann", "Bob", "Cal"]


def sheet(game: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    score = engine.score(game)
    return score, lines(games.sheet_pdf(game, score))


def test_a_game_without_boxes_is_a_ruled_empty_sheet() -> None:
    score, cells = sheet({"rules": "jersey-scarne", "players": SEATS, "dealer": "Ann", "boxes": []})
    assert "No boxes yet" in cells
    assert "Standing after 0 boxes" in cells
    assert contains_run(cells, ["Credits", "0", "0", "0"])
    assert score["next_dealer"] == "Ann" and "Game to 100. Next dealer: Ann." in cells


def test_parlett_undercut_knocker_penalty_and_a_draw() -> None:
    game = {
        "rules": "three-hand-parlett",
        "players": SEATS,
        "dealer": "Ann",
        "boxes": [games.knock("Ann", {"Ann": 8, "Bob": 5, "Cal": 30}), {"ending": "draw"}],
    }
    score, cells = sheet(game)
    assert score["boxes"][0]["penalties"] == {"Ann": 20}
    # Ann's box cell shows the penalty with a real minus sign; Bob's credit is his alone.
    points = score["boxes"][0]["points"]
    assert contains_run(
        cells, ["1", "Ann", "U", "Bob", "8ᵏ", "−20", "−20", "5", str(points), str(points), "30", "0"]
    )
    assert contains_run(cells, ["2", "Bob", "–", "draw", "−20", str(points), "0"])


def test_doubling_shows_the_multiplier() -> None:
    game = {
        "rules": "doubling",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "boxes": [{**games.knock("Ann", {"Ann": 3, "Bob": 20}), "multiplier": 2}],
    }
    score, cells = sheet(game)
    assert contains_run(cells, ["Hand", "Dealer", "How", "Won by", "×"])
    assert contains_run(cells, ["1", "Ann", "K", "Ann", "×2", "3ᵏ", str(score["boxes"][0]["points"])])


def test_break_and_gin_after_the_break() -> None:
    game = {
        "rules": "jersey-scarne",
        "players": SEATS,
        "dealer": "Ann",
        "boxes": [
            {"ending": "break", "by": "Bob", "hands": games.counts(Ann=12, Bob=9, Cal=30)},
            {"ending": "gin", "after_break": True, "by": "Cal", "hands": games.counts(Ann=12, Bob=9, Cal=0)},
        ],
    }
    score, cells = sheet(game)
    assert [b["result"] for b in score["boxes"]] == ["break", "break-gin"]
    assert contains_run(cells, ["1", "Ann", "B", "Bob"])
    assert contains_run(cells, ["2", "Bob", "BG", "Cal"])


def test_hollywood_in_progress_has_open_games_and_no_final_totals() -> None:
    game = games.hollywood_game()
    game = {**game, "boxes": game["boxes"][:3]}
    score, cells = sheet(game)
    assert not score["game_over"]
    assert contains_run(cells, ["Game 1 · open", "Game 2 · open", "Game 3 · open", "All games"])
    assert "Final total" not in cells
    text = " ".join(cells)
    assert f"3 hands; in progress, {score['next_dealer']} deals next" in text


def test_notes_print_with_their_box_even_without_detail() -> None:
    game = {
        "rules": "gin",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "boxes": [{**games.knock("Ann", {"Ann": 3, "Bob": 20}), "note": "Bob <misdealt> & redealt ♥"}],
    }
    score = engine.score(game)
    text = flat(games.sheet_pdf(game, score, detail=False))
    assert "1* Ann K Ann 3ᵏ 17 17 20 0 1* Bob <misdealt> & redealt ♥ Standing" in text
    assert contains_run(lines(games.sheet_pdf(game, score)), ["1*", "Ann", "K", "Ann"])
    assert "1* Bob <misdealt> & redealt ♥" in flat(games.sheet_pdf(game, score, detail=True))
