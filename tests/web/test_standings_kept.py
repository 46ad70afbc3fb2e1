"""An event's state is read once however many threads ask for it at once, each drawing
of it is made once, and a scorer's QR codes are drawn once per link (issue 25: the
club evening's standings tail, docs/performance.md)."""

from __future__ import annotations

import gc
import gzip
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import records, store
from scorekeeper.engine.event import Standing
from scorekeeper.ledger import events as ledger_events
from scorekeeper.web import database, invite, standings
from scorekeeper.web.openapi.shapes import schema_of
from tests.web.conftest import box_form, version_of
from tests.web.test_event_pages import start_event, tables_of

RACERS = 6


def _race(app: Flask, call: Callable[[], Any]) -> list[Any]:
    """``call()`` in :data:`RACERS` threads let go at once, each in its own app context."""
    gate = threading.Barrier(RACERS)
    results: list[Any] = [None] * RACERS

    def run(n: int) -> None:
        with app.app_context():
            gate.wait()
            results[n] = call()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return results


def _second_player_knocks(client: FlaskClient, game_id: str, players: list[str]) -> Any:
    """A box at the table: its second player knocks with 4 against 14 and 13, and wins."""
    return client.post(
        f"/games/{game_id}/boxes/new",
        data=box_form(version_of(client, game_id), by=players[1], counts={0: 14, 1: 4, 2: 13}),
    )


def _calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[tuple[Any, ...]]:
    """``owner.name`` still called, each call's arguments noted in the list returned."""
    made: list[tuple[Any, ...]] = []
    call = getattr(owner, name)

    def noted(*args: Any, **kwargs: Any) -> Any:
        made.append(args)
        return call(*args, **kwargs)

    monkeypatch.setattr(owner, name, noted)
    return made


def test_threads_asking_for_a_new_state_at_once_read_it_once(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = start_event(client)
    monkeypatch.setattr(standings, "KEPT", standings.Kept())
    reads: list[int] = []
    board = ledger_events.board

    def slow_board(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        time.sleep(0.05)  # long enough that every racer asks while the first reads
        return board(*args, **kwargs)

    monkeypatch.setattr(ledger_events, "board", slow_board)
    found = _race(app, lambda: standings.now(event_id))
    assert len(reads) == 1
    assert all(now is found[0] for now in found)
    assert found[0].board.standings  # the state read is the event's, ranked


def test_each_drawing_of_a_state_is_made_once(app: Flask, client: FlaskClient) -> None:
    event_id = start_event(client)
    with app.app_context():
        now = standings.now(event_id)
    assert now is not None
    draws: list[int] = []

    def draw() -> str:
        draws.append(1)
        time.sleep(0.05)
        return "drawn"

    assert _race(app, lambda: now.drawn("json", draw)) == ["drawn"] * RACERS
    assert len(draws) == 1


def test_the_projectors_answer_is_gzipped_once_per_state(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every projector's poll of a new state gets the same gzipped bytes, packed once
    (issue 34: 2.2 ms of gzip an answer at 300 tables); a browser that takes no gzip
    gets the same fragment plain."""
    event_id = start_event(client)
    packed = _calls(monkeypatch, gzip, "compress")
    url = f"/events/{event_id}/standings?since=old"
    answers = [client.get(url, headers={"HX-Request": "true", "Accept-Encoding": "gzip"}) for _ in range(3)]
    assert len(packed) == 1
    assert {a.headers["Content-Encoding"] for a in answers} == {"gzip"}
    assert len({a.get_data() for a in answers}) == 1
    assert {"HX-Request", "Accept-Encoding"} <= set(answers[0].vary)
    plain = client.get(url, headers={"HX-Request": "true", "Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    fragment = plain.get_data(as_text=True)
    assert gzip.decompress(answers[0].get_data()).decode() == fragment
    assert fragment.lstrip().startswith('<section id="standings"') and "<tbody>" in fragment


def test_a_qr_code_is_drawn_once_per_link() -> None:
    invite.qr_svg.cache_clear()
    one = invite.qr_svg("http://192.168.1.5:8000/games/abc", "QR code to watch this game")
    again = invite.qr_svg("http://192.168.1.5:8000/games/abc", "QR code to watch this game")
    other = invite.qr_svg("http://192.168.1.5:8000/games/abd", "QR code to watch this game")
    assert again is one
    assert other != one
    assert "<svg" in one and "QR code to watch this game" in one
    assert invite.qr_svg.cache_info().hits == 1


def test_a_server_freezes_what_it_built_before_it_serves() -> None:
    """``scorekeeper serve`` and gunicorn's workers leave what they built at start out of
    the collector's full collections (50-80 ms pauses under a club evening's load), and
    run those ten times less often (about 14 a worker in a 480-table minute before)."""
    from scorekeeper import gunicorn_conf, serve

    threshold = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        serve.settle()
        assert gc.get_freeze_count() > 10_000  # the modules, the app, the templates
        assert gc.get_threshold() == (700, 10, serve.FULL_EVERY) == (700, 10, 100)
        gc.unfreeze()
        gc.set_threshold(700, 10, 10)
        gunicorn_conf.post_worker_init(None)
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold() == (700, 10, 100)
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_a_box_at_an_event_table_keeps_the_standings_without_reading_the_event(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: the writer's request reads no board (its transaction adds the game's
    difference to the kept rows); the projector's next poll reads the kept rows once,
    and a second process (another worker) reads the same standings from them."""
    event_id = start_event(client)
    monkeypatch.setattr(standings, "KEPT", standings.Kept())
    game_id, players = tables_of(client, event_id)[0]
    reads = _calls(monkeypatch, ledger_events, "board")
    recorded = _second_player_knocks(client, game_id, players)
    assert recorded.status_code in (200, 303)
    assert len(reads) == 0  # nothing of the event read in the writer's request
    with app.app_context():
        now = standings.now(event_id)
        again = standings.now(event_id)
    assert len(reads) == 1 and again is now
    assert now is not None and sum(t.boxes for t in now.board.tables) == 1
    with app.app_context():
        db = database.session()
        loaded = store.events.load_event(db, event_id)
        assert loaded is not None
        fresh = records.standings(loaded.entry, store.events.table_games(db, event_id), withdrawn=())
    assert now.board.standings == fresh and any(s.score for s in fresh)
    monkeypatch.setattr(standings, "KEPT", standings.Kept())  # another worker
    with app.app_context():
        other = standings.now(event_id)
    assert other is not None and other.board.standings == now.board.standings


def test_a_standings_line_is_drawn_once_for_what_it_shows(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: the projector's page draws each line after its rank once per process;
    a box draws again only the lines of the players whose values changed, and the page
    shows their new scores and everyone's new rank."""
    import html
    import re

    from scorekeeper.web import eventdata

    drawn: list[str] = []
    draw = eventdata._standing_row

    def counted(values: tuple[Any, ...], *rest: Any) -> Any:
        drawn.append(values[0])
        return draw(values, *rest)

    monkeypatch.setattr(eventdata, "_standing_row", counted)
    event_id = start_event(client)
    game_id, players = tables_of(client, event_id)[0]

    def lines() -> dict[str, tuple[str, str]]:
        page = html.unescape(client.get(f"/events/{event_id}/standings").get_data(as_text=True))
        found = re.findall(
            r'<td class="num rank">(=?\d+)</td>\s*<th scope="row" class="player"><bdi>([^<]+)</bdi>'
            r'.*?<td class="num score">([^<]+)</td>',
            page,
            re.S,
        )
        return {name: (rank, score) for rank, name, score in found}

    before = lines()
    everyone = len(before)
    assert len(drawn) == everyone and all(rank == "=1" for rank, _ in before.values())
    assert lines() == before and len(drawn) == everyone  # the same state: nothing drawn
    _second_player_knocks(client, game_id, players)
    drawn.clear()
    after = lines()
    assert sorted(drawn) == sorted(players)  # only the table's players' lines again
    fresh = client.get(f"/api/v1/events/{event_id}").get_json()["standings"]
    ranks = [s["rank"] for s in fresh]
    assert after == {
        s["player"]: (
            ("=" if ranks.count(s["rank"]) > 1 else "") + str(s["rank"]),
            eventdata.shown_number(s["score"]),
        )
        for s in fresh
    }
    assert after[players[1]][0] == "1" and after != before


def test_a_new_states_page_and_json_make_no_line_for_a_rank_alone(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: the projector's page and the API's JSON draw a state from each place's
    values line and rank (``RankedRows.values`` and ``ranks``); the standings are not
    read line by line, so a box that moves hundreds of ranks makes no line for them."""
    from scorekeeper.engine.event.kept import RankedRows

    read: list[int] = []
    rows = vars(RankedRows)["rows"]

    def counted(self: RankedRows) -> tuple[Standing, ...]:
        read.append(len(self))
        made: tuple[Standing, ...] = rows.fget(self)
        return made

    event_id = start_event(client)
    game_id, players = tables_of(client, event_id)[0]
    _second_player_knocks(client, game_id, players)
    monkeypatch.setattr(RankedRows, "rows", property(counted))
    page = client.get(f"/events/{event_id}/standings", headers={"HX-Request": "true"}).get_data(as_text=True)
    standings = client.get(f"/api/v1/events/{event_id}").get_json()["standings"]
    assert read == []
    assert (standings[0]["rank"], standings[0]["player"]) == (1, players[1])
    assert f'<td class="num rank">1</td><th scope="row" class="player"><bdi>{players[1]}</bdi>' in page


def test_the_projectors_drawing_is_ascii_and_shows_minus_signs(client: FlaskClient) -> None:
    """Issue 34: a penalty's and a negative score's minus sign (U+2212) go out as
    ``&minus;``, and the legend's dots as ``&middot;``: one such character made the
    whole drawing two bytes a character in memory, and its encoding a pass of its own."""
    import html
    import re

    event_id = start_event(client)
    game_id, players = tables_of(client, event_id)[0]
    client.post(
        f"/events/{event_id}/penalties", data={"player": players[2], "points": "25", "note": "slow play"}
    )
    _second_player_knocks(client, game_id, players)
    answer = client.get(f"/events/{event_id}/standings", headers={"HX-Request": "true"})
    drawn = answer.get_data(as_text=True)
    assert answer.status_code == 200 and drawn.isascii(), sorted({c for c in drawn if not c.isascii()})
    shown = html.unescape(drawn)
    assert f'<bdi>{players[2]}</bdi> <small class="penalty-inline">\u221225</small>' in shown
    scores = dict(re.findall(r"<bdi>([^<]+)</bdi>.*?<td class=\"num score\">([^<]+)</td>", shown))
    assert scores[players[2]].startswith("\u2212") and "-" not in scores[players[2]], scores
    assert "a shared rank \u00b7 " in shown


def test_the_event_json_is_written_from_its_pieces_as_a_whole_dump_writes_it(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 34: the API's event is joined from each standing's, table's and entry's
    JSON written before; through boxes at two tables the text is the whole event's
    dump, and a box writes again only what changed."""
    import json

    from flask import current_app

    from scorekeeper.web.api import events as api_events

    event_id = start_event(client)
    (first, at_first), (second, at_second) = tables_of(client, event_id)[:2]

    def both() -> tuple[str, str, int]:
        text = client.get(f"/api/v1/events/{event_id}").get_data(as_text=True)
        with app.app_context():
            now = standings.now(event_id)
            assert now is not None
            whole = current_app.json.dumps(api_events.event_json(now.event, now.board)) + "\n"
            pieces = api_events._pieces()
            written = len(pieces.written) + len(pieces.ranked)
        return text, whole, written

    text, whole, written = both()
    assert text == whole and json.loads(text)["standings"]
    for game_id, players in ((first, at_first), (second, at_second)):
        _second_player_knocks(client, game_id, players)
        before = written
        text, whole, written = both()
        assert text == whole
        scores = {s["player"]: s["score"] for s in json.loads(text)["standings"]}
        assert scores[players[1]] > 0  # the box's winner gained
        # the table and its players' lines (a rank alone is not written again)
        assert written - before == 1 + len(players)


def test_the_api_schema_of_a_standing_names_no_origin() -> None:
    """``Standing.origin`` (what a moved line's drawing is found by) is not read from
    JSON, so the API's schema of a standing does not name it."""
    schema = schema_of(Standing)
    assert "origin" not in schema["properties"]
    assert set(schema["properties"]) == set(Standing(1, "Ann", 0.0).to_json())
