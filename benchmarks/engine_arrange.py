"""How fast the meld solver arranges a hand (targets: 8 µs median for ten random
cards, 40 µs for the best discard from eleven).

Each call is timed alone with ``time.perf_counter_ns``. The warm-up hands are other
hands than the measured ones, so the solver's caches (meld lists and solved meld
groups, keyed by the cards that can meld) are in their steady state but hold none of
the measured hands' answers.

Run it alone with ``python -m benchmarks.engine_arrange``.
"""

from __future__ import annotations

import gc
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from scorekeeper.engine.cards import ALL_CARDS, Card
from scorekeeper.engine.melds import best_arrangement, best_discard

HANDS = 2000
WARM_UP = 500
SEED = 20240601


def _random_hands(rng: random.Random, size: int, count: int) -> list[list[Card]]:
    return [rng.sample(ALL_CARDS, size) for _ in range(count)]


def _dense_hands(rng: random.Random, count: int) -> list[list[Card]]:
    """Ten cards from three or four consecutive ranks of all four suits."""
    hands = []
    for _ in range(count):
        width = rng.choice((3, 4))
        low = rng.randint(1, 14 - width)
        source = [card for card in ALL_CARDS if low <= card.rank < low + width]
        hands.append(rng.sample(source, 10))
    return hands


def _measure(
    call: Callable[[Sequence[Card]], object], warm_up: list[list[Card]], hands: list[list[Card]]
) -> dict[str, float]:
    """Median and 99th percentile of one call, in microseconds."""
    for hand in warm_up:
        call(hand)
    gc.collect()
    times = []
    for hand in hands:
        start = time.perf_counter_ns()
        call(hand)
        times.append(time.perf_counter_ns() - start)
    times.sort()
    p99 = times[math.ceil(0.99 * len(times)) - 1]
    return {"median_us": round(statistics.median(times) / 1000, 2), "p99_us": round(p99 / 1000, 2)}


def run() -> dict[str, dict[str, float]]:
    """The three measurements, each from its own seeded hands."""
    rng = random.Random(SEED)
    return {
        "best_arrangement_random_10": _measure(
            best_arrangement, _random_hands(rng, 10, WARM_UP), _random_hands(rng, 10, HANDS)
        ),
        "best_arrangement_dense_10": _measure(
            best_arrangement, _dense_hands(rng, WARM_UP), _dense_hands(rng, HANDS)
        ),
        "best_discard_random_11": _measure(
            best_discard, _random_hands(rng, 11, WARM_UP), _random_hands(rng, 11, HANDS)
        ),
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2) + "\n")
