"""Shared fixtures (Flask's tutorial style): an app on a temporary SQLite database,
its test client and CLI runner."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.routing import Rule

from scorekeeper import store
from scorekeeper.web import create_app
from tests.web.browser import browser, chromium_process, live_server  # noqa: F401  (browser tests' fixtures)

LONGEST_FIRST = (
    "tests/web/test_table_score_in_view.py::test_thirty_boxes_with_the_totals_in_view_after_every_save",
    "tests/reliability/test_crash.py::test_kill_9_mid_stream_leaves_every_game_consistent[sqlite",
    "tests/reliability/test_crash.py::test_kill_9_mid_stream_leaves_every_game_consistent[postgresql",
    "tests/web/test_browser_events.py::test_a_nine_player_jersey_night_over_three_rounds",
    "tests/web/test_table_game.py::test_a_whole_jersey_game_on_two_phones",
    "tests/security/test_start_limits.py::test_a_burst_of_starts_from_one_address_is_refused_past_the_default",
    "tests/reliability/test_migrate.py::test_migrations_started_at_once_do_not_collide",
    "tests/reliability/test_hostile.py::test_a_table_keeps_recording_while_a_client_prints_the_biggest_sheets",
    "tests/web/test_browser.py::test_a_whole_jersey_gin_game_on_a_phone",
    "tests/reliability/test_event_restart.py::test_a_restart_in_the_middle_of_a_round_loses_nothing",
    "tests/reliability/test_serving.py::test_one_process_holds_300_phones_each_on_its_own_connection",
    "tests/walk/test_walk.py::TestWalk",
    "tests/reliability/test_scale_out.py::test_two_instances_share_games_rights_and_one_winner",
    "tests/reliability/test_serving.py::test_gunicorn_workers_record_boxes",
    "tests/engine/test_event_seating.py::test_threes_repeat_opponents_no_more_than_the_fewest_possible",
    "tests/ledger/test_kept_ladder.py::test_the_kept_ladder_equals_a_fresh_one_after_any_writes",
)
"""The tests of about 20 s or more (``--durations`` of a run with three workers on two
loaded cores, docs/performance.md "Test suite"), slowest first."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The :data:`LONGEST_FIRST` tests dealt out to the workers like cards, each worker's
    share at the head of its queue; the others in their files' order. pytest-xdist's
    worksteal gives each worker a contiguous slice of this order (the first of n workers
    ``len // n``, and so on) and an idle worker steals the tail half of the longest queue:
    with the long tests all at the front, the first worker ran them one after another
    while the others ran everything else. Every worker computes the same order, as it
    must."""

    def rank(item: pytest.Item) -> int:
        return next(
            (i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)),
            len(LONGEST_FIRST),
        )

    items.sort(key=rank)  # stable: the long ones first, slowest first
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return
    long = [item for item in items if rank(item) < len(LONGEST_FIRST)]
    rest = items[len(long) :]
    dealt: list[pytest.Item] = []
    for worker in range(workers):
        share = (len(items) - len(dealt)) // (workers - worker)  # xdist's first slices
        head = long[worker::workers][:share]
        dealt += head + rest[: share - len(head)]
        rest = rest[share - len(head) :]
    items[:] = dealt + rest


@pytest.fixture(autouse=True, scope="session")
def templates_compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every app the run creates loads its templates compiled once (Jinja's own bytecode
    cache, keyed by each template's source): a new app otherwise compiles every template
    it renders again, which was most of the time of the tests of pages."""
    cache = jinja2.FileSystemBytecodeCache(str(tmp_path_factory.mktemp("templates")))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Flask, "jinja_options", {**Flask.jinja_options, "bytecode_cache": cache})
        yield


@pytest.fixture(autouse=True, scope="session")
def url_builders_compiled_once() -> Iterator[None]:
    """Every app the run creates compiles each route's URL builder once: Werkzeug writes
    and compiles a Python function for each route and kind of builder, which the app's
    ``LazyRule`` defers to the route's first ``url_for`` in that app, and a thousand
    tests each create an app and render its pages. The function depends only on the
    rule's text, its parsed parts, its defaults and the kind of builder (it takes the
    rule itself as its first argument), so one compiled per route serves every app of
    the run."""
    compile_builder = Rule._compile_builder
    compiled: dict[tuple[object, ...], Callable[..., tuple[str, str]]] = {}

    def once(rule: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        key = (rule.rule, repr(rule.defaults), tuple(rule._trace), append_unknown)
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Rule, "_compile_builder", once)
        yield


@pytest.fixture(scope="session")
def migrated_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once for the whole run."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite3"
    store.migrate(f"sqlite:///{path}")
    return path


@pytest.fixture
def migrated(tmp_path: Path, migrated_once: Path) -> Callable[[str], str]:
    """A freshly migrated SQLite database of this name in the test's folder, as a URL: a
    copy (SQLite's backup) of :func:`migrated_once`, since migrating takes about 70 ms and
    hundreds of tests each want their own database. The migrations' own tests migrate."""

    def database(name: str) -> str:
        return copy_database(migrated_once, tmp_path / name)

    return database


def copy_database(source: Path, path: Path) -> str:
    """A copy (SQLite's backup) of the SQLite database ``source`` at ``path``, as a URL."""
    with (
        contextlib.closing(sqlite3.connect(source)) as original,
        contextlib.closing(sqlite3.connect(path)) as target,
    ):
        original.backup(target)
    return f"sqlite:///{path}"


@pytest.fixture
def app(migrated: Callable[[str], str]) -> Iterator[Flask]:
    url = migrated("test.sqlite3")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "SECRET_KEY": "test-secret-key",
            "WTF_CSRF_ENABLED": False,
            # Page tests render PDFs in the test's own process (a printing process each
            # would cost a second of start-up); tests/security's app keeps the real one.
            "PDF_IN_PROCESS": True,
        }
    )
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
