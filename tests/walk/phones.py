"""A phone for the walk: a Flask test client that reads pages as a browser does (their
forms, with the hidden fields the server put there) and checks every answer it gets.

The walk posts the forms the pages offer, not hand-made bodies, so a form the server
stopped offering (or offers with a spent key) is found as a user would find it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse


@dataclass
class Form:
    """A form as a page offers it: where it posts and the values a browser would send."""

    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    options: dict[str, list[str]] = field(default_factory=dict)


class _Forms(HTMLParser):
    """Every form of a page, with its inputs, selects (the selected or first option) and
    text areas; buttons with a name are left out unless pressed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._chosen = False
        self._area: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = Form(at.get("action", ""), at.get("method", "get").lower())
            self.forms.append(self._form)
            return
        form = self._form
        if form is None:
            return
        name = at.get("name")
        if tag == "input" and name:
            kind = at.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                form.options.setdefault(name, []).append(at.get("value", "on"))
                if "checked" in at:
                    form.fields[name] = at.get("value", "on")
            elif kind not in ("submit", "button", "image", "file"):
                form.fields[name] = at.get("value", "")
        elif tag == "select" and name:
            self._select, self._chosen = name, False
            form.options[name] = []
        elif tag == "option" and self._select:
            value = at.get("value", "")
            form.options[self._select].append(value)
            if "selected" in at or self._select not in form.fields:
                if "selected" in at or not self._chosen:
                    form.fields[self._select] = value
                self._chosen = self._chosen or "selected" in at
        elif tag == "textarea" and name:
            self._area = name
            form.fields[name] = ""

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._area:
            self._form.fields[self._area] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._area = None


def forms_of(html: str) -> list[Form]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


class ServerError(AssertionError):
    """A page or write answered 5xx: what the walk exists to find."""


@dataclass
class Phone:
    """One phone: its own cookie jar (rights), and every answer checked for a 5xx."""

    name: str
    client: FlaskClient
    seen: list[str] = field(default_factory=list)

    def get(self, url: str, **kwargs: Any) -> TestResponse:
        return self._checked("GET", url, self.client.get(url, **kwargs))

    def post(self, url: str, **kwargs: Any) -> TestResponse:
        return self._checked("POST", url, self.client.post(url, **kwargs))

    def open(self, method: str, url: str, **kwargs: Any) -> TestResponse:
        return self._checked(method, url, self.client.open(url, method=method, **kwargs))

    def _checked(self, method: str, url: str, answer: TestResponse) -> TestResponse:
        self.seen.append(f"{method} {url} -> {answer.status_code}")
        if answer.status_code >= 500:
            body = answer.get_data(as_text=True)
            raise ServerError(f"{self.name}: {method} {url} answered {answer.status_code}:\n{body[:1500]}")
        return answer

    def form(self, url: str, action: str, *, ending: bool = False) -> Form | None:
        """The form on the page at ``url`` whose action contains ``action`` (``ending``:
        ends with it; a club's page has its evenings' leave forms, ``…/events/<id>/leave``,
        beside the one that brings an evening in, ``…/events``), None when the page
        offers none: the write is not offered to this phone now."""
        page = self.get(url)
        if page.status_code != 200:
            return None
        return next(
            (
                f
                for f in forms_of(page.get_data(as_text=True))
                if (f.action.endswith(action) if ending else action in f.action)
            ),
            None,
        )

    def submit(self, form: Form, **changes: str) -> TestResponse:
        return self.post(form.action, data={**form.fields, **changes})


def acknowledged(answer: TestResponse) -> bool:
    """Whether a page's write answered "done" as a phone sees it: a 303 to the next
    page (no JavaScript), or htmx's redirect header."""
    return answer.status_code in (302, 303) or "HX-Redirect" in answer.headers


def number(text: str) -> int:
    match = re.search(r"-?\d+", text)
    assert match is not None, text
    return int(match.group(0))
