"""Hypothesis against the forms and the engine: whatever a browser (or something posing
as one) sends, the answer is a page with a 2xx/3xx/4xx status, never a 500, and
nothing inconsistent is stored; whatever JSON reaches the engine, the only exception
is a ScorekeeperError. Deterministic (``derandomize``), budgets sized for CI."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from scorekeeper import engine, store
from scorekeeper.web import create_app
from scorekeeper.web.cardfaces import ALL_CODES

from .conftest import GAME

FUZZ = settings(
    max_examples=75,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

ODD_TEXT = st.sampled_from(
    [
        "",
        " ",
        "<script>alert(1)</script>",
        "A\u202eB",
        "\u200b",
        "e\u0301\u0301\u0301",
        "🂡🃏",
        "\x00",
        "9" * 400,
        "-1",
        "1e999",
        "NaN",
        "0x10",
        "٣",
        "Ⅻ",
        "\ufeff7",
        "7S",
        "10H",
        "KS",
    ]
)
VALUE = st.one_of(ODD_TEXT, st.text(max_size=30), st.integers(-10, 200).map(str))


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """TESTING on: an exception in a view fails the test with its traceback."""
    url = f"sqlite:///{tmp_path_factory.mktemp('forms') / 'forms.sqlite3'}"
    store.migrate(url)
    # One address posts every form: the start limit (test_start_limits.py) is not what
    # is fuzzed here.
    yield create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "SECRET_KEY": "f" * 40,
            "WTF_CSRF_ENABLED": False,
            "START_LIMIT": "10000 per minute",
        }
    )


def _consistent(app: Flask) -> int:
    """Every stored game verifies; returns how many there are."""
    db_engine = store.connect(str(app.config["DATABASE_URL"]))
    try:
        with Session(db_engine) as db:
            assert store.verify(db) == []
            return len(list(store.all_game_ids(db)))
    finally:
        db_engine.dispose()


SETTING_FIELDS = [f"setting_{s.name}" for s in engine.SETTINGS]


@given(
    preset=st.sampled_from([*engine.PRESETS, "nope", ""]),
    names=st.lists(VALUE, max_size=6),
    dealer=VALUE,
    stake=VALUE,
    setting_values=st.dictionaries(st.sampled_from(SETTING_FIELDS), VALUE, max_size=4),
)
@FUZZ
def test_new_game_form(
    fuzz_app: Flask, preset: str, names: list[str], dealer: str, stake: str, setting_values: dict[str, str]
) -> None:
    """150 new-game forms: 303 to a sheet that renders, or 422 and no new game."""
    client = fuzz_app.test_client()
    before = _consistent(fuzz_app)
    form = {
        "rules": preset,
        "dealer": dealer,
        "stake": stake,
        **setting_values,
        **{f"players-{i}": name for i, name in enumerate(names)},
    }
    response = client.post(f"/games/new?rules={preset}", data=form)
    assert response.status_code in (303, 422), response.status_code
    after = _consistent(fuzz_app)
    if response.status_code == 422:
        assert after == before
    else:
        assert after == before + 1
        assert client.get(response.headers["Location"]).status_code == 200


@pytest.fixture(scope="module")
def fuzz_game(fuzz_app: Flask) -> dict[str, str]:
    return dict(fuzz_app.test_client().post("/api/v1/games", json={**GAME, "boxes": []}).get_json())


HAND_CARDS = st.lists(st.sampled_from([*ALL_CODES, "1X", ""]), max_size=12, unique=True)


@given(
    ending=st.sampled_from(["knock", "gin", "break", "draw", "misdeal", "", "nap"]),
    by=st.sampled_from(["Ann", "Bob", "Cal", "", "Zed"]),
    counts=st.lists(st.one_of(st.none(), VALUE), min_size=3, max_size=3),
    cards=st.lists(HAND_CARDS, min_size=3, max_size=3),
    extras=st.dictionaries(
        st.sampled_from(
            [
                "upcard",
                "multiplier",
                "note",
                "after_break",
                "second_round",
                "hands-0-proposal",
                "hands-1-keep",
            ]
        ),
        VALUE,
        max_size=3,
    ),
    route=st.sampled_from(["new", "preview"]),
    stale=st.booleans(),
)
@FUZZ
def test_box_form(
    fuzz_app: Flask,
    fuzz_game: dict[str, str],
    ending: str,
    by: str,
    counts: list[str | None],
    cards: list[list[str]],
    extras: dict[str, str],
    route: str,
    stale: bool,
) -> None:
    """150 box forms (record or preview), mostly on the current version: 303, 200, 409
    or 422, never a 500, and the game always verifies afterwards."""
    client = fuzz_app.test_client()
    game_id = fuzz_game["id"]
    client.post(f"/games/{game_id}/join", data={"code": fuzz_game["edit_token"]})
    version = client.get(f"/api/v1/games/{game_id}").get_json()["version"]
    form: dict[str, Any] = {
        "version": str(version - 1 if stale else version),
        "key": f"k{hash((ending, by, str(counts), str(cards)))}",
        "ending": ending,
        "by": by,
        **extras,
    }
    for i in range(3):
        if counts[i] is not None:
            form[f"hands-{i}-count"] = counts[i]
        if cards[i]:
            form[f"hands-{i}-cards"] = cards[i]
    response = client.post(f"/games/{game_id}/boxes/{route}", data=form)
    allowed = {303, 409, 422} if route == "new" else {200, 422}
    assert response.status_code in allowed, response.status_code
    _consistent(fuzz_app)


@given(
    rules=st.sampled_from([*engine.PRESETS, "x"]),
    players=VALUE,
    ending=st.sampled_from(["knock", "gin", "misdeal", ""]),
    typed=VALUE,
    cards=HAND_CARDS,
)
@FUZZ
def test_dispute_forms(
    fuzz_app: Flask, rules: str, players: str, ending: str, typed: str, cards: list[str]
) -> None:
    """150 each of "check a hand" and "settle a showdown": 200 or 422, nothing stored."""
    client = fuzz_app.test_client()
    before = _consistent(fuzz_app)
    check = client.get("/check", query_string={"rules": rules, "typed": typed, "cards": cards})
    assert check.status_code in (200, 422)
    settle = client.post(
        "/settle",
        query_string={"rules": rules, "players": players},
        data={"ending": ending, "by": players.split(",")[0], "hands-0-cards": cards},
    )
    assert settle.status_code in (200, 422)
    assert _consistent(fuzz_app) == before


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | ODD_TEXT
    | st.sampled_from(ALL_CODES),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT | st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
BOX_FIELDS = [
    "ending",
    "by",
    "hands",
    "upcard",
    "multiplier",
    "after_break",
    "second_round",
    "note",
    "settings",
]
GAME_FIELDS = ["rules", "settings", "players", "dealer", "stake", "boxes"]


@given(
    field=st.sampled_from(
        GAME_FIELDS
        + [f"box.{f}" for f in BOX_FIELDS]
        + ["hand.cards", "hand.melds", "hand.count", "hand.deadwood", "hand.layoffs", "hand"]
    ),
    value=JSON,
)
@settings(max_examples=400, derandomize=True, deadline=None, database=None)
def test_engine_raises_only_its_own_errors(field: str, value: Any) -> None:
    """400 games with one field replaced by arbitrary JSON: engine.score either scores
    them or raises ScorekeeperError with a code and a message; nothing else escapes."""
    box: dict[str, Any] = {
        "ending": "knock",
        "by": "Bob",
        "hands": {
            "Ann": {"count": 14},
            "Bob": {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]},
            "Cal": {"count": 13},
        },
    }
    game: dict[str, Any] = {**GAME, "boxes": [box]}
    if field.startswith("box."):
        box[field[4:]] = value
    elif field == "hand":
        box["hands"]["Bob"] = value
    elif field.startswith("hand."):
        box["hands"]["Bob"] = {field[5:]: value}
    else:
        game[field] = value
    try:
        engine.score(game)
    except engine.ScorekeeperError as err:
        body = err.to_json()["error"]
        assert body["code"] and body["message"]


def _started(client: Any) -> str:
    """A Jersey Gin game started through the form by this browser (a scorer of it)."""
    from tests.web.conftest import new_game_form

    response = client.post("/games/new?rules=jersey-scarne", data=new_game_form())
    assert response.status_code == 303
    return str(response.headers["Location"]).rsplit("/", 1)[1]


@given(
    setting_values=st.dictionaries(st.sampled_from(SETTING_FIELDS), VALUE, max_size=5),
    version=st.one_of(st.none(), VALUE),
    end_version=st.one_of(st.none(), VALUE),
    end=st.booleans(),
)
@settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
def test_house_rules_and_end_forms(
    fuzz_app: Flask, setting_values: dict[str, str], version: str | None, end_version: str | None, end: bool
) -> None:
    """60 house-rules changes (and ends) on a game with a box: 303, 409 or 422, never a
    500, and the game verifies afterwards (a refused change left nothing behind)."""
    from tests.web.conftest import JERSEY_DEFAULTS, box_form

    client = fuzz_app.test_client()
    game_id = _started(client)
    assert (
        client.post(f"/games/{game_id}/boxes/new", data=box_form(1, counts={0: 14, 1: 4, 2: 13})).status_code
        == 303
    )
    form = {**JERSEY_DEFAULTS, **setting_values, "key": f"r{hash(str(setting_values))}"}
    if version is not None:
        form["version"] = version
    response = client.post(f"/games/{game_id}/rules", data=form)
    assert response.status_code in (303, 409, 422), response.status_code
    if end:
        data = {"key": "e"} if end_version is None else {"key": "e", "version": end_version}
        ended = client.post(f"/games/{game_id}/end", data=data)
        assert ended.status_code in (303, 409, 422), ended.status_code
    db_engine = store.connect(str(fuzz_app.config["DATABASE_URL"]))
    try:
        with Session(db_engine) as db:
            assert store.verify_game(db, game_id) == []
    finally:
        db_engine.dispose()
