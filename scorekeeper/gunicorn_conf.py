"""gunicorn's settings for scorekeeper: ``gunicorn -c python:scorekeeper.gunicorn_conf``
(docs/deploy.md, the Dockerfile). Each worker, once it has loaded the app, collects and
freezes what it built (:func:`scorekeeper.serve.settle`), as ``scorekeeper serve`` does."""

from __future__ import annotations

from typing import Any

from .serve import settle


def post_worker_init(worker: Any) -> None:
    """gunicorn's hook, called in each worker after it loaded the app, before it serves."""
    settle()
