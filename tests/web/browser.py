"""What the browser tests share: Debian's Chromium driven by Playwright, and the app
served by waitress on loopback (CSRF on, as phones meet it) on a fresh database."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.web import ahead, create_app

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else "/usr/bin/chromium"
"""Debian's Chromium in its headless shell (package ``chromium-headless-shell``, built from
the same source and version as ``chromium``; ``make system-deps`` installs it) where it is
installed, else Debian's ``chromium``. The full browser's headless mode runs the whole
browser, its window and its UI renderer, unseen: the shell is Blink and V8 without them, as
Playwright's own headless runs are. Measured on this suite (docs/performance.md, "Test
suite"): a fresh context and page 0.07 s of CPU against 0.36 s, the 30-box phone game 13 s
of the browser's CPU against 23 s; the 84 browser tests pass on either."""
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


def screenshot(target: Any, name: str, **options: Any) -> None:
    """A screenshot of a page or an element to look at (``name``.png), written to the
    folder ``SCOREKEEPER_SCREENSHOTS`` names when it is set, and not taken otherwise:
    nothing checks them, and a full page costs Chromium about half a second."""
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(folder) / f"{name}.png"), **options)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def live_server(migrated: Callable[[str], str]) -> Iterator[str]:
    """The app served by waitress on loopback, in a thread, on a fresh database
    (``browser.sqlite3`` in the test's folder, a copy of the run's migrated one)."""
    with serving(migrated("browser.sqlite3")) as url:
        yield url


@contextlib.contextmanager
def serving(database_url: str) -> Iterator[str]:
    """The app on ``database_url`` served by waitress on loopback, in a thread; its URL."""
    from waitress.server import create_server

    app = create_app(
        {
            "DATABASE_URL": database_url,
            "SECRET_KEY": "browser-" + "b" * 40,
            "POLL_SECONDS": 1,
            "PDF_IN_PROCESS": True,
        }
    )
    server = create_server(app, host="127.0.0.1", port=free_port(), threads=6)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
    finally:
        stop(server, thread)
        ahead.stop_reading(app)  # served: it reads a watched event ahead


def stop(server: Any, thread: threading.Thread) -> None:
    """Stop a waitress server running in ``thread``: its sockets are closed by its own
    loop (a close from another thread raced the loop's select, which then failed with
    EBADF), so the loop ends once its map is empty; then its worker threads end."""
    server.trigger.pull_trigger(lambda: [dispatcher.close() for dispatcher in list(server._map.values())])
    thread.join(timeout=10)
    server.task_dispatcher.shutdown()


class _Chromium:
    """One headless Chromium for a whole run of a pytest process (launching one takes
    half a second), launched again should it have gone. Playwright's sync API leaves its
    event loop marked as running in this thread while its driver runs: the mark is
    lifted between browser tests, so the tests that run between them see no loop."""

    def __init__(self) -> None:
        self.manager: Any = None
        self.chromium: Any = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def acquire(self) -> Any:
        sync_api = pytest.importorskip("playwright.sync_api")
        if self.loop is not None:
            asyncio._set_running_loop(self.loop)
        if self.chromium is None or not self.chromium.is_connected():
            self.release()
            self.close()
            self.manager = sync_api.sync_playwright()
            playwright = self.manager.start()
            self.loop = asyncio._get_running_loop()
            self.chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        return self.chromium

    def release(self) -> None:
        """The end of a test: every context it opened is closed (its pages, cookies,
        storage and service workers with it), then the loop's mark is lifted."""
        if self.chromium is not None and self.chromium.is_connected():
            for context in self.chromium.contexts:
                context.close()
        asyncio._set_running_loop(None)

    def close(self) -> None:
        if self.manager is None:
            return
        if self.loop is not None:
            asyncio._set_running_loop(self.loop)
        try:
            if self.chromium is not None and self.chromium.is_connected():
                self.chromium.close()
        finally:
            self.manager.__exit__(None, None, None)
            self.manager = self.chromium = self.loop = None


@pytest.fixture(scope="session")
def chromium_process() -> Iterator[_Chromium]:
    """The process's one Chromium (see :func:`browser`), closed at the run's end."""
    shared = _Chromium()
    yield shared
    shared.close()


@pytest.fixture
def browser(chromium_process: _Chromium) -> Iterator[Any]:
    """Headless Chromium, launched by Playwright (its own browser download is not used):
    one per pytest process, shared by its tests. A test opens its own contexts (each a
    fresh profile: no cookie, storage, cache or service worker of another test's) and
    they are all closed at its end, whether it passed or not."""
    chromium = chromium_process.acquire()
    try:
        yield chromium
    finally:
        chromium_process.release()
