"""The JSON API of CONTRACT.md, documented at ``/api/v1/openapi.json``.

Bad input is 422 with CONTRACT.md's error object; stored games are read by id and
written with the edit token (``Authorization: Bearer``), ``If-Match: <version>``
refusing stale writes with 409 and ``Idempotency-Key`` making retries safe.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for

from .. import engine, exports, ledger, store
from ..engine import vocabulary
from ..engine.contract import BoxEntry, GameEntry
from ..engine.event import EventEntry
from ..ledger import events
from . import database, gamedata, limits, printing, standings, watching
from .openapi import document

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def error_response(
    status: int, code: str, message: str, where: str | None = None, headers: dict[str, str] | None = None
) -> Response:
    """CONTRACT.md's error object with an HTTP status."""
    body: dict[str, Any] = {"code": code, "message": message}
    if where is not None:
        body["where"] = where
    response = jsonify({"error": body})
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _engine_error(err: engine.ScorekeeperError) -> Response:
    response = jsonify(err.to_json())
    response.status_code = 422
    return response


class _BadJSON(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _BadJSON(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadJSON(f"the number {text[:20]} is too large")
    return value


def _json_body() -> Any:
    """The request's JSON, or a 422 error object when it is not JSON we can take:
    not JSON at all, NaN or Infinity, numbers beyond a float. Hostile nesting needs no
    scan of ours: the parser refuses it past the recursion limit (RecursionError), and
    the contract's readers refuse what it parses by field without recursing into it
    (tests/security/test_bad_input.py)."""
    if not request.is_json:
        abort(error_response(422, "malformed", "the body must be JSON (Content-Type: application/json)"))
    try:
        text = request.get_data(cache=True).decode("utf-8")
        data = json.loads(text, parse_constant=_reject_constant, parse_float=_finite)
    except _BadJSON as err:
        abort(error_response(422, "malformed", str(err)))
    except (ValueError, RecursionError):
        abort(error_response(422, "malformed", "the body is not valid JSON"))
    return data


def _object_body() -> dict[str, Any]:
    data = _json_body()
    if not isinstance(data, dict):
        abort(error_response(422, "malformed", "the body must be a JSON object"))
    return data


def _run(function: Callable[[Any], dict[str, Any]], data: Any) -> Response:
    try:
        return jsonify(function(data))
    except engine.ScorekeeperError as err:
        return _engine_error(err)


@bp.errorhandler(413)
def _too_large(_error: Exception) -> Response:
    limit = (current_app.config.get("MAX_CONTENT_LENGTH") or 0) // 1024
    return error_response(
        413, "too-large", f"the request is larger than {limit} KB: a whole game is far smaller; send less"
    )


@bp.post("/adjudicate")
def adjudicate() -> Response:
    """One box in, one ruling out."""
    return _run(engine.adjudicate, _object_body())


@bp.post("/score")
def score() -> Response:
    """A whole game in, the score sheet out."""
    return _run(engine.score, _object_body())


@bp.post("/arrange")
def arrange() -> Response:
    """``{"cards": [...]}`` in: best melds, count, and for 11 cards the best discard."""
    data = _object_body()
    options: dict[str, Any] = {}
    for name in ("around_the_corner", "ace_value"):
        if name in data:
            options[name] = data[name]
    if not isinstance(options.get("around_the_corner", False), bool):
        return error_response(
            422, "malformed", "around_the_corner must be true or false", "around_the_corner"
        )
    ace = options.get("ace_value", 1)
    if not isinstance(ace, int) or isinstance(ace, bool) or not 1 <= ace <= 15:
        return error_response(422, "malformed", "ace_value must be a whole number from 1 to 15", "ace_value")
    cards = data.get("cards")
    if not isinstance(cards, (list, str)):
        return error_response(
            422, "malformed", 'cards must be a list of cards such as ["7C", "10H"]', "cards"
        )
    return _run(lambda c: engine.arrange(c, **options), cards)


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(document())


# --- stored games -------------------------------------------------------------------------


def refusal(err: Exception) -> Response:
    """The API's answer to a refusal, in one place: the engine's 422, a stale write's
    409 (with the current version), a reused key's 422, a missing game or box's 404."""
    if isinstance(err, engine.ScorekeeperError):
        return _engine_error(err)
    if isinstance(err, ledger.Stale):
        return _stale(err.table.version)
    if isinstance(err, ledger.KeyReused):
        return error_response(422, "key-reused", str(err))
    if isinstance(err, ledger.NotFound):
        return error_response(404, "not-found", str(err))
    if isinstance(err, ledger.TooManyBoxes):
        return error_response(422, "malformed", str(err), err.where)
    if isinstance(err, ledger.RulesRefused):
        return error_response(422, err.error.code, str(err), err.where)
    if isinstance(err, events.RoundStillPlaying):
        return error_response(409, "round-playing", str(err), "force")
    if isinstance(err, events.RoundRefused):
        return error_response(409, "round-refused", str(err))
    if isinstance(err, events.NotInEvent):
        return error_response(422, "unknown-player", str(err))
    if isinstance(err, ledger.Conflict):
        return error_response(409, "conflict", str(err))
    return error_response(422, "malformed", str(err))


@bp.post("/games")
def create_game() -> Response:
    """Store a game (with any boxes it already has); answers its id, edit token and
    short join code. The same Idempotency-Key answers the same game and codes again."""
    data = _object_body()
    key = _idempotency_key()

    def run() -> Response:
        game = GameEntry.from_json(data)
        started = ledger.start(
            database.session(), game, key=key, secret=gamedata.secret(), max_boxes=gamedata.max_boxes()
        )
        codes = ledger.codes_of(started.table.row, gamedata.secret())
        body = {
            "id": started.table.id,
            "edit_token": codes.edit,
            "join_code": codes.join,
            "version": started.table.version,
        }
        response = jsonify({**body, "repeated": True} if started.repeated else body)
        response.status_code = 200 if started.repeated else 201
        response.headers["Location"] = url_for("api.get_game", game_id=started.table.id)
        response.headers["ETag"] = f'"{started.table.version}"'
        return response

    return run()


def _game_json(table: ledger.Table) -> dict[str, Any]:
    return {
        "id": table.id,
        "version": table.version,
        "game": table.game.to_json(),
        "score": None if table.sheet is None else table.sheet.to_json(),
    }


def _load(game_id: str) -> ledger.Table:
    table = gamedata.find(game_id)
    if table is None:
        abort(error_response(404, "not-found", f"there is no game {game_id!r}"))
    return table


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    """A stored game as ``score`` takes it, with its score, version and the history of
    changes to the game itself (each line typed and worded: engine/history.py): written
    once per version of the game in each process, as a watcher's sheet is (issue 33: an
    unchanged 300-box game cost about 40 ms of JSON on every read); a kept answer
    costs the reading of the game's row, and no turn among the big games' readers."""
    row = store.get_game(database.session(), game_id)
    if row is None:
        abort(error_response(404, "not-found", f"there is no game {game_id!r}"))
    kept = watching.kept_json((row.id, row.version, row.updated_at))
    if kept is None:
        table = _load(game_id)
        deal = vocabulary.deal_word(table.rules()) if table.sheet is not None else "box"
        lines = store.game_events(database.session(), table.id)
        body = jsonify({**_game_json(table), "history": [line.to_json(deal) for line in lines]}).get_data(
            as_text=True
        )
        watching.keep_json((table.id, table.version, table.row.updated_at), body)
        version = table.version
    else:
        body, version = kept, row.version
    response = Response(body, mimetype="application/json")
    response.headers["ETag"] = f'"{version}"'
    return response


def _bearer(what: str) -> str:
    """The token of ``Authorization: Bearer <token>``; 401 naming ``what`` to send
    when there is none."""
    header = request.headers.get("Authorization", "")
    match = re.fullmatch(r"Bearer\s+(\S+)", header.strip())
    if match is None:
        abort(
            error_response(
                401,
                "unauthorized",
                f"send {what} as 'Authorization: Bearer <token>'",
                headers={"WWW-Authenticate": 'Bearer realm="scorekeeper"'},
            )
        )
    return match.group(1)


def _authorize(game_id: str) -> str | None:
    """401 without a Bearer token, 403 with a wrong one. The token is the game's edit
    token, or the director's of the event the game is played in: then that event's id
    (the director corrects, deletes and ends even a game that was ended, issue 25)."""
    token = _bearer("the game's edit token")
    db = database.session()
    row = store.get_game(db, game_id)
    if row is None:
        abort(error_response(404, "not-found", f"there is no game {game_id!r}"))
    if store.check_edit_token(row, token):
        return None
    seat = store.events.event_of_game(db, game_id)
    event = store.events.get_event(db, seat[0]) if seat else None
    if event is None or not events.is_director(event, token):
        abort(error_response(403, "forbidden", "this token does not unlock this game"))
    return event.id


def _if_match() -> int | None:
    """The version named by ``If-Match`` (``3``, ``"3"`` or ``W/"3"``: Werkzeug parses
    the header), if sent; ``*`` names none."""
    tags = request.if_match
    if not tags or tags.star_tag:
        return None
    named = tags.as_set(include_weak=True)
    version = next(iter(named)) if len(named) == 1 else None  # '""' parses as None
    if not (isinstance(version, str) and version.isascii() and version.isdigit() and len(version) <= 12):
        abort(error_response(412, "malformed", "If-Match must be the game's version, as in the ETag"))
    return int(version)


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not re.fullmatch(r"[A-Za-z0-9_\-.:]{1,64}", key):
        abort(error_response(422, "malformed", "Idempotency-Key must be 1-64 letters, digits or -_.:"))
    return key


def _stale(current: int) -> Response:
    return error_response(
        409,
        "stale-version",
        f"the game has changed: it is now at version {current}; read it again and resend",
        headers={"ETag": f'"{current}"'},
    )


def _written(written: ledger.Written, status: int) -> Response:
    """The answer to a write: the new version, the box and the game's score."""
    table = written.table
    standings.after_write(table.id)
    body: dict[str, Any] = {
        "id": table.id,
        "version": written.version,
        "box_id": written.box_id,
        "repeated": written.repeated,
        "score": None if table.sheet is None else table.sheet.to_json(),
    }
    if written.box is not None:
        body["box"] = written.box.to_json()
    response = jsonify(body)
    response.status_code = 200 if written.repeated else status
    response.headers["ETag"] = f'"{written.version}"'
    return response


def _box_entry() -> BoxEntry:
    """The request's box: CONTRACT.md's box body; an ``id`` is the store's to give."""
    data = _object_body()
    return BoxEntry.from_json({k: v for k, v in data.items() if k != "id"})


@bp.post("/games/<game_id>/boxes")
def add_box(game_id: str) -> Response:
    """Append one box (needs the edit token; If-Match refuses a stale write)."""
    _authorize(game_id)
    return _written(
        ledger.record(
            database.session(),
            game_id,
            _box_entry(),
            version=_if_match(),
            key=_idempotency_key(),
            max_boxes=gamedata.max_boxes(),
        ),
        201,
    )


@bp.put("/games/<game_id>/boxes/<int:box_id>")
def replace_box(game_id: str, box_id: int) -> Response:
    """Correct a box; everything after it is rescored (the event's director: even in
    a game that was ended)."""
    event_id = _authorize(game_id)
    db, entry, version, key = database.session(), _box_entry(), _if_match(), _idempotency_key()
    return _written(
        ledger.correct(db, game_id, box_id, entry, version=version, key=key)
        if event_id is None
        else events.correct_box(db, event_id, game_id, box_id, entry, version=version, key=key),
        200,
    )


@bp.delete("/games/<game_id>/boxes/<int:box_id>")
def delete_box(game_id: str, box_id: int) -> Response:
    """Delete a box (kept in its history); everything after it is rescored (the
    event's director: even in a game that was ended)."""
    event_id = _authorize(game_id)
    db, version, key = database.session(), _if_match(), _idempotency_key()
    return _written(
        ledger.delete(db, game_id, box_id, version=version, key=key)
        if event_id is None
        else events.delete_box(db, event_id, game_id, box_id, version=version, key=key),
        200,
    )


@bp.post("/games/<game_id>/end")
def end_game(game_id: str) -> Response:
    """End the game by agreement after its last box (K5): no game or box bonus, the
    totals as they stand settled; recorded in the game's history."""
    _authorize(game_id)
    return _written(ledger.end(database.session(), game_id, version=_if_match(), key=_idempotency_key()), 200)


@bp.put("/games/<game_id>/settings")
def change_settings(game_id: str) -> Response:
    """Replace the game's house rules (the settings that differ from its preset) and
    rescore the whole game; refused, naming the box, if a stored box breaks them."""
    _authorize(game_id)
    return _written(
        ledger.change_rules(
            database.session(), game_id, _object_body(), version=_if_match(), key=_idempotency_key()
        ),
        200,
    )


@bp.get("/games/<game_id>/sheet.pdf")
def sheet_pdf(game_id: str) -> Response:
    """The game's score sheet as a PDF."""
    with printing.turn():  # before the game is read: a refused request costs nothing
        table = _load(game_id)
        if table.sheet is None:
            return error_response(422, "malformed", f"this game cannot be scored: {table.error}")
        return printing.pdf_response(table, *printing.pdf_options())


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
    clock = events.clock(event)
    return {
        "id": event.id,
        "version": event.row.version,
        "round": event.row.current_round,
        "finished": event.row.finished,
        "event": event.entry.to_json(),
        "standings": [s.to_json() for s in board.standings],
        "tables": [t.to_json() for t in board.tables],
        "clock": None if clock is None else {"started": clock[0].isoformat() + "Z", "minutes": clock[1]},
        "withdrawn": list(event.withdrawn),
    }


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
    body = now.drawn("json", lambda: current_app.json.dumps(event_json(now.event, now.board)) + "\n")
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


@bp.get("/events/<event_id>/results.csv")
def event_csv(event_id: str) -> Response:
    """The standings with every round's table, seat and points, as CSV."""
    event = _event(event_id)
    board = events.board(database.session(), event)
    text = exports.event_csv(event.entry, board.standings, board.results)
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
    response = jsonify(exports.event_json(event.id, event.entry, board.standings, board.results))
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.json"'
    return response


def _director_body(fields: dict[str, type]) -> dict[str, Any]:
    """The body of a director's write: exactly these fields, of these JSON types."""
    data = _object_body()
    for name in data:
        if name not in fields:
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
    """``by`` takes ``player``'s seat before that table starts, and the rounds after."""
    _director(event_id)
    data = _director_body({"player": str, "by": str})
    written = events.replace(
        database.session(),
        event_id,
        data["player"],
        data["by"],
        secret=gamedata.secret(),
        key=_idempotency_key(),
    )
    return _event_response(written)
