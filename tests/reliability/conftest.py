"""Fixtures for the reliability suite: a database of each kind, and the app served by
waitress in a separate process that a test may kill with SIGKILL.

PostgreSQL runs when Debian's server binaries are installed (``/usr/lib/postgresql/*``):
a throwaway cluster in a temporary directory, owned by an unprivileged user when the
tests run as root (PostgreSQL refuses root), on a free loopback port, for the whole
session. Without the binaries its tests are skipped, saying why.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import pytest
import requests

from scorekeeper import store

from . import liveserver

PROJECT = liveserver.PROJECT
START_SECONDS = 60.0
"""How long a server may take to answer its health check: a server starts in one or two
seconds, but on a machine loaded by other work (load 13 on two cores) 20 s was too few;
the wait ends as soon as it answers, so a long bound costs a passing run nothing."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LiveServer:
    """One waitress process serving the app on ``database_url``, its output in ``log``.

    This plain server is forked from a forkserver that has loaded the app once
    (tests/reliability/liveserver.py, :func:`~tests.reliability.liveserver.launch`): a
    fork and ``create_app`` instead of a whole interpreter start each time. A subclass
    that changes :meth:`command` or :meth:`environment` runs that command line in a new
    interpreter (:class:`subprocess.Popen`), as an operator starts it. Either way it is
    a process of its own that :meth:`kill` ends with SIGKILL."""

    database_url: str
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | liveserver.Forked | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The command line that serves: for the plain server, the one whose ``main``
        the fork runs (a subclass's is run as it is)."""
        return [sys.executable, "-m", "tests.reliability.liveserver", self.database_url, str(self.port)]

    def environment(self) -> dict[str, str] | None:
        """The process's environment (None: this one's)."""
        return None

    def forked(self) -> bool:
        """Whether :meth:`start` forks the plain server (neither :meth:`command` nor
        :meth:`environment` changed by a subclass) rather than run a command line."""
        plain = LiveServer.command, LiveServer.environment
        return (type(self).command, type(self).environment) == plain

    def ready(self) -> bool:
        try:
            return requests.get(f"{self.url}/health", timeout=1).status_code == 200
        except (requests.ConnectionError, requests.Timeout):  # not listening, or still booting
            return False

    def start(self) -> Self:
        """Start the process and wait (bounded) until it is :meth:`ready`; fail with
        the log's tail if it exits or does not answer in time."""
        if self.forked():
            self.process = liveserver.launch(self.database_url, self.port, self.log)
        else:
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    self.command(), cwd=PROJECT, stdout=log, stderr=subprocess.STDOUT, env=self.environment()
                )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            if self.ready():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flush, no rollback; as if the power went."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


# --- PostgreSQL ---------------------------------------------------------------------------


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@dataclass
class Postgres:
    """A running throwaway cluster; ``new_database()`` gives each test its own."""

    port: int
    admin_url: str

    def new_database(self, template: str = "template1") -> str:
        """A new database, empty, or a copy of ``template`` (PostgreSQL's own copy)."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        return f"postgresql+psycopg://scorekeeper@127.0.0.1:{self.port}/{name}"

    @functools.cached_property
    def migrated(self) -> str:
        """The name of a database migrated once for the session (no one connects to it:
        PostgreSQL copies a template only while it has no connections)."""
        url = self.new_database()
        store.migrate(url)
        return url.rsplit("/", 1)[1]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    binaries = _postgres_bin()
    if binaries is None:
        pytest.skip(
            "PostgreSQL server binaries not installed (/usr/lib/postgresql/*/bin): "
            "apt-get install postgresql to run the PostgreSQL suite"
        )
    run_as: list[str] = []
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL")
        run_as = ["runuser", "-u", "nobody", "--"]
        os.chown(workdir, 65534, 65534)
    data = workdir / "data"
    port = free_port()
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    subprocess.run(
        [
            *run_as,
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            "scorekeeper",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-instructions",
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=120,
    )
    # A throwaway cluster that no test crashes (the crash tests kill the app's server, not
    # PostgreSQL): it need not wait for the disk at each commit.
    options = (
        f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=32MB"
        " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    )
    subprocess.run(
        [
            *run_as,
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(workdir / "log"),
            "-w",
            "-t",
            "60",
            "start",
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=90,
    )
    try:
        yield Postgres(port, f"postgresql://scorekeeper@127.0.0.1:{port}/postgres")
    finally:
        subprocess.run(
            [*run_as, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        shutil.rmtree(workdir, ignore_errors=True)


# --- the database of each kind ------------------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path, migrated: Callable[[str], str]) -> str:
    """A migrated, empty database: SQLite in a file, then the same test on PostgreSQL.
    Each a copy of one migrated once for the run (tests/reliability/test_migrate.py and
    tests/store migrate their own)."""
    if request.param == "sqlite":
        return migrated("reliability.sqlite3")
    postgres = request.getfixturevalue("postgres")
    return str(postgres.new_database(template=postgres.migrated))


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(database_url, tmp_path / "server.log").start()
    yield live
    live.stop()
