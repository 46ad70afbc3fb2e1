"""A club night's second round of findings (issue 32) in the browser: the director's
refusal where the finger is, "Where do I sit?" with a name not found, the projector
paging its standings at 1280 x 720. Phones of 390 x 844, Debian's Chromium."""

from __future__ import annotations

import re
from typing import Any

from tests.web.browser import MARKS
from tests.web.table_phone import phone, shot

pytestmark = MARKS

THIRTEEN = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou", "Max"]
EVENT_URL = re.compile(r"/events/(?!new\b)[^/?]+$")


def _start(director: Any, base: str, entrants: list[str]) -> str:
    director.goto(base + "/events/new")
    director.fill("#name", "Tuesday Jersey")
    director.fill("#rounds", "3")
    director.fill("#entrants", "\n".join(entrants))
    # what the entrants make, as they are typed (the engine's seating arithmetic)
    tables, byes = divmod(len(entrants), 3)
    said = f"{len(entrants)} players: {tables} tables, " + (f"{byes} bye" if byes == 1 else f"{byes} byes")
    director.wait_for_selector(f"#seating-count:has-text('{said}')")
    assert director.locator("#round_limit").is_hidden()  # each game to its own end: no limit asked
    director.get_by_text("After a number of boxes").click()
    assert director.locator("#round_limit").is_visible()
    director.get_by_text("Each game to its own end").click()
    director.get_by_role("button", name="Start the event and seat round 1").click()
    director.wait_for_url(EVENT_URL, timeout=30_000)
    return str(director.url)


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_a_refusal_in_view_and_a_seat_not_found(live_server: str, browser: Any) -> None:
    director = phone(browser)
    event = _start(director, live_server, THIRTEEN)
    # A refused "Close round 1" (every table still waits): the reason where the finger is.
    director.goto(event + "/director")
    close = director.get_by_role("button", name="Close round 1")
    close.scroll_into_view_if_needed()
    director.evaluate("window.scrollBy(0, 200)")  # the finger a little below the button
    close.click()
    director.wait_for_selector("#director .errors")
    assert "still playing" in director.inner_text("#director .errors")
    assert _in_view(director, "#director .errors")
    assert director.evaluate("document.activeElement.matches('#director .errors')")
    shot(director, "night-refused")
    # Forced, it goes through: the page comes back where the finger was, its heading focused.
    director.check("input[name=force]")
    director.get_by_role("button", name="Close round 1").click()
    director.wait_for_selector("#tables-title:has-text('Round 2')")
    for _ in range(50):
        if director.evaluate("document.activeElement && document.activeElement.id") == "close-title":
            break
        director.wait_for_timeout(100)
    assert director.evaluate("document.activeElement.id") == "close-title"
    assert _in_view(director, "#close-title")
    # Where do I sit? Ann's seat, then a slip: the seat goes, the closest names are offered.
    director.goto(event)
    director.fill("#find-name", "ann")
    director.get_by_role("button", name="Find").click()
    director.wait_for_selector("#my-seat-card")
    assert "Round 2: " in director.inner_text("#my-seat-card")
    director.fill("#find-name", "Kitt")
    director.get_by_role("button", name="Find").click()
    director.wait_for_selector("#seat-not-found")
    assert director.locator("#my-seat-card").count() == 0  # Ann's seat is not left up
    assert "No entrant is called “Kitt”" in director.inner_text("#seat-not-found")
    assert director.locator(".near-names a").all_inner_texts() == ["Kit"]
    director.locator(".near-names a").click()
    director.wait_for_selector("#my-seat-card")
    assert "Kit" in director.inner_text("#my-seat-card .where")
    assert director.script_errors == []


def _rows_in_view(page: Any, height: int) -> list[str]:
    """The players of the standings rows shown, each checked to be whole on the screen."""
    rows = page.locator(".standings tbody tr:visible")
    boxes = rows.evaluate_all(
        "rows => rows.map(r => [r.getBoundingClientRect().top, r.getBoundingClientRect().bottom])"
    )
    assert boxes and all(top >= 0 and bottom <= height for top, bottom in boxes), boxes
    return [
        name.strip() for name in page.locator(".standings tbody tr:visible th.player bdi").all_inner_texts()
    ]


def test_the_projector_pages_39_players_at_1280_by_720(live_server: str, browser: Any) -> None:
    """A projector shows everyone: at 1280 x 720 the 39 rows page by themselves ("Page 1
    of n", every few seconds), each row whole on the screen, with the one-line legend of
    the columns and tie-breaks; 1920 x 1080 too."""
    names = [f"Player {n:02d}" for n in range(1, 40)]
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    made = page.request.post(
        live_server + "/api/v1/events",
        data={"name": "Big night", "rules": "jersey-scarne", "table_size": 3, "rounds": 2, "entrants": names},
    )
    assert made.status == 201, made.text()
    page.clock.install()
    page.goto(f"{live_server}/events/{made.json()['id']}/standings")
    note = page.locator(".page-of[data-for=standings]")
    note.wait_for(state="visible")
    total = int(re.fullmatch(r"Page 1 of (\d+)", note.inner_text()).group(1))  # type: ignore[union-attr]
    assert total >= 3
    legend = page.locator("#standings-legend")
    assert "tables won" in legend.inner_text() and "shared rank" in legend.inner_text()
    seen: list[str] = []
    for number in range(1, total + 1):
        assert note.inner_text() == f"Page {number} of {total}"
        seen += _rows_in_view(page, 720)
        assert legend.bounding_box()["y"] + legend.bounding_box()["height"] <= 720
        tables = page.locator(".table-states li:visible").evaluate_all(
            "items => items.map(i => i.getBoundingClientRect().bottom)"
        )
        assert tables and max(tables) <= 720
        shot(page, f"night-projector-{number}")
        page.clock.run_for(8_000)
    assert sorted(seen) == names  # everyone, once
    assert note.inner_text() == f"Page 1 of {total}"  # round again
    page.set_viewport_size({"width": 1920, "height": 1080})
    for _ in range(50):  # the resize lays the page out again (no wait_for_function: the CSP)
        if page.evaluate("document.querySelector('.projector').style.height").startswith("10"):
            break
        page.wait_for_timeout(100)
    bigger = _rows_in_view(page, 1080)
    assert len(bigger) >= len(seen) // total
    # 300 players at 1280 x 720: the same, page after page, everyone once.
    names = [f"Entrant {n:03d}" for n in range(1, 301)]
    made = page.request.post(
        live_server + "/api/v1/events",
        data={"name": "Open", "rules": "jersey-scarne", "table_size": 3, "rounds": 1, "entrants": names},
    )
    assert made.status == 201, made.text()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server}/events/{made.json()['id']}/standings")
    note.wait_for(state="visible")
    total = int(re.fullmatch(r"Page 1 of (\d+)", note.inner_text()).group(1))  # type: ignore[union-attr]
    seen = []
    for _ in range(total):
        seen += _rows_in_view(page, 720)
        page.clock.run_for(8_000)
    assert sorted(seen) == names
    context.close()
