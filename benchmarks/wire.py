"""A lean HTTP/1.1 client for the load: one keep-alive connection, bytes in and out.

The load runs on the same two cores as the server it measures, so what the client
spends is taken from the server. ``http.client`` parses each answer's headers with the
``email`` package, about 0.35 ms of CPU a request; this client writes each request at
once and reads the answer by its ``Content-Length`` (or its chunks), in about a third
of that. It speaks only what the benchmark needs: no redirects, no proxies, no TLS.
"""

from __future__ import annotations

import socket

Header = tuple[str, str]


class Closed(ConnectionError):
    """The server closed the connection before the whole answer came."""


class Connection:
    """One keep-alive connection to ``host:port``."""

    def __init__(self, host: str, port: int, timeout: float = 60.0) -> None:
        self.authority = f"{host}:{port}"
        self._socket = socket.create_connection((host, port), timeout=timeout)
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""

    def close(self) -> None:
        self._socket.close()

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, list[Header], bytes]:
        """Send a request and read its whole answer: status, headers (as sent), body."""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.authority}",
            *(f"{name}: {value}" for name, value in (headers or {}).items()),
        ]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        self._socket.sendall("\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + (body or b""))
        status_line, *header_lines = self._until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        try:
            status = int(status_line.split(" ", 2)[1])
            found = [
                (name.strip(), value.strip()) for name, value in (line.split(":", 1) for line in header_lines)
            ]
        except (IndexError, ValueError) as err:
            raise Closed(f"not an HTTP answer: {status_line!r}") from err
        fields = {name.lower(): value for name, value in found}
        if method == "HEAD" or status in (204, 304) or status < 200:
            data = b""
        elif fields.get("transfer-encoding", "").lower() == "chunked":
            data = self._chunked()
        elif "content-length" in fields:
            data = self._exactly(int(fields["content-length"]))
        else:
            data = self._to_the_end()
        return status, found, data

    def _fill(self) -> None:
        chunk = self._socket.recv(65536)
        if not chunk:
            raise Closed("the server closed the connection")
        self._buffer += chunk

    def _until(self, marker: bytes) -> bytes:
        while (end := self._buffer.find(marker)) < 0:
            self._fill()
        found, self._buffer = self._buffer[:end], self._buffer[end + len(marker) :]
        return found

    def _exactly(self, size: int) -> bytes:
        while len(self._buffer) < size:
            self._fill()
        found, self._buffer = self._buffer[:size], self._buffer[size:]
        return found

    def _chunked(self) -> bytes:
        parts = []
        while size := int(self._until(b"\r\n").split(b";", 1)[0], 16):
            parts.append(self._exactly(size))
            self._until(b"\r\n")
        while self._until(b"\r\n"):  # trailers, up to the empty line
            pass
        return b"".join(parts)

    def _to_the_end(self) -> bytes:
        try:
            while True:
                self._fill()
        except Closed:
            found, self._buffer = self._buffer, b""
            return found
