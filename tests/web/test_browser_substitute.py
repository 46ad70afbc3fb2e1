"""A director replaces a player mid-game (RULES.md E5) on a 390×844 phone: the game goes
on, the sheet marks the change from the next box and names the substitute over the seat,
the standings page says it, and the seat's result counts for the player who left."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pdf.reading import flat
from tests.web.browser import MARKS
from tests.web.table_phone import SHEET_URL, phone, shot
from tests.web.test_browser_events import _cards, _join, _knock, _start, _table_game

pytestmark = MARKS


@pytest.mark.rule("E5")
def test_a_director_replaces_a_player_mid_game(live_server: str, browser: Any) -> None:
    director = phone(browser)
    event = _start(director, live_server)
    _, seats, code = _cards(director, event, 1)[0]
    game = _table_game(director, event, 1)
    table = phone(browser)
    _join(table, live_server, game, code)
    _knock(table, seats[0])
    leaving = seats[1]

    director.goto(event + "/director")
    form = director.locator("form[action$='/replace']")
    form.locator("select[name=player]").select_option(leaving)
    form.locator("input[name=by]").fill("Zed")
    form.get_by_role("button", name="Replace").click()
    director.wait_for_selector(f"#director :text('Zed plays {leaving}')")
    shot(director, "event-replaced-mid-game", full_page=True)

    table.goto(live_server + game)
    table.wait_for_url(SHEET_URL)
    heads = table.locator("table.scores thead th").all_inner_texts()
    assert f"Zed for {leaving}" in " ".join(heads), heads
    assert table.locator("tr.substitute-row").inner_text().strip() == f"From box 2, Zed for {leaving}"
    # The box form names the one who plays the seat now (its value stays the seat's).
    table.locator(".record-bar a").click()
    table.wait_for_selector("#box-form")
    assert table.locator(f"input[name=by][value='{leaving}'] + span").inner_text() == f"Zed (for {leaving})"
    assert table.locator("#hand-1 > legend").inner_text() == f"Zed for {leaving}"
    table.goto(live_server + game)
    table.wait_for_url(SHEET_URL)
    _knock(table, seats[0])  # the second box: Zed plays the seat
    rows = table.locator("table.scores tbody tr").all_inner_texts()
    assert [r.split("\t")[0] for r in rows] == ["1", f"From box 2, Zed for {leaving}", "2"], rows
    shot(table, "sheet-substitute", full_page=True)
    printed = table.request.get(live_server + game + "/sheet.pdf")
    text = flat(printed.body())
    assert printed.ok and f"from box 2, Zed for {leaving}" in text, text[:600]

    standings = phone(browser)
    standings.goto(event + "/standings")
    first = standings.locator(".table-states li").first.inner_text()
    assert f"from box 2, Zed for {leaving}" in first, first
    texts = standings.locator("table.standings tbody tr").all_inner_texts()
    rows = {r.split("\t")[1].split()[0]: r.split("\t") for r in texts}
    # The seat's two boxes count for the one who left; Zed plays on from round 2, 0 so far.
    assert rows[leaving][2] not in ("0", "") and rows["Zed"][2] == "0", (leaving, rows)
    results = flat(standings.request.get(event + "/results.pdf").body())
    said = results.split("Replacements", 1)[1]
    assert f"Round 1, table 1: from box 2, Zed for {leaving}; the seat counts for {leaving}" in said, said
    assert table.script_errors == [] and director.script_errors == []
