"""The app in its own process, as phones meet it: waitress on loopback.

``python -m tests.reliability.liveserver DATABASE_URL PORT`` serves a fresh app on
that database until killed. The reliability tests start the same :func:`main` with
:func:`launch` instead: a process forked from a forkserver that has imported
:data:`PRELOAD` once for the pytest process (one forkserver per pytest worker, started
at the first server), so that each server costs a fork and ``create_app`` rather than a
whole interpreter start (about 2 s of CPU, most of it importing). It is still a process
of its own, with its own pid: a test kills it with SIGKILL in the middle of writes, and
nothing of it runs after (no cleanup, no flush), as before.

Fork safety: the forkserver is a fresh interpreter that does nothing but import
:data:`PRELOAD` and fork, so it holds no thread and no connection for a fork to copy.
None of these modules starts a thread or opens a database connection at import (the
app opens its engine in ``create_app``, in the child; the printing processes start at
the first PDF, in the child); tests/reliability/test_liveserver.py checks that the
forkserver has one thread. A module added here must keep it so.

(``scorekeeper serve`` itself, and gunicorn, are started by
tests/reliability/test_serving.py as an operator starts them, each a whole interpreter:
only this plain server is forked.)
"""

from __future__ import annotations

import atexit
import functools
import multiprocessing
import multiprocessing.context
import multiprocessing.util  # its exit handler (joins children) registered before _stop_left
import os
import signal
import subprocess
import sys
from pathlib import Path

SECRET_KEY = "reliability-tests-" + "k" * 32
PROJECT = Path(__file__).resolve().parents[2]

PRELOAD = (
    # what this module's main imports: the server and the app's modules
    "waitress",
    "scorekeeper.web.app",
    # what create_app imports when called: the blueprints
    "scorekeeper.web.api",
    "scorekeeper.web.boxes",
    "scorekeeper.web.clubs",
    "scorekeeper.web.disputes",
    "scorekeeper.web.events",
    "scorekeeper.web.games",
    "scorekeeper.web.health",
    "scorekeeper.web.invite",
    "scorekeeper.web.joining",
    "scorekeeper.web.openapi",
    "scorekeeper.web.pads",
    "scorekeeper.web.players",
    "scorekeeper.web.rules",
    "werkzeug.middleware.proxy_fix",
    # the drivers, loaded at the first connection
    "sqlite3",
    "sqlalchemy.dialects.sqlite",
    "psycopg",
    "sqlalchemy.dialects.postgresql.psycopg",
    # what the first requests of an evening use (calendar, exports, ratings, PDFs)
    "icalendar",
    "scorekeeper.ledger.calendar",
    "scorekeeper.ledger.ratings",
    "scorekeeper.exports",
    "scorekeeper.pdf",
    "scorekeeper.pdf.events",
    "scorekeeper.pdf.ladder",
    "reportlab.pdfgen.canvas",
    "concurrent.futures.process",  # the printing processes' pool (web/printing.py)
    "multiprocessing.popen_spawn_posix",
    "multiprocessing.queues",
    "multiprocessing.synchronize",
    "encodings.idna",  # the first request's host name, and text the app decodes
    "encodings.unicode_escape",
    "stringprep",
    # multiprocessing runs the parent's main script again in each child (as __mp_main__;
    # "__main__" in this list would not spare it in Python 3.11): pytest's console
    # script is `from pytest import console_main`, a few lines once pytest is loaded
    "pytest",
    # this module, the child's target
    "tests.reliability.liveserver",
)
"""Imported once, in the forkserver, before any fork. A name that does not import is
skipped by multiprocessing (the child then imports it itself: slower, still right)."""


def main(argv: list[str]) -> None:
    from waitress import serve

    from scorekeeper.web import create_app

    url, port = argv[1], int(argv[2])
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY})
    serve(
        app,
        host="127.0.0.1",
        port=port,
        threads=8,
        ident="scorekeeper-test",
        connection_limit=200,
        channel_timeout=30,
    )


class Forked:
    """A server started by :func:`launch`, answering as :class:`subprocess.Popen` does
    for what the tests ask of one (``pid``, ``poll``, ``wait``, ``send_signal``,
    ``terminate``, ``kill``, ``returncode``: a negative signal number when a signal
    ended it)."""

    def __init__(self, process: multiprocessing.context.ForkServerProcess) -> None:
        self.process = process

    @property
    def pid(self) -> int:
        assert self.process.pid is not None, "not started"
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode

    def poll(self) -> int | None:
        return self.process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self.process.join(timeout)
        code = self.process.exitcode
        if code is None:
            raise subprocess.TimeoutExpired(["liveserver", str(self.pid)], timeout or 0.0)
        return code

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


_LAUNCHED: list[Forked] = []


@functools.cache
def _forkserver() -> multiprocessing.context.ForkServerContext:
    """The forkserver context, its preload set before its first (lazy) start."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    atexit.register(_stop_left)  # after multiprocessing.util's: runs before it, at exit
    return context


def _stop_left() -> None:
    """At the pytest process's exit: end any server a failed test left running (a
    forked child is joined at exit; a server left running would hang the run)."""
    for server in _LAUNCHED:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def launch(database_url: str, port: int, log: Path) -> Forked:
    """Start :func:`main` on ``database_url`` and ``port`` in a process forked from the
    forkserver, its output (fds 1 and 2) appended to ``log``, in this process's
    environment and the project's directory (as ``python -m`` would start it)."""
    log.open("ab").close()  # there to read even if the child fails before writing
    process = _forkserver().Process(
        target=_forked_main,
        args=(database_url, port, str(log), dict(os.environ)),
        name=f"liveserver-{port}",
    )
    process.start()
    _LAUNCHED[:] = [server for server in _LAUNCHED if server.poll() is None]
    _LAUNCHED.append(Forked(process))
    return _LAUNCHED[-1]


def _forked_main(database_url: str, port: int, log: str, environment: dict[str, str]) -> None:
    """In the forked child: this test's environment and log, then :func:`main`."""
    os.chdir(PROJECT)
    os.environ.clear()
    os.environ.update(environment)
    written = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(written, 1)
    os.dup2(written, 2)
    os.close(written)
    main(["liveserver", database_url, str(port)])


if __name__ == "__main__":
    main(sys.argv)
