"""``make bench``: run every benchmark and write ``docs/performance.md``.

``python -m benchmarks [--seconds N] [--out PATH]``; ``--seconds`` (or
``$SCOREKEEPER_BENCH_SECONDS``) shortens each server run from its 30 seconds.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import sys
import time
from pathlib import Path
from typing import Any

from . import (
    club,
    engine,
    event_standings,
    hostile,
    pages,
    pdf_sheet,
    player_page,
    record_profile,
    server,
    solver_vs_openspiel,
    taps,
)
from .timing import DOC, markdown_table


def _machine() -> dict[str, str]:
    """CPU model, cores, Python and the load the machine was under."""
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpu": model,
        "cores": str(os.cpu_count()),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "os": platform.platform(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def _load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def _engine_section(result: dict[str, Any]) -> list[str]:
    figures = result["figures"]
    rows = []
    for name, figure in figures.items():
        unit = "µs" if "median_us" in figure else "ms"
        median = figure.get("median_us", figure.get("median_ms"))
        p99 = figure.get("p99_us", figure.get("p99_ms"))
        worst = figure.get("max_ms", "")
        rows.append([f"`{name}`", f"{median} {unit}", f"{p99} {unit}", f"{worst} ms" if worst != "" else "–"])
    lines = ["## Engine", "", "`python -m benchmarks.engine` (arrangement, showdown, whole game).", ""]
    lines += markdown_table(["measurement", "median", "p99", "worst"], rows)
    lines += markdown_table(
        ["target", "measured", "met"],
        [
            [c["target"], f"{c['value']} {c['unit']}", "yes" if c["met"] else "**no**"]
            for c in result["targets"]
        ],
    )
    return lines


def _server_section(result: dict[str, Any]) -> list[str]:
    rows = []
    for name, run in result["runs"].items():
        path, clients = name.split("@")
        extra = []
        if run.get("side_requests"):
            extra.append(f"{run['side_requests']} untimed (join, sheet)")
        if run.get("phones_out_of_games"):
            extra.append(f"{run['phones_out_of_games']} phones ran out of games")
        if run.get("error_kinds"):
            extra.append(str(run["error_kinds"]))
        rows.append(
            [
                path,
                clients,
                run["requests"],
                run["rps"],
                run["p50_ms"],
                run["p95_ms"],
                run["p99_ms"],
                run["max_ms"],
                run["errors"],
                run["server_cpu_ms_per_request"],
                run["client_cpu_ms_per_request"],
                "; ".join(extra),
            ]
        )
    for key, label, note in (
        (
            "record_form_joining",
            "record_form, **a new game every 20 boxes**",
            "mid-run: the edit link and the sheet",
        ),
    ):
        run = result.get(key)
        if run:
            side = f"{run['side_requests']} untimed (join, sheet); " if run.get("side_requests") else ""
            rows.append(
                [
                    label,
                    run["clients"],
                    run["requests"],
                    run["rps"],
                    run["p50_ms"],
                    run["p95_ms"],
                    run["p99_ms"],
                    run["max_ms"],
                    run["errors"],
                    run["server_cpu_ms_per_request"],
                    run["client_cpu_ms_per_request"],
                    side + note,
                ]
            )
    runs = result["runs"]
    errors32 = sum(r["errors"] for n, r in runs.items() if n.endswith("@32"))
    lines = [
        "## Server, back to back",
        "",
        "`python -m benchmarks.server`: `scorekeeper serve` as `make run` starts it "
        "(one waitress process with threads; its access log off) on "
        f"127.0.0.1 with a temporary SQLite database; {result['seconds_per_run']:g} s per "
        "run (10 s at most for the single-client runs), client threads back to back on "
        "keep-alive connections (`benchmarks/wire.py`). Latencies in ms; *server CPU* "
        "is the CPU time of the server's processes divided by the requests they "
        "answered (untimed ones too), *client CPU* the same for the load generator, "
        "which runs on the same cores.",
        "",
        "`record_form` is phones at their tables: each opened the edit links of its "
        "games (20 boxes each) before the run and records a box on each in turn. "
        "`record_api` moves to a fresh game every 20 boxes, which costs the API "
        "nothing. The row *a new game every 20 boxes* records as the earlier "
        "benchmark did, each phone opening a new game's edit link and sheet in the "
        "middle of the run; the other phones of that process wait behind those two "
        "requests.",
        "",
    ]
    lines += markdown_table(
        [
            "path",
            "clients",
            "requests",
            "req/s",
            "p50",
            "p95",
            "p99",
            "max",
            "errors",
            "server CPU ms/req",
            "client CPU ms/req",
            "notes",
        ],
        rows,
    )
    lines += markdown_table(
        ["target", "measured", "met"],
        [
            ["no errors at 32 clients", f"{errors32} errors", "yes" if errors32 == 0 else "**no**"],
        ],
    )
    return lines


def _pages_section(result: dict[str, Any]) -> list[str]:
    rows = []
    for name in ("sheet", "box_entry"):
        page = result[name]
        rows.append(
            [
                name.replace("_", " "),
                page["requests"],
                page["transferred_kb"],
                page["gzip_kb"],
                "yes" if page["met"] else "**no**",
            ]
        )
    compresses = result["sheet"]["server_compresses"] or result["box_entry"]["server_compresses"]
    lines = [
        "## Pages",
        "",
        "`python -m benchmarks.pages`: a cold load (empty cache) in headless Chromium "
        "of the sheet of a finished 40-box game and of box entry on a 30-box game, by a "
        "phone with edit rights. Sizes in KB, headers included.",
        "",
        (
            "The server compressed the responses."
            if compresses
            else "waitress sends every body **uncompressed** (Chromium asked for gzip): "
            "*transferred* is what the browser really received, *gzip* the same bodies "
            "compressed at level 6 as a compressing proxy would send them."
        ),
        "",
    ]
    lines += markdown_table(
        ["page", "requests", "transferred KB", "gzip KB", f"under {result['target_kb']} KB gzip"], rows
    )
    detail = [
        [
            name.replace("_", " "),
            r["path"] if "/static/" in r["path"] else "(the page)",
            r["body_bytes"],
            r["gzip_body_bytes"],
        ]
        for name in ("sheet", "box_entry")
        for r in result[name]["resources"]
    ]
    lines += markdown_table(["page", "resource", "body bytes", "gzip bytes"], detail)
    return lines + LIGHTHOUSE.splitlines()


LIGHTHOUSE = """Lighthouse 12.8 (`npx lighthouse`, mobile, Debian's Chromium headless), measured once on
2026-11-26 with the load average at 15-17 on two cores (other work running), a watcher's
view (no session): performance / accessibility / best practices / SEO. Home 100/100/100/100;
sheet of a 6-box game 99/100/100/100; a box's page 97/100/100/100; new game 92/100/100/100
(98 and 99 run again alone: the load); check a hand 100/100/100/100; rules 98/100/100/100;
a preset's rules 100/100/100/100; players 100/100/100/100. No accessibility, best-practice
or SEO audit failed. The suite does not run Lighthouse (no node in the tests).
"""
"""Measured by hand (issue 22), not by ``make bench``: kept in the Pages section it writes."""


def _solver_section(result: dict[str, Any]) -> list[str]:
    rows = []
    for name in ("random_10", "dense_10", "random_11"):
        run = result[name]
        theirs = run.get("openspiel")
        rows.append(
            [
                name.replace("_", " ") + " cards",
                f"{run['engine']['median_us']} µs",
                f"{theirs['median_us']} µs" if theirs else "not installed",
                f"{run['ratio']}×" if "ratio" in run else "–",
                f"{run['target']:g}×" if "target" in run else "–",
                "yes" if run.get("agree") else ("–" if theirs is None else "**no**"),
            ]
        )
    met = result["met"]
    return [
        "## The solver beside OpenSpiel",
        "",
        "`python -m benchmarks.solver_vs_openspiel`: the minimum deadwood of the same "
        "hands by the engine (pure Python) and by OpenSpiel's C++ (`pip install "
        ".[bench]`), each hand timed once on each side, interleaved, with every cache "
        "keyed by a hand emptied before each of the engine's calls; for eleven cards the "
        "engine's best discard against OpenSpiel's minimum over the eleven discards "
        "(the method is the module's docstring). Targets: "
        f"{'met' if met else 'not met' if met is False else 'OpenSpiel not installed'}.",
        "",
        *markdown_table(
            ["hands", "engine median", "OpenSpiel median", "ratio", "target", "same counts"], rows
        ),
    ]


def write(results: dict[str, Any], machine: dict[str, str], loads: list[str], out: Path) -> None:
    seconds = results["server"]["seconds_per_run"]
    lines = [
        "# Performance",
        "",
        "Written by `make bench` (`python -m benchmarks`); every figure below comes from "
        "that run, except those of the test suite (timed runs of `make test`, kept as they "
        "are). Benchmarks are not part of `make test`.",
        "",
        "## Machine",
        "",
        f"- CPU: {machine['cpu']}, {machine['cores']} cores",
        f"- Python: {machine['python']} ({machine['os']})",
        f"- Date: {machine['date']}",
        f"- Load average (1, 5, 15 min) at the start: {loads[0]}; before the server runs: "
        f"{loads[1]}; at the end: {loads[2]}. The machine is shared: other processes "
        "(other sessions' test suites) ran during the benchmark, so figures are noisier and "
        "slower than on an idle machine; the load generator also runs on the same two "
        "cores as the server.",
        "",
        "## Reproduce",
        "",
        "```sh",
        "make bench                                   # everything, writes this file",
        "SCOREKEEPER_BENCH_SECONDS=5 make bench       # shorter server runs",
        "python -m benchmarks.engine                  # one benchmark, JSON on stdout",
        "python -m benchmarks.club --minutes 1        # the club's ramp, 1-minute evenings only",
        "python -m benchmarks.club --tables 300       # one 1-minute evening of 300 tables",
        "python -m benchmarks.server --seconds 5",
        "python -m benchmarks.pages",
        "python -m benchmarks.pdf_sheet",
        "python -m benchmarks.record_profile",
        "python -m benchmarks.hostile --seconds 10",
        "python -m benchmarks.event_standings",
        "python -m benchmarks.poll --profile          # server CPU per unchanged poll (issue 34)",
        "python -m benchmarks.request_mix --tables 300  # the evening's CPU by kind of request, in process"
        " (issue 34)",
        "python -m benchmarks.request_mix --tables 300 --served  # the same through a scorekeeper serve"
        " process",
        "```",
        "",
        f"This run: {seconds:g} s per server run.",
        "",
        *club.section(results["club"], results.get("club_before")),
        *event_standings.section(results["event_standings"]),
        *_engine_section(results["engine"]),
        *_solver_section(results["solver"]),
        *_server_section(results["server"]),
        *_pages_section(results["pages"]),
        pdf_sheet.section(results["pdf"], rounds=1, load=loads[0]),
        "",
        *hostile.section(results["hostile"], results.get("hostile_before")),
        *record_profile.section(results["profile"]),
        taps.section(results["taps"]),
        "",
        player_page.section(results["player_page"], load=loads[2]),
        "",
        *_test_suite_section(out),
        "## Earlier rounds",
        "",
        "What the profiles of earlier rounds showed and what was changed because of them "
        "is in `benchmarks/FINDINGS.md`; no figure above comes from there.",
        "",
    ]
    out.write_text("\n".join(lines), encoding="utf-8")


def _test_suite_section(out: Path) -> list[str]:
    """The "Test suite" section as the file has it: its figures come from timed runs of
    ``make test``, not from a benchmark, so a new benchmark run keeps them."""
    if not out.exists():
        return []
    kept = re.search(r"^## Test suite\n.*?(?=^## )", out.read_text(encoding="utf-8"), re.M | re.S)
    return kept.group(0).split("\n")[:-1] if kept else []


def main() -> None:
    parser = argparse.ArgumentParser(description="Run every benchmark; write docs/performance.md.")
    parser.add_argument("--seconds", type=float, help="each server run's duration")
    parser.add_argument("--out", type=Path, default=DOC)
    parser.add_argument(
        "--club-minutes", type=float, help="the club evenings' one length (else 1 and 3 minutes: issue 34)"
    )
    args = parser.parse_args()
    machine = _machine()
    loads = [_load_average()]
    results: dict[str, Any] = {}
    steps = (
        ("engine", engine.run),
        ("solver", solver_vs_openspiel.run),
        ("pdf", pdf_sheet.run),
        ("profile", record_profile.run),
        ("pages", pages.run),
        ("taps", taps.run),
        ("player_page", player_page.run),
        ("event_standings", event_standings.measured),
    )
    for name, step in steps:
        started = time.perf_counter()
        results[name] = step()
        sys.stderr.write(f"{name}: {time.perf_counter() - started:.0f} s\n")
    loads.append(_load_average())
    started = time.perf_counter()
    results["server"] = server.run(args.seconds)
    sys.stderr.write(f"server: {time.perf_counter() - started:.0f} s\n")
    started = time.perf_counter()
    results["hostile"] = hostile.run()
    if hostile.BEFORE.exists():
        results["hostile_before"] = json.loads(hostile.BEFORE.read_text(encoding="utf-8"))
    sys.stderr.write(f"hostile: {time.perf_counter() - started:.0f} s\n")
    started = time.perf_counter()
    results["club"] = club.run((args.club_minutes,) if args.club_minutes else club.LENGTHS)
    if club.BEFORE.exists():
        results["club_before"] = json.loads(club.BEFORE.read_text(encoding="utf-8"))
    sys.stderr.write(f"club: {time.perf_counter() - started:.0f} s\n")
    loads.append(_load_average())
    write(results, machine, loads, args.out)
    sys.stderr.write(f"wrote {args.out}\n")


if __name__ == "__main__":
    main()
