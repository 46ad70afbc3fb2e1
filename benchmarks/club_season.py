"""Benchmark: a club's season, in process (issue 36).

A club of 300 members and a season of ``--evenings`` evenings (52 by default) of 30
tables of Jersey Gin (90 of the members drawn each evening, one round, three boxes a
table; each box also keeps its evening's row for the seasons, ``store.ladder``), then
timed call by call through Flask's test client: the season's page, the API's season
(its ladder) and a member's season page as they are read between writes; the season's
page read right after a correction of a box of the first evening (the ladder ranked
again from the kept evenings, the ratings rated again from the kept tables); and the
correction itself with that first read, the time until both the ladder and the ratings
show it (checked: a rating of the corrected game's players moves). Wall and CPU time:
the machine is shared, and the CPU time is what a call costs whatever the load.

``python -m benchmarks.club_season [--evenings N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper import ledger, store
from scorekeeper.engine.contract import BoxEntry, Hand
from scorekeeper.engine.contract.club import ClubEntry, SeasonEntry
from scorekeeper.engine.event import EventEntry
from scorekeeper.ledger import clubs, events
from scorekeeper.web import create_app

from .event_standings import _knock, _timed

MEMBERS = 300
TABLES = 30
SECRET = "bench-" + "k" * 40


def run(evenings: int) -> dict[str, Any]:
    names = [f"Member {n:03}" for n in range(1, MEMBERS + 1)]
    draw = random.Random(36)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-club-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'club.sqlite3'}"
        store.migrate(url)
        started = time.perf_counter()
        with store.opened(url) as db:
            club = clubs.begin(db, ClubEntry("Bench club", public=True), secret=SECRET.encode()).club.id
            for name in names:
                clubs.link(db, club, name, None)
            season = SeasonEntry.from_json({"name": "Year", "from": "2027-01-01", "to": "2027-12-31"})
            season_id = clubs.add_season(db, club, season)[1]
            first_game = ""
            boxes: list[float] = []
            for week in range(evenings):
                day = f"2027-{1 + week // 5:02}-{1 + 5 * (week % 5) + week // 60:02}"
                entry = EventEntry(
                    f"Week {week + 1}", tuple(draw.sample(names, 3 * TABLES)), rounds=1, seed=week, date=day
                )
                event = events.start_event(db, entry, secret=SECRET.encode()).event
                clubs.attach(db, club, event.id)
                for table in events.tables(db, event, 1):
                    assert table.game is not None
                    first_game = first_game or table.game
                    for n in range(3):
                        wall = time.perf_counter()
                        ledger.record(db, table.game, _knock(list(table.players), n))
                        boxes.append((time.perf_counter() - wall) * 1000)
            setup_s = round(time.perf_counter() - started)
            member = clubs.who(db, club)(names[0])[0]
            result: dict[str, Any] = {
                "members": MEMBERS,
                "evenings": evenings,
                "tables": TABLES,
                "setup_s": setup_s,
                "box_at_a_club_table": {
                    "wall_p50_ms": round(sorted(boxes)[len(boxes) // 2], 1),
                    "wall_p95_ms": round(sorted(boxes)[int(0.95 * len(boxes))], 1),
                },
            }
            stored = ledger.load(db, first_game)
            assert stored is not None and stored.boxes
            box = stored.boxes[0]
            players = list(stored.players)
            turn = iter(range(10**6))
            event_id = store.events.event_of_game(db, first_game)
            assert event_id is not None

            def correct() -> None:
                """A box of the first evening corrected (another knocker each time)."""
                n = next(turn)
                entry = BoxEntry(
                    ending="knock",
                    by=players[n % 3],
                    hands={p: Hand(count=2 if i == n % 3 else 20 + i) for i, p in enumerate(players)},
                )
                events.correct_box(db, event_id[0], first_game, box.id, entry)

            app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET})
            client = app.test_client()
            page = f"/clubs/{club}/seasons/{season_id}"
            api = f"/api/v1/clubs/{club}/seasons/{season_id}"
            result["season_page"] = _timed(lambda: client.get(page))
            result["api_season"] = _timed(lambda: client.get(api))
            result["member_page"] = _timed(lambda: client.get(f"{page}/members/{member}"))
            result["season_page_after_a_correction"] = _timed(lambda: client.get(page), correct)
            seats = {clubs.who(db, club)(p)[0] for p in players}

            def rating() -> list[object]:
                return [r for r in client.get(api).get_json()["ratings"] if r["member"] in seats]

            def corrected() -> None:
                correct()
                client.get(page)

            before = rating()
            result["correction_until_ladder_and_ratings_show_it"] = _timed(corrected)
            assert rating() != before, "the ratings did not move"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--evenings", type=int, default=52)
    args = parser.parse_args()
    load = Path("/proc/loadavg").read_text().split()[0]
    result = run(args.evenings)
    result["load_average"] = f"{load} -> {Path('/proc/loadavg').read_text().split()[0]}"
    sys.stdout.write(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
