"""``scorekeeper serve``: the app in one process, waitress with threads, for a table or a
club evening (300 phones). A server with several cores runs gunicorn instead
(docs/deploy.md); both serve the same ``scorekeeper.web:create_app()``.

Waitress is configured from the app's configuration, so from ``SCOREKEEPER_*`` in the
environment too (``SCOREKEEPER_WAITRESS_THREADS=16``):

=============================  =======  ===================================================
setting                        default  why
=============================  =======  ===================================================
``WAITRESS_THREADS``           8        requests waiting on the database do not hold others
``WAITRESS_CONNECTION_LIMIT``  1000     every phone keeps its connection open while it polls;
                                        waitress's own 100 left the 101st phone unanswered
``WAITRESS_CHANNEL_TIMEOUT``   120      seconds an idle connection is kept (a poll is 3 s)
``WAITRESS_BACKLOG``           1024     connections the kernel queues while all are busy
``ACCESS_LOG``                 true     one line per request, Apache's combined format
``SWITCH_INTERVAL``            0.001    seconds a thread runs before Python lets another
                                        have the interpreter (Python's own 0.005 made a
                                        poll wait 5 ms at each of its turns behind a sheet
                                        being drawn: the club evening's poll p95 went from
                                        18-19 ms to 12-13 ms, record p95 from 107-176 ms to
                                        68-72 ms; docs/performance.md)
=============================  =======  ===================================================

Behind a reverse proxy (``PROXY_FIX``, see :mod:`scorekeeper.web.app`) waitress keeps
the ``X-Forwarded-*`` headers, which it would otherwise remove, for the app's ProxyFix
to read: the cookie is then Secure behind HTTPS and links name the public host.

SIGTERM (a service manager stopping the server) lets the requests being answered
finish (waitress waits up to 5 s for its threads) before the process ends.
"""

from __future__ import annotations

import io
import logging
import signal
import socket
import sys
from collections.abc import Mapping
from typing import Any, NoReturn

log = logging.getLogger("scorekeeper.serve")

THREADS = 8
CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 120
BACKLOG = 1024
SWITCH_INTERVAL = 0.001


class NotMigrated(Exception):
    """The database is not at the latest schema: ``scorekeeper migrate`` comes first."""


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other devices on the network can reach."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            # No packet is sent: connecting a UDP socket only picks the outgoing interface.
            probe.connect(("192.0.2.1", 9))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if address not in found:
                found.append(address)
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.")]


def urls(host: str, port: int) -> list[str]:
    """The addresses to type into a phone's browser."""
    wildcard = host in ("0.0.0.0", "", "::")
    hosts = (lan_addresses() or ["127.0.0.1"]) if wildcard else [host]
    return [f"http://{h}:{port}/" for h in hosts]


def loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this computer only.

    >>> loopback("127.0.0.1"), loopback("localhost"), loopback("::1"), loopback("0.0.0.0")
    (True, True, True, False)
    """
    return host == "localhost" or host == "::1" or host.startswith("127.")


def welcome(addresses: list[str], *, local_only: bool = False) -> str:
    """What the terminal shows: the addresses, and the first as a QR code a phone's
    camera opens (segno draws it with half blocks, two rows of modules a line). A
    server on a loopback address also says that phones cannot reach it, and how to
    change that.

    >>> text = welcome(["http://192.168.1.20:5000/"])
    >>> text.splitlines()[1]
    '  http://192.168.1.20:5000/'
    >>> "▀" in text or "▄" in text
    True
    >>> print(welcome(["http://127.0.0.1:5000/"], local_only=True)[:300])
    Scorekeeper is running. Open it on the phones at the table:
      http://127.0.0.1:5000/
    Only this computer can open that address: phones cannot reach 127.0.0.1. To score
    from the phones at the table, run `make run HOST=0.0.0.0` (or `scorekeeper serve
    --host 0.0.0.0`).
    ...
    """
    import segno

    lines = ["Scorekeeper is running. Open it on the phones at the table:",
             *(f"  {url}" for url in addresses)]
    if local_only:
        lines += ["Only this computer can open that address: phones cannot reach 127.0.0.1. "
                  "To score",
                  "from the phones at the table, run `make run HOST=0.0.0.0` (or "
                  "`scorekeeper serve",
                  "--host 0.0.0.0`)."]
    if addresses:
        drawing = io.StringIO()
        segno.make(addresses[0], error="m").terminal(out=drawing, compact=True)
        lines += ["", "Or point a phone's camera at this:", drawing.getvalue().rstrip("\n")]
    return "\n".join(lines) + "\n"


def waitress_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """Waitress's settings from the app's configuration (see the table above)."""
    return {
        "threads": int(config.get("WAITRESS_THREADS", THREADS)),
        "connection_limit": int(config.get("WAITRESS_CONNECTION_LIMIT", CONNECTION_LIMIT)),
        "channel_timeout": int(config.get("WAITRESS_CHANNEL_TIMEOUT", CHANNEL_TIMEOUT)),
        "backlog": int(config.get("WAITRESS_BACKLOG", BACKLOG)),
        # select() cannot watch more than 1024 sockets; poll() has no such bound.
        "asyncore_use_poll": True,
        # With PROXY_FIX the app's ProxyFix reads X-Forwarded-*; else nothing does.
        "clear_untrusted_proxy_headers": not int(config.get("PROXY_FIX") or 0),
        "ident": "scorekeeper",
    }


def switch_interval(config: Mapping[str, Any]) -> float:
    """The interpreter's switch interval the server runs with (see the table above)."""
    return float(config.get("SWITCH_INTERVAL", SWITCH_INTERVAL))


def access_logged(app: Any) -> Any:
    """``app`` writing one line per request in Apache's combined log format to stderr
    (Paste's TransLogger, the access log waitress's documentation recommends)."""
    from paste.translogger import TransLogger  # type: ignore[import-untyped]

    return TransLogger(app, logger_name="scorekeeper.access", setup_console_handler=True)


def serve(host: str, port: int, config: Mapping[str, Any] | None = None) -> None:
    """Check the database is migrated, say where to connect, and serve until stopped.

    ``config`` replaces the instance configuration (``create_app``'s argument); tests
    and benchmarks give their own database and key.
    """
    from waitress.server import create_server

    from . import store
    from .web import create_app

    app = create_app(config)
    if not store.schema_current(str(app.config["DATABASE_URL"])):
        raise NotMigrated("the database is not at the latest schema: run "
                          "`scorekeeper migrate` first (once per deploy, not per server)")
    wsgi = access_logged(app) if app.config.get("ACCESS_LOG", True) else app
    server = create_server(wsgi, host=host, port=port, **waitress_settings(app.config))
    sys.stdout.write(welcome(urls(host, port), local_only=loopback(host)))
    sys.stdout.flush()
    log.info("serving on %s:%s", host, port)
    signal.signal(signal.SIGTERM, _finish)
    sys.setswitchinterval(switch_interval(app.config))
    server.run()


def _finish(_signum: int, _frame: Any) -> NoReturn:
    """SIGTERM ends waitress's loop as Ctrl-C does: it closes after its threads have
    answered the requests they hold."""
    raise SystemExit(0)
