"""The JSON API's blueprint, its errors and the helpers every resource shares, and the
rules' own endpoints (adjudicate, score, arrange, the OpenAPI document).

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

from flask import Blueprint, Response, abort, current_app, jsonify, request

from ... import engine, ledger, store
from ...ledger import clubs as ledger_clubs
from ...ledger import events as ledger_events
from .. import database
from ..openapi import document

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
    if isinstance(err, ledger_events.RoundStillPlaying):
        return error_response(409, "round-playing", str(err), "force")
    if isinstance(err, ledger_events.RoundRefused):
        return error_response(409, "round-refused", str(err))
    if isinstance(err, ledger_clubs.RosterRefused):
        return error_response(422, "roster-refused", str(err))
    if isinstance(err, ledger_events.NotInEvent):
        return error_response(422, "unknown-player", str(err))
    if isinstance(err, ledger.Conflict):
        return error_response(409, "conflict", str(err))
    return error_response(422, "malformed", str(err))


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
    if event is None or not ledger_events.is_director(event, token):
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
