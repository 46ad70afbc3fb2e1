"""A phone that loses the server while saving (Chromium at 390 x 844): the box stays on
the phone (localStorage, across a reload) with a "not saved yet" state and is sent once
when the connection returns, with the same idempotency key, so a save whose answer was
lost is not stored twice. And the Undo bar after a save, with and without htmx."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.browser import MARKS
from tests.web.table_phone import SHEET_URL, open_game, phone, shot, stored_game

pytestmark = MARKS
PENDING = ".pending:has-text('Not saved yet')"


def _knock(page: Any, counts: tuple[int, int, int] = (14, 4, 13), by: str = "") -> None:
    """Box form open: Bob (preselected) or ``by`` knocks; the counts typed."""
    page.locator(".record-bar a").click()
    page.wait_for_selector("#box-form")
    if by:
        page.locator(f"input[name=by][value={by}] + span").click()
    for index, count in enumerate(counts):
        page.fill(f"#hands-{index}-count", str(count))
    page.wait_for_selector("#preview .ruling:not(.problem)")


def _unexpected(errors: list[str]) -> list[str]:
    """Script errors other than the failed send itself (htmx logs it, as does Chromium)."""
    expected = ("htmx:afterRequest", "htmx:sendError", "net::ERR_")
    return [e for e in errors if not any(mark in e for mark in expected)]


def _kept(page: Any) -> int:
    return int(
        page.evaluate("""() => Object.keys(localStorage)
        .filter(k => k.startsWith('scorekeeper:pending:')).length""")
    )


def test_offline_save_is_kept_and_sent_once_back_online(live_server: str, browser: Any) -> None:
    page = phone(browser)
    sheet = open_game(page, live_server)
    _knock(page)
    page.context.set_offline(True)
    page.locator("#save-box").click()
    page.wait_for_selector(PENDING)
    assert _kept(page) == 1 and page.url.endswith("/boxes/new")
    shot(page, "offline-pending")
    page.context.set_offline(False)  # the online event sends it
    page.wait_for_url(SHEET_URL)
    assert _kept(page) == 0
    assert len(stored_game(page, sheet)["boxes"]) == 1
    # The sheet the save opens shows the box. Chromium may tell the worker that the phone
    # is online a moment after the page, so the worker may first answer the kept copy
    # ("Not connected"), which opens itself again once the server answers.
    expect(page.locator('td[data-player-total="Bob"]')).to_have_text("19", timeout=15_000)
    expect(page.locator(".offline-note")).to_have_count(0)
    assert _unexpected(page.script_errors) == []


def test_a_lost_answer_is_resent_after_a_reload_and_stored_once(live_server: str, browser: Any) -> None:
    """The save reaches the server but its answer is lost: the phone keeps the box; the
    scorer reloads the page, which puts the entry back (same key) and sends it; the
    server answers the first save's result, so there is one box."""
    page = phone(browser)
    sheet = open_game(page, live_server)
    _knock(page, (20, 25, 5), by="Cal")
    key = page.input_value("#key")

    def lose_answer(route: Any) -> None:
        route.fetch()  # the server stores the box ...
        route.abort("connectionreset")  # ... and the phone never hears back

    page.route("**/boxes/new", lose_answer)
    page.locator("#save-box").click()
    page.wait_for_selector(PENDING)
    page.unroute("**/boxes/new")
    assert len(stored_game(page, sheet)["boxes"]) == 1
    page.reload()  # a fresh form: the kept entry goes back in and is sent
    page.wait_for_url(SHEET_URL)
    game = stored_game(page, sheet)
    assert len(game["boxes"]) == 1 and game["boxes"][0]["by"] == "Cal"
    assert _kept(page) == 0
    page.goto(sheet + "/boxes/new")
    assert page.input_value("#key") != key  # the next box gets a key of its own


def test_retry_button_sends_once(live_server: str, browser: Any) -> None:
    page = phone(browser)
    sheet = open_game(page, live_server)
    _knock(page)
    page.route("**/boxes/new", lambda route: route.abort("internetdisconnected"))
    page.locator("#save-box").click()
    page.wait_for_selector(PENDING)
    page.unroute("**/boxes/new")
    page.locator(".pending .retry").dblclick()  # an impatient double tap
    page.wait_for_url(SHEET_URL)
    assert len(stored_game(page, sheet)["boxes"]) == 1
    assert _unexpected(page.script_errors) == []


def test_undo_bar_after_a_save(live_server: str, browser: Any) -> None:
    """With htmx (the join link needs JavaScript; without it the same plain POST forms
    are tested through the test client, tests/web/test_undo_page.py)."""
    page = phone(browser)
    sheet = open_game(page, live_server)
    page.goto(sheet + "/boxes/new")
    for index, count in enumerate((14, 4, 13)):
        page.fill(f"#hands-{index}-count", str(count))
    page.locator("#save-box").click()
    page.wait_for_url(SHEET_URL)
    bar = page.locator("#undo-bar")
    assert "Box 1 saved." in bar.inner_text()
    shot(page, "undo-bar")
    bar.get_by_role("button", name="Undo").click()
    page.wait_for_url(SHEET_URL)
    page.wait_for_selector("#undo-bar:has-text('Undone: box 1 is off the sheet.')")
    assert stored_game(page, sheet)["boxes"] == []
    assert page.locator("#undo-bar button").count() == 0


def test_a_new_game_started_offline_is_kept_and_started_once(live_server: str, browser: Any) -> None:
    page = phone(browser)
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(("Ann", "Bob", "Cal")):
        page.fill(f"#players-{seat}", name)
    page.context.set_offline(True)
    page.locator("#game-form button.primary").click()
    page.wait_for_selector(PENDING)
    assert _kept(page) == 1
    page.context.set_offline(False)
    page.wait_for_url(SHEET_URL)
    assert stored_game(page, page.url)["players"] == ["Ann", "Bob", "Cal"]
    assert _kept(page) == 0 and _unexpected(page.script_errors) == []


def _worker_controls(page: Any) -> None:
    """The service worker answers this page's requests (it is active on 127.0.0.1)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def _kept_by_worker(page: Any, part: str) -> None:
    page.wait_for_function(
        "part => caches.open('scorekeeper-v1').then(c => c.keys())"
        ".then(k => k.some(r => r.url.includes(part)))",
        arg=part,
    )


def test_a_box_entered_offline_in_the_workers_form_is_stored_once_back_online(
    live_server: str, browser: Any
) -> None:
    """Issue 33: the worker kept the box form as last opened online, its key with it; a
    save online spent that key, and the box entered offline in the kept form was
    refused when resent ("This form was already used") and never stored. The form the
    worker serves offline carries a key made on the phone (and the kept sheet's next
    box number): online save, offline entry, back online, exactly the boxes entered."""
    page = phone(browser)
    sheet = open_game(page, live_server)
    _worker_controls(page)
    _knock(page)  # the form, opened online: the worker keeps it, its key with it
    _kept_by_worker(page, "/boxes/new")
    online_key = page.input_value("#key")
    page.locator("#save-box").click()
    page.wait_for_url(SHEET_URL)
    page.wait_for_selector("#sheet[data-version]")
    _kept_by_worker(page, "/offline/games/")
    assert len(stored_game(page, sheet)["boxes"]) == 1

    page.context.set_offline(True)
    page.goto(sheet + "/boxes/new")  # served by the worker
    assert page.locator("#box-form").count() == 1
    offline_key = page.input_value("#key")
    assert offline_key and offline_key != online_key
    assert page.input_value("#number") == "2"
    page.locator("input[name=by][value=Cal] + span").click()
    for index, count in enumerate((20, 25, 5)):
        page.fill(f"#hands-{index}-count", str(count))
    page.locator("#save-box").click()
    page.wait_for_selector(PENDING)
    assert _kept(page) == 1
    page.context.set_offline(False)  # the online event sends it
    page.wait_for_url(SHEET_URL)
    assert _kept(page) == 0
    boxes = stored_game(page, sheet)["boxes"]
    assert [box["by"] for box in boxes] == ["Bob", "Cal"]
    assert [box["hands"]["Cal"]["count"] for box in boxes] == [13, 5]
    page.reload()  # nothing is sent again
    page.wait_for_selector("#sheet")
    assert len(stored_game(page, sheet)["boxes"]) == 2
