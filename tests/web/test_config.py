"""Configuration from the environment (issue 12): every setting can come from a
``SCOREKEEPER_*`` variable, so several app instances share one secret and one database;
a secret from the environment wins over the instance's ``secret_key`` file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.web import app as web_app
from scorekeeper.web import config as web_config
from scorekeeper.web import create_app


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private instance folder, and an environment without the app's variables."""
    folder = tmp_path / "instance"
    monkeypatch.setattr(web_config, "instance_folder", lambda: folder)  # the app's and the command line's
    monkeypatch.delenv("DATABASE_URL", raising=False)
    for name in ("SECRET_KEY", "DATABASE_URL", "POLL_SECONDS", "PROXY_FIX"):
        monkeypatch.delenv(f"SCOREKEEPER_{name}", raising=False)
    return folder


@pytest.fixture
def url(migrated: Callable[[str], str]) -> str:
    return migrated("env.sqlite3")


def _signed_by(app: Flask, data: dict[str, str]) -> str:
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    return str(serializer.dumps(data))


def test_settings_come_from_the_environment(
    instance: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Values are read as JSON where they are JSON (a number stays a number), the
    secret and the database URL always as text, and no secret file is made."""
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "1234567890" * 4)
    monkeypatch.setenv("SCOREKEEPER_POLL_SECONDS", "5")
    app = create_app()
    assert app.config["DATABASE_URL"] == url
    assert app.config["SECRET_KEY"] == "1234567890" * 4
    assert app.config["POLL_SECONDS"] == 5
    assert not (instance / "secret_key").exists()


def test_an_environment_secret_wins_over_the_instance_file(
    instance: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance.mkdir()
    (instance / "secret_key").write_text("f" * 64)
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url)
    assert create_app().config["SECRET_KEY"] == "f" * 64
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "shared-" + "s" * 40)
    assert create_app().config["SECRET_KEY"] == "shared-" + "s" * 40
    assert (instance / "secret_key").read_text() == "f" * 64


def test_the_environment_wins_over_the_instance_config(
    instance: Path, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance.mkdir()
    (instance / "config.py").write_text(
        f"DATABASE_URL = 'sqlite:///{tmp_path / 'other.sqlite3'}'\nPOLL_SECONDS = 7\n"
    )
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "k" * 40)
    assert create_app().config["POLL_SECONDS"] == 7
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url)
    monkeypatch.setenv("SCOREKEEPER_POLL_SECONDS", "2")
    app = create_app()
    assert (app.config["DATABASE_URL"], app.config["POLL_SECONDS"]) == (url, 2)


def test_plain_database_url_is_the_fallback(
    instance: Path, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "k" * 40)
    assert create_app().config["DATABASE_URL"] == f"sqlite:///{instance / 'scorekeeper.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", url)
    assert create_app().config["DATABASE_URL"] == url
    preferred = f"sqlite:///{tmp_path / 'preferred.sqlite3'}"
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", preferred)
    assert create_app().config["DATABASE_URL"] == preferred
    assert web_config.database_url() == preferred


def test_a_tests_configuration_wins_over_the_environment(
    instance: Path, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shell's SCOREKEEPER_DATABASE_URL never sends a test to a real database."""
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'real.sqlite3'}")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "k" * 40)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "t" * 40})
    assert (app.config["DATABASE_URL"], app.config["SECRET_KEY"]) == (url, "t" * 40)


def test_the_command_lines_url_makes_no_secret(instance: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line finds the database as the app does, without building the app
    or writing a secret key."""
    assert web_config.database_url() == f"sqlite:///{instance / 'scorekeeper.sqlite3'}"
    assert not (instance / "secret_key").exists()


def test_instances_sharing_the_environment_secret_accept_each_others_cookies(
    tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two instances with their own instance folders and one secret from the environment:
    a session signed by one is read by the other; with their own secrets it is not."""
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", url)

    def instance_app(name: str) -> Flask:
        monkeypatch.setattr(web_config, "instance_folder", lambda: tmp_path / name)
        return create_app()

    own_a, own_b = instance_app("a"), instance_app("b")
    assert own_a.config["SECRET_KEY"] != own_b.config["SECRET_KEY"]
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "club-" + "c" * 40)
    shared_a, shared_b = instance_app("a"), instance_app("b")
    for cookie, reader, accepted in (
        (_signed_by(shared_a, {"game": "x"}), shared_b, True),
        (_signed_by(own_a, {"game": "x"}), own_b, False),
    ):
        with reader.test_request_context("/", headers={"Cookie": f"session={cookie}"}) as ctx:
            opened = reader.session_interface.open_session(reader, ctx.request)
            assert opened is not None
            assert (opened.get("game") == "x") is accepted


def test_every_url_is_built_as_werkzeugs_own_rules_build_it() -> None:
    """The app's rules compile their URL builders at first use (``LazyRule``, a tenth
    of a second off every ``create_app``): each endpoint's URL, with and without
    unknown arguments (a query string), is what Werkzeug's own rules build."""
    from werkzeug.routing import AnyConverter, BaseConverter, IntegerConverter, Map, PathConverter, Rule

    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "c" * 40})
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 100
    assert all(isinstance(rule, web_app.LazyRule) for rule in rules if rule.endpoint != "static")
    plain = Map(
        [Rule(r.rule, endpoint=r.endpoint, defaults=r.defaults, methods=r.methods) for r in rules],
        converters=app.url_map.converters,
    )

    def sample(converter: BaseConverter) -> object:
        if isinstance(converter, IntegerConverter):
            return 7
        if isinstance(converter, AnyConverter):
            return sorted(converter.items)[0]
        return "a b/é" if isinstance(converter, PathConverter) else "x y&é"

    def values(rule: Rule) -> dict[str, object]:
        return {name: sample(rule._converters[name]) for name in rule.arguments}

    lazy, werkzeugs = app.url_map.bind("club.example"), plain.bind("club.example")
    for rule in rules:
        for extra in ({}, {"size": "letter", "q": "a b"}):
            given = {**values(rule), **extra}
            assert lazy.build(rule.endpoint, given, method=sorted(rule.methods or {"GET"})[0]) == (
                werkzeugs.build(rule.endpoint, given, method=sorted(rule.methods or {"GET"})[0])
            ), rule.rule
