"""The web app: one blueprint per feature, registered by :func:`init_app`.

Pages work without JavaScript; htmx (vendored in ``static/``) only swaps
fragments. A request from htmx carries ``HX-Request``: the views answer it with
the fragment instead of the page, every response says ``Vary: HX-Request``, and
after a POST htmx gets a fragment or ``HX-Redirect``, never a 3xx.
"""

from __future__ import annotations

import json

from flask import Flask, Response, request
from flask_wtf.csrf import CSRFError, CSRFProtect  # type: ignore[import-untyped]

from . import cardfaces, compress, gamedata, htmx

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

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
])


def init_app(app: Flask) -> None:
    """Register the blueprints, CSRF, error pages, headers and template helpers."""
    from . import api, boxes, disputes, games, health, pads, rules

    csrf.init_app(app)
    compress.init_app(app)
    gamedata.init_app(app)
    for module in (games, boxes, rules, disputes, pads, api, health):
        app.register_blueprint(module.bp)
    csrf.exempt(api.bp)
    csrf.exempt(health.bp)

    app.jinja_env.filters["card"] = cardfaces.face
    app.jinja_env.filters["cards"] = cardfaces.faces
    app.jinja_env.filters["suits"] = cardfaces.suits
    app.jinja_env.globals["card_rows"] = cardfaces.grid
    app.jinja_env.globals["card_label"] = cardfaces.label
    app.jinja_env.globals["card_name"] = cardfaces.spoken
    app.jinja_env.globals["htmx_config"] = json.dumps(HTMX_CONFIG, separators=(",", ":"))
    app.after_request(_headers)
    app.register_error_handler(CSRFError, _csrf_error)
    for code in (400, 404, 405, 413):
        app.register_error_handler(code, _error_page)


def _headers(response: Response) -> Response:
    """Caches must key on HX-Request; the browser must run only our own static files."""
    response.vary.add("HX-Request")
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _csrf_error(error: CSRFError) -> tuple[str, int]:
    return htmx.error_page(
        400, "This form has expired",
        "The page was open too long or was opened elsewhere. Go back, reload the page and "
        "enter it again.",
    )


def _error_page(error: Exception) -> Response | tuple[str, int]:
    code = getattr(error, "code", 500) or 500
    if request.blueprint == "api" or request.path.startswith("/api/"):
        from .api import error_response

        return error_response(code, "malformed" if code != 404 else "not-found",
                              getattr(error, "description", str(error)))
    titles = {400: "Bad request", 404: "Not found", 405: "Not allowed",
              413: "Too much data"}
    return htmx.error_page(code, titles.get(code, "Error"),
                           str(getattr(error, "description", "")))
