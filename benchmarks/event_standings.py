"""Benchmark: an event's standings, in process (issue 25).

An event of 300 players at 100 tables of Jersey Gin in its second round (round 1
played out: ten boxes a table, the round closed by force; round 2 seated, three boxes a
table), then timed call by call: the standings alone (``ledger.events.standings``: one
read of the games' stored summaries, then ranked), the board a projector shows
(``ledger.events.board``: standings, tables and results from one read) and the whole
``GET /api/v1/events/<id>`` through Flask's test client. Both wall time and the
process's CPU time are given: the machine is shared, and the CPU time is what one
request costs the server whatever the load.

``python -m benchmarks.event_standings`` (``--write``: into docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, Hand
from scorekeeper.engine.event import EventEntry
from scorekeeper.ledger import events
from scorekeeper.web import create_app

from .timing import DOC, markdown_table, write_section

TABLES = 100
CALLS = 60
SECRET = "bench-" + "k" * 40
TITLE = "## An event's standings (issue 25)"


def _knock(players: list[str], by: int) -> BoxEntry:
    knocker = players[by % len(players)]
    return BoxEntry(
        ending="knock",
        by=knocker,
        hands={p: Hand(count=2 if p == knocker else 12 + i) for i, p in enumerate(players)},
    )


def _play(db: Any, event: store.events.LoadedEvent, round: int, boxes: int) -> None:
    for table in events.tables(db, event, round):
        assert table.game is not None
        for n in range(boxes):
            ledger.record(db, table.game, _knock(list(table.players), n))


def _timed(call: Callable[[], object], before: Callable[[], object] = lambda: None) -> dict[str, float]:
    """``call``'s wall and CPU time, ``before()`` (not timed) ahead of each call."""
    walls, cpus = [], []
    for _ in range(5):
        call()
    for _ in range(CALLS):
        before()
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    walls.sort()
    cpus.sort()
    p95 = int(0.95 * len(walls)) - 1
    return {
        "wall_p50_ms": round(walls[len(walls) // 2], 1),
        "wall_p95_ms": round(walls[p95], 1),
        "cpu_p50_ms": round(cpus[len(cpus) // 2], 1),
    }


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-event-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'event.sqlite3'}"
        store.migrate(url)
        with store.opened(url) as db:
            entry = EventEntry(
                "Club evening",
                tuple(f"Player {n:03}" for n in range(1, 3 * TABLES + 1)),
                rounds=3,
                settings={"game_target": 100000},
                seed=25,
            )
            started = time.perf_counter()
            event = events.start_event(db, entry, secret=SECRET.encode()).event
            seat_ms = (time.perf_counter() - started) * 1000
            _play(db, event, 1, 10)
            started = time.perf_counter()
            events.close_round(db, event.id, force=True)
            close_ms = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            event = events.seat_next_round(db, event.id, secret=SECRET.encode())
            next_ms = (time.perf_counter() - started) * 1000
            _play(db, event, 2, 3)
            event = events.load_event(db, event.id) or event
            result: dict[str, Any] = {
                "tables": TABLES,
                "players": 3 * TABLES,
                "start_and_seat_round_1_ms": round(seat_ms),
                "close_round_by_force_ms": round(close_ms),
                "seat_round_2_ms": round(next_ms),
                "standings": _timed(lambda: events.standings(db, event)),
                "board": _timed(lambda: events.board(db, event)),
            }
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET})
        client = app.test_client()
        result["api_get_event"] = _timed(lambda: client.get(f"/api/v1/events/{event.id}"))
        result["standings_page"] = _timed(lambda: client.get(f"/events/{event.id}/standings"))
        with store.opened(url) as db:
            tables = events.tables(db, event, 2)
            played = iter(range(10**6))

            def a_box() -> None:
                """A box at the next table: the event's state changes before the call."""
                n = next(played)
                table = tables[n % len(tables)]
                assert table.game is not None
                ledger.record(db, table.game, _knock(list(table.players), n))

            result["api_get_event_after_a_box"] = _timed(
                lambda: client.get(f"/api/v1/events/{event.id}"), a_box
            )
            result["standings_page_after_a_box"] = _timed(
                lambda: client.get(f"/events/{event.id}/standings"), a_box
            )
    return result


def section(result: dict[str, Any]) -> list[str]:
    """The section of docs/performance.md for one run."""
    rows = [
        [name, result[key]["wall_p50_ms"], result[key]["wall_p95_ms"], result[key]["cpu_p50_ms"]]
        for name, key in (
            ("standings (one read, ranked)", "standings"),
            ("board (standings, tables, results)", "board"),
            ("GET /api/v1/events/<id>", "api_get_event"),
            ("GET /events/<id>/standings (the projector's page)", "standings_page"),
            ("GET /api/v1/events/<id>, a box recorded before each", "api_get_event_after_a_box"),
            ("GET /events/<id>/standings, a box recorded before each", "standings_page_after_a_box"),
        )
    ]
    return [
        TITLE,
        "",
        f"`python -m benchmarks.event_standings`: {TABLES} tables, "
        f"{3 * TABLES} players of Jersey Gin in round 2 (round 1 ten boxes a "
        "table, closed by force; round 2 three boxes a table), SQLite, in "
        f"process, {CALLS} calls each. Starting the event and seating round 1 "
        f"(100 games created) took {result['start_and_seat_round_1_ms']} ms, "
        f"closing round 1 by force (100 games ended by agreement) "
        f"{result['close_round_by_force_ms']} ms, seating round 2 "
        f"{result['seat_round_2_ms']} ms. Load average "
        f"{result['load_average']} (a shared machine: the CPU column is what a "
        "call costs whatever the load).",
        "",
        *markdown_table(["call", "wall p50 ms", "wall p95 ms", "CPU p50 ms"], rows),
    ]


def measured() -> dict[str, Any]:
    """:func:`run` with the machine's load before and after."""
    load = Path("/proc/loadavg").read_text().split()[0]
    result = run()
    result["load_average"] = f"{load} -> {Path('/proc/loadavg').read_text().split()[0]}"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--write", action="store_true", help="put the figures into docs/performance.md")
    args = parser.parse_args()
    result = measured()
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    if args.write:
        write_section(DOC, TITLE, "\n".join(section(result)) + "\n")


if __name__ == "__main__":
    main()
