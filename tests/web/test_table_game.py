"""Issue 13's "done means": a whole Jersey Gin game played on two phones at once
(Chromium, 390 x 844) with everything that goes wrong at a table: both phones record
the same box (the side-by-side page), a connection drops during a save (lost before
the server, and lost after it stored the box), every write is tapped twice and sent
twice, undo (of a correction, of a deletion, and one that comes too late), and a
watcher who tries to write. At the end the sheet is the engine's score of the boxes
the table meant, no box missing or doubled."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import engine, store
from tests.web.browser import MARKS
from tests.web.table_phone import SHEET_URL, phone, shot, stored_game

pytestmark = MARKS
PLAYERS = ("Ann", "Bob", "Cal")
PENDING = ".pending:has-text('Not saved yet')"


def box(by: str, ann: int, bob: int, cal: int, ending: str = "knock") -> dict[str, Any]:
    """A box by counts, as CONTRACT.md has it."""
    return {
        "ending": ending,
        "by": by,
        "hands": {"Ann": {"count": ann}, "Bob": {"count": bob}, "Cal": {"count": cal}},
    }


def sent_twice(page: Any, pattern: str) -> None:
    """The next request to ``pattern`` reaches the server twice (a resend after a lost
    answer, or the second of a double tap that got through); the phone sees the second
    answer."""

    def twice(route: Any) -> None:
        route.fetch(max_redirects=0)
        route.fulfill(response=route.fetch(max_redirects=0))

    page.route(pattern, twice, times=1)


def double_tap(page: Any, selector: str, pattern: str) -> None:
    """A double tap on a write's button, whose request is also sent twice."""
    sent_twice(page, pattern)
    page.locator(selector).first.dblclick()


def open_form(page: Any) -> None:
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")


def fill(page: Any, entry: dict[str, Any]) -> None:
    """The box form filled as a scorer would: the ending, who, the counts; the preview
    ruling shown."""
    page.locator(f"input[name=ending][value={entry['ending']}] + span").click()
    page.locator(f"input[name=by][value={entry['by']}] + span").click()
    for index, player in enumerate(PLAYERS):
        count = entry["hands"][player]["count"]
        if entry["ending"] == "gin" and player == entry["by"]:
            continue
        page.fill(f"#hands-{index}-count", str(count))
    page.wait_for_selector("#preview .ruling:not(.problem)")


def record(page: Any, entry: dict[str, Any]) -> None:
    """From the sheet: record a box, Save tapped twice and sent twice."""
    open_form(page)
    fill(page, entry)
    double_tap(page, "#save-box", "**/boxes/new")
    on_sheet(page)


def on_sheet(page: Any) -> None:
    """Wait for the sheet after a write: its URL (a resent write's second answer may
    restart the navigation) and its table, from the server (a phone back online may first
    be shown the worker's kept copy, which opens itself again once the server answers)."""
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(page).to_have_url(SHEET_URL, timeout=15_000)
    expect(page.locator("main.offline")).to_have_count(0, timeout=15_000)
    page.wait_for_selector("#sheet")


def sheet_rows(page: Any) -> int:
    return int(page.locator("#sheet tbody td.what").count())


def sheet_totals(page: Any) -> dict[str, int]:
    cells = page.locator("td[data-player-total]")
    return {
        cells.nth(i).get_attribute("data-player-total"): int(cells.nth(i).inner_text())
        for i in range(cells.count())
    }


def engine_score(boxes: list[dict[str, Any]]) -> dict[str, Any]:
    return dict(
        engine.score({"rules": "jersey-scarne", "players": list(PLAYERS), "dealer": "Ann", "boxes": boxes})
    )


def wait_for_boxes(page: Any, boxes: int) -> None:
    """The phone's sheet (polled) shows this many boxes."""
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(page.locator("#sheet tbody td.what")).to_have_count(boxes, timeout=15_000)


def start_by_double_tap(page: Any, base: str) -> str:
    page.goto(base + "/games/new")
    assert page.inner_text(".when-where summary") == "Place and time (printed on the score sheet)"
    assert page.inner_text(".house-rules > summary").startswith("House rules and stake (")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#players-{seat}", name)
    double_tap(page, "#game-form button.primary", "**/games/new**")
    on_sheet(page)
    return str(page.url)


def edit_link(page: Any, sheet: str) -> str:
    page.goto(sheet + "/share")
    link = page.locator("input[value*='/join#']").first.get_attribute("value")
    assert link
    page.goto(sheet)
    return str(link)


def open_box(page: Any, number: int) -> None:
    page.locator("#sheet tbody tr").nth(number - 1).locator("td a").first.click()
    page.wait_for_selector(".box-detail")


def undo(page: Any, says: str) -> None:
    page.wait_for_selector("#undo-bar button")
    double_tap(page, "#undo-bar button", "**/undo")
    page.wait_for_selector(f"#undo-bar:has-text('{says}')")


def games_stored(database: Path) -> int:
    with store.opened(f"sqlite:///{database}") as db:
        return sum(1 for _ in store.all_game_ids(db))


def test_a_whole_jersey_game_on_two_phones(live_server: str, browser: Any, tmp_path: Path) -> None:
    ann, bob, watcher = phone(browser), phone(browser), phone(browser)
    for page in (ann, bob, watcher):
        page.context.set_default_timeout(15_000)
        page.on("dialog", lambda dialog: dialog.accept())  # "Delete this box?"
    meant: list[dict[str, Any]] = []

    # Ann starts the game with a double tap: one game.
    sheet = start_by_double_tap(ann, live_server)
    assert games_stored(tmp_path / "browser.sqlite3") == 1
    bob.goto(edit_link(ann, sheet))
    bob.get_by_role("button", name="Join as scorer").click()  # the join link asks first
    on_sheet(bob)
    watcher.goto(sheet)

    # Box 1: Ann's phone, Save tapped twice.
    meant.append(box("Bob", 14, 4, 13))
    record(ann, meant[-1])
    wait_for_boxes(bob, 1)

    # Box 2: both phones enter it. Ann saves first; Bob's save finds box 2 taken, sees
    # both side by side and replaces it with his (tapped twice).
    open_form(ann)
    open_form(bob)
    fill(ann, box("Cal", 20, 25, 5))
    fill(bob, box("Ann", 0, 10, 8, "gin"))
    ann.locator("#save-box").click()
    on_sheet(ann)
    bob.locator("#save-box").click()
    bob.wait_for_selector("text=Box 2 was saved on another phone")
    assert bob.locator(".side-by-side article").count() == 2
    shot(bob, "game-side-by-side")
    meant.append(box("Ann", 0, 10, 8, "gin"))
    double_tap(bob, "button:has-text('Replace box 2 with mine')", "**/boxes/*/edit")
    on_sheet(bob)
    assert sheet_rows(bob) == 2

    # Box 3: Bob's phone stores the box but the answer is lost; the phone keeps it and
    # sends it again (same key) with Retry, tapped twice: one box.
    meant.append(box("Cal", 12, 15, 3))
    open_form(bob)
    fill(bob, meant[-1])

    def lose_answer(route: Any) -> None:
        route.fetch()
        route.abort("connectionreset")

    bob.route("**/boxes/new", lose_answer, times=1)
    bob.locator("#save-box").click()
    bob.wait_for_selector(PENDING)
    shot(bob, "game-not-saved-yet")
    bob.locator(".pending .retry").dblclick()
    on_sheet(bob)
    assert sheet_rows(bob) == 3

    # Box 4: Ann's phone is offline when she saves; it is sent when it comes back.
    wait_for_boxes(ann, 3)
    meant.append(box("Ann", 2, 10, 9))
    open_form(ann)
    fill(ann, meant[-1])
    ann.context.set_offline(True)
    ann.locator("#save-box").click()
    ann.wait_for_selector(PENDING)
    ann.context.set_offline(False)
    on_sheet(ann)
    assert sheet_rows(ann) == 4

    # Ann corrects box 1 (tapped twice), then undoes it (tapped twice).
    open_box(ann, 1)
    ann.get_by_role("link", name="Correct this box").click()
    ann.wait_for_selector("#box-form")
    ann.fill("#hands-0-count", "16")
    ann.wait_for_selector("#preview .verdict:has-text('+21')")
    double_tap(ann, "#save-box", "**/boxes/*/edit")
    on_sheet(ann)
    assert sheet_totals(ann)["Bob"] == engine_score([box("Bob", 16, 4, 13), *meant[1:]])["totals"]["Bob"]
    undo(ann, "Undone: box 1 is back as it was.")
    assert sheet_totals(ann) == engine_score(meant)["totals"]

    # Ann deletes box 3 (sent twice), then undoes the deletion: it is back in place.
    open_box(ann, 3)
    sent_twice(ann, "**/delete")  # the confirm dialog takes a second tap: the resend
    ann.locator("button:has-text('Delete this box')").click()
    on_sheet(ann)
    assert sheet_rows(ann) == 3
    shot(ann, "game-undo-delete")
    undo(ann, "Undone: box 3 is back on the sheet.")
    assert sheet_rows(ann) == 4 and sheet_totals(ann) == engine_score(meant)["totals"]

    # Box 5 by Ann, box 6 by Bob before Ann thought of undoing: too late for Ann.
    meant.append(box("Bob", 11, 1, 10))
    record(ann, meant[-1])
    wait_for_boxes(bob, 5)
    meant.append(box("Cal", 20, 18, 6))
    record(bob, meant[-1])
    ann.wait_for_selector("#undo-bar:has-text('can no longer be undone')")
    assert ann.locator("#undo-bar button").count() == 0
    shot(ann, "game-undo-too-late")

    # The watcher cannot write: no record button, the box form refused, a box posted
    # with the watcher's own CSRF token refused; nothing stored.
    wait_for_boxes(watcher, 6)
    assert watcher.locator(".record-bar").count() == 0
    assert watcher.goto(sheet + "/boxes/new").status == 403
    watcher.goto(sheet + "/share")
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', watcher.content())
    if token is not None:
        refused = watcher.request.post(
            sheet + "/boxes/new", form={"csrf_token": token.group(1), "ending": "misdeal", "number": "7"}
        )
        assert refused.status == 403
    assert len(stored_game(watcher, sheet)["boxes"]) == 6

    # Boxes 7 and 8 end the game.
    wait_for_boxes(ann, 6)
    meant.append(box("Bob", 30, 2, 25))
    record(ann, meant[-1])
    meant.append(box("Ann", 0, 20, 30, "gin"))
    record(ann, meant[-1])

    # The sheet is the engine's score of the boxes meant: none missing, none doubled.
    score = engine_score(meant)
    assert score["game_over"]
    for page in (ann, bob, watcher):
        page.goto(sheet)
        assert sheet_rows(page) == len(meant)
        assert sheet_totals(page) == score["totals"]
        finals = page.locator("td[data-final]")
        assert {
            finals.nth(i).get_attribute("data-final"): int(finals.nth(i).inner_text())
            for i in range(finals.count())
        } == score["final_totals"]
    stored = stored_game(ann, sheet)
    assert [(b["ending"], b["by"], b["hands"]) for b in stored["boxes"]] == [
        (b["ending"], b["by"], b["hands"]) for b in meant
    ]
    assert games_stored(tmp_path / "browser.sqlite3") == 1
    shot(ann, "game-over", full_page=True)
    allowed = ("htmx:afterRequest", "htmx:sendError", "net::ERR_", "status of 409", "status of 403")
    for page in (ann, bob, watcher):
        assert [e for e in page.script_errors if not any(a in e for a in allowed)] == []
