"""scorekeeper: score keeping and rules adjudication for Jersey Gin and the Gin family."""

from __future__ import annotations

import os
import secrets
import tempfile
import time
from collections.abc import Mapping
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature

from .lru import Lru

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
        # The cookie is signed again once a day, not on every request (see _SessionInterface).
        SESSION_REFRESH_EACH_REQUEST=False,
        # The home page lists the games this browser started or opened; True lists every
        # game on the server (a club's own machine), which shows every game's read link.
        RECENT_GAMES_PUBLIC=False,
        POLL_SECONDS=3,
        # Behind a reverse proxy that terminates HTTPS, set this to the number of proxies
        # in front (instance/config.py): X-Forwarded-Proto/-For/-Host are then believed.
        # Never on by default, or any phone could claim to be on HTTPS.
        PROXY_FIX=0,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(instance / "secret_key")

    app.session_interface = _SessionInterface()
    proxies = int(app.config["PROXY_FIX"] or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)

    from . import store, web

    store.init_app(app)
    web.init_app(app)
    return app


class _SessionInterface(SecureCookieSessionInterface):
    """Session cookies marked Secure whenever the page itself came over HTTPS, and
    renewed once a day.

    The cookie holds the edit secrets of this browser's games; over plain HTTP on the
    table's LAN a Secure cookie would never come back, so Secure follows the request
    (or ``SESSION_COOKIE_SECURE`` forces it).

    A permanent session lasts ``PERMANENT_SESSION_LIFETIME`` from its last renewal.
    Flask would sign and send the cookie again with every response, which was a
    sixth of the server's work recording a box; the first response of each day
    renews it instead, so a phone in use keeps its edit rights all the same.
    """

    RENEWED = "renewed"
    OPENED = 1024
    """Cookies whose checked contents are kept (:meth:`open_session`)."""

    def __init__(self) -> None:
        self._opened: Lru[str, tuple[dict[str, Any], float]] = Lru(self.OPENED)

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        """Flask's session, with each cookie's signature checked and contents decoded
        once: a phone sends the same cookie with every request until it changes, and
        undoing it (its signature, zlib, JSON) was a sixteenth of recording a box. Its
        age is checked on every request, as Flask does."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        opened = self._opened.get(value)
        if opened is None:
            try:
                data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            opened = (data, signed.timestamp())
            self._opened.put(value, opened)
        data, signed_at = opened
        if _clock() - signed_at > max_age:
            return self.session_class()
        # The session holds strings, lists of them and dicts of them (games, edit secrets):
        # a copy one level deep leaves the kept contents as they came.
        return self.session_class({key: item.copy() if isinstance(item, (dict, list)) else item
                                   for key, item in data.items()})

    def get_cookie_secure(self, app: Flask) -> bool:
        if super().get_cookie_secure(app):
            return True
        return bool(has_request_context() and request.is_secure)

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        today = date.today().isoformat()
        if session.permanent and session.get(self.RENEWED) != today:
            session[self.RENEWED] = today
        super().save_session(app, session, response)


_clock = time.time


def _instance_secret(path: Path) -> str:
    """The instance's secret key, generated on first run so it is never in code.

    The key is written to a private temporary file (mode 0600) and linked into place,
    so two servers starting at once agree on one key and none ever reads a half-written
    file; an empty or short file (a crash of an older version) is replaced.
    """
    existing = _read_secret(path)
    if existing is not None:
        return existing
    key = secrets.token_hex(32)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(key)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o600)
        try:
            os.link(temporary, path)
        except FileExistsError:
            # Another server won the race (use its key), or the file is unusable.
            if _read_secret(path) is None:
                os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)
    return _read_secret(path) or key


def _read_secret(path: Path) -> str | None:
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    return key if len(key) >= 32 else None
