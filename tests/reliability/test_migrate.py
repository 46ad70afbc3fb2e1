"""Deploying: migrations as their own step, safe when two deploys start at once; a
health check that knows the schema; SQLite refused on network storage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import cli, store

from .conftest import PROJECT
from .liveserver import SECRET_KEY


def test_migrations_started_at_once_do_not_collide(
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    """Four ``scorekeeper migrate`` on one empty database at the same moment, three times
    on SQLite and (when installed) on PostgreSQL: every one exits 0 and the schema is
    current.

    The four are forked from one process that has loaded the program (migrators.py), so
    they start together rather than each first spending a second loading it. Without the
    lock, 117 of 120 such rounds crashed creating tables twice (2 to 6 racers, both
    databases; the 3 that did not were SQLite rounds of four on a loaded machine, where
    half crashed). At that worst rate SQLite's three rounds alone would miss a lost lock
    once in eight runs; PostgreSQL's rounds never missed one."""
    urls = [f"sqlite:///{tmp_path / f'race-{n}.sqlite3'}" for n in range(3)]
    if Path("/usr/lib/postgresql").exists():
        postgres = request.getfixturevalue("postgres")
        urls += [postgres.new_database() for _ in range(3)]
    done = subprocess.run(
        [sys.executable, "-m", "tests.reliability.migrators", "4", *urls],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == {url: [0, 0, 0, 0] for url in urls}, done.stderr[-3000:]
    for url in urls:
        assert store.schema_current(url), url


def test_health_says_503_until_the_schema_is_current(tmp_path: Path) -> None:
    """/health checks the schema is at the latest migration, not only that the database
    answers: an empty database is 503 "behind", a migrated one 200 "current"."""
    from scorekeeper.web import create_app

    url = f"sqlite:///{tmp_path / 'health.sqlite3'}"
    client = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY}).test_client()
    behind = client.get("/health")
    assert (behind.status_code, behind.json) == (
        503,
        {"status": "error", "database": "ok", "schema": "behind"},
    )
    store.migrate(url)
    current = client.get("/health")
    assert (current.status_code, current.json) == (
        200,
        {"status": "ok", "database": "ok", "schema": "current"},
    )


def test_the_heads_are_read_once_when_threads_ask_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A gunicorn worker's first writes ask for the heads from several threads at once:
    the scripts are parsed by one of them (Python 3.11's ``ast.parse`` in two threads at
    once failed a 480-table evening's joins with a 500), and every thread gets the heads."""
    import threading
    import time

    from scorekeeper.store import db

    parsed: list[str] = []
    literals = db._literals

    def slow_literals(script: Path, names: tuple[str, ...]) -> dict[str, object]:
        parsed.append(threading.current_thread().name)
        time.sleep(0.001)  # the other threads arrive while the first parses
        return literals(script, names)

    db._head_revisions.cache_clear()
    monkeypatch.setattr(db, "_literals", slow_literals)
    start = threading.Barrier(8)
    found: list[frozenset[str]] = []

    def ask() -> None:
        start.wait()
        found.append(db.head_revisions())

    try:
        threads = [threading.Thread(target=ask, name=f"asker-{n}") for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        db._head_revisions.cache_clear()
    scripts = len(list((db.MIGRATIONS / "versions").glob("*.py")))
    assert len(parsed) == scripts and len(set(parsed)) == 1
    assert len(found) == 8 and len(set(found)) == 1 and len(found[0]) == 1


def test_the_schema_check_reads_what_alembic_reads(tmp_path: Path) -> None:
    """``schema_current`` and ``head_revisions`` read the version table and the scripts'
    literals without Alembic (0.55 s of CPU at each server's start): the heads are
    Alembic's own, and a database one migration behind is not current."""
    import sqlalchemy as sa
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from scorekeeper.store.db import MIGRATIONS, head_revisions

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    scripts = ScriptDirectory.from_config(config)
    assert head_revisions() == frozenset(scripts.get_heads())
    url = f"sqlite:///{tmp_path / 'check.sqlite3'}"
    assert not store.schema_current(url)  # no version table
    store.migrate(url)
    assert store.schema_current(url)
    (head,) = head_revisions()
    below = scripts.get_revision(head).down_revision
    assert isinstance(below, str)
    with store.opened(url) as db:
        db.execute(sa.text("UPDATE alembic_version SET version_num = :below"), {"below": below})
        db.commit()
    assert not store.schema_current(url)


MOUNTS = """\
/dev/sda1 / ext4 rw,relatime 0 0
tmpfs /tmp tmpfs rw 0 0
fileserver:/export/club /srv/club\\040scores nfs4 rw,vers=4.2 0 0
//nas/share /mnt/nas cifs rw 0 0
"""


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        ("/srv/club scores/scorekeeper.sqlite3", "nfs4"),
        ("/mnt/nas/deep/down/s.sqlite3", "cifs"),
        ("/srv/local.sqlite3", None),
        ("/tmp/s.sqlite3", None),
    ],
)
def test_sqlite_on_network_storage_is_refused(path: str, refused: str | None) -> None:
    """A SQLite file under an NFS or SMB mount is refused naming the file, the file
    system and what to do instead; a local disk is fine; PostgreSQL is never looked at."""
    url = f"sqlite:///{path}"
    if refused is None:
        store.refuse_network_storage(url, MOUNTS)
        return
    with pytest.raises(store.NetworkStorage) as raised:
        store.refuse_network_storage(url, MOUNTS)
    message = str(raised.value)
    assert path in message and f"({refused})" in message and "PostgreSQL" in message
    store.refuse_network_storage("postgresql+psycopg://u@fileserver/club", MOUNTS)


def test_the_command_line_refuses_sqlite_on_network_storage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scorekeeper migrate`` on a SQLite file under an NFS mount exits 2 with the
    reason as a JSON error, and creates nothing there."""
    table = tmp_path / "mounts"
    table.write_text(MOUNTS + f"fileserver:/x {tmp_path / 'nfs'} nfs rw 0 0\n")
    (tmp_path / "nfs").mkdir()
    monkeypatch.setattr("scorekeeper.store.db.MOUNTS_TABLE", table)
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'nfs' / 's.sqlite3'}")
    assert cli.main(["migrate"]) == 2
    out, err = capsys.readouterr()
    assert '"code": "network-storage"' in out and "(nfs)" in err
    assert list((tmp_path / "nfs").iterdir()) == []
