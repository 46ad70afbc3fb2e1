"""Hollywood with N columns (V3) on the phone: every column, its bonuses and its
ruling-off on the sheet page, readable at 390 px by scrolling sideways under a sticky
first column."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.engine import score
from tests.web.browser import MARKS, screenshot

COLUMNS = 12


def twelve_columns() -> dict[str, Any]:
    """Fourteen hands of a 12-column Hollywood game: Ann's gins close the first columns."""
    boxes = [
        {
            "ending": "knock",
            "by": "Bob" if i % 3 == 0 else "Ann",
            "hands": {"Ann": {"count": 30 if i % 3 == 0 else 2}, "Bob": {"count": 5 if i % 3 == 0 else 12}},
        }
        for i in range(14)
    ]
    return {
        "rules": "hollywood",
        "players": ["Ann", "Bob"],
        "dealer": "Ann",
        "settings": {"hollywood_columns": COLUMNS},
        "boxes": boxes,
    }


@pytest.mark.rule("V3")
def test_the_sheet_shows_every_column_with_bonuses_and_ruling_off(client: FlaskClient) -> None:
    game = twelve_columns()
    sheet = score(game)
    created = client.post("/api/v1/games", json=game).get_json()
    page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert all(f">Game {n}</th>" in page for n in range(1, COLUMNS + 1))
    closed = [g for g in sheet["games"] if g["game_over"]]
    assert closed and len(closed) < COLUMNS  # some closed, some still open
    ruled = set(re.findall(r'data-ruled="(\d+)"', page))
    assert ruled == {str(g["column"]) for g in closed}
    for g in closed:
        for player, bonus in g["box_bonuses"].items():
            assert f'data-column-box-bonus="{g["column"]}-{player}">{bonus}<' in page
        assert f'data-column-bonus="{g["column"]}-{g["winner"]}">{g["game_bonus"][g["winner"]]}<' in (page)
    assert "Hand bonus" in page and "Box bonus" not in page


@MARKS[1]
@MARKS[0]
@pytest.mark.rule("V3")
def test_twelve_columns_scroll_under_a_sticky_first_column(live_server: str, browser: Any) -> None:
    request = urllib.request.Request(
        f"{live_server}/api/v1/games",
        data=json.dumps(twelve_columns()).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        game_id = json.load(answer)["id"]
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(f"{live_server}/games/{game_id}")
    wrap = page.locator(".hollywood .table-wrap")
    sizes = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert sizes[0] > sizes[1]  # wider than the phone: it scrolls, the page does not
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    first = page.locator(".pad tbody tr:first-child th")
    before = first.bounding_box()
    screenshot(page, "hollywood-12-columns", full_page=True)
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    after = first.bounding_box()
    assert before is not None and after is not None and before["x"] == after["x"]
    last = page.locator(".pad thead th.game-head").last
    assert last.inner_text() == f"Game {COLUMNS}" and last.is_visible()
    screenshot(page, "hollywood-12-columns-scrolled")
    context.close()
