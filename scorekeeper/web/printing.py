"""The printed score sheet of a stored game, for the pages and the API alike.

A sheet is the costliest answer the server gives (about a second of CPU for a game at
the box limit, against milliseconds for a box). So it is rendered in a separate
process at a lower priority (``PDF_IN_PROCESS`` off): a render holding the interpreter
lock would otherwise make every other request of the process wait its turn. At most
``PDF_AT_ONCE`` are rendered at once, and a request that cannot start within
``PDF_WAIT_SECONDS`` (or finds ``PDF_WAITING`` requests waiting already) gets 503
with ``Retry-After``. A client asking for many large PDFs at once then holds a few
threads, not all of them, and the tables keep recording (docs/performance.md, "A
hostile client").

The turn is taken before the game is read (:func:`turn`, around the view's load): a
request that is refused then costs the server nothing but the wait. A player's season
takes the same turn, and is rendered in the same printing process.

A big game's page is the next costliest answer: a sheet of 300 boxes takes about a
quarter of a second of the interpreter to render even when the game is kept scored
(scorekeeper/ledger/cache.py), and eight anonymous readers rendering it at once left
a table's poll a ninth of the interpreter (issue 23). So a request that reads a game
of more than ``BIG_GAME_BOXES`` boxes waits for its turn too (:func:`big_game_turn`,
``BIG_GAMES_AT_ONCE`` at a time, 503 past ``BIG_GAME_WAIT_SECONDS``), taken before the
game is read and held to the end of the request: the tables' requests then share the
interpreter with one such render, not eight. The turn is the anonymous readers' only: a
write, or a read by a phone that keeps score of the game, takes none, so three readers
never make a scorer's save answer 503. No real game comes near the bound (an evening
is a few dozen boxes).
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import datetime
import multiprocessing
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Response, current_app, g, has_request_context, request
from werkzeug.exceptions import ServiceUnavailable

from .. import ledger
from ..engine.contract import GameEntry, Sheet
from ..pdf import printer
from ..pdf.meta import SheetMeta
from . import links

RETRY_SECONDS = 10


def pdf_options() -> tuple[bool | None, str]:
    """Box detail and paper size from the query string; anything unknown is the default."""
    detail = request.args.get("detail")
    size = "letter" if request.args.get("size", "").lower() == "letter" else "A4"
    return (None if detail not in ("0", "1") else detail == "1"), size


def sheet_meta(table: ledger.Table) -> SheetMeta:
    """What a printed sheet says about itself (issue 15): the game's id and version, when
    it was started in the app and when play began (as the table entered it), where,
    when it was printed, and the read-only page its footer's QR code leads to."""
    created = table.row.created_at.replace(tzinfo=datetime.UTC)
    return SheetMeta(
        game_id=table.id,
        version=table.version,
        created=created,
        started=_started(table.game.started),
        place=table.game.place or "",
        revised={str(box.id): box.revision for box in table.boxes if box.revision > 1},
        substitutes=table.substitutes,
        printed=datetime.datetime.now(datetime.UTC).replace(microsecond=0),
        # Built as the share links are: from PUBLIC_URL or a trusted Host, never from a
        # Host header a stranger wrote (issue 23); none at all otherwise.
        read_only_url=links.public_url("games.sheet", game_id=table.id),
    )


def _started(text: str | None) -> datetime.datetime | None:
    """The start time as stored (an ISO date and time); anything else is not printed."""
    try:
        return datetime.datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


@contextlib.contextmanager
def turn() -> Iterator[None]:
    """This request's turn to print (``PDF_AT_ONCE`` at a time), held around reading
    the game and rendering it; 503 with Retry-After when it does not come within
    ``PDF_WAIT_SECONDS``."""
    gate = _gate(current_app)
    if not gate.acquire(timeout=float(current_app.config["PDF_WAIT_SECONDS"])):
        raise ServiceUnavailable(
            "The server is busy printing other score sheets: try again in a few seconds.",
            retry_after=RETRY_SECONDS,
        )
    if has_request_context():  # a big game read while printing needs no second turn
        g.setdefault("scorekeeper_big_turn", None)
    try:
        yield
    finally:
        gate.release()


def pdf_response(table: ledger.Table, detail: bool | None, size: str = "A4") -> Response:
    """The PDF of a game's score sheet, sent inline with a sensible file name (the view
    holds its :func:`turn`)."""
    assert table.sheet is not None
    body = _render(table.game, table.sheet, detail, size, sheet_meta(table))
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="score-sheet-{table.id}.pdf"'
    return response


def _render(game: GameEntry, sheet: Sheet, detail: bool | None, size: str, meta: SheetMeta) -> bytes:
    """The PDF's bytes, from the printing process (or this one, by configuration)."""
    from ..pdf.sheet import render_sheet  # ReportLab (0.4 s of CPU at import) only when printing

    return printed(render_sheet, game, sheet, detail=detail, page_size=size, meta=meta)


def printed(render: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
    """``render(*args, **kwargs)`` (one of :mod:`scorekeeper.pdf`'s entry points) in the
    printing process, or in this one by configuration (``PDF_IN_PROCESS``)."""
    if current_app.config["PDF_IN_PROCESS"]:
        return render(*args, **kwargs)
    printer = _printer(int(current_app.config["PDF_AT_ONCE"]))
    return printer.submit(render, *args, **kwargs).result()


_PRINTER: list[concurrent.futures.ProcessPoolExecutor] = []
_PRINTER_LOCK = threading.Lock()


def _printer(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """The process's printing processes, started at the first PDF (never at import,
    nor for an app that prints nothing), shared by every app of the process. Spawned,
    not forked: a fork of a threaded server copies locks other threads hold."""
    with _PRINTER_LOCK:
        if not _PRINTER:
            _PRINTER.append(
                concurrent.futures.ProcessPoolExecutor(
                    max_workers=max(workers, 1),
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=printer.lower_priority,  # not of this package: see pdf/printer.py
                )
            )
            atexit.register(_close_printer)
        return _PRINTER[0]


def _close_printer() -> None:
    """At exit: stop the printing processes while the interpreter is still whole."""
    with _PRINTER_LOCK:
        while _PRINTER:
            _PRINTER.pop().shutdown(wait=True, cancel_futures=True)


BIG_GAME_BOXES = 100
"""A game read with more boxes than this takes a turn (``BIG_GAME_BOXES``)."""
BIG_GAMES_AT_ONCE = 1
"""Requests reading such games at once in a process (``BIG_GAMES_AT_ONCE``)."""
BIG_GAME_WAIT_SECONDS = 0.5
"""How long such a request waits for its turn (``BIG_GAME_WAIT_SECONDS``): briefly,
since a waiting request holds one of the server's threads from the tables."""


def big_game_turn(boxes: int, exempt: Callable[[], bool] | None = None) -> None:
    """Wait for this request's turn to read a game of ``boxes`` boxes, past
    ``BIG_GAME_BOXES`` (once a request: it is held until the request ends), unless
    ``exempt()`` says the request need not (asked only for such a game); 503 with
    Retry-After when it does not come within ``BIG_GAME_WAIT_SECONDS``. Outside a
    request, nothing."""
    if not has_request_context() or "scorekeeper_big_turn" in g:
        return
    if boxes <= int(current_app.config.get("BIG_GAME_BOXES", BIG_GAME_BOXES)):
        return
    if exempt is not None and exempt():
        return
    gate = current_app.extensions["scorekeeper.big_game_gate"]
    assert isinstance(gate, threading.BoundedSemaphore)
    wait = float(current_app.config.get("BIG_GAME_WAIT_SECONDS", BIG_GAME_WAIT_SECONDS))
    if not gate.acquire(timeout=wait):
        raise ServiceUnavailable(
            "The server is busy showing other very large games: try again in a few seconds.",
            retry_after=RETRY_SECONDS,
        )
    g.scorekeeper_big_turn = gate


def holds_big_game_turn() -> bool:
    """Whether this request took a turn to read a very large game (it may have waited
    for it: what it read before may have changed meanwhile)."""
    return has_request_context() and "scorekeeper_big_turn" in g


def _end_big_game_turn(_error: BaseException | None) -> None:
    gate = g.pop("scorekeeper_big_turn", None)
    if gate is not None:
        gate.release()


PDF_WAITING = 4
"""Requests that may wait for their turn to print at once (``PDF_WAITING``); past them
the answer is 503 at once. A waiting request holds one of the server's threads."""
BIG_GAMES_WAITING = 2
"""The same for reading big games (``BIG_GAMES_WAITING``)."""


class Turnstile(threading.BoundedSemaphore):
    """A bounded semaphore whose queue is bounded too: while ``waiting`` requests wait
    for a turn, another is refused at once instead of waiting. Eight clients asking for
    PDFs back to back otherwise held every thread of ``scorekeeper serve`` waiting for
    the one turn, and the tables' requests waited for a thread (issue 23)."""

    def __init__(self, value: int, waiting: int) -> None:
        super().__init__(value)
        self.waiting = waiting
        self._waiters = 0
        self._count = threading.Lock()

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool:
        if super().acquire(blocking=False):
            return True
        if not blocking:
            return False
        with self._count:
            if self._waiters >= self.waiting:
                return False
            self._waiters += 1
        try:
            return super().acquire(True, timeout)
        finally:
            with self._count:
                self._waiters -= 1


def init_app(app: Flask) -> None:
    """Give the app its turnstiles: for PDFs (``PDF_AT_ONCE`` renders at a time) and
    for reading big games (``BIG_GAMES_AT_ONCE``), the latter given back as each
    request ends."""
    app.extensions["scorekeeper.pdf_gate"] = Turnstile(
        int(app.config["PDF_AT_ONCE"]), int(app.config.get("PDF_WAITING", PDF_WAITING))
    )
    app.extensions["scorekeeper.big_game_gate"] = Turnstile(
        int(app.config.get("BIG_GAMES_AT_ONCE", BIG_GAMES_AT_ONCE)),
        int(app.config.get("BIG_GAMES_WAITING", BIG_GAMES_WAITING)),
    )
    app.teardown_request(_end_big_game_turn)


def _gate(app: Flask) -> threading.BoundedSemaphore:
    gate = app.extensions["scorekeeper.pdf_gate"]
    assert isinstance(gate, threading.BoundedSemaphore)
    return gate
