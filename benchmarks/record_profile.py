"""CPU profile of the slowest web path: recording a box, end to end, in one process.

The app runs as in production (CSRF on, a real SQLite file in WAL mode), driven by
Flask's test client: a phone with edit rights posts the box form with htmx, one box
after another, on games that start at 20 boxes and are left at 40 (so the game being
written holds 30 boxes on average, as in a long evening). Every request is timed; a
second pass runs under ``cProfile`` to say where the time goes.

Run it alone with ``python -m benchmarks.record_profile`` (``--write``: into docs/performance.md).
"""

from __future__ import annotations

import cProfile
import importlib
import io
import json
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper.web import create_app

from . import webgames
from .timing import DOC, markdown_table, write_section

START_BOXES = 20
END_BOXES = 40
GAMES = 5
HX = {"HX-Request": "true"}

# Where the wall time of one request goes, measured without the profiler by wrapping
# these functions for one pass: (label, module, attribute). Nested entries overlap:
# loading the game includes scoring it, the write includes rewriting the rulings.
PARTS = (
    ("gamedata.load: read the game and score it", "scorekeeper.web.gamedata", "load"),
    ("  of which store reads (game and boxes)", "scorekeeper.store", "load_game"),
    ("gamedata.can_edit: the edit secret checked", "scorekeeper.web.gamedata", "can_edit"),
    ("forms.box_form: the WTForms form built and filled", "scorekeeper.web.forms", "box_form"),
    (
        "boxes.rule_box: form checked, the box ruled and added to the score",
        "scorekeeper.web.boxes",
        "rule_box",
    ),
    ("ledger.record: the write (the game held, the box scored, stored)", "scorekeeper.ledger", "record"),
    ("  of which store.append_box: the write transaction", "scorekeeper.store", "append_box"),
    ("CSRF check (Flask-WTF)", "flask_wtf.csrf", "validate_csrf"),
)


def _csrf_token(client: FlaskClient, game_id: str) -> str:
    page = client.get(f"/games/{game_id}/boxes/new").get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token"[^>]*value="([^"]+)"', page
    )
    if match is None:
        raise RuntimeError("no csrf_token in the box form")
    return match.group(1)


def _record_games(
    client: FlaskClient, tables: list[webgames.Table], profiler: cProfile.Profile | None
) -> list[float]:
    """Record boxes 21 to 40 on each game; the time of each POST in milliseconds."""
    times = []
    for table in tables:
        join = client.get(f"/games/{table.game_id}/join").get_data(as_text=True)
        found = re.search(r'name="csrf_token" value="([^"]+)"', join)
        assert found is not None
        client.post(f"/games/{table.game_id}/join", data={"csrf_token": found.group(1), "code": table.token})
        token = _csrf_token(client, table.game_id)
        for version in range(1, END_BOXES - START_BOXES + 1):
            data = MultiDict(webgames.box_form(version, token))
            if profiler is not None:
                profiler.enable()
            start = time.perf_counter_ns()
            response = client.post(f"/games/{table.game_id}/boxes/new", data=data, headers=HX)
            times.append((time.perf_counter_ns() - start) / 1e6)
            if profiler is not None:
                profiler.disable()
            if response.status_code != 200 or "HX-Redirect" not in response.headers:
                raise RuntimeError(
                    f"recording failed: {response.status_code} {response.get_data(as_text=True)[:300]}"
                )
    return times


@contextmanager
def _timed_parts() -> Iterator[dict[str, float]]:
    """Wrap each function of :data:`PARTS` to add up its wall time (in seconds)."""
    spent: dict[str, float] = dict.fromkeys((label for label, _, _ in PARTS), 0.0)
    saved = []
    for label, module_name, attribute in PARTS:
        module = importlib.import_module(module_name)
        original = getattr(module, attribute)

        def timed(*args: Any, _original: Any = original, _label: str = label, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_label] += time.perf_counter() - start

        saved.append((module, attribute, original))
        setattr(module, attribute, timed)
    try:
        yield spent
    finally:
        for module, attribute, original in reversed(saved):
            setattr(module, attribute, original)


def _top(stats: pstats.Stats, key: str, count: int) -> str:
    out = io.StringIO()
    stats.stream = out  # type: ignore[attr-defined]
    stats.sort_stats(key).print_stats(count)
    lines = out.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    return "\n".join(line.rstrip() for line in lines[start:] if line.strip())


def run() -> dict[str, Any]:
    """Time recording a box (median, p95) and profile it; the profile tables as text."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-profile-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'profile.sqlite3'}"
        with webgames.database(url) as db:
            tables = webgames.seed(db, webgames.game_in_progress(START_BOXES), 3 * GAMES + 1)
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "benchmark-only-secret"})
        client = app.test_client()
        _record_games(client, tables[:1], None)  # warm-up: templates, meld tables
        times = sorted(_record_games(client, tables[1 : GAMES + 1], None))
        with _timed_parts() as spent:
            timed = sum(_record_games(client, tables[GAMES + 1 : 2 * GAMES + 1], None))
        profiler = cProfile.Profile()
        _record_games(client, tables[2 * GAMES + 1 :], profiler)
    stats = pstats.Stats(profiler)
    requests = GAMES * (END_BOXES - START_BOXES)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    return {
        "record_box_test_client": {
            "median_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[int(0.95 * len(times)) - 1], 2),
            "max_ms": round(times[-1], 2),
            "requests": len(times),
        },
        "profiled_ms_per_request": round(sum(e[2] for e in raw.values()) * 1000 / requests, 2),
        "calls_per_request": round(sum(e[1] for e in raw.values()) / requests),
        "parts_ms_per_request": {
            "whole request (test client)": round(timed / requests, 2),
            **{label: round(seconds * 1000 / requests, 2) for label, seconds in spent.items()},
        },
        "top_cumulative": _top(stats, "cumulative", 25),
        "top_own_time": _top(stats, "tottime", 15),
    }


def section(result: dict[str, Any]) -> list[str]:
    """The docs/performance.md section of :func:`run`'s result."""
    timing = result["record_box_test_client"]
    parts = [
        [label.replace("  of which", "… of which"), ms]
        for label, ms in result["parts_ms_per_request"].items()
    ]
    return [
        "## Profile: recording a box",
        "",
        "`python -m benchmarks.record_profile`: the box form posted with htmx through "
        "Flask's test client (CSRF on, SQLite in WAL mode), boxes 21 to 40 of a game. "
        f"Unprofiled: median {timing['median_ms']} ms, p95 {timing['p95_ms']} ms over "
        f"{timing['requests']} requests. Wall time per request by part (nested parts "
        "overlap):",
        "",
        *markdown_table(["part", "ms per request"], parts),
        "cProfile, top functions by cumulative time (the profiler inflates the engine's "
        f"many small calls: {result['profiled_ms_per_request']} ms per request profiled):",
        "",
        "```",
        result["top_cumulative"],
        "```",
        "",
        "By own time:",
        "",
        "```",
        result["top_own_time"],
        "```",
        "",
    ]


if __name__ == "__main__":
    result = run()
    if "--write" in sys.argv[1:]:
        write_section(DOC, "## Profile: recording a box", "\n".join(section(result)) + "\n")
    tables = {k: result.pop(k) for k in ("top_cumulative", "top_own_time")}
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    for name, text in tables.items():
        sys.stdout.write(f"\n{name}\n{text}\n")
