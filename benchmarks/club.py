"""Benchmark: a club evening, the load the server is sized for (issues 12, 25 and 34).

An event of 100 to 400 tables of three players over rounds (issue 25: seated by the
event, each table's game created by it), three phones at each table; five projectors poll
the live standings every 3 s (the standings page ``/events/<id>/standings`` as a
browser runs it: opened, then polled by htmx with the stamp it shows, 204 while
nothing changed), and five the event's JSON (the whole event every time), which also
checks that every box acknowledged before a poll was sent is counted in what it
answers: a recorded box shows in the standings within one poll). Between rounds the
director closes the round by force (the running games end by agreement) and seats the
next; the phones move to their new tables. Every phone keeps the sheet open, which polls
``/games/<id>/sheet?since=<version>`` every 3 s (the cheap 204 while nothing changed, the
new sheet after a box); one phone per table (the scorer, with the edit link) records a
box every two minutes from the box form, as htmx does: the form, the POST, then the
sheet its ``HX-Redirect`` leads to. Phones start at random moments, keep their
keep-alive connection all evening, and every request is timed.

The server is one ``scorekeeper serve`` process on 127.0.0.1 (``--instances 2``: two,
with the phones of each table spread over them as a proxy would; ``--gunicorn``: one
gunicorn of ``--instances`` workers, as docs/deploy.md runs it), on a temporary SQLite
database (``--postgres``: a throw-away PostgreSQL cluster, Debian's server binaries).
Targets: poll p95 ≤ 20 ms, recording a box p95 ≤ 100 ms, standings p95 ≤ 50 ms, no
errors, no standings poll missing a box acknowledged before it.

``python -m benchmarks.club`` (and ``make bench``) runs issue 34's figures: 1-minute and
3-minute evenings of 100, 200 and 300 tables on one process with SQLite (and 400 where
300 met the targets: what one process, one core as Python runs one thread of a process
at a time, holds), then 1.6 times the tables one process held (480 where it held 300)
on one gunicorn of two workers with PostgreSQL at each length; ``--write`` puts them in
docs/performance.md. ``--minutes 1`` runs the
1-minute evenings only, ``--ramp 100,200`` other table counts, and ``--tables 300`` one
evening alone (1 minute unless ``--minutes`` says).

The clients are coroutines of one asyncio loop in this process, on the same two cores
as the server; the server's CPU is read from /proc.

Kept whole (about 950 lines): the phones, the projectors, the director, the servers it
starts and the report are one evening, read top to bottom, and ``make bench``, issue
34's table and docs/performance.md all read its one result; split, each part would
import every other.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import math
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import typing
import urllib.parse
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from scorekeeper.engine.event import EventEntry
from scorekeeper.ledger import events, make_codes
from scorekeeper.serve import settle

from . import webgames
from .timing import DOC, markdown_table, write_section

PHONES = 3
"""Phones per table: the scorer and two players following the sheet."""
POLL_SECONDS = 3.0
BOX_SECONDS = 120.0
MINUTES = 1.0
"""An evening's length run alone (``--tables``)."""
LENGTHS = (1.0, 3.0)
"""The evenings' lengths (minutes) :func:`run` runs the ramp at (issue 34)."""
WARM_UP_SECONDS = 10.0
"""Requests in the first seconds (imports, template compiles) are not counted."""
RAMP = (100, 200, 300)
"""Table counts ``make bench`` runs on one process (SQLite) at each length."""
BEYOND = 400
"""Tried too where the ramp's last count met the targets."""
TIMES = 1.6
"""Two gunicorn workers on PostgreSQL should hold this many times the tables one process
holds (issue 34): :func:`run` runs them at that many, at each length."""
BEFORE = Path(__file__).resolve().parent / "club-before.json"
"""The figures of the code before issue 12's redesign, shown beside each new run."""
POLL_P95_MS = 20.0
RECORD_P95_MS = 100.0
STANDINGS_P95_MS = 50.0
ROUNDS = 2
"""Rounds the evening is split into (the director closes and seats between them)."""
PROJECTORS = 5
TIMEOUT = 10.0
HOST = "127.0.0.1"
PROJECT = Path(__file__).resolve().parent.parent
TRACE: Path | None = None
"""Where ``--trace`` writes every timed request of the last evening (kind, start, ms)."""
KINDS = ("poll", "form", "record", "sheet", "standings", "standings_page", "close", "seat")
"""What is timed: the poll, the box form, recording a box, the sheet after it, the
projectors' standings (the event's JSON, the page), the director closing a round and
seating the next."""


# --- the wire ------------------------------------------------------------------------------


class Refused(Exception):
    """An answer the benchmark did not expect (its kind names it in the error count)."""


@dataclass
class Phone:
    """One browser: a keep-alive connection (opened again if the server closes it) and
    its session cookie. Requests of one phone go one at a time, as on one connection."""

    port: int
    cookie: str = ""
    sent: typing.ClassVar[int] = 0
    """Requests sent by every phone (the untimed ones too: opening the games, the warm-up)."""
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = 0
    """The version of the sheet this phone shows, which its polls ask ``since``: the
    page it opened, a changed poll's answer, or the sheet its own box led to (a new
    page, as htmx's ``HX-Redirect`` loads it, polling from that version)."""

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """Send a request and read its whole answer (status, headers, body unzipped)."""
        async with self.busy:
            Phone.sent += 1
            for attempt in (1, 2):
                try:
                    return await asyncio.wait_for(self._exchange(method, path, body, headers), TIMEOUT)
                except (ConnectionError, asyncio.IncompleteReadError):
                    self.close()
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    async def _exchange(
        self, method: str, path: str, body: bytes, headers: dict[str, str] | None
    ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {HOST}:{self.port}",
            "Accept-Encoding: gzip",
            *(f"{k}: {v}" for k, v in (headers or {}).items()),
        ]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write("\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + body)
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split(" ", 2)[1])
        found: dict[str, str] = {}
        for line in head[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                found[name.strip().lower()] = value.strip()
                if name.lower() == "set-cookie" and value.strip().startswith("session="):
                    self.cookie = value.strip().split(";", 1)[0]
        data = await self._body(method, status, found)
        if found.get("connection", "").lower() == "close":
            self.close()
        if found.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        return status, found, data

    async def _body(self, method: str, status: int, found: dict[str, str]) -> bytes:
        assert self.reader is not None
        if method == "HEAD" or status in (204, 304) or status < 200:
            return b""
        if found.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while size := int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append(await self.reader.readexactly(size + 2))
            await self.reader.readuntil(b"\r\n")
            return b"".join(part[:-2] for part in parts)
        return await self.reader.readexactly(int(found.get("content-length", "0")))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- the evening ---------------------------------------------------------------------------


@dataclass
class Evening:
    """What every phone saw: latencies by kind (after the warm-up) and errors."""

    started: float
    ends: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    changed_polls: int = 0
    recorded: int = 0
    """Boxes acknowledged this round (a projector's poll must count them all)."""
    stale_standings: int = 0
    trace: list[tuple[str, float, float]] = field(default_factory=list)
    """Every timed request: its kind, when it was sent (seconds into the evening) and
    what it took (ms), for ``--trace``."""

    async def timed(
        self,
        kind: str,
        phone: Phone,
        method: str,
        path: str,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
    ) -> tuple[int, dict[str, str], bytes] | None:
        """One request, timed under ``kind``; None (and an error counted) if it failed."""
        start = time.perf_counter()
        try:
            answer = await phone.request(method, path, body, headers)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as err:
            self.errors[f"{kind}: {type(err).__name__}"] += 1
            phone.close()
            return None
        took = (time.perf_counter() - start) * 1000
        self.trace.append((kind, round(start - self.started, 3), round(took, 2)))
        if start - self.started >= WARM_UP_SECONDS:
            self.latencies[kind].append(took)
        if answer[0] not in expect:
            self.errors[f"{kind}: {answer[0]}"] += 1
            return None
        return answer


VERSION = re.compile(rb'data-version="(\d+)"')
QR_CODE = re.compile(rb'<img class="qr" src="([^"]+)"')
"""A QR code's image on a sheet (the scorer's, open while the game has no box)."""
FORM_FIELD = re.compile(rb'name="(csrf_token|version)"[^>]*value="([^"]*)"')
HX = {"HX-Request": "true"}
STAMP = re.compile(rb'data-stamp="([^"]+)"')


async def follow(evening: Evening, phone: Phone, game_id: str) -> None:
    """A phone with the sheet open: poll every :data:`POLL_SECONDS` from a random moment,
    on a fixed beat (htmx's ``every 3s``), and take the new version from a changed sheet."""
    beat = time.perf_counter() + random.uniform(0, POLL_SECONDS)
    while (beat := beat + POLL_SECONDS) < evening.ends:
        await asyncio.sleep(max(0.0, beat - time.perf_counter()))
        answer = await evening.timed(
            "poll",
            phone,
            "GET",
            f"/games/{game_id}/sheet?since={phone.version}",
            headers=HX,
            expect=(200, 204),
        )
        if answer is not None and answer[0] == 200:
            evening.changed_polls += 1
            found = VERSION.search(answer[2])
            phone.version = int(found.group(1)) if found else phone.version


async def score(evening: Evening, phone: Phone, game_id: str, players: list[str] | None = None) -> None:
    """The scorer: a box every :data:`BOX_SECONDS` from a random moment: the box form,
    the box posted as htmx posts it, and the sheet the answer's ``HX-Redirect`` names."""
    beat = time.perf_counter() + random.uniform(0, BOX_SECONDS)
    while beat < evening.ends:
        await asyncio.sleep(max(0.0, beat - time.perf_counter()))
        beat += BOX_SECONDS
        form = await evening.timed("form", phone, "GET", f"/games/{game_id}/boxes/new")
        if form is None:
            continue
        fields = dict(FORM_FIELD.findall(form[2]))
        if b"csrf_token" not in fields or b"version" not in fields:
            evening.errors["form: no token or version"] += 1
            continue
        body = urllib.parse.urlencode(
            webgames.box_form(int(fields[b"version"]), fields[b"csrf_token"].decode(), players)
        )
        saved = await evening.timed(
            "record",
            phone,
            "POST",
            f"/games/{game_id}/boxes/new",
            body.encode(),
            {**HX, "Content-Type": "application/x-www-form-urlencoded"},
        )
        if saved is None:
            continue
        target = saved[1].get("hx-redirect")
        if target is None:
            evening.errors["record: no HX-Redirect (not saved)"] += 1
            continue
        evening.recorded += 1
        sheet = await evening.timed("sheet", phone, "GET", urllib.parse.urlsplit(target).path)
        if sheet is not None:
            found = VERSION.search(sheet[2])
            phone.version = int(found.group(1)) if found else phone.version


@dataclass
class Seated:
    """A table's phones that opened the game (each with the version it saw)."""

    scorer: Phone | None
    watchers: list[Phone]


async def seat(night: Evening, port: int, table: webgames.Table, watcher_port: int) -> Seated:
    """The scorer opens the edit link; the others open the sheet. Untimed, but a phone
    that cannot open the game (no answer, say) is an error and sits the evening out."""
    phone = Phone(port)
    scorer: Phone | None = phone
    try:
        join = f"/games/{table.game_id}/join"
        status, _, page = await phone.request("GET", join)
        match = re.search(rb'name="csrf_token" value="([^"]+)"', page)
        if status != 200 or match is None:
            raise Refused(f"the join link answered {status}")
        body = urllib.parse.urlencode({"csrf_token": match.group(1).decode(), "code": table.token}).encode()
        status, headers, _ = await phone.request(
            "POST", join, body, {"Content-Type": "application/x-www-form-urlencoded"}
        )
        if status != 303:
            raise Refused(f"joining answered {status}")
        _, _, page = await phone.request("GET", urllib.parse.urlsplit(headers["location"]).path)
        phone.version = _version(page)
        for code in QR_CODE.findall(page):  # shown open on a new game: the phone fetches them
            await phone.request("GET", code.decode())
    except (OSError, Refused, asyncio.IncompleteReadError, ValueError) as err:
        night.errors[f"open: {err}" if isinstance(err, Refused) else f"open: {type(err).__name__}"] += 1
        phone.close()
        scorer = None
    watchers = []
    for _ in range(PHONES - 1):
        watcher = Phone(watcher_port)
        try:
            _, _, page = await watcher.request("GET", f"/games/{table.game_id}")
            watcher.version = _version(page)
            watchers.append(watcher)
        except (OSError, Refused, asyncio.IncompleteReadError, ValueError) as err:
            night.errors[f"open: {err}" if isinstance(err, Refused) else f"open: {type(err).__name__}"] += 1
            watcher.close()
    return Seated(scorer, watchers)


def _version(sheet: bytes) -> int:
    found = VERSION.search(sheet)
    if found is None:
        raise Refused("the sheet has no version")
    return int(found.group(1))


async def project(night: Evening, phone: Phone, event_id: str, page: bool, shown: dict[int, str]) -> None:
    """A projector on the standings, every :data:`POLL_SECONDS` from a random moment:
    the page (when the app has it; opened once for the evening, then polled as htmx
    polls it, across rounds: ``shown`` keeps the stamp each projector's page shows), or
    the event's JSON, whose tables must count every box acknowledged before the poll
    was sent."""
    beat = time.perf_counter() + random.uniform(0, POLL_SECONDS)
    stamp = shown.get(id(phone), "")
    while (beat := beat + POLL_SECONDS) < night.ends:
        await asyncio.sleep(max(0.0, beat - time.perf_counter()))
        if page:
            # As the page polls in a browser (htmx every 3 s, with the stamp it shows):
            # 204 while nothing changed, else the standings drawn for the new state.
            found = await night.timed(
                "standings_page",
                phone,
                "GET",
                f"/events/{event_id}/standings?since={stamp}",
                headers=HX if stamp else None,
                expect=(200, 204),
            )
            if found is not None and found[0] == 200:
                drawn = STAMP.search(found[2])
                stamp = shown[id(phone)] = drawn.group(1).decode() if drawn else ""
            continue
        acknowledged = night.recorded
        answer = await night.timed("standings", phone, "GET", f"/api/v1/events/{event_id}")
        if answer is not None:
            counted = sum(t["boxes"] for t in json.loads(answer[2])["tables"])
            if counted < acknowledged:
                night.stale_standings += 1


async def _tables_now(phone: Phone, event_id: str, secret: str) -> list[tuple[webgames.Table, list[str]]]:
    """The current round's tables, each with its edit code (made from the servers'
    secret, as the table card's QR code carries it) and its players in seat order."""
    status, _, body = await phone.request("GET", f"/api/v1/events/{event_id}")
    if status != 200:
        raise Refused(f"the event answered {status}")
    return [
        (webgames.Table(t["game"], make_codes(secret.encode(), t["game"], 1).edit), t["players"])
        for t in json.loads(body)["tables"]
    ]


async def evening(
    ports: list[int], event: Event, seconds: float, servers: list[subprocess.Popen[bytes]]
) -> dict[str, Any]:
    """The event's rounds: seat every table's phones (the scorer on one instance, the two
    others on the next) and the projectors, run the round, then the director closes it
    and seats the next; sum it up."""
    night = Evening(0.0, 0.0)
    opening = asyncio.Semaphore(20)
    director = Phone(ports[0])
    projectors = [Phone(ports[n % len(ports)]) for n in range(2 * PROJECTORS)]
    status, _, _ = await director.request("GET", f"/events/{event.id}/standings")
    page = status == 200
    cpu_before, client_before, sent_before = server_cpu(servers), time.process_time(), Phone.sent
    # The phones' own process settles as a server does: what it built so far (the
    # event, the imports) is left out of its collector's full collections, and those
    # come ten times less often; their pauses (50-70 ms) every request in flight would
    # otherwise count as the server's.
    settle()
    night.started = time.perf_counter()
    rounds_cpu, rounds_sent = 0.0, 0
    shown: dict[int, str] = {}  # each projector's page stays open from round to round
    for number in range(1, ROUNDS + 1):
        tables = await _tables_now(director, event.id, event.secret)

        async def seated(n: int, table: webgames.Table) -> Seated:
            async with opening:
                return await seat(night, ports[n % len(ports)], table, ports[(n + 1) % len(ports)])

        phones = await asyncio.gather(*(seated(n, t) for n, (t, _) in enumerate(tables)))
        night.recorded = 0
        night.ends = time.perf_counter() + seconds / ROUNDS
        work = [
            project(night, p, event.id, page and n < PROJECTORS, shown)
            for n, p in enumerate(projectors)
            if page or n < PROJECTORS
        ]
        for (table, players), at in zip(tables, phones, strict=True):
            if at.scorer is not None:
                work.append(score(night, at.scorer, table.game_id, players))
            work += [
                follow(night, phone, table.game_id)
                for phone in (at.scorer, *at.watchers)
                if phone is not None
            ]
        playing_cpu, playing_sent = server_cpu(servers), Phone.sent
        await asyncio.gather(*work)
        rounds_cpu += server_cpu(servers) - playing_cpu
        rounds_sent += Phone.sent - playing_sent
        for at in phones:
            for phone in (at.scorer, *at.watchers):
                if phone is not None:
                    phone.close()
        if number < ROUNDS:
            auth = {"Authorization": f"Bearer {event.director}", "Content-Type": "application/json"}
            await night.timed(
                "close",
                director,
                "POST",
                f"/api/v1/events/{event.id}/rounds/{number}/close",
                b'{"force": true}',
                auth,
            )
            await night.timed(
                "seat", director, "POST", f"/api/v1/events/{event.id}/rounds", b"", auth, expect=(201,)
            )
    elapsed = time.perf_counter() - night.started
    cpu = server_cpu(servers) - cpu_before
    client = time.process_time() - client_before
    for phone in (director, *projectors):
        phone.close()
    if TRACE is not None:
        TRACE.write_text(json.dumps(night.trace), encoding="utf-8")
    result = summary(night, event.tables, elapsed, cpu, client)
    # Every request of the evening: its timed ones are fewer (not the warm-up's, nor the
    # phones opening their games at each round, 5 requests a table, a sheet among them).
    sent = Phone.sent - sent_before
    result["requests_sent"] = sent
    result["server_cpu_ms_per_request_sent"] = round(1000 * cpu / max(sent, 1), 2)
    # While the rounds play (the phones seated, before the director closes): the
    # evening's mix alone, as an evening of hours has it between its seatings.
    result["server_cpu_ms_per_request_playing"] = round(1000 * rounds_cpu / max(rounds_sent, 1), 2)
    result["requests_playing"] = rounds_sent
    return result


@dataclass(frozen=True)
class Event:
    """The benchmark's event: its id, the director's code, the servers' secret."""

    id: str
    director: str
    secret: str
    tables: int


def start_event(db: Session, tables: int, secret: str) -> Event:
    """An event of ``tables`` tables of Jersey Gin (three players each), started through
    the ledger as the director's form starts it (round 1 seated, every game created);
    the games' target is out of reach, so no table ends its game in the evening."""
    entry = EventEntry(
        name="Club evening",
        entrants=tuple(f"Player {n:03}" for n in range(1, 3 * tables + 1)),
        rounds=ROUNDS,
        settings={"game_target": 100000},
        seed=25,
    )
    started = events.start_event(db, entry, secret=secret.encode())
    assert started.codes is not None
    return Event(started.event.id, started.codes.director, secret, tables)


def _percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(math.ceil(fraction * len(ordered)) - 1, 0)] if ordered else float("nan")


def summary(night: Evening, tables: int, elapsed: float, cpu: float, client: float) -> dict[str, Any]:
    """Percentiles by kind, errors, CPU, and whether the targets were met."""
    kinds: dict[str, Any] = {}
    for kind in KINDS:
        times = sorted(night.latencies.get(kind, []))
        kinds[kind] = {
            "requests": len(times),
            **{f"p{p}_ms": round(_percentile(times, p / 100), 1) for p in (50, 95, 99)},
            "max_ms": round(times[-1], 1) if times else None,
        }
    requests = sum(k["requests"] for k in kinds.values())
    errors = sum(night.errors.values())
    return {
        "tables": tables,
        "phones": tables * PHONES,
        "seconds": round(elapsed, 1),
        "requests_per_second": round(requests / max(elapsed - WARM_UP_SECONDS, 1), 1),
        "changed_polls": night.changed_polls,
        **kinds,
        "errors": errors,
        "stale_standings": night.stale_standings,
        "error_kinds": dict(night.errors),
        "server_cpu_percent": round(100 * cpu / elapsed, 1),
        "server_cpu_ms_per_request": round(1000 * cpu / max(requests, 1), 2),
        "client_cpu_percent": round(100 * client / elapsed, 1),
        "met": (
            kinds["poll"]["p95_ms"] <= POLL_P95_MS
            and errors == 0
            and kinds["record"]["p95_ms"] <= RECORD_P95_MS
            and night.stale_standings == 0
            and all(
                kinds[k]["p95_ms"] <= STANDINGS_P95_MS
                for k in ("standings", "standings_page")
                if kinds[k]["requests"]
            )
        ),
    }


# --- the server ----------------------------------------------------------------------------


def server_cpu(servers: list[subprocess.Popen[bytes]]) -> float:
    """User + system CPU seconds of the server processes and their children (/proc)."""
    pids = {str(server.pid) for server in servers}
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name in pids or fields[1] in pids:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def serve_command(port: int) -> list[str]:
    """``scorekeeper serve`` as an operator starts it."""
    return [sys.executable, "-m", "scorekeeper", "serve", "--host", HOST, "--port", str(port)]


def gunicorn_command(port: int, workers: int) -> list[str]:
    """gunicorn as docs/deploy.md and the Dockerfile run it (``workers`` processes of
    four threads); its connections kept 10 s idle, as the proxy in front of it keeps
    its own to gunicorn open (``keepalive`` in deploy/nginx.conf) while phones poll."""
    return [
        *(sys.executable, "-m", "gunicorn", "--bind", f"{HOST}:{port}"),
        *("--workers", str(workers), "--worker-class", "gthread", "--threads", "4"),
        *("--keep-alive", "10", "--graceful-timeout", "30"),
        *("--config", "python:scorekeeper.gunicorn_conf", "scorekeeper.web:create_app()"),
    ]


@contextlib.contextmanager
def instances(
    url: str, count: int, folder: Path, secret: str | None = None, gunicorn: int = 0
) -> Iterator[tuple[list[int], list[subprocess.Popen[bytes]]]]:
    """``count`` servers on ``url`` with one secret, each with its own instance folder
    and log (``gunicorn``: each one gunicorn of that many workers, else ``scorekeeper
    serve``); stopped (SIGTERM) at the end."""
    secret = secret or secrets.token_hex(32)
    ports, servers = [], []
    try:
        for number in range(count):
            port = free_port()
            # Every phone of the benchmark comes from 127.0.0.1: no cap on one address's
            # connections (a club's 300 phones have their own addresses on its network).
            env = {
                **os.environ,
                "DATABASE_URL": url,
                "SCOREKEEPER_DATABASE_URL": url,
                "SCOREKEEPER_SECRET_KEY": secret,
                "SCOREKEEPER_WAITRESS_CONNECTIONS_PER_ADDRESS": "0",
                # One director seats every table of the ramp's largest events from here.
                "SCOREKEEPER_START_LIMIT": "10000 per minute",
                # A room of more than 1,000 phones (the default cap: 333 tables) raises the
                # cap, as docs/deploy.md tells such a club to: at 400 tables the phones
                # past it waited for a free connection and timed out, the server idle.
                "SCOREKEEPER_WAITRESS_CONNECTION_LIMIT": os.environ.get(
                    "SCOREKEEPER_WAITRESS_CONNECTION_LIMIT", "2000"
                ),
            }
            with (folder / f"server-{number}.log").open("wb") as log:
                servers.append(
                    subprocess.Popen(
                        gunicorn_command(port, gunicorn) if gunicorn else serve_command(port),
                        cwd=PROJECT,
                        env=env,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
            ports.append(port)
        for port, server in zip(ports, servers, strict=True):
            _wait_until_up(port, server)
        yield ports, servers
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _wait_until_up(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {server.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=1) as probe:
                probe.sendall(b"GET /health HTTP/1.0\r\n\r\n")
                if b" 200 " in probe.recv(64):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server on port {port} did not answer /health within 60 s")


@contextlib.contextmanager
def postgres_cluster(folder: Path) -> Iterator[str]:
    """A throw-away PostgreSQL cluster on a free loopback port (Debian's binaries, run as
    ``nobody`` when we are root, since PostgreSQL refuses root): its database URL."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL server binaries not installed (apt-get install postgresql)")
    binaries, data, port = found[-1].parent, folder / "pg", free_port()
    run_as = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
    if run_as:
        os.chown(folder, 65534, 65534)
        os.chmod(folder.parent, 0o711)  # nobody must pass through the private temp folder
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    subprocess.run(
        [
            *run_as,
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            "scorekeeper",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-instructions",
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=120,
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses={HOST} -c max_connections=200 "
        "-c shared_buffers=64MB -c fsync=on"
    )
    subprocess.run(
        [
            *run_as,
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(folder / "pg.log"),
            "-w",
            "-t",
            "60",
            "start",
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=90,
    )
    try:
        yield f"postgresql+psycopg://scorekeeper@{HOST}:{port}/postgres"
    finally:
        subprocess.run(
            [*run_as, str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )


# --- runs ----------------------------------------------------------------------------------


def run_evening(
    tables: int, seconds: float, count: int = 1, postgres: bool = False, gunicorn: int = 0
) -> dict[str, Any]:
    """One evening of ``tables`` tables on ``count`` server processes (``gunicorn``: one
    gunicorn of that many workers)."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-club-") as tmp:
        folder = Path(tmp)
        with contextlib.ExitStack() as stack:
            if postgres:
                pg = folder / "postgres"
                pg.mkdir()
                url = stack.enter_context(postgres_cluster(pg))
            else:
                url = f"sqlite:///{folder / 'club.sqlite3'}"
            secret = secrets.token_hex(32)
            with webgames.database(url) as db:
                event = start_event(db, tables, secret)
            ports, servers = stack.enter_context(
                instances(url, 1 if gunicorn else count, folder, secret, gunicorn)
            )
            load = _load_average()
            result = asyncio.run(evening(ports, event, seconds, servers))
            result["load_average"] = f"{load} -> {_load_average()}"
            result["instances"] = gunicorn or count
            result["server"] = "gunicorn" if gunicorn else "scorekeeper serve"
            result["database"] = "postgresql" if postgres else "sqlite"
            logs = [
                _trouble((folder / f"server-{n}.log").read_text(errors="replace"))
                for n in range(len(servers))
            ]
            if result["errors"]:
                result["server_log_tail"] = logs
            return result
    raise AssertionError("unreachable")


def _trouble(log: str) -> str:
    """What of a server's log explains errors: 5xx answers and exceptions (the last 30
    such lines), else its tail."""
    lines = [
        line
        for line in log.splitlines()
        if '" 5' in line or "Error" in line or "Traceback" in line or "File " in line
    ]
    return "\n".join(lines[-30:]) if lines else log[-1500:]


def run(
    lengths: tuple[float, ...] = LENGTHS, ramp: tuple[int, ...] = RAMP, postgres: bool = True
) -> dict[str, Any]:
    """Issue 34's figures: at each evening's length, the ramp on one process (SQLite), and
    :data:`BEYOND` tables too where the ramp's last count met the targets; then
    :data:`TIMES` the tables one process held (of the ramp's first count where none
    met) on one gunicorn of two workers on PostgreSQL."""
    runs: list[dict[str, Any]] = []

    def evening_of(minutes: float, tables: int, **server: Any) -> dict[str, Any]:
        step = run_evening(tables, minutes * 60 + WARM_UP_SECONDS, **server)
        step["minutes"] = minutes
        _say(f"{minutes:g} min, {tables} tables, {step['server']} on {step['database']}", step)
        runs.append(step)
        return step

    held: dict[str, int] = {}
    two: dict[str, int] = {}
    for minutes in lengths:
        steps = [evening_of(minutes, tables) for tables in ramp]
        if steps and steps[-1]["met"] and ramp[-1] < BEYOND:
            steps.append(evening_of(minutes, BEYOND))
        held[f"{minutes:g}"] = max((step["tables"] for step in steps if step["met"]), default=0)
    if postgres and (shutil.which("runuser") is not None or os.geteuid() != 0):
        for minutes in lengths:
            tables = math.ceil(TIMES * (held[f"{minutes:g}"] or ramp[0]))
            try:
                step = evening_of(minutes, tables, postgres=True, gunicorn=2)
            except RuntimeError as err:
                runs.append({"skipped": str(err), "minutes": minutes})
                continue
            two[f"{minutes:g}"] = tables if step["met"] else 0
    return {
        "lengths": list(lengths),
        "ramp": list(ramp),
        "runs": runs,
        "tables_one_process_holds": held,
        "tables_two_workers_hold": two,
    }


def _rows(label: str, runs: list[dict[str, Any]]) -> list[list[Any]]:
    """The table rows of club evenings (each :func:`run_evening`'s result)."""

    def figures(kind: dict[str, Any] | None) -> str:
        return (
            f"{kind['p50_ms']} / {kind['p95_ms']} / {kind['p99_ms']}"
            if kind and kind.get("requests")
            else "–"
        )

    rows = []
    for run in runs:
        if "poll" not in run:
            continue  # a run that could not start (no PostgreSQL here): said below the table
        if run.get("server") == "gunicorn":
            name = f"gunicorn of {run['instances']} workers, PostgreSQL"
        else:
            name = (
                run.get("run")
                or f"one process, {'PostgreSQL' if run['database'] == 'postgresql' else 'SQLite'}"
            )
        playing = run.get("server_cpu_ms_per_request_playing")
        rows.append(
            [
                label,
                f"{run.get('minutes', 1):g} min",
                name,
                run["tables"],
                figures(run["poll"]),
                figures(run["record"]),
                figures(run.get("standings")),
                figures(run.get("standings_page")),
                run.get("stale_standings", "–"),
                run["errors"],
                run["server_cpu_percent"],
                f"{run['server_cpu_ms_per_request']} / {playing if playing is not None else '–'}",
                run.get("load_average", "?"),
                "yes" if run["met"] else "**no**",
            ]
        )
    return rows


def section(result: dict[str, Any], before: dict[str, Any] | None) -> list[str]:
    """The docs/performance.md section of :func:`run`'s result (and the code before)."""
    lengths = " and ".join(f"{minutes:g}-minute" for minutes in result["lengths"])
    lines = [
        "## The club evening (the target)",
        "",
        f"`python -m benchmarks.club` (issue 34), {lengths} evenings of a club: "
        f"{', '.join(map(str, result['ramp']))} tables on one `scorekeeper serve` process with SQLite "
        f"(and {BEYOND} where {result['ramp'][-1]} met the targets), then {TIMES:g} times the "
        "tables one process held on one gunicorn of two workers with PostgreSQL as "
        "docs/deploy.md runs it. Each table has "
        f"{PHONES} phones polling the sheet every {POLL_SECONDS:g} s (the 204 while nothing "
        f"changed, the new sheet after a box) and a box every {BOX_SECONDS:g} s from the box "
        "form (the form, the POST, the sheet it leads to), every phone on its own keep-alive "
        f"connection, in {ROUNDS} rounds of an event (the director closes the first by force "
        f"and seats the next; {PROJECTORS} projectors poll the event's JSON and "
        f"{PROJECTORS} its standings page every {POLL_SECONDS:g} s), the phones on the same "
        "two cores as the server. Latencies in ms (p50 / p95 / p99); *server CPU* is the "
        "server processes' CPU time over the run's wall time (100 % = one core), and the "
        "CPU a request is the evening's (the opening of every table and the director's "
        "close and seat in it) / while the rounds play. "
        f"Targets: poll p95 ≤ {POLL_P95_MS:g} ms, recording a box p95 ≤ {RECORD_P95_MS:g} ms, "
        f"standings p95 ≤ {STANDINGS_P95_MS:g} ms (the JSON and the page), no stale "
        "standings (a projector's JSON missing a box acknowledged before it asked), no errors.",
        "",
    ]
    rows = _rows("now", result["runs"])
    if before:
        rows = _rows(f"before ({before['code']})", [{**before["one_process"], "run": before["run"]}]) + rows
    lines += markdown_table(
        [
            "code",
            "evening",
            "run",
            "tables",
            "poll",
            "record",
            "standings (JSON)",
            "standings (page)",
            "stale standings",
            "errors",
            "server CPU %",
            "CPU a request (ms)",
            "load",
            "met",
        ],
        rows,
    )
    held = result["tables_one_process_holds"]
    said = ", ".join(
        f"**{tables} tables** in the {minutes}-minute evening" for minutes, tables in held.items()
    )
    most = f"; {BEYOND}, the most it tries, is a floor" if BEYOND in held.values() else ""
    lines += [f"One process held {said} (the largest table count of the ramp that met the targets{most})."]
    pg = [run for run in result["runs"] if run.get("server") == "gunicorn"]
    if pg:
        lines += [
            f"Two gunicorn workers on PostgreSQL, asked by issue 34 to hold {TIMES:g} times what "
            "one process holds: "
            + ", ".join(
                f"{run['tables']} tables {'met' if run['met'] else '**not met**'} in the "
                f"{run['minutes']:g}-minute evening"
                for run in pg
            )
            + "."
        ]
    lines += [f"Not run: {run['skipped']}" for run in result["runs"] if "skipped" in run]
    lines.append("")
    if before and before.get("notes"):
        lines += [before["notes"], ""]
    return lines


def _load_average() -> str:
    """The machine's 1-minute load average (other agents share its two cores)."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def _say(label: str, result: dict[str, Any]) -> None:
    kinds = " ".join(f"{kind} p95 {result[kind]['p95_ms']}" for kind in ("poll", "record"))
    sys.stderr.write(
        f"club, {label}: {kinds} ms, errors {result['errors']}, server CPU {result['server_cpu_percent']}%\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--minutes",
        type=float,
        help=f"with --tables: the evening's length ({MINUTES:g}); else the ramp's only length",
    )
    parser.add_argument("--tables", type=int, help="only one evening of this many tables")
    parser.add_argument("--instances", type=int, default=1)
    parser.add_argument("--postgres", action="store_true", help="with --tables: on PostgreSQL")
    parser.add_argument(
        "--gunicorn", action="store_true", help="with --tables: one gunicorn of --instances workers"
    )
    parser.add_argument(
        "--ramp", default=",".join(map(str, RAMP)), help="the tables of the ramp on one process"
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="niceness of the benchmark and its servers (-10, as root: other "
        "work on a shared machine disturbs the figures less)",
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="put the ramp and two workers on PostgreSQL into docs/performance.md's club section",
    )
    parser.add_argument(
        "--note", default="", help="with --write: a paragraph after the table (the conditions of the run)"
    )
    parser.add_argument("--trace", type=Path, help="write every timed request of the evening here (JSON)")
    args = parser.parse_args()
    global TRACE
    TRACE = args.trace
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)  # the servers inherit it
    if args.tables:
        result = run_evening(
            args.tables,
            (args.minutes or MINUTES) * 60 + WARM_UP_SECONDS,
            args.instances,
            args.postgres,
            args.instances if args.gunicorn else 0,
        )
    else:
        ramp = tuple(int(n) for n in args.ramp.split(",") if n.strip())
        result = run((args.minutes,) if args.minutes else LENGTHS, ramp)
    result["nice"] = args.nice
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    if args.write and not args.tables:
        before = json.loads(BEFORE.read_text(encoding="utf-8")) if BEFORE.exists() else None
        lines = section(result, before) + ([args.note, ""] if args.note else [])
        write_section(DOC, "## The club evening (the target)", "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
