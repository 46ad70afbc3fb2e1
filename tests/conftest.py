"""Shared fixtures (Flask's tutorial style): an app on a temporary SQLite database,
its test client and CLI runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import store
from scorekeeper.web import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    url = f"sqlite:///{tmp_path / 'test.sqlite3'}"
    store.migrate(url)
    app = create_app({
        "TESTING": True,
        "DATABASE_URL": url,
        "SECRET_KEY": "test-secret-key",
        "WTF_CSRF_ENABLED": False,
    })
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
