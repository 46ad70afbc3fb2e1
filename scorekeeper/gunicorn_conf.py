"""gunicorn's settings for scorekeeper: ``gunicorn -c python:scorekeeper.gunicorn_conf``
(docs/deploy.md, the Dockerfile). Each worker, once it has loaded the app, collects and
freezes what it built (:func:`scorekeeper.serve.settle`), as ``scorekeeper serve`` does;
its access log counts the unchanged polls as ``scorekeeper serve``'s does
(:class:`scorekeeper.serve.Unlogged`)."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from .serve import Unlogged, settle


def post_worker_init(worker: Any) -> None:
    """gunicorn's hook, called in each worker after it loaded the app, before it serves."""
    settle()


class PollsCounted(Logger):  # type: ignore[misc]
    """gunicorn's access log, but the htmx polls answered 204 (nothing new) counted and
    said once a minute, not written one by one."""

    unlogged = Unlogged()

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if Unlogged.unchanged_poll(environ, str(resp.status)):
            answered = self.unlogged.add()
            if answered and self.access_log_enabled:
                self.access_log.info(Unlogged.SAID, answered, self.unlogged.every)
            return
        super().access(resp, req, environ, request_time)


logger_class = PollsCounted
