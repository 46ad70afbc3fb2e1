"""An event's tables as the standings read them: each table's result from its game's
stored summary (totals, boxes won, each player's net from the settlement), ranked by the
engine (:func:`scorekeeper.engine.event.standings`). No box is scored again: a
correction or a deletion rewrites the summary, so the standings stay right."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .engine.event import EventEntry, Standing, TableResult
from .engine.event import standings as rank
from .engine.substitutes import Substitute, counted_for, read_substitutes
from .engine.summary import Summary

NO_BOX = "misdeal"
"""A misdeal is no box: not counted, and it neither makes nor breaks a run."""


class TableSummary(Protocol):
    """A table's game as the store keeps it for the standings: its round and table,
    its players in seat order and its stored summary."""

    @property
    def round(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def game_id(self) -> str: ...
    @property
    def players(self) -> list[str]: ...
    @property
    def summary(self) -> dict[str, Any]: ...
    @property
    def substitutes(self) -> list[dict[str, Any]] | None: ...


def counted_result(game: TableSummary) -> TableResult:
    """:func:`table_result` as the standings count it: a seat whose result the director
    gave to its substitute (E5) is the substitute's in every figure."""
    return counted(table_result(game), read_substitutes(game.substitutes))


def counted(result: TableResult, substitutes: Sequence[Substitute]) -> TableResult:
    """The result with each seat under the player it counts for (E5): the seat's own
    name unless the director named its substitute."""
    names = counted_for(result.players, substitutes)
    if all(seat == name for seat, name in names.items()):
        return result

    def renamed(values: Mapping[str, int]) -> dict[str, int]:
        return {names.get(p, p): v for p, v in values.items()}

    return dataclasses.replace(
        result,
        players=tuple(names[p] for p in result.players),
        totals=renamed(result.totals),
        boxes_won=renamed(result.boxes_won),
        winner=names.get(result.winner, result.winner) if result.winner else None,
        net=renamed(result.net),
        paid=renamed(result.paid),
    )


def table_result(game: TableSummary) -> TableResult:
    """What the standings read of one table's stored summary, seat by seat: the totals
    (final once over), boxes won, and each seat's net from the settlement (while a game
    paid box by box plays, from its payments so far: K5)."""
    summary = Summary.read(game.summary)
    record_ = summary.record
    boxes = record_.boxes if record_ else ()
    won = Counter(box[1] for box in boxes if box[1] is not None and box[0] != NO_BOX)
    net: dict[str, int] = dict.fromkeys(game.players, 0)
    for payment in record_.settlement if record_ else ():
        net[payment["from"]] = net.get(payment["from"], 0) - payment["points"]
        net[payment["to"]] = net.get(payment["to"], 0) + payment["points"]
    over = summary.game_over
    return TableResult(
        game.round,
        game.table,
        tuple(game.players),
        dict(summary.standing_totals),
        dict(won),
        over,
        summary.winner,
        net if over else {},
        summary.boxes or 0,
        game.game_id,
        {} if over else dict(summary.paid),
    )


def standings(
    event: EventEntry, games: Iterable[TableSummary], *, withdrawn: Sequence[str] = ()
) -> tuple[Standing, ...]:
    """The event's standings from its games' stored summaries (not a rescoring of every
    box: a correction or a deletion rewrites the summary, so they stay right)."""
    return rank(event, [counted_result(game) for game in games], withdrawn=withdrawn)
