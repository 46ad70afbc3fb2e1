"""The score always in view (issue 22): a 30-box game played on a 390 x 844 phone; after
every save the totals and boxes won are readable beside the Record button, without
scrolling, and the console stays quiet (a preview of a half-entered box is no failure)."""

from __future__ import annotations

import re
from typing import Any

from benchmarks import taps
from tests.web.browser import MARKS
from tests.web.table_phone import open_game, shot

pytestmark = MARKS

BOXES = 30
LONG_GAME = {**taps.JERSEY, "settings": {"game_target": 1000}}
"""Jersey to 1000, so thirty knocks of 19 (Bob 4; Ann 14, Cal 13: J6) leave it running."""


def _strict_phone(browser: Any) -> Any:
    """A 390 x 844 phone that keeps every console error (none is expected)."""
    context = browser.new_context(viewport=taps.PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.script_errors = errors
    return page


def _shown(page: Any, selectors: list[str]) -> dict[str, tuple[bool, str]]:
    """For each selector, whether its element is inside the viewport and is what the
    phone shows there, and its text: read in one round trip, since 30 boxes of six
    elements each were 360 trips of the browser's protocol."""
    found = page.evaluate(
        """selectors => Object.fromEntries(selectors.map(selector => {
        const el = document.querySelector(selector);
        if (!el) return [selector, [false, null]];
        const r = el.getBoundingClientRect();
        let seen = !(r.top < 0 || r.bottom > innerHeight || r.width === 0);
        if (seen) {
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            seen = el === hit || el.contains(hit);
        }
        return [selector, [seen, el.innerText]];
    }))""",
        selectors,
    )
    return {selector: (bool(seen), text) for selector, (seen, text) in found.items()}


def test_thirty_boxes_with_the_totals_in_view_after_every_save(live_server: str, browser: Any) -> None:
    page = _strict_phone(browser)
    open_game(page, live_server, LONG_GAME)
    for number in range(1, BOXES + 1):
        taps.knock_box_by_counts(page)  # the form opened from the bar; back on the sheet
        page.wait_for_selector(f".record-bar a:has-text('Record box {number + 1}')")
        totals = {"Ann": 0, "Bob": 19 * number, "Cal": 0}
        bar = {f".record-bar [data-bar-total='{player}']": str(total) for player, total in totals.items()}
        won, record = ".record-bar [data-bar-won='Bob']", ".record-bar a.primary"
        shown = _shown(page, [*bar, won, record])
        for selector, total in bar.items():
            assert shown[selector] == (True, total), (number, selector, shown[selector])
        assert shown[won] == (True, f"{number} won"), (number, shown[won])
        assert shown[record][0], number
        if number in (1, 12, BOXES):
            shot(page, f"score-in-view-{number}")
    assert page.script_errors == []


def test_a_phone_that_lost_its_right_is_sent_to_the_prompt_quietly(live_server: str, browser: Any) -> None:
    """Bob has the box form open when Ann renews the codes: his next preview is refused
    (a watcher now) and htmx takes him to the code prompt, with no failed request in the
    console (the refusal reaches htmx as 200 with HX-Redirect)."""
    ann, bob = _strict_phone(browser), _strict_phone(browser)
    sheet = open_game(ann, live_server)
    bob.goto(sheet)
    code = ann.locator("#join-code").inner_text()
    bob.fill("#join-code-field", code)
    bob.get_by_role("button", name="Join as scorer").click()
    bob.wait_for_selector(".record-bar a")
    bob.locator(".record-bar a").click()
    bob.wait_for_selector("#box-form")
    ann.locator("#invite details.codes summary").click()
    ann.get_by_role("button", name="Renew the codes").click()
    ann.wait_for_url(sheet + "#invite")
    bob.fill("#hands-0-count", "14")  # the live preview asks, and is refused
    bob.wait_for_url(re.compile(r"/join\?next="))
    assert bob.locator("#join-code-field, input[name=code]").count() >= 1
    assert bob.script_errors == [] and ann.script_errors == []
