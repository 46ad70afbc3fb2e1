"""Reading an event: the director's codes, the standings, the tables of a round and where
each stands (one table type for the pages, the API and the paper), the round's clock,
and the event table a game is played at."""

from __future__ import annotations

import bisect
import dataclasses
import hmac
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ... import records, store
from ...engine.event import EventEntry, Standing, TableResult
from ...engine.event.kept import Ranking, Tally, names_of, ranking
from ...engine.substitutes import Substitute, read_substitutes
from ...engine.vocabulary import TableStatus
from ...store.events import LoadedEvent
from ..codes import as_join_code, make_codes
from ..table import NotFound
from .held import loaded


@dataclass(frozen=True)
class Codes:
    """The director's codes: the link's code and the short code typed by hand."""

    director: str
    join: str
    round: int


def director_codes(row: store.events.EventRow, secret: bytes) -> Codes:
    """The director's current codes, made from the server's secret as a game's are."""
    made = make_codes(secret, f"event-{row.id}", row.codes_round or 1)
    return Codes(made.edit, made.join, made.round)


def is_director(row: store.events.EventRow, code: str | None) -> bool:
    """Whether ``code`` is the event's director code (compared in constant time)."""
    if not code:
        return False
    return hmac.compare_digest(row.director_hash, store.token_hash(code))


def director_joined(
    db: Session, code: str, secret: bytes, event_id: str | None = None
) -> tuple[store.events.EventRow, str] | None:
    """The event a typed director code (short or from the link) opens, with the code a
    phone then keeps; None for a wrong code."""
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


def load_event(db: Session, event_id: str) -> LoadedEvent | None:
    return store.events.load_event(db, event_id)


def event_row(db: Session, event_id: str) -> store.events.EventRow:
    row = store.events.get_event(db, event_id)
    if row is None:
        raise NotFound(f"there is no event {event_id!r}")
    return row


def standings(
    db: Session, event: LoadedEvent | str, games: list[store.events.TableGame] | None = None
) -> tuple[Standing, ...]:
    """The event's standings now, from its games' stored summaries (one query, unless
    the caller read them: ``games``)."""
    found_event = loaded(db, event) if isinstance(event, str) else event
    found = store.events.table_games(db, found_event.id) if games is None else games
    return records.standings(found_event.entry, found, withdrawn=found_event.withdrawn)


@dataclass(frozen=True)
class TableState:
    """One table of one round, as every page, the API and the paper show it: its game,
    players in seat order, where it stands, its boxes and each seat's total."""

    round: int
    table: int
    game: str | None
    players: tuple[str, ...]
    status: TableStatus = TableStatus.WAITING
    boxes: int = 0
    totals: Mapping[str, int] = dataclasses.field(default_factory=dict)
    scored: int = 0
    """Its boxes that someone won: a misdeal or a void box does not count toward a
    round that ends after a number of boxes (E7)."""
    substitutes: tuple[Substitute, ...] = ()
    """Who plays a seat from which box (E5)."""

    @property
    def finished(self) -> bool:
        """Its game is over or ended: the round need not wait for it."""
        return self.status.finished

    @property
    def said(self) -> str:
        return self.status.words

    @property
    def seat_totals(self) -> tuple[int, ...]:
        """Each seat's total so far, in seat order (empty before the first box)."""
        return tuple(self.totals.get(p, 0) for p in self.players) if self.boxes else ()

    def to_json(self) -> dict[str, object]:
        return {
            "round": self.round,
            "table": self.table,
            "game": self.game,
            "players": list(self.players),
            "status": self.status.value,
            "status_words": self.said,
            "playing": not self.finished,
            "boxes": self.boxes,
            "scored": self.scored,
            "totals": dict(self.totals),
            "substitutes": [sub.to_json() for sub in self.substitutes],
        }


def table_states(
    entry: EventEntry,
    results: Iterable[TableResult],
    ended: Iterable[str] = (),
    round: int | None = None,
    substitutes: Mapping[str, tuple[Substitute, ...]] | None = None,
    *,
    before: Mapping[tuple[int, int], TableState] | None = None,
    changed: frozenset[str | tuple[int, int]] = frozenset(),
) -> tuple[TableState, ...]:
    """Every seated table (of ``round``, or of every round) with where its game stands,
    from the standings' own table results (the games' stored summaries): ``ended``
    names the games ended by agreement, ``substitutes`` the substitutes by game. With
    ``before`` (the tables made from the same entry's seating for the state before, by
    place), a table is made again only if its game or its place is ``changed`` (a new
    state of an evening is one box at one table: issue 34), else taken from ``before``."""
    subs = substitutes or {}
    results = list(results)
    by_game = {r.game: r for r in results if r.game}
    by_place = {(r.round, r.table): r for r in results}
    agreed = set(ended)
    states: list[TableState] = []
    for seating in sorted(entry.seating, key=lambda s: s.round):
        if round is not None and seating.round != round:
            continue
        for number, players in enumerate(seating.tables, start=1):
            game = entry.game_of(seating.round, number)
            place = (seating.round, number)
            kept = before.get(place) if before is not None else None
            if kept is not None and game not in changed and place not in changed:
                states.append(kept)
                continue
            result = (by_game.get(game) if game else None) or by_place.get(place)
            states.append(_table_state(seating.round, number, game, players, result, agreed, subs))
    return tuple(states)


def _table_state(
    round: int,
    number: int,
    game: str | None,
    players: Iterable[str],
    result: TableResult | None,
    agreed: Container[str],
    substitutes: Mapping[str, tuple[Substitute, ...]],
) -> TableState:
    """One table of :func:`table_states`: its seats (``players``) and its game's result."""
    if result is None:
        return TableState(round, number, game, tuple(players))
    if game in agreed:
        status = TableStatus.AGREED
    elif result.over:
        status = TableStatus.DONE
    else:
        status = TableStatus.PLAYING if result.boxes else TableStatus.WAITING
    return TableState(
        round,
        number,
        game,
        tuple(result.players or players),
        status,
        result.boxes,
        dict(result.totals),
        sum(result.boxes_won.values()),
        substitutes.get(game, ()) if game else (),
    )


@dataclass(frozen=True)
class Board:
    """What a standings page or a projector shows, from the event's kept standings."""

    standings: Sequence[Standing]
    tables: tuple[TableState, ...]
    """The current round's tables."""
    results: list[TableResult]
    ended: tuple[str, ...] = ()
    """The games ended by agreement (a forced close, a director's end)."""
    kept: store.kept.Kept | None = dataclasses.field(default=None, compare=False, repr=False)
    """The kept standings as read: the next board reads only the rows changed since."""
    every_table: tuple[TableState, ...] = dataclasses.field(default=(), compare=False, repr=False)
    """The tables of every round (the pages' view), made as :func:`table_states` makes them."""
    ranking: Ranking | None = dataclasses.field(default=None, compare=False, repr=False)
    """The standings as ranked, and the entry (its seating) they and the tables were
    made from: the next board, made from the same entry, places again only the players
    whose lines changed and makes only the tables whose rows changed."""

    @property
    def substitutes(self) -> dict[str, tuple[Substitute, ...]]:
        """Who plays a seat from which box (E5), by game."""
        if self.kept is None:
            return {}
        return {game: table.substitutes for game, table in self.kept.tables.items() if table.substitutes}

    @property
    def of_record(self) -> list[TableResult]:
        """The results as the standings count them: a seat given to its substitute under
        his name (E5); ``results`` are seat by seat."""
        if self.kept is None:
            return list(self.results)
        return sorted((t.of_record for t in self.kept.tables.values()), key=lambda r: (r.round, r.table))


def kept_now(
    db: Session, event_id: str, before: store.kept.Kept | None = None
) -> tuple[store.kept.Kept | None, store.kept.Kept | None]:
    """The event's kept standings (``before``: as read last, so that only the rows
    changed since are read); computed from its games when it has none kept yet. And
    the rows read since ``before``, as read (None: every row was read)."""
    if before is not None and before.version >= 0:
        changed = store.kept.read(db, event_id, since=before.version)
        if changed is not None:
            if changed.built != before.built:
                # built again since (a director's write): every row was written then,
                # after the version read before, so every row was read
                return changed, None
            merged = store.kept.Kept(
                changed.version,
                changed.built,
                changed.rounds,
                {**before.lines, **changed.lines},
                {**before.tables, **changed.tables},
            )
            return merged, changed
    return store.kept.read(db, event_id) or store.kept.fresh(db, event_id), None


def board(db: Session, event: LoadedEvent, before: Board | None = None) -> Board:
    """The standings, the current round's tables and every table's result, from the
    event's kept standings (``before``: the board read last, whose kept rows that did
    not change are not read again). Nothing is scored or summed here: the sums are
    kept by every write (issue 34), and ranked."""
    kept, read = kept_now(db, event.id, before.kept if before else None)
    if kept is None:
        raise NotFound(f"there is no event {event.id!r}")
    if before is not None and read is not None:
        again = _board_again(event, before, kept, read)
        if again is not None:
            return again
    results = store.kept.games_of(kept.tables.values())
    ended = tuple(game_id for game_id, table in kept.tables.items() if table.ended)
    subs = {game: table.substitutes for game, table in kept.tables.items() if table.substitutes}
    names = names_of(event.entry.entrants, [table.of_record for table in kept.tables.values()])
    lent, changed = _since(before, event.entry, kept)
    every = table_states(event.entry, results, ended, None, subs, before=lent, changed=changed)
    ranks = ranking(
        event.entry,
        Tally(kept.lines, kept.rounds),
        names,
        withdrawn=event.withdrawn,
        before=before.ranking if before else None,
    )
    return Board(ranks.rows, _of_round(every, event.row.current_round), results, ended, kept, every, ranks)


def _board_again(
    event: LoadedEvent, before: Board, kept: store.kept.Kept, read: store.kept.Kept
) -> Board | None:
    """The board after ``before`` when the kept rows ``read`` since are all that
    changed (a box at a table: issue 34), made from ``before`` without a pass over
    every table: None when ``before`` was made from another entry, or a table read is
    new, seats other players (a substitute: whom the standings list) or was ended
    (director's writes, which build every kept row again anyway)."""
    was, ranked_before = before.kept, before.ranking
    if was is None or ranked_before is None or not before.every_table:
        return None
    if ranked_before.event is not event.entry:
        return None
    games = read.tables.keys()
    for game in games:
        old, new = was.tables.get(game), kept.tables[game]
        if old is None or old.ended != new.ended or old.of_record.players != new.of_record.players:
            return None
    results = [kept.tables[r.game].result if r.game in games else r for r in before.results]
    every = list(before.every_table)
    for game in games:
        table = kept.tables[game]
        at = bisect.bisect_left(every, (table.result.round, table.result.table), key=_place)
        if at < len(every) and every[at].game == game:
            seats = every[at]
            every[at] = _table_state(
                seats.round,
                seats.table,
                game,
                seats.players,
                table.result,
                before.ended,
                {game: table.substitutes},
            )
    ranks = ranking(
        event.entry,
        Tally(kept.lines, kept.rounds),
        ranked_before.names,
        withdrawn=event.withdrawn,
        before=ranked_before,
        touched=read.lines.keys(),
    )
    kept_every = tuple(every)
    return Board(
        ranks.rows,
        _of_round(kept_every, event.row.current_round),
        results,
        before.ended,
        kept,
        kept_every,
        ranks,
    )


def _place(table: TableState) -> tuple[int, int]:
    return table.round, table.table


def _of_round(every: tuple[TableState, ...], number: int) -> tuple[TableState, ...]:
    """The tables of round ``number`` among ``every`` (in the order of rounds)."""
    return every[
        bisect.bisect_left(every, number, key=_round_of) : bisect.bisect_right(every, number, key=_round_of)
    ]


def _round_of(table: TableState) -> int:
    return table.round


def _since(
    before: Board | None, entry: EventEntry, kept: store.kept.Kept
) -> tuple[dict[tuple[int, int], TableState] | None, frozenset[str | tuple[int, int]]]:
    """What the board before lends the next one's tables: its tables by place, and the
    games and places (before and now) whose kept rows are not the ones it was made from;
    nothing when the entry, its seating, is not the one it was made from."""
    if (
        before is None
        or before.ranking is None
        or before.ranking.event is not entry
        or before.kept is None
        or not before.every_table
    ):
        return None, frozenset()
    was = before.kept.tables
    changed: set[str | tuple[int, int]] = set()
    for game in was.keys() | kept.tables.keys():
        old, new = was.get(game), kept.tables.get(game)
        if old is not new:
            changed.add(game)
            changed |= {(t.result.round, t.result.table) for t in (old, new) if t is not None}
    return {(t.round, t.table): t for t in before.every_table}, frozenset(changed)


def tables(db: Session, event: LoadedEvent, round: int | None = None) -> tuple[TableState, ...]:
    """Every table of ``round`` (the current one by default) and where it stands."""
    games = store.events.table_games(db, event.id)
    results = [records.table_result(game) for game in games]
    ended = [g.game_id for g in games if g.ended]
    substituted = {g.game_id: read_substitutes(g.substitutes) for g in games if g.substitutes}
    number = event.row.current_round if round is None else round
    return table_states(event.entry, results, ended, number, substituted)


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
    box_limit: int | None = None
    """The scored boxes a table plays in a round that ends after a number of them (E7)."""
    event_name: str = ""
    """The event's name (a table card's join prompt says which event and table it is)."""


def seat_of_game(db: Session, game_id: str) -> Seat | None:
    """The event table a game is played at (for its sheet: the event, the table, the
    round's clock, the round's limit of boxes), or None for a game of no event. One
    read."""
    found = store.events.seat_of(db, game_id)
    if found is None:
        return None
    event_id, round, table, entry, clock = found
    return Seat(event_id, round, table, clock, store.events.box_limit(entry), str(entry.get("name") or ""))
