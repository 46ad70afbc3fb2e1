"""Benchmark: the server's CPU for one unchanged poll (issue 34: target ≤ 1 ms).

Every phone at a club evening keeps its table's sheet open, which polls
``/games/<id>/sheet?since=<version>`` every 3 s; almost every poll finds nothing new
and is answered 204. At 300 tables (900 phones) that is 300 polls a second: at the
2.5 ms of server CPU each took before issue 34, three quarters of a core.

Two measures, on a temporary SQLite database holding one game:

- in the process (Flask's test client, as a phone with its session cookie): the CPU
  (``time.process_time``) per poll, and a ``cProfile`` of the polls (``--profile``
  prints the top of it);
- through the real server (``scorekeeper serve``: waitress), one keep-alive
  connection sending polls one after another as a phone does: the server process's
  CPU (/proc) per poll, and the standings page's 204 (a projector's poll) likewise;
  ``--connections N``: N phones' connections polling at once (the server's hand-offs
  between its loop and its threads under concurrency, issue 34); ``--postgres``: on a
  throw-away PostgreSQL cluster (``benchmarks.club``'s) instead of SQLite;
  ``--gunicorn N``: through one gunicorn of N workers as docs/deploy.md runs it (the
  two-worker row of issue 34), its workers' CPU counted.

``python -m benchmarks.poll`` (``--polls N``; ``--profile``; ``--connections N``;
``--postgres``; ``--gunicorn N``). The server reads ``SCOREKEEPER_*`` from the environment
(``SCOREKEEPER_WAITRESS_THREADS=4``, ``SCOREKEEPER_SWITCH_INTERVAL=0.005``).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import re
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from scorekeeper.web import create_app

from . import webgames
from .club import HOST, instances, postgres_cluster, server_cpu, start_event

HX = {"HX-Request": "true"}


def _in_process(url: str, game_id: str, polls: int, profile: bool) -> dict[str, Any]:
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "poll-benchmark-secret-key-0123456789abcdef"})
    phone = app.test_client()
    sheet = phone.get(f"/games/{game_id}")
    version = int(re.search(rb"since=(\d+)", sheet.data).group(1))  # type: ignore[union-attr]
    path = f"/games/{game_id}/sheet?since={version}"
    for _ in range(200):  # warm
        assert phone.get(path, headers=HX).status_code == 204
    started = time.process_time()
    for _ in range(polls):
        phone.get(path, headers=HX)
    cpu = (time.process_time() - started) / polls
    top = ""
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(polls):
            phone.get(path, headers=HX)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(40)
        top = out.getvalue()
    return {"cpu_ms": cpu * 1000, "profile": top, "path": path}


def _exchange(sock: socket.socket, request: bytes) -> tuple[int, bytes]:
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, rest = data.split(b"\r\n\r\n", 1)
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    want = int(length.group(1)) if length else 0
    while len(rest) < want:
        rest += sock.recv(65536)
    return status, head


def _switches(servers: list[Any]) -> int:
    """Context switches so far of every thread of the servers (/proc): a thread that
    waits for the interpreter's lock or for work sleeps and is woken, one switch each."""
    total = 0
    for server in servers:
        for status in Path(f"/proc/{server.pid}/task").glob("*/status"):
            try:
                text = status.read_text()
            except OSError:
                continue
            total += sum(int(n) for n in re.findall(r"(?m)^\w*ctxt_switches:\s+(\d+)", text))
    return total


def _polling(port: int, request: bytes, polls: int, log: Path) -> None:
    with socket.create_connection((HOST, port)) as sock:
        for _ in range(polls):
            try:
                status, head = _exchange(sock, request)
            except OSError:
                sys.stderr.write(log.read_text()[-3000:])
                raise
            assert status == 204 and b"Connection: close" not in head, head


def _through_server(
    url: str, paths: list[str], polls: int, connections: int = 1, gunicorn: int = 0
) -> tuple[list[float], list[float], list[float]]:
    """Server CPU ms per poll of each of ``paths``, polled on ``connections`` keep-alive
    connections at once (a path without ``since``: the standings page, polled with the
    stamp it shows), and the wall-clock ms per poll (all connections' polls over the time
    they took), and the server threads' context switches a poll."""
    found: list[float] = []
    walls: list[float] = []
    switches: list[float] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        instances(url, 1, Path(folder), gunicorn=gunicorn) as (ports, servers),
    ):
        log = Path(folder) / "server-0.log"
        for path in paths:
            if "since=" not in path:
                with urllib.request.urlopen(f"http://{HOST}:{ports[0]}{path}") as page:
                    stamp = re.search(rb'data-stamp="([^"]+)"', page.read())
                assert stamp is not None
                path = f"{path}?since={stamp.group(1).decode()}"
            request = f"GET {path} HTTP/1.1\r\nHost: x\r\nHX-Request: true\r\nAccept-Encoding: gzip\r\n\r\n"
            _polling(ports[0], request.encode(), 200, log)
            each = polls // connections
            phones = [
                threading.Thread(target=_polling, args=(ports[0], request.encode(), each, log))
                for _ in range(connections)
            ]
            before, started, switched = server_cpu(servers), time.perf_counter(), _switches(servers)
            for phone in phones:
                phone.start()
            for phone in phones:
                phone.join()
            found.append((server_cpu(servers) - before) * 1000 / (each * connections))
            walls.append((time.perf_counter() - started) * 1000 / (each * connections))
            switches.append((_switches(servers) - switched) / (each * connections))
    return found, walls, switches


def run(
    polls: int = 3000, profile: bool = False, connections: int = 1, postgres: bool = False, gunicorn: int = 0
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        if postgres:
            (Path(folder) / "postgres").mkdir()
            url = stack.enter_context(postgres_cluster(Path(folder) / "postgres"))
        else:
            url = f"sqlite:///{Path(folder) / 'poll.sqlite3'}"
        with webgames.database(url) as db:
            table = webgames.seed(db, webgames.game_in_progress(10), 1)[0]
            event = start_event(db, 100, "poll-benchmark-secret")
        inside = _in_process(url, table.game_id, polls, profile)
        paths = [inside["path"], f"/events/{event.id}/standings"]
        (served, standings), (wall, _), (switched, _) = _through_server(
            url, paths, polls, connections, gunicorn
        )
    return {
        "polls": polls,
        "connections": connections,
        "database": "postgresql" if postgres else "sqlite",
        "server": f"gunicorn of {gunicorn} workers" if gunicorn else "waitress",
        "in_process_ms": round(inside["cpu_ms"], 3),
        "server_ms": round(served, 3),
        "wall_ms": round(wall, 3),
        "switches": round(switched, 2),
        "standings_server_ms": round(standings, 3),
        "load": Path("/proc/loadavg").read_text().split()[:3],
        "profile": inside["profile"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--polls", type=int, default=3000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--connections", type=int, default=1, help="polling at once")
    parser.add_argument("--postgres", action="store_true", help="on a throw-away PostgreSQL")
    parser.add_argument("--gunicorn", type=int, default=0, help="through one gunicorn of N workers")
    args = parser.parse_args()
    result = run(args.polls, args.profile, args.connections, args.postgres, args.gunicorn)
    if args.profile:
        sys.stdout.write(result["profile"])
    sys.stdout.write(
        f"unchanged poll, {result['polls']} polls on {result['connections']} connection(s), "
        f"{result['database']}: in the process {result['in_process_ms']} ms CPU, "
        f"through {result['server']} {result['server_ms']} ms of server CPU ({result['wall_ms']} ms of "
        f"wall clock a poll, {result['switches']} context switches); the standings' 204 "
        f"{result['standings_server_ms']} ms; load average {' '.join(result['load'])} "
        f"({os.cpu_count()} cores)\n"
    )


if __name__ == "__main__":
    main()
