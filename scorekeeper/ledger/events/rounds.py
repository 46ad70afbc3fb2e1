"""An event's rounds: starting the event with round 1 seated, seating the next round,
closing the current one (RULES.md E3, E7). Each is one write of the event's prologue
(:func:`.held.held`): the games a seating starts and the games a forced close ends are
written in the same transaction as the round itself.

Each table's game is an ordinary game, created by :func:`scorekeeper.ledger.start_game` with
its players in seat order, the event's rules and the dealer by the cut (J1), and written
to by the same use cases as any game; the event links the games to its tables.
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from ... import engine, store
from ...engine.contract import GameEntry
from ...engine.errors import MalformedError
from ...engine.event import MAX_SEED, EventEntry, Seating
from ...engine.history import Kind
from ...engine.movement import cut_at_table, seat_round
from ...store.events import LoadedEvent
from ...store.models import now as _now
from .. import end, make_codes, start_game
from ..table import KeyReused, LedgerError
from .held import Change, RoundRefused, RoundStillPlaying, held, loaded
from .reading import Codes, event_row, standings, tables


@dataclass(frozen=True)
class Started:
    """A new event with its first round seated, and the director's codes."""

    event: LoadedEvent
    codes: Codes | None
    repeated: bool = False


def start_event(
    db: Session,
    event: EventEntry,
    *,
    secret: bytes | None = None,
    key: str | None = None,
    now: datetime | None = None,
) -> Started:
    """Store a new event and seat its first round, drawn from the event's seed (a new
    random one when it has none; kept and shown), in one transaction. A ``key`` already
    used answers that event again (a resent form); with other content it is refused."""
    if len(event.entrants) < 2:
        raise MalformedError("an event needs two entrants at least", "entrants")
    seed = event.seed if event.seed is not None else secrets.randbelow(MAX_SEED)
    event = dataclasses.replace(event, seed=seed, seating=(), games=(), penalties=())
    _first_round(event)  # refused before anything is stored when round 1 cannot be seated
    event_id = store.new_game_id()
    made = None if secret is None else make_codes(secret, f"event-{event_id}", 1)
    try:
        with store.holding(db, None):
            store.events.create_event(
                db,
                event_id=event_id,
                entry=event,
                director=made.edit if made else secrets.token_urlsafe(24),
                join=made.join if made else None,
                codes_round=made.round if made else None,
                key=key,
            )
            detail, values = _seat(db, loaded(db, event_id), secret, now)
            store.events.log_write(
                db, event_id, Kind.STARTED.value, {"entrants": len(event.entrants), **detail}, **values
            )
            store.kept.rebuild(db, event_id)
            db.commit()
    except store.events.EventKeyTaken as taken:
        found = loaded(db, taken.event_id)
        if _as_started(found.entry) != _as_started(event):
            raise KeyReused(
                "this form was already used to start another event: reload the page and start again"
            ) from None
        return Started(found, None, repeated=True)
    codes = None if made is None else Codes(made.edit, made.join, made.round)
    return Started(loaded(db, event_id), codes)


def _first_round(event: EventEntry) -> Seating:
    """Round 1 as the engine seats it (the pure movement, nothing stored): the entrants
    must fill a table at least."""
    rules = _rules(event)
    assert event.seed is not None
    seating = seat_round(
        event.entrants,
        1,
        (),
        seed=event.seed,
        table_size=event.table_size,
        least=rules.min_players,
        most=rules.max_players,
        ranking=None,
        rounds=event.rounds,
    )
    if not seating.tables:
        raise MalformedError(
            f"{len(event.entrants)} entrants cannot fill a table of {rules.title} "
            f"({rules.min_players} players at least): enter more",
            "entrants",
        )
    return seating


def _as_started(event: EventEntry) -> dict[str, Any]:
    """What a start's key must carry again: the event as the director gave it."""
    body = event.to_json()
    for name in ("seed", "seating", "games", "penalties"):
        body.pop(name, None)
    return body


def seat_next_round(
    db: Session,
    event_id: str,
    *,
    secret: bytes | None = None,
    now: datetime | None = None,
    key: str | None = None,
) -> LoadedEvent:
    """Seat the next round (the previous one must be closed): the engine's movement
    seats the present entrants, each table's game is started, and the seating stored.
    Asked again once it was done (a double tap, two directors at once), it answers the
    event as it is."""
    seen = event_row(db, event_id).current_round

    def write(event: LoadedEvent) -> Change | None:
        if event.row.current_round > seen:
            return None  # seated meanwhile
        return _seat(db, event, secret, now)

    return held(db, event_id, Kind.SEATED, None, key, write).event


def _seat(db: Session, event: LoadedEvent, secret: bytes | None, now: datetime | None) -> Change:
    """Seat the round after the event's current one, inside the event's write."""
    number = event.row.current_round + 1
    if event.row.current_round:
        current = event.round(event.row.current_round)
        if current is not None and current.closed_at is None:
            raise RoundRefused(f"round {event.row.current_round} is not closed yet")
    entry = event.entry
    if number > entry.rounds:
        raise RoundRefused(f"the event had its {entry.rounds} rounds")
    rules = _rules(entry)
    playing = event.playing(number)
    seating = seat_round(
        playing,
        number,
        entry.seating,
        seed=event.row.seed,
        table_size=entry.table_size,
        least=rules.min_players,
        most=rules.max_players,
        ranking=[row.player for row in standings(db, event)] if entry.seating else None,
        rounds=entry.rounds,
    )
    if not seating.tables:
        raise RoundRefused(f"{len(playing)} entrants cannot fill a table")
    games = [
        table_game(db, event, seating.round, n, table, secret)
        for n, table in enumerate(seating.tables, start=1)
    ]
    minutes = entry.round_ends.limit if entry.round_ends.kind == "minutes" else None
    # The clock waits for the director's "Start round n" or the round's first box (E7).
    store.events.add_round(db, event.id, seating, games, minutes=minutes, started_at=None)
    detail = {"round": number, "tables": len(seating.tables), "byes": list(seating.byes)}
    return detail, {"current_round": number}


def _rules(entry: EventEntry) -> engine.Rules:
    return engine.find_rules(entry.rules).with_settings(dict(entry.settings))


def table_game(
    db: Session,
    event: LoadedEvent,
    round: int,
    table: int,
    players: tuple[str, ...],
    secret: bytes | None,
    attempt: int | str = 0,
) -> str:
    """Start a table's game inside the event's write: its players in seat order, the
    event's rules, the dealer by the cut. The key names the event, round, table and
    attempt, so the same seating started twice finds the same game."""
    entry = event.entry
    cuts = cut_at_table(players, event.row.seed, round, table)
    game = GameEntry(
        rules=entry.rules,
        players=players,
        dealer=cuts[-1].dealer,
        settings=dict(entry.settings),
        stake=entry.stake,
        place=_table_place(entry, round, table),
        started=(entry.date or _now().date().isoformat()),
    )
    return start_game(db, game, key=f"event:{event.id}:{round}:{table}:{attempt}", secret=secret)


def _table_place(entry: EventEntry, round: int, table: int) -> str:
    where = f"{entry.name}, round {round}, table {table}"
    return (f"{where}, {entry.place}" if entry.place else where)[:120]


def start_round(
    db: Session,
    event_id: str,
    round: int,
    *,
    now: datetime | None = None,
    key: str | None = None,
) -> LoadedEvent:
    """Start the current round's clock (E7: a timed round lasts its minutes from the
    director's start; until then its first box starts it). The form names its round: a
    start sent again once the round runs, or once the next is seated, writes nothing."""

    def write(event: LoadedEvent) -> Change | None:
        current = event.round(round)
        if current is None:
            raise RoundRefused(f"round {round} is not seated yet")
        if round < event.row.current_round or current.closed_at is not None or current.started_at is not None:
            return None  # over, or started meanwhile (another director, or a first box)
        at = now or _now()
        store.events.start_round_clock(db, event.id, round, at)
        detail = {"round": round, "minutes": current.minutes, "at": at.isoformat(timespec="seconds")}
        return detail, {}

    return held(db, event_id, Kind.CLOCK, {"round": round}, key, write).event


def close_round(
    db: Session,
    event_id: str,
    *,
    force: bool = False,
    now: datetime | None = None,
    key: str | None = None,
) -> LoadedEvent:
    """Close the current round. Refused while a table still plays (:class:`RoundStillPlaying`)
    unless ``force``, or unless the round's limit is reached (its boxes at that table, or
    its minutes): then the running games end by agreement, settled as they stand (E7)."""

    def write(event: LoadedEvent) -> Change:
        number = event.row.current_round
        current = event.round(number)
        if current is None or current.closed_at is not None:
            raise RoundRefused(f"round {number} is already closed" if current else "no round is seated yet")
        limit = event.entry.round_ends
        timed_out = (
            limit.kind == "minutes"
            and current.started_at is not None
            and limit.limit is not None
            and (now or _now()) >= current.started_at + timedelta(minutes=limit.limit)
        )
        running = [t for t in tables(db, event, number) if not t.finished]
        still = tuple(
            t.table
            for t in running
            if not (limit.kind == "boxes" and limit.limit is not None and t.scored >= limit.limit)
            and not timed_out
        )
        if still and not force:
            raise RoundStillPlaying(number, still)
        ended = []
        for table in running:
            if table.game is None:
                continue
            try:
                end(db, table.game, by="director")
            except (LedgerError, engine.ScorekeeperError):
                continue  # a game that cannot be scored stays as it is
            ended.append(table.table)
        store.events.close_round(db, event.id, number)
        detail = {"round": number, "force": bool(still), "ended": ended}
        return detail, {"finished": number >= event.entry.rounds}

    return held(db, event_id, Kind.CLOSED, {"force": force}, key, write).event
