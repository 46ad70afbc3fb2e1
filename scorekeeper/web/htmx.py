"""Answering htmx and plain browsers from one view (contact-app style)."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, render_template, request


def is_htmx() -> bool:
    """Whether htmx sent this request (and wants a fragment, not the page)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get(
        "HX-History-Restore-Request"
    )


QUIET = frozenset({409})
"""Answers htmx gets as 200: a conflict is a page to show (the game changed, the box
was taken), not a failed request for the browser's console; a browser without
JavaScript still gets the status itself."""


def status_for(status: int) -> int:
    """The status to send: :data:`QUIET` ones are 200 for htmx (it swaps the page the
    same way), themselves for a browser."""
    return 200 if status in QUIET and is_htmx() else status


def render(page: str, fragment: str, status: int = 200, **context: Any) -> Response:
    """The fragment for htmx, the full page (which includes the fragment) otherwise."""
    template = fragment if is_htmx() else page
    return varied(render_template(template, **context), status_for(status))


def varied(body: str, status: int = 200) -> Response:
    """The answer depends on whether htmx asked (caches must keep both)."""
    response = make_response(body, status)
    response.vary.add("HX-Request")
    return response


def go(url: str) -> Response:
    """After a successful POST: ``HX-Redirect`` for htmx, 303 See Other for a browser."""
    if is_htmx():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = url
        return response
    response = make_response("", 303)
    response.headers["Location"] = url
    return response


def error_page(code: int, title: str, message: str) -> tuple[str, int]:
    """A small error page (or fragment for htmx) that says what went wrong."""
    template = "errors/_error.html" if is_htmx() else "errors/error.html"
    return (render_template(template, code=code, title=title, message=message), status_for(code))
