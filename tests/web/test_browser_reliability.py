"""Real headless Chromium, several phones at one table: two editors and a watcher on
one game, an edit conflict between the editors, the whole app with JavaScript off,
no Content-Security-Policy violation anywhere, and axe-core on every main page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import MARKS, SHEET_URL

TAKEN = "was saved on another phone"
TIMEOUT_MS = 10_000

pytestmark = MARKS


class Phone:
    """One phone: its own browser context (cookies), collecting script and CSP errors."""

    def __init__(self, browser: Any, javascript: bool = True) -> None:
        self.context = browser.new_context(
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
            java_script_enabled=javascript,
        )
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _console(self, message: Any) -> None:
        expected = ("status of 422",)  # a save refused; a conflict reaches htmx as 200
        if message.type == "error" and not any(e in message.text for e in expected):
            self.errors.append(message.text)


def _new_game(page: Any, base: str) -> str:
    """Start Ann, Bob, Cal at Jersey Gin through the form; returns the sheet's URL."""
    page.goto(base + "/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cal"]):
        page.fill(f"#players-{seat}", name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SHEET_URL)
    return str(page.url)


def _edit_link(page: Any, sheet: str) -> str:
    page.goto(sheet + "/share")
    link = page.locator("input[value*='/join#']").first.get_attribute("value")
    assert link
    return str(link)


def _open_box_form(page: Any, sheet: str) -> None:
    page.goto(sheet + "/boxes/new")
    page.wait_for_selector("#box-form")


def _fill_knock(page: Any, by: str, counts: list[int]) -> None:
    page.locator("input[name=ending][value=knock] + span").click()
    page.locator(f"input[name=by][value={by}] + span").click()
    for index, count in enumerate(counts):
        page.fill(f"#hands-{index}-count", str(count))


def _totals(page: Any) -> dict[str, str]:
    cells = page.locator("td[data-player-total]")
    return {
        cells.nth(i).get_attribute("data-player-total"): cells.nth(i).inner_text().strip()
        for i in range(cells.count())
    }


def test_two_editors_and_a_watcher(live_server: str, browser: Any) -> None:
    """Ann's phone records, Bob's phone (joined by the edit link) corrects it, Cal's
    phone (read-only link) watches: each sees the other's change without reloading;
    Cal's phone offers no way to write. No script error, no CSP violation anywhere."""
    expect = pytest.importorskip("playwright.sync_api").expect
    ann, bob, cal = Phone(browser), Phone(browser), Phone(browser)
    sheet = _new_game(ann.page, live_server)
    bob.page.goto(_edit_link(ann.page, sheet))
    bob.page.get_by_role("button", name="Join as scorer").click()
    bob.page.wait_for_url(SHEET_URL)
    cal.page.goto(sheet)
    assert "Record a box" not in cal.page.content()
    ann.page.goto(sheet)

    _open_box_form(ann.page, sheet)
    _fill_knock(ann.page, "Bob", [14, 4, 13])
    ann.page.wait_for_selector("#preview .ruling:not(.problem)")
    ann.page.locator("#save-box").click()
    ann.page.wait_for_url(SHEET_URL)
    for phone in (bob, cal):
        expect(phone.page.locator('td[data-player-total="Bob"]')).to_have_text("19")

    bob.page.locator("td.what a").first.click()
    bob.page.get_by_role("link", name="Correct this box").click()
    bob.page.wait_for_selector("#box-form")
    bob.page.fill("#hands-0-count", "16")
    bob.page.wait_for_selector("#preview .verdict:has-text('+21')")
    bob.page.get_by_role("button", name="Save the correction").click()
    bob.page.wait_for_url(SHEET_URL)
    for phone in (ann, cal):
        expect(phone.page.locator('td[data-player-total="Bob"]')).to_have_text("21")
    cal.page.locator("td.what a").first.click()
    cal.page.wait_for_selector("main")
    assert cal.page.get_by_role("link", name="Correct this box").count() == 0
    assert cal.page.locator("form[action$='/delete']").count() == 0
    for phone in (ann, bob, cal):
        assert phone.errors == [], phone.errors


@pytest.mark.parametrize("choice", ["Record mine as box 2", "Keep theirs", "Replace box 1 with mine"])
def test_two_phones_save_the_same_box(live_server: str, browser: Any, choice: str) -> None:
    """Ann and Bob both enter box 1. Ann saves first; Bob's save names box 1, finds it
    taken and shows both boxes side by side (nothing saved twice, nothing typed lost);
    Bob records his as box 2, keeps Ann's, or replaces it with his."""
    ann, bob = Phone(browser), Phone(browser)
    sheet = _new_game(ann.page, live_server)
    bob.page.goto(_edit_link(ann.page, sheet))
    bob.page.get_by_role("button", name="Join as scorer").click()
    bob.page.wait_for_url(SHEET_URL)
    _open_box_form(ann.page, sheet)
    _open_box_form(bob.page, sheet)
    _fill_knock(ann.page, "Bob", [14, 4, 13])
    _fill_knock(bob.page, "Cal", [20, 25, 5])
    ann.page.wait_for_selector("#preview .ruling:not(.problem)")
    bob.page.wait_for_selector("#preview .ruling:not(.problem)")
    ann.page.locator("#save-box").click()
    ann.page.wait_for_url(SHEET_URL)
    bob.page.locator("#save-box").click()
    bob.page.wait_for_selector(f"text={TAKEN}")
    assert bob.page.locator(".side-by-side article").count() == 2
    assert "Saved by the other phone" in bob.page.inner_text(".side-by-side")
    expected = {
        "Record mine as box 2": ({"Ann": "0", "Bob": "19", "Cal": "35"}, 2),
        "Keep theirs": ({"Ann": "0", "Bob": "19", "Cal": "0"}, 1),
        "Replace box 1 with mine": ({"Ann": "0", "Bob": "0", "Cal": "35"}, 1),
    }[choice]
    if choice == "Record mine as box 2":  # it asks before it stores
        bob.page.locator("summary", has_text=choice).click()
        choice = "Yes, store it as box 2"
    bob.page.get_by_role("button" if choice != "Keep theirs" else "link", name=choice).click()
    bob.page.wait_for_url(SHEET_URL)
    assert bob.page.locator("tbody td.what").count() == expected[1]
    assert _totals(bob.page) == expected[0]
    assert ann.errors == [] and bob.errors == []


def test_the_app_without_javascript(live_server: str, browser: Any) -> None:
    """JavaScript off: start a game, record a box, correct it, delete it, share, check a
    hand: every step is a plain form or link."""
    phone = Phone(browser, javascript=False)
    page = phone.page
    sheet = _new_game(page, live_server)
    page.get_by_role("link", name="Record box 1").click()
    page.wait_for_selector("#box-form")
    _fill_knock(page, "Bob", [14, 4, 13])
    page.locator("#save-box").click()
    page.wait_for_url(SHEET_URL)
    assert _totals(page) == {"Ann": "0", "Bob": "19", "Cal": "0"}
    page.locator("td.what a").first.click()
    page.get_by_role("link", name="Correct this box").click()
    page.fill("#hands-0-count", "16")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(SHEET_URL)
    assert _totals(page) == {"Ann": "0", "Bob": "21", "Cal": "0"}
    page.locator("td.what a").first.click()
    page.locator("form[action$='/delete'] button").click()
    page.wait_for_url(SHEET_URL)
    assert _totals(page) == {"Ann": "0", "Bob": "0", "Cal": "0"}
    page.goto(sheet + "/share")
    assert "/join#" in page.content()
    page.goto(live_server + "/check")
    page.fill("input[name=typed]", "AS 2S 3S 7H 7D 7C 9D 10D JD 4C")
    page.locator("form button[type=submit]").first.click()
    expect(page.locator("main")).to_contain_text("count 4")
    assert phone.errors == []
