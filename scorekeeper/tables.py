"""An event's tables as the standings read them: each table's result from its game's
stored summary (totals, boxes won, each player's net from the settlement), ranked by the
engine (:func:`scorekeeper.engine.event.standings`). No box is scored again: a
correction or a deletion rewrites the summary, so the standings stay right."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .engine.event import EventEntry, Standing, TableResult
from .engine.event import standings as rank
from .engine.event.kept import NO_BOX as NO_BOX
from .engine.event.kept import result_of
from .engine.substitutes import counted, read_substitutes


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


def table_result(game: TableSummary) -> TableResult:
    """What the standings read of one table's stored summary, seat by seat: the totals (final once
    over), boxes won, and each player's net from the settlement (while a game paid box
    by box plays, from its payments so far: K5)."""
    return result_of(game.round, game.table, game.game_id, game.players, game.summary)


def standings(
    event: EventEntry, games: Iterable[TableSummary], *, withdrawn: Sequence[str] = ()
) -> tuple[Standing, ...]:
    """The event's standings from its games' stored summaries (not a rescoring of every
    box: a correction or a deletion rewrites the summary, so they stay right)."""
    return rank(event, [counted_result(game) for game in games], withdrawn=withdrawn)
