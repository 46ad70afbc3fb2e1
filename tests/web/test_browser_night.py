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
    director.get_by_role("button", name="Start the event and seat round 1").click()
    director.wait_for_url(EVENT_URL, timeout=30_000)
    return str(director.url)


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_a_refusal_in_view(live_server: str, browser: Any) -> None:
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
    assert director.script_errors == []
