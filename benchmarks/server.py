"""Benchmark: the app under its production WSGI server, on loopback, under load.

The server is ``scorekeeper serve`` (:func:`scorekeeper.serve.serve`: one waitress
process with threads) started as a subprocess on 127.0.0.1, on a temporary SQLite
database with a throw-away secret key, so the checkout's ``instance/`` is not touched.
Clients are threads of this process, each with its own keep-alive connection
(:mod:`benchmarks.wire`) and its own cookie (a phone), sending requests back to back for
a fixed time and at most :data:`MAX_REQUESTS` requests per run: the
ceiling of one process, far beyond a club's load (``benchmarks/club.py`` measures the
club evening, the target since issue 12). Target: no errors at 32 clients. Kept whole
(a little over 500 lines): its runs, their clients and their report are one measurement.

What is measured, per run:

* ``health``: ``GET /health``, a database ``SELECT 1``: the ceiling.
* ``sheet``: ``GET /games/<id>`` of a finished 40-box game by a phone with edit rights.
* ``preview``: the htmx live preview of box entry (``POST .../boxes/preview``) of a
  knock with the knocker's ten cards tapped in, on a game of 30 boxes.
* ``record_form``: that box recorded from the box form, as htmx posts it (CSRF token,
  edit rights in the session cookie, version and idempotency key). Phones at their
  tables: before the run each phone opens the edit links of its games
  (:data:`PHONE_GAMES`), each game of 20 boxes, and then records a box on each in turn.
* ``record_api``: the same box through ``POST /api/v1/games/<id>/boxes`` with the
  Bearer edit token, on games of 20 to 40 boxes (a fresh game every 20 boxes costs the
  API nothing: the token is sent with each request).

For comparison, ``record_form_joining`` records at 8 clients the way the earlier
benchmark did: each phone moves to a new game every 20 boxes in the middle of the run,
opening its edit link and the sheet it redirects to (two untimed requests, about 6 ms
of server work, which the other phones wait behind).

``python -m benchmarks.server`` runs it alone; ``SCOREKEEPER_BENCH_SECONDS=5`` (or
``--seconds 5``) shortens each run.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import math
import os
import queue
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import webgames, wire

SECONDS_ENV = "SCOREKEEPER_BENCH_SECONDS"
DEFAULT_SECONDS = 30.0
CONCURRENCY = (8, 32)
MAX_REQUESTS = 200_000
"""The bound on requests per run, whatever the duration."""
RECORD_RATE_CEILING = 800
"""Boxes per second the seeded games can take before the phones run out of games."""
START_BOXES = 20
END_BOXES = 40
HOST = "127.0.0.1"
PROJECT = Path(__file__).resolve().parent.parent
HX = {"HX-Request": "true"}
PATHS = ("health", "sheet", "preview", "record_form", "record_api")
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def seconds_per_run(seconds: float | None = None) -> float:
    """The duration of each run: the argument, else ``$SCOREKEEPER_BENCH_SECONDS``, else 30."""
    if seconds is not None:
        return seconds
    return float(os.environ.get(SECONDS_ENV) or DEFAULT_SECONDS)


# --- the server ----------------------------------------------------------------------------


@dataclass
class Server:
    """A running ``scorekeeper serve`` and its database."""

    port: int
    database_url: str
    process: subprocess.Popen[bytes]

    def cpu_seconds(self) -> float:
        """User + system CPU time the server and its worker processes have used so far
        (Linux /proc)."""
        ticks = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # a process that just ended
            if stat.parent.name == str(self.process.pid) or fields[1] == str(self.process.pid):
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(folder: Path) -> Iterator[Server]:
    """``scorekeeper serve`` on a free loopback port, its database in ``folder``."""
    url = f"sqlite:///{folder / 'bench.sqlite3'}"
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_BENCH_SECRET": secrets.token_hex(32)}
    log_path = folder / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.server", "--serve", str(port)],
            cwd=PROJECT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_up(port, process, log_path)
            yield Server(port, url, process)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                connection.close()
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer /health within 60 s")


def _serve_in_this_process(port: int) -> None:
    """The subprocess: the real ``serve`` with this benchmark's database and a throw-away
    secret key instead of the checkout's ``instance/`` configuration."""
    from scorekeeper import serve

    serve.serve(
        HOST,
        port,
        {
            "DATABASE_URL": os.environ["DATABASE_URL"],
            "SECRET_KEY": os.environ["SCOREKEEPER_BENCH_SECRET"],
            "ACCESS_LOG": False,
        },
    )


# --- a phone -------------------------------------------------------------------------------


@dataclass
class Phone:
    """One client: a keep-alive connection and the session cookie of its browser."""

    port: int
    cookie: str = ""
    connection: wire.Connection | None = None

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """Send, read the whole answer, keep the cookie; reconnect once if the server
        closed an idle connection."""
        sent = dict(headers or {})
        if self.cookie:
            sent["Cookie"] = self.cookie
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = wire.Connection(HOST, self.port)
            try:
                status, found, data = self.connection.request(method, path, body, sent)
            except (ConnectionResetError, BrokenPipeError, wire.Closed):
                self.close()
                if attempt == 2:
                    raise
                continue
            for name, value in found:
                if name.lower() == "set-cookie" and value.startswith("session="):
                    self.cookie = value.split(";", 1)[0]
            fields = {name.lower(): value for name, value in found}
            if fields.get("connection", "").lower() == "close":
                self.close()
            return status, fields, data
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def join(self, table: webgames.Table) -> int:
        """Open the join link and confirm, as a browser does: the game's edit code goes
        into this phone's session, and the redirect shows the game's sheet. The requests
        sent."""
        path = f"/games/{table.game_id}/join"
        status, _, page = self.request("GET", path)
        match = re.search(rb'name="csrf_token" value="([^"]+)"', page)
        if status != 200 or match is None:
            raise RuntimeError(f"the join page of {table.game_id} answered {status}")
        body = urllib.parse.urlencode({"csrf_token": match.group(1).decode(), "code": table.token}).encode()
        status, headers, _ = self.request("POST", path, body, FORM)
        if status != 303:
            raise RuntimeError(f"joining {table.game_id} answered {status}")
        status, _, _ = self.request("GET", urllib.parse.urlsplit(headers["location"]).path)
        if status != 200:
            raise RuntimeError(f"the sheet of {table.game_id} answered {status}")
        return 3

    def record_box(self, game_id: str, version: int, token: str) -> bool:
        """Post :data:`webgames.RECORDED_BOX` from the box form, as htmx does, on the game
        at ``version``; whether it was recorded (htmx is sent on to the sheet)."""
        body = urllib.parse.urlencode(webgames.box_form(version, token)).encode()
        status, headers, _ = self.request("POST", f"/games/{game_id}/boxes/new", body, {**HX, **FORM})
        return status == 200 and "hx-redirect" in headers

    def csrf_token(self, game_id: str) -> str:
        status, _, page = self.request("GET", f"/games/{game_id}/boxes/new")
        match = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page)
        if status != 200 or match is None:
            raise RuntimeError(f"no box form for {game_id}: {status}")
        return match.group(1).decode()


# --- the load ------------------------------------------------------------------------------


Action = Callable[[], bool]
"""One timed request; True when the answer was the expected one."""


@dataclass
class Tally:
    """What all the phones of a run saw."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    side_requests: int = 0
    out_of_games: int = 0
    budget: int = MAX_REQUESTS
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> bool:
        with self.lock:
            if self.budget <= 0:
                return False
            self.budget -= 1
            return True


class OutOfGames(Exception):
    """Every seeded game is full: this phone stops (the request bound of a record run)."""


def _percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(math.ceil(fraction * len(ordered)) - 1, 0)]


def _load(
    server: Server, clients: int, seconds: float, make_action: Callable[[Phone, Tally], Action]
) -> dict[str, Any]:
    """``clients`` phones, each sending its action back to back for ``seconds``."""
    tally = Tally()
    phones = [Phone(server.port) for _ in range(clients)]
    actions = [make_action(phone, tally) for phone in phones]
    ready = threading.Barrier(clients + 1)
    deadline = [0.0]

    def client(action: Action, phone: Phone) -> None:
        mine: list[float] = []
        ready.wait()
        while time.perf_counter() < deadline[0] and tally.take():
            start = time.perf_counter()
            try:
                ok = action()
            except OutOfGames:
                with tally.lock:
                    tally.out_of_games += 1
                break
            except (OSError, http.client.HTTPException) as err:
                phone.close()
                ok = False
                with tally.lock:
                    tally.errors[type(err).__name__] += 1
            mine.append((time.perf_counter() - start) * 1000)
            if not ok:
                with tally.lock:
                    tally.errors["unexpected answer"] += 1
        phone.close()
        with tally.lock:
            tally.latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(a, p)) for a, p in zip(actions, phones, strict=True)]
    for thread in threads:
        thread.start()
    cpu_before, client_before = server.cpu_seconds(), time.process_time()
    started = time.perf_counter()
    deadline[0] = started + seconds
    ready.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    cpu = server.cpu_seconds() - cpu_before
    client_cpu = time.process_time() - client_before
    times = sorted(tally.latencies)
    if not times:
        raise RuntimeError("no request completed")
    result: dict[str, Any] = {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": len(times),
        "rps": round(len(times) / elapsed, 1),
        "p50_ms": round(_percentile(times, 0.50), 1),
        "p95_ms": round(_percentile(times, 0.95), 1),
        "p99_ms": round(_percentile(times, 0.99), 1),
        "max_ms": round(times[-1], 1),
        "errors": sum(tally.errors.values()),
        "server_cpu_ms_per_request": round(cpu * 1000 / (len(times) + tally.side_requests), 2),
        "client_cpu_ms_per_request": round(client_cpu * 1000 / (len(times) + tally.side_requests), 2),
    }
    if tally.errors:
        result["error_kinds"] = dict(tally.errors)
    if tally.side_requests:
        result["side_requests"] = tally.side_requests
    if tally.out_of_games:
        result["phones_out_of_games"] = tally.out_of_games
    return result


def _health(phone: Phone, _tally: Tally) -> Action:
    return lambda: phone.request("GET", "/health")[0] == 200


def _sheet(sheet: webgames.Table) -> Callable[[Phone, Tally], Action]:
    def make(phone: Phone, _tally: Tally) -> Action:
        phone.join(sheet)
        return lambda: phone.request("GET", f"/games/{sheet.game_id}")[0] == 200

    return make


def _preview(table: webgames.Table) -> Callable[[Phone, Tally], Action]:
    def make(phone: Phone, _tally: Tally) -> Action:
        phone.join(table)
        body = urllib.parse.urlencode(webgames.box_form(1, phone.csrf_token(table.game_id)))
        path = f"/games/{table.game_id}/boxes/preview"
        return lambda: phone.request("POST", path, body.encode(), {**HX, **FORM})[0] == 200

    return make


def _record_form(
    pool: queue.SimpleQueue[webgames.Table], games_per_phone: int
) -> Callable[[Phone, Tally], Action]:
    """Phones at their tables: each opens the edit links of its games before the run (a
    phone joins its table's game once an evening) and then records a box on each in
    turn, so the run is boxes recorded and nothing else."""

    def make(phone: Phone, _tally: Tally) -> Action:
        games = [pool.get_nowait() for _ in range(games_per_phone)]
        for table in games:
            phone.join(table)
        token = phone.csrf_token(games[0].game_id)
        versions = [1] * len(games)
        turns = itertools.cycle(range(len(games)))

        def record() -> bool:
            turn = next(turns)
            recorded = phone.record_box(games[turn].game_id, versions[turn], token)
            versions[turn] += 1
            return recorded

        return record

    return make


PHONE_GAMES = 8
"""Games each phone keeps open and records on in turn."""


def _record_form_joining(
    pool: queue.SimpleQueue[webgames.Table],
) -> Callable[[Phone, Tally], Action]:
    """Recording where each phone moves to a new game every 20 boxes in the middle of the
    run: boxes 21-40 on a game, then the edit link of the next and the sheet it leads to
    (untimed side requests, which hold up the other phones of that process)."""

    def make(phone: Phone, tally: Tally) -> Action:
        state: dict[str, Any] = {"table": pool.get_nowait(), "version": 1}
        phone.join(state["table"])
        token = phone.csrf_token(state["table"].game_id)

        def record() -> bool:
            if state["version"] > END_BOXES - START_BOXES:
                try:
                    state["table"], state["version"] = pool.get_nowait(), 1
                except queue.Empty as empty:
                    raise OutOfGames from empty
                sent = phone.join(state["table"])
                with tally.lock:
                    tally.side_requests += sent
            recorded = phone.record_box(state["table"].game_id, state["version"], token)
            state["version"] += 1
            return recorded

        return record

    return make


def _record_api(pool: queue.SimpleQueue[webgames.Table]) -> Callable[[Phone, Tally], Action]:
    """The same box through the JSON API; a fresh game every 20 boxes."""
    body = json.dumps(webgames.RECORDED_BOX).encode()

    def make(phone: Phone, _tally: Tally) -> Action:
        state: dict[str, Any] = {"table": pool.get_nowait(), "boxes": 0}

        def record() -> bool:
            if state["boxes"] >= END_BOXES - START_BOXES:
                try:
                    state["table"], state["boxes"] = pool.get_nowait(), 0
                except queue.Empty as empty:
                    raise OutOfGames from empty
            table: webgames.Table = state["table"]
            status, _, _ = phone.request(
                "POST",
                f"/api/v1/games/{table.game_id}/boxes",
                body,
                {"Content-Type": "application/json", "Authorization": f"Bearer {table.token}"},
            )
            state["boxes"] += 1
            return status == 201

        return record

    return make


def _pool_size(clients: int, seconds: float) -> int:
    """Games enough for :data:`RECORD_RATE_CEILING` boxes a second, and one per phone."""
    return math.ceil(RECORD_RATE_CEILING * seconds / (END_BOXES - START_BOXES)) + clients


def _pool(tables: list[webgames.Table]) -> queue.SimpleQueue[webgames.Table]:
    pool: queue.SimpleQueue[webgames.Table] = queue.SimpleQueue()
    for table in tables:
        pool.put(table)
    return pool


def run(seconds: float | None = None, paths: Sequence[str] | None = None) -> dict[str, Any]:
    """Every path (or only ``paths``) at 8 and 32 clients (and recording at 1, for the
    unloaded latency); then, for comparison, recording at 8 clients with phones moving
    to new games mid-run."""
    seconds = seconds_per_run(seconds)
    runs = [(1, min(seconds, 10.0))] + [(c, seconds) for c in CONCURRENCY]
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as tmp:
        folder = Path(tmp)
        with webgames.database(f"sqlite:///{folder / 'bench.sqlite3'}") as db:
            sheet = webgames.seed(db, webgames.finished_game(), 1)[0]
            preview = webgames.seed(db, webgames.game_in_progress(30), 1)[0]
            middle = webgames.game_in_progress(START_BOXES)
            pools = {("record_form", c): webgames.seed(db, middle, c * PHONE_GAMES) for c, _ in runs}
            pools |= {
                ("record_api", c): webgames.seed(db, middle, _pool_size(c, duration)) for c, duration in runs
            }
            joining = webgames.seed(db, middle, _pool_size(8, seconds))
        results: dict[str, Any] = {"seconds_per_run": seconds, "runs": {}}
        plans: list[tuple[str, Callable[[int], Callable[[Phone, Tally], Action]]]] = [
            ("health", lambda c: _health),
            ("sheet", lambda c: _sheet(sheet)),
            ("preview", lambda c: _preview(preview)),
            ("record_form", lambda c: _record_form(_pool(pools["record_form", c]), PHONE_GAMES)),
            ("record_api", lambda c: _record_api(_pool(pools["record_api", c]))),
        ]
        with serving(folder) as server:
            _warm_up(server, sheet)
            for name, plan in plans:
                if paths and name not in paths:
                    continue
                for clients, duration in runs:
                    if clients == 1 and not name.startswith("record"):
                        continue
                    results["runs"][f"{name}@{clients}"] = _load(server, clients, duration, plan(clients))
            if not paths or "record_form" in paths:
                results["record_form_joining"] = _load(
                    server, 8, seconds, _record_form_joining(_pool(joining))
                )
    return results


def _warm_up(server: Server, sheet: webgames.Table) -> None:
    """Templates compiled and meld tables built before the timed runs."""
    for _ in range(4):
        warm = Phone(server.port)
        warm.join(sheet)
        for _ in range(5):
            warm.request("GET", f"/games/{sheet.game_id}")
        warm.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, help=f"each run's duration (${SECONDS_ENV})")
    parser.add_argument("--only", action="append", choices=PATHS, help="run only this path (repeatable)")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve_in_this_process(args.serve)
        return
    sys.stdout.write(json.dumps(run(args.seconds, args.only), indent=2) + "\n")


if __name__ == "__main__":
    main()
