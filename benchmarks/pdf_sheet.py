"""Benchmark: ``render_sheet`` of a finished 40-box three-player Jersey Gin game.

The game is scored by the engine once; only the PDF is timed. One box in seven
is entered with cards, so the sheet has box detail (melds, layoffs, deadwood,
explanations) as well as the box table, the end-of-game block and the
settlement, as a club prints it. The target is set so that the 40th box ends
the game. Also timed: a blank Jersey Gin pad. Sizes are of the PDF bytes (the
embedded DejaVu fonts are subset by ReportLab to the glyphs used).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from benchmarks.timing import DOC, markdown_table, milliseconds, summary, write_section
from scorekeeper import engine
from scorekeeper.engine.contract import GameEntry, Sheet
from scorekeeper.pdf import render_blank_pad, render_sheet

PLAYERS = ("Ann", "Bob", "Cal")
BOXES = 40
DATE = datetime.date(2025, 3, 14)
TARGET_MS = 250
"""Issue 35 (300 in issue 15): a 130-box sheet with detail renders in under this, in-process."""
SCRIPT_NAMES = ("अर्जुन शर्मा", "สมชาย ใจดี", "محمد العربي")
"""Issue 35's names: Devanagari and Thai shaped by HarfBuzz, Arabic joined and reordered."""
HEAD = "## PDF"
ISSUE_26 = (
    "Issue 26 (each right-to-left name reordered on its own, Arabic in Noto Sans Arabic, the "
    "chart beside the end tables) cost nothing measurable: with the load average at 13 to 19 on"
    " the two cores, wall times were noise, so the old and new trees were timed alternately by "
    "CPU time (`time.process_time`, the best and median of 7 renders, twice each): the 130-box "
    "sheet with detail 170-175 / 183-193 ms before, 171-177 / 183-189 ms after; 11 boxes "
    "without detail 15-16 / 16-17 ms before, 14 / 15 ms after (one page now, two before). Noto "
    "Sans Arabic is parsed only when a name has Arabic letters, as the other fallback fonts "
    "are."
)
"""Measured by hand when issue 26 landed, on a machine too loaded for wall times."""
ISSUE_35 = (
    "Issue 35 (fonts and HarfBuzz shaping for Devanagari and Thai, notes in the box table, "
    "short names, pads) was measured on 2026-11-28 with the load average at 12 to 15 on the "
    "two cores (other sessions' suites): wall times were 3 to 30 times the quiet machine's and "
    "CPU times about 3 times, so the tree before (279f4a6) and after were timed alternately by "
    "CPU time (`time.process_time`, 9 renders each): the 130-box sheet with detail 428-625 ms "
    "before (median 498), 468-631 ms after (median 503): no change beyond the noise. The same "
    "sheet with Devanagari, Thai and Arabic names (`render_sheet_130_boxes_detail_scripts`) "
    "took about 1.9 times the CPU of the Latin one in that run (934 against 500 ms): each "
    "explanation line holds names in three embedded fonts. The 250 ms target needs a quiet "
    "machine to be checked: `python -m benchmarks.pdf_sheet --rounds 3`."
)
"""Measured by hand when issue 35 landed, on a machine too loaded for wall times."""
ISSUE_35_SPEED = (
    "Issue 35's last condition, the 130-box sheet with detail under 250 ms, took a round of its "
    "own (2026-11-28): the sheet spent its time setting strings one ReportLab object at a time. "
    "A run-on line is now one string a font run (was one a word); a table's text cells are drawn "
    "in one text object (`scorekeeper/pdf/grid.py` `Grid`, the same places and reading order); "
    "each string's PDF operators are made once per document (`document.SetOnce`); fixed column "
    "headings are plain cells, a box detail's heading line a `RunOnLine` and a name in a script "
    "of its own a `TextLine` instead of Paragraphs; a row of boxes of counts only is one flowable "
    "(`RunOnLines`); the box table's cells start in its font and padding instead of eight style "
    "commands over 2,000 cells. The pages are the same (every word of the Latin sheets in the "
    "same place, checked with `pdftotext -bbox` and pixel by pixel). With the load average at 6 "
    "to 11 from other sessions, the tree before (6daec9c) and after were timed alternately by "
    "CPU time (`time.process_time`, 7 renders, three times each; best and median of a run): the "
    "130-box sheet with detail 260-277 / 338-461 ms before, 164-232 / 217-311 ms after (the best "
    "run 37 % less); with Devanagari, Thai and Arabic names 477-506 / 562-622 ms before, "
    "216-231 / 227-265 ms after (55 % less: their cells and rule steps were Paragraphs)."
)
"""Measured by hand when issue 35's speed landed (A/B by CPU time on a loaded machine)."""


def _cards_box(by: str, second: str, third: str) -> dict[str, Any]:
    """A knock with the knocker's cards, the next hand as laid out, the third as a count."""
    return {
        "ending": "knock",
        "by": by,
        "hands": {
            by: {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]},
            second: {
                "melds": [["KH", "KC", "KS"]],
                "deadwood": ["AH", "AD", "2C", "2H", "3D", "4H"],
                "layoffs": [{"card": "4S", "onto": by}],
            },
            third: {"count": 14},
        },
    }


def _box(n: int) -> dict[str, Any]:
    """Box ``n``: knocks and gins in turn round the table, a misdeal and a box with cards."""
    by, second, third = (PLAYERS[(n + k) % 3] for k in range(3))
    if n % 7 == 3:
        return {
            "ending": "gin",
            "by": by,
            "hands": {by: {"count": 0}, second: {"count": 10 + n % 23}, third: {"count": 5 + n % 31}},
        }
    if n % 7 == 5:
        return _cards_box(by, second, third)
    if n % 7 == 6:
        return {"ending": "misdeal"}
    return {
        "ending": "knock",
        "by": by,
        "hands": {by: {"count": 1 + n % 9}, second: {"count": 12 + n % 27}, third: {"count": 11 + n % 19}},
    }


def game() -> dict[str, Any]:
    """The 40-box game, its target the winner's total after the last box."""
    played: dict[str, Any] = {
        "rules": "jersey-scarne",
        "settings": {"game_target": 100000},
        "players": list(PLAYERS),
        "dealer": "Ann",
        "stake": 0.05,
        "boxes": [_box(n) for n in range(BOXES)],
    }
    last = engine.score(played)["boxes"][-1]
    played["settings"] = {"game_target": last["totals"][last["winner"]]}
    return played


def _time(render: Callable[[], bytes], runs: int) -> dict[str, float]:
    """Median, p99 and worst of ``runs`` renders in milliseconds, the median CPU time of
    the process (what a render costs when other sessions share the cores: wall time then
    counts their turns too), and the PDF's size."""
    pdf = render()  # warm-up: the fonts are parsed once per process
    cpu: list[float] = []

    def timed(_: int) -> None:
        start = time.process_time()
        render()
        cpu.append((time.process_time() - start) * 1000)

    times = milliseconds(timed, range(runs))
    return {
        **summary(times),
        "cpu_median_ms": round(statistics.median(cpu), 1),
        "size_kb": round(len(pdf) / 1024, 1),
        "runs": runs,
    }


def long_game(boxes: int, players: tuple[str, ...] = PLAYERS) -> dict[str, Any]:
    """A game of ``boxes`` boxes still in progress (the target out of reach)."""
    game = {
        "rules": "jersey-scarne",
        "settings": {"game_target": 100000},
        "players": list(PLAYERS),
        "dealer": "Ann",
        "stake": 0.05,
        "boxes": [_box(n) for n in range(boxes)],
    }
    if players == PLAYERS:
        return game
    renamed = json.dumps(game)
    for old, new in zip(PLAYERS, players, strict=True):
        renamed = renamed.replace(f'"{old}"', json.dumps(new))
    played: dict[str, Any] = json.loads(renamed)
    return played


def run(runs: int = 20) -> dict[str, dict[str, float]]:
    """Time the 40-box sheet (target: under 100 ms and 100 KB), sheets of 11, 52 and 130
    boxes with and without detail (target: 130 boxes with detail under 300 ms), a blank pad."""
    played = GameEntry.from_json(game())
    score = Sheet.from_json(engine.score(played.to_json()))
    assert score.game_over and len(score.boxes) == BOXES
    results = {
        "render_sheet_40_boxes": _time(lambda: render_sheet(played, score, created=DATE), runs),
        "render_blank_pad_jersey": _time(lambda: render_blank_pad("jersey-scarne"), runs),
    }
    for boxes in (11, 52, 130):
        long = GameEntry.from_json(long_game(boxes))
        scored = Sheet.from_json(engine.score(long.to_json()))
        for detail, label in ((False, "no_detail"), (True, "detail")):
            results[f"render_sheet_{boxes}_boxes_{label}"] = _time(
                functools.partial(render_sheet, long, scored, detail=detail, created=DATE), max(5, runs // 2)
            )
    # Issue 35: the same 130 boxes with names in Devanagari, Thai and Arabic.
    named = GameEntry.from_json(long_game(130, SCRIPT_NAMES))
    scored = Sheet.from_json(engine.score(named.to_json()))
    results["render_sheet_130_boxes_detail_scripts"] = _time(
        functools.partial(render_sheet, named, scored, detail=True, created=DATE), max(5, runs // 2)
    )
    return results


def best_of(rounds: int, runs: int = 20) -> dict[str, dict[str, float]]:
    """:func:`run` ``rounds`` times; for each document the round with the lowest median.

    The machine is shared: another process taking a core slows a whole round, so the
    best round is the one least disturbed, not the luckiest render."""
    results = [run(runs) for _ in range(rounds)]
    return {name: min((r[name] for r in results), key=lambda f: f["median_ms"]) for name in results[0]}


def section(result: dict[str, dict[str, float]], *, rounds: int, load: str) -> str:
    """The PDF section of docs/performance.md."""
    rows = [
        [f"`{name}`", f["median_ms"], f["p99_ms"], f["max_ms"], f["cpu_median_ms"], f["size_kb"]]
        for name, f in result.items()
    ]
    detailed = result["render_sheet_130_boxes_detail"]["median_ms"]
    met = "met" if detailed < TARGET_MS else "**not met**"
    # Issue 35 lowered the target from 300 to 250 ms.
    return "\n".join(
        [
            HEAD,
            "",
            "`python -m benchmarks.pdf_sheet [--rounds N] [--write]`: ReportLab, into memory, "
            "with its C accelerator (`rl_accel`). Each document is rendered 10 to 20 times a "
            f"round, in {rounds} round{'' if rounds == 1 else 's'}; the table shows each "
            "document's round with the lowest median (the machine is shared by several "
            f"sessions; load average at the start: {load}).",
            "",
            *markdown_table(
                ["document", "median ms", "p99 ms", "worst ms", "CPU median ms", "size KB"], rows
            ),
            f"Issue 35's target (issue 15's was 300 ms), a 130-box sheet with detail under "
            f"{TARGET_MS} ms: {met} ({detailed} ms). Under issue 15 it was 267 ms (the best of "
            "three rounds; 279 and 309 ms in the others) while each box entered as counts only printed "
            "its one-line run-on explanation as a ReportLab Paragraph (markup parsed, lines "
            "broken fragment by fragment: about 0.9 ms a line, over a hundred lines); the "
            "change that brought it under 300 ms draws those lines as a `RunOnLine` "
            "(scorekeeper/pdf/runon.py) that measures each word once and sets it straight on "
            "the canvas (the same words, weights and fonts). Since issue 12 `render_sheet` "
            "reads the engine's typed `GameEntry` and `Sheet` instead of JSON dicts; the game is "
            "read and scored once, outside the timing, as the web app holds it.",
            "",
            ISSUE_26,
            "",
            ISSUE_35,
            "",
            ISSUE_35_SPEED,
            "",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds", type=int, default=1, help="run everything N times, keep each document's best round"
    )
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    args = parser.parse_args()
    load = " ".join(f"{n:.2f}" for n in os.getloadavg())
    result = best_of(args.rounds)
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    if args.write:
        write_section(DOC, HEAD, section(result, rounds=args.rounds, load=load))


if __name__ == "__main__":
    main()
