"""The plain test server is forked from a forkserver (tests/reliability/liveserver.py):
still a process of its own, writing to its own log, that SIGKILL ends at once, and the
forkserver it comes from holds one thread (a fork copies no other thread's locks)."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import requests

from .conftest import LiveServer
from .liveserver import Forked
from .test_serving import Served


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _threads(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


def test_the_plain_server_is_forked_killable_and_logs_to_its_file(
    migrated: Callable[[str], str], tmp_path: Path
) -> None:
    url = migrated("forked.sqlite3")
    server = LiveServer(url, tmp_path / "server.log")
    assert server.forked() and not Served(url, tmp_path / "served.log").forked()
    server.start()
    try:
        assert isinstance(server.process, Forked)
        forkserver = _parent(server.process.pid)
        assert b"multiprocessing.forkserver" in Path(f"/proc/{forkserver}/cmdline").read_bytes()
        assert _threads(forkserver) == 1, "the forkserver runs threads: a fork may copy a held lock"
        assert Path(f"/proc/{server.process.pid}/fd/2").resolve() == server.log.resolve()
        assert Path(f"/proc/{server.process.pid}/fd/1").resolve() == server.log.resolve()
        assert requests.get(f"{server.url}/health", timeout=10).status_code == 200
        server.kill()
        assert server.process.poll() == -signal.SIGKILL
    finally:
        server.stop()
