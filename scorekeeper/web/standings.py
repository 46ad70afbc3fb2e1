"""An event as it stands, read from its kept standings once per change in each process
(issues 25 and 34).

A club evening's projectors and phones ask for the standings every few seconds. Every
write that changes them keeps the event's standings as sums in its own transaction
(``store.kept``), so a reader reads those rows and ranks them: no game is read, no
summary summed. Whether anything changed is one indexed read (``store.kept.stamp``: the
event's version and time, and its kept version, build and time), the same in every
process and worker; a new state reads only the kept rows changed since the state kept
before (:func:`scorekeeper.ledger.events.board`). What is drawn from one state (the
pages' view, the API's JSON, the projector's fragment at a given clock minute) is kept
beside it in :attr:`Now.made`.

A new state is read by one thread of a process while the others that want the same
event wait for it (:meth:`Kept.reading`), and each drawing is made by one thread.
Nothing is read in a writer's request any more (issue 34: it used to read and rank the
whole event after every box, so an evening's cost grew with the square of its tables).

At most :data:`EVENTS` events are kept, the least recently read going first.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy.orm import Session

from .. import store
from ..ledger import events as ledger_events
from . import database

EVENTS = 16
"""Events kept per process: a club runs one or two an evening."""

T = TypeVar("T")
L = TypeVar("L")

LINES = 8192
"""Standings lines kept drawn per process (a few hundred bytes each): every line of a
few 1,000-player events."""


@dataclass(frozen=True)
class Now:
    """One state of an event: its stamp (what a projector's poll compares), the event
    as stored and its board (standings, tables, results), and what was drawn from them."""

    stamp: str
    event: store.events.LoadedEvent
    board: ledger_events.Board
    made: dict[Hashable, Any] = field(default_factory=dict, compare=False)
    drawing: dict[Hashable, threading.Lock] = field(default_factory=dict, compare=False, repr=False)

    def drawn(self, key: Hashable, draw: Callable[[], T]) -> T:
        """What ``draw()`` makes of this state, made once: a thread that asks while
        another draws it waits for that drawing (only: the JSON is not kept waiting
        while the page is drawn)."""
        if key not in self.made:
            with self.drawing.setdefault(key, threading.Lock()):
                if key not in self.made:
                    self.made[key] = draw()
        result: T = self.made[key]
        return result


class Kept:
    """Each event's latest state read, by database and event id, safe to share between
    a server's threads."""

    def __init__(self, size: int = EVENTS) -> None:
        self.size = size
        self._events: OrderedDict[tuple[str, str], Now] = OrderedDict()
        self._readers: dict[tuple[str, str], threading.Lock] = {}
        self._lock = threading.Lock()

    def reading(self, key: tuple[str, str]) -> threading.Lock:
        """The lock one event's new state is read under, in this process."""
        with self._lock:
            return self._readers.setdefault(key, threading.Lock())

    def get(self, key: tuple[str, str], stamp: str) -> Now | None:
        with self._lock:
            found = self._events.get(key)
            if found is None or found.stamp != stamp:
                return None
            self._events.move_to_end(key)
            return found

    def latest(self, key: tuple[str, str]) -> Now | None:
        """The state kept last, whatever its stamp: what a new state is read beside."""
        with self._lock:
            return self._events.get(key)

    def put(self, key: tuple[str, str], now: Now) -> None:
        with self._lock:
            self._events.pop(key, None)
            self._events[key] = now
            while len(self._events) > self.size:
                gone, _ = self._events.popitem(last=False)
                self._readers.pop(gone, None)


KEPT = Kept()


class ByIdentity(Generic[T]):
    """What was drawn of each standings line (or table), found by the line's identity
    and how it is drawn (``how``): a new state's ranking keeps each line whose values
    did not change as the same object, its rank beside it
    (:class:`scorekeeper.engine.event.kept.RankedRows`; a table whose kept row did not
    change is the same object too), so their drawings are found without hashing their
    values (issue 34: 900 lines and 300 tables a state). Each line is held with its
    drawing, so its identity is not another's while kept; each way of drawing (``how``)
    is emptied once it holds ``size`` lines (a new evening's lines: start again).
    Threads may draw a line twice, never a wrong one."""

    def __init__(self, size: int = LINES) -> None:
        self.size = size
        self.found: dict[Hashable, dict[int, tuple[Any, T]]] = {}
        """Each way of drawing's lines, by their identities."""

    def each(self, lines: Iterable[L], how: Hashable, draw: Callable[[L], T]) -> list[T]:
        """What ``draw(line)`` made of each line drawn ``how``, made now the first time."""
        found = self.found.get(how)
        if found is None:
            if len(self.found) >= EVENTS:  # each event's lines are drawn their own way
                self.found.clear()
            found = self.found.setdefault(how, {})
        drawn = []
        for line in lines:
            hit = found.get(id(line))
            if hit is None or hit[0] is not line:
                hit = (line, draw(line))
                if len(found) >= self.size:
                    found.clear()
                found[id(line)] = hit
            drawn.append(hit[1])
        return drawn


def stamp_of(parts: tuple[object, ...]) -> str:
    """The stamp as a short word for a URL's ``since``.

    >>> len(stamp_of((3, None, 12, 4, None)))
    16
    """
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def now(event_id: str, parts: tuple[object, ...] | None = None) -> Now | None:
    """The event as it stands (None: no such event): kept, or read and ranked now.
    ``parts``: its stamp as read already for this request (:func:`.polls.read_of`)."""
    db = database.session()
    if parts is None:
        parts = store.kept.stamp(db, event_id)
    if parts is None:
        return None
    if parts[2] == -1:  # no kept standings yet (a database not migrated since): its games'
        parts = store.events.event_stamp(db, event_id)
        if parts is None:
            return None
    stamp = stamp_of(parts)
    key = (str(db.get_bind().engine.url), event_id)
    found = KEPT.get(key, stamp)
    if found is not None:
        return found
    with KEPT.reading(key):
        return _read(db, event_id, key, parts, stamp)


def _read(
    db: Session, event_id: str, key: tuple[str, str], parts: tuple[object, ...], stamp: str
) -> Now | None:
    """The state of ``stamp`` read and kept, unless the thread this one waited for
    has just kept it."""
    before = KEPT.latest(key)
    if before is not None and before.stamp == stamp:
        return before
    event: store.events.LoadedEvent | None
    if (
        before is not None
        and (before.event.row.version, before.event.row.updated_at) == parts[:2]
        and not _clock_waits(before.event)
    ):
        event = before.event  # a box at a table: the event itself did not change
    else:
        event = store.events.load_event(db, event_id)
        if event is None:
            return None
    # Read after the stamp: a write between the two makes the state newer than its
    # stamp, never older, and the next request's stamp differs, so it is read again.
    found = Now(stamp, event, ledger_events.board(db, event, before.board if before else None))
    KEPT.put(key, found)
    return found


def _clock_waits(event: store.events.LoadedEvent) -> bool:
    """A timed round whose clock has not started: its first box starts it (E7), so a box
    at a table changes the event as read."""
    current = event.round(event.row.current_round)
    return current is not None and current.minutes is not None and current.started_at is None
