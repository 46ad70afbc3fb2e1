"""The web app: one blueprint per feature, built by :func:`create_app` (``app.py``).

Pages work without JavaScript; htmx (vendored in ``static/``) only swaps
fragments. A request from htmx carries ``HX-Request``: the views answer it with
the fragment instead of the page, every response says ``Vary: HX-Request``, and
after a POST htmx gets a fragment or ``HX-Redirect``, never a 3xx.

A WSGI server takes the factory: ``gunicorn 'scorekeeper.web:create_app()'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``create_app``, loaded at its first use: ``scorekeeper.web.config`` (the command
    line's database address) then loads without the app's every module."""
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
