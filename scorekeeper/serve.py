"""Serve the app on the LAN with waitress, so the other phones at the table can join."""

from __future__ import annotations

import logging
import socket
import sys

log = logging.getLogger("scorekeeper.serve")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other devices on the network can reach."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            # No packet is sent: connecting a UDP socket only picks the outgoing interface.
            probe.connect(("192.0.2.1", 9))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if address not in found:
                found.append(address)
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.")]


def urls(host: str, port: int) -> list[str]:
    """The addresses to type into a phone's browser."""
    wildcard = host in ("0.0.0.0", "", "::")
    hosts = (lan_addresses() or ["127.0.0.1"]) if wildcard else [host]
    return [f"http://{h}:{port}/" for h in hosts]


def serve(host: str, port: int) -> None:
    """Apply migrations, say where to connect, and serve with waitress until stopped."""
    from waitress import serve as waitress_serve

    from . import create_app, store

    app = create_app()
    store.migrate(str(app.config["DATABASE_URL"]))
    lines = ["Scorekeeper is running. Open it on the phones at the table:"]
    lines += [f"  {url}" for url in urls(host, port)]
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
    log.info("serving on %s:%s", host, port)
    waitress_serve(app, host=host, port=port, threads=8, clear_untrusted_proxy_headers=True,
                   ident="scorekeeper")
