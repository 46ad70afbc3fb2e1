"""The sheet page's chart (issue 15): every player's running total box by box as inline
SVG drawn on the server, black on white, names escaped; none before the first box."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from flask.testing import FlaskClient

from tests.web.browser import MARKS, SHEET_URL, screenshot
from tests.web.conftest import box_form, start_game, version_of
from tests.web.test_browser_reliability import Phone, _fill_knock, _new_game

SVG = "{http://www.w3.org/2000/svg}"


def _record(client: FlaskClient, game_id: str, counts: dict[int, int], by: str = "Bob") -> None:
    saved = client.post(
        f"/games/{game_id}/boxes/new", data=box_form(version_of(client, game_id), by=by, counts=counts)
    )
    assert saved.status_code == 303, saved.get_data(as_text=True)[:2000]


def test_no_chart_before_the_first_box(client: FlaskClient, game_id: str) -> None:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'class="charts"' not in page


def test_the_chart_follows_the_running_totals(client: FlaskClient) -> None:
    game_id = start_game(client, **{"players-1": "<b>Bob</b>"})
    _record(client, game_id, {0: 14, 1: 4, 2: 13}, by="<b>Bob</b>")  # Bob 19 (J6)
    _record(client, game_id, {0: 2, 1: 30, 2: 20}, by="Ann")  # Ann 28+18 = 46
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    section = page[page.index('class="charts"') :]
    section = section[: section.index("</section>")]
    (svg,) = re.findall(r"<svg.*?</svg>", section, flags=re.S)
    root = ET.fromstring(svg)  # well-formed: the name was escaped
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert {"Ann 46", "<b>Bob</b> 19", "Cal 0"} <= set(labels)
    assert "box 2" in labels
    title = root.find(f"{SVG}title")
    assert title is not None and "after 2 boxes: Ann 46, <b>Bob</b> 19, Cal 0" in (title.text or "")
    colours = set(re.findall(r'(?:stroke|fill)="([^"]+)"', svg)) - {"none"}
    assert colours == {"#000"}
    assert "<b>Bob</b> 19" not in svg  # the raw markup never reaches the page


@MARKS[0]
@MARKS[1]
def test_the_chart_reads_on_a_phone(live_server: str, browser: Any) -> None:
    """At 390 px the chart takes the width without scrolling the page, and is tall
    enough to read; a screenshot is kept for a look (SCOREKEEPER_SCREENSHOTS)."""
    phone = Phone(browser)
    page = phone.page
    page.set_viewport_size({"width": 390, "height": 844})
    _new_game(page, live_server)
    for by, counts in (("Bob", [14, 4, 13]), ("Ann", [2, 30, 20])):
        page.locator(".record-bar a").click()
        page.wait_for_selector("#box-form")
        _fill_knock(page, by, counts)
        page.locator("#save-box").click()
        page.wait_for_url(SHEET_URL)
    page.wait_for_selector(".charts svg")
    figure = page.locator(".chart").first
    box = figure.bounding_box()
    assert box is not None and 300 <= box["width"] <= 390 and box["height"] >= 120
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert "Ann 46" in figure.inner_text() and "Bob 19" in figure.inner_text()
    screenshot(figure, "sheet-chart")
    assert phone.errors == []
