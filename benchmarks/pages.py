"""Benchmark: page weight of a cold load of the score sheet and of box entry.

Headless Chromium (Playwright, Debian's ``/usr/bin/chromium``) opens each page with
an empty cache, as a phone with edit rights (the session cookie of the edit link),
from ``scorekeeper serve`` on loopback (see :mod:`benchmarks.server`), and waits for
the network to be idle. Every request the page makes is counted with its bytes:
headers and body as transferred. Chromium asks for ``Accept-Encoding: gzip, deflate,
br``, but waitress sends bodies uncompressed, so each body is also gzip-compressed
here (level 6, what a compressing reverse proxy such as nginx with ``gzip_comp_level
6`` would send) to give the compressed weight. Target (issue 6): under 60 KB
compressed, htmx included.

Run it alone with ``python -m benchmarks.pages``.
"""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any

from . import server, webgames

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TARGET_KB = 60


def _cold_load(browser: Any, base: str, cookie: str, path: str) -> dict[str, Any]:
    """Open ``path`` in a fresh context (empty cache) and weigh every response."""
    context = browser.new_context()
    name, value = cookie.split("=", 1)
    context.add_cookies([{"name": name, "value": value, "url": base}])
    page = context.new_page()
    finished: list[Any] = []
    page.on("requestfinished", lambda request: finished.append(request))
    response = page.goto(base + path, wait_until="networkidle")
    if response is None or response.status != 200:
        raise RuntimeError(f"{path} answered {response.status if response else 'nothing'}")
    resources = []
    for request in finished:
        answer = request.response()
        body = answer.body() if answer is not None else b""
        sizes = request.sizes()
        resources.append(
            {
                "path": urllib.parse.urlsplit(request.url).path,
                "type": request.resource_type,
                "status": answer.status if answer is not None else None,
                "encoding": (answer.headers.get("content-encoding") if answer else None) or "none",
                "headers_bytes": sizes["responseHeadersSize"],
                "body_bytes": sizes["responseBodySize"],
                "gzip_body_bytes": len(gzip.compress(body, compresslevel=6)) if body else 0,
            }
        )
    context.close()
    headers = sum(r["headers_bytes"] for r in resources)
    raw = sum(r["body_bytes"] for r in resources)
    packed = sum(r["gzip_body_bytes"] for r in resources)
    return {
        "requests": len(resources),
        "transferred_kb": round((headers + raw) / 1024, 1),
        "body_kb": round(raw / 1024, 1),
        "gzip_kb": round((headers + packed) / 1024, 1),
        "gzip_body_kb": round(packed / 1024, 1),
        "server_compresses": any(r["encoding"] != "none" for r in resources),
        "met": (headers + packed) / 1024 < TARGET_KB,
        "resources": resources,
    }


def run() -> dict[str, Any]:
    """The sheet of a finished 40-box game and the box form of a 30-box game."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="scorekeeper-pages-") as tmp:
        folder = Path(tmp)
        with webgames.database(f"sqlite:///{folder / 'bench.sqlite3'}") as db:
            sheet = webgames.seed(db, webgames.finished_game(), 1)[0]
            entry = webgames.seed(db, webgames.game_in_progress(30), 1)[0]
        with server.serving(folder) as running, sync_playwright() as playwright:
            phone = server.Phone(running.port)
            phone.join(sheet)
            phone.join(entry)
            phone.close()
            base = f"http://{server.HOST}:{running.port}"
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                return {
                    "target_kb": TARGET_KB,
                    "sheet": _cold_load(browser, base, phone.cookie, f"/games/{sheet.game_id}"),
                    "box_entry": _cold_load(browser, base, phone.cookie, f"/games/{entry.game_id}/boxes/new"),
                }
            finally:
                browser.close()


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2) + "\n")
