"""A poll that finds nothing new costs almost nothing (issue 34).

Every phone at a table polls its sheet (``/games/<id>/sheet?since=<version>``) and
every projector the standings (``/events/<id>/standings?since=<stamp>``) every few
seconds, with htmx (``HX-Request``); almost every poll finds nothing new and is
answered 204. Through Flask that answer cost a request context, the session cookie
checked and decoded, the rate limiter's bookkeeping, a database session opened and
closed and the response's hooks: 0.84 ms in the app, 2.5 ms of server CPU through
waitress (issue 34's measure). This WSGI layer, in front of the app, answers such a
poll from one indexed read on a pooled connection (the game's version, or the event's
kept standings stamp: ``store.kept.stamp``) and hands anything else, including a poll
that finds a change, to the app unchanged. The answer carries the headers the app's
own 204 carries.

The no-JavaScript page is not a poll (no ``HX-Request``, a meta refresh): it goes to
the app as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qs

from sqlalchemy import Engine

from .. import store

SHEET = re.compile(r"/games/([^/]{1,32})/sheet")
STANDINGS = re.compile(r"/events/([^/]{1,32})/standings")

READ = "scorekeeper.standings_stamp"
"""Where this layer leaves, in the request's environ, the standings stamp it read of a
poll that found a change (``(event_id, parts)``, :func:`read_of`): the view reads it
no second time, and a request the server's loop asked already is not asked again."""

StartResponse = Callable[..., Any]
Wsgi = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def is_poll(method: str, htmx: str | None, query: str) -> bool:
    """An htmx poll: a GET from htmx (its ``HX-Request`` header ``true``) with ``since``.

    >>> is_poll("GET", "true", "since=4"), is_poll("GET", None, "since=4"), is_poll("POST", "true", "since=4")
    (True, False, False)
    """
    return method == "GET" and htmx == "true" and "since=" in query


class Unchanged:
    """The app behind a layer that answers an unchanged htmx poll itself."""

    def __init__(
        self,
        app: Wsgi,
        engine: Engine,
        headers: list[tuple[str, str]],
        stamp: Callable[[tuple[object, ...]], str],
    ) -> None:
        self.app = app
        self.engine = engine
        self.reading = store.db.one_statement(engine)
        """The engine the standings' stamp is read on (``store.version_on`` reads the
        sheet's version without a transaction too)."""
        self.headers = headers
        self.stamp = stamp

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if READ not in environ:  # else the server's loop found the poll's change
            read: dict[str, Any] = {}
            if self.answers(
                environ.get("REQUEST_METHOD", ""),
                environ.get("HTTP_HX_REQUEST"),
                environ.get("PATH_INFO", ""),
                environ.get("QUERY_STRING", ""),
                read,
            ):
                start_response("204 NO CONTENT", list(self.headers))
                return []
            environ.update(read)
        return self.app(environ, start_response)

    def answers(
        self, method: str, htmx: str | None, path: str, query: str, read: dict[str, Any] | None = None
    ) -> bool:
        """Whether this layer answers the request itself (204): an htmx poll that finds
        nothing new (``scorekeeper serve``'s loop asks it too, of a request just read).
        A standings poll that finds a change leaves the stamp it read in ``read``
        (under :data:`READ`, for the request's environ)."""
        return is_poll(method, htmx, query) and self.unchanged(path, query, read)

    def unchanged(self, path: str, query: str, read: dict[str, Any] | None = None) -> bool:
        """Whether the poll at ``path`` with ``query`` finds what it already shows."""
        since = parse_qs(query).get("since")
        if not since or len(since) != 1:
            return False
        sheet = SHEET.fullmatch(path)
        if sheet is not None:
            if not since[0].isdigit():
                return False
            return store.version_on(self.engine, sheet.group(1)) == int(since[0])
        standings = STANDINGS.fullmatch(path)
        if standings is not None:
            with self.reading.connect() as sql:
                parts = store.kept.stamp(sql, standings.group(1))
            if parts is None or parts[2] == -1:  # no kept standings yet: the app's stamp reads the games
                return False
            if self.stamp(parts) == since[0]:
                return True
            if read is not None:
                read[READ] = (standings.group(1), parts)
        return False


def read_of(environ: Mapping[str, Any], event_id: str) -> tuple[object, ...] | None:
    """The standings stamp of ``event_id`` this request's poll was found changed by (None:
    not read)."""
    found = environ.get(READ)
    return found[1] if found is not None and found[0] == event_id else None
