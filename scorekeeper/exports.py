"""Games and players' records as files to take away: CSV (one row per box) and JSON
(CONTRACT.md's game and score, with the record's figures). Standard library only, on
the contract's values, so the web and the command line write the same files.

>>> from scorekeeper.engine.contract import GameEntry, Sheet, SheetBox, BoxEntry
>>> game = GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann",
...     boxes=(BoxEntry(ending="knock", by="Ann"),))
>>> sheet = Sheet(totals={"Ann": 9, "Bob": 0}, boxes=(SheetBox(result="knock",
...     winner="Ann", points=9, credits={"Ann": 9, "Bob": 0}, counts={"Ann": 1, "Bob": 10},
...     dealer="Ann"),))
>>> print(box_csv([Exported("g1", date(2026, 11, 1), game, sheet)]), end="")
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
from .engine.vocabulary import shared_deal_word
from .records import KIND_ORDER, Figures, Record

COLUMNS = ("date", "game", "rules", "box", "dealer", "ending", "result", "by", "winner",
           "points")
SEAT_COLUMNS = ("player", "count", "credit")


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
    yield [*(deal if column == "box" else column for column in COLUMNS),
           *(f"{column} {n}" for n in range(1, seats + 1) for column in SEAT_COLUMNS)]
    for game in games:
        for number, (entry, box) in enumerate(
                zip(game.game.boxes, game.sheet.boxes, strict=True), start=1):
            row: list[str | int] = [
                game.day.isoformat(), game.id, game.game.rules, number, box.dealer or "",
                entry.ending, box.result, entry.by or "", box.winner or "", box.points]
            for player in game.game.players:
                count = box.counts.get(player)
                row += [player, "" if count is None else count, box.credits.get(player, 0)]
            yield row


def box_csv(games: Sequence[Exported]) -> str:
    """:func:`box_rows` as CSV text (the csv module quotes names with commas or quotes)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(box_rows(games))
    return out.getvalue()


def game_json(game: Exported) -> dict[str, Any]:
    """One game as the API's game resource has it: the game ``score`` takes, its score."""
    return {"id": game.id, "date": game.day.isoformat(), "game": game.game.to_json(),
            "score": game.sheet.to_json()}


def figures_json(figures: Figures) -> dict[str, Any]:
    """A record's figures by name (the kinds in their usual order)."""
    return {
        "games": figures.games, "won": figures.won, "finished": figures.finished,
        "boxes": figures.boxes, "boxes_won": figures.boxes_won,
        "kinds": {kind: figures.kinds.get(kind, 0) for kind in KIND_ORDER},
        "credit": figures.credit, "average_credit": figures.average_credit,
        "biggest": None if figures.biggest is None else {
            "points": figures.biggest.points, "game": figures.biggest.game,
            "box": figures.biggest.number, "kind": figures.biggest.kind},
        "longest_run": figures.longest_run, "shutouts_given": figures.shutouts_given,
        "shutouts_taken": figures.shutouts_taken, "settlement_points": figures.points,
        "money": figures.money,
    }


def record_json(record: Record, games: Sequence[Exported]) -> dict[str, Any]:
    """A player's whole record: the figures (overall and per preset) and every game."""
    presets: Mapping[str, Figures] = record.presets
    return {"player": record.name, "person": record.person,
            "figures": figures_json(record.overall),
            "presets": {name: figures_json(f) for name, f in presets.items()},
            "games": [game_json(game) for game in games]}
