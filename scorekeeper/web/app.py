"""The Flask app factory (Flask's tutorial ``create_app``): configuration from defaults,
the instance folder and the environment; the session; blueprints, CSRF, headers and
error pages.

Configuration, later steps winning: the defaults here (``DATABASE_URL`` from the plain
environment variable of that name, else the instance folder's SQLite file), the
instance folder's ``config.py``, every ``SCOREKEEPER_*`` environment variable
(``SCOREKEEPER_SECRET_KEY``, ``SCOREKEEPER_DATABASE_URL``, ... through Flask's
prefixed-env loader, so several instances share one secret), and last a test's
``test_config``. Only without a ``SECRET_KEY`` from any of these is the instance's
``secret_key`` file read or made.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MethodType
from typing import Any

from flask import Flask, Response, make_response, request
from flask_wtf.csrf import CSRFError, CSRFProtect  # type: ignore[import-untyped]
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed
from werkzeug.routing import Rule

from .. import engine, ledger
from ..engine import history, vocabulary
from . import ahead, cardfaces, compress, database, htmx, limits, polls, printing, standings
from . import config as settings
from .session import SessionInterface, instance_secret

_WEB = Path(__file__).resolve().parent


class LazyRule(Rule):
    """A URL rule whose two URL builders are compiled at their first ``url_for``, not
    when the rule is added. Werkzeug compiles both for each of the app's 129 rules as it
    adds them: 0.1 s of CPU, most of a ``create_app`` after the imports (and the suite
    builds hundreds of apps), for builders most processes never call. The builder is
    Werkzeug's own, so every URL is what it was; two threads building one rule's first
    URL at once compile it twice, and use either."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compiled: list[Callable[..., tuple[str, str]]] = []

        def build(rule: Rule, **values: Any) -> tuple[str, str]:
            if not compiled:
                compiled.append(MethodType(Rule._compile_builder(rule, append_unknown), rule))
            return compiled[0](**values)

        return build


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the web app: configuration, database, blueprints (Flask's tutorial factory).

    ``test_config`` replaces the instance configuration; tests pass a temporary
    ``DATABASE_URL`` and a fixed ``SECRET_KEY``.
    """
    app = Flask(
        settings.IMPORT_NAME,
        instance_path=str(settings.instance_folder()),
        instance_relative_config=True,
        template_folder=str(_folder("templates")),
        static_folder=str(_folder("static")),
    )
    app.url_rule_class = LazyRule
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    settings.configure(app.config, instance, test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(instance / "secret_key")

    app.session_interface = SessionInterface()
    proxies = int(app.config["PROXY_FIX"] or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )

    database.init_app(app)
    init_app(app)
    app.wsgi_app = polls.Unchanged(  # type: ignore[method-assign]
        app.wsgi_app, app.extensions["scorekeeper.engine"], UNCHANGED_HEADERS, standings.stamp_of
    )
    return app


def _folder(name: str) -> Path:
    """``templates`` or ``static``: inside the web package where it is installed (the
    wheel maps the top-level folders there, see pyproject.toml), else the checkout's
    top-level folder (an editable install or a plain checkout)."""
    installed = _WEB / name
    return installed if installed.is_dir() else _WEB.parent.parent / name


csrf = CSRFProtect()

HTMX_CONFIG = {
    "includeIndicatorStyles": False,
    "allowEval": False,
    "allowScriptTags": False,
    "historyRestoreAsHxRequest": False,
    "selfRequestsOnly": True,
    "responseHandling": [
        {"code": "204", "swap": False},
        {"code": "[23]..", "swap": True},
        {"code": "409", "swap": True},
        {"code": "422", "swap": True},
        {"code": "[45]..", "swap": False, "error": True},
    ],
}
"""htmx settings, given in a meta tag: no inline styles or eval (CSP), 409/422 swapped."""

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)


def init_app(app: Flask) -> None:
    """Register the blueprints, CSRF, error pages, headers and template helpers."""
    from . import api, boxes, clubs, disputes, events, games, health, joining, pads, players, rules

    csrf.init_app(app)
    compress.init_app(app)
    ahead.init_app(app)
    printing.init_app(app)
    for module in (games, joining, boxes, rules, disputes, pads, api, health, players, events, clubs):
        app.register_blueprint(module.bp)
    csrf.exempt(api.bp)
    csrf.exempt(health.bp)
    limits.init_app(app)  # after the blueprints: it limits their game-starting views

    app.jinja_env.filters["card"] = cardfaces.face
    app.jinja_env.filters["cards"] = cardfaces.faces
    app.jinja_env.filters["suits"] = cardfaces.suits
    app.jinja_env.globals["card_taps"] = cardfaces.taps
    app.jinja_env.globals["card_label"] = cardfaces.label
    # One vocabulary for the pages, the PDF and the explanations (engine/vocabulary.py).
    app.jinja_env.globals["result_title"] = vocabulary.title_of
    app.jinja_env.globals["words"] = vocabulary.vocabulary_for
    app.jinja_env.globals["deal_word"] = vocabulary.deal_word
    app.jinja_env.globals["ending_verbs"] = vocabulary.ENDING_VERBS
    # Every history line, of any kind, worded by one function (engine/history.py).
    app.jinja_env.globals["history_words"] = history.words
    app.jinja_env.globals["history_parts"] = history.worded
    app.jinja_env.globals["new_key"] = lambda: secrets.token_urlsafe(16)
    app.jinja_env.globals["htmx_config"] = json.dumps(HTMX_CONFIG, separators=(",", ":"))
    app.after_request(_headers)
    app.register_error_handler(CSRFError, _csrf_error)
    # A use case's refusal, or the engine's, that no view answered with its own form.
    app.register_error_handler(ledger.LedgerError, _refused)
    app.register_error_handler(engine.ScorekeeperError, _refused)
    # Every HTTP error, and 500 for an exception nothing caught (Flask logs it first):
    # the API answers CONTRACT.md's error object, never an HTML page.
    app.register_error_handler(HTTPException, _error_page)
    app.register_error_handler(InternalServerError, _error_page)


UNCHANGED_HEADERS = [
    ("Vary", "HX-Request, Accept-Encoding"),
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
]
"""The headers of an unchanged poll's 204 answered before the app (:mod:`.polls`): those
:func:`_headers` and Flask-Compress give the app's own."""


def _headers(response: Response) -> Response:
    """Caches must key on HX-Request; the browser must run only our own static files."""
    response.vary.add("HX-Request")
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _busy(error: HTTPException) -> Response:
    """503 (too many PDFs at once): the reason and when to retry, as JSON for the API
    and a page for browsers."""
    from .api import error_response

    retry = dict(error.get_headers()).get("Retry-After", str(printing.RETRY_SECONDS))
    message = error.description or "The server is busy: try again in a few seconds."
    if request.blueprint == "api" or request.path.startswith("/api/"):
        return error_response(503, "busy", message, headers={"Retry-After": retry})
    page, status = htmx.error_page(503, "The server is busy", message)
    response = Response(page, status=status, mimetype="text/html")
    response.headers["Retry-After"] = retry
    return response


def _csrf_error(error: CSRFError) -> tuple[str, int]:
    return htmx.error_page(
        400,
        "This form has expired",
        "The page was open too long or was opened elsewhere. Go back, reload the page and enter it again.",
    )


REFUSALS: tuple[tuple[type[Exception], int, str, str | None], ...] = (
    (ledger.KeyReused, 422, "This form was already used", None),
    (ledger.NotFound, 404, "Not found", None),
    (
        ledger.Stale,
        409,
        "The game has changed",
        "Another phone changed this game meanwhile. Look at the sheet again and try again.",
    ),
    (ledger.Conflict, 409, "The game has changed", None),
    (ledger.TooManyBoxes, 422, "This game is full", None),
    (ledger.LedgerError, 422, "This cannot be done", None),
    (engine.ScorekeeperError, 422, "The rules do not allow this", None),
)
"""The pages' answer to each refusal, in one place: (error, status, title, message:
None for the error's own words). The first class that matches wins. A view that shows
its form again (a box form that went stale, a box taken meanwhile, house rules a box
refuses) catches that error itself; the API answers with its own mapping
(``api._ledger_errors``)."""


def _refused(error: Exception) -> Response:
    """A refusal as an error page, or its fragment for htmx (JSON on the API's paths)."""
    if request.blueprint == "api" or request.path.startswith("/api/"):
        from .api import refusal

        return refusal(error)
    for kind, status, title, message in REFUSALS:
        if isinstance(error, kind):
            if message is None:
                message = error.message if isinstance(error, engine.ScorekeeperError) else str(error)
            return make_response(htmx.error_page(status, title, message))
    raise error  # not a refusal of ours


def _error_page(error: HTTPException) -> Response | tuple[str, int]:
    code = error.code or 500
    if code == 503:
        return _busy(error)
    if request.blueprint == "api" or request.path.startswith("/api/"):
        from .api import error_response

        if code >= 500:
            return error_response(
                code,
                "internal-error",
                "the server failed to answer this request; nothing was saved by it, and the error is logged",
            )
        response = error_response(
            code, "not-found" if code == 404 else "malformed", error.description or error.name
        )
        if code == 405 and isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.allow.update(error.valid_methods)
        return response
    game_id = (request.view_args or {}).get("game_id")
    if code == 403 and isinstance(game_id, str):
        from .invite import scorers_only

        return scorers_only(game_id)
    if code >= 500:
        return htmx.error_page(
            code,
            "Something went wrong",
            "The server could not answer. Nothing was saved by this request: go back and try again.",
        )
    titles = {400: "Bad request", 404: "Not found", 405: "Not allowed", 413: "Too much data"}
    return htmx.error_page(code, titles.get(code, error.name), error.description or "")
