"""Games for the PDF tests, written the way CONTRACT.md writes them, scored by the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper import engine
from scorekeeper.engine.contract import GameEntry, Sheet
from scorekeeper.pdf import render_sheet

JERSEY = ["Ann", "Bob", "Cal"]
HOSTILE = '<b>Dan</b> & "Eve" <font size=40>'
"""A name that is also markup: it must print as typed, never be read as markup."""
CYRILLIC = "Бори́с Пастерна́к"
GREEK = "Ζωή Παπαδοπούλου"
ACCENTED = "Zoë Ångström-Šťastná"
LONG = "Maximiliano Hohenzollern-Sigmaringen III"


def typed(game: Mapping[str, Any], score: Mapping[str, Any] | None = None) -> tuple[GameEntry, Sheet]:
    """A game written as CONTRACT.md writes it, and its score (the engine's unless given),
    as the typed values the PDF package takes."""
    return GameEntry.from_json(game), Sheet.from_json(score or engine.score(game))


def sheet_pdf(game: Mapping[str, Any], score: Mapping[str, Any] | None = None, **options: Any) -> bytes:
    """``render_sheet`` of a game written as JSON (:func:`typed`)."""
    return render_sheet(*typed(game, score), **options)


def counts(**hands: int) -> dict[str, Any]:
    return {player: {"count": count} for player, count in hands.items()}


def knock(by: str, hands: dict[str, int]) -> dict[str, Any]:
    return {"ending": "knock", "by": by, "hands": counts(**hands)}


def gin(by: str, hands: dict[str, int]) -> dict[str, Any]:
    return {"ending": "gin", "by": by, "hands": counts(**hands, **{by: 0})}


def cards_box(by: str, second: str, third: str) -> dict[str, Any]:
    """CONTRACT.md's box: the knocker's cards, the next hand as laid, the third a count."""
    return {
        "ending": "knock",
        "by": by,
        "hands": {
            by: {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]},
            second: {
                "melds": [["KH", "KC", "KS"]],
                "deadwood": ["AH", "AD", "2C", "2H", "3D", "4H"],
                "layoffs": [{"card": "4S", "onto": by}],
            },
            third: {"count": 14},
        },
    }


def jersey_boxes(number: int, players: list[str]) -> list[dict[str, Any]]:
    """A mix of knocks, gins, misdeals and boxes entered with cards, in turn round the table."""
    boxes: list[dict[str, Any]] = []
    for n in range(number):
        by = players[n % 3]
        second, third = (players[(n + 1) % 3], players[(n + 2) % 3])
        kind = n % 7
        if kind == 3:
            boxes.append(gin(by, {second: 10 + n % 23, third: 5 + n % 31}))
        elif kind == 5:
            boxes.append(cards_box(by, second, third))
        elif kind == 6:
            boxes.append({"ending": "misdeal"})
        else:
            boxes.append(knock(by, {by: 1 + n % 9, second: 12 + n % 27, third: 11 + n % 19}))
    return boxes


def jersey_game(
    number: int = 40, *, players: list[str] | None = None, ended: bool = True, stake: float | None = 0.05
) -> dict[str, Any]:
    """A Jersey Gin game of ``number`` boxes; when ``ended``, its target is set so that the
    last box ends it (the winner of that box passes everyone's total before it)."""
    seats = players or JERSEY
    game: dict[str, Any] = {
        "rules": "jersey-scarne",
        "settings": {"game_target": 100000},
        "players": seats,
        "dealer": seats[0],
        "boxes": jersey_boxes(number, seats),
    }
    if stake is not None:
        game["stake"] = stake
    if ended:
        before = engine.score({**game, "boxes": game["boxes"][:-1]})
        last = engine.score(game)["boxes"][-1]
        winner = last["winner"]
        assert winner is not None and last["totals"][winner] > max(before["totals"].values())
        game["settings"] = {"game_target": last["totals"][winner]}
    return game


def hollywood_game() -> dict[str, Any]:
    """Two players, box after box until all three games are closed; box 5 has cards."""
    wins = ["Ann", "Ann", "Bob", "Bob", "Bob", "Bob", "Ann", "Bob", "Ann", "Bob", "Ann", "Ann"]
    game: dict[str, Any] = {
        "rules": "hollywood",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "stake": 0.1,
        "boxes": [],
    }
    for n in range(60):
        winner = wins[n % len(wins)]
        loser = "Bob" if winner == "Ann" else "Ann"
        box = knock(winner, {winner: 1 + n % 9, loser: 14 + n % 11})
        if n == 4:
            box = {
                "ending": "gin",
                "by": "Bob",
                "hands": {
                    "Bob": {"cards": ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "9D", "10D", "JD"]},
                    "Ann": {"cards": ["KH", "KC", "KS", "5C", "6C", "8C", "8H", "2D", "3H", "AD"]},
                },
            }
        game["boxes"].append(box)
        if engine.score(game)["game_over"]:
            return game
    raise AssertionError("the Hollywood games never closed")


def knock_rummy_game(players: list[str]) -> dict[str, Any]:
    """Five players of Knock Rummy, still in progress after ten boxes."""
    boxes = []
    for n in range(10):
        by = players[n % len(players)]
        hands = {p: 8 + (n * 7 + seat * 5) % 30 for seat, p in enumerate(players)}
        hands[by] = n % 4
        boxes.append(knock(by, hands))
    return {
        "rules": "knock-rummy",
        "settings": {"game_target": 5000},
        "players": players,
        "dealer": players[0],
        "boxes": boxes,
    }


def gin_shutout_game(first: str, second: str) -> dict[str, Any]:
    """Two-hand Gin: ``first`` wins every box, ``second`` is shut out (G8)."""
    return {
        "rules": "gin",
        "players": [first, second],
        "dealer": first,
        "stake": 0.25,
        "boxes": [knock(first, {first: 5, second: 30}), gin(first, {second: 70})],
    }


def preset_game(preset: str) -> dict[str, Any]:
    """A short game of any preset with each kind of box: a knock, a gin, a misdeal with a
    note, an undercut, a box entered with cards; Oklahoma's upcards, a doubled box."""
    rules = engine.find_rules(preset)
    if rules.hollywood:
        return hollywood_game()
    seats = ["Ann", "Bob", "Cal", "Dee"][
        : max(rules.min_players, 3 if preset == "knock-rummy" else rules.min_players)
    ]
    first, second = seats[0], seats[1]
    others = {p: 8 + 2 * n for n, p in enumerate(seats)}
    boxes: list[dict[str, Any]] = [
        knock(first, {**others, first: 3}),
        gin(second, {p: c for p, c in others.items() if p != second}),
        {"ending": "misdeal", "note": "Bob showed the 7♥"},
        knock(first, {**others, first: 6, second: 4}),
        {
            "ending": "gin",
            "by": second,
            "hands": {
                second: {"cards": ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "9D", "10D", "JD"]},
                first: {"cards": ["KH", "KC", "KS", "5C", "6C", "8C", "8H", "2D", "3H", "AD"]},
            },
        }
        if len(seats) == 2
        else cards_box(first, second, seats[2]),
    ]
    if rules.family == "knock-rummy":  # seven cards a hand for three: counts only
        boxes[4] = knock(second, {**others, second: 2})
    if rules.knock_limit_from != "fixed":
        for box, upcard in zip(boxes, ["7S", "KH", None, "9D", "QC"], strict=True):
            if upcard:
                box["upcard"] = upcard
    if rules.doubling:
        boxes[3]["multiplier"] = 2
    return {"rules": preset, "players": seats, "dealer": first, "stake": 0.05, "boxes": boxes}


EVENING = ["Margarethe Johansson", "Bartholomew Ingalls", "Constance Whitfield"]
"""Three ordinary full names of 20, 19 and 19 characters (issue 35's evening)."""


def evening_game(number: int = 15, players: list[str] | None = None, currency: str = "USD") -> dict[str, Any]:
    """An evening's Jersey game of ``number`` boxes that its last box ends (a gin by the
    leader), with a stake in ``currency``: the whole sheet, end tables and settlement."""
    seats = players or EVENING
    boxes = jersey_boxes(number - 1, seats)
    endless = {"game_target": 100000}
    before = engine.score(
        {"rules": "jersey-scarne", "settings": endless, "players": seats, "dealer": seats[0], "boxes": boxes}
    )
    leader = max(seats, key=lambda p: before["totals"][p])
    boxes.append(gin(leader, {p: 25 for p in seats if p != leader}))
    game: dict[str, Any] = {
        "rules": "jersey-scarne",
        "players": seats,
        "dealer": seats[0],
        "stake": 0.05,
        "currency": currency,
        "boxes": boxes,
        "settings": endless,
    }
    game["settings"] = {"game_target": engine.score(game)["totals"][leader]}
    return game
