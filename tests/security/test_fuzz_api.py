"""The JSON API fuzzed by schemathesis from its own OpenAPI document: whatever comes
in, the answer is never a 500, has a documented status, is JSON where JSON is
promised, and matches its schema. Half the cases go to a real game with its real
edit token, so the write paths are reached, not only the 401/404 ones.

Deterministic (``derandomize``): the same cases on every run; the budget is small
enough for CI (40 cases per operation, 9 operations). Not checked: that every
schema-valid request is accepted, since a box the schema allows may still break the
rules of the game (the engine's 422)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from sqlalchemy.orm import Session

from scorekeeper import store
from scorekeeper.web import create_app

from .conftest import GAME

EXAMPLES = 40


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite3'}"
    store.migrate(url)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "fuzz-" + "f" * 40})
    created = app.test_client().post("/api/v1/games", json=GAME).get_json()
    app.config["FUZZ_GAME"] = created
    yield app


@pytest.fixture(scope="module")
def api_schema(fuzzed_app: Flask) -> Any:
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", fuzzed_app)


OPERATIONS = [
    ("/api/v1/adjudicate", "POST"),
    ("/api/v1/score", "POST"),
    ("/api/v1/arrange", "POST"),
    ("/api/v1/games", "POST"),
    ("/api/v1/games/{game_id}", "GET"),
    ("/api/v1/games/{game_id}/boxes", "POST"),
    ("/api/v1/games/{game_id}/boxes/{box_id}", "PUT"),
    ("/api/v1/games/{game_id}/boxes/{box_id}", "DELETE"),
    ("/api/v1/games/{game_id}/sheet.pdf", "GET"),
    ("/api/v1/games/{game_id}/end", "POST"),
    ("/api/v1/games/{game_id}/settings", "PUT"),
]


@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_api_fuzz(api_schema: Any, fuzzed_app: Flask, path: str, method: str) -> None:
    game = fuzzed_app.config["FUZZ_GAME"]
    operation = api_schema[path][method]
    cases = 0

    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        nonlocal cases
        cases += 1
        parameters = case.path_parameters
        if parameters and "game_id" in parameters and cases % 2 == 0:
            parameters["game_id"] = game["id"]
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['edit_token']}"}
            if "box_id" in parameters:
                parameters["box_id"] = _a_live_box(fuzzed_app, game["id"])
        case.call_and_validate(excluded_checks=[positive_data_acceptance])

    run()
    assert cases >= 10


def _a_live_box(app: Flask, game_id: str) -> int:
    engine = store.connect(str(app.config["DATABASE_URL"]))
    try:
        with Session(engine) as db:
            row = store.get_game(db, game_id)
            boxes = store.live_boxes(db, row) if row is not None else []
            return boxes[-1].id if boxes else 1
    finally:
        engine.dispose()


def test_the_fuzzed_game_is_still_consistent(fuzzed_app: Flask) -> None:
    """After all the fuzzing, every stored game still recomputes to what is stored."""
    engine = store.connect(str(fuzzed_app.config["DATABASE_URL"]))
    try:
        with Session(engine) as db:
            assert store.verify(db) == []
    finally:
        engine.dispose()


def test_openapi_document_is_valid(fuzzed_app: Flask) -> None:
    """The document validates as OpenAPI 3.1 (schemathesis refuses to load it otherwise)
    and names every route of the API blueprint."""
    doc = fuzzed_app.test_client().get("/api/v1/openapi.json").get_json()
    documented = {path.replace("{", "<").replace("}", ">") for path in doc["paths"]}
    routes = {
        re.sub(r"<int:(\w+)>", r"<\1>", str(rule.rule))
        for rule in fuzzed_app.url_map.iter_rules()
        if rule.endpoint.startswith("api.")
    }
    assert routes - {"/api/v1/openapi.json"} == documented
