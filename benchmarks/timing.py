"""Timing one call at a time: the per-call milliseconds and their median, p99 and worst."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

DOC = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
"""The document the benchmarks write their figures into."""


def milliseconds(call: Callable[[T], object], items: Iterable[T]) -> list[float]:
    """Each call's wall time in ms, sorted; warm up before calling this."""
    times = []
    for item in items:
        start = time.perf_counter_ns()
        call(item)
        times.append((time.perf_counter_ns() - start) / 1e6)
    return sorted(times)


def summary(times: list[float]) -> dict[str, float]:
    """Median, 99th percentile and worst of sorted times, in ms."""
    return {
        "median_ms": round(statistics.median(times), 3),
        "p99_ms": round(times[max(int(len(times) * 0.99) - 1, 0)], 3),
        "max_ms": round(times[-1], 3),
    }


def write_section(doc: Path, head: str, text: str) -> None:
    """Put ``text`` (a section starting with ``head``) into ``doc`` in place of the section
    with that heading, or at the end: for benchmarks that write their own section of
    docs/performance.md beside ``make bench``."""
    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    if head in old:
        before, rest = old.split(head, 1)
        after = rest[rest.find("\n## ") :] if "\n## " in rest else ""
        new = before + text + after.lstrip("\n")
    else:
        new = old.rstrip("\n") + "\n\n" + text
    doc.write_text(new, encoding="utf-8")


def markdown_table(header: list[str], rows: list[list[Any]]) -> list[str]:
    """A Markdown table's lines (and a blank line after) for docs/performance.md."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return [*lines, ""]
