"""Fewer bytes over a table's weak Wi-Fi: gzip for text, long caching for static files.

Pages, CSS, JavaScript and SVG go out gzip-compressed when the browser accepts it
(htmx alone shrinks from 52 KB to 17 KB): Flask-Compress does it, configured here.
Static files get a version in their URL (a hash of their content), so they can be
cached for a year and a new release is still fetched at once.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request
from flask_compress import Compress

from . import htmx

COMPRESSIBLE = (
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "image/svg+xml",
    "text/plain",
)
"""What browsers load. The JSON API answers plain: its clients need no gzip support."""
MIN_SIZE = 500
"""Smaller bodies are not worth the gzip header."""
YEAR = 365 * 24 * 3600
ONCE_LEVEL = 1
"""gzip's level for what is gzipped once per state (a projector's standings, new with
every box): the 900 lines of a 300-table evening (258 KB) take 0.9 ms at level 1 and
make 12.9 KB, against 2.3 ms and 9.9 KB at level 6."""
SETTINGS: dict[str, Any] = {
    "COMPRESS_ALGORITHM": ["gzip"],  # what every browser and test client reads
    "COMPRESS_ALGORITHM_STREAMING": ["gzip"],
    "COMPRESS_MIMETYPES": list(COMPRESSIBLE),
    "COMPRESS_MIN_SIZE": MIN_SIZE,
    "COMPRESS_LEVEL": 6,
    "COMPRESS_STREAMS": True,  # static files are sent as streams: compress them too
}


def init_app(app: Flask) -> None:
    """Version static URLs, cache static files and compress responses for this app."""
    for name, value in SETTINGS.items():
        app.config.setdefault(name, value)
    app.url_defaults(_version_static_urls)
    Compress(app)
    app.after_request(_cache_static_files)  # registered after Compress: runs before it
    app.after_request(_no_body)  # likewise


def gzipped_once(body: str, packed: Callable[[Callable[[], bytes]], bytes]) -> Response:
    """``body`` as htmx's answer, gzipped when the browser takes gzip, once for all who
    ask: ``packed(pack)`` gives what ``pack()`` made of this body before, or makes it
    (an event's standings, drawn once per state: at a 300-table evening their 900 lines
    cost 2.2 ms of gzip for every projector's answer, issue 34). At :data:`ONCE_LEVEL`:
    it is gzipped again for every box of the evening. Flask-Compress leaves an answer
    that has its ``Content-Encoding``."""
    if not request.accept_encodings["gzip"]:
        return htmx.varied(body)
    response = htmx.varied("")
    response.set_data(packed(lambda: gzip.compress(body.encode(), compresslevel=ONCE_LEVEL, mtime=0)))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def _no_body(response: Response) -> Response:
    """A 204 or 304 goes out with no body and no ``Content-Encoding``: Flask-Compress
    gzipped the empty body of a poll's 204 (its length unknown, so not below the
    minimum), and waitress, finding a body on a 204, closed the phone's keep-alive
    connection after every unchanged poll (issue 34: a new connection every 3 s)."""
    if response.status_code in (204, 304) and not response.is_streamed:
        response.content_length = 0
    return response


@functools.lru_cache(maxsize=256)
def _content_hash(path: Path, mtime_ns: int) -> str:
    """A short hash of a static file's content (recomputed when the file changes)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _version_static_urls(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for('static', filename=...)`` gains ``?v=<hash>`` of the file's content."""
    if endpoint != "static" or "filename" not in values or current_app.static_folder is None:
        return
    version = _static_version(current_app.static_folder, str(values["filename"]), int(time.monotonic()))
    if version is not None:
        values["v"] = version


@functools.lru_cache(maxsize=256)
def _static_version(folder: str, filename: str, second: int) -> str | None:
    """The hash of a static file as it is this ``second``, None if there is no such
    file: its file looked at once a second, not for each of the six links every page
    carries (issue 34: a fifth of the cost of ``url_for`` on a sheet); a file changed
    on disk gets its new hash within the second."""
    path = Path(folder) / filename
    return _content_hash(path, path.stat().st_mtime_ns) if path.is_file() else None


def _cache_static(response: Response) -> None:
    """One Cache-Control for a static file: a year, immutable, when its URL carries the
    hash of the content served; else ``no-cache`` (revalidate by ETag). Flask's own
    ``no-cache`` is replaced, never combined with ``max-age``."""
    filename = str((request.view_args or {}).get("filename", ""))
    path = Path(current_app.static_folder or "") / filename
    current = path.is_file() and request.args.get("v") == _content_hash(path, path.stat().st_mtime_ns)
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable" if current else "no-cache"


def _cache_static_files(response: Response) -> Response:
    """A static file's Cache-Control; and its file closed with the response. Flask-Compress
    1.25 replaces a streamed body by its compressed stream and drops the file, which
    then stays open until the garbage collector finds it (a ResourceWarning)."""
    if request.endpoint == "static" and response.status_code in (200, 304):
        _cache_static(response)
        body = response.response
        if response.is_streamed and hasattr(body, "close"):
            response.call_on_close(body.close)
    return response
