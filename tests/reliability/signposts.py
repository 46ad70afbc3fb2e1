"""``scorekeeper serve`` with signposts, so that a test waits for a moment rather than
sleeping through it.

``python -m tests.reliability.signposts serve --host H --port P`` is the command line of
``python -m scorekeeper`` (the same ``main``, the same ``serve``) that also writes one
line to stderr (the server's log) at two moments a test orders threads by:

- ``signpost: BEGIN IMMEDIATE``: a request is in the app and about to take the
  database's write lock (it waits there while a test holds the lock);
- ``signpost: SIGTERM``: the signal was received and the server is closing.

Nothing else changes: the signal's handler is still :func:`scorekeeper.serve._finish`,
called from the wrapper.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from sqlalchemy import event
from sqlalchemy.engine import Engine

from scorekeeper import serve
from scorekeeper.cli import main

SIGNPOST = "signpost: "


def _say(what: str) -> None:
    sys.stderr.write(f"{SIGNPOST}{what}\n")
    sys.stderr.flush()


def _before_execute(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
    if statement.startswith("BEGIN IMMEDIATE"):
        _say("BEGIN IMMEDIATE")


def _finish(_signum: int, _frame: Any) -> NoReturn:
    _say("SIGTERM")
    finish(_signum, _frame)


finish = serve._finish


def signposted() -> int:
    """``main`` with the signposts up (only here: importing this module changes nothing)."""
    event.listen(Engine, "before_cursor_execute", _before_execute)
    serve._finish = _finish  # serve() installs the handler by this name
    return main()


if __name__ == "__main__":
    sys.exit(signposted())
