"""The app's configuration, found without building the app (:func:`database_url`
for the command line): defaults, the instance folder's ``config.py``, ``SCOREKEEPER_*``
from the environment (see :mod:`.app`).

A module of its own, loading Flask's ``Config`` and nothing of the app: ``scorekeeper
check``, ``backup`` or ``export`` read the database's address here without importing
every blueprint, WTForms and the rate limiter (about 1 s of CPU) to find it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Config

ENV_PREFIX = "SCOREKEEPER"
IMPORT_NAME = "scorekeeper"
"""The app's name: its logger, and where Flask looks for the instance folder."""


def instance_folder() -> Path:
    """``SCOREKEEPER_INSTANCE_PATH`` when set (several instances on one machine, each with
    its own folder), else the folder Flask would choose (``instance/`` beside the package
    in a checkout, ``<prefix>/var/scorekeeper-instance`` when installed)."""
    from flask.sansio.scaffold import find_package

    chosen = os.environ.get(f"{ENV_PREFIX}_INSTANCE_PATH")
    if chosen:
        return Path(chosen).resolve()

    prefix, package_path = find_package(IMPORT_NAME)
    if prefix is None:
        return Path(package_path) / "instance"
    return Path(prefix) / "var" / f"{IMPORT_NAME}-instance"


def configure(config: Config, instance: Path, test_config: Mapping[str, Any] | None = None) -> None:
    """Fill ``config``: defaults, then the instance's ``config.py`` (unless a test gives
    its own), then ``SCOREKEEPER_*`` from the environment, then ``test_config``.

    A test's configuration comes last so that a shell's ``SCOREKEEPER_DATABASE_URL``
    never sends a test to a real database.
    """
    config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'scorekeeper.sqlite3'}",
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
        # The cookie is signed again once a day, not on every request (see SessionInterface).
        SESSION_REFRESH_EACH_REQUEST=False,
        # The home page lists the games this browser started or opened; True lists every
        # game on the server (a club's own machine), which shows every game's read link.
        RECENT_GAMES_PUBLIC=False,
        POLL_SECONDS=3,
        # A thread reads and ranks the new standings of the events projectors watch before
        # they ask (web/ahead.py, issue 34): at once after this process's writes, and every
        # READ_AHEAD_SECONDS for other processes' (gunicorn's workers). 0: never; each new
        # state is read by whoever asks first. None: 0.25, or 0 under TESTING (a test reads
        # its states itself; tests/web/test_ahead.py and the walk ask for the thread).
        READ_AHEAD_SECONDS=None,
        # The most boxes one game keeps (the engine's own bound, 1000, is the ceiling): a
        # long evening is a few dozen; a hostile client's 10,000 draws would cost minutes
        # of CPU for every rescore and PDF (docs/performance.md, "A hostile client").
        MAX_BOXES=300,
        # PDFs rendered at once in this process; a request that waits longer than
        # PDF_WAIT_SECONDS for its turn gets 503 with Retry-After, so printing can never
        # take every thread from the tables recording boxes.
        PDF_AT_ONCE=1,
        PDF_WAIT_SECONDS=5,
        # True renders in the request's own thread (no printing process): it then holds
        # the interpreter lock and slows every other request of the process.
        PDF_IN_PROCESS=False,
        # Wrong short join codes allowed per client address, then per game (a generous
        # cap: the join link is never limited) in the window (in
        # seconds), counted in each process (see scorekeeper/web/invite.py).
        JOIN_TRIES_PER_CLIENT=10,
        JOIN_TRIES_PER_GAME=300,
        JOIN_TRIES_WINDOW=15 * 60,
        # Behind a reverse proxy that terminates HTTPS, set this to the number of proxies
        # in front (instance/config.py): X-Forwarded-Proto/-For/-Host are then believed.
        # Never on by default, or any phone could claim to be on HTTPS.
        PROXY_FIX=0,
    )
    if test_config is None:
        config.from_pyfile(str(instance / "config.py"), silent=True)
    config.from_prefixed_env(ENV_PREFIX)
    for name in TEXT_SETTINGS:
        # The loader reads values as JSON: a secret of digits would become a number.
        text = os.environ.get(f"{ENV_PREFIX}_{name}")
        if text is not None:
            config[name] = text
    if test_config is not None:
        config.from_mapping(test_config)


TEXT_SETTINGS = ("DATABASE_URL", "SECRET_KEY")
"""Settings that are text even when the environment's value reads as a JSON number."""


def database_url() -> str:
    """The database the app would use here, found as :func:`create_app` finds it but
    without building the app or making a secret key (for the command line)."""
    instance = instance_folder()
    instance.mkdir(parents=True, exist_ok=True)
    config = Config(str(instance))
    configure(config, instance)
    return str(config["DATABASE_URL"])
