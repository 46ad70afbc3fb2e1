"""Health check for whoever runs the server (a proxy, an orchestrator): the app answers,
the database answers, and its schema is the one this code expects."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from sqlalchemy.exc import SQLAlchemyError

from .. import store
from . import database

bp = Blueprint("health", __name__)


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
