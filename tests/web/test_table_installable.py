"""Installable and readable offline (issue 22): a web app manifest with icons served from
static/, and a service worker that shows the last sheet when the server is away, saying
when it was last updated; a sheet left open says so too. Saves are not the worker's:
table.js keeps them (tests/web/test_table_offline.py)."""

from __future__ import annotations

import json
import re
from typing import Any

from flask.testing import FlaskClient
from playwright.sync_api import expect

from benchmarks import taps
from tests.web.browser import MARKS
from tests.web.table_phone import open_game, phone, shot

STALE = "Not connected: this is the sheet as it was at"


def test_the_manifest_names_the_app_and_its_icons(client: FlaskClient) -> None:
    home = client.get("/").text
    link = re.search(r'<link rel="manifest" href="(/static/manifest\.json[^"]*)">', home)
    assert link is not None
    with client.get(link.group(1)) as answer:
        manifest = json.loads(answer.data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as image:
            assert image.status_code == 200 and image.data.startswith(b"\x89PNG")
            width = int.from_bytes(image.data[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]
    with client.get("/sw.js") as worker:
        assert worker.status_code == 200 and "javascript" in (worker.mimetype or "")
        assert worker.headers["Service-Worker-Allowed"] == "/"
    assert 'data-sw="/sw.js"' in home


@MARKS[0]
@MARKS[1]
def test_the_last_sheet_is_read_offline_and_says_how_old_it_is(live_server: str, browser: Any) -> None:
    page = phone(browser)
    game = {
        **taps.JERSEY,
        "boxes": [
            {
                "ending": "knock",
                "by": "Bob",
                "hands": {"Ann": {"count": 14}, "Bob": {"count": 4}, "Cal": {"count": 13}},
            }
        ],
    }
    sheet = open_game(page, live_server, game)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now the worker answers this page's requests
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_function(
        "caches.open('scorekeeper-v1').then(c => c.keys()).then(k => "
        "k.some(r => r.url.includes('/offline/games/')))"
    )
    assert page.locator("#sheet-stale").count() == 0

    # The server goes away with the sheet open: the next poll fails and the sheet says so.
    page.context.set_offline(True)
    page.wait_for_selector("#sheet-stale")
    assert STALE in page.inner_text("#sheet-stale")
    # Opened again offline: the kept sheet, under the same warning.
    page.goto(sheet)
    note = page.locator(".offline-note")
    assert STALE in note.inner_text() and note.locator("time").get_attribute("datetime")
    assert page.inner_text("[data-player-total='Bob']") == "19"
    shot(page, "offline-sheet")
    # The server is back: the kept copy asks it and opens itself again, untouched.
    page.context.set_offline(False)
    expect(page.locator(".offline-note")).to_have_count(0, timeout=15_000)
    assert page.url == sheet
    page.wait_for_selector("#sheet")


@MARKS[0]
@MARKS[1]
def test_the_worker_keeps_the_sheet_from_the_page_itself(live_server: str, browser: Any) -> None:
    """Opening a sheet asks the server once: the worker keeps the fragment the page
    carries between its markers, and does not ask for it again (each page load, the
    scorer's after every box among them, cost a second drawing of the sheet)."""
    page = phone(browser)
    sheet = open_game(page, live_server)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    kept = "caches.open('scorekeeper-v1').then(c => c.%s('/offline/' + location.pathname.slice(1)))"
    page.evaluate(kept % "delete")  # a copy kept by a poll so far (its polls now find nothing new)
    asked: list[tuple[str, bool]] = []
    page.context.on("request", lambda r: asked.append((r.url, r.service_worker is not None)))
    page.reload()  # now the worker answers this page's requests
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_function(kept % "match" + ".then(r => !!r)")
    page.wait_for_timeout(300)  # a fetch the worker might make after the page's answer
    copy = page.evaluate(kept % "match" + ".then(r => r.text())")
    by_worker = [url for url, worker in asked if worker]
    assert any(url == sheet for url in by_worker), by_worker  # the worker's fetches are seen
    assert not [url for url in by_worker if "/sheet" in url], by_worker
    # What it kept is the sheet the phones poll, and nothing of the page around it (each
    # drawing has its own form tokens and keys).
    fragment = page.request.get(sheet + "/sheet", headers={"HX-Request": "true"}).text()
    assert _untokened(copy).strip() == _untokened(fragment).strip()
    assert copy.lstrip().startswith('<section id="sheet"') and "<html" not in copy


def _untokened(html: str) -> str:
    return re.sub(r'<input type="hidden"[^>]*>', "<input hidden>", html)
