"""What the browser tests share: Debian's Chromium driven by Playwright, and the app
served by waitress on loopback (CSRF on, as phones meet it) on a fresh database."""

from __future__ import annotations

import re
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import store
from scorekeeper.web import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHEET_URL = re.compile(r"/games/(?!new\b)[^/?]+$")

MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists(),
        reason=f"Chromium is not installed at {CHROMIUM} (make system-deps)",
    ),
]
"""``pytestmark`` of every browser test module."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The app served by waitress on loopback, in a thread, on a fresh database."""
    from waitress.server import create_server

    url = f"sqlite:///{tmp_path / 'browser.sqlite3'}"
    store.migrate(url)
    app = create_app(
        {"DATABASE_URL": url, "SECRET_KEY": "browser-" + "b" * 40, "POLL_SECONDS": 1, "PDF_IN_PROCESS": True}
    )
    server = create_server(app, host="127.0.0.1", port=free_port(), threads=6)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
    stop(server, thread)


def stop(server: Any, thread: threading.Thread) -> None:
    """Stop a waitress server running in ``thread``: its sockets are closed by its own
    loop (a close from another thread raced the loop's select, which then failed with
    EBADF), so the loop ends once its map is empty; then its worker threads end."""
    server.trigger.pull_trigger(lambda: [dispatcher.close() for dispatcher in list(server._map.values())])
    thread.join(timeout=10)
    server.task_dispatcher.shutdown()


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium, launched by Playwright (its own browser download is not used)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()
