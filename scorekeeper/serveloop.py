"""Waitress's loop without a cost per open connection on each of its turns (issue 34).

Waitress's own loop (``wasyncore.poll2``) builds a new ``poll`` set on every turn,
asking every connection whether it wants to read and to write: two Python calls and a
registration per connection, several turns per request. With a club evening's 900
phones each holding its keep-alive connection, that was most of what a request cost
the server: an unchanged poll took 4.15 ms of server CPU with 900 idle connections
open against 0.44 ms with none (``benchmarks/request_mix.py --served``,
docs/performance.md), so the evening's CPU per request grew with the room.

:class:`Steady` keeps one ``epoll`` set for the server's life and asks a connection
again only when something may have changed its answer: an event on its socket, a new
connection, a worker thread that served it (each of waitress's wake-ups of the loop
from a worker comes from serving one connection: :func:`serving` notes which), and
once every ``timeout`` (a second) every connection, as waitress's loop did at worst
when idle (a deadline passed, an idle connection closed by its maintenance). A
connection's channel says when it joins or leaves the map (:class:`Steady.touch`). The
listening sockets and the loop's trigger, which are few, are asked on every turn. The
events are handed to the same ``wasyncore.readwrite`` as waitress's loop.
"""

from __future__ import annotations

import contextlib
import select
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel

READ = select.EPOLLIN | select.EPOLLPRI
WRITE = select.EPOLLOUT

_serving = threading.local()


@contextlib.contextmanager
def serving(fd: int | None) -> Iterator[None]:
    """Within this, the worker thread serves the connection of ``fd``: a wake-up of the
    loop from this thread asks that connection again."""
    _serving.fd = fd
    try:
        yield
    finally:
        _serving.fd = None


def woken(pull: Callable[..., None], loop: Steady) -> Callable[..., None]:
    """``pull`` (a server's ``pull_trigger``) noting first which connection the calling
    worker thread serves, so the loop's next turn asks it again."""

    def pull_trigger(*args: Any) -> None:
        fd = getattr(_serving, "fd", None)
        if fd is not None:
            loop.touch(fd)
        pull(*args)

    return pull_trigger


def flags_of(dispatcher: Any) -> int:
    """What ``dispatcher`` waits for, asked as waitress's loop asks it."""
    flags = 0
    if dispatcher.readable():
        flags |= READ
    if dispatcher.writable() and not dispatcher.accepting:
        flags |= WRITE
    return flags


def install(server: Any, listening: Iterator[Any] | list[Any]) -> Steady | None:
    """Run ``server`` (``create_server``'s) on a :class:`Steady` loop, its ``listening``
    servers' wake-ups noting the connection served; None (waitress's own loop) where
    the system has no epoll."""
    if not hasattr(select, "epoll"):  # pragma: no cover - Linux has it
        return None
    loop = Steady()
    server.asyncore = loop
    for each in listening:
        each.pull_trigger = woken(each.pull_trigger, loop)
    return loop


class Steady:
    """One server's loop over its ``map`` (fd to dispatcher), with a lasting epoll set.

    Used as the server's ``asyncore`` (waitress's ``run`` calls its :meth:`loop`)."""

    def __init__(self) -> None:
        self.poller = select.epoll()
        self.known: dict[int, tuple[Any, int]] = {}
        """By fd: the dispatcher last asked and what it waited for (0: not in the set)."""
        self.always: set[int] = set()
        """The fds asked on every turn: listening sockets and the trigger."""
        self.dirty: set[int] = set()
        self.lock = threading.Lock()
        self.full_at = 0.0
        self.asked = 0
        """Dispatchers asked so far (the tests count them)."""

    def touch(self, fd: int) -> None:
        """Ask ``fd``'s dispatcher again on the next turn (any thread)."""
        with self.lock:
            self.dirty.add(fd)

    def loop(
        self,
        timeout: float = 30.0,
        use_poll: bool = False,
        map: dict[int, Any] | None = None,
        count: int | None = None,
    ) -> None:
        """Waitress's ``wasyncore.loop``: turns while the map has dispatchers."""
        assert map is not None
        while map and (count is None or count > 0):
            self.turn(timeout, map)
            if count is not None:
                count -= 1

    def turn(self, timeout: float, map: dict[int, Any]) -> None:
        """Ask what may have changed, wait for events (``timeout`` at most) and handle them."""
        now = time.monotonic()
        with self.lock:
            dirty, self.dirty = self.dirty, set()
        if now >= self.full_at:
            self.full_at = now + timeout
            for fd in self.known.keys() - map.keys():
                self._forget(fd)
            for fd, dispatcher in list(map.items()):
                if fd not in self.known and not isinstance(dispatcher, HTTPChannel):
                    self.always.add(fd)
                self._ask(fd, dispatcher)
        else:
            dirty |= self.always
            for fd in dirty:
                dispatcher = map.get(fd)
                if dispatcher is not None:
                    self._ask(fd, dispatcher)
                elif fd in self.known:
                    self._forget(fd)
        wait = max(min(timeout, self.full_at - now), 0.0)
        try:
            events = self.poller.poll(wait)
        except InterruptedError:  # pragma: no cover - a signal; Python retries poll itself
            events = []
        for fd, flags in events:
            dispatcher = map.get(fd)
            if dispatcher is None:
                continue
            wasyncore.readwrite(dispatcher, flags)
            self.touch(fd)

    def _ask(self, fd: int, dispatcher: Any) -> None:
        self.asked += 1
        flags = flags_of(dispatcher)
        before = self.known.get(fd)
        watched = False
        if before is not None and before[0] is dispatcher:
            if before[1] == flags:
                return
            watched = bool(before[1])
            if not flags:
                with contextlib.suppress(OSError, ValueError):
                    self.poller.unregister(fd)
                self.known[fd] = (dispatcher, flags)
                return
        elif before is not None:
            self._forget(fd)
        self.known[fd] = (dispatcher, flags)
        if flags:
            self._watch(fd, dispatcher, flags, watched)

    def _watch(self, fd: int, dispatcher: Any, flags: int, watched: bool) -> None:
        """Wait for ``flags`` on ``fd`` (``watched``: the set has it), whether or not the
        set has it after all (a socket closed and its number reused leaves the set on its
        own). A socket that is no longer open is closed as waitress's loop closes it
        (``POLLNVAL``)."""
        try:
            try:
                if watched:
                    self.poller.modify(fd, flags)
                else:
                    self.poller.register(fd, flags)
            except FileNotFoundError:
                self.poller.register(fd, flags)
            except FileExistsError:
                self.poller.modify(fd, flags)
        except OSError:
            self.known.pop(fd, None)
            wasyncore.readwrite(dispatcher, select.POLLNVAL)

    def _forget(self, fd: int) -> None:
        """``fd``'s dispatcher left the map (closed): out of the set, if still there."""
        _, flags = self.known.pop(fd)
        self.always.discard(fd)
        if flags:
            with contextlib.suppress(OSError, ValueError):  # closed: epoll dropped it already
                self.poller.unregister(fd)
