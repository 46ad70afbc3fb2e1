"""Hollywood's games side by side, and a two-hand game with a shutout."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import engine

from . import games
from .conftest import DATE
from .reading import contains_run, flat, lines

Game = tuple[dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module")
def hollywood() -> Game:
    game = games.hollywood_game()
    return game, engine.score(game)


@pytest.fixture(scope="module")
def hollywood_pdf(hollywood: Game) -> bytes:
    game, score = hollywood
    return games.sheet_pdf(game, score, created=DATE)


def test_hollywood_entries_go_in_the_games_they_were_entered_in(
    hollywood: Game, hollywood_pdf: bytes
) -> None:
    _, score = hollywood
    cells = lines(hollywood_pdf)
    assert contains_run(cells, ["Game 1", "Game 2", "Game 3"])
    for number, box in enumerate(score["boxes"], start=1):
        winner = box["winner"]
        counts = [f"{box['counts'][p]}{'ᵏ' if p == box['by'] else ''}" for p in ("Ann", "Bob")]
        row = [
            str(number),
            box["dealer"],
            "K" if box["result"] == "knock" else "G",
            winner,
            *counts,
            str(box["points"]),
        ]
        row += [str(box["column_totals"][column - 1][winner]) for column in box["columns"]]
        assert contains_run(cells, row), number


def test_hollywood_foot_sums_each_game_and_all_of_them(hollywood: Game, hollywood_pdf: bytes) -> None:
    _, score = hollywood
    cells = lines(hollywood_pdf)
    summaries = [*score["games"], score]
    assert contains_run(cells, ["Game 1 · closed", "Game 2 · closed", "Game 3 · closed", "All games"])
    assert contains_run(
        cells, ["Final total", *[str(s["final_totals"][p]) for s in summaries for p in ("Ann", "Bob")]]
    )
    assert contains_run(cells, ["Credits", *[str(s["totals"][p]) for s in summaries for p in ("Ann", "Bob")]])


def test_hollywood_settlement_per_game_and_net(hollywood: Game, hollywood_pdf: bytes) -> None:
    _, score = hollywood
    cells = lines(hollywood_pdf)
    for number, summary in enumerate(score["games"], start=1):
        for payment in summary["settlement"]:
            assert contains_run(
                cells,
                [
                    f"Game {number}",
                    payment["from"],
                    payment["to"],
                    str(payment["points"]),
                    f"{payment['amount']:.2f}",
                ],
            )
    (net,) = score["settlement"]
    assert contains_run(cells, ["Net", net["from"], net["to"], str(net["points"]), f"{net['amount']:.2f}"])


def test_hollywood_box_with_cards_has_its_detail(hollywood_pdf: bytes) -> None:
    text = flat(hollywood_pdf)
    assert "Hand 5 · Ann dealt · G Bob won by gin" in text
    assert "A♠ 2♠ 3♠ 4♠" in text


def test_two_hand_shutout_doubles_the_debt() -> None:
    game = games.gin_shutout_game("Ann", "Bob")
    score = engine.score(game)
    cells = lines(games.sheet_pdf(game, score))
    assert score["shutouts"] == ["Bob"]
    assert contains_run(cells, ["Shut out", "shut out"])
    assert contains_run(cells, ["Final total", str(score["final_totals"]["Ann"]), "0"])
    assert contains_run(cells, ["Bob", "Ann", "540", "135.00"])
