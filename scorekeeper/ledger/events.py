"""The use cases of a club night (an event): start it, seat a round, close it, late
entries and withdrawals, swapped seats, the director's right over every game of the
event (correct, delete, end, penalties with a note, replace a player) and the standings.

Each table's game is an ordinary game, created by :func:`scorekeeper.ledger.start` with
its players in seat order, the event's rules and the dealer by the cut (J1), and
written to by the same use cases as any game; the event links the games to its tables.
A round is seated in two steps that can each be repeated safely: its games are started
with idempotency keys made of the event, the round and the table (a seating retried
after a crash finds them again), then the seating is stored under the event's lock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from .. import engine, records, store
from ..engine.contract import BoxEntry, GameEntry
from ..engine.errors import MalformedError
from ..engine.event import (
    MAX_SEED,
    EventEntry,
    Penalty,
    Seating,
    Standing,
    TableResult,
    check_room,
    read_entrants,
)
from ..engine.event import standings as rank
from ..engine.movement import cut_at_table, seat_round
from ..store.events import LoadedEvent
from ..store.models import now as _now
from . import (
    KeyReused,
    LedgerError,
    NotFound,
    Written,
    correct,
    delete,
    end,
    load,
    make_codes,
    start,
)


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


@dataclass(frozen=True)
class Codes:
    """The director's codes: the link's code and the short code typed by hand."""

    director: str
    join: str
    round: int


@dataclass(frozen=True)
class Started:
    """A new event with its first round seated, and the director's codes."""

    event: LoadedEvent
    codes: Codes | None
    repeated: bool = False


# --- the director's codes ------------------------------------------------------------------


def director_codes(row: store.events.EventRow, secret: bytes) -> Codes:
    """The director's current codes, made from the server's secret as a game's are."""
    made = make_codes(secret, f"event-{row.id}", row.codes_round or 1)
    return Codes(made.edit, made.join, made.round)


def is_director(row: store.events.EventRow, code: str | None) -> bool:
    """Whether ``code`` is the event's director code (compared in constant time)."""
    if not code:
        return False
    return hmac.compare_digest(row.director_hash, store.token_hash(code))


def renew_director_codes(db: Session, event_id: str, secret: bytes) -> Codes:
    """New director codes; the old ones stop working at once."""
    row = _row(db, event_id)
    made = make_codes(secret, f"event-{row.id}", (row.codes_round or 1) + 1)
    if store.events.renew_event_codes(db, row.id, row.codes_round, made.edit, made.join, made.round):
        return Codes(made.edit, made.join, made.round)
    return director_codes(_row(db, event_id), secret)


def director_joined(
    db: Session, code: str, secret: bytes, event_id: str | None = None
) -> tuple[store.events.EventRow, str] | None:
    """The event a typed director code (short or from the link) opens, with the code a
    phone then keeps; None for a wrong code."""
    from . import as_join_code

    short = as_join_code(code)
    if short is not None:
        for row in store.events.events_with_join_code(db, short):
            if event_id is None or row.id == event_id:
                codes = director_codes(row, secret)
                return (row, codes.director) if is_director(row, codes.director) else None
        return None
    found = store.events.get_event(db, event_id) if event_id is not None else None
    code = code.strip().rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    if found is None or not is_director(found, code):
        return None
    return found, code


# --- reading -------------------------------------------------------------------------------


def load_event(db: Session, event_id: str) -> LoadedEvent | None:
    return store.events.load_event(db, event_id)


def _loaded(db: Session, event_id: str) -> LoadedEvent:
    found = store.events.load_event(db, event_id)
    if found is None:
        raise NotFound(f"there is no event {event_id!r}")
    return found


def _row(db: Session, event_id: str) -> store.events.EventRow:
    row = store.events.get_event(db, event_id)
    if row is None:
        raise NotFound(f"there is no event {event_id!r}")
    return row


def standings(
    db: Session, event: LoadedEvent | str, games: list[store.events.TableGame] | None = None
) -> tuple[Standing, ...]:
    """The event's standings now, from its games' stored summaries (one query, unless
    the caller read them: ``games``)."""
    loaded = _loaded(db, event) if isinstance(event, str) else event
    found = store.events.table_games(db, loaded.id) if games is None else games
    return records.standings(loaded.entry, found, withdrawn=loaded.withdrawn)


@dataclass(frozen=True)
class TableState:
    """A table of a round as the standings page shows it."""

    round: int
    table: int
    game_id: str
    players: tuple[str, ...]
    boxes: int
    playing: bool
    totals: Mapping[str, int]
    version: int


def tables(
    db: Session,
    event: LoadedEvent,
    round: int | None = None,
    games: list[store.events.TableGame] | None = None,
) -> list[TableState]:
    """Every table of ``round`` (the current one by default): playing or done, boxes
    so far, totals (``games``: the event's, when the caller read them)."""
    number = event.row.current_round if round is None else round
    states = []
    for game in store.events.table_games(db, event.id) if games is None else games:
        if game.round != number:
            continue
        over = bool(game.summary.get("game_over"))
        states.append(
            TableState(
                game.round,
                game.table,
                game.game_id,
                tuple(game.players),
                int(game.summary.get("boxes") or 0),
                not over,
                dict(game.summary.get("totals") or {}),
                game.version,
            )
        )
    return states


@dataclass(frozen=True)
class Board:
    """What a standings page or a projector shows, from one read of the games."""

    standings: tuple[Standing, ...]
    tables: list[TableState]
    results: list[TableResult]
    games: Mapping[str, store.events.TableGame] = dataclasses.field(default_factory=dict, compare=False)
    """The games as read, by id: the next board reads only those that changed."""

    @property
    def ended(self) -> tuple[str, ...]:
        """The games ended by agreement (a forced close, a director's end)."""
        return tuple(game_id for game_id, game in self.games.items() if game.ended)


def board(db: Session, event: LoadedEvent, before: Board | None = None) -> Board:
    """The standings, the current round's tables and every table's result (``before``:
    the board read last, whose unchanged games are not read again)."""
    games = store.events.table_games(db, event.id, before.games if before else None)
    kept = {r.game: r for r in before.results} if before else {}
    results = [
        kept[game.game_id]
        if before and before.games.get(game.game_id) is game and game.game_id in kept
        else records.table_result(game)
        for game in games
    ]
    return Board(
        rank(event.entry, results, withdrawn=event.withdrawn),
        tables(db, event, games=games),
        results,
        {g.game_id: g for g in games},
    )


def clock(event: LoadedEvent, now: datetime | None = None) -> tuple[datetime, int] | None:
    """A timed round's start and length in minutes (every table's sheet shows it)."""
    current = event.round(event.row.current_round)
    if current is None or current.started_at is None or current.minutes is None:
        return None
    return current.started_at, current.minutes


@dataclass(frozen=True)
class Seat:
    """Where a game is played in an event: the event, round and table, and the round's
    clock (its start and minutes) while a timed round runs."""

    event_id: str
    round: int
    table: int
    clock: tuple[datetime, int] | None


def seat_of_game(db: Session, game_id: str) -> Seat | None:
    """The event table a game is played at (for its sheet: the event, the table, the
    round's clock), or None for a game of no event. Two small reads."""
    found = store.events.event_of_game(db, game_id)
    if found is None:
        return None
    event_id, round, table = found
    return Seat(event_id, round, table, store.events.round_clock(db, event_id, round))


# --- starting and seating ------------------------------------------------------------------


def start_event(
    db: Session,
    event: EventEntry,
    *,
    secret: bytes | None = None,
    key: str | None = None,
    now: datetime | None = None,
) -> Started:
    """Store a new event and seat its first round, drawn from the event's seed (a new
    random one when it has none; kept and shown). A ``key`` already used answers that
    event again (a resent form)."""
    if len(event.entrants) < 2:
        raise MalformedError("an event needs two entrants at least", "entrants")
    seed = event.seed if event.seed is not None else secrets.randbelow(MAX_SEED)
    event = dataclasses.replace(event, seed=seed, seating=(), games=(), penalties=())
    _first_round(event)  # refused before anything is stored when round 1 cannot be seated
    event_id = store.new_game_id()
    made = None if secret is None else make_codes(secret, f"event-{event_id}", 1)
    try:
        store.events.create_event(
            db,
            event_id=event_id,
            entry=event,
            director=made.edit if made else secrets.token_urlsafe(24),
            join=made.join if made else None,
            codes_round=made.round if made else None,
            key=key,
        )
    except store.events.EventKeyTaken as taken:
        found = _loaded(db, taken.event_id)
        if _as_started(found.entry) != _as_started(event):
            raise KeyReused(
                "this form was already used to start another event: reload the page and start again"
            ) from None
        if found.row.current_round == 0:
            seat_next_round(db, found.id, secret=secret, now=now)
            found = _loaded(db, taken.event_id)
        return Started(found, None, repeated=True)
    seat_next_round(db, event_id, secret=secret, now=now)
    codes = None if made is None else Codes(made.edit, made.join, made.round)
    return Started(_loaded(db, event_id), codes)


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


def _ranking(db: Session, event: LoadedEvent) -> list[str]:
    return [row.player for row in standings(db, event)]


def seat_next_round(
    db: Session, event_id: str, *, secret: bytes | None = None, now: datetime | None = None
) -> LoadedEvent:
    """Seat the next round (the previous one must be closed): the engine's movement
    seats the present entrants, each table's game is started, and the seating stored.
    Repeating it after it was done (a double tap) answers the event as it is."""
    event = _loaded(db, event_id)
    number = event.row.current_round + 1
    if event.row.current_round:
        current = event.round(event.row.current_round)
        if current is not None and current.closed_at is None:
            raise RoundRefused(f"round {event.row.current_round} is not closed yet")
    if number > event.entry.rounds:
        raise RoundRefused(f"the event had its {event.entry.rounds} rounds")
    entry = event.entry
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
        ranking=_ranking(db, event) if event.entry.seating else None,
        rounds=entry.rounds,
    )
    if not seating.tables:
        raise RoundRefused(f"{len(playing)} entrants cannot fill a table")
    games = [
        _table_game(db, event, seating.round, number_, table, secret)
        for number_, table in enumerate(seating.tables, start=1)
    ]
    minutes = entry.round_ends.limit if entry.round_ends.kind == "minutes" else None
    with store.events.event_writing(db, event_id):
        now_event = store.events.get_event(db, event_id)
        if now_event is None or now_event.current_round >= number:
            db.rollback()
            return _loaded(db, event_id)  # seated meanwhile (a double tap): as it is
        store.events.add_round(db, event_id, seating, games, minutes=minutes, started_at=now or _now())
    return _loaded(db, event_id)


def _rules(entry: EventEntry) -> engine.Rules:
    return engine.find_rules(entry.rules).with_settings(dict(entry.settings))


def _table_game(
    db: Session,
    event: LoadedEvent,
    round: int,
    table: int,
    players: tuple[str, ...],
    secret: bytes | None,
    attempt: int | str = 0,
) -> str:
    """Start a table's game: its players in seat order, the event's rules, the dealer by
    the cut. The key names the event, round, table and seats, so a retried seating finds
    the game it started before."""
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
    key = f"event:{event.id}:{round}:{table}:{attempt}"
    for tries in range(1, 6):
        try:
            return start(db, game, key=key, secret=secret).table.id
        except OperationalError:
            # SQLite: ``start`` reads before it writes in one deferred transaction, and
            # another director seating at the same moment may have written between
            # (SQLITE_BUSY, which waits for no one). Again: the key finds that game.
            db.rollback()
            if tries == 5:
                raise
            time.sleep(0.05 * tries)
    raise AssertionError("unreachable")


def _table_place(entry: EventEntry, round: int, table: int) -> str:
    where = f"{entry.name}, round {round}, table {table}"
    return (f"{where}, {entry.place}" if entry.place else where)[:120]


# --- closing a round -----------------------------------------------------------------------


def close_round(
    db: Session, event_id: str, *, force: bool = False, now: datetime | None = None
) -> LoadedEvent:
    """Close the current round. Refused while a table still plays (:class:`RoundStillPlaying`)
    unless ``force``, or unless the round's limit is reached (its boxes at that table, or
    its minutes): then the running games end by agreement, settled as they stand."""
    event = _loaded(db, event_id)
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
    running = [t for t in tables(db, event, number) if t.playing]
    still = tuple(
        t.table
        for t in running
        if not (limit.kind == "boxes" and limit.limit is not None and t.boxes >= limit.limit)
        and not timed_out
    )
    if still and not force:
        raise RoundStillPlaying(number, still)
    for table in running:
        try:
            end(db, table.game_id, key=f"event-close:{event_id}:{number}")
        except (LedgerError, engine.ScorekeeperError):
            continue  # ended meanwhile at the table
    with store.events.event_writing(db, event_id):
        row = store.events.get_event(db, event_id)
        assert row is not None
        again = store.events.load_event(db, event_id)
        if again is not None and (r := again.round(number)) and r.closed_at is None:
            store.events.close_round(db, event_id, number, finished=number >= event.entry.rounds)
    return _loaded(db, event_id)


# --- entrants -----------------------------------------------------------------------------


def _next_round(event: LoadedEvent) -> int:
    """The first round a change of entrants can touch: the next one while a round is
    open, else the one about to be seated."""
    return event.row.current_round + 1


def enter(db: Session, event_id: str, name: str) -> LoadedEvent:
    """A late entry (or a withdrawn player back), playing from the next round."""
    return change_entrants(db, event_id, [name], [])


def withdraw(db: Session, event_id: str, name: str) -> LoadedEvent:
    """The player plays no more from the next round (a game under way is played out,
    or ended by the director); the player stays in the standings, marked."""
    return change_entrants(db, event_id, [], [name])


def change_entrants(db: Session, event_id: str, added: Sequence[str], gone: Sequence[str]) -> LoadedEvent:
    """Late entries (or withdrawn players back) and withdrawals, from the next round:
    all of them or, when one is refused (a name entered twice, someone not entered),
    none."""
    event = _loaded(db, event_id)
    known = {e.name.casefold(): e for e in event.entrants}
    entering: list[str] = []
    for name in added:
        (clean,) = read_entrants([name], "name")
        folded = clean.casefold()
        if (folded in known and known[folded].withdrawn_round is None) or folded in map(
            str.casefold, entering
        ):
            raise MalformedError(f"{clean} is already entered", "name")
        entering.append(known[folded].name if folded in known else clean)
    leaving = [_entrant(event, name) for name in gone]
    both = {n.casefold() for n in entering} & {n.casefold() for n in leaving}
    if both:
        raise MalformedError(f"{sorted(both)[0]} cannot both enter and withdraw", "withdraw")
    round = _next_round(event)
    check_room(len(event.playing(round)) - len(leaving), len(entering), "name")
    with store.events.event_writing(db, event_id):
        for name in entering:
            store.events.add_entrant(db, event_id, name, round, commit=False)
        for name in leaving:
            store.events.withdraw(db, event_id, name, round, commit=False)
        db.commit()
    return _loaded(db, event_id)


def _entrant(event: LoadedEvent, name: str) -> str:
    folded = " ".join(name.split()).casefold()
    for e in event.entrants:
        if e.name.casefold() == folded:
            return e.name
    raise NotInEvent(f"{name.strip()[:80]} is not an entrant of this event")


# --- before a round starts: swapped seats, a replaced player -------------------------------


def swap(db: Session, event_id: str, first: str, second: str, *, secret: bytes | None = None) -> LoadedEvent:
    """Swap two players' seats in the current round before their tables start (no box
    recorded at either): their tables get new games with the new seats."""
    event = _loaded(db, event_id)
    a, b = _entrant(event, first), _entrant(event, second)
    if a == b:
        raise MalformedError(f"name two players to swap, not {a} twice", "players")
    seating = _open_seating(event)
    at_a, at_b = seating.place_of(a), seating.place_of(b)
    if at_a is None or at_b is None:
        missing = a if at_a is None else b
        raise NotInEvent(f"{missing} is not seated in round {seating.round}")
    new = [list(t) for t in seating.tables]
    new[at_a[0] - 1][at_a[1] - 1], new[at_b[0] - 1][at_b[1] - 1] = b, a
    return _reseat(db, event, seating, new, {at_a[0], at_b[0]}, secret, f"seats of {a} and {b} swapped")


def replace(db: Session, event_id: str, player: str, by: str, *, secret: bytes | None = None) -> LoadedEvent:
    """``by`` takes ``player``'s seat in the current round before that table starts, and
    his place in the rounds after; ``player`` withdraws (kept in the standings)."""
    event = _loaded(db, event_id)
    old = _entrant(event, player)
    (new_name,) = read_entrants([by], "by")
    if any(e.name.casefold() == new_name.casefold() and e.withdrawn_round is None for e in event.entrants):
        raise MalformedError(f"{new_name} is already entered: swap seats instead", "by")
    seating = _open_seating(event)
    at = seating.place_of(old)
    round_now = seating.round
    from_round = round_now if at else round_now + 1

    def entrants() -> None:
        store.events.add_entrant(db, event_id, new_name, from_round, commit=False)
        store.events.withdraw(db, event_id, old, from_round, commit=False)

    new = [list(t) for t in seating.tables]
    if at is not None:
        new[at[0] - 1][at[1] - 1] = new_name
    return _reseat(
        db, event, seating, new, {at[0]} if at else set(), secret, f"{new_name} replaced {old}", also=entrants
    )


def _open_seating(event: LoadedEvent) -> Seating:
    current = event.round(event.row.current_round)
    seating = event.entry.seating_of(event.row.current_round)
    if current is None or seating is None or current.closed_at is not None:
        raise RoundRefused("no round is open: seats change between seating a round and its first box")
    return seating


def _reseat(
    db: Session,
    event: LoadedEvent,
    seating: Seating,
    new: list[list[str]],
    changed: set[int],
    secret: bytes | None,
    why: str,
    *,
    also: Callable[[], None] | None = None,
) -> LoadedEvent:
    """Seat the ``changed`` tables anew, all or nothing: their new games are started
    first (keyed by the event's version and the new seats, so a retry finds them), then
    the entrant changes (``also``) and every table's new seating are written in one
    transaction under the event's lock, refused if a table started or the event changed
    meanwhile; the old games get a note and are ended last."""
    _check_unstarted(db, event, seating, changed)
    games = {
        number: _table_game(
            db,
            event,
            seating.round,
            number,
            tuple(new[number - 1]),
            secret,
            attempt=_attempt(event, new[number - 1]),
        )
        for number in sorted(changed)
    }
    with store.events.event_writing(db, event.id):
        row = store.events.get_event(db, event.id)
        if row is None or row.version != event.row.version:
            raise RoundRefused(
                "the event changed meanwhile (another director?): nothing was changed; look again and retry"
            )
        _check_unstarted(db, event, seating, changed)
        if also is not None:
            also()
        for number, game_id in games.items():
            store.events.reseat_table(
                db, event.id, seating.round, number, new[number - 1], game_id, commit=False
            )
        db.commit()
    for number, game_id in games.items():
        old_game = event.entry.game_of(seating.round, number)
        if old_game is not None:
            _note(db, old_game, "director", {"reseated": why, "game": game_id})
            with contextlib.suppress(LedgerError, engine.ScorekeeperError):
                end(db, old_game)  # unless ended meanwhile
    return _loaded(db, event.id)


def _attempt(event: LoadedEvent, players: list[str]) -> str:
    """What keys a reseated table's new game: the event's version it was read at and the
    new seats (a retried change finds its game; another change starts another)."""
    seats = hashlib.sha256("\x1f".join(players).encode()).hexdigest()[:16]
    return f"v{event.row.version}-{seats}"


def _check_unstarted(db: Session, event: LoadedEvent, seating: Seating, changed: set[int]) -> None:
    """Refuse before anything is written when a table to reseat has a box recorded."""
    for number in sorted(changed):
        game_id = event.entry.game_of(seating.round, number)
        table = load(db, game_id) if game_id else None
        if table is not None and table.boxes:
            raise RoundRefused(
                f"table {number} has started (box {len(table.boxes)} is "
                "recorded): seats change only before a table's first box"
            )


def _note(db: Session, game_id: str, action: str, detail: dict[str, Any]) -> None:
    """A line in a game's history (game events) for what the director did to it. The
    game is read under its lock: a box recorded meanwhile is in the version written."""
    with store.writing(db, game_id):
        table = load(db, game_id)
        if table is None:
            return
        store.amend_game(
            db,
            game_id,
            table.version,
            store.Amendment(action, detail),
            rulings={},
            summary=dict(table.row.summary),
        )


# --- the director's right over every game --------------------------------------------------


def _event_game(db: Session, event_id: str, game_id: str) -> tuple[int, int]:
    found = store.events.event_of_game(db, game_id)
    if found is None or found[0] != event_id:
        raise NotInEvent(f"game {game_id[:32]!r} is not a game of this event")
    return found[1], found[2]


def correct_box(
    db: Session,
    event_id: str,
    game_id: str,
    box_id: int,
    entry: BoxEntry,
    *,
    version: int | None = None,
    key: str | None = None,
) -> Written:
    """The director corrects a box at any table of the event (kept in its history),
    even after the table's game was ended (closed with its round, or by the director)."""
    _event_game(db, event_id, game_id)
    return correct(db, game_id, box_id, entry, version=version, key=key, director=True)


def delete_box(
    db: Session,
    event_id: str,
    game_id: str,
    box_id: int,
    *,
    version: int | None = None,
    key: str | None = None,
) -> Written:
    """The director deletes a box at any table of the event (kept in its history),
    even after the table's game was ended."""
    _event_game(db, event_id, game_id)
    return delete(db, game_id, box_id, version=version, key=key, director=True)


def end_table(db: Session, event_id: str, game_id: str, *, version: int | None = None) -> Written:
    """The director ends a table's game by agreement, settled as it stands."""
    _event_game(db, event_id, game_id)
    return end(db, game_id, version=version)


def penalize(
    db: Session, event_id: str, player: str, points: int, note: str, *, key: str | None = None
) -> LoadedEvent:
    """Points off a player's score, with a note; in the history of the player's game of
    the current round too. A ``key`` that took a penalty already takes nothing more (a
    form sent twice, two taps at once: the event's lock lets one in at a time)."""
    event = _loaded(db, event_id)
    name = _entrant(event, player)
    penalty = Penalty.from_json(
        {"player": name, "points": points, "note": note, "round": event.row.current_round or None}, "penalty"
    )
    if not penalty.note:
        raise MalformedError("say why: a penalty needs a note", "penalty.note")
    seating = event.entry.seating_of(event.row.current_round)
    place = seating.place_of(name) if seating else None
    game_id = event.entry.game_of(seating.round, place[0]) if seating and place else None
    with store.events.event_writing(db, event_id):
        added = store.events.add_penalty(db, event_id, penalty, game_id, key)
    if added and game_id is not None:
        _note(db, game_id, "penalty", penalty.to_json())
    return _loaded(db, event_id)


__all__ = [
    "Board",
    "Codes",
    "NotInEvent",
    "RoundRefused",
    "RoundStillPlaying",
    "Seat",
    "Started",
    "TableState",
    "board",
    "clock",
    "close_round",
    "correct_box",
    "delete_box",
    "director_codes",
    "director_joined",
    "end_table",
    "enter",
    "is_director",
    "load_event",
    "penalize",
    "renew_director_codes",
    "replace",
    "seat_next_round",
    "seat_of_game",
    "standings",
    "start_event",
    "swap",
    "tables",
    "withdraw",
]
