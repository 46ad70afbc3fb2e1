"""Games and players' records as files to take away: CSV (one row per box) and JSON
(CONTRACT.md's game and score, with the record's figures). Standard library only, on
the contract's values, so the web and the command line write the same files.

>>> from scorekeeper.engine.contract import GameEntry, Sheet, SheetBox, BoxEntry
>>> game = GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann",
...     boxes=(BoxEntry(ending="knock", by="Ann"),))
>>> sheet = Sheet(totals={"Ann": 9, "Bob": 0}, boxes=(SheetBox(result="knock",
...     winner="Ann", points=9, credits={"Ann": 9, "Bob": 0}, counts={"Ann": 1, "Bob": 10},
...     dealer="Ann"),))
>>> text = box_csv([Exported("g1", date(2026, 11, 1), game, sheet)])
>>> text.startswith(BOM)
True
>>> print(text.removeprefix(BOM), end="")
date,game,rules,hand,dealer,ending,result,by,winner,points,player 1,count 1,credit 1,player 2,count 2,credit 2
2026-11-01,g1,gin,1,Ann,knock,knock,Ann,Ann,9,Ann,1,9,Bob,10,0
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from .engine.contract import GameEntry, Sheet
from .engine.event import EventEntry, Standing, TableResult, table_points
from .engine.event.breakdown import ScoreLine, score_lines, total, who_pays
from .engine.vocabulary import shared_deal_word
from .records import KIND_ORDER, Figures, Record

COLUMNS = ("date", "game", "rules", "box", "dealer", "ending", "result", "by", "winner", "points")
SEAT_COLUMNS = ("player", "count", "credit")
BOM = "\ufeff"
"""Begins every CSV file: spreadsheets then read it as UTF-8 (李雷, not mojibake)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, CSV injection)."""


@dataclass(frozen=True)
class Exported:
    """One game to export: its id, day, the game as entered and the engine's sheet."""

    id: str
    day: date
    game: GameEntry
    sheet: Sheet


def box_rows(games: Sequence[Exported]) -> Iterator[list[str | int]]:
    """The heading, then one row per box (a misdeal too: it is on the sheet), every
    seat's name, count and credit at the end; seats as many as the largest table."""
    seats = max((len(g.game.players) for g in games), default=0)
    deal = shared_deal_word(g.game.rules for g in games) if games else "box"
    yield [
        *(deal if column == "box" else column for column in COLUMNS),
        *(f"{column} {n}" for n in range(1, seats + 1) for column in SEAT_COLUMNS),
    ]
    for game in games:
        for number, (entry, box) in enumerate(zip(game.game.boxes, game.sheet.boxes, strict=True), start=1):
            row: list[str | int] = [
                game.day.isoformat(),
                game.id,
                game.game.rules,
                number,
                box.dealer or "",
                entry.ending,
                box.result,
                entry.by or "",
                box.winner or "",
                box.points,
            ]
            for player in game.game.players:
                count = box.counts.get(player)
                row += [player, "" if count is None else count, box.credits.get(player, 0)]
            yield row


def inert(value: str | int | float) -> str | int | float:
    """A cell a spreadsheet shows as written: text that would start a formula gets a
    leading single quote (OWASP's advice on CSV injection); numbers are left numbers,
    so a negative credit stays a number.

    >>> inert("=1+2"), inert("@SUM(A1)"), inert("-Bob"), inert("Ann"), inert(-5)
    ("'=1+2", "'@SUM(A1)", "'-Bob", 'Ann', -5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def box_csv(games: Sequence[Exported]) -> str:
    """:func:`box_rows` as CSV text, after a byte order mark, every text cell made
    :func:`inert` (the csv module quotes names with commas or quotes)."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([inert(cell) for cell in row] for row in box_rows(games))
    return out.getvalue()


def game_json(game: Exported) -> dict[str, Any]:
    """One game as the API's game resource has it: the game ``score`` takes, its score."""
    return {
        "id": game.id,
        "date": game.day.isoformat(),
        "game": game.game.to_json(),
        "score": game.sheet.to_json(),
    }


def figures_json(figures: Figures) -> dict[str, Any]:
    """A record's figures by name (the kinds in their usual order)."""
    return {
        "games": figures.games,
        "won": figures.won,
        "finished": figures.finished,
        "boxes": figures.boxes,
        "boxes_won": figures.boxes_won,
        "kinds": {kind: figures.kinds.get(kind, 0) for kind in KIND_ORDER},
        "credit": figures.credit,
        "average_credit": figures.average_credit,
        "biggest": None
        if figures.biggest is None
        else {
            "points": figures.biggest.points,
            "game": figures.biggest.game,
            "box": figures.biggest.number,
            "kind": figures.biggest.kind,
        },
        "longest_run": figures.longest_run,
        "shutouts_given": figures.shutouts_given,
        "shutouts_taken": figures.shutouts_taken,
        "settlement_points": figures.points,
        "money": figures.money,
    }


def record_json(record: Record, games: Sequence[Exported]) -> dict[str, Any]:
    """A player's whole record: the figures (overall and per preset) and every game."""
    presets: Mapping[str, Figures] = record.presets
    return {
        "player": record.name,
        "person": record.person,
        "figures": figures_json(record.overall),
        "presets": {name: figures_json(f) for name, f in presets.items()},
        "games": [game_json(game) for game in games],
    }


STANDING_COLUMNS = (
    "rank",
    "player",
    "score",
    "games",
    "won",
    "boxes",
    "byes",
    "penalty",
    "head_to_head",
    "withdrawn",
)


def event_rows(
    event: EventEntry, standings: Sequence[Standing], results: Sequence[TableResult]
) -> Iterator[list[str | int | float]]:
    """The heading, then one row per player in the order of the standings: the
    standing's figures, then for each round the table, the seat and the points the
    player scored there (empty for a bye or a round not played)."""
    rounds = range(1, max((s.round for s in event.seating), default=0) + 1)
    yield [
        *STANDING_COLUMNS,
        *(f"round {n} {what}" for n in rounds for what in ("table", "seat", "points")),
        "bye points",
        "penalties",
        "how the score is made",
    ]
    played: dict[tuple[str, int], tuple[int | str, int | str, float]] = {}
    for result in results:
        if not result.started:
            continue
        points = table_points(event, result)
        for seat, player in enumerate(result.players, start=1):
            played[player, result.round] = (result.table, seat, points[player])
    lines = score_lines(event, results)
    for line in (line for each in lines.values() for line in each if line.kind == "bye"):
        played.setdefault((_owner(lines, line), line.round or 0), ("bye", "", line.points))
    for standing in standings:
        body = standing.to_json()
        row: list[str | int | float] = [
            inert(body[c] if c != "withdrawn" else ("yes" if body[c] else "")) for c in STANDING_COLUMNS
        ]
        for n in rounds:
            found = played.get((standing.player, n))
            row += ["", "", ""] if found is None else [found[0], found[1], _plain_number(found[2])]
        mine = lines.get(standing.player, [])
        byes = sum(line.points for line in mine if line.kind == "bye")
        penalties = "; ".join(line.words() for line in mine if line.kind == "penalty")
        said = "; ".join(line.words() for line in mine)
        row += [_plain_number(byes), inert(penalties), inert(f"{said} = {_plain_number(total(mine))}")]
        yield row


def _owner(lines: Mapping[str, Sequence[ScoreLine]], line: ScoreLine) -> str:
    return next(p for p, mine in lines.items() if any(each is line for each in mine))


def event_csv(event: EventEntry, standings: Sequence[Standing], results: Sequence[TableResult]) -> str:
    """:func:`event_rows` as CSV text after a byte order mark, names made :func:`inert`
    as the games' CSV has them."""
    out = io.StringIO()
    out.write(BOM)
    csv.writer(out, lineterminator="\n").writerows(event_rows(event, standings, results))
    return out.getvalue()


def event_json(
    event_id: str, event: EventEntry, standings: Sequence[Standing], results: Sequence[TableResult]
) -> dict[str, Any]:
    """The event as CONTRACT.md has it (its settings, entrants, seating and games), its
    standings (each with how its score is made: every table's points, byes, penalties
    with their notes, adding up to the score) and every table's result (totals, boxes
    won, net points)."""
    lines = score_lines(event, results)
    pays = who_pays(results, event.stake) if event.stake else ()
    return {
        "id": event_id,
        "payments": [{"from": a, "to": b, "amount": amount} for a, b, amount in pays],
        "event": event.to_json(),
        "standings": [
            {**s.to_json(), "lines": [line.to_json() for line in lines.get(s.player, [])]} for s in standings
        ],
        "tables": [
            {
                "round": r.round,
                "table": r.table,
                "game": r.game,
                "players": list(r.players),
                "totals": dict(r.totals),
                "boxes_won": dict(r.boxes_won),
                "boxes": r.boxes,
                "over": r.over,
                "net": r.nets(),
                "points": {p: _plain_number(v) for p, v in table_points(event, r).items()},
            }
            for r in results
        ],
    }


def _plain_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 2)
