"""Serve the app on the LAN with waitress, so the other phones at the table can join."""

from __future__ import annotations

import contextlib
import ctypes
import logging
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
    from . import create_app, store

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
        _waitress(app, THREADS, host=host, port=port)
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=1024)
    Workers(listener, workers, config).run()


def _waitress(app: Any, threads: int, **where: Any) -> None:
    from waitress import serve as waitress_serve

    waitress_serve(app, threads=threads, clear_untrusted_proxy_headers=True,
                   ident="scorekeeper", **where)


class Workers:
    """A parent process that forks ``count`` waitress processes on ``listener``, starts
    another when one dies, and stops them all on SIGTERM or Ctrl-C. A worker dies with
    its parent (Linux: the kernel sees to it; elsewhere it checks every second)."""

    def __init__(self, listener: socket.socket, count: int,
                 config: Mapping[str, Any] | None = None) -> None:
        self.listener = listener
        self.count = count
        self.config = config
        self.children: dict[int, float] = {}
        self.stopping = False

    def run(self) -> None:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        for _ in range(self.count):
            self._spawn()
        while self.children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            started = self.children.pop(pid, None)
            if started is None or self.stopping:
                continue
            log.warning("server process %s ended (status %s); starting another", pid, status)
            if time.monotonic() - started < 1:
                time.sleep(1)  # a process that cannot start is not restarted in a busy loop
            self._spawn()

    def _spawn(self) -> None:
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
                    _worker(self.listener, parent, self.config)
                    code = 0
                except BaseException:
                    log.exception("server process %s failed", os.getpid())
                finally:
                    os._exit(code)
            self.children[pid] = time.monotonic()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def _stop(self, _signum: int, _frame: Any) -> None:
        self.stopping = True
        for pid in list(self.children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)


STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}


def _worker(listener: socket.socket, parent: int,
            config: Mapping[str, Any] | None) -> None:
    """One server process: its own app (database engine, caches) on the shared socket."""
    from . import create_app

    _die_with(parent)
    _waitress(create_app(config), WORKER_THREADS, sockets=[listener])


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
