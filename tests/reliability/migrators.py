"""Deploys that migrate at the same moment, as close together as processes can be.

``python -m tests.reliability.migrators RACERS URL [URL ...]``: for each database in
turn, RACERS processes forked from this one run ``scorekeeper migrate`` (the command
line's own ``main``, as ``python -m scorekeeper migrate`` runs it) on it. The program is
imported once, here, before the forks: a racer starts with nothing left to load, waits
until every racer is ready, and all are let go at once. Prints one JSON line: for each
URL, the racers' exit codes. The racers' own output goes to stderr.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import threading
import traceback

from scorekeeper import cli

# Everything `migrate` loads, loaded before the forks (nothing here connects to a database).
for _module in ("alembic.command", "alembic.config", "filelock", "psycopg", "scorekeeper.web.app"):
    importlib.import_module(_module)


def _racer(ready: int, start: int) -> None:
    """In the child: say ready, wait for the start, migrate, exit with the command's code."""
    os.dup2(2, 1)  # the command's JSON answer goes to stderr with any traceback
    code = 1
    try:
        os.write(ready, b".")
        os.read(start, 1)  # returns when the parent closes its end: the start
        code = cli.main(["migrate"])
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def race(url: str, racers: int) -> list[int]:
    """The exit codes of ``racers`` migrations of ``url`` let go at the same moment."""
    os.environ["SCOREKEEPER_DATABASE_URL"] = url
    ready_read, ready_write = os.pipe()
    start_read, start_write = os.pipe()
    children = []
    for _ in range(racers):
        pid = os.fork()
        if pid == 0:
            os.close(ready_read)
            os.close(start_write)
            _racer(ready_write, start_read)
        children.append(pid)
    os.close(ready_write)
    os.close(start_read)
    waiting = racers
    while waiting:
        said = os.read(ready_read, waiting)
        if not said:  # every racer has gone, some before saying ready
            break
        waiting -= len(said)
    os.close(start_write)  # every racer's read returns now
    os.close(ready_read)
    return [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]


def main(argv: list[str]) -> None:
    racers, urls = int(argv[1]), argv[2:]
    assert threading.active_count() == 1, "forking a process with threads"
    sys.stdout.write(json.dumps({url: race(url, racers) for url in urls}) + "\n")


if __name__ == "__main__":
    main(sys.argv)
