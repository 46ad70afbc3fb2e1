"""`scorekeeper serve`'s access log: a line a request, but the unchanged htmx polls
(204, every phone every 3 s) counted and said once a minute (issue 34)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from werkzeug.test import Client

from scorekeeper.serve import Unlogged, access_logged


def _sheet(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """A sheet's poll: 204 while ``since`` is the version (3), else the new sheet."""
    if environ["QUERY_STRING"] == "since=3":
        start_response("204 NO CONTENT", [])
        return []
    start_response("200 OK", [("Content-Type", "text/html")])
    return [b"<section>sheet</section>"]


def test_unchanged_polls_are_counted_and_said_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    wrapped = access_logged(_sheet)
    client = Client(wrapped)
    poll = {"HX-Request": "true"}
    access = logging.getLogger("scorekeeper.access")
    access.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
            for _ in range(3):
                assert client.get("/games/g1/sheet?since=3", headers=poll).status_code == 204
            assert client.get("/games/g1/sheet?since=2", headers=poll).status_code == 200
            assert client.get("/games/g1/sheet?since=3").status_code == 204  # no htmx: a page
            wrapped.unlogged.since -= 61  # a minute passes
            client.get("/games/g1/sheet?since=3", headers=poll)
            client.get("/games/g1/sheet?since=3", headers=poll)
    finally:
        access.removeHandler(caplog.handler)
    lines = [r.getMessage() for r in caplog.records if r.name == "scorekeeper.access"]
    assert len(lines) == 3, lines
    assert '"GET /games/g1/sheet?since=2 HTTP/1.1" 200' in lines[0]
    assert '"GET /games/g1/sheet?since=3 HTTP/1.1" 204' in lines[1]
    # the three of the first minute and the one after it, said once; then counted anew
    assert lines[2] == Unlogged.SAID % (4, 60)
    assert wrapped.unlogged.count == 1
