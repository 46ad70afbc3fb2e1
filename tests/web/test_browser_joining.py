"""Joining the table in headless Chromium at 390x844: the scorer's QR codes (they hold
the links shown beside them), Share where the phone has a share sheet and Copy where
not, the join link's confirm button, the scorers-only page with its code prompt, a
wrong code, the home page's "Join a game", renewing the codes. Screenshots of each
screen go to SCOREKEEPER_SCREENSHOTS when it is set (to look at them)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import segno

from scorekeeper.pdf.qr import QR_MASK
from tests.web.browser import MARKS, SHEET_URL, screenshot

pytestmark = MARKS
TIMEOUT_MS = 10_000


class Phone:
    """One phone (its own cookies) at 390x844; script and CSP errors are collected."""

    def __init__(self, browser: Any, share_sheet: bool = False) -> None:
        self.context = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        self.context.set_default_timeout(TIMEOUT_MS)
        if share_sheet:  # a phone with a share sheet: record what it is asked to share
            self.context.add_init_script(
                "window.shared = []; navigator.share = function (data) {"
                " window.shared.push(data); return Promise.resolve(); };"
            )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        refused = ("status of 403", "status of 429")  # the pages that refuse, by design
        if message.type == "error" and not any(r in message.text for r in refused):
            self.errors.append(message.text)

    def shot(self, name: str) -> None:
        screenshot(self.page, name, full_page=True)


def _new_game(page: Any, base: str) -> str:
    page.goto(base + "/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cal"]):
        page.fill(f"#players-{seat}", name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SHEET_URL)
    return str(page.url)


def _svg_path(svg: str) -> str:
    match = re.search(r' d="([^"]+)"', svg)
    assert match is not None, svg[:200]
    return match.group(1)


def test_scorer_shows_qr_codes_and_a_watcher_joins_by_them(browser: Any, live_server: str) -> None:
    """Ann's sheet has two QR codes, each the very link beside it (drawn again by segno
    and compared), each an image from its own address: Bob, watching, reads the watch
    code but not the join code; Bob opens the join link (the code in its fragment): the page fills
    the code in, drops it from the address, and only the button makes Bob a scorer."""
    ann, bob = Phone(browser), Phone(browser)
    sheet = _new_game(ann.page, live_server)
    invite = ann.page.locator("#invite")
    invite.scroll_into_view_if_needed()
    ann.shot("1-sheet-invite")
    join_link = ann.page.locator("#join-link").input_value()
    watch_link = ann.page.locator("#watch-link").input_value()
    assert watch_link == sheet and re.fullmatch(rf"{sheet}/join#[\w-]{{32}}", join_link)
    qrs = invite.locator("img.qr")
    assert qrs.count() == 2
    sources: list[tuple[str, str]] = []
    for img, link in zip(qrs.all(), (join_link, watch_link), strict=True):
        img.scroll_into_view_if_needed()
        ann.page.wait_for_function("e => e.complete && e.naturalWidth > 0", arg=img.element_handle())
        box = img.bounding_box()
        assert box is not None and box["width"] >= 140  # big enough to scan across a table
        source = live_server + str(img.get_attribute("src"))
        answer = ann.page.request.get(source)  # the image as this phone has it
        assert answer.headers["content-type"].startswith("image/svg+xml")
        drawn = segno.make(link, error="m", mask=QR_MASK).svg_inline(scale=4)
        assert _svg_path(answer.text()) == _svg_path(drawn)
        sources.append((source, _svg_path(drawn)))
    (join_qr, join_path), (watch_qr, _) = sources
    refused = bob.page.request.get(join_qr)  # a watcher never reads the join code
    assert refused.status == 403 and join_path not in refused.text()
    assert bob.page.request.get(watch_qr).text() == ann.page.request.get(watch_qr).text()
    code = ann.page.locator("#join-code").inner_text()
    assert re.fullmatch(r"[2-9A-HJKMNP-TV-Z]{3} [2-9A-HJKMNP-TV-Z]{3}", code)

    bob.page.goto(join_link)
    bob.shot("2-confirm")
    assert bob.page.url == sheet + "/join"  # the code left the address bar and history
    assert bob.page.locator("input[name=code]").input_value() == join_link.split("#")[1]
    assert bob.page.get_by_role("heading", name="Keep score in this game?").is_visible()
    bob.page.goto(sheet)  # looking at the join page changed nothing
    assert bob.page.get_by_text("You are watching this game").is_visible()
    bob.page.goto(join_link)
    bob.page.get_by_role("button", name="Join as scorer").click()
    bob.page.wait_for_url(SHEET_URL)
    assert bob.page.get_by_role("link", name=re.compile("Record box 1")).is_visible()
    assert ann.errors == bob.errors == []


def test_share_where_the_phone_has_a_share_sheet_copy_where_not(browser: Any, live_server: str) -> None:
    with_sheet, without = Phone(browser, share_sheet=True), Phone(browser)
    sheet = _new_game(with_sheet.page, live_server)
    invite = with_sheet.page.locator("#invite")
    assert invite.get_by_role("button", name="Share").count() == 2
    assert invite.get_by_role("button", name="Copy").count() == 0
    invite.get_by_role("button", name="Share").last.click()
    shared = with_sheet.page.evaluate("window.shared")
    assert shared == [{"title": "Watch our game", "url": sheet}]

    without.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    join = without.page
    join.goto(sheet + "/share")
    assert join.get_by_role("button", name="Share").count() == 0
    join.get_by_role("button", name="Copy").click()  # a watcher's share page: watch only
    assert join.evaluate("navigator.clipboard.readText()") == sheet
    assert join.get_by_role("button", name="Copied").is_visible()
    assert with_sheet.errors == without.errors == []


def test_a_watcher_on_a_scorers_page_types_the_code(browser: Any, live_server: str) -> None:
    """Cal, watching, opens "record a box": a page that explains (403) with the code
    prompt; a wrong code says so, how many tries are left, and links back; the short
    code in lower case leads to the box form Cal wanted."""
    ann, cal = Phone(browser), Phone(browser)
    sheet = _new_game(ann.page, live_server)
    code = ann.page.locator("#join-code").inner_text().replace(" ", "")
    response = cal.page.goto(sheet + "/boxes/new")
    assert response is not None and response.status == 403
    cal.shot("3-scorers-only")
    assert cal.page.get_by_role("heading", name="Only scorers can do this").is_visible()
    assert "Forbidden" not in cal.page.content()
    cal.page.fill("input[name=code]", "WRXNG2")
    cal.page.get_by_role("button", name="Join as scorer").click()
    cal.page.wait_for_selector("text=Wrong code")
    cal.shot("4-wrong-code")
    assert cal.page.get_by_role("alert").inner_text().endswith("(9 more tries before a pause).")
    assert cal.page.get_by_role("link", name="Back to the game").get_attribute("href") == sheet.removeprefix(
        live_server
    )
    cal.page.fill("input[name=code]", code.lower())
    cal.page.get_by_role("button", name="Join as scorer").click()
    cal.page.wait_for_url(re.compile(r"/boxes/new$"))
    assert cal.page.locator("#box-form").is_visible()
    assert ann.errors == cal.errors == []


def test_join_from_home_and_renew(browser: Any, live_server: str) -> None:
    """Dee types the code under "Join a game" on the home page and scores; Ann renews
    the codes: Dee is a watcher again, Ann still scores, the sheet shows new codes."""
    ann, dee = Phone(browser), Phone(browser)
    sheet = _new_game(ann.page, live_server)
    code = ann.page.locator("#join-code").inner_text()
    dee.page.goto(live_server + "/")
    form = dee.page.locator("#join-a-game")
    form.scroll_into_view_if_needed()
    dee.shot("5-home-join")
    form.locator("input[name=code]").fill(code.lower())
    form.get_by_role("button", name="Join as scorer").click()
    dee.page.wait_for_url(sheet)
    assert dee.page.get_by_role("link", name=re.compile("Record box 1")).is_visible()

    ann.page.locator("#invite details.codes summary").click()
    ann.shot("6-renew")
    ann.page.get_by_role("button", name="Renew the codes").click()
    ann.page.wait_for_url(sheet + "#invite")
    assert ann.page.url == sheet + "#invite"  # an anchor, which the code reader leaves alone
    assert ann.page.locator("#join-code").inner_text() != code
    assert ann.page.get_by_role("link", name=re.compile("Record box 1")).is_visible()
    dee.page.reload()
    assert dee.page.get_by_text("You are watching this game").is_visible()
    assert ann.errors == dee.errors == []


@pytest.mark.parametrize("scheme", ["fragment"])
def test_the_join_page_works_without_javascript(browser: Any, live_server: str, scheme: str) -> None:
    """No script, no fragment reader: the code is typed, and the button still joins."""
    ann = Phone(browser)
    sheet = _new_game(ann.page, live_server)
    code = ann.page.locator("#join-code").inner_text()
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(sheet + "/join")
    page.fill("input[name=code]", code)
    page.get_by_role("button", name="Join as scorer").click()
    page.wait_for_url(sheet)
    assert "Record box 1" in page.content()
    context.close()
