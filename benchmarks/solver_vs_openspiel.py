"""The meld solver side by side with OpenSpiel's C++ (issue 17): the minimum deadwood of
the same hands, in one process, each call timed alone.

OpenSpiel (``pip install open_spiel``, the ``bench`` extra) is optional: without it the
engine's figures are reported and OpenSpiel's are marked missing. Its utilities are
called through their Python binding with the hand already converted to its card
numbers, so only the solving is timed on both sides (plus one call into Python or
C++). Hands: random ten- and eleven-card hands, and dense ten-card hands (three or four
consecutive ranks of all four suits, where most cards can meld several ways); for
eleven cards, the count after the best discard (what OpenSpiel's ``min_deadwood``
answers for eleven). The
warm-up hands are other hands than the measured ones, so the engine's caches are in
their steady state but hold none of the measured answers. Target: the engine at most
3× OpenSpiel's median on random and dense ten-card hands.

``python -m benchmarks.solver_vs_openspiel``
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from benchmarks.engine_arrange import HANDS, WARM_UP, _dense_hands, _measure, _random_hands
from scorekeeper.engine.cards import Card
from scorekeeper.engine.melds import best_count, best_discard

SEED = 20261124
TARGET_RATIO = 3.0
RANKS = "A23456789TJQK"


def openspiel() -> Any | None:
    """OpenSpiel's gin rummy utilities for ten-card hands, or None where not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def _their_cards(utils: Any, hand: Sequence[Card]) -> list[int]:
    """A hand in OpenSpiel's card numbers ("As", "Td", ...)."""
    return list(utils.card_strings_to_card_ints(
        [RANKS[card.rank - 1] + card.suit.value.lower() for card in hand]))


def _after_discard(hand: Sequence[Card]) -> int:
    """The lowest count of eleven cards after the best discard (OpenSpiel's
    ``min_deadwood`` of an eleven-card hand)."""
    return best_discard(hand)[1].count


def _side_by_side(utils: Any | None, warm_up: list[list[Card]],
                  hands: list[list[Card]]) -> dict[str, Any]:
    solve = best_count if len(hands[0]) == 10 else _after_discard
    ours = _measure(solve, warm_up, hands)
    result: dict[str, Any] = {"engine": ours}
    if utils is None:
        result["openspiel"] = None
        return result
    converted = {id(hand): _their_cards(utils, hand) for hand in warm_up + hands}
    agree = all(solve(hand) == utils.min_deadwood(converted[id(hand)]) for hand in hands)
    def theirs(hand: Sequence[Card]) -> object:
        return utils.min_deadwood(converted[id(hand)])

    measured = _measure(theirs, warm_up, hands)
    result.update(openspiel=measured, agree=agree,
                  ratio=round(ours["median_us"] / measured["median_us"], 2))
    return result


def run() -> dict[str, Any]:
    rng = random.Random(SEED)
    utils = openspiel()
    results = {
        "random_10": _side_by_side(utils, _random_hands(rng, 10, WARM_UP),
                                   _random_hands(rng, 10, HANDS)),
        "dense_10": _side_by_side(utils, _dense_hands(rng, WARM_UP), _dense_hands(rng, HANDS)),
        "random_11": _side_by_side(utils, _random_hands(rng, 11, WARM_UP),
                                   _random_hands(rng, 11, HANDS)),
    }
    met = [r["ratio"] <= TARGET_RATIO for name, r in results.items()
           if name.endswith("_10") and "ratio" in r]
    return {**results, "target_ratio": TARGET_RATIO,
            "met": all(met) if met else None}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2) + "\n")
