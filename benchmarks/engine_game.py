"""Benchmark: ``score`` of a whole 40-box three-player Jersey Gin game.

One box in four is entered with cards for all three hands (the engine arranges
them, C9); the others are counts-only knocks and gins, with a misdeal now and
then. The target is raised so that all 40 boxes count. Times are per call of
``score``, including reading and checking the whole game.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from benchmarks.timing import milliseconds, summary
from scorekeeper.engine.cards import ALL_CARDS, SUITS, Card
from scorekeeper.engine.game import score
from scorekeeper.engine.melds import best_count

PLAYERS = ("Ann", "Bob", "Cal")
BOXES = 40


def _knocking_hand(rng: random.Random) -> list[Card]:
    """Ten cards with a count of 10 or less: three melds and a low card, found fast."""
    while True:
        suit = rng.randrange(4)
        low = rng.randint(1, 10)
        run = [Card.of(rank, SUITS[suit]) for rank in range(low, low + 4)]
        rank = rng.choice([r for r in range(1, 14) if not low <= r < low + 4])
        kind = [Card.of(rank, s) for s in rng.sample(SUITS, 3)]
        rest = [c for c in ALL_CARDS if c not in run and c not in kind]
        hand = run + kind + rng.sample(rest, 3)
        if best_count(hand) <= 10:
            return hand


def _cards_box(rng: random.Random, knocker: str) -> dict[str, Any]:
    """A knock whose three hands are given as cards (a deal the knocker can knock with)."""
    hand = _knocking_hand(rng)
    cards = hand + rng.sample([c for c in ALL_CARDS if c not in hand], 20)
    order = PLAYERS[PLAYERS.index(knocker) :] + PLAYERS[: PLAYERS.index(knocker)]
    hands = {p: {"cards": [c.code for c in cards[10 * i : 10 * i + 10]]} for i, p in enumerate(order)}
    return {"ending": "knock", "by": knocker, "hands": hands}


def _counts_box(rng: random.Random, knocker: str) -> dict[str, Any]:
    """A counts-only knock, gin or misdeal."""
    roll = rng.random()
    if roll < 0.05:
        return {"ending": "misdeal"}
    own = 0 if roll < 0.25 else rng.randint(1, 10)
    hands = {p: {"count": own if p == knocker else rng.randint(0, 60)} for p in PLAYERS}
    return {"ending": "gin" if own == 0 else "knock", "by": knocker, "hands": hands}


def _game(rng: random.Random) -> dict[str, Any]:
    boxes = [(_cards_box if n % 4 == 3 else _counts_box)(rng, rng.choice(PLAYERS)) for n in range(BOXES)]
    return {
        "rules": "jersey-scarne",
        "settings": {"game_target": 100000},
        "players": list(PLAYERS),
        "dealer": "Ann",
        "stake": 0.05,
        "boxes": boxes,
    }


def run(samples: int = 60, seed: int = 2026) -> dict[str, dict[str, float]]:
    """Median, p99 and worst time of scoring one whole 40-box game never scored before
    (rulings are remembered by their input, so a game scored again is much cheaper)."""
    rng = random.Random(seed)
    for game in [_game(rng) for _ in range(5)]:
        score(game)  # warm-up on other games: meld tables
    games = [_game(rng) for _ in range(samples)]
    times = milliseconds(score, games)
    return {"score_40_boxes": {**summary(times), "games": len(times)}}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(), indent=2) + "\n")
