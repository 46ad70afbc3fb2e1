"""A player's page and head to head in Chromium on a 390 x 844 phone, JavaScript off:
nothing wider than the screen, the chart legible, the head-to-head form works. The
screenshots are written to ``SCOREKEEPER_SCREENSHOTS`` (a folder) when it is set."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scorekeeper import ledger, store
from scorekeeper.engine.contract import GameEntry
from scorekeeper.web import create_app
from tests.web.browser import MARKS, free_port, screenshot, stop

from .games import GAME_A, GAME_B, GAME_C

pytestmark = MARKS
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def club_server(migrated: Callable[[str], str]) -> Iterator[str]:
    """A club's server (every game counts) holding the three known games."""
    from waitress.server import create_server

    url = migrated("club.sqlite3")
    with store.opened(url) as db:
        for game in (GAME_A, GAME_B, GAME_C):
            ledger.start(db, GameEntry.from_json(game))
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "club-" + "c" * 40, "RECENT_GAMES_PUBLIC": True})
    server = create_server(app, host="127.0.0.1", port=free_port(), threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
    stop(server, thread)


def _shot(page: Any, name: str) -> None:
    screenshot(page, name, full_page=True)


def _widest(page: Any) -> int:
    """The page's width as laid out (JavaScript off for the page, not for the probe)."""
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_players_page_on_a_phone_without_javascript(
    browser: Any,
    club_server: str,
    scheme: str,
) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{club_server}/players/")
    page.get_by_role("link", name="Ann").first.click()
    _shot(page, f"player-{scheme}")
    assert page.locator("[data-figure=boxes-won]").inner_text() == "5 of 8"
    chart = page.locator("figure.chart svg")
    box = chart.bounding_box()
    assert box is not None and box["width"] >= 300 and box["x"] + box["width"] <= 390
    # The chart sits on white in either scheme: its ink is black.
    assert (
        page.locator("figure.chart").evaluate("e => getComputedStyle(e).backgroundColor")
        == "rgb(255, 255, 255)"
    )
    assert _widest(page) <= 390
    context.close()


def test_head_to_head_from_the_form_without_javascript(
    browser: Any,
    club_server: str,
) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{club_server}/players/")
    assert _widest(page) <= 390
    _shot(page, "players")
    page.select_option("#p0", "ann")
    page.select_option("#p1", "bob")
    page.get_by_role("button", name="Compare").click()
    _shot(page, "versus")
    assert page.locator("[data-net='ann>bob>516']").inner_text().startswith("bob paid ANN 516")
    assert _widest(page) <= 390
    context.close()


@pytest.mark.parametrize("path", ["/players/", "/players/ann", "/head-to-head?p=ann&p=bob"])
def test_the_players_pages_pass_the_audits(
    browser: Any,
    club_server: str,
    path: str,
) -> None:
    """The audits of tests/web/test_audits.py: no axe violations, one h1, a description,
    tap targets of 44 px."""
    axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")
    from tests.web.test_audits import TARGETS

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(club_server + path)
    results = axe_playwright.Axe().run(page)
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]] == []
    assert page.locator("h1").count() == 1
    assert len(page.get_attribute("meta[name=description]", "content") or "") >= 50
    small = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""",
        TARGETS,
    )
    assert small == []
    context.close()
