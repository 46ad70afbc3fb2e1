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


class SessionInterface(SecureCookieSessionInterface):
    """Session cookies marked Secure whenever the page itself came over HTTPS, renewed
    once a day, and read the same on every server that shares the secret.

    The cookie holds the edit secrets of this browser's games; over plain HTTP on the
    table's LAN a Secure cookie would never come back, so Secure follows the request
    (or ``SESSION_COOKIE_SECURE`` forces it).

    A permanent session lasts ``PERMANENT_SESSION_LIFETIME`` from its last renewal; the
    first response of each day renews it, not every response, so a phone in use keeps
    its edit rights without a new cookie on every request. A cookie signed by a server
    whose clock runs ahead of this one is not refused (itsdangerous refuses a negative
    age): only its age past the lifetime counts.
    """

    RENEWED = "renewed"

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        try:
            data, signed = serializer.loads(value, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if _clock() - signed.timestamp() > app.permanent_session_lifetime.total_seconds():
            return self.session_class()
        return self.session_class(data)

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
