"""The engine's typed entry points: a :class:`GameEntry` and :class:`BoxEntry` in, a
:class:`Ruling` or :class:`Sheet` out (docs/engine-api.md).

The ledger, backups, disputes, the printed sheet and the command line ask these, by
the names they have always asked; the engine works on these values throughout
(:class:`~.game.Scoring`, :func:`~.ruling.rule`), so nothing here converts. The JSON
functions :func:`~scorekeeper.engine.score` and :func:`~scorekeeper.engine.adjudicate`
are the edge for the API and the command line's JSON.

>>> from .contract import BoxEntry, GameEntry, Hand
>>> game = GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann")
>>> box = BoxEntry(ending="gin", by="Ann", hands={"Ann": Hand(count=0), "Bob": Hand(count=31)})
>>> rule(game, box).points, score_game(game.with_boxes([box])).totals
(56, {'Ann': 56, 'Bob': 0})
"""

from __future__ import annotations

from .contract import BoxEntry, GameEntry, Sheet
from .game import Scoring
from .ruling import rule


def scoring(game: GameEntry) -> Scoring:
    """The engine's state after every box of ``game`` (raises the engine's errors)."""
    return Scoring.of(game)


def scoring_with(state: Scoring, box: BoxEntry) -> Scoring:
    """The state after one more box, ruled alone (raises the engine's errors)."""
    return state.add(box)


def sheet(state: Scoring) -> Sheet:
    """The score sheet of the boxes scored so far."""
    return state.sheet()


def score_game(game: GameEntry) -> Sheet:
    """The score sheet of a whole game."""
    return sheet(scoring(game))


__all__ = ["rule", "score_game", "scoring", "scoring_with", "sheet"]
