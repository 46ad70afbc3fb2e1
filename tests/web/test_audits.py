"""Audits of the pages a table uses, at a phone's size (issue 13's Lighthouse targets,
made through axe and the browser): no axe violations; the SEO and best-practice
checks a test can make (lang, title, viewport, meta description, one h1, no console
errors); tap targets of at least 44 px, measured."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_database
from tests.web.browser import MARKS, serving
from tests.web.table_phone import open_game, phone, shot

pytestmark = MARKS
Site = Callable[[Any, str], tuple[dict[str, Any], dict[str, str]]]
"""The module's pages: (a browser, "game" or "event") -> (the scorer's storage, the URLs)."""

GAME = {
    "rules": "jersey-scarne",
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "boxes": [
        {
            "ending": "knock",
            "by": "Bob",
            "hands": {"Ann": {"count": 14}, "Bob": {"count": 4}, "Cal": {"count": 13}},
        },
        {"ending": "misdeal"},
    ],
}

TARGETS = (
    "button, a.button, .bar nav a, summary, select, .pill span, .tap span, "
    ".scores td:first-child a, input:not([type=radio]):not([type=checkbox])"
    ":not([type=hidden])"
)
"""What a thumb taps; links inside sentences are exempt (WCAG 2.5.8's inline links)."""


def _game_pages(page: Any, base: str) -> dict[str, str]:
    sheet = open_game(page, base, GAME)
    box = page.locator(".scores td:first-child a").first.get_attribute("href")
    return {
        "home": base + "/",
        "sheet": sheet,
        "record": sheet + "/boxes/new",
        "check": base + "/check",
        "rules": base + "/rules/",
        "preset": base + "/rules/jersey-scarne",
        "new": base + "/games/new",
        "house-rules": sheet + "/rules",
        "box": base + str(box),
        "share": sheet + "/share",
        "box-edit": base + str(box) + "/edit",
        "check-typed": base + "/check?typed=AS+2S+3S+7H+7D+7C+9D+10D+JD+4C",
        "settle": base + "/settle",
        "rules-search": base + "/rules/?q=knock",
        "not-found": base + "/games/nope",
    }


def _event_pages(page: Any, base: str) -> dict[str, str]:
    """A timed club night started through its form: its pages (issue 25)."""
    page.goto(base + "/events/new")
    page.fill("#name", "Audit night")
    page.check("input[name=round_ends][value=minutes]")
    page.fill("#round_limit", "40")
    page.fill("#entrants", "Ann\nBob\nCal\nDee\nEve\nFay\nGus")
    page.get_by_role("button", name="Start the event and seat round 1").click()
    page.wait_for_url(re.compile(r"/events/(?!new\b)[^/?]+$"), timeout=30_000)
    event = str(page.url)
    return {
        "event-new": base + "/events/new",
        "event": event,
        "event-standings": event + "/standings",
        "event-director": event + "/director",
        "event-player": event + "/player?name=Eve",
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, migrated_once: Path) -> Iterator[Site]:
    """The audited pages on one server of this module (the audits only read them): the
    game, and the event, each made once by its scorer's phone; built when first asked."""
    url = copy_database(migrated_once, tmp_path_factory.mktemp("audits") / "audits.sqlite3")
    made: dict[str, tuple[dict[str, Any], dict[str, str]]] = {}
    with serving(url) as base:

        def built(browser: Any, what: str) -> tuple[dict[str, Any], dict[str, str]]:
            if what not in made:
                scorer = phone(browser)
                urls = (_event_pages if what == "event" else _game_pages)(scorer, base)
                assert scorer.script_errors == []
                made[what] = scorer.context.storage_state(), urls
                scorer.context.close()
            return made[what]

        yield built


@pytest.fixture
def audited(site: Site, browser: Any, request: pytest.FixtureRequest) -> tuple[Any, dict[str, str]]:
    """A new phone holding the scorer's rights (the cookies and storage of the phone that
    made the game or the event) and the pages' addresses."""
    name = request.node.callspec.params["name"]
    state, urls = site(browser, "event" if name.startswith("event") else "game")
    return phone(browser, storage_state=state), urls


PAGES = [
    "home",
    "sheet",
    "record",
    "check",
    "rules",
    "preset",
    "new",
    "house-rules",
    "box",
    "event-new",
    "event",
    "event-standings",
    "event-director",
    "event-player",
]


AXE_ONLY = ["share", "box-edit", "check-typed", "settle", "rules-search", "not-found"]
"""Pages axe audits beside :data:`PAGES`: a game's share page, a box's correction, a typed
hand checked, the settlement, a rules search and a game that is not there."""


@pytest.mark.parametrize("name", PAGES + AXE_ONLY)
def test_axe_finds_no_violations(audited: tuple[Any, dict[str, str]], name: str) -> None:
    axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")
    page, urls = audited
    page.goto(urls[name])
    page.wait_for_load_state("networkidle")
    assert page.url == urls[name]  # the page itself, not a prompt for the scorer's code
    results = axe_playwright.Axe().run(page)
    violations = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]]
    assert violations == []


@pytest.mark.parametrize("name", PAGES)
def test_seo_and_best_practice(audited: tuple[Any, dict[str, str]], name: str) -> None:
    page, urls = audited
    page.goto(urls[name])
    page.wait_for_load_state("networkidle")
    assert page.url == urls[name]  # the page itself, not a prompt for the scorer's code
    assert page.get_attribute("html", "lang") == "en"
    assert page.title().strip()
    assert "width=device-width" in (page.get_attribute("meta[name=viewport]", "content") or "")
    description = page.get_attribute("meta[name=description]", "content") or ""
    assert len(description) >= 50
    assert page.locator("h1").count() == 1
    small = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""",
        TARGETS,
    )
    assert small == []
    shot(page, f"audit-{name}", full_page=True)
    assert page.script_errors == []


def test_times_are_in_the_phones_time_zone(live_server: str, browser: Any) -> None:
    """The server writes UTC in ``<time datetime>``; the page shows the phone's time."""
    page = phone(browser, timezone_id="Pacific/Auckland")
    sheet = open_game(page, live_server, GAME)
    page.goto(sheet)
    page.locator("td.what a").first.click()
    time = page.locator(".history time").first
    stamp = time.get_attribute("datetime") or ""
    assert stamp.endswith("Z")
    local = page.evaluate(
        """(s) => new Date(s).toLocaleString(undefined, {day: "numeric",
        month: "short", hour: "2-digit", minute: "2-digit"})""",
        stamp,
    )
    assert time.inner_text() == local and "UTC" not in time.inner_text()


def test_the_rules_come_before_the_settings(live_server: str, browser: Any) -> None:
    page = phone(browser)
    page.goto(live_server + "/rules/jersey-scarne")
    headings = page.locator("h2").all_inner_texts()
    assert headings.index("Settings") > 0
    assert (
        page.locator("article.rule").first.bounding_box()["y"]
        < page.locator(".setting-list").bounding_box()["y"]
    )


@pytest.mark.parametrize("name", ["event-standings"])
def test_the_standings_fit_a_phone_with_their_tie_breaks(
    audited: tuple[Any, dict[str, str]], name: str
) -> None:
    """At 390 px the standings show every column, the tie-breaks and a bye's mark among
    them, without scrolling sideways (10 px too wide in DejaVu Sans before), and a
    keyboard reaches the table's region."""
    page, urls = audited
    page.goto(urls[name])
    page.wait_for_load_state("networkidle")
    wrap = page.locator(".standings-wrap")
    wide, shown = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert wide <= shown, (wide, shown)
    assert page.locator(".standings thead th").last.inner_text().replace("\n", " ") == "Head to head"
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('standings-wrap')"):
            break
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Standings"


def test_every_table_that_may_scroll_sideways_is_a_named_region_a_keyboard_reaches() -> None:
    """A ``.table-wrap`` scrolls sideways on a narrow phone when its table is wider (the
    standings at 390 px with DejaVu Sans, the only sans font of a bare Debian: axe's
    ``scrollable-region-focusable``): a keyboard reaches it and a screen reader names it."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    wraps = [
        (path.name, tag)
        for path in sorted(templates.rglob("*.html"))
        for tag in re.findall(r'<div class="table-wrap[^"]*"[^>]*>', path.read_text(encoding="utf-8"))
    ]
    assert len(wraps) >= 7
    for name, tag in wraps:
        assert 'role="region"' in tag and 'tabindex="0"' in tag, (name, tag)
        assert "aria-label=" in tag or "aria-labelledby=" in tag, (name, tag)
