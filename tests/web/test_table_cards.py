"""The card grid on a phone (issue 13): 13 ranks a row, cells as large as the row
allows, red and black picks told apart by more than colour, the grid closing at the
hand size, melds in two taps, the Oklahoma upcard tapped; and a preview that marks
the fields it names."""

from __future__ import annotations

from typing import Any

from tests.web.browser import MARKS
from tests.web.table_phone import open_game, phone, shot, stored_game

pytestmark = MARKS

JERSEY = {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann", "boxes": []}


def _record_page(page: Any, base: str, game: dict[str, Any] | None = None) -> str:
    sheet = open_game(page, base, game or JERSEY)
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")
    return sheet


def _tap(page: Any, hand: int, *cards: str) -> None:
    for card in cards:
        page.locator(f"#hand-{hand} input[value='{card}'] + span").click()


def test_two_lines_a_suit_and_picks_told_apart(live_server: str, browser: Any) -> None:
    """Each suit on two lines, A to 7 and 8 to K, every card at least 44 x 44 px at
    390 px wide (issue 22: a thumb's target)."""
    page = phone(browser)
    _record_page(page, live_server)
    summary = page.locator("#hand-0 details.cards summary")
    assert summary.inner_text() == "Tap Ann's cards"  # as laid out: a flex item once lost its space
    summary.click()
    rows = page.locator("#hand-0 .suit-row")
    assert rows.count() == 4
    for r in range(4):
        cells = rows.nth(r).locator(".tap span")
        boxes = [cells.nth(i).bounding_box() for i in range(13)]
        lines = sorted({round(b["y"]) for b in boxes})
        assert len(lines) == 2 and [round(b["y"]) for b in boxes[:7]] == [lines[0]] * 7
        row = rows.nth(r).bounding_box()
        assert max(b["x"] + b["width"] for b in boxes) <= row["x"] + row["width"] + 1
        for b in boxes:
            assert b["height"] >= 44 and b["width"] >= 44
    _tap(page, 0, "7S", "7H")
    black, red = (page.locator(f"#hand-0 input[value='{c}'] + span") for c in ("7S", "7H"))
    style = "e => getComputedStyle(e).borderTopStyle"
    assert black.evaluate(style) != red.evaluate(style)  # solid against double
    plain = page.locator("#hand-0 input[value='8S'] + span")
    background = "e => getComputedStyle(e).backgroundColor"
    assert black.evaluate(background) != plain.evaluate(background)
    shot(page, "grid")
    assert page.script_errors == []


def test_meld_taps_fill_a_run_and_a_set(live_server: str, browser: Any) -> None:
    page = phone(browser)
    _record_page(page, live_server)
    page.locator("#hand-0 details.cards summary").click()
    page.locator("#hand-0 .meld-toggle").click()
    _tap(page, 0, "3S", "6S")  # a run: 3♠ 4♠ 5♠ 6♠
    _tap(page, 0, "QS", "QD")  # a set down the column: Q♠ Q♥ Q♣ Q♦
    _tap(page, 0, "9H", "10H")  # two cards make no meld: both picked, nothing filled
    picked = page.locator("#hand-0 input:checked").evaluate_all("l => l.map(e => e.value)")
    assert sorted(picked) == sorted(["3S", "4S", "5S", "6S", "QS", "QH", "QC", "QD", "9H", "10H"])
    assert page.locator("#hand-0 [data-picked]").inner_text() == "10 cards"


def test_a_full_hand_closes_its_grid_and_opens_the_next(live_server: str, browser: Any) -> None:
    """Knock Rummy for three deals seven cards (K1): the grid closes at 7."""
    page = phone(browser)
    game = {"rules": "knock-rummy", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann", "boxes": []}
    _record_page(page, live_server, game)
    page.locator("#hand-0 details.cards summary").click()
    _tap(page, 0, "AS", "2S", "3S", "4S", "5S", "6S")
    assert page.locator("#hand-0 details.cards").evaluate("d => d.open")
    _tap(page, 0, "9D")
    assert not page.locator("#hand-0 details.cards").evaluate("d => d.open")
    assert page.locator("#hand-1 details.cards").evaluate("d => d.open")
    assert page.script_errors == []


def test_the_oklahoma_upcard_is_tapped_not_typed(live_server: str, browser: Any) -> None:
    page = phone(browser)
    game = {"rules": "oklahoma", "players": ["Ann", "Bob"], "dealer": "Ann", "boxes": []}
    sheet = _record_page(page, live_server, game)
    assert page.locator("input[name=upcard]:not([type=radio])").count() == 0
    assert page.locator("#upcard-grid input[type=radio]").count() == 52
    page.locator("#upcard-grid input[value='7C'] + span").click()
    page.locator("#hands-0-count").click()
    page.keyboard.type("6")  # Bob plays first and is preselected; Ann's count
    page.keyboard.press("Enter")
    page.keyboard.type("40")
    page.locator("input[name=by][value=Ann] + span").click()
    page.wait_for_selector("#preview .limit:has-text('7')")
    shot(page, "upcard")
    page.locator("#save-box").click()
    page.wait_for_url(sheet)
    box = stored_game(page, sheet)["boxes"][0]
    assert box["upcard"] == "7C" and box["by"] == "Ann"
    assert page.script_errors == []


def test_the_preview_marks_the_fields_it_names(live_server: str, browser: Any) -> None:
    page = phone(browser)
    _record_page(page, live_server)
    for bad in ("120", "-5"):
        page.locator("#hands-1-count").fill(bad)
        page.wait_for_selector("#preview [data-fault='hands-1-count']")
        assert "Check the fields marked" in page.locator("#preview").inner_text()
        assert page.locator("#hands-1-count").get_attribute("aria-invalid") == "true"
        assert "invalid" in (page.locator("#hand-1").get_attribute("class") or "")
    shot(page, "preview-marks")
    page.locator("#hands-1-count").fill("4")
    page.locator("#hands-0-count").fill("14")
    page.locator("#hands-2-count").fill("13")
    page.wait_for_selector("#preview .ruling:not(.problem)")
    assert page.locator("#box-form .invalid").count() == 0
    assert page.locator("#hands-1-count").get_attribute("aria-invalid") == "false"
