"""Serve the app on the LAN with waitress, so the other phones at the table can join."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import multiprocessing.sharedctypes
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

log = logging.getLogger("scorekeeper.serve")


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


THREADS = 8
"""Threads of a lone waitress process: requests waiting on the database do not hold the others."""
WORKER_THREADS = 1
"""Threads of each of several processes. Python runs one thread of a process at a time,
and every database call hands that turn to another thread and waits for it back: one
thread per process (besides waitress's own, which reads and writes the sockets) was the
fastest under load (benchmarks/FINDINGS.md). A slow request holds up only its process."""
MAX_WORKERS = 4
RECOUNT_SECONDS = 0.05
"""How often an idle worker wakes to see whether it should accept connections again
(:func:`_balanced`)."""


def default_workers() -> int:
    """Server processes by default: one per core (at most :data:`MAX_WORKERS`), where
    processes can be forked; else one."""
    if not hasattr(os, "fork"):
        return 1
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def serve(host: str, port: int, workers: int = 1,
          config: Mapping[str, Any] | None = None) -> None:
    """Apply migrations, say where to connect, and serve with waitress until stopped.

    ``config`` replaces the instance configuration (``create_app``'s argument), in
    every server process; tests and benchmarks give their own database and key.

    With ``workers`` above one, that many waitress processes share one listening
    socket: Python runs one thread at a time per process, so a busy table (or a club
    of tables) gets every core. Each process keeps its own scored games; the database
    keeps writers of different processes apart.
    """
    from . import store
    from .web import create_app

    app = create_app(config)
    store.migrate(str(app.config["DATABASE_URL"]))
    workers = workers if hasattr(os, "fork") else 1
    lines = ["Scorekeeper is running. Open it on the phones at the table:"]
    lines += [f"  {url}" for url in urls(host, port)]
    if workers > 1:
        lines.append(f"({workers} server processes; Ctrl-C stops them all)")
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
    log.info("serving on %s:%s with %s processes", host, port, workers)
    if workers <= 1:
        _waitress(_settled(app), THREADS, host=host, port=port)
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=1024)
    Workers(listener, workers, config).run()


_WAITRESS: dict[str, Any] = {"clear_untrusted_proxy_headers": True, "ident": "scorekeeper"}


def _waitress(app: Any, threads: int, **where: Any) -> None:
    from waitress import serve as waitress_serve

    waitress_serve(app, threads=threads, **_WAITRESS, **where)


class Workers:
    """A parent process that forks ``count`` waitress processes on ``listener``, starts
    another when one dies, and stops them all on SIGTERM or Ctrl-C. A worker dies with
    its parent (Linux: the kernel sees to it; elsewhere it checks every second).

    The workers share a :class:`Connections` tally, so phones are spread evenly over
    them (see :func:`_balanced`)."""

    def __init__(self, listener: socket.socket, count: int,
                 config: Mapping[str, Any] | None = None) -> None:
        self.listener = listener
        self.count = count
        self.config = config
        self.connections = Connections(count)
        self.children: dict[int, tuple[int, float]] = {}  # pid: (slot, started)
        self.stopping = False

    def run(self) -> None:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        for slot in range(self.count):
            self._spawn(slot)
        while self.children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            ended = self.children.pop(pid, None)
            if ended is None:
                continue
            slot, started = ended
            self.connections.vacate(slot)
            if self.stopping:
                continue
            log.warning("server process %s ended (status %s); starting another", pid, status)
            if time.monotonic() - started < 1:
                time.sleep(1)  # a process that cannot start is not restarted in a busy loop
            self._spawn(slot)

    def _spawn(self, slot: int) -> None:
        """Fork a worker, with SIGTERM and SIGINT held back meanwhile: a stop arriving
        now is handled once the new worker is in :attr:`children` (so it is stopped
        too), and never by the new worker with the parent's handler."""
        parent = os.getpid()
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            if self.stopping:
                return
            pid = os.fork()
            if pid == 0:  # the child: serve, and never return into the parent's loop
                code = 1
                try:
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
                    signal.pthread_sigmask(signal.SIG_SETMASK, held)
                    _worker(self.listener, parent, self.config, self.connections, slot)
                    code = 0
                except BaseException:
                    log.exception("server process %s failed", os.getpid())
                finally:
                    os._exit(code)
            self.children[pid] = (slot, time.monotonic())
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def _stop(self, _signum: int, _frame: Any) -> None:
        self.stopping = True
        for pid in list(self.children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)


class Connections:
    """How many connections each worker holds, in memory the forked workers share.

    Each worker writes its own slot; a slot whose worker has died reads as full until
    its replacement starts, so it never holds the others back.
    """

    FULL = 2**31 - 1

    def __init__(self, workers: int) -> None:
        self._counts = multiprocessing.sharedctypes.RawArray(ctypes.c_long, workers)

    def set(self, slot: int, count: int) -> None:
        self._counts[slot] = count

    def vacate(self, slot: int) -> None:
        self._counts[slot] = self.FULL

    def fewest(self) -> int:
        return int(min(self._counts))


STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}


def _worker(listener: socket.socket, parent: int, config: Mapping[str, Any] | None,
            connections: Connections, slot: int) -> None:
    """One server process: its own app (database engine, caches) on the shared socket."""
    from waitress.server import create_server

    from .web import create_app

    _die_with(parent)
    server = create_server(_settled(create_app(config)), sockets=[listener], **_WAITRESS,
                           threads=WORKER_THREADS)
    _balanced(server, connections, slot)
    server.run()


def _balanced(server: Any, connections: Connections, slot: int) -> None:
    """Accept a connection only while this worker holds no more than any other.

    A phone keeps its connection open, so it stays with the worker that accepted
    it. Every idle worker wakes for a new connection and the first to ask gets it:
    eight phones landed 7 and 1, 6 and 2, 7 and 1, 4 and 4 on two workers in four
    runs, and the seven queued behind each other on one core while the other idled.

    Waitress's loop asks whether to listen each time it wakes, and the tally is brought
    up to date then. A worker that stopped listening while it held more may by now
    hold the fewest without having woken: it wakes every :data:`RECOUNT_SECONDS` to
    look again, so a new phone waits that long at worst, not waitress's second.
    """
    listening = server.readable
    # Waitress's setting takes whole seconds (and 0 spins); the loop itself takes any.
    server.adj.asyncore_loop_timeout = RECOUNT_SECONDS

    def readable() -> bool:
        held = len(server.active_channels)
        connections.set(slot, held)
        return bool(listening()) and held <= connections.fewest()

    server.readable = readable


def _settled(app: Any) -> Any:
    """``app``, with every object built so far moved out of the garbage collector's way.

    A full collection walks every object the process holds, and the app's modules,
    tables and caches are most of them: about 35 ms on this machine, paid by whichever
    request set it off, several times a minute under load. Frozen, they are never
    walked again, and a full collection costs a few milliseconds
    (benchmarks/FINDINGS.md).
    """
    gc.collect()
    gc.freeze()
    return app


def _die_with(parent: int) -> None:
    """End this process when ``parent`` ends, even if it is killed without warning."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os._exit(0)


PR_SET_PDEATHSIG = 1


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)
