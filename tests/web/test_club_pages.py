"""A club in the browser's absence (issue 36): begin a club, bring in the evenings this
phone directs, decide who the new names are (near names offered), split and undo, a
season's page with its ladder and calendar feed, the owner's right and a private club's
pages kept to it."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator

import icalendar
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, Hand
from scorekeeper.ledger import events
from tests.pdf.reading import flat
from tests.web.test_event_pages import start_event, tables_of


def _db(app: Flask) -> Iterator[Session]:
    with store.opened(app.config["DATABASE_URL"]) as db:
        yield db


def _play_first_table(app: Flask, event_id: str, by: str) -> list[str]:
    """A knock by ``by`` at round 1's first table (the evening's one table): its players."""
    for db in _db(app):
        event = events.load_event(db, event_id)
        assert event is not None
        game_id = event.entry.game_of(1, 1)
        assert game_id is not None
        table = ledger.load(db, game_id)
        assert table is not None
        players = list(table.players)
        hands = {p: Hand(count=2 if p == by else 30 + i) for i, p in enumerate(players)}
        ledger.record(db, game_id, BoxEntry(ending="knock", by=by, hands=hands))
        return players
    raise AssertionError


def _begin(client: FlaskClient, **changes: str) -> str:
    answer = client.post("/clubs/new", data={"name": "Hoboken Gin Club", "place": "Back room", **changes})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
    return str(answer.headers["Location"]).rsplit("/", 1)[1]


def _form_key() -> dict[str, str]:
    """A fresh form's key (each form a browser loads has its own)."""
    return {"key": secrets.token_urlsafe(8)}


@pytest.mark.rule("E8")
def test_an_owner_builds_the_roster_and_the_ladder_of_a_season(app: Flask, client: FlaskClient) -> None:
    assert client.post("/clubs/new", data={"name": " "}).status_code == 422
    club_id = _begin(client)
    first = start_event(client, name="Week 1", date="2027-01-05", entrants="Ann Lee\nBob\nCal")
    second = start_event(client, name="Week 2", date="2027-01-12", entrants="ann lee\nBob\nAnn L.")
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert "Week 1 (2027-01-05)" in page and "No member yet" in page
    for event_id in (first, second):
        assert (
            client.post(f"/clubs/{club_id}/events", data={"event": event_id, **_form_key()}).status_code
            == 303
        )
    refused = client.post(f"/clubs/{club_id}/events", data={"event": "nobody", **_form_key()})
    assert refused.status_code == 422 and "Choose an evening this phone directs" in refused.get_data(
        as_text=True
    )
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    new_names = page.split('id="new-names"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r'name="spelling" value="([^"]+)"', new_names) == ["Ann Lee", "Bob", "Cal", "Ann L."]
    # every name a member; "Ann L." offered Ann Lee first (a near name)
    for name in ("Ann Lee", "Bob", "Cal"):
        client.post(f"/clubs/{club_id}/link", data={"spelling": name, "member": "new", **_form_key()})
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    offered = page.split('value="Ann L."', 1)[1].split("</select>", 1)[0]
    ann = re.search(r'<option value="(m\d+)" selected>Ann Lee</option>', offered)
    assert ann is not None
    assert (
        client.post(
            f"/clubs/{club_id}/link", data={"spelling": "Ann L.", "member": ann.group(1), **_form_key()}
        ).status_code
        == 303
    )
    roster = client.get(f"/clubs/{club_id}").get_data(as_text=True).split('id="roster"', 1)[1]
    assert "<strong>Ann Lee</strong>" in roster and "“Ann L.”" in roster and 'id="new-names"' not in roster
    season = client.post(
        f"/clubs/{club_id}/seasons",
        data={
            "name": "Winter",
            "starts": "2027-01-01",
            "ends": "2027-03-31",
            "count": "placings",
            "min_evenings": "2",
            **_form_key(),
        },
    )
    assert season.status_code == 303
    season_url = season.headers["Location"]
    _play_first_table(app, first, "Ann Lee")
    _play_first_table(app, second, "Bob")
    page = client.get(season_url).get_data(as_text=True)
    ladder = page.split('id="ladder"', 1)[1].split("</table>", 1)[0]
    rated = re.findall(r'<td class="rating">([^<]*)</td>', ladder)
    assert len(rated) == 3 and all(re.fullmatch(r"\d+\.\d ± \d+\.\d", r) for r in rated)
    ladder = re.sub(r'<td class="rating">[^<]*</td>', "", ladder)
    rows = [
        re.sub(r"<[^>]+>", " ", row).split() for row in re.findall(r"<tr[^>]*>(.*?)</tr>", ladder, re.S)[1:]
    ]
    # placings (E8): 3 points for the first of three, 1.5 each to the two level behind;
    # the second evening's "ann lee" and "Ann L." are one member, counted once (her better)
    assert rows == [
        ["1", "Ann", "Lee", "4", "2", "3", "·", "1"],
        ["2", "Bob", "3.5", "2", "1.5", "·", "2"],
        ["–", "Cal", "1.5", "1", "1.5"],
    ]
    winners = page.split('id="past"', 1)[1].split("</ul>", 1)[0]
    assert "Week 2</a>: won by" in winners and "Week 1</a>: won by" in winners
    assert "Week 1</a>: won by Ann Lee" in winners and "Week 2</a>: won by Bob" in winners
    printed = flat(client.get(season_url + "/ladder.pdf").data)
    assert "Hoboken Gin Club: Winter" in printed and "2027-01-01 to 2027-03-31" in printed
    assert "1 Ann Lee 4 2" in printed and "2 Bob 3.5 2" in printed and "– Cal 1.5 1" in printed
    assert "2027-01-05 Week 1 Ann Lee" in printed and "2027-01-12 Week 2 Bob" in printed
    assert "Top rated" in printed and "printed 20" in printed
    feed = icalendar.Calendar.from_ical(client.get(season_url + "/calendar.ics").data)
    assert sorted(str(e["summary"]) for e in feed.walk("VEVENT")) == [
        "Hoboken Gin Club: Week 1",
        "Hoboken Gin Club: Week 2",
    ]
    # a stranger: a private club's pages are the owner's
    stranger = app.test_client()
    assert stranger.get(f"/clubs/{club_id}").status_code == 403
    assert stranger.get(season_url).status_code == 403
    assert stranger.post(f"/clubs/{club_id}/split", data={"spelling": "Ann L."}).status_code == 403
    assert stranger.post(f"/clubs/{club_id}/public", data={"public": "y"}).status_code == 403
    # the owner publishes the season pages: read only for anyone, no codes shown
    assert client.post(f"/clubs/{club_id}/public", data={"public": "y", **_form_key()}).status_code == 303
    public = stranger.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert "public to anyone" in public and 'id="share"' not in public and "/link" not in public
    assert stranger.get(season_url).status_code == 200
    client.post(f"/clubs/{club_id}/public", data=_form_key())  # and private again
    assert stranger.get(season_url).status_code == 403
    said = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert "Owner: the season pages are public" in said and "Owner: the season pages are private" in said


def test_the_owners_code_is_shared_renewed_and_undone_decisions_kept(app: Flask, client: FlaskClient) -> None:
    club_id = _begin(client, public="y")
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    code = re.search(r'id="owner-code">(\w{3}) (\w{3})<', page)
    assert code is not None
    other = app.test_client()
    assert other.get(f"/clubs/{club_id}").status_code == 200  # public: read only
    assert 'id="share"' not in other.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert other.post(f"/clubs/{club_id}/owner/join", data={"code": "ZZZZZZ"}).status_code == 422
    assert (
        other.post(f"/clubs/{club_id}/owner/join", data={"code": code.group(1) + code.group(2)}).status_code
        == 303
    )
    assert 'id="share"' in other.get(f"/clubs/{club_id}").get_data(as_text=True)
    client.post(f"/clubs/{club_id}/owner/codes", data={"key": "renew"})
    assert 'id="share"' not in other.get(f"/clubs/{club_id}").get_data(as_text=True)  # its code is old
    assert 'id="share"' in client.get(f"/clubs/{club_id}").get_data(as_text=True)  # the creator keeps it
    client.post(f"/clubs/{club_id}/link", data={"spelling": "Ann", "member": "new", "key": "a"})
    client.post(f"/clubs/{club_id}/link", data={"spelling": "Annie", "member": "new", "key": "b"})
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    undo = re.findall(r'action="(/clubs/\w+/undo/\d+)"', page)
    assert len(undo) == 2
    assert client.post(undo[0], data={"key": "u"}).status_code == 303  # the latest: Annie
    page = client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert "<strong>Annie</strong>" not in page and "Owner: undid: Owner: Annie is a new member" in page
    again = client.post(undo[0], data={"key": "u2"})
    assert again.status_code == 422 and "undone already" in again.get_data(as_text=True)
    assert (
        client.post(
            f"/clubs/{club_id}/link", data={"spelling": "Ann", "member": "m99999", "key": "c"}
        ).status_code
        == 422
    )


def test_a_members_season_page_csv_and_json(app: Flask, client: FlaskClient) -> None:
    club_id = _begin(client, public="y")
    form = client.get("/events/new").get_data(as_text=True)
    assert f'<option value="{club_id}">Hoboken Gin Club</option>' in form  # the clubs this phone owns
    first = start_event(client, name="Week 1", date="2027-01-05", entrants="Ann\nBob\nCal", club=club_id)
    assert f'href="/events/{first}"' in client.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert 'name="club"' not in app.test_client().get("/events/new").get_data(as_text=True)  # owns none
    for name in ("Ann", "Bob", "Cal"):
        client.post(f"/clubs/{club_id}/link", data={"spelling": name, "member": "new", **_form_key()})
    season = client.post(
        f"/clubs/{club_id}/seasons",
        data={"name": "Winter", "starts": "2027-01-01", "ends": "2027-03-31", "count": "net", **_form_key()},
    ).headers["Location"]
    _play_first_table(app, first, "Ann")
    ladder = client.get(season).get_data(as_text=True)
    ann_url = re.search(r'href="([^"]+/members/m\d+)">Ann</a>', ladder)
    assert ann_url is not None
    stranger = app.test_client()  # a public club: anyone reads it
    page = stranger.get(ann_url.group(1)).get_data(as_text=True)
    assert "<h1>Ann <small>Winter</small></h1>" in page and "<svg" in page and "Rating Ann " in page
    body = stranger.get(ann_url.group(1) + "/season.json").get_json()
    (evening,) = body["evenings"]
    assert (
        evening["rank"] == 1
        and evening["players"] == 3
        and evening["boxes"] == 1
        and evening["placings"] == 3
    )
    assert body["boxes_won"] == {"knock": 1} and body["best_box"]["evening"] == "Week 1"
    assert body["best_box"]["points"] > 0 and len(body["rating_history"]) == 1
    assert sorted(m["name"] for m in body["head_to_head"]) == ["Bob", "Cal"]
    assert all(m["games"] == 1 for m in body["head_to_head"])
    assert sum(m["net"] for m in body["head_to_head"]) == evening["net"]  # what Ann won, Bob and Cal paid
    rows = stranger.get(ann_url.group(1) + "/season.csv").get_data(as_text=True).splitlines()
    assert rows[0].startswith("date,evening,rank") and rows[1].startswith("2027-01-05,Week 1,1,3,")
    assert stranger.get(ann_url.group(1).rsplit("/", 1)[0] + "/m999999").status_code == 404


@pytest.mark.rule("E8")
def test_a_member_under_two_names_in_one_evening_counts_once(app: Flask, client: FlaskClient) -> None:
    """Ann and Annie both played Week 1 and the owner says they are one member: the
    season page says so; Ann played one evening, her net the two lines' added; the
    evening had five people, so her page counts five players and her place among them
    (the ladder's), and her placings points are the ladder's."""
    club_id = _begin(client, public="y")
    names = ("Ann", "Annie", "Bob", "Cal", "Dee", "Eve")
    first = start_event(client, name="Week 1", date="2027-01-05", entrants="\n".join(names), club=club_id)
    for name in names:
        if name != "Annie":
            client.post(f"/clubs/{club_id}/link", data={"spelling": name, "member": "new", **_form_key()})
    for db in _db(app):
        ann = next(m for m in store.clubs.members(db, club_id) if m.name == "Ann")
    client.post(f"/clubs/{club_id}/link", data={"spelling": "Annie", "member": str(ann.id), **_form_key()})
    season = client.post(
        f"/clubs/{club_id}/seasons",
        data={
            "name": "Winter",
            "starts": "2027-01-01",
            "ends": "2027-03-31",
            "count": "placings",
            **_form_key(),
        },
    ).headers["Location"]
    for game_id, players in tables_of(client, first):
        _play_table(app, game_id, players[0])
    page = client.get(season).get_data(as_text=True)
    twice = re.search(r"Ann played as (\w+) and (\w+): counted once", page)  # in the evening's order
    assert twice is not None and sorted(twice.groups()) == ["Ann", "Annie"]
    event = client.get(f"/api/v1/events/{first}").get_json()["standings"]
    standings = {s["player"]: s["score"] for s in event}
    ranks = {s["player"]: s["rank"] for s in event}
    body = client.get(f"/api/v1/clubs/{club_id}/seasons/{season.rsplit('/', 1)[1]}").get_json()
    lines = {line["name"]: line for line in body["ladder"]}
    assert sorted(lines) == ["Ann", "Bob", "Cal", "Dee", "Eve"] and lines["Ann"]["evenings"] == 1
    mine = client.get(f"{season}/members/m{ann.id}/season.json").get_json()
    (evening,) = mine["evenings"]
    net = standings["Ann"] + standings["Annie"]
    assert evening["net"] == net
    assert evening["players"] == 5 and evening["placings"] == lines["Ann"]["points"]
    best = min(ranks["Ann"], ranks["Annie"])  # level on net: the event's order of her better line
    above = [p for p in names[2:] if standings[p] > net or (standings[p] == net and ranks[p] < best)]
    assert evening["rank"] == len(above) + 1


def _play_table(app: Flask, game_id: str, by: str) -> None:
    """A knock by ``by`` at the table of ``game_id``."""
    for db in _db(app):
        table = ledger.load(db, game_id)
        assert table is not None
        hands = {p: Hand(count=2 if p == by else 30 + i) for i, p in enumerate(table.players)}
        ledger.record(db, game_id, BoxEntry(ending="knock", by=by, hands=hands))


def test_an_evening_put_on_the_calendar_ahead_shows_as_upcoming(app: Flask, client: FlaskClient) -> None:
    """The owner starts an evening ahead from the new-evening form (its date, place,
    rules and table size, the club chosen): the season page lists it to come with all
    four, the calendar feed carries it, and the page offers the owner a plan of an
    evening without its entrants (not a stranger); once its first box is scored it is an evening played."""
    club_id = _begin(client, public="y")
    season = client.post(
        f"/clubs/{club_id}/seasons",
        data={"name": "Long", "starts": "2027-01-01", "ends": "2099-12-31", "count": "net", **_form_key()},
    ).headers["Location"]
    ahead = start_event(
        client,
        name="Spring opener",
        date="2098-03-03",
        place="Back room",
        table_size="3",
        entrants="Ann\nBob\nCal",
        club=club_id,
    )
    page = client.get(season).get_data(as_text=True)
    upcoming = page.split('id="upcoming"', 1)[1].split("</ul>", 1)[0]
    assert f'href="/events/{ahead}">Spring opener</a>' in upcoming
    assert "2098-03-03" in upcoming and "Back room" in upcoming
    assert "Jersey Gin" in upcoming and "3 a table" in upcoming
    assert 'id="plan-form"' in page
    assert 'id="plan-form"' not in app.test_client().get(season).get_data(as_text=True)  # a stranger's
    feed = icalendar.Calendar.from_ical(client.get(season + "/calendar.ics").data)
    (planned,) = [e for e in feed.walk("VEVENT") if "Spring opener" in str(e["SUMMARY"])]
    assert str(planned["LOCATION"]) == "Back room" and planned.decoded("DTSTART").isoformat() == "2098-03-03"
    _play_first_table(app, ahead, "Ann")
    page = client.get(season).get_data(as_text=True)
    assert "Spring opener" not in page.split('id="upcoming-title"', 1)[1].split("</section>", 1)[0]
    assert f'href="/events/{ahead}">Spring opener</a>: won by' in page.split('id="past"', 1)[1]
