"""The engine's minimum deadwood beside OpenSpiel's C++ one, in one process (issue 17).

The same seeded hands go to ``scorekeeper.engine.melds.best_count`` (pure Python) and
to OpenSpiel's ``GinRummyUtils.min_deadwood`` (C++ behind pybind11); every answer is
checked equal, and each call is timed alone with ``time.perf_counter_ns``. Random
hands are ten cards from the whole pack; dense hands ten cards from three or four
consecutive ranks of all four suits (many overlapping melds: the solver's worst
case); eleven-card hands are the best discard. The engine keeps caches (the melds of
a set of meldable cards, solved groups of melds): the main figures are its steady
state on unseen hands, the ``_cold`` ones with every cache emptied before each hand.

OpenSpiel is an optional extra (``pip install -e .[bench]``); without it only the
engine's figures are given. Run it with ``python -m benchmarks.solver_vs_openspiel``.
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
from typing import Any

from scorekeeper.engine import melds
from scorekeeper.engine.cards import ALL_CARDS, Card
from scorekeeper.engine.melds import best_count, best_discard

HANDS = 1000
WARM_UP = 500
ROUNDS = 5
SEED = 20261124


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


def _openspiel() -> tuple[Callable[[Sequence[Card]], int], Callable[[Sequence[Card]], int]] | None:
    """OpenSpiel's min_deadwood for 10 and 11 cards, taking our cards; None without it."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # optional: the bench extra
    except ImportError:
        return None
    ten = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    eleven = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def ints(hand: Sequence[Card]) -> list[int]:
        # OpenSpiel numbers a card suit * 13 + rank - 1 (suits are symmetric here).
        return [card.suit_number * 13 + card.rank - 1 for card in hand]

    return (lambda hand: int(ten.min_deadwood(ints(hand))),
            lambda hand: int(eleven.min_deadwood(ints(hand))))


def _forget() -> None:
    """Empty the engine's solver caches (melds by meldable cards, solved meld groups)."""
    melds._MEMOS.clear()
    for cache in (*melds._HAND_MELDS, *melds._SUIT_RUNS):
        cache.clear()


def _timed(call: Callable[[Sequence[Card]], int], hands: list[list[Card]],
           cold: bool = False) -> list[int]:
    """Each call timed alone; ``cold``: the engine's caches emptied before each call
    (outside the timing), its worst case, a process's first hands."""
    times = []
    for hand in hands:
        if cold:
            _forget()
        start = time.perf_counter_ns()
        call(hand)
        times.append(time.perf_counter_ns() - start)
    return times


def _summary(times: list[int]) -> dict[str, float]:
    times = sorted(times)
    p99 = times[math.ceil(0.99 * len(times)) - 1]
    return {"median_us": round(statistics.median(times) / 1000, 2),
            "mean_us": round(statistics.fmean(times) / 1000, 2),
            "p99_us": round(p99 / 1000, 2)}


def compare(make: Callable[[int], list[list[Card]]],
            ours: Callable[[Sequence[Card]], int],
            theirs: Callable[[Sequence[Card]], int] | None, cold: bool = False) -> dict[str, Any]:
    """Both solvers on the same hands, in rounds of fresh hands (the engine's caches are
    warmed on other hands and never hold a measured hand's answer before it is timed),
    each round timing one solver then the other so machine load falls on both alike;
    the answers are checked equal after the timing."""
    for hand in make(WARM_UP):
        ours(hand)
    gc.collect()
    our_times: list[int] = []
    their_times: list[int] = []
    measured: list[list[Card]] = []
    for _ in range(ROUNDS):
        hands = make(HANDS)
        measured += hands
        our_times += _timed(ours, hands, cold)
        if theirs is not None:
            their_times += _timed(theirs, hands)
    result: dict[str, Any] = {"hands": len(measured), "engine": _summary(our_times)}
    if theirs is not None:
        for hand in measured:
            assert ours(hand) == theirs(hand), [str(c) for c in hand]
        result["openspiel"] = _summary(their_times)
        result["ratio_median"] = round(result["engine"]["median_us"]
                                       / result["openspiel"]["median_us"], 2)
        result["ratio_mean"] = round(result["engine"]["mean_us"]
                                     / result["openspiel"]["mean_us"], 2)
    return result


def run() -> dict[str, Any]:
    """Random and dense ten-card hands, and random eleven-card hands."""
    rng = random.Random(SEED)
    openspiel = _openspiel()
    ten, eleven = openspiel if openspiel is not None else (None, None)

    def ours(hand: Sequence[Card]) -> int:
        return best_count(hand)

    def ours_11(hand: Sequence[Card]) -> int:
        return best_discard(hand)[1].count

    return {
        "openspiel": openspiel is not None,
        "random_10": compare(lambda n: _random_hands(rng, 10, n), ours, ten),
        "dense_10": compare(lambda n: _dense_hands(rng, n), ours, ten),
        "random_11": compare(lambda n: _random_hands(rng, 11, n), ours_11, eleven),
        "random_10_cold": compare(lambda n: _random_hands(rng, 10, n), ours, ten, cold=True),
        "dense_10_cold": compare(lambda n: _dense_hands(rng, n), ours, ten, cold=True),
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2) + "\n")
