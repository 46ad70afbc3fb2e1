"""The app in its own process, as phones meet it: waitress on loopback.

``python -m tests.reliability.liveserver DATABASE_URL PORT`` serves a fresh app on
that database until killed. The reliability tests start it, hammer it from threads
and kill it with SIGKILL in the middle of writes. (``scorekeeper serve`` itself, and
gunicorn, are started by tests/reliability/test_serving.py as an operator starts them.)
"""

from __future__ import annotations

import sys

from waitress import serve

from scorekeeper.web import create_app

SECRET_KEY = "reliability-tests-" + "k" * 32


def main(argv: list[str]) -> None:
    url, port = argv[1], int(argv[2])
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY})
    serve(
        app,
        host="127.0.0.1",
        port=port,
        threads=8,
        ident="scorekeeper-test",
        connection_limit=200,
        channel_timeout=30,
    )


if __name__ == "__main__":
    main(sys.argv)
