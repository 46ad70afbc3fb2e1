"""Every game in its own words (issue 21): a finished game of each preset, walked page by
page and export by export (the sheet page, each box's page, the CSV and JSON exports,
the PDF's text, each player's record page, record exports and season PDF), fails on a
word or a rule id of another game. (The house rules form is left out: it offers every
setting's values with the rule each comes from, other games' included.)

Jersey Gin and Parlett's Three-hand Gin say *box* and *underknock*; the two-hand games
say *hand* and *undercut*, and cite G (and V) rules, never J or P; Knock Rummy says
*hand* and cites K rules, never J14's target or J15's shutout. Common rules (C) are
every game's. The words come from :mod:`scorekeeper.engine.vocabulary`.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import engine
from scorekeeper.engine.vocabulary import vocabulary_for
from tests.pdf.reading import flat

from .conftest import start_preset, version_of
from .presets_data import GAMES
from .test_presets import form_data

OWN_IDS = {"jersey": "CJV", "parlett": "CJPV", "gin": "CGV", "knock-rummy": "CKV"}
"""The rule families each game may cite (RULES.md sections; V for stakes and variants)."""


def foreign(rules: engine.Rules) -> list[re.Pattern[str]]:
    """What a page of this game must not say: another game's rule ids and words."""
    said = vocabulary_for(rules)
    ids = "".join(f for f in "JPGK" if f not in OWN_IDS[rules.family])
    found = [re.compile(rf"\b(J1[0-6]|[{ids}][1-9])\b" if "J" in ids else rf"\b[{ids}][1-9]\b")]
    if said.deal == "hand":
        found.append(re.compile(r"\b[Bb]ox(es)?\b"))
        if rules.family != "knock-rummy":  # Knock Rummy names it by the number of players
            found.append(re.compile(r"\b[Uu]nderknock"))
    else:
        found += [
            re.compile(r"\b[Hh]ands won\b|\b[Hh]and \d+\b|\b[Hh]and bonus"),
            re.compile(r"\b[Uu]ndercut"),
        ]
    return found


def visible(page: str) -> str:
    """A page's text as a reader sees it: no scripts, styles, tags or attributes."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    return re.sub(r"Join code:\s*\S+ \S+", "Join code:", text)  # random letters and digits


def strings(value: Any) -> list[str]:
    """Every string value of a JSON document (not its keys, CONTRACT.md's field names)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def played(client: FlaskClient, preset: str) -> str:
    """The preset's game (tests/web/presets_data.py) played to its end through the pages."""
    players = GAMES[preset]["players"]
    game_id = start_preset(client, preset, players)
    for box in GAMES[preset]["boxes"]:
        data = form_data(box, players, version_of(client, game_id))
        response = client.post(f"/games/{game_id}/boxes/new", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return game_id


def walk(client: FlaskClient, game_id: str, players: list[str]) -> dict[str, str]:
    """Every page and export of the game, as text, by where it came from."""
    texts: dict[str, str] = {}

    def get(url: str) -> str:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response.get_data(as_text=True)

    texts["sheet page"] = visible(get(f"/games/{game_id}"))
    sheet = json.loads(get(f"/games/{game_id}/score.json"))
    texts["score.json"] = "\n".join(strings(sheet))
    texts["export.json"] = "\n".join(strings(json.loads(get(f"/games/{game_id}/export.json"))))
    texts["boxes.csv"] = get(f"/games/{game_id}/boxes.csv")
    pdf = client.get(f"/games/{game_id}/sheet.pdf?detail=1")
    assert pdf.status_code == 200
    texts["sheet.pdf"] = flat(pdf.data)
    for box in sheet["score"]["boxes"] if "score" in sheet else sheet["boxes"]:
        if "id" in box:
            texts[f"box page {box['id']}"] = visible(get(f"/games/{game_id}/boxes/{box['id']}"))
    for player in players:
        texts[f"record of {player}"] = visible(get(f"/players/{player.lower()}"))
        texts[f"record.csv of {player}"] = get(f"/players/{player.lower()}/record.csv")
        texts[f"record.json of {player}"] = "\n".join(
            strings(json.loads(get(f"/players/{player.lower()}/record.json")))
        )
        season = client.get(f"/players/{player.lower()}/season.pdf")
        assert season.status_code == 200
        texts[f"season.pdf of {player}"] = flat(season.data)
    return texts


@pytest.mark.rule("J14", "G8", "K5")
@pytest.mark.parametrize("preset", list(GAMES))
def test_every_page_and_export_in_the_games_own_words(client: FlaskClient, preset: str) -> None:
    rules = engine.PRESETS[preset]
    players = GAMES[preset]["players"]
    texts = walk(client, played(client, preset), players)
    wrong = []
    for where, text in texts.items():
        for pattern in foreign(rules):
            for hit in pattern.finditer(text):
                start = max(hit.start() - 60, 0)
                wrong.append(f"{where}: {text[start : hit.end() + 40]!r}")
    assert not wrong, "\n".join(wrong)
