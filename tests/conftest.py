"""Shared fixtures (Flask's tutorial style): an app on a temporary SQLite database,
its test client and CLI runner."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import store
from scorekeeper.web import create_app
from tests.web.browser import browser, chromium_process, live_server  # noqa: F401  (browser tests' fixtures)


@pytest.fixture(autouse=True, scope="session")
def templates_compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every app the run creates loads its templates compiled once (Jinja's own bytecode
    cache, keyed by each template's source): a new app otherwise compiles every template
    it renders again, which was most of the time of the tests of pages."""
    cache = jinja2.FileSystemBytecodeCache(str(tmp_path_factory.mktemp("templates")))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Flask, "jinja_options", {**Flask.jinja_options, "bytecode_cache": cache})
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
