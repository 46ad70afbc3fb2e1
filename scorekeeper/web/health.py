"""Health check for whoever runs the server: the app answers and the database too."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from . import database

bp = Blueprint("health", __name__)


@bp.get("/health")
def health() -> tuple[Response, int]:
    """``{"status": "ok"}`` when the database answers, 503 otherwise."""
    try:
        database.session().execute(text("SELECT 1"))
    except SQLAlchemyError as err:
        return jsonify({"status": "error", "database": type(err).__name__}), 503
    return jsonify({"status": "ok", "database": "ok"}), 200
