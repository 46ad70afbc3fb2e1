"""A club's season in the browser (issue 36): an owner's phone begins a club, starts two
evenings, brings them into the club, makes every new name a member, adds a season
counting net, and the ladder moves as the second evening is played (each evening's box
sent quickly through the API with the director's token); then plans an evening on the
season's calendar (no entrants) and on the night starts it from the season's page, the
new-event form filled from the plan. A phone of 390 x 844, Debian's Chromium."""

from __future__ import annotations

import re
from typing import Any

from tests.web.browser import MARKS
from tests.web.table_phone import phone, shot

pytestmark = MARKS

THREE = ["Ann", "Bob", "Cal"]


def _evening(owner: Any, base: str, name: str, date: str) -> str:
    owner.goto(base + "/events/new")
    owner.fill("#name", name)
    owner.fill("#date", date)
    owner.fill("#rounds", "1")
    owner.fill("#entrants", "\n".join(THREE))
    owner.get_by_role("button", name="Start the event and seat round 1").click()
    owner.wait_for_url(re.compile(r"/events/(?!new\b)[^/?]+$"), timeout=30_000)
    return str(owner.url).rsplit("/", 1)[1]


def _play(owner: Any, base: str, event: str, box: dict[str, Any]) -> None:
    """The evening's one box, through the API with the director's token (its link)."""
    owner.goto(f"{base}/events/{event}/director")
    token = str(owner.locator("#director-link").input_value()).rsplit("#", 1)[1]
    game = owner.request.get(f"{base}/api/v1/events/{event}").json()["tables"][0]["game"]
    answer = owner.request.post(
        f"{base}/api/v1/games/{game}/boxes", data=box, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status == 201, answer.text()


def _ladder(owner: Any) -> list[list[str]]:
    rows = owner.locator("#ladder tbody tr")
    return [
        [cell.strip() for cell in rows.nth(i).locator("td, th").all_inner_texts()]
        for i in range(rows.count())
    ]


def test_an_owner_builds_a_season_and_the_ladder_moves(browser: Any, live_server: str) -> None:
    owner = phone(browser)
    base = live_server
    owner.goto(base + "/clubs/new")
    owner.fill("#name", "Hoboken Gin Club")
    owner.fill("#place", "Back room")
    owner.get_by_role("button", name="Begin the club").click()
    owner.wait_for_url(re.compile(r"/clubs/(?!new\b)\w+$"))
    club = str(owner.url)
    first = _evening(owner, base, "Week 1", "2027-01-05")
    second = _evening(owner, base, "Week 2", "2027-01-12")
    for event in (first, second):
        owner.goto(club)
        owner.select_option("#event", event)
        owner.get_by_role("button", name="Join the club").click()
        owner.wait_for_url(re.compile(r"#evenings$"))
    owner.goto(club)
    while owner.locator("#new-names form").count():  # each new name a new member
        owner.locator("#new-names form").first.get_by_role("button", name="Save").click()
        owner.wait_for_url(re.compile(r"#roster$"))
        owner.goto(club)
    assert sorted(owner.locator("#roster strong").all_inner_texts()) == THREE
    owner.locator("#seasons summary").click()
    owner.fill("#season-form #name", "Winter")
    owner.fill("#starts", "2027-01-01")
    owner.fill("#ends", "2027-03-31")
    owner.get_by_role("button", name="Add the season").click()
    owner.wait_for_url(re.compile(r"/seasons/\d+$"))
    season = str(owner.url)
    _play(
        owner,
        base,
        first,
        {
            "ending": "knock",
            "by": "Ann",
            "hands": {"Ann": {"count": 2}, "Bob": {"count": 30}, "Cal": {"count": 50}},
        },
    )
    owner.goto(season)
    before = _ladder(owner)
    # Jersey: the knocker scores each defender's count less his own; Bob and Cal both
    # scored nothing, so they share second place (E1: then tables won, boxes won, shared)
    assert [(row[0], row[1]) for row in before] == [("1", "Ann"), ("2", "Bob"), ("2", "Cal")]
    _play(
        owner,
        base,
        second,
        {
            "ending": "gin",
            "by": "Cal",
            "hands": {"Cal": {"count": 0}, "Ann": {"count": 60}, "Bob": {"count": 70}},
        },
    )
    owner.goto(season)
    after = _ladder(owner)
    assert [(row[0], row[1], row[4]) for row in after] == [
        ("1", "Cal", "▲1"),
        ("2", "Ann", "▼1"),
        ("3", "Bob", "▼1"),
    ]
    assert "Week 2: won by Cal" in owner.locator("#past").inner_text()
    shot(owner, "club-season-ladder", full_page=True)
    owner.get_by_text("Plan an evening").click()
    owner.fill("#plan-form #date", "2027-03-30")
    owner.fill("#plan-form #time", "19:30")
    owner.fill("#plan-form #place", "Front room")
    owner.get_by_role("button", name="Plan the evening").click()
    owner.wait_for_url(re.compile(r"#upcoming$"))
    assert "2027-03-30 19:30 Winter evening · Front room" in " ".join(
        owner.locator("#upcoming").inner_text().split()
    )
    owner.get_by_role("link", name="Start this evening").click()
    owner.wait_for_url(re.compile(r"/events/new\?"))
    assert (owner.input_value("#name"), owner.input_value("#date"), owner.input_value("#place")) == (
        "Winter evening",
        "2027-03-30",
        "Front room",
    )
    owner.fill("#rounds", "1")
    owner.fill("#entrants", "\n".join(THREE))
    owner.get_by_role("button", name="Start the event and seat round 1").click()
    owner.wait_for_url(re.compile(r"/events/(?!new\b)[^/?]+$"), timeout=30_000)
    started = str(owner.url).rsplit("/", 1)[1]
    owner.goto(season)
    upcoming = owner.locator("#upcoming")
    assert upcoming.get_by_role("link", name="Winter evening").get_attribute("href") == f"/events/{started}"
    assert "Start this evening" not in upcoming.inner_text()  # the plan is that evening now
    assert owner.script_errors == []
