"""``scorekeeper serve``: the app in one process, waitress with threads, for a table or a
club evening (300 phones). Kept whole (about 700 lines): the server's settings,
its connection reserve, its refusals' log, its polls answered in the loop and its
settling before it serves are one start-up read top to bottom. A server with several
cores runs gunicorn instead (docs/deploy.md); both serve the same
``scorekeeper.web:create_app()``.

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
``WAITRESS_CONNECTIONS_PER_``  32       connections one address may hold open at once; the
``ADDRESS``                              next is answered 503 and closed (0: no cap; off by
                                        default behind ``PROXY_FIX``, where every
                                        connection comes from the proxy, whose own
                                        ``limit_conn`` caps them: docs/deploy.md)
``WAITRESS_REQUEST_SECONDS``   20       seconds a request's head and body may take to
                                        arrive, from its first byte; a slower one is closed
                                        (0: no deadline)
``WAITRESS_HOLD_SECONDS``      5        the longest an address that keeps being refused
                                        (503 busy, 429) waits before its next request is
                                        taken (0: never held; off with the cap above)
``ACCESS_LOG``                 true     one line per request, Apache's combined format;
                                        the unchanged polls counted, a line a minute
``SWITCH_INTERVAL``            0.001    seconds a thread runs before Python lets another
                                        have the interpreter (Python's own 0.005 made a
                                        poll wait 5 ms at each of its turns behind a sheet
                                        being drawn: the club evening's poll p95 went from
                                        18-19 ms to 12-13 ms, record p95 from 107-176 ms to
                                        68-72 ms; docs/performance.md)
=============================  =======  ===================================================

Past three quarters of ``WAITRESS_CONNECTION_LIMIT`` (with the cap on), an address that
already holds :data:`FEW` connections is refused the next one: the last quarter is kept
for phones, which hold one or two (issue 33: 32 slow sockets from each of 40 addresses,
each under the cap, filled the 1,000 and left new phones unanswered). Refusals are
logged once a minute an address, with their count since the last line.

The cap and the deadline are issue 23's: about 1,000 sockets from one client fed one
byte every 5 s filled waitress's connection limit (its channel timeout counts from the
last byte, so it never came) and left new phones unanswered. Waitress has neither
setting, so ``scorekeeper serve`` gives its servers a channel that has both
(:class:`Guarded`).

The hold is issue 23's too. The app refuses at once what it cannot take now (a PDF or a
big game past its turnstile's few waiting places: 503 with Retry-After; too many new
games: 429), so that no thread waits for it; a client that ignores Retry-After and asks
again at once, thousands of times a minute, then spends the server on refusals: eight
such loops took a table's poll p95 from 20 ms to 120 ms. Each refusal now holds the
address's next request, on any of its connections, a little longer (50 ms, then
doubling, up to ``WAITRESS_HOLD_SECONDS``; forgotten after 10 s without one) before a
thread takes it (:class:`Holds`): a held request waits in the server's loop, holding no
thread and costing nothing. A phone refused once waits 50 ms.

Behind a reverse proxy (``PROXY_FIX``, see :mod:`scorekeeper.web.app`) waitress keeps
the ``X-Forwarded-*`` headers, which it would otherwise remove, for the app's ProxyFix
to read: the cookie is then Secure behind HTTPS and links name the public host.

On SQLite an unchanged htmx poll (most of a club evening's requests) is answered by
the loop's own thread, which has just read it, not handed to a worker thread and back
(:func:`answering_polls`): one indexed read on a pooled connection (the pool's 15 are
more than the 8 threads take), no hand-over between threads, and no wait behind the
requests the workers are drawing (issue 34: 0.62-0.66 -> 0.33-0.39 ms of server CPU a
poll, docs/performance.md). On PostgreSQL every request goes to the workers: a read
there waits on the network, and the loop's thread serves every connection.

SIGTERM (a service manager stopping the server) lets the requests being answered
finish (waitress waits up to 5 s for its threads) before the process ends.

Before it serves, the process collects and freezes what it built (:func:`settle`): the
app's modules, templates and tables, about 50,000 objects that live until it stops and
that every full collection of the garbage collector would otherwise walk again, every
thread stopped meanwhile (50-80 ms under a club evening's load, five or six times a
minute: benchmarks/FINDINGS.md), and full collections come ten times less often
(:data:`FULL_EVERY`). gunicorn's workers do the same (:mod:`scorekeeper.gunicorn_conf`).
"""

from __future__ import annotations

import contextlib
import gc
import heapq
import io
import logging
import signal
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NoReturn

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer
from waitress.task import WSGITask

from . import serveloop
from .web.polls import is_poll

log = logging.getLogger("scorekeeper.serve")

THREADS = 8
CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 120
BACKLOG = 1024
SWITCH_INTERVAL = 0.001
CONNECTIONS_PER_ADDRESS = 32
"""A phone's browser opens at most six connections to one server; a laptop with the
projector page and a few tabs stays under a dozen."""
REQUEST_SECONDS = 20.0
"""A box form is a few kilobytes and the largest body taken 256 KB: seconds even on a
poor connection."""
HOLD_SECONDS = 5.0
"""The longest hold of a refused address: the PDF turnstile's Retry-After is 10 s."""
HOLD_FIRST = 0.05
"""The first refusal's hold: a phone refused once does not notice it."""
HOLD_MEMORY = 10.0
"""Seconds without a refusal after which an address starts again from :data:`HOLD_FIRST`."""
RESERVE_SHARE = 4
"""One part in this many of the connection limit is kept for addresses that hold few
connections (issue 33: 32 sockets from each of 40 addresses, 1,280, filled waitress's
1,000 and left new phones unanswered)."""
FEW = 4
"""Connections an address may hold and still open one in the reserve: a phone polling
a sheet holds one or two."""
ALL = " all"
"""The count of every open connection, kept beside the addresses' (no address has a space)."""
SAID_EVERY = 60.0
"""Seconds between two log lines about one address's refused connections (issue 33: a
client reconnecting at once wrote 4.19 MB of them in 50 s)."""


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

    lines = [
        "Scorekeeper is running. Open it on the phones at the table:",
        *(f"  {url}" for url in addresses),
    ]
    if local_only:
        lines += [
            "Only this computer can open that address: phones cannot reach 127.0.0.1. To score",
            "from the phones at the table, run `make run HOST=0.0.0.0` (or `scorekeeper serve",
            "--host 0.0.0.0`).",
        ]
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


def guard_settings(config: Mapping[str, Any]) -> tuple[int, float, float]:
    """The cap on one address's connections, the deadline for a request's head and
    body, and the longest hold of a refused address (see the table above); the hold
    goes with the cap, since both take an address for a client."""
    behind_proxy = int(config.get("PROXY_FIX") or 0) > 0
    per_address = int(
        config.get("WAITRESS_CONNECTIONS_PER_ADDRESS", 0 if behind_proxy else CONNECTIONS_PER_ADDRESS)
    )
    seconds = float(config.get("WAITRESS_REQUEST_SECONDS", REQUEST_SECONDS))
    hold = float(config.get("WAITRESS_HOLD_SECONDS", HOLD_SECONDS)) if per_address > 0 else 0.0
    return max(per_address, 0), max(seconds, 0.0), max(hold, 0.0)


class Holds:
    """Addresses refused lately, and until when each one's next request waits.

    >>> holds = Holds(most=1.0)
    >>> [round(holds.refused("10.0.0.9", now=100.0) - 100.0, 2) for _ in range(6)]
    [0.05, 0.1, 0.2, 0.4, 0.8, 1.0]
    >>> holds.until("10.0.0.9", now=100.5) > 100.5, holds.until("10.0.0.8", now=100.5)
    (True, 0.0)
    >>> round(holds.refused("10.0.0.9", now=120.0) - 120.0, 2)  # forgotten after 10 s
    0.05
    """

    def __init__(self, most: float) -> None:
        self.most = most
        self._refused: dict[str, tuple[int, float, float]] = {}
        """By address: refusals in a row, the last one's time, the hold's end."""
        self._lock = threading.Lock()

    def refused(self, address: str, now: float | None = None) -> float:
        """Count one refusal of ``address``; the end of its hold (monotonic)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            count, last, _ = self._refused.get(address, (0, 0.0, 0.0))
            count = count + 1 if now - last < HOLD_MEMORY else 1
            until = now + min(HOLD_FIRST * 2.0 ** min(count - 1, 20), self.most)
            self._refused[address] = (count, now, until)
            if len(self._refused) > 10_000:  # many addresses: drop those forgotten
                self._refused = {a: r for a, r in self._refused.items() if now - r[1] < HOLD_MEMORY}
            return until

    def until(self, address: str, now: float | None = None) -> float:
        """When the hold of ``address`` ends (0: not held)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            found = self._refused.get(address)
        return float(found[2]) if found is not None and found[2] > now else 0.0


class Later:
    """One thread that hands held requests to waitress's threads when their hold ends
    (a timer per request would be a thread per held connection)."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._count = 0
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def at(self, when: float, call: Callable[[], None]) -> None:
        with self._wake:
            self._count += 1
            heapq.heappush(self._due, (when, self._count, call))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="held-requests", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._wake.wait(None if not self._due else self._due[0][0] - time.monotonic())
                _, _, call = heapq.heappop(self._due)
            try:
                call()
            except Exception:  # a closed server: the request has nowhere to go
                log.exception("a held request could not be handed on")


_CROWDED = b"Too many connections from this address at once: try again soon.\n"
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
    b"Retry-After: 10\r\nConnection: close\r\n"
    b"Content-Length: %d\r\n\r\n%s" % (len(_CROWDED), _CROWDED)
)
"""What a connection past the cap is answered before it is closed."""


class Guarded(HTTPChannel):
    """Waitress's channel with a cap on the connections one address holds at once and a
    deadline for a request to arrive. Waitress only hands a request to a thread once it
    has arrived whole, so a slow client holds connections, never threads: bounding its
    connections and how long each may dribble keeps room for everyone else.

    Made per server by :func:`guarded` (the cap, the deadline and the count of open
    connections per address are class attributes, shared by a server's sockets)."""

    per_address: ClassVar[int] = 0
    request_seconds: ClassVar[float] = 0.0
    crowded_at: ClassVar[int] = 0
    """Open connections past which only addresses holding fewer than :data:`FEW` may
    open another (0: no reserve)."""
    open: ClassVar[Counter[str]] = Counter()
    lock: ClassVar[threading.Lock] = threading.Lock()
    holds: ClassVar[Holds | None] = None
    loop: ClassVar[serveloop.Steady | None] = None
    """The server's loop, told when a connection joins or leaves its map."""
    said: ClassVar[dict[str, tuple[float, int]]] = {}
    """By address: when its refusals were last logged, and how many since."""
    task_class = WSGITask

    address: str | None = None
    reading: tuple[object, float] | None = None
    """The request being received, and when its first byte came (monotonic)."""
    receiving: bool = False
    """Within :meth:`received`, in the loop's thread."""
    answer_here: bool = False
    """The request just received is an unchanged poll: the loop's thread answers it
    (:func:`answering_polls`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        host = self.addr[0] if isinstance(self.addr, tuple) else self.addr
        with self.lock:
            self.address = str(host)
            self.open[self.address] += 1
            held = self.open[self.address]
            self.open[ALL] += 1
            crowded = bool(self.crowded_at) and self.open[ALL] > self.crowded_at
        if self.per_address and (held > self.per_address or (crowded and held > FEW)):
            self.say_refused(held - 1, crowded and held <= self.per_address)
            self.refuse()

    def say_refused(self, held: int, crowded: bool) -> None:
        """Log a refusal of this address once a minute at most, with the count of its
        refusals since the last line."""
        now = time.monotonic()
        address = self.address or "?"
        with self.lock:
            last, since = self.said.get(address, (-SAID_EVERY, 0))
            if now - last < SAID_EVERY:
                self.said[address] = (last, since + 1)
                return
            self.said[address] = (now, 0)
            if len(self.said) > 10_000:  # many addresses: drop those said long ago
                fresh = {a: v for a, v in self.said.items() if now - v[0] < SAID_EVERY}
                self.said.clear()
                self.said.update(fresh)
        why = "the server is crowded and it holds" if crowded else "it holds"
        log.warning(
            "%s: refusing its connections (503) while %s %d%s",
            address,
            why,
            held,
            f" ({since} more refused in the last minute)" if since else "",
        )

    def refuse(self) -> None:
        """Say why (best effort: a new socket's buffer takes these bytes) and close."""
        with contextlib.suppress(OSError, AttributeError):  # no socket: closed already
            self.socket.send(BUSY)  # type: ignore[union-attr]
        self.handle_close()

    def received(self, data: bytes) -> bool:
        """Note when the request being received began (its first byte); answer an
        unchanged poll here, in the loop's thread (:func:`answering_polls`)."""
        self.receiving = True
        try:
            done = super().received(data)
        finally:
            self.receiving = False
        request = self.request
        if request is None:
            self.reading = None
        elif self.reading is None or self.reading[0] is not request:
            self.reading = (request, time.monotonic())
        while self.answer_here:  # waitress's lock on the requests is not held here
            self.answer_here = False
            self.service()
        return bool(done)

    def readable(self) -> bool:
        """Asked on every turn of the server's loop: a request that has taken longer
        than the deadline to arrive closes its connection (``will_close`` makes the loop
        close it at once; nothing of it has reached the app)."""
        reading = self.reading
        if (
            reading is not None
            and self.request_seconds
            and not self.will_close
            and not self.requests
            and time.monotonic() - reading[1] > self.request_seconds
        ):
            log.info(
                "closed a connection from %s: its request took over %g s to arrive",
                self.address,
                self.request_seconds,
            )
            self.will_close = True
            return False
        return bool(super().readable())

    def service(self) -> None:
        """Serve the connection's requests (a worker thread), noting for the loop which
        connection its wake-ups are for (:mod:`.serveloop`)."""
        with serveloop.serving(self._fileno):  # type: ignore[attr-defined]
            super().service()

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        if self.loop is not None:
            self.loop.touch(self._fileno)  # type: ignore[attr-defined]

    def del_channel(self, map: Any = None) -> None:
        if self.loop is not None and self._fileno is not None:  # type: ignore[attr-defined]
            self.loop.touch(self._fileno)  # type: ignore[attr-defined]
        super().del_channel(map)
        with self.lock:
            if self.address is not None:
                self.open[self.address] -= 1
                self.open[ALL] -= 1
                if self.open[self.address] <= 0:
                    del self.open[self.address]
                self.address = None


class KeptAlive(WSGITask):
    """Waitress's task, keeping the connection open after a 204 or a 304 (issue 34).
    Waitress 3.0.2 closes an HTTP/1.1 connection after any answer without a
    ``Content-Length``, and a 204 may not carry one: every phone's unchanged poll (204,
    every 3 s) cost a new connection (and, behind the proxy, a new upstream one): 1.73 ms
    of server CPU a poll against 0.87 ms kept alive (docs/performance.md, issue 34). An
    answer without a body ends where its head ends, so the connection is kept."""

    def get_environment(self) -> dict[str, Any]:
        """Waitress's environ, with what the loop read of a poll it found changed
        (:func:`answering_polls`: the app does not read it again)."""
        environ: dict[str, Any] = super().get_environment()
        environ.update(getattr(self.request, "polled", {}))
        return environ

    def build_response_header(self) -> bytes:
        keep = (
            not self.close_on_finish
            and self.version == "1.1"
            and not self.has_body
            and getattr(self.request, "headers", {}).get("CONNECTION", "").lower() != "close"
        )
        head: bytes = super().build_response_header()
        if keep and self.close_on_finish:
            self.close_on_finish = False
            head = head.replace(b"\r\nConnection: close\r\n", b"\r\n", 1)
        return head


class Answered(KeptAlive):
    """Waitress's task, which counts a refusal (503 or 429 with Retry-After) against
    its address's :class:`Holds`."""

    def service(self) -> None:
        super().service()
        holds, address = getattr(self.channel, "holds", None), getattr(self.channel, "address", None)
        if (
            holds is not None
            and address is not None
            and self.status.startswith(("503", "429"))
            and any(name.lower() == "retry-after" for name, _ in self.response_headers)
        ):
            holds.refused(address)


def guarded(
    server: BaseWSGIServer | MultiSocketServer,
    per_address: int,
    request_seconds: float,
    hold_seconds: float = 0.0,
    *,
    connection_limit: int = 0,
    answers: Callable[[str, str | None, str, str, dict[str, Any]], bool] | None = None,
) -> None:
    """Give ``server`` (``create_server``'s: one listening socket or several) channels
    of a :class:`Guarded` class of its own with this cap and deadline, and (with
    ``hold_seconds``) hold a refused address's next requests (:class:`Holds`). With
    the cap and waitress's ``connection_limit``, the last :data:`RESERVE_SHARE`-th of
    the limit is kept for addresses holding fewer than :data:`FEW` connections. The
    server runs on :mod:`.serveloop`'s loop, whose turns cost nothing per idle
    connection; with ``answers`` (``(method, HX-Request, path, query)``: the app answers
    the request 204 itself, an unchanged poll) its thread answers such a poll itself
    (:func:`answering_polls`)."""
    holds = Holds(hold_seconds) if hold_seconds > 0 else None
    listening = [
        each
        for each in ((server.map or {}).values() if isinstance(server, MultiSocketServer) else [server])
        if isinstance(each, BaseWSGIServer)
    ]
    loop = serveloop.install(server, listening)
    channel = type(
        "GuardedChannel",
        (Guarded,),
        {
            "per_address": per_address,
            "request_seconds": request_seconds,
            "crowded_at": connection_limit - connection_limit // RESERVE_SHARE if per_address else 0,
            "said": {},
            "open": Counter(),
            "lock": threading.Lock(),
            "holds": holds,
            "loop": loop,
            "task_class": Answered if holds is not None else KeptAlive,
        },
    )
    later = Later()
    for each in listening:
        each.channel_class = channel
        if answers is not None:
            each.add_task = answering_polls(each.add_task, answers)  # type: ignore[method-assign,assignment]
        if holds is not None:
            each.add_task = _holding(each.add_task, holds, later)  # type: ignore[method-assign,assignment]


def answering_polls(
    add_task: Callable[[Any], None], answers: Callable[[str, str | None, str, str, dict[str, Any]], bool]
) -> Callable[[Any], None]:
    """``add_task`` that leaves an unchanged htmx poll to the loop's thread, which has
    just received it (:meth:`Guarded.received`): a poll that finds nothing new, most of
    a club evening's requests, is answered without handing it to a worker thread and
    back (issue 34: docs/performance.md), and never waits behind the requests the
    workers are drawing. ``answers(method, HX-Request, path, query)`` is the app's
    :meth:`~scorekeeper.web.polls.Unchanged.answers` (one indexed row read); only on
    SQLite, whose read never waits on another connection: a PostgreSQL read waits on
    the network and on the pool, and the loop's thread serves every connection. The app
    reads again as it answers: a box saved between the two reads has its sheet drawn
    here, in the loop's thread."""

    def add(channel: Any) -> None:
        request = channel.requests[0] if getattr(channel, "receiving", False) and channel.requests else None
        read: dict[str, Any] = {}
        if (
            request is not None
            and not request.error
            and answers(request.command, request.headers.get("HX_REQUEST"), request.path, request.query, read)
        ):
            channel.answer_here = True
            return
        if read and request is not None:  # what the app would read again: its task's environ carries it
            request.polled = read
        add_task(channel)

    return add


def _holding(add_task: Callable[[Any], None], holds: Holds, later: Later) -> Callable[[Any], None]:
    """``add_task`` that first lets a held address's request wait out its hold."""

    def add(channel: Any) -> None:
        address = getattr(channel, "address", None)
        until = holds.until(address) if address is not None else 0.0
        if until:
            later.at(until, lambda: add_task(channel))
        else:
            add_task(channel)

    return add


def switch_interval(config: Mapping[str, Any]) -> float:
    """The interpreter's switch interval the server runs with (see the table above)."""
    return float(config.get("SWITCH_INTERVAL", SWITCH_INTERVAL))


def access_logged(app: Any) -> Any:
    """``app`` writing one line per request in Apache's combined log format to stderr
    (Paste's TransLogger, the access log waitress's documentation recommends)."""
    from paste.translogger import TransLogger  # type: ignore[import-untyped]

    from .web.joining import scrubbed

    class Scrubbed(TransLogger):  # type: ignore[misc]
        """The log line without an old join link's code (issue 23); an unchanged poll
        counted, not written (:class:`Unlogged`)."""

        unlogged = Unlogged()

        def write_log(
            self, environ: Any, method: str, req_uri: str, start: Any, status: str, *rest: Any
        ) -> None:
            if Unlogged.unchanged_poll(environ, status):
                answered = self.unlogged.add()
                if answered:
                    self.logger.log(self.logging_level, Unlogged.SAID, answered, self.unlogged.every)
                return
            super().write_log(environ, method, scrubbed(req_uri), start, status, *rest)

    return Scrubbed(app, logger_name="scorekeeper.access", setup_console_handler=True)


class Unlogged:
    """The htmx polls that found nothing new (204), counted instead of written one by
    one: every phone polls every 3 s, so a 300-table evening wrote 300 lines a second
    that said nothing, and each took the log's lock (the server's CPU a poll 0.79-0.86
    ms with them, 0.65-0.68 without, on 30 connections: docs/performance.md, issue 34).
    A line says how many were answered in each ``every`` seconds that had any."""

    SAID = "%d unchanged polls answered 204 in the last %g s (not logged one by one)"

    @staticmethod
    def unchanged_poll(environ: Mapping[str, Any], status: str) -> bool:
        """An htmx poll (:func:`~scorekeeper.web.polls.is_poll`) answered 204: nothing new."""
        return status.startswith("204") and is_poll(
            environ.get("REQUEST_METHOD", ""), environ.get("HTTP_HX_REQUEST"), environ.get("QUERY_STRING", "")
        )

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self.count = 0
        self.since = time.monotonic()
        self.lock = threading.Lock()

    def add(self) -> int:
        """Count one; the count to write (and start again) once ``every`` has passed."""
        with self.lock:
            self.count += 1
            now = time.monotonic()
            if now - self.since < self.every:
                return 0
            answered, self.count, self.since = self.count, 0, now
            return answered


def settle() -> None:
    """Collect the garbage of starting, then move what is left out of the collector's
    sight: it lives as long as the process, and a full collection no longer walks it.
    Then a full collection only after :data:`FULL_EVERY` collections of the middle
    generation."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)


FULL_EVERY = 100
"""Collections of the middle generation between two full ones (Python's own: 10). A
club evening's kept standings, drawn lines and scored games live seconds to minutes,
long enough to reach the oldest generation, so with Python's 10 each gunicorn worker
ran about 14 full collections in a 480-table minute, 20-77 ms each with every thread
stopped, most of them finding next to nothing (0-600 objects); with 100, two (issue
34, docs/performance.md). Garbage in cycles waits longer for its collection: a few
thousand objects at a time here."""


def serve(host: str, port: int, config: Mapping[str, Any] | None = None) -> None:
    """Check the database is migrated, say where to connect, and serve until stopped.

    ``config`` replaces the instance configuration (``create_app``'s argument); tests
    and benchmarks give their own database and key.
    """
    from waitress.server import create_server

    from . import store
    from .web import create_app
    from .web.polls import Unchanged

    app = create_app(config)
    if not store.schema_current(str(app.config["DATABASE_URL"])):
        raise NotMigrated(
            "the database is not at the latest schema: run "
            "`scorekeeper migrate` first (once per deploy, not per server)"
        )
    wsgi = access_logged(app) if app.config.get("ACCESS_LOG", True) else app
    settings = waitress_settings(app.config)
    server = create_server(wsgi, host=host, port=port, **settings)
    polls = app.wsgi_app if str(app.config["DATABASE_URL"]).startswith("sqlite") else None
    guarded(
        server,
        *guard_settings(app.config),
        connection_limit=settings["connection_limit"],
        answers=polls.answers if isinstance(polls, Unchanged) else None,
    )
    sys.stdout.write(welcome(urls(host, port), local_only=loopback(host)))
    sys.stdout.flush()
    log.info("serving on %s:%s", host, port)
    signal.signal(signal.SIGTERM, _finish)
    sys.setswitchinterval(switch_interval(app.config))
    settle()
    server.run()


def _finish(_signum: int, _frame: Any) -> NoReturn:
    """SIGTERM ends waitress's loop as Ctrl-C does: it closes after its threads have
    answered the requests they hold."""
    raise SystemExit(0)
