"""Benchmark: what a new state of an event's standings costs, in process (issue 34).

Every box at an event's table makes a new state of its standings; each process reads
it once (the kept rows changed, ranked) and draws it once for the API's JSON and once
for the projector's page, whoever asks first paying the read. This plays ``--states``
boxes at random tables of a ``--tables`` event (the evening of ``benchmarks.club``),
and after each asks for the event's JSON and its standings page (htmx's fragment, as a
projector polls it), taking the process's CPU time around each: every other state the
JSON first, else the page first. The median of each, first (the read and the drawing)
and second (the drawing alone), is what a state costs. ``read`` is the reading alone,
timed on a session of its own as a projector's process reads each state: beside the
board read before it (``scorekeeper.ledger.events.board``), before the asks.

``python -m benchmarks.standings_state --tables 300``; later in the evening, every table
played and a few boxes between two asks: ``--opened 300 --played 600 --boxes 3``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper import store
from scorekeeper.ledger import events as ledger_events
from scorekeeper.ledger import make_codes
from scorekeeper.web import create_app

from . import webgames
from .club import start_event
from .request_mix import SECRET, Mix, Phone, Projector, Table, _box, _open, _standings_page


def run(
    tables: int = 300, states: int = 40, opened: int = 30, seed: int = 34, played: int = 0, boxes: int = 1
) -> dict[str, Any]:
    """``played`` boxes at random open tables first (later in the evening: every player
    placed by what he won), then ``boxes`` boxes a state."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-state-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'state.sqlite3'}"
        with webgames.database(url) as db:
            event = start_event(db, tables, SECRET)
        # what the first asker pays: no thread reading the states ahead (web/ahead.py)
        mix = Mix(create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET, "READ_AHEAD_SECONDS": 0}))
        mix.counting = False
        listed = json.loads(mix.call("open", Phone(), "GET", f"/api/v1/events/{event.id}").body)
        seated = [
            Table(t["game"], make_codes(SECRET.encode(), t["game"], 1).edit, t["players"])
            for t in listed["tables"][:opened]
        ]
        for table in seated:
            _open(mix, table)
        for _ in range(played):
            _box(mix, rng.choice(seated))
        projector = Projector()
        _standings_page(mix, event.id, projector)
        spent: dict[str, list[float]] = {
            "json first": [],
            "page first": [],
            "json second": [],
            "page second": [],
            "read": [],
        }

        def timed(kind: str, call: Any) -> None:
            started = time.process_time()
            call()
            spent[kind].append(1000 * (time.process_time() - started))

        def as_json() -> None:
            mix.call("standings", Phone(), "GET", f"/api/v1/events/{event.id}")

        def page() -> None:
            _standings_page(mix, event.id, projector)

        with webgames.database(url) as reader:
            loaded = store.events.load_event(reader, event.id)
            assert loaded is not None
            board = ledger_events.board(reader, loaded)
            for n in range(states):
                for _ in range(boxes):
                    _box(mix, rng.choice(seated))
                # the state read as a projector's process reads it, beside the one before
                reader.rollback()
                started = time.process_time()
                board = ledger_events.board(reader, loaded, board)
                spent["read"].append(1000 * (time.process_time() - started))
                if n % 2:
                    timed("json first", as_json)
                    timed("page second", page)
                else:
                    timed("page first", page)
                    timed("json second", as_json)
    return {
        "tables": tables,
        "states": states,
        "opened": opened,
        "played": played,
        "boxes": boxes,
        "cpu_ms_median": {kind: round(statistics.median(times), 2) for kind, times in spent.items()},
        "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--opened", type=int, default=30, help="tables whose phones play")
    parser.add_argument("--played", type=int, default=0, help="boxes played before the states timed")
    parser.add_argument("--boxes", type=int, default=1, help="boxes a state")
    args = parser.parse_args()
    result = run(args.tables, args.states, args.opened, played=args.played, boxes=args.boxes)
    sys.stdout.write(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
