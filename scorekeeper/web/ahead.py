"""Each new state of a watched event's standings read before a projector asks for it
(issue 34).

At a 300-table evening a box comes every 0.4 s, so nearly every poll of a projector (the
standings page, the API's JSON, every 3 s) finds a new state, and whoever asked first
read and ranked it (:func:`.standings.now`: the kept rows changed, the ranking made
from the one before, 5-9 ms of CPU later in the evening) before drawing it, under the
interpreter's lock shared with every other request.

Here a thread of the process's own reads each new state of the events watched (asked
for in the last :data:`WATCHED` seconds):
- after a commit of this process that changed an event's kept standings (a box at one
  of its tables, a director's write: the store names them in the session,
  :data:`scorekeeper.store.kept.WRITTEN`): at once, or, when the thread read less than
  :data:`SPACING` ago, at the end of that spacing, the commits meanwhile read together;
- and every ``READ_AHEAD_SECONDS`` (:data:`EVERY` unless set; 0: never read ahead) for
  what this process does not see written: another process's writes (gunicorn's other
  workers).
A projector then finds the state read, or waits for this thread's reading of it (its
lock), or reads it itself; it is never given an older state than it would have been
without this thread. The thread reads; each asker draws (the page, the JSON): drawing
every state ahead too, asked for or not, pushed the polls' p95 past its target
(docs/performance.md, "The ninth stop"). The thread ends when nothing is watched; a
failure (a database gone) stops watching that event and is logged.
"""

from __future__ import annotations

import threading
import time

from flask import Flask, current_app
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy.orm import Session

from .. import store
from . import standings

KEY = "scorekeeper.ahead"
WATCHED = 30.0
"""Seconds an event stays watched after a projector last asked for it (a poll answered
204 asks nothing of it: ten projectors' polls of an unchanged event keep it watched only
while the event changes, and the first ask after a quiet spell reads for itself)."""


class Ahead:
    """One app's thread reading its watched events' new states (see the module)."""

    def __init__(self, app: Flask, every: float) -> None:
        self.app, self.every = app, every
        self.watched: dict[str, float] = {}
        """Each event watched, and when it was last asked for."""
        self.written: set[str] = set()
        """Watched events this process wrote since the thread last looked."""
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.thread: threading.Thread | None = None

    def watch(self, event_id: str) -> None:
        """``event_id`` asked for now; starts the thread."""
        with self.lock:
            self.watched[event_id] = time.monotonic()
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="scorekeeper-ahead", daemon=True)
                self.thread.start()

    def stop(self) -> None:
        """Watch nothing more: the thread ends at once."""
        with self.lock:
            self.watched.clear()
        self.wake.set()

    def committed(self, db: Session) -> None:
        """SQLAlchemy's ``after_commit``: the watched events the commit wrote, read now."""
        written = db.info.pop(store.kept.WRITTEN, None)
        if written:
            with self.lock:
                self.written |= written & self.watched.keys()
                if self.written:
                    self.wake.set()

    def _run(self) -> None:
        every_at = time.monotonic() + self.every
        began = -SPACING
        while True:
            self.wake.wait(max(0.0, every_at - time.monotonic()))
            time.sleep(max(0.0, began + SPACING - time.monotonic()))  # commits meanwhile: one reading
            self.wake.clear()
            with self.lock:
                now = began = time.monotonic()
                for gone in [e for e, asked in self.watched.items() if asked < now - WATCHED]:
                    del self.watched[gone]
                if not self.watched:
                    self.thread = None
                    return
                due = list(self.watched if now >= every_at else self.written & self.watched.keys())
                if now >= every_at:
                    every_at = now + self.every
                self.written = set()
            for event_id in due:
                self.read(event_id)

    def read(self, event_id: str) -> None:
        """The state of ``event_id`` now, read and kept if new."""
        try:
            with self.app.app_context():
                standings.now(event_id)
        except Exception:
            self.app.logger.exception("reading event %s ahead failed; no longer watched", event_id)
            with self.lock:
                self.watched.pop(event_id, None)


EVERY = 0.25
"""``READ_AHEAD_SECONDS`` unless set (0 under ``TESTING``)."""

SPACING = 0.25
"""The least time between two readings of the thread: the commits that come sooner are
read together at its end. Two gunicorn workers at a 640-table evening commit a box every
0.16 s between them, and each worker's thread read nearly every state, a quarter of the
time the workers held their interpreters while the rounds played (sampled with py-spy),
for about 3.6 asks a second (docs/performance.md, "The twelfth stop")."""


def init_app(app: Flask) -> None:
    """Read ahead for this app (``READ_AHEAD_SECONDS``: 0, never), told of its commits."""
    setting = app.config.get("READ_AHEAD_SECONDS")
    every = float(setting) if setting is not None else 0.0 if app.testing else EVERY
    if every > 0:
        reading(app, every)


def reading(app: Flask, every: float) -> Ahead:
    """``app`` reading ahead, every ``every`` seconds and after its commits."""
    ahead = app.extensions[KEY] = Ahead(app, every)
    sessions = app.extensions["scorekeeper.store"]
    sqlalchemy_event.listen(sessions, "after_commit", ahead.committed)
    sqlalchemy_event.listen(sessions, "after_rollback", _forget)
    return ahead


def _forget(db: Session) -> None:
    """SQLAlchemy's ``after_rollback``: what the transaction wrote was not written."""
    db.info.pop(store.kept.WRITTEN, None)


def stop_reading(app: Flask) -> None:
    """``app`` reads ahead no more: its thread ends now, not :data:`WATCHED` seconds
    after the last ask (an app whose server stopped: tests, the walk)."""
    ahead: Ahead | None = app.extensions.get(KEY)
    if ahead is not None:
        ahead.stop()


def watch(event_id: str) -> None:
    """This request's ``event_id`` watched: each new state read before it is asked for
    (nothing when reading ahead is off)."""
    ahead: Ahead | None = current_app.extensions.get(KEY)
    if ahead is not None:
        ahead.watch(event_id)
