"""The API's stored games: create, read, append, correct and delete boxes, end, change
house rules, the sheet as PDF."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, jsonify, url_for

from ... import ledger, store
from ...engine import vocabulary
from ...engine.contract import BoxEntry, GameEntry
from ...engine.substitutes import as_seats, read_substitutes
from ...ledger import events
from .. import database, gamedata, printing, watching
from .base import (
    _authorize,
    _idempotency_key,
    _if_match,
    _object_body,
    bp,
    error_response,
)


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
        "substitutes": [sub.to_json() for sub in table.substitutes],
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


def _written(written: ledger.Written, status: int) -> Response:
    """The answer to a write: the new version, the box and the game's score."""
    table = written.table
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


def _box_entry(game_id: str | None = None) -> BoxEntry:
    """The request's box: CONTRACT.md's box body; an ``id`` is the store's to give. A
    substitute (E5) may be named in it under his own name: the box is the seat's."""
    data = _object_body()
    row = store.get_game(database.session(), game_id) if game_id else None
    subs = read_substitutes(row.substitutes) if row is not None else ()
    return BoxEntry.from_json(as_seats({k: v for k, v in data.items() if k != "id"}, subs))


@bp.post("/games/<game_id>/boxes")
def add_box(game_id: str) -> Response:
    """Append one box (needs the edit token; If-Match refuses a stale write)."""
    _authorize(game_id)
    return _written(
        ledger.record(
            database.session(),
            game_id,
            _box_entry(game_id),
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
    db, entry, version, key = database.session(), _box_entry(game_id), _if_match(), _idempotency_key()
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
