"""The API's events (club nights): start, read, seat and close rounds, results, and the
director's writes, each with an Idempotency-Key."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from flask import Response, abort, current_app, jsonify, request, url_for

from ... import exports, store
from ...engine.event import EventEntry, Standing, values_and_ranks
from ...ledger import events
from .. import ahead, database, gamedata, limits, standings
from .base import (
    _bearer,
    _idempotency_key,
    _object_body,
    bp,
    error_response,
)

# --- events (club nights) ---------------------------------------------------------------


def _event(event_id: str) -> store.events.LoadedEvent:
    found = events.load_event(database.session(), event_id)
    if found is None:
        abort(error_response(404, "not-found", f"there is no event {event_id!r}"))
    return found


def _director(event_id: str) -> None:
    """401 without the director's token, 403 with a wrong one."""
    token = _bearer("the event's director token")
    row = store.events.get_event(database.session(), event_id)
    if row is None:
        abort(error_response(404, "not-found", f"there is no event {event_id!r}"))
    if not events.is_director(row, token):
        abort(error_response(403, "forbidden", "this token is not this event's director's"))


def event_json(event: store.events.LoadedEvent, board: events.Board | None = None) -> dict[str, Any]:
    """CONTRACT.md's event with its standings, the current round's tables and clock
    (``board``: the event's, when the caller has it)."""
    board = board or events.board(database.session(), event)
    return _event_fields(
        event,
        event.entry.to_json(),
        [s.to_json() for s in board.standings],
        [t.to_json() for t in board.tables],
    )


def _event_fields(event: store.events.LoadedEvent, entry: Any, standings: Any, tables: Any) -> dict[str, Any]:
    """The event's fields in CONTRACT.md's order, with its entry, standings and tables
    as given (as values, or as JSON written already: :class:`Written`)."""
    clock = events.clock(event)
    return {
        "id": event.id,
        "version": event.row.version,
        "round": event.row.current_round,
        "finished": event.row.finished,
        "event": entry,
        "standings": standings,
        "tables": tables,
        "clock": None if clock is None else {"started": clock[0].isoformat() + "Z", "minutes": clock[1]},
        "withdrawn": list(event.withdrawn),
    }


class Written(str):
    """A value's JSON, written already: put in as it is."""


PIECES = 8192
"""JSON pieces (a standing's, a table's) kept per process: every line of a few
1,000-player events."""


RANK = '"rank": -1'
"""A standing's rank as written before its piece is cut there (no name holds it: a
name's quotes are escaped)."""


class Pieces:
    """Each standing's and table's JSON, written once per process for the values it
    shows, and each event entry's once per entry read (issue 34: a new state of a
    300-table event wrote 900 standings and 300 tables again, 16 ms, where a box changes
    a table and the ranks between its players' old and new places)."""

    def __init__(self, dumps: Callable[[Any], str]) -> None:
        self.dumps = dumps
        self.written: dict[Hashable, str] = {}
        self.entries: dict[int, tuple[EventEntry, str]] = {}
        self.ranked: dict[Hashable, tuple[str, str]] = {}
        self.lines_written = standings.ByIdentity[tuple[str, str]]()
        self.tables_written = standings.ByIdentity[str]()

    def standings(self, rows: Sequence[Standing]) -> str:
        """The standings written: each line's rank put in the piece written once for the
        rest of its values (a box moves the rank of every line between its players' old
        and new places), found by the line whose values it has
        (:class:`.standings.ByIdentity`) or by the values."""
        values, ranks = values_and_ranks(rows)
        cuts = self.lines_written.each(values, None, self._cut)
        pairs = zip(ranks, cuts, strict=True)
        return "[" + ", ".join(f"{head}{rank}{tail}" for rank, (head, tail) in pairs) + "]"

    def tables(self, tables: Sequence[events.TableState]) -> str:
        """The tables written, each found by the table (the next state keeps a table
        whose kept row did not change: :func:`scorekeeper.ledger.events.table_states`),
        or by its values."""
        return "[" + ", ".join(self.tables_written.each(tables, None, self._table)) + "]"

    def _cut(self, s: Standing) -> tuple[str, str]:
        """A standing's piece before its rank and after it, once for its values."""

        def cut() -> tuple[str, str]:
            head, _, tail = self.dumps({**s.to_json(), "rank": -1}).partition(RANK)
            return head + RANK[:-2], tail

        return _kept(self.ranked, s.unranked, cut, PIECES)

    def _table(self, t: events.TableState) -> str:
        key = (
            t.round,
            t.table,
            t.game,
            t.players,
            t.status,
            t.boxes,
            tuple(t.totals.items()),
            t.scored,
            t.substitutes,
        )
        return _kept(self.written, key, lambda: self.dumps(t.to_json()), PIECES)

    def entry(self, entry: EventEntry) -> str:
        """The event's entry written, once for the entry as read (a box at a table keeps
        the event's): found by its identity, not hashed (it holds every entrant)."""
        found = self.entries.get(id(entry))
        if found is None or found[0] is not entry:
            found = (entry, self.dumps(entry.to_json()))
            if len(self.entries) >= 16:
                self.entries.clear()
            self.entries[id(entry)] = found
        return found[1]


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _kept(pieces: dict[K, V], key: K, make: Callable[[], V], size: int) -> V:
    """``pieces[key]``, made by ``make()`` the first time; ``pieces`` emptied once it
    holds ``size`` (a new evening's lines: start again). Threads may make a piece twice,
    never a wrong one."""
    found = pieces.get(key)
    if found is None:
        found = make()
        if len(pieces) >= size:
            pieces.clear()
        pieces[key] = found
    return found


def _pieces() -> Pieces:
    found = current_app.extensions.get("scorekeeper.json_pieces")
    if found is None:
        found = current_app.extensions.setdefault("scorekeeper.json_pieces", Pieces(current_app.json.dumps))
    assert isinstance(found, Pieces)
    return found


def event_json_text(event: store.events.LoadedEvent, board: events.Board) -> str:
    """``current_app.json.dumps(event_json(event, board))``, the same text, from the
    pieces written before: each standing, each table and the entry."""
    pieces = _pieces()
    fields = _event_fields(
        event,
        Written(pieces.entry(event.entry)),
        Written(pieces.standings(board.standings)),
        Written(pieces.tables(board.tables)),
    )
    dumps = pieces.dumps
    keys = sorted(fields) if getattr(current_app.json, "sort_keys", False) else list(fields)
    return "{" + ", ".join(f"{dumps(k)}: {_written(fields[k], dumps)}" for k in keys) + "}"


def _written(value: Any, dumps: Callable[[Any], str]) -> str:
    return value if isinstance(value, Written) else dumps(value)


def _event_response(event: store.events.LoadedEvent, status: int = 200) -> Response:
    response = jsonify(event_json(event))
    response.status_code = status
    response.headers["ETag"] = f'"{event.row.version}"'
    return response


@bp.post("/events")
def create_event() -> Response:
    """Start an event (CONTRACT.md "An event": name, rules, table size, rounds, how a
    round ends, how standings count, entrants) and seat its first round from a seed
    (given, or drawn and answered). Answers the event with the director's token and
    short code; the same Idempotency-Key answers the same event again."""
    data = _object_body()
    key = _idempotency_key()

    def run() -> Response:
        entry = EventEntry.from_json(
            {k: v for k, v in data.items() if k not in ("seating", "games", "penalties")}
        )
        limits.charge(limits.tables_of(entry))
        started = events.start_event(database.session(), entry, secret=gamedata.secret(), key=key)
        codes = events.director_codes(started.event.row, gamedata.secret())
        body = {
            **event_json(started.event),
            "director_token": codes.director,
            "join_code": codes.join,
            "repeated": started.repeated,
        }
        response = jsonify(body)
        response.status_code = 200 if started.repeated else 201
        response.headers["Location"] = url_for("api.get_event", event_id=started.event.id)
        response.headers["ETag"] = f'"{started.event.row.version}"'
        return response

    return run()


@bp.get("/events/<event_id>")
def get_event(event_id: str) -> Response:
    """The event with its standings, the current round's tables and its clock: a
    projector's poll, so written once per state of the event in each process."""
    now = standings.now(event_id)
    if now is None:
        return error_response(404, "not-found", f"there is no event {event_id!r}")
    ahead.watch(event_id)
    body = now.drawn("json", lambda: event_json_text(now.event, now.board) + "\n")
    response = Response(body, mimetype="application/json")
    response.headers["ETag"] = f'"{now.event.row.version}"'
    return response


@bp.post("/events/<event_id>/rounds")
def seat_round(event_id: str) -> Response:
    """Seat the next round (the previous one closed): the movement seats the present
    entrants and each table's game is started."""
    _director(event_id)
    limits.charge_next_round(_event(event_id))
    return _event_response(
        events.seat_next_round(
            database.session(), event_id, secret=gamedata.secret(), key=_idempotency_key()
        ),
        201,
    )


@bp.post("/events/<event_id>/rounds/<int:number>/close")
def close_round(event_id: str, number: int) -> Response:
    """Close the current round: 409 while a table still plays unless ``{"force": true}``
    (the running games then end by agreement, settled as they stand)."""
    _director(event_id)
    data = _object_body() if request.get_data(cache=True).strip() else {}
    force = data.get("force", False)
    if not isinstance(force, bool) or set(data) - {"force"}:
        return error_response(422, "malformed", 'the body is {"force": true} or empty', "force")
    event = _event(event_id)
    if number != event.row.current_round:
        return error_response(
            409, "round-refused", f"round {number} is not the current round ({event.row.current_round})"
        )
    return _event_response(
        events.close_round(database.session(), event_id, force=force, key=_idempotency_key())
    )


@bp.post("/events/<event_id>/rounds/<int:number>/start")
def start_round(event_id: str, number: int) -> Response:
    """Start round ``number``'s clock (E7; its first box starts it otherwise): the event
    with its ``clock``. Sent again once the round runs, it writes nothing."""
    _director(event_id)
    return _event_response(events.start_round(database.session(), event_id, number, key=_idempotency_key()))


@bp.get("/events/<event_id>/results.csv")
def event_csv(event_id: str) -> Response:
    """The standings with every round's table, seat and points, as CSV."""
    event = _event(event_id)
    board = events.board(database.session(), event)
    text = exports.event_csv(event.entry, board.standings, board.of_record)
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="event-{event.id}.csv"'},
    )


@bp.get("/events/<event_id>/results.json")
def event_results_json(event_id: str) -> Response:
    """The event, its standings and every table's result, as JSON."""
    event = _event(event_id)
    board = events.board(database.session(), event)
    body = exports.event_json(event.id, event.entry, board.standings, board.of_record)
    places = {result.game: (result.round, result.table) for result in board.results}
    body["replacements"] = [  # E5: both names, the table, from which box, for whom it counts
        {"round": places[game][0], "table": places[game][1], "game": game, **sub.to_json()}
        for game, subs in board.substitutes.items()
        for sub in subs
    ]
    response = jsonify(body)
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.json"'
    return response


def _director_body(fields: dict[str, type], optional: dict[str, type] | None = None) -> dict[str, Any]:
    """The body of a director's write: exactly these fields, of these JSON types (and
    the ``optional`` ones when given)."""
    data = _object_body()
    more = optional or {}
    for name in data:
        if name not in fields and name not in more:
            abort(
                error_response(
                    422,
                    "malformed",
                    f"this request has no field {name[:40]!r} (it takes {', '.join(fields)})",
                    name[:40],
                )
            )
    for name, kind in fields.items():
        value = data.get(name)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            what = {str: "text", int: "a whole number", list: "a list"}.get(kind, "given")
            abort(error_response(422, "malformed", f"{name} must be {what}", name))
    for name, kind in more.items():
        if name in data and not isinstance(data[name], kind):
            abort(
                error_response(422, "malformed", f"{name} must be {'text' if kind is str else 'given'}", name)
            )
    return data


@bp.post("/events/<event_id>/entrants")
def enter(event_id: str) -> Response:
    """A late entry (``{"name": ...}``), playing from the next round. Every director's
    write takes an ``Idempotency-Key``: sent again it answers the event as it is."""
    _director(event_id)
    data = _director_body({"name": str})
    limits.charge(limits.late_entries_cost(_event(event_id).entry, 1))
    written = events.enter(database.session(), event_id, data["name"], key=_idempotency_key())
    return _event_response(written, 201)


@bp.post("/events/<event_id>/withdrawals")
def withdraw(event_id: str) -> Response:
    """A withdrawal (``{"name": ...}``) from the next round; kept in the standings."""
    _director(event_id)
    data = _director_body({"name": str})
    return _event_response(
        events.withdraw(database.session(), event_id, data["name"], key=_idempotency_key())
    )


@bp.post("/events/<event_id>/penalties")
def penalize(event_id: str) -> Response:
    """Points off a player's score with a note (``{"player", "points", "note"}``), also
    in the history of the player's game this round (E4)."""
    _director(event_id)
    data = _director_body({"player": str, "points": int, "note": str})
    key = _idempotency_key()
    return _event_response(
        events.penalize(database.session(), event_id, data["player"], data["points"], data["note"], key=key),
        201,
    )


@bp.post("/events/<event_id>/penalties/<int:number>/withdrawal")
def withdraw_penalty(event_id: str, number: int) -> Response:
    """Take penalty ``number`` back (``{"why": ...}``, optional): kept, struck out (E4)."""
    _director(event_id)
    data = _director_body({"why": str}) if request.get_data(cache=True).strip() else {"why": ""}
    written = events.withdraw_penalty(
        database.session(), event_id, number, data["why"], key=_idempotency_key()
    )
    return _event_response(written)


@bp.post("/events/<event_id>/games/<game_id>/end")
def end_table(event_id: str, game_id: str) -> Response:
    """The director ends a table's game by agreement, settled as it stands (E7)."""
    _director(event_id)
    written = events.end_table(database.session(), event_id, game_id, key=_idempotency_key())
    return _event_response(written)


@bp.post("/events/<event_id>/games/<game_id>/reopen")
def reopen_table(event_id: str, game_id: str) -> Response:
    """The director reopens a table's game ended by mistake (kept in its history)."""
    _director(event_id)
    written = events.reopen_table(database.session(), event_id, game_id, key=_idempotency_key())
    return _event_response(written)


@bp.post("/events/<event_id>/swaps")
def swap(event_id: str) -> Response:
    """Swap two players' seats before their tables start (``{"players": [a, b]}``)."""
    _director(event_id)
    data = _director_body({"players": list})
    players = data["players"]
    if len(players) != 2 or not all(isinstance(p, str) for p in players):
        return error_response(422, "malformed", "players names the two players to swap", "players")
    written = events.swap(
        database.session(), event_id, players[0], players[1], secret=gamedata.secret(), key=_idempotency_key()
    )
    return _event_response(written)


@bp.post("/events/<event_id>/replacements")
def replace(event_id: str) -> Response:
    """``by`` takes ``player``'s seat, and his place in the rounds after: before the
    table's first box it plays a new game; once the table has a box the game is kept
    and ``by`` plays the seat from the next box (E5), its result counting for
    ``counts_for`` (``player`` unless it names ``by``)."""
    _director(event_id)
    data = _director_body({"player": str, "by": str}, {"counts_for": str})
    written = events.replace(
        database.session(),
        event_id,
        data["player"],
        data["by"],
        counts_for=data.get("counts_for"),
        secret=gamedata.secret(),
        key=_idempotency_key(),
    )
    return _event_response(written)
