"""An event's tables as the standings read them: each table's result from its game's
stored summary (totals, boxes won, each player's net from the settlement), ranked by the
engine (:func:`scorekeeper.engine.event.standings`). No box is scored again: a
correction or a deletion rewrites the summary, so the standings stay right."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .engine.event import EventEntry, Standing, TableResult
from .engine.event import standings as rank

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


def table_result(game: TableSummary) -> TableResult:
    """What the standings read of one table's stored summary: the totals (final once
    over), boxes won, and each player's net from the settlement (while a game paid box
    by box plays, from its payments so far: K5)."""
    summary = game.summary
    over = bool(summary.get("game_over"))
    totals = (summary.get("final_totals") if over else None) or summary.get("totals") or {}
    record_ = summary.get("record") or {}
    won = Counter(box[1] for box in record_.get("boxes", []) if box[1] is not None and box[0] != NO_BOX)
    net: dict[str, int] = dict.fromkeys(game.players, 0)
    for payment in record_.get("settlement", []):
        net[payment["from"]] = net.get(payment["from"], 0) - payment["points"]
        net[payment["to"]] = net.get(payment["to"], 0) + payment["points"]
    paid = {} if over else {p: int(n) for p, n in (summary.get("paid") or {}).items()}
    return TableResult(
        game.round,
        game.table,
        tuple(game.players),
        dict(totals),
        dict(won),
        over,
        summary.get("winner"),
        net if over else {},
        int(summary.get("boxes") or 0),
        game.game_id,
        paid,
    )


def standings(
    event: EventEntry, games: Iterable[TableSummary], *, withdrawn: Sequence[str] = ()
) -> tuple[Standing, ...]:
    """The event's standings from its games' stored summaries (not a rescoring of every
    box: a correction or a deletion rewrites the summary, so they stay right)."""
    return rank(event, [table_result(game) for game in games], withdrawn=withdrawn)
