"""Limits where anonymous clients can spend the server (issue 23): starting games is
limited per address with Flask-Limiter.

One client started 2,000 games in 17.5 s: every start is a row, a scoring and a page
on a public server, for nobody. Every request that seats games spends one budget per
address, ``START_LIMIT`` (Flask-Limiter's notation: ``"500 per minute;5000 per day"``):
a new game or a rematch (the form and the API's ``POST /games``) one; an event's start,
the next round seated (the form, the API) and late entries the tables they seat or
will seat. An event is charged after the engine has read it (issue 33: entrants sent
as text, one a line, were charged one), with the tables its movement seats; an event
the engine refuses (too many entrants) answers the engine's 422 and costs nothing.
The largest event the engine takes, 1,000 entrants at tables of two (500 tables),
starts under the default limit; a club running several such evenings a day, or whose
phones all reach a public server from one address (the club's Wi-Fi), raises it.

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

from flask import Flask, Response, current_app, g, request
from flask.typing import RouteCallable
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.exceptions import TooManyRequests

from .. import engine
from ..engine.event import MAX_ENTRANTS, EventEntry
from ..engine.movement import table_sizes
from ..store.events import LoadedEvent
from . import htmx

START_LIMIT = "500 per minute;5000 per day"
"""Games one address may seat: the largest event the engine takes (1,000 entrants at
tables of two: 500 tables) in a minute, and ten of its rounds a day; or a club evening
of 100 tables starting at once from behind one address, a few games a table; a script's
thousands a minute are refused."""

STARTS = ("games.new", "games.rematch", "api.create_game")
"""The endpoints that start one game (a new endpoint that starts one is added here).
An event's seatings are charged by :func:`charge` once the engine has read them."""

SCOPE = "start"
"""The budget's name in the limiter's storage, shared by the starts and the charges."""

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
    starts = limiter.shared_limit(_start_limit, scope=SCOPE, methods=["POST"], error_message=BUSY_MESSAGE)
    for endpoint in STARTS:
        app.view_functions[endpoint] = cast(RouteCallable, starts(app.view_functions[endpoint]))
    app.register_error_handler(429, _too_many)


def _start_limit() -> str:
    return str(current_app.config["START_LIMIT"])


def tables_of(entry: EventEntry, players: int | None = None) -> int:
    """The tables the engine's movement seats for an event's entrants (or ``players`` of
    them present): the games a round of it starts.

    >>> entry = EventEntry.from_json({"name": "x", "rounds": 1, "table_size": 2,
    ...                               "rules": "gin", "entrants": "Ann\\nBob\\nCal"})
    >>> tables_of(entry), tables_of(entry, 1000)
    (1, 500)
    """
    rules = engine.find_rules(entry.rules).with_settings(dict(entry.settings))
    count = len(entry.entrants) if players is None else players
    return len(table_sizes(count, entry.table_size, rules.min_players, rules.max_players))


def charge_next_round(event: LoadedEvent) -> None:
    """Charge the tables the event's next round seats (its present entrants)."""
    charge(tables_of(event.entry, len(event.playing(event.row.current_round + 1))))


def late_entries_cost(entry: EventEntry, names: int) -> int:
    """What late entries spend: the tables they will fill (one at least)."""
    return max(1, math.ceil(min(names, MAX_ENTRANTS) / max(entry.table_size, 2)))


def charge(cost: int) -> None:
    """Spend ``cost`` of this address's start budget now, after the engine has read
    what the request seats; past the limit the request is refused (429 with
    Retry-After) before anything is written, and nothing is spent."""
    limiter = current_app.extensions["scorekeeper.limiter"]
    assert isinstance(limiter, Limiter)
    if not limiter.enabled or cost <= 0:
        return
    key = (get_remote_address(), SCOPE)
    items = parse_many(_start_limit())
    for item in items:
        if not limiter.limiter.test(item, *key, cost=cost):
            reset = limiter.limiter.get_window_stats(item, *key).reset_time
            g.retry_after = max(math.ceil(reset - time.time()), 1)
            raise TooManyRequests(BUSY_MESSAGE)
    for item in items:
        limiter.limiter.hit(item, *key, cost=cost)


def _too_many(error: TooManyRequests) -> Response:
    """429 with Retry-After: CONTRACT.md's error object for the API, a page for phones."""
    limiter = current_app.extensions["scorekeeper.limiter"]
    assert isinstance(limiter, Limiter)
    limit = limiter.current_limit
    retry = str(g.get("retry_after") or (max(math.ceil(limit.reset_at - time.time()), 1) if limit else 60))
    message = error.description or BUSY_MESSAGE
    if request.blueprint == "api" or request.path.startswith("/api/"):
        from .api import error_response

        return error_response(429, "too-many-requests", message, headers={"Retry-After": retry})
    page, status = htmx.error_page(429, "Too many new games", message)
    return Response(page, status=status, mimetype="text/html", headers={"Retry-After": retry})
