"""Limits where anonymous clients can spend the server (issue 23): starting games is
limited per address with Flask-Limiter.

One client started 2,000 games in 17.5 s: every start is a row, a scoring and a page
on a public server, for nobody. The game-starting requests (the new-game form, a
rematch, the API's ``POST /games``, and an event's start on the form or the API, which
seats a game per table of its first round) share one budget per address, ``START_LIMIT``
(Flask-Limiter's notation: ``"300 per minute;3000 per day"``): an event of 300 tables
(900 players) starts in one request; a club running larger events, or whose phones all
reach a public server from one address (the club's Wi-Fi), raises it.

Counts are kept in ``RATELIMIT_STORAGE_URI``: ``memory://``, in each process, by
default (with four gunicorn workers the limit is up to four times as loose); a
``redis://`` or ``memcached://`` URI shares one count between them (Flask-Limiter's
storage, with the ``limits`` package's driver for it installed). Behind a proxy the
address is the phone's only with ``PROXY_FIX`` (docs/deploy.md).
"""

from __future__ import annotations

import math
import time
from typing import cast

from flask import Flask, Response, current_app, request
from flask.typing import RouteCallable
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import TooManyRequests

from . import htmx

START_LIMIT = "300 per minute;3000 per day"
"""Games one address may start: a director seating an event of 300 tables, or a club
evening of 100 tables starting at once from behind one address, a few games a table; a
script's thousands a minute are refused."""

EVENT_STARTS = ("events.new", "api.create_event")
"""The endpoints that start an event: each costs the games its first round seats."""

STARTS = ("games.new", "games.rematch", "api.create_game", *EVENT_STARTS)
"""The endpoints that start a game (a new endpoint that starts one is added here)."""

BUSY_MESSAGE = (
    "Too many games were started from this address: wait a minute and try "
    "again. Games already started can be scored as usual, and events "
    "already started go on (their directors seat the next rounds)."
)


def init_app(app: Flask) -> None:
    """A limiter for this app (its own counts) and the starting endpoints limited by
    it, after the blueprints are registered."""
    app.config.setdefault("START_LIMIT", START_LIMIT)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["scorekeeper.limiter"] = limiter
    # Every other request is let through before the limiter resolves any limit: a poll
    # (most of a club evening's requests) pays a set lookup, not Flask-Limiter's checks.
    limiter.request_filter(lambda: request.endpoint not in STARTS)
    starts = limiter.shared_limit(
        _start_limit, scope="start", methods=["POST"], error_message=BUSY_MESSAGE, cost=_cost
    )
    for endpoint in STARTS:
        app.view_functions[endpoint] = cast(RouteCallable, starts(app.view_functions[endpoint]))
    app.register_error_handler(429, _too_many)


def _start_limit() -> str:
    return str(current_app.config["START_LIMIT"])


def _cost() -> int:
    """What a start spends of the budget: one game, or for an event the tables of its
    first round (its entrants over its table size, as posted; one at least). Read
    before the view checks the request, so a malformed event costs one."""
    if request.endpoint not in EVENT_STARTS:
        return 1
    if request.is_json:
        data = request.get_json(silent=True)
        data = data if isinstance(data, dict) else {}
        entrants = data.get("entrants")
        count = len(entrants) if isinstance(entrants, list) else 0
        size = data.get("table_size")
    else:
        count = sum(1 for line in request.form.get("entrants", "").splitlines() if line.strip())
        size = request.form.get("table_size")
    try:
        seats = int(size)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seats = 2
    return max(1, count // max(seats, 2))


def _too_many(error: TooManyRequests) -> Response:
    """429 with Retry-After: CONTRACT.md's error object for the API, a page for phones."""
    limiter = current_app.extensions["scorekeeper.limiter"]
    assert isinstance(limiter, Limiter)
    limit = limiter.current_limit
    retry = str(max(math.ceil(limit.reset_at - time.time()), 1) if limit else 60)
    message = error.description or BUSY_MESSAGE
    if request.blueprint == "api" or request.path.startswith("/api/"):
        from .api import error_response

        return error_response(429, "too-many-requests", message, headers={"Retry-After": retry})
    page, status = htmx.error_page(429, "Too many new games", message)
    return Response(page, status=status, mimetype="text/html", headers={"Retry-After": retry})
