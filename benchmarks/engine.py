"""The engine benchmark: meld arrangement, the three-player showdown and a whole game.

Each measurement lives in its own module (run alone with ``python -m
benchmarks.engine_arrange`` and so on); this one runs them together and checks
the targets of issue 2 on this machine's CPython: random 10-card arrangement under
8 µs median, 11-card under 40 µs, a three-player showdown with cards under 1 ms
median and under 20 ms at worst on dense hands.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from . import engine_arrange, engine_game, engine_showdown

TARGETS = (
    # (label, measurement, figure, limit, unit)
    ("random 10-card arrangement, median", "best_arrangement_random_10", "median_us", 8.0, "µs"),
    ("random 11-card best discard, median", "best_discard_random_11", "median_us", 40.0, "µs"),
    ("three-player showdown with cards (random), median", "showdown_random", "median_ms", 1.0, "ms"),
    ("three-player showdown with cards (dense), median", "showdown_dense", "median_ms", 1.0, "ms"),
    ("three-player showdown with cards (dense), worst", "showdown_dense", "max_ms", 20.0, "ms"),
)


def run() -> dict[str, Any]:
    """Every engine measurement (medians and p99) and each target met or not."""
    figures: dict[str, Any] = {**engine_arrange.run(), **engine_showdown.run(), **engine_game.run()}
    checks = []
    for label, name, figure, limit, unit in TARGETS:
        value = figures[name][figure]
        checks.append(
            {"target": f"{label} under {limit:g} {unit}", "value": value, "unit": unit, "met": value < limit}
        )
    return {"figures": figures, "targets": checks}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2, ensure_ascii=False) + "\n")
