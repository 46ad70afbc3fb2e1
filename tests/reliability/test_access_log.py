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
            assert client.post("/games/g1/sheet?since=3", headers=poll).status_code == 204  # a write
            wrapped.unlogged.since -= 61  # a minute passes
            client.get("/games/g1/sheet?since=3", headers=poll)
            client.get("/games/g1/sheet?since=3", headers=poll)
    finally:
        access.removeHandler(caplog.handler)
    lines = [r.getMessage() for r in caplog.records if r.name == "scorekeeper.access"]
    assert len(lines) == 4, lines
    assert '"GET /games/g1/sheet?since=2 HTTP/1.1" 200' in lines[0]
    assert '"GET /games/g1/sheet?since=3 HTTP/1.1" 204' in lines[1]
    assert '"POST /games/g1/sheet?since=3 HTTP/1.1" 204' in lines[2]
    # the three of the first minute and the one after it, said once; then counted anew
    assert lines[3] == Unlogged.SAID % (4, 60)
    assert wrapped.unlogged.count == 1


def test_gunicorns_access_log_counts_them_too(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    from scorekeeper import gunicorn_conf

    written: list[str] = []
    monkeypatch.setattr(Logger, "access", lambda self, resp, *rest: written.append(resp.status))
    config = Config()
    config.set("accesslog", "-")
    logger = gunicorn_conf.logger_class(config)
    logger.unlogged = Unlogged()
    logger.access_log.addHandler(caplog.handler)
    poll = {"REQUEST_METHOD": "GET", "HTTP_HX_REQUEST": "true", "QUERY_STRING": "since=3"}
    with caplog.at_level(logging.INFO, logger=logger.access_log.name):
        for _ in range(3):
            logger.access(SimpleNamespace(status="204 No Content"), None, poll, 0.001)
        logger.access(SimpleNamespace(status="200 OK"), None, poll, 0.01)
        logger.access(SimpleNamespace(status="204 No Content"), None, {}, 0.001)
        logger.unlogged.since -= 61
        logger.access(SimpleNamespace(status="204 No Content"), None, poll, 0.001)
    assert written == ["200 OK", "204 No Content"]  # the changed poll, and a 204 not polled
    said = [r.getMessage() for r in caplog.records if r.name == logger.access_log.name]
    assert said == [Unlogged.SAID % (4, 60)]
