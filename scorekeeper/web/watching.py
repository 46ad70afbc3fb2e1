"""The score sheet as a watcher sees it, rendered once a version (issue 23).

Rendering a sheet is the costliest part of reading a game: about a quarter of a
second of the interpreter for a game at the box limit, even when the game is kept
scored (scorekeeper/ledger/cache.py). A watcher's sheet (no edit right: no form, no
CSRF token, nothing of the session) depends only on the game as stored, so it is
rendered once per version and ``updated_at`` of the game and kept, in each process, up
to :data:`MOST_BYTES` of HTML: eight anonymous readers of a big game then cost the
server the reading of a row each, not eight renders. A scorer's sheet (its forms, its
CSRF token) is rendered every time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime

from flask import current_app
from markupsafe import Markup

from .. import ledger

MOST_BYTES = 16 * 1024 * 1024
"""HTML kept per process: a game at the box limit renders about 200 KB."""

Key = tuple[str, int, datetime]
"""The game's id, version and ``updated_at``."""


class Rendered:
    """Rendered sheets by game, one version each, least recently read first out."""

    def __init__(self, most_bytes: int = MOST_BYTES) -> None:
        self.most_bytes = most_bytes
        self._sheets: OrderedDict[str, tuple[Key, Markup]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: Key) -> Markup | None:
        with self._lock:
            found = self._sheets.get(key[0])
            if found is None or found[0] != key:
                return None
            self._sheets.move_to_end(key[0])
            return found[1]

    def put(self, key: Key, html: Markup) -> None:
        with self._lock:
            if (old := self._sheets.pop(key[0], None)) is not None:
                self._held -= len(old[1])
            self._sheets[key[0]] = (key, html)
            self._held += len(html)
            while self._sheets and self._held > self.most_bytes:
                _, (_, gone) = self._sheets.popitem(last=False)
                self._held -= len(gone)


def kept_json(key: Key) -> str | None:
    """The API's JSON of a game at this version, if kept (:func:`keep_json`)."""
    kept = current_app.extensions.setdefault("scorekeeper.watched_json", Rendered())
    assert isinstance(kept, Rendered)
    found = kept.get(key)
    return None if found is None else str(found)


def keep_json(key: Key, body: str) -> None:
    """Keep the API's JSON of a game at this version: it depends on the game as stored
    only (no right, no session), as a watcher's sheet does."""
    kept = current_app.extensions.setdefault("scorekeeper.watched_json", Rendered())
    assert isinstance(kept, Rendered)
    kept.put(key, Markup(body))


def watcher_sheet(table: ledger.Table, render: Callable[[], str]) -> Markup:
    """The watcher's sheet of ``table``: kept, or ``render()`` now and kept."""
    rendered = current_app.extensions.setdefault("scorekeeper.watched", Rendered())
    assert isinstance(rendered, Rendered)
    key = (table.id, table.version, table.row.updated_at)
    html = rendered.get(key)
    if html is None:
        html = Markup(render())  # the template's own output, escaped as it rendered
        rendered.put(key, html)
    return html
