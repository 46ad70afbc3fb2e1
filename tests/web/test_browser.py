"""End to end in real headless Chromium at a phone's size (360 x 740): a whole Jersey
Gin game played through the pages, counts for some boxes and tapped cards for others,
one correction, and a second phone that watches the sheet update by itself."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import MARKS, SHEET_URL, screenshot

pytestmark = MARKS


def _phone(browser: Any) -> Any:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "status of 422" not in m.text else None,
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.script_errors = errors  # 422 previews of half-entered boxes are expected
    return page


def _shot(page: Any, name: str) -> None:
    screenshot(page, name, full_page=True)


def _open_cards(page: Any, index: int) -> None:
    """Open a hand's card grid unless it is open (a full hand opens the next by itself)."""
    if not page.locator(f"#hand-{index} details.cards").evaluate("d => d.open"):
        page.locator(f"#hand-{index} details.cards summary").click()


def _record(
    page: Any,
    ending: str,
    by: str,
    counts: dict[str, int],
    cards: dict[str, list[str]] | None = None,
    shot: str | None = None,
) -> None:
    """Fill the box form: the ending, who, counts typed, cards tapped; then save."""
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")
    page.locator(f"input[name=ending][value={ending}] + span").click()
    page.locator(f"input[name=by][value={by}] + span").click()
    players = page.locator("fieldset.hand > legend").all_inner_texts()
    for player, count in counts.items():
        index = players.index(player)
        page.fill(f"#hands-{index}-count", str(count))
    for player, codes in (cards or {}).items():
        index = players.index(player)
        _open_cards(page, index)
        for code in codes:
            page.locator(f"#hand-{index} input[value='{code}'] + span").click()
    page.wait_for_selector("#preview .ruling:not(.problem)")
    if shot:
        _shot(page, shot)
    page.locator("#save-box").click()
    page.wait_for_url(SHEET_URL)
    page.wait_for_selector("#sheet")


def _totals(page: Any) -> dict[str, str]:
    cells = page.locator("td[data-player-total]")
    return {
        cells.nth(i).get_attribute("data-player-total"): cells.nth(i).inner_text().strip()
        for i in range(cells.count())
    }


def test_a_whole_jersey_gin_game_on_a_phone(live_server: str, browser: Any) -> None:
    page = _phone(browser)
    page.goto(live_server + "/")
    _shot(page, "01-home")
    page.get_by_role("link", name="New game").first.click()
    page.wait_for_selector("#game-form")
    for seat, name in enumerate(["Ann", "Bob", "Cal"]):
        page.fill(f"#players-{seat}", name)
    page.locator("details.house-rules > summary").click()
    page.fill("#setting_underknock_bonus", "10")
    page.fill("#stake", "0.05")
    _shot(page, "02-new-game")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SHEET_URL)
    sheet_url = page.url
    assert (
        "Ann deals next" in page.locator(".next").inner_text().replace("\n", " ")
        or "Ann" in page.locator(".next").inner_text()
    )

    watcher = _phone(browser)
    watcher.goto(sheet_url)
    assert "You are watching this game" in watcher.content()

    # 1. Bob knocks; counts only (J6): (13-4) + (14-4) = 19.
    _record(page, "knock", "Bob", {"Ann": 14, "Bob": 4, "Cal": 13}, shot="03-box-counts")
    assert _totals(page) == {"Ann": "0", "Bob": "19", "Cal": "0"}
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(watcher.locator('td[data-player-total="Bob"]')).to_have_text("19", timeout=10_000)

    # 2. Cal goes gin with tapped cards (J9): 20 + 25 + 40 = 85.
    gin = ["AS", "2S", "3S", "4S", "5H", "5D", "5C", "9H", "10H", "JH"]
    _record(page, "gin", "Cal", {"Ann": 20, "Bob": 25}, {"Cal": gin}, shot="04-box-gin-cards")
    assert _totals(page) == {"Ann": "0", "Bob": "19", "Cal": "85"}

    # 3. Ann knocks with 8, Bob underknocks with 5 (J7): (8-5) + (30-5) + 10 = 38.
    _record(page, "underknock" if False else "knock", "Ann", {"Ann": 8, "Bob": 5, "Cal": 30})
    assert _totals(page) == {"Ann": "0", "Bob": "57", "Cal": "85"}

    # 4. The break, Ann breaker and lowest (J12): (12-6) + (9-6) = 9.
    _record(page, "break", "Ann", {"Ann": 6, "Bob": 12, "Cal": 9})
    assert _totals(page) == {"Ann": "9", "Bob": "57", "Cal": "85"}

    # One correction: box 1, Ann had 16, not 14. Bob's credit becomes 21.
    page.locator("td.what a").first.click()
    page.get_by_role("link", name="Correct this box").click()
    page.wait_for_selector("#box-form")
    page.fill("#hands-0-count", "16")
    page.wait_for_selector("#preview .verdict:has-text('+21')")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(SHEET_URL)
    assert _totals(page) == {"Ann": "9", "Bob": "59", "Cal": "85"}
    assert "changed 1×" in page.locator("tbody tr").first.inner_text()

    # 5. Cal knocks with 5 (cards tapped for Cal and Bob); Bob 15, Ann 20: 10 + 15 = 25.
    cal = ["AH", "2H", "3H", "7C", "7D", "7S", "QC", "QD", "QS", "5C"]
    bob = ["2S", "3S", "4S", "5S", "9C", "9D", "9H", "KC", "3C", "2D"]
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")
    _open_cards(page, 2)
    page.locator("#hand-2 input[value='7C'] + span").click()
    assert page.locator("#hand-1 input[value='7C']").is_disabled()
    page.go_back()
    page.wait_for_selector("#sheet")
    _record(page, "knock", "Cal", {"Ann": 20}, {"Cal": cal, "Bob": bob}, shot="05-box-knock-cards")
    assert _totals(page) == {"Ann": "9", "Bob": "59", "Cal": "110"}

    # The end (J14-J16): Cal wins, 100 game bonus, 25 a box; nobody shut out.
    end = page.locator("section.end")
    assert "Game over: Cal wins" in end.inner_text()
    finals = {
        cell.get_attribute("data-final"): cell.inner_text() for cell in page.locator("td[data-final]").all()
    }
    assert finals == {"Ann": "34", "Bob": "109", "Cal": "260"}
    settlement = page.locator("ul.settlement").inner_text()
    assert "Ann pays Cal 226 points" in settlement
    assert "Bob pays Cal 151 points" in settlement
    assert "Ann pays Bob 75 points" in settlement
    _shot(page, "06-game-over")
    watcher.wait_for_selector("section.end", timeout=10_000)
    _shot(watcher, "07-watcher")
    assert page.script_errors == [] and watcher.script_errors == []


def test_the_knocker_picks_another_meld_split(live_server: str, browser: Any) -> None:
    """C8 on a phone: the preview offers the other legal splits; tapping one re-rules
    the box live (htmx), and saving stores exactly that split."""
    from scorekeeper import engine

    page = _phone(browser)
    page.goto(live_server + "/games/new?rules=gin")
    page.wait_for_selector("#game-form")
    page.fill("#players-0", "Ann")
    page.fill("#players-1", "Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SHEET_URL)
    assert "Ann deals next; Bob plays first" in page.locator(".next").inner_text()
    ann = ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]
    bob = ["KH", "KC", "KS", "AH", "AD", "2C", "2H", "3D", "4H", "4S"]
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")
    page.locator("input[name=by][value=Ann] + span").click()
    for index, codes in ((0, ann), (1, bob)):
        _open_cards(page, index)
        for code in codes:
            page.locator(f"#hand-{index} input[value='{code}'] + span").click()
    page.wait_for_selector("#preview .verdict:has-text('+9')")
    assert "Bob lays off" in page.locator("#preview .layoffs").inner_text()
    page.locator("#splits-0 summary").click()
    split = "7C.7D.7H|9D.10D.JD"
    page.locator(f"#splits-0 input[value='{split}'] + span").click()
    page.wait_for_selector("#preview .verdict:has-text('+7')")
    assert page.locator(f"#splits-0 input[value='{split}']").is_checked()
    assert page.locator("#preview .layoffs").count() == 0
    _shot(page, "08-meld-split")
    page.locator("#save-box").click()
    page.wait_for_url(SHEET_URL)
    assert _totals(page) == {"Ann": "7", "Bob": "0"}
    game = page.request.get(page.url + "/export.json").json()
    box = game["boxes"][0]
    assert box["hands"]["Ann"]["melds"] == [["7C", "7D", "7H"], ["9D", "10D", "JD"]]
    ruling = engine.adjudicate({"rules": "gin", "players": ["Ann", "Bob"], **box})
    assert ruling["points"] == 7 and page.script_errors == []
