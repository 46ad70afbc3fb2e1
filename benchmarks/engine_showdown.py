"""Benchmark: a full three-player Jersey Gin ``adjudicate`` with cards for all three hands.

Random deals and dense deals (30 cards from a band of eight ranks, where melds and
layoffs abound and the knocker has many arrangements to choose from, C9). Only
deals whose knocker can knock (count 10 or less) are kept. Times are per call,
including reading and checking the JSON box.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from benchmarks.timing import milliseconds, summary
from scorekeeper.engine import adjudicate
from scorekeeper.engine.cards import ALL_CARDS, Card
from scorekeeper.engine.melds import best_count

PLAYERS = ("Ann", "Bob", "Cal")


def _deal(rng: random.Random, dense: bool) -> dict[str, Any]:
    while True:
        if dense:
            low = rng.randint(1, 6)
            pool = [card for card in ALL_CARDS if low <= card.rank < low + 8]
        else:
            pool = list(ALL_CARDS)
        cards = rng.sample(pool, 30)
        hands: list[list[Card]] = [cards[0:10], cards[10:20], cards[20:30]]
        if best_count(hands[0]) <= 10:
            return {
                "rules": "jersey-scarne",
                "players": list(PLAYERS),
                "ending": "knock",
                "by": "Ann",
                "hands": {p: {"cards": [c.code for c in h]} for p, h in zip(PLAYERS, hands, strict=True)},
            }


def _measure(boxes: list[dict[str, Any]]) -> dict[str, float]:
    for box in boxes[:20]:
        adjudicate(box)  # warm-up: meld tables and caches
    times = milliseconds(adjudicate, boxes)
    return {**summary(times), "boxes": len(times)}


def run(samples: int = 1000, seed: int = 2026) -> dict[str, dict[str, float]]:
    """Median, p99 and worst time of one three-player showdown with cards."""
    rng = random.Random(seed)
    return {
        "showdown_random": _measure([_deal(rng, dense=False) for _ in range(samples)]),
        "showdown_dense": _measure([_deal(rng, dense=True) for _ in range(samples)]),
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2) + "\n")
