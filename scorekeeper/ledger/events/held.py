"""The one way a director's write goes (issue "One discipline"): the event's prologue,
its refusals and what a write answers.

Every write to an event (seating and closing a round, entrants, seats, penalties, a
table's end or reopening, the director's codes) goes through :func:`held`, as every
write to a game goes through the games' own prologue: hold the event from the read the
write is based on to its one commit (:func:`scorekeeper.store.holding`; the games it
writes inside, a penalty's line in a game's history or the games a seating starts, are
written in the same transaction), answer a repeated idempotency key with the event as
it is (the same key with other content is :class:`~scorekeeper.ledger.KeyReused`),
write, and end with the event's new version and the write's typed history line with
its key, and the event's kept standings built again from its games (issue 34).
Nothing is retried: a lock is waited for, never slept around.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ... import store
from ...engine.history import Kind
from ...store.events import LoadedEvent
from ..table import KeyReused, LedgerError, NotFound


class RoundStillPlaying(LedgerError):
    """A round cannot close while a table still plays (unless forced): ``tables``."""

    def __init__(self, round: int, tables: tuple[int, ...]) -> None:
        listed = ", ".join(str(t) for t in tables)
        word = "table" if len(tables) == 1 else "tables"
        super().__init__(
            f"round {round} is still playing at {word} {listed}: wait for "
            f"{'it' if len(tables) == 1 else 'them'}, or close the round by "
            "force (the games end by agreement, settled as they stand)"
        )
        self.round, self.tables = round, tables


class RoundRefused(LedgerError):
    """The round is not in a state for this (not closed yet, already closed, over)."""


class NotInEvent(LedgerError):
    """A game, player or table that is not the event's."""


Change = tuple[dict[str, Any], dict[str, Any]]
"""What a write did: the detail of its history line, and the event row's values it
changed (``current_round``, ``finished``)."""


def loaded(db: Session, event_id: str) -> LoadedEvent:
    found = store.events.load_event(db, event_id)
    if found is None:
        raise NotFound(f"there is no event {event_id!r}")
    return found


def digest(action: str, content: object) -> str:
    """What a write changes, as a hash: a resent key must carry the same change."""
    text = json.dumps([action, content], sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def repeated(earlier: str | None, signed: str, subject: str) -> bool:
    """Whether a key was used before for this very change (the write is answered as the
    subject is now); a key used for another change is :class:`KeyReused`. ``earlier``:
    the digest stored with the key ("" where none was kept: never this change), None
    where the key is new; ``subject``: "event", "club"."""
    if earlier is None:
        return False
    if earlier != signed:
        raise KeyReused(
            f"this form (or key) was already used for another change to this {subject}: "
            "nothing was stored; reload the page and try again"
        )
    return True


@dataclass(frozen=True)
class Done:
    """What a director's write answers: the event after it (``repeated``: a resent key
    that wrote nothing more)."""

    event: LoadedEvent
    repeated: bool = False


def held(
    db: Session,
    event_id: str,
    action: Kind,
    content: object,
    key: str | None,
    write: Callable[[LoadedEvent], Change | None],
) -> Done:
    """Every director's write, once: hold the event, answer a repeated ``key`` (the event
    as it is; other ``content`` under it is :class:`KeyReused`), then ``write`` the
    change to the event as read, keep its history line and key, commit. A ``write``
    that finds its change made meanwhile (a double tap without a key) answers None:
    nothing is written, and the event is answered as it is."""
    signed = digest(action.value, content)
    with store.holding(db, event_id):
        event = loaded(db, event_id)
        if key is not None:
            earlier = store.events.earlier_write(db, event_id, key)
            if repeated(None if earlier is None else earlier.digest or "", signed, "event"):
                return Done(event, repeated=True)
        change = write(event)
        if change is None:
            return Done(event, repeated=True)
        detail, values = change
        store.events.log_write(db, event_id, action.value, detail, key=key, digest=signed, **values)
        store.kept.rebuild(db, event_id)  # the standings kept, in the write's transaction
        db.commit()
    return Done(loaded(db, event_id))
