"""Recording a box on a phone (issue 13): "Record box N" within reach, counts that move
on by themselves, the likely knocker preselected, and the tap targets the issue sets."""

from __future__ import annotations

from typing import Any

from benchmarks import taps
from tests.web.browser import MARKS
from tests.web.table_phone import open_game, phone, shot, stored_game

pytestmark = MARKS


def _misdeals(count: int) -> dict[str, Any]:
    return {**taps.JERSEY, "boxes": [{"ending": "misdeal"} for _ in range(count)]}


def test_record_box_n_is_pinned_at_the_foot_of_a_long_sheet(live_server: str, browser: Any) -> None:
    page = phone(browser)
    open_game(page, live_server, _misdeals(14))
    link = page.get_by_role("link", name="Record box 15")
    for scroll in (0, 600):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        box = link.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        assert box["height"] >= 44
        covered = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('a')?.textContent",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert covered == "Record box 15"
    shot(page, "sheet-long")
    assert page.script_errors == []


def test_a_knock_by_counts_takes_at_most_six_taps(live_server: str, browser: Any) -> None:
    """Knock and the player who plays first are preselected; each count moves on to the
    next player when it is complete (two digits, or a knocker's digit above 1)."""
    page = phone(browser)
    sheet = open_game(page, live_server)
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")
    counts = page.locator("input.count")
    assert counts.count() == 3
    for i in range(3):
        # the page's own keypad types counts (the phone's keyboard stays closed)
        assert counts.nth(i).get_attribute("inputmode") == "none"
    assert page.locator("input[name=ending][value=knock]").is_checked()
    assert page.locator("input[name=by][value=Bob]").is_checked()
    assert "Preselected: Bob, who plays first" in page.locator("fieldset.by").inner_text()
    shot(page, "record-preselected")
    page.go_back()
    page.wait_for_selector("#sheet")

    first = taps.knock_box_by_counts(page)
    assert first.taps <= taps.KNOCK_TARGET and first.digits == 5, first.log
    second = taps.knock_box_by_counts(page, "Cal")
    assert second.taps <= taps.KNOCK_TARGET and second.digits == 5, second.log
    boxes = stored_game(page, sheet)["boxes"]
    assert [(b["ending"], b["by"]) for b in boxes] == [("knock", "Bob"), ("knock", "Cal")]
    assert {p: h["count"] for p, h in boxes[0]["hands"].items()} == {"Ann": 14, "Bob": 4, "Cal": 13}
    assert {p: h["count"] for p, h in boxes[1]["hands"].items()} == {"Ann": 14, "Bob": 13, "Cal": 4}
    assert page.script_errors == []


def test_a_single_digit_count_moves_on_with_the_next_key(live_server: str, browser: Any) -> None:
    """A defender's 5 could be the start of 50: the keypad's "next" key moves on."""
    page = phone(browser)
    open_game(page, live_server)
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")
    page.locator("#hands-0-count").click()
    page.keyboard.type("5")
    assert page.evaluate("document.activeElement.id") == "hands-0-count"
    assert page.locator("#hands-0-count").get_attribute("enterkeyhint") == "next"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "hands-1-count"
    page.keyboard.type("1")  # Bob knocks: 1 may still be 10
    assert page.evaluate("document.activeElement.id") == "hands-1-count"
    page.keyboard.type("0")
    assert page.evaluate("document.activeElement.id") == "hands-2-count"
    assert page.url.endswith("/boxes/new")  # Enter did not submit the form


def test_a_full_showdown_by_cards_takes_at_most_thirty_taps(live_server: str, browser: Any) -> None:
    page = phone(browser)
    sheet = open_game(page, live_server)
    played = taps.showdown_by_cards(page)
    assert played.taps <= taps.SHOWDOWN_TARGET, played.log
    box = stored_game(page, sheet)["boxes"][0]
    expected = {
        "Ann": {"9H", "10H", "JH", "QH", "KS", "KH", "KC", "5S", "6C", "8D"},
        "Bob": {"7S", "8S", "9S", "4H", "4C", "4D", "JD", "QD", "KD", "2C"},
        "Cal": {"AD", "2D", "3D", "3S", "5H", "7C", "8C", "10D", "QC", "6S"},
    }
    for player, cards in expected.items():
        hand = box["hands"][player]
        held = set(hand.get("cards") or [])
        held |= {card for meld in hand.get("melds") or [] for card in meld}
        held |= set(hand.get("deadwood") or [])
        held |= {layoff["card"] for layoff in hand.get("layoffs") or []}
        assert held == cards, (player, hand)
    assert box["ending"] == "knock" and box["by"] == "Bob"
    assert page.script_errors == []
