"""SECRET_KEY: generated into instance/ on first run, private to the server's user,
stable across restarts, agreed on by servers starting together, and never in code."""

from __future__ import annotations

import re
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import scorekeeper
from scorekeeper.web import app as web_app
from scorekeeper.web import create_app, session

PACKAGE = Path(scorekeeper.__file__).resolve().parent


def test_generated_on_first_run_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "secret_key"
    key = session.instance_secret(path)
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert session.instance_secret(path) == key
    assert not [p for p in tmp_path.iterdir() if p.name != "secret_key"], "temp file left"


def test_a_truncated_key_file_is_replaced(tmp_path: Path) -> None:
    """An empty file (say, a crash while an older version wrote it) never becomes an
    empty SECRET_KEY, which would make every session forgeable."""
    path = tmp_path / "secret_key"
    path.write_text("")
    key = session.instance_secret(path)
    assert len(key) == 64 and path.read_text() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_servers_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    """16 threads create the key at once: all get the same one."""
    path = tmp_path / "secret_key"
    keys: list[str] = []
    barrier = threading.Barrier(16)

    def start() -> None:
        barrier.wait(timeout=10)
        keys.append(session.instance_secret(path))

    threads = [threading.Thread(target=start) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert len(keys) == 16 and len(set(keys)) == 1 and path.read_text() == keys[0]


def test_the_app_uses_the_instance_key(
    tmp_path: Path, migrated: Callable[[str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without SECRET_KEY in the configuration the app makes one in its instance folder,
    and a restarted app reads the same one (sessions survive a restart)."""
    url = migrated("k.sqlite3")
    import flask

    def flask_in_tmp(*args: Any, **kwargs: Any) -> flask.Flask:
        kwargs["instance_path"] = str(tmp_path / "instance")
        return flask.Flask(*args, **kwargs)

    monkeypatch.setattr(web_app, "Flask", flask_in_tmp)
    first = create_app({"DATABASE_URL": url})
    again = create_app({"DATABASE_URL": url})
    key_file = tmp_path / "instance" / "secret_key"
    assert first.config["SECRET_KEY"] == again.config["SECRET_KEY"] == key_file.read_text()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_no_secret_in_code() -> None:
    """No module of the package assigns a literal to SECRET_KEY."""
    literal = re.compile(r"""SECRET_KEY["']?\s*[:=,]\s*(?:["'][^"']+["']|b["'])""")
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if literal.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
