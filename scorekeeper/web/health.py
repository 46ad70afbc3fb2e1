"""Health check for whoever runs the server (a proxy, an orchestrator): the app answers,
the database answers, and its schema is the one this code expects; and the same check
before every write, so a server whose database is behind refuses writes (503) instead
of failing half-way through them."""

from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, jsonify, request
from sqlalchemy.exc import SQLAlchemyError

from .. import store
from . import database, htmx

bp = Blueprint("health", __name__)

STORES_NOTHING = frozenset({"api.adjudicate", "api.score", "api.arrange", "disputes.settle", "games.cut"})
"""Posts that rule or score without reading or writing the database: they still answer."""
CURRENT_FOR = 2.0
"""Seconds a process trusts a schema it found current before asking again (one query a
write otherwise); a schema found behind is asked again at the next write."""
RETRY_AFTER = "30"


@bp.get("/health")
def health() -> tuple[Response, int]:
    """200 ``{"status": "ok", "database": "ok", "schema": "current"}``; 503 when the
    database does not answer (``database`` names the error) or is not at the latest
    migration (``"schema": "behind"``: run ``scorekeeper migrate``), since every page
    would then fail."""
    try:
        current = store.schema_current(database.session())
    except SQLAlchemyError as err:
        return jsonify({"status": "error", "database": type(err).__name__}), 503
    if not current:
        return jsonify({"status": "error", "database": "ok", "schema": "behind"}), 503
    return jsonify({"status": "ok", "database": "ok", "schema": "current"}), 200


@bp.before_app_request
def refuse_writes_when_behind() -> Response | tuple[str, int] | None:
    """A write to a database whose schema is not this code's gets 503 with Retry-After,
    as ``/health`` says, and nothing is tried (issue 23: before, it went on and failed
    half-way with a 500)."""
    if (
        request.method in ("GET", "HEAD", "OPTIONS")
        or request.endpoint in STORES_NOTHING
        or request.endpoint is None
        or _known_current()
    ):
        return None
    message = (
        "The server's database is behind this version of scorekeeper: nothing can "
        "be saved until whoever runs it runs \u201cscorekeeper migrate\u201d. Try "
        "again in a minute; what you typed is not lost if you keep this page."
    )
    if request.path.startswith("/api/"):
        response = jsonify({"error": {"code": "schema-behind", "message": message}})
        response.status_code = 503
    else:
        body, status = htmx.error_page(503, "Not saved: the server is being updated", message)
        response = current_app.make_response((body, status))
    response.headers["Retry-After"] = RETRY_AFTER
    return response


def _known_current() -> bool:
    """Whether the schema is current, asked at most every :data:`CURRENT_FOR` seconds
    while it is (a database that does not answer counts as current here: the write's
    own error says what is wrong)."""
    found = current_app.extensions.get("scorekeeper.schema")
    now = time.monotonic()
    if isinstance(found, float) and now - found < CURRENT_FOR:
        return True
    try:
        current = store.schema_current(database.session())
    except SQLAlchemyError:
        return True
    if current:
        current_app.extensions["scorekeeper.schema"] = now
    else:
        current_app.extensions.pop("scorekeeper.schema", None)
    return current
