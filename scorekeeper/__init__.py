"""scorekeeper: score keeping and rules adjudication for Jersey Gin and the Gin family."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

_PROJECT = Path(__file__).resolve().parent.parent


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the web app: configuration, database, blueprints (Flask's tutorial factory).

    ``test_config`` replaces the instance configuration; tests pass a temporary
    ``DATABASE_URL`` and a fixed ``SECRET_KEY``.
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(_PROJECT / "templates"),
        static_folder=str(_PROJECT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL")
        or f"sqlite:///{instance / 'scorekeeper.sqlite3'}",
        # A box form with three card grids is a few kilobytes; a 40-box game in the API
        # a few dozen. Anything far larger is refused with 413 before it is parsed.
        MAX_CONTENT_LENGTH=256 * 1024,
        MAX_FORM_MEMORY_SIZE=256 * 1024,
        MAX_FORM_PARTS=600,
        # Phones keep a box form open for a whole box: the CSRF token must not expire.
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),
        RECENT_GAMES_PUBLIC=True,
        POLL_SECONDS=3,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(instance / "secret_key")

    from . import store, web

    store.init_app(app)
    web.init_app(app)
    return app


def _instance_secret(path: Path) -> str:
    """The instance's secret key, generated on first run so it is never in code."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(key)
    return key
