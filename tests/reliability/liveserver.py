"""The app in its own process, as phones meet it: waitress on loopback.

``python -m tests.reliability.liveserver DATABASE_URL PORT`` serves a fresh app on
that database until killed. The reliability tests start it, hammer it from threads
and kill it with SIGKILL in the middle of writes.

``python -m tests.reliability.liveserver DATABASE_URL PORT WORKERS`` runs the real
:func:`scorekeeper.serve.serve` instead, with ``WORKERS`` server processes (a parent
that forks them on one listening socket), on the same database and secret key.
"""

from __future__ import annotations

import sys

from flask import Flask
from waitress import serve

import scorekeeper
from scorekeeper import create_app

SECRET_KEY = "reliability-tests-" + "k" * 32


def main(argv: list[str]) -> None:
    url, port = argv[1], int(argv[2])
    config = {"DATABASE_URL": url, "SECRET_KEY": SECRET_KEY}
    if len(argv) > 3:
        _serve_workers(config, port, int(argv[3]))
        return
    app = create_app(config)
    serve(app, host="127.0.0.1", port=port, threads=8, ident="scorekeeper-test",
          connection_limit=200, channel_timeout=30)


def _serve_workers(config: dict[str, str], port: int, workers: int) -> None:
    """``scorekeeper.serve.serve`` as ``scorekeeper serve --workers`` runs it, its
    ``create_app()`` given this test's database and key instead of ``instance/``'s (the
    worker processes are forked after this, so they build their apps the same way)."""
    from scorekeeper import serve as serving

    build = scorekeeper.create_app

    def configured() -> Flask:
        return build(config)

    setattr(scorekeeper, "create_app", configured)  # noqa: B010
    serving.serve("127.0.0.1", port, workers)


if __name__ == "__main__":
    main(sys.argv)
