"""Standard serving: ``scorekeeper serve`` (waitress, one process, threads) and gunicorn
(``gunicorn 'scorekeeper.web:create_app()'``, several workers), each started as an
operator starts it, settings in the environment, on SQLite and on PostgreSQL.

What the scale-out review found wrong with the old process manager is checked here:
300 phones at once, SIGTERM in the middle of a request, the proxy's headers, an
unmigrated database, the access log.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from scorekeeper import serve, store

from .conftest import LiveServer
from .liveserver import SECRET_KEY
from .test_concurrency import GAME, TIMEOUT, _box_form, _phone, create, misdeal, stored

PHONES = 300
"""A club evening: 100 tables of three."""


@dataclass
class Served(LiveServer):
    """``scorekeeper serve --host 127.0.0.1 --port P``, its database and secret from
    ``SCOREKEEPER_*`` in the environment (plus ``settings``)."""

    settings: dict[str, str] = field(default_factory=dict)

    def command(self) -> list[str]:
        return [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(self.port)]

    def environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "SCOREKEEPER_DATABASE_URL": self.database_url,
            "SCOREKEEPER_SECRET_KEY": SECRET_KEY,
            **self.settings,
        }


@dataclass
class Gunicorn(Served):
    """gunicorn with two worker processes of two threads, as docs/deploy.md runs it."""

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            "2",
            "--graceful-timeout",
            "10",
            "--access-logfile",
            "-",
            "--config",
            "python:scorekeeper.gunicorn_conf",
            "scorekeeper.web:create_app()",
        ]


@dataclass
class Signposted(Served):
    """``scorekeeper serve`` that writes a line to its log at the moments a test waits
    for (tests/reliability/signposts.py): the test waits on the line, not a guessed time."""

    def command(self) -> list[str]:
        return [sys.executable, "-m", "tests.reliability.signposts", *super().command()[3:]]

    def reached(self, signpost: str, after: int = 0, seconds: float = TIMEOUT) -> None:
        """Return as soon as the log shows ``signpost`` more than ``after`` times
        (checked every 10 ms)."""
        deadline = time.monotonic() + seconds
        while self.log.read_text(encoding="utf-8").count(f"signpost: {signpost}\n") <= after:
            assert time.monotonic() < deadline, f"never reached {signpost}: {self.log.read_text()[-2000:]}"
            time.sleep(0.01)


@pytest.fixture
def served(database_url: str, tmp_path: Path) -> Iterator[Served]:
    live = Served(database_url, tmp_path / "serve.log").start()
    yield live
    live.stop()


def _sqlite(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'serving.sqlite3'}"
    store.migrate(url)
    return url


def test_one_process_holds_300_phones_each_on_its_own_connection(tmp_path: Path) -> None:
    """300 phones open a keep-alive connection each and poll /health on it, one after
    another and then all again: every request is answered (waitress's default limit of
    100 connections left the 101st phone without an answer), and all 300 connections
    are still open for the second round. Each phone has its own address (127.1.x.y: Linux
    answers the whole of 127.0.0.0/8), as at a club, where the cap on one address's
    connections (tests/reliability/test_slow_clients.py) does not touch it."""
    live = Served(_sqlite(tmp_path), tmp_path / "serve.log").start()
    phones = [
        http.client.HTTPConnection(
            "127.0.0.1", live.port, timeout=10, source_address=(f"127.1.{i // 200}.{i % 200 + 1}", 0)
        )
        for i in range(PHONES)
    ]
    try:
        for _round in range(2):
            for phone in phones:
                phone.request("GET", "/health")
                response = phone.getresponse()
                assert response.status == 200
                assert response.read() and not response.will_close
        sockets = {id(phone.sock) for phone in phones if phone.sock is not None}
        assert len(sockets) == PHONES
    finally:
        for phone in phones:
            phone.close()
        live.stop()


def test_an_unchanged_poll_keeps_the_phones_connection(tmp_path: Path) -> None:
    """Issue 34: waitress 3.0.2 closed the connection after every 204 (no
    Content-Length may go with it), so each unchanged poll of every phone opened a new
    one; ``scorekeeper serve`` keeps it, and a poll after the 204s is answered on it."""
    live = Served(_sqlite(tmp_path), tmp_path / "serve.log").start()
    try:
        game_id, _ = create(live)
        phone = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
        for _ in range(3):
            phone.request("GET", f"/games/{game_id}/sheet?since=1", headers={"HX-Request": "true"})
            answer = phone.getresponse()
            assert answer.status == 204 and answer.read() == b"" and not answer.will_close
        socket_ = phone.sock
        phone.request("GET", f"/games/{game_id}/sheet?since=0", headers={"HX-Request": "true"})
        changed = phone.getresponse()
        assert changed.status == 200 and b"data-version" in changed.read()
        assert phone.sock is socket_  # the same connection all along
        phone.close()
    finally:
        live.stop()


def test_serve_prints_the_addresses_and_a_qr_code_and_logs_each_request(served: Served) -> None:
    """The terminal shows where to connect, as text and as a QR code; each request gets
    one access-log line in Apache's combined format, user agent included."""
    requests.get(f"{served.url}/health", timeout=TIMEOUT, headers={"User-Agent": "phone/1"})
    served.stop()
    log = served.log.read_text(encoding="utf-8")
    assert "Scorekeeper is running" in log
    assert f"http://127.0.0.1:{served.port}/" in log
    # Served on the loopback address: the terminal says phones cannot reach it, and how.
    assert "phones cannot reach 127.0.0.1" in log and "HOST=0.0.0.0" in log
    assert re.search("[▀▄█]{7}", log), log[:2000]  # a QR code's finder pattern, in blocks
    line = re.compile(
        r"127\.0\.0\.1 - - \[\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "
        r'"GET /health HTTP/1\.1" 200 \d+ "-" "phone/1"'
    )
    assert line.search(log), log[-2000:]


def test_qr_code_is_the_first_address() -> None:
    """The code drawn is segno's code of the first address (the one a phone should open)."""
    import io

    import segno

    text = serve.welcome(["http://10.0.0.7:5000/", "http://192.168.1.20:5000/"])
    drawing = io.StringIO()
    segno.make("http://10.0.0.7:5000/", error="m").terminal(out=drawing, compact=True)
    assert drawing.getvalue().rstrip("\n") in text
    assert text.index("10.0.0.7") < text.index("192.168.1.20")


def test_waitress_settings_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SCOREKEEPER_WAITRESS_* set waitress's threads and connection limit; without them
    the defaults hold 300 phones; poll() is used (select() stops at 1024 sockets)."""
    from scorekeeper.web import create_app

    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "SECRET_KEY": SECRET_KEY}
    defaults = serve.waitress_settings(create_app(config).config)
    assert defaults["connection_limit"] >= PHONES + 100 and defaults["asyncore_use_poll"]
    assert defaults["clear_untrusted_proxy_headers"] is True
    monkeypatch.setenv("SCOREKEEPER_WAITRESS_THREADS", "16")
    monkeypatch.setenv("SCOREKEEPER_WAITRESS_CONNECTION_LIMIT", "2000")
    monkeypatch.setenv("SCOREKEEPER_PROXY_FIX", "1")
    settings = serve.waitress_settings(create_app(config).config)
    assert (settings["threads"], settings["connection_limit"]) == (16, 2000)
    assert settings["clear_untrusted_proxy_headers"] is False


def test_switch_interval_is_short_and_settable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """serve lets threads take turns every millisecond, not Python's 5 ms (a poll waited
    5 ms at each turn behind a sheet being drawn); SCOREKEEPER_SWITCH_INTERVAL sets it."""
    from scorekeeper.web import create_app

    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "SECRET_KEY": SECRET_KEY}
    assert serve.switch_interval(create_app(config).config) == 0.001 < sys.getswitchinterval()
    monkeypatch.setenv("SCOREKEEPER_SWITCH_INTERVAL", "0.002")
    assert serve.switch_interval(create_app(config).config) == 0.002


def test_sigterm_lets_the_request_in_flight_finish(tmp_path: Path) -> None:
    """A box is being recorded (it waits for the database, which the test holds locked)
    when SIGTERM arrives: the box is still answered 201 and stored, the server then
    exits 0, and a new connection is refused. The old server dropped 8 of 8."""
    url = _sqlite(tmp_path)
    live = Signposted(url, tmp_path / "serve.log").start()
    game_id, auth = create(live)
    answer: dict[str, requests.Response | BaseException] = {}

    def record() -> None:
        try:
            answer["box"] = requests.post(
                f"{live.url}/api/v1/games/{game_id}/boxes",
                json=misdeal("in flight"),
                headers=auth,
                timeout=TIMEOUT,
            )
        except requests.RequestException as err:
            answer["box"] = err

    holder = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # every writer now waits (busy timeout)
        writes = live.log.read_text(encoding="utf-8").count("signpost: BEGIN IMMEDIATE")
        writer = threading.Thread(target=record)
        writer.start()
        # the request is in the app, waiting for the lock
        live.reached("BEGIN IMMEDIATE", after=writes)
        assert live.process is not None
        live.process.send_signal(signal.SIGTERM)
        live.reached("SIGTERM")
        # the signal is handled: a server that dropped the request would now exit at once
        with pytest.raises(subprocess.TimeoutExpired):
            live.process.wait(timeout=0.2)
        assert live.process.poll() is None, "the server ended with a request in flight"
        holder.execute("COMMIT")
        writer.join(timeout=TIMEOUT)
    finally:
        holder.close()
    box = answer["box"]
    assert isinstance(box, requests.Response), box
    assert box.status_code == 201, box.text
    assert live.process.wait(timeout=10) == 0, live.log.read_text()[-2000:]
    assert stored(url, game_id)[0] == ["in flight"]
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{live.url}/health", timeout=2)


@pytest.mark.parametrize("proxied", [True, False], ids=["proxy-fix", "no-proxy-fix"])
def test_the_proxys_headers_are_believed_only_with_proxy_fix(tmp_path: Path, proxied: bool) -> None:
    """Behind a proxy that terminates HTTPS for scores.example.org (X-Forwarded-*),
    with SCOREKEEPER_PROXY_FIX=1 the session cookie is Secure and the access log names
    the phone, and the share page's links are https://scores.example.org/... (the
    server's configured SCOREKEEPER_PUBLIC_URL: links are never built from a Host header a
    stranger may write); without it the same headers are ignored (waitress would have
    removed them, and the app saw plain HTTP on 127.0.0.1)."""
    settings = (
        {"SCOREKEEPER_PROXY_FIX": "1", "SCOREKEEPER_PUBLIC_URL": "https://scores.example.org"}
        if proxied
        else {}
    )
    live = Served(_sqlite(tmp_path), tmp_path / "serve.log", settings=settings).start()
    try:
        created = requests.post(f"{live.url}/api/v1/games", json=GAME, timeout=TIMEOUT).json()
        forwarded = {
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "scores.example.org",
            "X-Forwarded-For": "203.0.113.9",
        }
        join = f"{live.url}/games/{created['id']}/join"
        page = requests.get(join, headers=forwarded, timeout=TIMEOUT)
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert csrf is not None
        # Over HTTPS the CSRF check wants the page's own address as Referer (sent by
        # browsers under the Referrer-Policy: same-origin the page carries).
        referer = f"{'https://scores.example.org' if proxied else live.url}/games/{created['id']}/join"
        joined = requests.post(
            join,
            data={"csrf_token": csrf.group(1), "code": created["edit_token"]},
            headers={**forwarded, "Referer": referer, "Cookie": page.headers["Set-Cookie"].split(";", 1)[0]},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert joined.status_code == 303, joined.text[:300]
        cookie = joined.headers["Set-Cookie"]
        session = cookie.split(";", 1)[0]
        share = requests.get(
            f"{live.url}/games/{created['id']}/share",
            headers={**forwarded, "Cookie": session},
            timeout=TIMEOUT,
        )
        assert share.status_code == 200
        public = f"https://scores.example.org/games/{created['id']}"
        if proxied:
            assert "; Secure" in cookie
            assert f'value="{public}"' in share.text
            assert "203.0.113.9" in live.log.read_text()  # the access log names the phone
        else:
            assert "Secure" not in cookie
            assert f'value="{live.url}/games/{created["id"]}"' in share.text
            assert "scores.example.org" not in share.text
    finally:
        live.stop()


def test_serve_refuses_an_unmigrated_database(tmp_path: Path) -> None:
    """On a database that ``scorekeeper migrate`` has not brought up to date, serve
    exits at once and says what to run (migrations are a step of their own)."""
    live = Served(f"sqlite:///{tmp_path / 'empty.sqlite3'}", tmp_path / "serve.log")
    finished = subprocess.run(
        live.command(), env=live.environment(), capture_output=True, text=True, timeout=60, check=False
    )
    assert finished.returncode == 2, finished.stderr
    assert "scorekeeper migrate" in finished.stderr


def test_gunicorn_workers_record_boxes(database_url: str, tmp_path: Path) -> None:
    """``gunicorn 'scorekeeper.web:create_app()'`` with two workers: a game created,
    boxes recorded through the API and through the box form, every request on a new
    connection (so on either worker), each read back from both; the store agrees."""
    live = Gunicorn(database_url, tmp_path / "gunicorn.log").start()
    try:
        game_id, auth = create(live)
        for n in range(6):
            written = requests.post(
                f"{live.url}/api/v1/games/{game_id}/boxes",
                json=misdeal(f"api {n}"),
                headers=auth,
                timeout=TIMEOUT,
            )
            assert written.status_code == 201, written.text
        browser = _phone(live, game_id, auth["Authorization"].removeprefix("Bearer "))
        browser.headers["Connection"] = "close"
        form = _box_form(browser, live, game_id)
        saved = browser.post(
            f"{live.url}/games/{game_id}/boxes/new",
            data={**form, "ending": "misdeal", "note": "form"},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert saved.status_code == 303, saved.text[:2000]
        for _ in range(6):
            read = requests.get(
                f"{live.url}/api/v1/games/{game_id}", timeout=TIMEOUT, headers={"Connection": "close"}
            )
            assert [box["note"] for box in read.json()["game"]["boxes"]] == [
                *(f"api {n}" for n in range(6)),
                "form",
            ]
        assert stored(database_url, game_id) == ([*(f"api {n}" for n in range(6)), "form"], [])
        assert '"POST /api/v1/games HTTP/1.1" 201' in live.log.read_text()
    finally:
        live.stop()
    assert live.process is not None and live.process.returncode == 0
