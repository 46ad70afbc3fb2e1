"""Waiting in a test for what another thread or process does: checked often, bounded,
never slept through."""

from __future__ import annotations

import time
from collections.abc import Callable


def until(done: Callable[[], bool], seconds: float = 10.0, every: float = 0.01) -> None:
    """Return as soon as ``done()`` holds (asked every ``every`` seconds); fail once
    ``seconds`` have passed without it."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"not done in {seconds:g} s"
        time.sleep(every)
