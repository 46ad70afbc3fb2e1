"""Starting a game on a phone (issue 13): players and game on one screen above the start
button, house rules folded away in plain words with the book's value, errors at the
top where the eye is, and Scarne's cut that keeps its choice and shows the seats."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import MARKS, SHEET_URL
from tests.web.table_phone import phone, shot, stored_game

pytestmark = MARKS


@pytest.mark.parametrize("rules", ["jersey-scarne", "gin", "knock-rummy"])
def test_the_new_game_fits_one_phone_screen(live_server: str, browser: Any, rules: str) -> None:
    page = phone(browser)
    page.goto(f"{live_server}/games/new?rules={rules}")
    start = page.get_by_role("button", name="Start the game").bounding_box()
    assert start is not None and start["y"] + start["height"] <= 844, start
    assert (
        page.locator("#pick-rules").bounding_box()["y"]
        < page.locator("#players-0").bounding_box()["y"]
        < start["y"]
    )
    house = page.locator("details.house-rules")
    assert not house.evaluate("d => d.open")
    shot(page, f"new-{rules}")
    assert page.script_errors == []


def test_house_rules_are_in_plain_words_with_the_books_value(live_server: str, browser: Any) -> None:
    page = phone(browser)
    page.goto(f"{live_server}/games/new?rules=gin")
    page.locator("details.house-rules > summary").click()
    row = page.locator("tr", has=page.locator("#setting_underknock_bonus"))
    text = row.inner_text()
    assert "Bonus for an underknock or undercut" in text and "Book: 25 (Gin Rummy)" in text
    assert "underknock_bonus" not in text
    options = page.locator("#setting_stock_end option").all_inner_texts()
    assert "a draw at 2 cards" in options and "draw-2" not in options
    shot(page, "new-house-rules", full_page=True)


def test_form_errors_are_at_the_top_in_view_and_focused(live_server: str, browser: Any) -> None:
    page = phone(browser)
    page.goto(f"{live_server}/games/new")
    page.fill("#players-0", "Ann")
    page.locator("details.house-rules > summary").click()
    page.fill("#setting_underknock_bonus", "-5")
    page.get_by_role("button", name="Start the game").click()
    errors = page.locator("#form-errors")
    errors.wait_for()
    # The page focuses the errors once htmx has settled the swap: a moment after they appear.
    expect(errors).to_be_focused()
    box = errors.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    text = errors.inner_text()
    assert "Bonus for an underknock or undercut: Number must be between 0 and 1000" in text
    shot(page, "new-errors")


def test_scarnes_cut_keeps_its_choice_and_shows_the_seats(live_server: str, browser: Any) -> None:
    page = phone(browser)
    page.goto(f"{live_server}/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cal"]):
        page.fill(f"#players-{seat}", name)
    page.locator("details.cut summary").click()
    for seat, rank in enumerate(["5", "K", "9"]):
        page.select_option(f"#cuts-{seat}", rank)
    page.get_by_role("button", name="Use the cut").click()
    page.wait_for_selector("#seat-order")
    page.locator("input[name=cut_receives][value='0'] + span").click()  # Ann's discards
    page.wait_for_selector("#seat-order:has-text('3 Ann')")
    page.get_by_role("button", name="Use the cut").click()
    page.wait_for_selector("#seat-order:has-text('3 Ann')")
    assert page.locator("input[name=cut_receives][value='0']").is_checked()
    assert [page.locator(f"#cuts-{i}").input_value() for i in range(3)] == ["5", "K", "9"]
    order = page.locator("#seat-order").inner_text()
    assert "1 Bob" in order and "2 Cal" in order and "3 Ann" in order
    shot(page, "new-cut")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SHEET_URL)
    game = stored_game(page, page.url)
    assert game["players"] == ["Bob", "Cal", "Ann"] and game["dealer"] == "Bob"
    assert page.script_errors == []
