"""The engine in the contract's types: a :class:`GameEntry` and :class:`BoxEntry` in, a
:class:`Ruling` or :class:`Sheet` out (docs/engine-api.md).

The ledger, backups, disputes, the printed sheet and the command line ask these; the
JSON functions :func:`~scorekeeper.engine.score` and
:func:`~scorekeeper.engine.adjudicate` stay only as the edge for the API and the command
line's JSON. Inside, the engine still rules CONTRACT.md's JSON: the values cross into it
here, and nowhere else.

>>> from .contract import BoxEntry, GameEntry, Hand
>>> game = GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann")
>>> box = BoxEntry(ending="gin", by="Ann", hands={"Ann": Hand(count=0), "Bob": Hand(count=31)})
>>> rule(game, box).points, score_game(game.with_boxes([box])).totals
(56, {'Ann': 56, 'Bob': 0})
"""

from __future__ import annotations

from .contract import BoxEntry, GameEntry, Ruling, Sheet
from .game import Scoring
from .ruling import adjudicate


def scoring(game: GameEntry) -> Scoring:
    """The engine's state after every box of ``game`` (raises the engine's errors)."""
    return Scoring.of(game.to_json())


def scoring_with(state: Scoring, box: BoxEntry) -> Scoring:
    """The state after one more box, ruled alone (raises the engine's errors)."""
    return state.add(box.to_json())


def sheet(state: Scoring) -> Sheet:
    """The score sheet of the boxes scored so far."""
    return Sheet.from_json(state.sheet())


def score_game(game: GameEntry) -> Sheet:
    """The score sheet of a whole game."""
    return sheet(scoring(game))


def rule(game: GameEntry, box: BoxEntry) -> Ruling:
    """The ruling on one box played under the game's rules, seats and first dealer."""
    return Ruling.from_json(adjudicate({**game.to_json(boxes=False), **box.to_json()}))


__all__ = ["rule", "score_game", "scoring", "scoring_with", "sheet"]
