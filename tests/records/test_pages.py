"""The players' pages, head to head and the exports through the test client, on the
known games of :mod:`.games` (figures worked out by hand there)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterator

import pytest
from flask import Flask

from scorekeeper import ledger, store
from scorekeeper.engine.contract import GameEntry
from scorekeeper.web import create_app

from .games import GAME_A, GAME_B, GAME_C


def _app(migrated: Callable[[str], str], public: bool) -> Flask:
    url = migrated("pages.sqlite3")
    return create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            "RECENT_GAMES_PUBLIC": public,
            "PDF_IN_PROCESS": True,
        }
    )


@pytest.fixture
def started(migrated: Callable[[str], str]) -> Iterator[tuple[Flask, list[tuple[str, str]]]]:
    """A club server (every game counts) with the three games: (id, edit token) each."""
    app = _app(migrated, public=True)
    with store.opened(app.config["DATABASE_URL"]) as db:
        games = [ledger.start(db, GameEntry.from_json(g)) for g in (GAME_A, GAME_B, GAME_C)]
        yield app, [(s.table.id, s.token or "") for s in games]


def figure(page: str, name: str) -> str:
    match = re.search(rf'data-figure="{name}">(.*?)</dd>', page, re.S)
    assert match is not None, name
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def test_a_players_page_shows_the_figures(started: tuple[Flask, list[tuple[str, str]]]) -> None:
    app, _ids = started
    listed = app.test_client().get("/players/").get_data(as_text=True)
    assert listed.index(">Ann<") < listed.index(">bob<") < listed.index(">Cal<")
    assert '<option value="dan">Dan</option>' in listed  # the head-to-head form
    page = app.test_client().get("/players/ann").get_data(as_text=True)
    assert "<h1><bdi>Ann</bdi></h1>" in page  # the name last played under (game C)
    assert figure(page, "games") == "3" and figure(page, "won") == "1"
    assert figure(page, "boxes-won") == "5 of 8"
    assert figure(page, "average") == "31.6"
    assert figure(page, "biggest").startswith("90") and "gin" in figure(page, "biggest")
    assert figure(page, "run") == "3 deals"  # Jersey and Gin games: the neutral word
    assert figure(page, "shutouts") == "2 given · 0 taken"
    assert figure(page, "points") == "+1032" and figure(page, "money") == "+103.20"
    kinds = dict(re.findall(r'data-kind="([^"]+)">(\d+)<', page))
    assert kinds == {"knock": "2", "underknock": "1", "gin": "1", "break": "1", "gin after the break": "0"}
    assert re.search(
        r'data-preset="gin">.*?<td class="num">1</td><td class="num">0</td>'
        r'<td class="num">0</td>',
        page,
        re.S,
    )
    assert "<svg" in page and "Ann 1032" in page  # the chart's end label
    assert app.test_client().get("/players/nobody").status_code == 404


def test_which_games_count_follows_the_home_page(migrated: Callable[[str], str]) -> None:
    app = _app(migrated, public=False)
    with store.opened(app.config["DATABASE_URL"]) as db:
        a, b = (ledger.start(db, GameEntry.from_json(g)).table.id for g in (GAME_A, GAME_B))
    client = app.test_client()
    assert "No games yet" in client.get("/players/").get_data(as_text=True)
    assert client.get("/players/ann").status_code == 404
    client.get(f"/games/{b}")  # this phone opens game B only
    page = client.get("/players/ann").get_data(as_text=True)
    assert figure(page, "games") == "1" and figure(page, "boxes-won") == "3 of 5"
    assert f"/games/{a}" not in page


def test_head_to_head_over_a_period(started: tuple[Flask, list[tuple[str, str]]]) -> None:
    app, _ids = started
    client = app.test_client()
    page = client.get("/head-to-head?p=ann&p=bob").get_data(as_text=True)
    assert re.search(r'data-versus="ann">.*?<td class="num">1</td><td class="num">5</td>', page, re.S)
    assert 'data-net="ann>bob>516"' in page and "51.60" in page
    later = client.get("/head-to-head?p=ann&p=bob&since=2026-11-01").get_data(as_text=True)
    assert 'data-net="ann>bob>0"' in later and "1 game together" in later
    bad = client.get("/head-to-head?p=ann&since=yesterday")
    assert bad.status_code == 422 and "since must be a date" in bad.get_data(as_text=True)
    one = client.get("/head-to-head?p=ann")
    assert one.status_code == 422 and "two or three" in one.get_data(as_text=True)


def test_csv_of_a_game_and_of_a_record(started: tuple[Flask, list[tuple[str, str]]]) -> None:
    app, ids = started
    client = app.test_client()
    sheet = client.get(f"/games/{ids[1][0]}").get_data(as_text=True)
    assert f'href="/games/{ids[1][0]}/boxes.csv">Export CSV' in sheet
    rows = list(csv.reader(io.StringIO(client.get(f"/games/{ids[1][0]}/boxes.csv").data.decode("utf-8-sig"))))
    assert rows[0][:10] == [
        "date",
        "game",
        "rules",
        "box",
        "dealer",
        "ending",
        "result",
        "by",
        "winner",
        "points",
    ]
    assert len(rows) == 1 + 6
    # Box 2: bob knocked, ANN underknocked 28 with 4 (bob 6, Dan 20).
    assert rows[2][:10] == [
        "2026-11-05",
        ids[1][0],
        "jersey-scarne",
        "2",
        "ANN",
        "knock",
        "underknock",
        "bob",
        "ANN",
        "28",
    ]
    assert rows[2][10:] == ["bob", "6", "0", "ANN", "4", "28", "Dan", "20", "0"]
    assert rows[3][5:10] == ["misdeal", "misdeal", "", "", "0"]
    record = client.get("/players/ann/record.csv")
    assert record.headers["Content-Disposition"].endswith('record-ann.csv"')
    boxes = list(csv.reader(io.StringIO(record.get_data(as_text=True))))[1:]
    assert [row[1] for row in boxes] == [ids[0][0]] * 2 + [ids[1][0]] * 6 + [ids[2][0]]


def test_json_of_a_game_and_of_a_record(started: tuple[Flask, list[tuple[str, str]]]) -> None:
    app, ids = started
    client = app.test_client()
    game = json.loads(client.get(f"/games/{ids[0][0]}/score.json").get_data(as_text=True))
    assert GameEntry.from_json(game["game"]).players == ("Ann", "Bob", "Cal")
    assert game["score"]["final_totals"] == {"Ann": 258, "Bob": 0, "Cal": 0}
    whole = json.loads(client.get("/players/BOB/record.json").get_data(as_text=True))
    assert whole["person"] == "bob" and len(whole["games"]) == 2
    assert whole["figures"]["shutouts_taken"] == 1 and whole["figures"]["money"] == -51.6


def test_a_scorer_merges_and_undoes(started: tuple[Flask, list[tuple[str, str]]]) -> None:
    app, ids = started
    client = app.test_client()
    refused = client.post("/players/cal/merge", data={"name": "Dan"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "None of the games you keep score of" in text
    joined = client.post(f"/games/{ids[1][0]}/join", data={"code": ids[1][1]})
    assert joined.status_code == 303  # now a scorer of game B
    done = client.post("/players/cal/merge", data={"name": "Dan"})
    assert done.status_code == 303
    page = client.get("/players/cal").get_data(as_text=True)
    assert figure(page, "games") == "3" and "counts as <bdi>Cal</bdi> in 1 game its scorer" in page
    decision = re.search(r"/players/names/(\d+)/undo", page)
    assert decision is not None
    stranger = app.test_client()
    assert stranger.post(f"/players/names/{decision.group(1)}/undo").status_code == 403
    split = stranger.post("/players/cal/split", data={"game": ids[0][0], "person": "Cal 2"})
    assert split.status_code == 422 and len(store_aliases(app)) == 1
    assert client.post(f"/players/names/{decision.group(1)}/undo").status_code == 303
    page = client.get("/players/cal").get_data(as_text=True)
    assert figure(page, "games") == "2" and "undone" in page
    assert "/undo" not in page  # kept in history, not undone twice
    assert app.test_client().post(f"/players/names/{decision.group(1)}/undo").status_code == 404


def store_aliases(app: Flask) -> list[store.AliasRow]:
    with store.opened(app.config["DATABASE_URL"]) as db:
        return store.aliases(db)


def test_the_season_pdf_and_bad_requests(started: tuple[Flask, list[tuple[str, str]]]) -> None:
    app, _ids = started
    client = app.test_client()
    pdf = client.get("/players/ann/season.pdf?year=2026&size=letter")
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    assert 'filename="season-2026-ann.pdf"' in pdf.headers["Content-Disposition"]
    year = client.get("/players/ann/season.pdf?year=twenty")
    assert year.status_code == 422 and "four digits" in year.get_data(as_text=True)
    size = client.get("/players/ann/season.pdf?size=A5")
    assert size.status_code == 422 and "A4 or letter" in size.get_data(as_text=True)
    long = client.post("/players/ann/split", data={"game": "x" * 40, "person": "Z"})
    assert long.status_code == 422 and "keep score of" in long.get_data(as_text=True)
    assert client.get("/games/nosuchgame/boxes.csv").status_code == 404


def test_any_name_has_a_page(migrated: Callable[[str], str]) -> None:
    """A name is user text: slashes, spaces, ? # % and markup all reach the player."""
    app = _app(migrated, public=True)
    odd = ["A/B", 'C d?#% <b>"x"</b>']
    with store.opened(app.config["DATABASE_URL"]) as db:
        ledger.start(
            db,
            GameEntry.from_json(
                {
                    "rules": "gin",
                    "players": odd,
                    "dealer": odd[0],
                    "boxes": [
                        {
                            "ending": "knock",
                            "by": odd[0],
                            "hands": {odd[0]: {"count": 2}, odd[1]: {"count": 20}},
                        }
                    ],
                }
            ),
        )
    client = app.test_client()
    listed = client.get("/players/").get_data(as_text=True)
    links = re.findall(r'href="(/players/[^"]+)"', listed)
    assert len(links) == 2 and "<b>" not in listed
    for link in links:
        page = client.get(link).get_data(as_text=True)
        assert figure(page, "games") == "1"
        rows = list(csv.reader(io.StringIO(client.get(f"{link}/record.csv").get_data(as_text=True))))
        assert rows[1][10:] == [odd[0], "2", "18", odd[1], "20", "0"]
