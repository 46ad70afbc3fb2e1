"""The meld solver side by side with OpenSpiel's C++ (issues 17, 21): the minimum deadwood
of the same hands, in one process, each hand timed once on each side, interleaved.

Method (docs/performance.md, "The solver beside OpenSpiel"):

- Hands: random ten-card hands, dense ten-card hands (three or four consecutive ranks of
  all four suits, where most cards can meld several ways) and random eleven-card hands,
  each set from its own seed.
- No memo serves a hand seen before: before every timed call of the engine, every cache
  keyed by a hand's cards is emptied (:func:`~scorekeeper.engine.melds.forget_hands`).
  The lookup tables that depend on one suit's or one rank's cards only are built whole
  before any timing (:func:`~scorekeeper.engine.melds.fill_tables`): they hold no
  hand's answer, as OpenSpiel's own tables hold none.
- Interleaved: for each hand the engine and OpenSpiel are timed one after the other,
  the order alternating from hand to hand, so a change of the machine's load falls on
  both sides alike. Each call is timed alone with ``time.perf_counter_ns``; the hand is
  already converted to each side's own card values (a mask; OpenSpiel's card numbers),
  so only the solving is timed (plus one call into Python or C++).
- Ten cards: ``best_count`` against ``min_deadwood``. Eleven cards: the engine's best
  discard (``best_discard``: which card, and the count left) against OpenSpiel's
  minimum over the eleven discards (``min_deadwood`` of each ten cards left, the eleven
  lists built before timing). OpenSpiel's own ``min_deadwood`` of eleven cards is
  reported beside it (``openspiel_shortcut``) but is not the target's measure: it drops
  the highest deadwood card of the eleven cards' best meld group, which is not always
  the best discard.
- Both sides must agree on every count; the figure is the ratio of the medians.

Targets (issue 21): random ten-card hands at most 2x OpenSpiel, dense ten-card hands at
most 2x, the best discard of eleven cards at most 3x. OpenSpiel (``pip install
open_spiel==2.0.2``, the ``bench`` extra) is optional: without it the engine's figures
are reported and OpenSpiel's are marked missing.

``python -m benchmarks.solver_vs_openspiel [HANDS]``
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

from benchmarks.engine_arrange import _dense_hands, _random_hands
from scorekeeper.engine.cards import Card, cards_mask
from scorekeeper.engine.melds import best_count, best_discard, fill_tables, forget_hands

SEED = 20261126
HANDS = 2000
TARGETS = {"random_10": 2.0, "dense_10": 2.0, "random_11": 3.0}
RANKS = "A23456789TJQK"


def openspiel() -> Any | None:
    """OpenSpiel's gin rummy utilities (ten-card hands, knock limit 10), or None where it
    is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def _their_cards(utils: Any, hand: Sequence[Card]) -> list[int]:
    """A hand in OpenSpiel's card numbers ("As", "Td", ...)."""
    return list(
        utils.card_strings_to_card_ints([RANKS[card.rank - 1] + card.suit.value.lower() for card in hand])
    )


def _ours(size: int) -> Callable[[int], int]:
    """The engine's answer for a hand mask: the lowest count, after the best discard for
    eleven cards."""
    if size == 10:
        return best_count
    return lambda mask: best_discard(mask)[1].count


def _timed(call: Callable[[Any], object], hand: Any) -> tuple[object, int]:
    start = time.perf_counter_ns()
    answer = call(hand)
    return answer, time.perf_counter_ns() - start


def _figures(times: list[int]) -> dict[str, float]:
    times = sorted(times)
    p99 = times[math.ceil(0.99 * len(times)) - 1]
    return {"median_us": round(statistics.median(times) / 1000, 2), "p99_us": round(p99 / 1000, 2)}


def _their_solver(utils: Any, size: int) -> Callable[[Any], object]:
    """OpenSpiel's answer: ``min_deadwood`` of ten cards, or its minimum over the eleven
    discards of eleven cards (given as the eleven ten-card lists)."""
    if size == 10:
        return utils.min_deadwood  # type: ignore[no-any-return]
    solve = utils.min_deadwood
    return lambda tens: min(solve(ten) for ten in tens)


def _their_input(utils: Any, hand: Sequence[Card]) -> Any:
    cards = _their_cards(utils, hand)
    if len(cards) == 10:
        return cards
    return [cards[:i] + cards[i + 1 :] for i in range(len(cards))]


def _shortcut(utils: Any, hands: list[list[Card]]) -> dict[str, Any]:
    """OpenSpiel's ``min_deadwood`` of eleven cards, timed alone: how often it agrees with
    the minimum over the eleven discards, and how fast it is."""
    converted = [_their_cards(utils, hand) for hand in hands]
    exact = [min(utils.min_deadwood(c[:i] + c[i + 1 :]) for i in range(11)) for c in converted]
    times, agree = [], 0
    for cards, best in zip(converted, exact, strict=True):
        answer, ns = _timed(utils.min_deadwood, cards)
        times.append(ns)
        agree += answer == best
    return {**_figures(times), "agrees_with_best_discard": f"{agree}/{len(hands)}"}


def side_by_side(utils: Any | None, hands: list[list[Card]]) -> dict[str, Any]:
    """Each hand timed once on each side, in alternating order, with no memo of hands."""
    ours = _ours(len(hands[0]))
    masks = [cards_mask(hand) for hand in hands]
    theirs = [_their_input(utils, hand) for hand in hands] if utils is not None else []
    solve = _their_solver(utils, len(hands[0])) if utils is not None else None
    our_times: list[int] = []
    their_times: list[int] = []
    agree = True
    gc.collect()
    gc.disable()
    try:
        for index, mask in enumerate(masks):
            forget_hands()
            if solve is None:
                our_times.append(_timed(ours, mask)[1])
                continue
            if index % 2:
                theirs_answer, their_ns = _timed(solve, theirs[index])
                forget_hands()
                our_answer, our_ns = _timed(ours, mask)
            else:
                our_answer, our_ns = _timed(ours, mask)
                theirs_answer, their_ns = _timed(solve, theirs[index])
            agree = agree and our_answer == theirs_answer
            our_times.append(our_ns)
            their_times.append(their_ns)
    finally:
        gc.enable()
    result: dict[str, Any] = {"hands": len(hands), "engine": _figures(our_times)}
    if utils is None:
        result["openspiel"] = None
        return result
    measured = _figures(their_times)
    per_hand = statistics.median(o / t for o, t in zip(our_times, their_times, strict=True))
    result.update(
        openspiel=measured,
        agree=agree,
        ratio=round(result["engine"]["median_us"] / measured["median_us"], 2),
        median_ratio_per_hand=round(per_hand, 2),
    )
    if len(hands[0]) == 11:
        result["openspiel_shortcut"] = _shortcut(utils, hands)
    return result


def run(hands: int = HANDS) -> dict[str, Any]:
    """The three measurements, each on its own seeded hands, after the tables are built."""
    fill_tables()
    rng = random.Random(SEED)
    utils = openspiel()
    results: dict[str, Any] = {
        "random_10": side_by_side(utils, _random_hands(rng, 10, hands)),
        "dense_10": side_by_side(utils, _dense_hands(rng, hands)),
        "random_11": side_by_side(utils, _random_hands(rng, 11, hands)),
    }
    for name, result in results.items():
        if "ratio" in result:
            result["target"] = TARGETS[name]
            result["met"] = result["ratio"] <= TARGETS[name] and result["agree"]
    met = [r["met"] for r in results.values() if "met" in r]
    return {**results, "met": all(met) if met else None}


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else HANDS
    sys.stdout.write(json.dumps(run(count), indent=2) + "\n")
