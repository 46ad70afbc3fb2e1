"""An unchanged htmx poll is answered by the server's loop thread itself, without a
worker thread (issue 34): it costs no hand-over between threads, and it never waits
behind what the workers are doing."""

from __future__ import annotations

import http.client
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from waitress import wasyncore
from waitress.server import create_server

from scorekeeper import serve
from scorekeeper.web.polls import READ, is_poll

VERSION = "4"
"""The sheet's version: a poll with ``since=4`` finds nothing new."""


class Sheet:
    """A sheet's poll and a slow page, noting which thread answered each."""

    def __init__(self) -> None:
        self.slow = threading.Event()
        self.answered_by: list[tuple[str, str]] = []
        self.environs: list[dict[str, Any]] = []

    def answers(
        self, method: str, htmx: str | None, path: str, query: str, read: dict[str, Any] | None = None
    ) -> bool:
        """As the app's ``Unchanged.answers``: an htmx poll, of the sheet at its version;
        a changed one leaves what it read in ``read``."""
        if not is_poll(method, htmx, query) or path != "/games/g1/sheet":
            return False
        if query == f"since={VERSION}":
            return True
        if read is not None:
            read[READ] = ("g1", (VERSION,))
        return False

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        path = environ["PATH_INFO"]
        self.answered_by.append((path, threading.current_thread().name))
        self.environs.append(environ)
        if path == "/slow":
            self.slow.wait(10)
        if self.answers(
            environ["REQUEST_METHOD"], environ.get("HTTP_HX_REQUEST"), path, environ["QUERY_STRING"]
        ):
            start_response("204 No Content", [])
            return []
        body = f"the page {path}".encode()
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]


@pytest.fixture
def served() -> Iterator[tuple[int, Sheet]]:
    sheet = Sheet()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = create_server(sheet, host="127.0.0.1", port=port, threads=1, connection_limit=100)
    serve.guarded(server, 0, 5.0, connection_limit=100, answers=sheet.answers)
    running = threading.Thread(target=server.run, name="loop", daemon=True)
    running.start()
    try:
        yield port, sheet
    finally:
        sheet.slow.set()
        server.task_dispatcher.shutdown()
        wasyncore.close_all(getattr(server, "_map", None))


def _get(port: int, path: str, htmx: bool = True) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path, headers={"HX-Request": "true"} if htmx else {})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def test_an_unchanged_poll_is_answered_while_every_worker_is_busy(served: tuple[int, Sheet]) -> None:
    port, sheet = served
    slow = threading.Thread(target=_get, args=(port, "/slow", False))
    slow.start()  # the one worker thread waits on it
    try:
        for _ in range(3):
            assert _get(port, f"/games/g1/sheet?since={VERSION}") == 204  # the only worker is held
        assert [thread for path, thread in sheet.answered_by if path == "/games/g1/sheet"] == ["loop"] * 3
    finally:
        sheet.slow.set()
        slow.join(10)
    # a changed poll, a page and a poll without htmx go to the workers as before
    assert _get(port, "/games/g1/sheet?since=3") == 200
    assert _get(port, f"/games/g1/sheet?since={VERSION}", htmx=False) == 200
    assert _get(port, "/games/g1/sheet") == 200
    workers = [(path, thread) for path, thread in sheet.answered_by if thread != "loop"]
    assert [path for path, _ in workers] == ["/slow", "/games/g1/sheet", "/games/g1/sheet", "/games/g1/sheet"]


def test_the_loop_keeps_the_connection_and_serves_the_next_request_on_it(served: tuple[int, Sheet]) -> None:
    port, sheet = served
    phone = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    for since in (VERSION, "3", VERSION, VERSION):
        phone.request("GET", f"/games/g1/sheet?since={since}", headers={"HX-Request": "true"})
        answer = phone.getresponse()
        assert answer.read() == (b"" if since == VERSION else b"the page /games/g1/sheet")
        assert answer.status == (204 if since == VERSION else 200)
        assert not answer.will_close  # one keep-alive connection all along
    phone.close()
    threads = [thread for _, thread in sheet.answered_by]
    assert threads[0] == threads[2] == threads[3] == "loop" and threads[1] != "loop"


def test_what_the_loop_read_of_a_changed_poll_reaches_the_app(served: tuple[int, Sheet]) -> None:
    """A poll the loop found changed goes to a worker with what the loop read of it in
    its environ (the app's layer and view do not read it again); other requests
    without."""
    port, sheet = served
    assert _get(port, "/games/g1/sheet?since=3") == 200
    assert _get(port, "/games/g1/sheet?since=3", htmx=False) == 200
    changed, page = sheet.environs
    assert changed[READ] == ("g1", (VERSION,))
    assert READ not in page
