"""The web app: one blueprint per feature, built by :func:`create_app` (``app.py``).

Pages work without JavaScript; htmx (vendored in ``static/``) only swaps
fragments. A request from htmx carries ``HX-Request``: the views answer it with
the fragment instead of the page, every response says ``Vary: HX-Request``, and
after a POST htmx gets a fragment or ``HX-Redirect``, never a 3xx.

A WSGI server takes the factory: ``gunicorn 'scorekeeper.web:create_app()'``.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
