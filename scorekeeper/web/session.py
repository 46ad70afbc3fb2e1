"""The session cookie and the instance's secret key that signs it."""

from __future__ import annotations

import os
import secrets
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature

from ..lru import Lru


class SessionInterface(SecureCookieSessionInterface):
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


def instance_secret(path: Path) -> str:
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
