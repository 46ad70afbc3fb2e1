"""Benchmark: the server CPU of each kind of request of a club evening, in process (issue 34).

``benchmarks.club`` measures the evening through the real server, on the same two
cores as its load generator and every other process of the machine: its *CPU per
request* is the server's CPU over the requests it timed. This replays the same evening
through the WSGI app itself, with no server, socket or sleep, and takes the process's
CPU time (``time.process_time``) around each call: what each kind of request costs the
app, and the evening's average over its mix, whatever else the machine runs.

The evening is that of ``benchmarks.club``: an event of ``--tables`` tables of Jersey
Gin (three players each, the event's round 1 seated), three phones at each table
polling the sheet every 3 s (the 204 while nothing changed, the sheet after a box), one
box a table every 120 s from the box form (the form, the POST, the sheet its
``HX-Redirect`` leads to, as a full page), five projectors polling the event's JSON and
five its standings page every 3 s, and the director's page opened every 30 s. Every
phone starts at a random moment; the requests are replayed in the order of the
evening's clock (``--seconds`` of it), each phone with its own session cookie, each
request's environ built before its timer starts. Opening the game (the join link, its
POST, the first sheet) is counted apart from the mix, and so are the scorer's two QR
codes (images of their own, which Chromium asks for at once on a new game's sheet at
390x844) and a warm-up table played before the clock starts (templates compiled, first
reads).

Kinds: ``poll`` (a sheet's poll that finds nothing new: 204), ``poll_changed`` (the
sheet after another phone's box), ``form`` (the box form), ``record`` (the box's POST),
``sheet`` (the page after the POST), ``standings`` (the event's JSON),
``standings_page`` (the page drawn for a new state), ``standings_poll`` (its 204),
``director`` (the director's page).

``python -m benchmarks.request_mix --tables 300`` (``--profile KIND``: a ``cProfile``
of that kind's requests, top functions by cumulative time; ``--postgres``: on a
throw-away PostgreSQL cluster instead of SQLite).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gzip
import heapq
import http.client
import io
import json
import os
import pstats
import random
import re
import sys
import tempfile
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.test import EnvironBuilder

from scorekeeper.ledger import make_codes
from scorekeeper.web import create_app

from . import webgames
from .club import BOX_SECONDS, POLL_SECONDS, PROJECTORS, QR_CODE, instances, postgres_cluster, start_event

DIRECTOR_SECONDS = 30.0
"""How often the director opens the director's page."""
KINDS = (
    "poll",
    "poll_changed",
    "form",
    "record",
    "sheet",
    "standings",
    "standings_page",
    "standings_poll",
    "director",
)
"""The evening's mix, in the order the report gives them."""
SECRET = "request-mix-secret-" + "k" * 40
HX = {"HX-Request": "true"}
VERSION = re.compile(rb'data-version="(\d+)"')
FORM_FIELD = re.compile(rb'name="(csrf_token|version)"[^>]*value="([^"]*)"')
STAMP = re.compile(rb'data-stamp="([^"]+)"')
JOIN_TOKEN = re.compile(rb'name="csrf_token" value="([^"]+)"')


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass
class Phone:
    """A browser: its session cookie, kept from the answers' ``Set-Cookie`` (and, with
    ``--served``, its keep-alive connection to the server)."""

    cookie: str = ""
    connection: http.client.HTTPConnection | None = None


@dataclass
class Mix:
    """CPU (seconds) and count by kind, and the profiler of one kind if asked."""

    app: Flask | None
    cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    count: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    profiled: str = ""
    profiles: list[cProfile.Profile] = field(default_factory=list)
    """One profile of each request of the ``profiled`` kind."""
    counting: bool = True
    last: str = ""
    """The kind the last request was counted under ("" if not counted)."""

    def call(
        self,
        kind: str,
        phone: Phone,
        method: str,
        path: str,
        data: str | None = None,
        headers: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
        classify: Callable[[int], str] | None = None,
    ) -> Answer:
        """One request through the WSGI app, its CPU counted under ``kind`` (or what
        ``classify`` makes of its status)."""
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        if phone.cookie:
            sent["Cookie"] = phone.cookie
        if data is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        profiler = cProfile.Profile() if self.profiled and self.counting else None
        status, pairs, raw, spent = self.exchange(phone, method, path, data, sent, profiler)
        if classify is not None:
            kind = classify(status)
        if profiler is not None and kind == self.profiled:
            self.profiles.append(profiler)
        if self.counting:
            self.cpu[kind] += spent
            self.count[kind] += 1
        self.last = kind if self.counting else ""
        found: dict[str, str] = {}
        for name, value in pairs:
            found[name.lower()] = value
            if name.lower() == "set-cookie" and value.startswith("session="):
                phone.cookie = value.split(";", 1)[0]
        if found.get("content-encoding") == "gzip":
            raw = gzip.decompress(raw)
        if status not in expect:
            raise RuntimeError(f"{kind} {method} {path}: {status} {raw[:300]!r}")
        return Answer(status, found, raw)

    def exchange(
        self,
        phone: Phone,
        method: str,
        path: str,
        data: str | None,
        sent: dict[str, str],
        profiler: cProfile.Profile | None,
    ) -> tuple[int, list[tuple[str, str]], bytes, float]:
        """The request through the WSGI app in this process, its environ built before
        the timer starts: status, headers, body and the CPU seconds it took."""
        url = urllib.parse.urlsplit(path)
        environ = EnvironBuilder(
            path=url.path,
            query_string=url.query,
            method=method,
            headers=list(sent.items()),
            data=data,
            base_url="http://127.0.0.1:5000",
        ).get_environ()
        got: list[Any] = []

        def start_response(status: str, response_headers: list[tuple[str, str]], exc: Any = None) -> None:
            got.append((int(status.split(" ", 1)[0]), response_headers))

        assert self.app is not None
        if profiler is not None:
            profiler.enable()
        started = time.process_time()
        body = self.app.wsgi_app(environ, start_response)  # type: ignore[arg-type]
        try:
            raw = b"".join(body)
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        spent = time.process_time() - started
        if profiler is not None:
            profiler.disable()
        status, pairs = got[0]
        return status, pairs, raw, spent


@dataclass
class Served(Mix):
    """The same requests through a ``scorekeeper serve`` process (waitress, its access
    log, one keep-alive connection a phone), one at a time: each request's CPU is the
    server's (every thread's, from /proc's ``schedstat``, in nanoseconds) from the
    moment it is sent to the moment the next one is, so whatever the server does after
    answering (the access log line, closing the app's iterator) counts for it."""

    port: int = 0
    pid: int = 0
    sent_at: float | None = None
    """The server's CPU when the last request was sent."""

    def server_cpu(self) -> float:
        total = 0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, IndexError, ValueError):
                continue  # a thread that ended meanwhile
        return total / 1e9

    def settle(self) -> float:
        """Count the last request's CPU up to now (before the counts are read): the
        server's CPU now."""
        now = self.server_cpu()
        if self.sent_at is not None and self.last:
            self.cpu[self.last] += now - self.sent_at
        self.sent_at = None
        return now

    def exchange(
        self,
        phone: Phone,
        method: str,
        path: str,
        data: str | None,
        sent: dict[str, str],
        profiler: cProfile.Profile | None,
    ) -> tuple[int, list[tuple[str, str]], bytes, float]:
        if phone.connection is None:
            phone.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        body = None if data is None else data.encode()
        self.sent_at = self.settle()
        phone.connection.request(method, path, body=body, headers=sent)
        response = phone.connection.getresponse()
        raw = response.read()
        if response.will_close:
            phone.connection.close()
            phone.connection = None
        return response.status, list(response.getheaders()), raw, 0.0


@dataclass
class Table:
    game_id: str
    code: str
    players: list[str]
    scorer: Phone = field(default_factory=Phone)
    watchers: list[Phone] = field(default_factory=lambda: [Phone(), Phone()])
    versions: dict[int, int] = field(default_factory=dict)
    """The version each phone (by ``id``) last saw."""


def _open(mix: Mix, table: Table) -> None:
    """The scorer joins with the edit code and opens the sheet; the others open it."""
    join = f"/games/{table.game_id}/join"
    page = mix.call("open", table.scorer, "GET", join)
    token = JOIN_TOKEN.search(page.body)
    assert token is not None
    data = urllib.parse.urlencode({"csrf_token": token.group(1).decode(), "code": table.code})
    answer = mix.call("open", table.scorer, "POST", join, data, expect=(303,))
    sheet = mix.call("open", table.scorer, "GET", urllib.parse.urlsplit(answer.headers["location"]).path)
    table.versions[id(table.scorer)] = _version(sheet.body)
    for image in QR_CODE.findall(sheet.body):  # as Chromium asks at once for a new game's (issue 34)
        mix.call("qr", table.scorer, "GET", image.decode())
    for phone in table.watchers:
        table.versions[id(phone)] = _version(mix.call("open", phone, "GET", f"/games/{table.game_id}").body)


def _version(body: bytes) -> int:
    found = VERSION.search(body)
    if found is None:
        raise RuntimeError("the sheet has no version")
    return int(found.group(1))


def _poll(mix: Mix, table: Table, phone: Phone) -> None:
    version = table.versions[id(phone)]
    answer = mix.call(
        "poll",
        phone,
        "GET",
        f"/games/{table.game_id}/sheet?since={version}",
        headers=HX,
        expect=(200, 204),
        classify=lambda status: "poll" if status == 204 else "poll_changed",
    )
    if answer.status == 200:
        table.versions[id(phone)] = _version(answer.body)


def _box(mix: Mix, table: Table) -> None:
    """The scorer's box: the form, the POST as htmx sends it, the sheet it leads to."""
    form = mix.call("form", table.scorer, "GET", f"/games/{table.game_id}/boxes/new")
    fields = dict(FORM_FIELD.findall(form.body))
    data = urllib.parse.urlencode(
        webgames.box_form(int(fields[b"version"]), fields[b"csrf_token"].decode(), table.players)
    )
    saved = mix.call("record", table.scorer, "POST", f"/games/{table.game_id}/boxes/new", data, HX)
    target = saved.headers.get("hx-redirect")
    if target is None:
        raise RuntimeError(f"the box was not saved: {saved.body[:300]!r}")
    sheet = mix.call("sheet", table.scorer, "GET", urllib.parse.urlsplit(target).path)
    # a new page, as htmx's HX-Redirect loads it: the scorer's polls ask since its version
    table.versions[id(table.scorer)] = _version(sheet.body)


@dataclass
class Projector:
    phone: Phone = field(default_factory=Phone)
    stamp: str = ""


def _standings_page(mix: Mix, event_id: str, projector: Projector) -> None:
    answer = mix.call(
        "standings_page",
        projector.phone,
        "GET",
        f"/events/{event_id}/standings?since={projector.stamp}",
        headers=HX if projector.stamp else None,
        expect=(200, 204),
        classify=lambda status: "standings_page" if status == 200 else "standings_poll",
    )
    if answer.status == 200:
        shown = STAMP.search(answer.body)
        projector.stamp = shown.group(1).decode() if shown else ""


def _director_joins(mix: Mix, event_id: str, code: str) -> Phone:
    phone = Phone()
    page = mix.call("open", phone, "GET", f"/events/{event_id}/director", expect=(403,))
    token = JOIN_TOKEN.search(page.body) or re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page.body)
    assert token is not None
    data = urllib.parse.urlencode({"csrf_token": token.group(1).decode(), "code": code})
    mix.call("open", phone, "POST", f"/events/{event_id}/director/join", data, expect=(303,))
    return phone


def run(
    tables: int = 300,
    seconds: float = 120.0,
    seed: int = 34,
    profile: str = "",
    callees: str = "",
    served: bool = False,
    postgres: bool = False,
) -> dict[str, Any]:
    """The evening replayed; CPU per request by kind, and the mix's average
    (``served``: through a ``scorekeeper serve`` process, its CPU; ``postgres``: on a
    throw-away PostgreSQL cluster, whose own CPU is not counted)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-mix-") as tmp, contextlib.ExitStack() as stack:
        if postgres:
            (Path(tmp) / "postgres").mkdir()
            url = stack.enter_context(postgres_cluster(Path(tmp) / "postgres"))
        else:
            url = f"sqlite:///{Path(tmp) / 'mix.sqlite3'}"
        with webgames.database(url) as db:
            event = start_event(db, tables, SECRET)
        mix: Mix
        if served:
            ports, servers = stack.enter_context(instances(url, 1, Path(tmp), SECRET))
            mix = Served(None, port=ports[0], pid=servers[0].pid)
        else:
            # each request's own CPU: no thread reading the standings ahead (web/ahead.py)
            app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET, "READ_AHEAD_SECONDS": 0})
            mix = Mix(app, profiled=profile)
        clock = mix.server_cpu if isinstance(mix, Served) else time.process_time
        listed = json.loads(mix.call("open", Phone(), "GET", f"/api/v1/events/{event.id}").body)
        seated = [
            Table(t["game"], make_codes(SECRET.encode(), t["game"], 1).edit, t["players"])
            for t in listed["tables"]
        ]
        started = clock()
        for table in seated:
            _open(mix, table)
        if isinstance(mix, Served):
            mix.settle()
        opening = clock() - started
        director = _director_joins(mix, event.id, event.director)
        projectors = [Projector() for _ in range(PROJECTORS)]
        # Warm-up, not counted: one table's box and everything that follows it.
        mix.counting = False
        warm = seated[0]
        _box(mix, warm)
        for phone in (warm.scorer, *warm.watchers):
            _poll(mix, warm, phone)
        mix.call("standings", Phone(), "GET", f"/api/v1/events/{event.id}")
        _standings_page(mix, event.id, Projector())
        mix.call("director", director, "GET", f"/events/{event.id}/director")
        mix.counting = True
        # The evening's clock: (when, order, what to do), replayed in time order.
        beats: list[tuple[float, int, Callable[[], object], float]] = []
        order = 0

        def every(period: float, action: Callable[[], object]) -> None:
            nonlocal order
            order += 1
            heapq.heappush(beats, (rng.uniform(0, period), order, action, period))

        for table in seated:
            every(BOX_SECONDS, lambda table=table: _box(mix, table))  # type: ignore[misc]
            for phone in (table.scorer, *table.watchers):
                every(POLL_SECONDS, lambda table=table, phone=phone: _poll(mix, table, phone))  # type: ignore[misc]
        for projector in projectors:
            every(POLL_SECONDS, lambda projector=projector: _standings_page(mix, event.id, projector))  # type: ignore[misc]
            every(
                POLL_SECONDS,
                lambda: mix.call("standings", Phone(), "GET", f"/api/v1/events/{event.id}"),
            )
        every(DIRECTOR_SECONDS, lambda: mix.call("director", director, "GET", f"/events/{event.id}/director"))
        while beats and beats[0][0] < seconds:
            when, number, action, period = heapq.heappop(beats)
            action()
            heapq.heappush(beats, (when + period, number, action, period))
        if isinstance(mix, Served):
            mix.settle()
    requests = sum(mix.count[k] for k in KINDS)
    total = sum(mix.cpu[k] for k in KINDS)
    result: dict[str, Any] = {
        "tables": tables,
        "seconds": seconds,
        "through": "scorekeeper serve (waitress, access log)" if served else "the WSGI app, in process",
        "kinds": {
            kind: {
                "requests": mix.count[kind],
                "cpu_ms": round(1000 * mix.cpu[kind] / mix.count[kind], 3) if mix.count[kind] else None,
                "share_of_cpu": round(mix.cpu[kind] / total, 3) if total else None,
            }
            for kind in KINDS
        },
        "mix_cpu_ms": round(1000 * total / max(requests, 1), 3),
        "requests": requests,
        "opening_cpu_ms_per_table": round(1000 * (opening - mix.cpu["qr"]) / tables, 2),
        "qr_cpu_ms_per_table": round(1000 * mix.cpu["qr"] / tables, 2),
        "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
    }
    if mix.profiles:
        out = io.StringIO()
        stats = pstats.Stats(*mix.profiles, stream=out).sort_stats("cumulative")
        stats.print_stats(45)
        if callees:
            stats.print_callees(callees)
        result["profile"] = out.getvalue()
    return result


def report(result: dict[str, Any]) -> str:
    lines = [
        f"{result['tables']} tables, {result['seconds']:g} s of the evening through {result['through']}, "
        f"{result['requests']} requests, load average {result['load']} ({os.cpu_count()} cores)",
        f"{'kind':<16}{'requests':>9}{'CPU ms':>9}{'CPU share':>10}",
    ]
    for kind, row in result["kinds"].items():
        cpu = "–" if row["cpu_ms"] is None else f"{row['cpu_ms']:.3f}"
        share = "–" if row["share_of_cpu"] is None else f"{100 * row['share_of_cpu']:.1f} %"
        lines.append(f"{kind:<16}{row['requests']:>9}{cpu:>9}{share:>10}")
    lines.append(f"{'the mix':<16}{result['requests']:>9}{result['mix_cpu_ms']:>9.3f}")
    lines.append(f"opening a table (join, its POST, three sheets): {result['opening_cpu_ms_per_table']} ms")
    lines.append(f"its scorer's two QR codes, asked for apart: {result['qr_cpu_ms_per_table']} ms")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=120.0, help="of the evening's clock")
    parser.add_argument(
        "--profile", default="", choices=("", *KINDS, "open", "qr"), help="cProfile this kind"
    )
    parser.add_argument("--callees", default="", help="with --profile: what these functions call")
    parser.add_argument(
        "--served",
        action="store_true",
        help="through a scorekeeper serve process (waitress, access log, keep-alive): the server's CPU",
    )
    parser.add_argument("--postgres", action="store_true", help="on a throw-away PostgreSQL cluster")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.served and args.profile:
        parser.error("--profile profiles the app in process: not with --served")
    result = run(
        args.tables,
        args.seconds,
        profile=args.profile,
        callees=args.callees,
        served=args.served,
        postgres=args.postgres,
    )
    if args.json:
        sys.stdout.write(json.dumps({k: v for k, v in result.items() if k != "profile"}, indent=2) + "\n")
    else:
        sys.stdout.write(report(result))
    if "profile" in result:
        sys.stdout.write(result["profile"])


if __name__ == "__main__":
    main()
