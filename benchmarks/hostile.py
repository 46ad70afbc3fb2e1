"""Benchmark: a normal table keeps recording while a hostile client asks for the
largest PDFs it can, at once, over and over.

The hostile client fills a game to the box limit (``MAX_BOXES``, 300: draws with every
hand given as cards, so the sheet's detail pages are as long as they get) and then
``HOSTILE`` threads request its PDF with detail back to back. Meanwhile one table
records a box through the API and polls its sheet as a phone does (``GET
.../sheet?since=N`` with ``HX-Request``), in turn. The figure is the table's latency
(record + poll) under attack against the same when the server is idle.

Two runs: as served (sheets rendered in a printing process at low priority, one at a
time; a request that waits more than ``PDF_WAIT_SECONDS`` gets 503), and for comparison
as the server was before issue 14: every sheet rendered at once in the request's own
thread (``PDF_IN_PROCESS`` on, ``PDF_AT_ONCE`` 64).

``python -m benchmarks.hostile [--seconds N]``; tests/reliability/test_hostile.py runs
:func:`attack` briefly and checks the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from .server import PROJECT, _free_port, _wait_until_up

HOSTILE = 6
"""Concurrent PDF requests of the hostile client."""
TABLE_GAME: dict[str, Any] = {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"],
                              "dealer": "Ann", "boxes": []}
TABLE_BOX = {"ending": "misdeal", "note": "a table at play"}
"""Scores nothing: the table's game never ends however long the run."""
GAME_LIMIT = 250
"""The table starts a new game after this many boxes (under the server's box limit)."""
HANDS = {"Ann": {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]},
         "Bob": {"cards": ["AH", "2H", "3H", "8H", "8D", "8C", "9C", "10C", "JC", "4D"]}}


def biggest_game(boxes: int) -> dict[str, Any]:
    """A Gin game of ``boxes`` draws, every hand given as cards: it never ends, and its
    sheet prints every hand laid out."""
    return {"rules": "gin", "players": ["Ann", "Bob"], "dealer": "Ann",
            "boxes": [{"ending": "draw", "hands": HANDS} for _ in range(boxes)]}


@dataclass
class Phase:
    """The table's latencies over one phase, and what the hostile client got."""

    latencies: list[float] = field(default_factory=list)
    hostile: Counter[int] = field(default_factory=Counter)

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        p95 = ordered[max(int(len(ordered) * 0.95) - 1, 0)] if ordered else 0.0
        return {"cycles": len(ordered),
                "p50_ms": round(statistics.median(ordered) * 1000, 1) if ordered else None,
                "p95_ms": round(p95 * 1000, 1),
                "hostile_answers": dict(sorted(self.hostile.items()))}


class Table:
    """One table: records a box, then polls its sheet as the phones do."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()
        self.game_id = ""
        self.boxes = GAME_LIMIT
        self.version = 0
        self.auth: dict[str, str] = {}

    def cycle(self) -> float:
        """One record and one poll; their time together, in seconds."""
        if self.boxes >= GAME_LIMIT:
            created = self.http.post(f"{self.base}/api/v1/games", json=TABLE_GAME,
                                     timeout=60).json()
            self.game_id, self.version, self.boxes = created["id"], created["version"], 0
            self.auth = {"Authorization": f"Bearer {created['edit_token']}"}
        started = time.perf_counter()
        written = self.http.post(f"{self.base}/api/v1/games/{self.game_id}/boxes",
                                 json=TABLE_BOX, headers=self.auth, timeout=60)
        if written.status_code != 201:
            raise RuntimeError(f"the table's box was refused: {written.status_code}")
        polled = self.http.get(f"{self.base}/games/{self.game_id}/sheet",
                               params={"since": self.version},
                               headers={"HX-Request": "true"}, timeout=60)
        if polled.status_code != 200:
            raise RuntimeError(f"the table's poll answered {polled.status_code}")
        self.version = written.json()["version"]
        self.boxes += 1
        return time.perf_counter() - started


def _play(table: Table, seconds: float, phase: Phase) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        phase.latencies.append(table.cycle())


def attack(base: str, seconds: float, hostile: int = HOSTILE,
           boxes: int = 300) -> dict[str, Any]:
    """The table idle for ``seconds``, then for ``seconds`` with ``hostile`` threads
    fetching the PDF of a game of ``boxes`` boxes; both phases summarised, and the
    ratio of their median latencies."""
    big = requests.post(f"{base}/api/v1/games", json=biggest_game(boxes), timeout=120)
    if big.status_code != 201:
        raise RuntimeError(f"the big game was refused: {big.text[:300]}")
    pdf_url = f"{base}/api/v1/games/{big.json()['id']}/sheet.pdf"
    table = Table(base)
    for _ in range(5):  # warm up: templates, the first game, connections
        table.cycle()
    idle = Phase()
    _play(table, seconds, idle)
    attacked = Phase()
    stop = threading.Event()
    lock = threading.Lock()

    def hostile_client() -> None:
        http = requests.Session()
        while not stop.is_set():
            status = http.get(pdf_url, params={"detail": "1"}, timeout=300).status_code
            with lock:
                attacked.hostile[status] += 1

    threads = [threading.Thread(target=hostile_client, daemon=True) for _ in range(hostile)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # every hostile request is in flight
    _play(table, seconds, attacked)
    stop.set()
    for thread in threads:
        thread.join(timeout=300)
    quiet, busy = idle.summary(), attacked.summary()
    return {"idle": quiet, "attacked": busy, "hostile": hostile, "boxes": boxes,
            "ratio_p50": round(busy["p50_ms"] / quiet["p50_ms"], 1)}


@contextmanager
def serving(folder: Path, **settings: str) -> Iterator[str]:
    """``scorekeeper serve`` (waitress, as ``make run``) on a free port, its SQLite
    database in ``folder``, ``settings`` as ``SCOREKEEPER_*`` environment; its URL."""
    url = f"sqlite:///{folder / 'hostile.sqlite3'}"
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_BENCH_SECRET": secrets.token_hex(32),
           **{f"SCOREKEEPER_{name}": value for name, value in settings.items()}}
    subprocess.run([sys.executable, "-m", "scorekeeper", "migrate"], cwd=PROJECT, env=env,
                   check=True, capture_output=True)
    log_path = folder / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.server", "--serve", str(port)],
            cwd=PROJECT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_until_up(port, process, log_path)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def run(seconds: float = 15.0) -> dict[str, Any]:
    """Both runs: as served, and as before (in the request's thread, no turnstile)."""
    result: dict[str, Any] = {"seconds_per_phase": seconds}
    for name, settings in (("as_served", {}),
                           ("as_before", {"PDF_IN_PROCESS": "true", "PDF_AT_ONCE": "64",
                                          "PDF_WAIT_SECONDS": "600"})):
        with tempfile.TemporaryDirectory() as folder, serving(Path(folder), **settings) as base:
            result[name] = attack(base, seconds)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="each phase's duration")
    sys.stdout.write(json.dumps(run(parser.parse_args().seconds), indent=2) + "\n")


if __name__ == "__main__":
    main()


def section(result: dict[str, Any]) -> list[str]:
    """The docs/performance.md section of :func:`run`'s result."""
    rows = []
    for name, label in (("as_served", "as served: a printing process, one sheet at a time"),
                        ("as_before", "as before issue 14: in the request's thread, all "
                                      "at once")):
        run_ = result[name]
        idle, busy = run_["idle"], run_["attacked"]
        rows.append([label, f"{idle['p50_ms']} / {idle['p95_ms']}",
                     f"{busy['p50_ms']} / {busy['p95_ms']}", f"{run_['ratio_p50']}x",
                     busy["cycles"], ", ".join(f"{k}: {v}" for k, v in
                                               busy["hostile_answers"].items())])
    header = ["server", "table idle p50 / p95 ms", "under attack p50 / p95 ms",
              "p50 ratio", "table cycles under attack", "hostile PDF answers"]
    return [
        "## A hostile client", "",
        "`python -m benchmarks.hostile`: one table records a box through the API and "
        "polls its sheet as a phone does, in turn, first on an idle server, then while "
        f"{result['as_served']['hostile']} threads fetch, back to back, the PDF (with detail) "
        f"of a game filled to the box limit ({result['as_served']['boxes']} draws, every hand "
        "as cards). `scorekeeper serve` on SQLite; "
        f"{result['seconds_per_phase']:g} s per phase.", "",
        "| " + " | ".join(header) + " |", "|" + "---|" * len(header),
        *("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows), "",
        "Before, every PDF was rendered in the thread that asked for it: Python runs one "
        "thread at a time, so each render made the table's requests wait their turn. Now "
        "sheets are rendered in a printing process at a lower priority, one at a time, "
        "and a PDF request that cannot start within 5 s is answered 503 with Retry-After "
        "(`PDF_AT_ONCE`, `PDF_WAIT_SECONDS`); a game holds at most `MAX_BOXES` boxes "
        "(300), which bounds one sheet's work. tests/reliability/test_hostile.py checks "
        "the ratio.", "",
    ]
