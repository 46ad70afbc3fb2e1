"""Absolute links to this server, for phones to open and paper to print: from the address
whoever runs it configured, or from a Host header it can trust (issue 23)."""

from __future__ import annotations

import ipaddress
from typing import Any

from flask import current_app, request, url_for


def public_url(endpoint: str, **values: Any) -> str | None:
    """An absolute link to a page of this server, for phones to open: from the address
    whoever runs it configured (``PUBLIC_URL``), else from the request's Host when it
    is trusted (Flask's ``TRUSTED_HOSTS`` checked it, or it is an address a table's LAN
    uses: an IP address, localhost, a ``.local`` name); None for any other Host, which
    a stranger may have written (issue 23: links were built from any Host header)."""
    path = url_for(endpoint, **values)
    base = str(current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    if base:
        return base + path[len(request.script_root) :]
    if current_app.config.get("TRUSTED_HOSTS") or _lan_host(request.host):
        return url_for(endpoint, _external=True, **values)
    return None


def _lan_host(host: str) -> bool:
    """Whether a Host header names this machine as a table's LAN reaches it.

    >>> [_lan_host(h) for h in ("192.168.1.5:8000", "[::1]:8000", "pi.local", "evil.example")]
    [True, True, True, False]
    """
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 or host.startswith("[") else host
    name = name.strip("[]").lower()
    if name == "localhost" or name.endswith((".local", ".localhost")):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
