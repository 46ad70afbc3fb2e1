"""The store in a Flask app: one engine per app, one session per request, closed after it."""

from __future__ import annotations

from flask import Flask, current_app, g
from sqlalchemy.orm import Session, sessionmaker

from .. import store


def init_app(app: Flask) -> None:
    """Give the app an engine and a request-scoped session, closed after each request."""
    engine = store.connect(str(app.config["DATABASE_URL"]))
    app.extensions["scorekeeper.engine"] = engine
    app.extensions["scorekeeper.store"] = sessionmaker(engine, expire_on_commit=False)
    app.teardown_appcontext(_close_session)


def session() -> Session:
    """The current request's database session."""
    if "db" not in g:
        factory: sessionmaker[Session] = current_app.extensions["scorekeeper.store"]
        g.db = factory()
    db: Session = g.db
    return db


def _close_session(_exc: BaseException | None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()
