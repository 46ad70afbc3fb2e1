"""The results sheet settles the evening (issue 32): read back with pdftotext, every
player's rounds, byes and penalties add up to his score; a withdrawn penalty is there,
struck and taking nothing off; the heading says which round is playing; the CSV and the
JSON carry the same lines."""

from __future__ import annotations

import csv
import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pdf.reading import flat
from tests.web.conftest import box_form, version_of
from tests.web.test_event_api import EVENT, _record
from tests.web.test_event_pages import start_event, tables_of

SEVEN = ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay", "Gus"]
"""Seven at tables of three: two tables and a bye each round."""


def _knock_at_every_table(client: FlaskClient, event_id: str, round: int) -> None:
    for n, (game_id, players) in enumerate(tables_of(client, event_id, round)):
        counts = {0: 3 + n, 1: 14 + round, 2: 9 + 2 * n}
        form = box_form(version_of(client, game_id), by=players[0], counts=counts)
        assert client.post(f"/games/{game_id}/boxes/new", data=form).status_code == 303


def _items(said: str) -> float:
    """What a player's printed lines add up to: tables and byes, less standing penalties."""
    said = said.replace("−", "-")
    found = sum(float(v) for v in re.findall(r"table \d+: ([+-]?\d+(?:\.\d+)?)", said))
    found += sum(float(v) for v in re.findall(r"bye: (-?\d+(?:\.\d+)?)", said))
    found -= sum(float(v) for v in re.findall(r"penalty (\d+): ", said))  # withdrawn ones say so first
    return found


@pytest.mark.rule("E3")
@pytest.mark.rule("E4")
def test_the_results_pdf_settles_the_evening_while_round_3_plays(client: FlaskClient) -> None:
    event_id = start_event(client, entrants="\n".join(SEVEN), date="2026-12-01")
    given = client.post(
        f"/events/{event_id}/penalties", data={"player": "Ann", "points": "5", "note": "slow play"}
    )
    assert given.status_code == 303
    client.post(f"/events/{event_id}/penalties", data={"player": "Bob", "points": "3", "note": "late"})
    withdrawn = client.get(f"/api/v1/events/{event_id}").get_json()["event"]["penalties"][1]["id"]
    client.post(f"/events/{event_id}/penalties/{withdrawn}/withdraw", data={"why": "he was on time"})
    for number in (1, 2):
        _knock_at_every_table(client, event_id, number)
        assert (
            client.post(f"/events/{event_id}/close", data={"round": str(number), "force": "y"}).status_code
            == 303
        )
    _knock_at_every_table(client, event_id, 3)

    text = flat(client.get(f"/events/{event_id}/results.pdf").get_data())
    assert "Standings with round 3 playing (rounds to 2 closed)" in text
    assert "after round 2" not in text
    assert re.search(r"Printed \d{4}-\d\d-\d\d \d\d:\d\d UTC", text)
    assert "2026-12-01" in text and "Elm Street Club" in text
    assert "Ties are broken by tables won, then boxes won, then head to head" in text
    assert "A bye scores the round’s average score (0 under net)" in text
    assert "ended when the director closed the round" in text

    body = client.get(f"/api/v1/events/{event_id}/results.json").get_json()
    standings = body["standings"]
    assert len(standings) == 7
    lines = text.split("How each score is made", 1)[1].split("Round 1 ", 1)[0]
    byes = 0
    for s in standings:
        found = re.search(rf"{s['player']}(?: \(withdrawn\))?: (.*?) = (-?−?\d+(?:\.\d+)?)", lines)
        assert found is not None, (s["player"], lines)
        said, score = found.group(1), float(found.group(2).replace("−", "-"))
        assert score == pytest.approx(s["score"]) == pytest.approx(_items(said)), (s, said)
        assert sum(line["points"] for line in s["lines"]) == pytest.approx(s["score"])
        assert len([x for x in s["lines"] if x["kind"] != "penalty"]) == 3  # a table or a bye each round
        byes += said.count("bye: ")
    assert byes == 3  # one a round
    assert "penalty 5: slow play" in lines
    assert "penalty 3 (withdrawn: takes nothing off): late" in lines

    rows = list(
        csv.reader(
            io.StringIO(
                client.get(f"/api/v1/events/{event_id}/results.csv").get_data(as_text=True).lstrip("\ufeff")
            )
        )
    )
    head = rows[0]
    for row in rows[1:]:
        made = row[head.index("how the score is made")]
        assert float(made.rsplit(" = ", 1)[1]) == pytest.approx(float(row[head.index("score")]))
        assert _items(made.rsplit(" = ", 1)[0]) == pytest.approx(float(row[head.index("score")]))


def test_with_a_stake_the_results_say_who_pays_whom(app: Flask, client: FlaskClient) -> None:
    """Each player's money is his settlements times the stake; the payments printed and
    in the JSON settle exactly that (byes and penalties are nobody's money)."""
    answer = client.post("/api/v1/events", json={**EVENT, "stake": 0.05}, headers={"Idempotency-Key": "s-1"})
    body = answer.get_json()
    first = body["tables"][0]
    _record(app, first["game"], first["players"], client)
    data = client.get(f"/api/v1/events/{body['id']}/results.json").get_json()
    money: dict[str, float] = {}
    for pay in data["payments"]:
        money[pay["from"]] = money.get(pay["from"], 0) - pay["amount"]
        money[pay["to"]] = money.get(pay["to"], 0) + pay["amount"]
    nets = {s["player"]: s["score"] for s in data["standings"]}
    assert money == {p: pytest.approx(v * 0.05) for p, v in nets.items() if v}
    text = flat(client.get(f"/events/{body['id']}/results.pdf").get_data())
    said = text.split("Who pays whom (stake 0.05 a point)", 1)[1]
    for pay in data["payments"]:
        assert f"{pay['from']} pays {pay['to']} {pay['amount']:.2f}" in said
