"""Card entry with a thumb (issue 22): every card a target of 44 x 44 px or more at
390 px, one tap a card; counts typed on the page's keypad, where a one-digit count
moves on with Next in as many taps as a two-digit one moves on by itself; the next
player's panel is not red while the first is still being entered."""

from __future__ import annotations

from typing import Any

from tests.web.browser import MARKS
from tests.web.table_phone import open_game, phone, shot

pytestmark = MARKS


def _form(page: Any, base: str) -> None:
    open_game(page, base)
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")


def _key(page: Any, key: str) -> None:
    page.locator(f".keypad button[data-key='{key}']").click()


def test_every_card_of_every_hand_is_a_thumbs_target(live_server: str, browser: Any) -> None:
    page = phone(browser)
    _form(page, live_server)
    for hand in range(3):
        details = page.locator(f"#hand-{hand} details.cards")
        if not details.evaluate("d => d.open"):
            page.locator(f"#hand-{hand} details.cards summary").click()
        cells = page.locator(f"#hand-{hand} .grid .tap span")
        assert cells.count() == 52
        sizes = cells.evaluate_all(
            "cells => cells.map(c => [c.getBoundingClientRect().width, c.getBoundingClientRect().height])"
        )
        assert min(w for w, _ in sizes) >= 44 and min(h for _, h in sizes) >= 44, sizes
    page.locator("#hand-0 input[value='9D'] + span").click()  # one tap, one card
    assert page.locator("#hand-0 .grid input:checked").evaluate_all("boxes => boxes.map(b => b.value)") == [
        "9D"
    ]
    assert page.script_errors == []


def test_counts_on_the_keypad_and_no_red_panel_ahead(live_server: str, browser: Any) -> None:
    page = phone(browser)
    _form(page, live_server)
    page.locator("#hands-0-count").click()
    keypad = page.locator(".keypad")
    assert keypad.is_visible()
    assert page.locator("#hand-0 .keypad").count() == 1  # under the count being typed
    # Ann 5: could be the start of 50, so Next moves on (one tap, as a second digit would)
    _key(page, "5")
    assert page.evaluate("document.activeElement.id") == "hands-0-count"
    page.wait_for_selector("#preview .problem")  # Bob's and Cal's counts are to come
    assert page.locator("fieldset.hand.invalid").count() == 0
    shot(page, "keypad")
    _key(page, "next")
    assert page.evaluate("document.activeElement.id") == "hands-1-count"
    assert page.locator("#hand-1 .keypad").count() == 1
    # Bob knocks with 4: nothing longer can follow, so it moves on by itself; Cal 13 too.
    _key(page, "4")
    assert page.evaluate("document.activeElement.id") == "hands-2-count"
    _key(page, "2")
    _key(page, "back")  # a slip taken back
    assert page.input_value("#hands-2-count") == ""
    _key(page, "1")
    _key(page, "3")
    assert page.evaluate("document.activeElement.id") == "save-box"
    assert not keypad.is_visible()
    values = [page.input_value(f"#hands-{i}-count") for i in range(3)]
    assert values == ["5", "4", "13"]
    page.wait_for_selector("#preview .ruling:not(.problem)")
    assert "+10" in page.inner_text("#preview")  # J6: (5-4) + (13-4)
    assert page.locator("fieldset.hand.invalid").count() == 0
    assert page.script_errors == []


def test_the_keypad_follows_the_field_the_finger_chose(live_server: str, browser: Any) -> None:
    """Issue 32: with the keypad open under Ann's count, a tap on Cal's count (further
    down: the keypad moves from above it) gives the keypad to Cal's field, and what is
    typed lands there; a tap elsewhere hides it and a tap on a count brings it back."""
    page = phone(browser)
    _form(page, live_server)
    page.locator("#hands-0-count").tap()
    assert page.locator("#hand-0 .keypad").count() == 1
    page.locator("#hands-2-count").scroll_into_view_if_needed()
    before = page.locator("#hands-2-count").bounding_box()
    page.locator("#hands-2-count").tap()
    after = page.locator("#hands-2-count").bounding_box()
    assert abs(after["y"] - before["y"]) < 2, (before, after)  # the field stayed under the finger
    assert page.locator(".keypad").is_visible()
    assert page.locator("#hand-2 .keypad").count() == 1
    assert page.evaluate("document.activeElement.id") == "hands-2-count"
    _key(page, "2")
    _key(page, "7")
    assert page.input_value("#hands-2-count") == "27"
    assert page.input_value("#hands-0-count") == ""
    page.locator("h1").first.tap()  # done with counts: the keypad goes
    assert not page.locator(".keypad").is_visible()
    page.locator("#hands-1-count").tap()
    assert page.locator("#hand-1 .keypad").is_visible()
    page.locator("#hands-1-count").tap()  # tapped again: it stays with the field
    assert page.locator("#hand-1 .keypad").is_visible()
    assert page.script_errors == []
