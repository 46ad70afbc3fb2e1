"""gzip for text responses and versioned, long-cached static files."""

from __future__ import annotations

import gzip
import re

from flask.testing import FlaskClient

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_pages_are_gzipped_for_browsers_that_accept_it(client: FlaskClient) -> None:
    plain = client.get("/rules/")
    packed = client.get("/rules/", headers=GZIP)
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"] and "HX-Request" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2


def test_static_urls_carry_a_content_version_and_cache_for_a_year(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    match = re.search(r'src="(/static/htmx\.min\.js\?v=[0-9a-f]{12})"', page)
    assert match is not None
    with client.get(match.group(1), headers=GZIP) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert "max-age=31536000" in response.headers["Cache-Control"]
        assert "immutable" in response.headers["Cache-Control"]
        body = gzip.decompress(response.data)
        assert b"htmx" in body and len(response.data) < 25_000 < len(body)
        etag = response.headers["ETag"]
    assert etag.endswith(':gzip"')  # another encoding, another validator (Flask-Compress)
    with client.get(match.group(1), headers={**GZIP, "If-None-Match": etag}) as again:
        assert again.status_code == 304


def test_small_static_files_are_sent_whole(client: FlaskClient) -> None:
    with client.get("/static/favicon.svg", headers=GZIP) as icon:
        assert icon.status_code == 200 and b"<svg" in icon.data
        assert "Content-Encoding" not in icon.headers


def test_binary_and_tiny_responses_are_left_alone(client: FlaskClient) -> None:
    health = client.get("/health", headers=GZIP)
    assert "Content-Encoding" not in health.headers and health.json is not None
    pad = client.get("/pads/pad.pdf?rules=gin", headers=GZIP)
    assert "Content-Encoding" not in pad.headers and pad.data.startswith(b"%PDF")
