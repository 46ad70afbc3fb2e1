"""A club night in the browser (issue 25): a director's phone starts a 9-player Jersey
Gin event of 3 rounds, prints the table cards, three table phones join their tables
with the card's code and score, players find their next seat between rounds, the
director closes each round (forced while tables play, plainly once they are done), and
the evening ends with the results PDF. Phones of 390 x 844, Debian's Chromium."""

from __future__ import annotations

import re
from typing import Any

from tests.pdf.reading import flat
from tests.web.browser import MARKS
from tests.web.table_phone import SHEET_URL, phone, shot

pytestmark = MARKS

NINE = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
EVENT_URL = re.compile(r"/events/(?!new\b)[^/?]+$")


def _start(director: Any, base: str) -> str:
    director.goto(base + "/events/new")
    director.fill("#name", "Tuesday Jersey")
    director.fill("#place", "Elm Street Club")
    director.fill("#rounds", "3")
    director.fill("#entrants", "\n".join(NINE))
    shot(director, "event-new", full_page=True)
    director.get_by_role("button", name="Start the event and seat round 1").click()
    director.wait_for_url(EVENT_URL, timeout=30_000)
    return str(director.url)


def _cards(director: Any, event: str, number: int) -> list[tuple[int, list[str], str]]:
    """The table cards of a round, read back: table, seats, the short code printed."""
    answer = director.request.get(f"{event}/cards.pdf?round={number}")
    assert answer.ok and answer.headers["content-type"] == "application/pdf"
    text = flat(answer.body())
    found = []
    for table in (1, 2, 3):
        part = text.split(f"Table {table} ", 1)[1]
        seats = re.findall(r"Seat \d (\w+)", part)[:3]
        code = re.search(r"type the code (\w{3}) (\w{3})", part)
        assert code is not None, part[:300]
        found.append((table, seats, code.group(1) + code.group(2)))
    assert f"Round {number}" in text
    return found


def _table_game(director: Any, event: str, table: int) -> str:
    """The game of a table of the current round, as the event's page links it."""
    director.goto(event)
    row = director.locator("section.round").first.locator("tbody tr").nth(table - 1)
    href = row.locator("a").first.get_attribute("href")
    assert href
    return str(href)


def _join(table_phone: Any, base: str, game: str, code: str) -> None:
    """A table phone types the card's code on its game's page and becomes its scorer."""
    table_phone.goto(base + game + "/join")
    table_phone.fill("input[name=code]", code.lower())
    table_phone.get_by_role("button", name="Join as scorer").click()
    table_phone.wait_for_url(SHEET_URL)
    assert table_phone.locator(".record-bar a").count() == 1


def _knock(table_phone: Any, knocker: str) -> None:
    """A knock with 4 by the player in seat 1, the others 14 and 13, by counts."""
    table_phone.locator(".record-bar a").click()
    table_phone.wait_for_selector("#box-form")
    table_phone.locator(f"input[name=by][value={knocker}] + span").click()
    table_phone.locator("#hands-0-count").click()
    for count in ("4", "14", "13"):
        table_phone.keyboard.type(count)
    table_phone.locator("#save-box").click()
    table_phone.wait_for_url(SHEET_URL)
    table_phone.wait_for_selector("#sheet")


def _close(director: Any, event: str, number: int, *, force: bool) -> None:
    director.goto(event + "/director")
    if force:
        assert "still playing" in director.locator("#close-title + p").inner_text()
        director.get_by_role("button", name=f"Close round {number}").click()
        director.wait_for_selector("#director .errors")  # refused while tables play
        assert "still playing" in director.locator("#director .errors").inner_text()
        director.check("input[name=force]")
    shot(director, f"event-close-{number}", full_page=True)
    director.get_by_role("button", name=f"Close round {number}").click()
    after = f"Round {number + 1}" if number < 3 else f"Round {number} closed"
    director.wait_for_selector(f"#tables-title:has-text('{after}')")


def test_a_nine_player_jersey_night_over_three_rounds(live_server: str, browser: Any) -> None:
    director = phone(browser)
    tables = [phone(browser) for _ in range(3)]
    event = _start(director, live_server)
    assert "Round 1" in director.locator("#round-1").inner_text()
    assert re.search(r"seed \d+", director.locator("#event header").inner_text())
    seats_met: list[tuple[str, ...]] = []
    for number in (1, 2, 3):
        cards = _cards(director, event, number)
        seated = sorted(p for _, seats, _ in cards for p in seats)
        assert seated == sorted(NINE)
        for table, seats, code in cards:
            game = _table_game(director, event, table)
            page = tables[table - 1]
            _join(page, live_server, game, code)
            assert page.locator(".sheet-head .meta").inner_text().startswith(" · ".join(seats))
            _knock(page, seats[0])
            if number == 2:  # the tables stop by themselves this round
                page.locator("details.end-early summary").click()
                page.get_by_role("button", name=re.compile("End the game by agreement")).click()
                page.wait_for_selector(".sheet")
            seats_met.append(tuple(seats))
        shot(tables[0], f"event-table-round-{number}", full_page=True)
        standings = phone(browser)
        standings.goto(event + "/standings")
        assert standings.locator("table.standings tbody tr").count() == 9
        states = standings.locator(".table-states li").all_inner_texts()
        assert len(states) == 3 and all("1 box" in s for s in states)
        if number == 2:
            assert all("ended by agreement" in s for s in states), states
        shot(standings, f"event-standings-round-{number}", full_page=True)
        standings.context.close()
        _close(director, event, number, force=number != 2)
        if number < 3:
            # Between rounds a player finds where to sit next, and their rank.
            player = phone(browser)
            player.goto(event)
            player.fill("#find-name", "eve")
            player.get_by_role("button", name="Find").click()
            player.wait_for_selector("#my-seat-card")
            said = player.locator("#my-seat-card").inner_text()
            assert re.search(rf"Round {number + 1}: table \d, seat \d", said), said
            assert re.search(r"Rank \d of 9", said), said
            shot(player, f"event-player-round-{number + 1}")
            player.context.close()
    # Nobody met the same two opponents twice while it could be avoided (threes).
    pairs = [frozenset((a, b)) for seats in seats_met for a in seats for b in seats if a < b]
    assert len(pairs) == len(set(pairs))
    director.goto(event)
    assert "Final results" in director.locator("#event header").inner_text()
    final = director.locator(".final-standings table.standings tbody tr")
    # the seating is drawn at random, so two winners of a round may share first place ("=1")
    assert final.count() == 9 and re.fullmatch(r"=?1", final.first.locator("td.rank").inner_text())
    shot(director, "event-final", full_page=True)
    results = director.request.get(event + "/results.pdf")
    assert results.ok
    text = flat(results.body())
    assert "Tuesday Jersey: results" in text and "Final standings" in text
    assert all(f"Round {n}" in text for n in (1, 2, 3))
    assert all(name in text for name in NINE)
    assert "Highest box:" in text
    for page in tables:
        assert page.script_errors == []
    # The director's only console errors may be the refused closes (409, swapped in).
    assert [e for e in director.script_errors if "status of 409" not in e] == []
