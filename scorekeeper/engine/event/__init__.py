"""CONTRACT.md's event (a club night) as typed values: the event a director starts, the
seating of each round, the games of its tables, and the standings that come out.

``from_json`` checks the shape and names the field at fault (CONTRACT.md's error
object); ``to_json`` gives back what was read. Standard library only, like the rest
of the engine.

Two modules, the event as entered (:mod:`.entry`) and what comes out of it
(:mod:`.standings`); every name is importable from here, as it was from the one module.

>>> event = EventEntry.from_json({"name": "Tuesday Jersey", "rounds": 3,
...     "entrants": ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"]})
>>> event.rules, event.table_size, event.round_ends, event.standings
('jersey-scarne', 3, RoundEnd(kind='game', limit=None), 'net')
>>> EventEntry.from_json({"name": "x", "rounds": 1, "entrants": ["Ann"], "tables": 3})
Traceback (most recent call last):
...
scorekeeper.engine.errors.MalformedError: an event has no field 'tables' ...
"""

from __future__ import annotations

from .entry import (
    COUNTS,
    MAX_ENTRANTS,
    MAX_EVENT_NAME,
    MAX_MINUTES,
    MAX_PENALTY,
    MAX_ROUNDS,
    MAX_SEED,
    TIE_BREAKS,
    Count,
    EventEntry,
    EventGame,
    Json,
    Penalty,
    RoundEnd,
    RoundEndKind,
    Seating,
    TieBreak,
    check_room,
    read_entrants,
)
from .kept import standings, values_and_ranks
from .standings import Standing, TableResult, paid_nets, table_points

__all__ = [
    "COUNTS",
    "MAX_ENTRANTS",
    "MAX_EVENT_NAME",
    "MAX_MINUTES",
    "MAX_PENALTY",
    "MAX_ROUNDS",
    "MAX_SEED",
    "TIE_BREAKS",
    "Count",
    "EventEntry",
    "EventGame",
    "Json",
    "Penalty",
    "RoundEnd",
    "RoundEndKind",
    "Seating",
    "Standing",
    "TableResult",
    "TieBreak",
    "check_room",
    "paid_nets",
    "read_entrants",
    "standings",
    "table_points",
    "values_and_ranks",
]
