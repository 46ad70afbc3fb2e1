"""``scorekeeper serve --workers``: several waitress processes on one listening socket,
forked and minded by a parent (:class:`scorekeeper.serve.Workers`), on SQLite and on
PostgreSQL.

The server is the real :func:`scorekeeper.serve.serve`, started by
``python -m tests.reliability.liveserver DATABASE_URL PORT WORKERS``. Which process
answered a request is read from Linux's /proc: the server end of the request's TCP
connection is a socket, and the process holding that socket's inode among its open
files accepted the connection.
"""

from __future__ import annotations

import gc
import http.client
import os
import random
import signal
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from scorekeeper import serve, store

from .conftest import LiveServer
from .test_concurrency import GAME, TIMEOUT, _box_form, _phone, misdeal, run_threads

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or not hasattr(os, "fork"),
                                reason="needs fork and Linux /proc")

WORKERS = 2
SOON = 5.0
"""Seconds within which the parent replaces a worker, or processes end."""


# --- processes, read from /proc -------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state, ppid, ...), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _alive(pid: int, started: str | None = None) -> bool:
    """Whether ``pid`` runs (a zombie has ended); ``started``: and is the process that
    started at that tick (not a later one given the same pid)."""
    fields = _stat(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return False
    return started is None or fields[19] == started


def _children(parent: int) -> dict[int, str]:
    """The running child processes of ``parent``: pid to start tick."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is not None and fields[1] == str(parent) and fields[0] not in ("Z", "X"):
            found[int(entry.name)] = fields[19]
    return found


def _owner(port: int, client: socket.socket, candidates: Iterable[int]) -> int | None:
    """Which of ``candidates`` holds the server end of ``client``'s connection to ``port``."""
    mine = client.getsockname()[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        local, remote, state = parts[1], parts[2], parts[3]
        if (int(local.split(":")[1], 16) == port and int(remote.split(":")[1], 16) == mine
                and state == "01" and parts[9] != "0"):
            inode = parts[9]
    if inode is None:
        return None
    for pid in candidates:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    return None


def _port_is_free(port: int) -> bool:
    """Whether a server could listen on ``port`` now (as :func:`serve` binds it)."""
    try:
        with socket.create_server(("127.0.0.1", port)):
            return True
    except OSError:
        return False


def _wait_for(check: Any, seconds: float = SOON) -> bool:
    """Poll ``check()`` until it is true or ``seconds`` pass; its last answer."""
    deadline = time.monotonic() + seconds
    while True:
        if check():
            return True
        if time.monotonic() > deadline:
            return bool(check())
        time.sleep(0.02)


# --- the server ----------------------------------------------------------------------------


@dataclass
class WorkerServer(LiveServer):
    """``serve(..., workers)``: a parent and its worker processes."""

    workers: int = WORKERS
    seen: dict[int, str] = field(default_factory=dict)
    """Every worker seen, pid to start tick, so that none outlives the test."""

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def children(self) -> dict[int, str]:
        found = _children(self.pid)
        self.seen.update(found)
        return found

    def command(self) -> list[str]:
        return [*super().command(), str(self.workers)]

    def ready(self) -> bool:
        """/health answers and every worker runs."""
        return super().ready() and len(self.children()) == self.workers

    def request(self, path: str) -> tuple[int, int | None]:
        """GET ``path`` on a new connection: the status and the worker that answered."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert connection.sock is not None
            return response.status, _owner(self.port, connection.sock, list(self.children()))
        finally:
            connection.close()

    def cleanup(self) -> None:
        """Stop the parent, then SIGKILL any worker still running (by pid and start tick)."""
        if self.process is not None and self.process.poll() is None:
            self.children()
        self.stop()
        for pid, started in self.seen.items():
            if _alive(pid, started):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture
def workers(database_url: str, tmp_path: Path) -> Iterator[WorkerServer]:
    live = WorkerServer(database_url, tmp_path / "server.log")
    try:
        yield live.start()
    finally:
        live.cleanup()


# --- the tests -----------------------------------------------------------------------------


def test_two_processes_serve_the_one_port(workers: WorkerServer) -> None:
    """The parent has exactly two workers, and requests on new connections are answered
    by both (each connection's server end is found in one worker's open files; the
    parent, which only minds them, answers none)."""
    kids = workers.children()
    assert len(kids) == WORKERS, kids
    assert workers.pid not in kids
    answered = Counter[int | None]()
    for n in range(400):
        status, owner = workers.request("/health")
        assert status == 200
        answered[owner] += 1
        if n >= 59 and all(answered[pid] for pid in kids):
            break
    assert set(answered) == set(kids), f"answered by {dict(answered)}, workers {sorted(kids)}"
    assert workers.children() == kids, "a worker died while serving"


def test_phones_are_spread_evenly_over_the_workers(workers: WorkerServer) -> None:
    """Ten phones connect one after another and keep their connections open: each
    worker holds five (a phone stays with the worker that accepted it, and the first
    idle worker to ask used to take nearly all of them). Each connection is answered
    at once, though the worker with fewest connections may have been asleep."""
    kids = list(workers.children())
    phones = [http.client.HTTPConnection("127.0.0.1", workers.port, timeout=TIMEOUT)
              for _ in range(10)]
    try:
        owners: Counter[int | None] = Counter()
        slowest = 0.0
        for phone in phones:
            started = time.monotonic()
            phone.request("GET", "/health")
            response = phone.getresponse()
            response.read()
            slowest = max(slowest, time.monotonic() - started)
            assert response.status == 200
            assert phone.sock is not None
            owners[_owner(workers.port, phone.sock, kids)] += 1
        assert sorted(owners.values()) == [5, 5] and set(owners) == set(kids), owners
        assert slowest < 0.5, f"a new connection waited {slowest:.2f} s"
    finally:
        for phone in phones:
            phone.close()


def _cpu_ticks(pid: int) -> int:
    fields = _stat(pid)
    assert fields is not None
    return int(fields[11]) + int(fields[12])


def test_idle_workers_sleep(workers: WorkerServer) -> None:
    """A worker wakes every RECOUNT_SECONDS to look at the tally, and otherwise sleeps:
    a second of idleness costs it no measurable CPU (a busy loop would cost the second)."""
    kids = list(workers.children())
    answered: set[int | None] = set()
    for _ in range(400):  # both are serving, past their start (imports, the app)
        answered.add(workers.request("/health")[1])
        if answered >= set(kids):
            break
    assert answered >= set(kids), answered
    before = {pid: _cpu_ticks(pid) for pid in kids}
    time.sleep(1.0)
    spent = {pid: (_cpu_ticks(pid) - ticks) / os.sysconf("SC_CLK_TCK")
             for pid, ticks in before.items()}
    assert all(seconds < 0.2 for seconds in spent.values()), spent


def test_a_dead_workers_slot_holds_no_one_back() -> None:
    """The tally the workers share: the fewest is the least any worker holds, and a
    worker that died counts as full until its replacement writes its own count."""
    tally = serve.Connections(3)
    for slot, held in enumerate((4, 2, 3)):
        tally.set(slot, held)
    assert tally.fewest() == 2
    tally.vacate(1)
    assert tally.fewest() == 3
    tally.set(1, 0)  # the replacement starts with none
    assert tally.fewest() == 0


def test_a_worker_settles_its_app_out_of_the_collectors_way() -> None:
    """What a worker built before serving is frozen: full collections no longer walk
    it (about 35 ms each on the benchmark machine)."""
    app = object()
    try:
        assert serve._settled(app) is app
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def _game(server: LiveServer) -> tuple[str, str]:
    created = requests.post(f"{server.url}/api/v1/games", json=GAME, timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["edit_token"]


def _read(server: LiveServer, game_id: str) -> dict[str, Any]:
    """The game on a new connection, checked whole: version ``v`` holds ``v - 1`` boxes
    (every write here is an append), its ETag says ``v`` and its score rules each box."""
    response = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()
    boxes = game["game"]["boxes"]
    assert response.headers["ETag"] == f'"{game["version"]}"'
    assert len(boxes) == game["version"] - 1, game
    assert [ruling["id"] for ruling in game["score"]["boxes"]] == [box["id"] for box in boxes]
    return game


def test_writes_from_many_connections_agree_across_processes(workers: WorkerServer,
                                                             database_url: str) -> None:
    """6 phones, 14 boxes each on 3 games, every request on a new connection (so on
    either worker): half read-then-write with If-Match (409s retried), half without
    (the server retries), some with an Idempotency-Key sent twice. Right after each
    write, two reads on new connections show that version or a later one, with the box
    (no worker serves an old version it remembered). Then the form path, across
    workers. Afterwards each game holds exactly the accepted boxes in version order,
    versions have no gaps, every worker reads the same game, and store.verify is clean."""
    games = [_game(workers) for _ in range(3)]
    kids = workers.children()
    accepted: list[tuple[str, int, int, str]] = []  # game, version, box id, note
    conflicts = Counter[str]()
    lock = threading.Lock()

    def read_own_write(game_id: str, version: int, box_id: int, note: str) -> None:
        for _ in range(2):
            game = _read(workers, game_id)
            assert game["version"] >= version, (game["version"], version)
            mine = [box for box in game["game"]["boxes"] if box["id"] == box_id]
            assert [box["note"] for box in mine] == [note], (box_id, note, game)

    def phone(i: int) -> None:
        chance = random.Random(7000 + i)
        for n in range(14):
            game_id, token = games[chance.randrange(len(games))]
            auth = {"Authorization": f"Bearer {token}"}
            base = f"{workers.url}/api/v1/games/{game_id}/boxes"
            note = f"phone {i} box {n}"
            if n % 2 == 0:
                for _attempt in range(100):
                    seen = _read(workers, game_id)
                    response = requests.post(base, json=misdeal(note), timeout=TIMEOUT,
                                             headers={**auth, "If-Match": f'"{seen["version"]}"'})
                    if response.status_code != 409:
                        break
                    assert response.json()["error"]["code"] == "stale-version"
                    assert int(response.headers["ETag"].strip('"')) > seen["version"]
                    with lock:
                        conflicts["if-match"] += 1
                assert response.status_code == 201, response.text
                assert response.json()["version"] == seen["version"] + 1
            elif n % 4 == 1:
                headers = {**auth, "Idempotency-Key": f"phone-{i}-{n}"}
                response = requests.post(base, json=misdeal(note), headers=headers,
                                         timeout=TIMEOUT)
                assert response.status_code == 201, response.text
                again = requests.post(base, json=misdeal(note), headers=headers,
                                      timeout=TIMEOUT)
                assert again.status_code == 200, again.text
                assert again.json()["repeated"] is True
                assert again.json()["box_id"] == response.json()["box_id"]
                assert again.json()["version"] == response.json()["version"]
            else:
                response = requests.post(base, json=misdeal(note), headers=auth,
                                         timeout=TIMEOUT)
                assert response.status_code == 201, response.text
            written = response.json()
            assert response.headers["ETag"] == f'"{written["version"]}"'
            assert len(written["score"]["boxes"]) == written["version"] - 1
            assert written["box"]["id"] == written["box_id"]
            with lock:
                accepted.append((game_id, written["version"], written["box_id"], note))
            read_own_write(game_id, written["version"], written["box_id"], note)

    run_threads(6, phone)
    assert len(accepted) == 6 * 14

    # The box form, as a phone's browser sends it, each request on a new connection.
    game_id, token = games[0]
    browser = _phone(workers, game_id, token)
    browser.headers["Connection"] = "close"
    try:
        for n in range(4):
            form = _box_form(browser, workers, game_id)
            note = f"form box {n}"
            saved = browser.post(f"{workers.url}/games/{game_id}/boxes/new",
                                 data={**form, "ending": "misdeal", "note": note},
                                 allow_redirects=False, timeout=TIMEOUT)
            assert saved.status_code == 303, saved.text[:2000]
            version = int(form["version"]) + 1
            game = _read(workers, game_id)
            assert game["version"] == version
            box_id = game["game"]["boxes"][-1]["id"]
            assert game["game"]["boxes"][-1]["note"] == note
            accepted.append((game_id, version, box_id, note))
            read_own_write(game_id, version, box_id, note)
    finally:
        browser.close()

    for game_id, _token in games:
        mine = sorted((version, box_id, note) for g, version, box_id, note in accepted
                      if g == game_id)
        assert [version for version, _, _ in mine] == list(range(2, 2 + len(mine)))
        expected = [(box_id, note) for _, box_id, note in mine]
        for _ in range(8):  # new connections: both workers, whatever each remembers
            game = _read(workers, game_id)
            assert game["version"] == 1 + len(mine)
            assert [(box["id"], box["note"]) for box in game["game"]["boxes"]] == expected
    with store.opened(database_url) as db:
        assert store.verify(db) == []
        for game_id, _token in games:
            row = store.get_game(db, game_id)
            assert row is not None
            assert [(box.id, box.entry["note"]) for box in store.live_boxes(db, row)] == [
                (box_id, note) for g, _, box_id, note in sorted(accepted, key=lambda a: a[1])
                if g == game_id]
    assert workers.children() == kids, "a worker died (and was replaced) during the writes"


def test_a_killed_worker_is_replaced(workers: WorkerServer) -> None:
    """SIGKILL one worker while 3 threads send requests on new connections: the parent
    starts another (a new pid) within seconds, which then answers requests itself; no
    request fails but those the killed worker had accepted, and a box is recorded after."""
    before = workers.children()
    victim = min(before)
    results: list[tuple[float, int | None, str]] = []  # started, status, error
    stop = threading.Event()
    lock = threading.Lock()

    def hammer(_i: int) -> None:
        while not stop.is_set():
            started = time.monotonic()
            status: int | None = None
            error = ""
            try:
                status = requests.get(f"{workers.url}/health", timeout=TIMEOUT).status_code
            except requests.RequestException as err:
                error = repr(err)
            with lock:
                results.append((started, status, error))

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(0.3)
        os.kill(victim, signal.SIGKILL)
        assert _wait_for(lambda: not _alive(victim, before[victim]))
        killed_at = time.monotonic()
        assert _wait_for(lambda: len(workers.children()) == WORKERS
                         and victim not in workers.children()), workers.children()
        replaced_in = time.monotonic() - killed_at
        (newcomer,) = set(workers.children()) - set(before)
        survivor = (set(before) - {victim}).pop()
        assert set(workers.children()) == {survivor, newcomer}
        owners: Counter[int | None] = Counter()
        for _ in range(400):
            status, owner = workers.request("/health")
            assert status == 200
            owners[owner] += 1
            if owners[newcomer] >= 3:
                break
        assert owners[newcomer] >= 3, f"the new worker {newcomer} answered none: {owners}"
        time.sleep(0.2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert replaced_in < SOON
    failed = [(started, error) for started, status, error in results if status is None]
    assert all(status in (200, None) for _, status, _ in results)
    assert all(started < killed_at for started, _ in failed), failed
    assert len(failed) <= len(threads), failed
    assert sum(1 for started, status, _ in results if started > killed_at and status == 200) > 10
    game_id, token = _game(workers)
    after = requests.post(f"{workers.url}/api/v1/games/{game_id}/boxes", json=misdeal("after"),
                          headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
    assert after.status_code == 201, after.text
    assert _read(workers, game_id)["game"]["boxes"][0]["note"] == "after"


def test_sigterm_stops_every_worker_and_the_parent(workers: WorkerServer) -> None:
    """SIGTERM to the parent (as a service manager stops it), with a keep-alive
    connection open on a worker: every worker ends, the parent exits 0 within seconds,
    and the port can be listened on again."""
    kids = workers.children()
    idle = http.client.HTTPConnection("127.0.0.1", workers.port, timeout=TIMEOUT)
    try:
        idle.request("GET", "/health")
        idle_response = idle.getresponse()
        idle_response.read()
        assert idle_response.status == 200
        assert workers.process is not None
        workers.process.send_signal(signal.SIGTERM)
        try:
            code = workers.process.wait(timeout=SOON)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the parent did not exit within {SOON} s of SIGTERM")
        assert code == 0, workers.log.read_text()[-2000:]
        assert not [pid for pid, started in kids.items() if _alive(pid, started)]
        assert _port_is_free(workers.port)
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", workers.port), timeout=2).close()
    finally:
        idle.close()


def test_workers_end_when_the_parent_is_killed(workers: WorkerServer) -> None:
    """SIGKILL to the parent (no handler runs): the kernel's parent-death signal ends
    every worker within seconds, and the port becomes free."""
    kids = workers.children()
    assert workers.process is not None
    os.kill(workers.pid, signal.SIGKILL)
    assert workers.process.wait(timeout=SOON) == -signal.SIGKILL
    assert _wait_for(lambda: not any(_alive(pid, started) for pid, started in kids.items())), \
        f"workers still running after the parent was killed: {kids}"
    assert _wait_for(lambda: _port_is_free(workers.port))
