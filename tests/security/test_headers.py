"""Headers and markup: a Content-Security-Policy that allows no inline script or style
(and pages that need none), nosniff, a referrer policy that keeps edit links in the
app, and no framing; on every page, fragment, API answer, error and static file."""

from __future__ import annotations

from html.parser import HTMLParser

from flask.testing import FlaskClient

from .conftest import StoredGame


def _pages(game: StoredGame) -> list[str]:
    g = game.id
    return [
        "/",
        "/games/new",
        "/games/new?rules=gin",
        f"/games/{g}",
        f"/games/{g}/sheet",
        f"/games/{g}/share",
        f"/games/{g}/boxes/new",
        f"/games/{g}/boxes/{game.box_id}",
        f"/games/{g}/boxes/{game.box_id}/edit",
        "/check",
        "/check?typed=AS+2S+3S",
        "/settle",
        "/settle?rules=gin&players=Ann,Bob",
        "/rules/",
        "/rules/?q=knock",
        "/rules/jersey-scarne",
        "/games/nope",
        "/nothing-here",
    ]


def _csp(value: str) -> dict[str, list[str]]:
    policy: dict[str, list[str]] = {}
    for directive in value.split(";"):
        name, *sources = directive.split()
        policy[name] = sources
    return policy


def test_headers_on_every_answer(editor: FlaskClient, stored_game: StoredGame) -> None:
    urls = [
        *_pages(stored_game),
        f"/api/v1/games/{stored_game.id}",
        "/api/v1/openapi.json",
        f"/games/{stored_game.id}/sheet.pdf",
        f"/games/{stored_game.id}/export.json",
        "/static/app.css",
        "/static/htmx.min.js",
        "/health",
    ]
    for url in urls:
        for headers in ({}, {"HX-Request": "true"}):
            response = editor.get(url, headers=headers)
            response.close()  # static files are streamed
            assert response.status_code < 500, url
            policy = _csp(response.headers["Content-Security-Policy"])
            for directive in ("default-src", "script-src", "style-src"):
                assert policy[directive] == ["'self'"], (url, directive)
            assert policy["frame-ancestors"] == ["'none'"]
            assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
            assert policy["form-action"] == ["'self'"]
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Referrer-Policy"] in ("same-origin", "no-referrer")
            assert response.headers["X-Frame-Options"] == "DENY"
            assert "HX-Request" in response.headers.get("Vary", ""), url


class _InlineFinder(HTMLParser):
    """Collects whatever a strict CSP would block: inline scripts and styles, style
    attributes, event handler attributes, javascript: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script":
            self._in_script = True
            if "src" not in names:
                self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")
        for name, value in attrs:
            if name == "style":
                self.found.append(f"style attribute on <{tag}>")
            if name.startswith("on"):
                self.found.append(f"{name} handler on <{tag}>")
            if name.startswith("hx-on"):
                self.found.append(f"{name} (htmx eval) on <{tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: URL on <{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append("inline script text")


def test_no_page_needs_inline_script_or_style(editor: FlaskClient, stored_game: StoredGame) -> None:
    """Every main page and fragment, as the editor sees it (the most forms): nothing a
    CSP without 'unsafe-inline' would block, and htmx configured not to eval or inject
    styles."""
    for url in _pages(stored_game):
        for headers in ({}, {"HX-Request": "true"}):
            finder = _InlineFinder()
            page = editor.get(url, headers=headers).get_data(as_text=True)
            finder.feed(page)
            assert finder.found == [], (url, headers, finder.found)
    page = editor.get("/").get_data(as_text=True)
    assert "&#34;allowEval&#34;:false" in page or '"allowEval":false' in page
    assert "includeIndicatorStyles&#34;:false" in page or '"includeIndicatorStyles":false' in page
