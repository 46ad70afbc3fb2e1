"""The ruling on one box: a typed box in, a :class:`~.contract.Ruling` out.

Checks the box (boxes.py), fixes the knock limit (C6, V2), lets the showdown play
out in table order (showdown.py), scores it (credits.py) and builds the ruling with
its explanation, each step citing a RULES.md id. :func:`adjudicate` is CONTRACT.md's
JSON edge for the API and the command line: the box read once by the contract,
ruled, written back.

>>> ruling = adjudicate({"rules": "jersey-scarne", "players": ["A", "B", "C"],
...     "ending": "knock", "by": "A",
...     "hands": {"A": {"count": 5}, "B": {"count": 15}, "C": {"count": 13}}})
>>> ruling["result"], ruling["points"], ruling["credits"]
('knock', 18, {'A': 18, 'B': 0, 'C': 0})
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from typing import Any

from .blocking import blocked_steps
from .boxes import Box, check_box, check_players, seated
from .cards import Card
from .contract import BoxEntry, GameEntry, Line, Payment, Ruling, read_adjudication
from .credits import Step
from .errors import DeadwoodMismatchError, MalformedError, ScorekeeperError
from .rules import Rules, find_rules
from .showdown import Played, Showdown
from .vocabulary import vocabulary_for


def adjudicate(data: Any) -> dict[str, Any]:
    """Rule on one box given as CONTRACT.md "A box" (rules, players and dealer
    included): JSON in, JSON out, the typed :func:`rule` between."""
    return rule(*read_adjudication(data)).to_json()


def rule(game: GameEntry, box: BoxEntry) -> Ruling:
    """The ruling on one box played under the game's rules and seats; its dealer is
    the box's own if it names one, else the game's first dealer (raises the engine's
    errors)."""
    rules = find_rules(game.rules).with_settings(game.settings)
    players = check_players(game.players, rules)
    named = box.dealer if box.dealer is not None else game.dealer
    dealer = None if named is None else seated(named, players, "dealer", "dealer")
    return rule_box(box, rules, players, dealer)


MEMO_SIZE = 20_000
"""Rulings remembered (a club evening of 100 tables re-rules every box of every game)."""


def rule_box(
    box: BoxEntry, rules: Rules, players: Sequence[str], dealer: str | None, where: str = ""
) -> Ruling:
    """Rule on a box under rules, seats and a dealer already checked (a game's boxes
    come through here).

    A game is rescored box by box on every change, yet a box's ruling depends only
    on the box, the rules, the seats and the dealer: rulings are remembered
    (:func:`functools.lru_cache`, keyed by the frozen box less its label, its id and
    note, and less the dealer it names: ``dealer`` is the one that counts, and a game
    has checked the box's against it). A ruling is a frozen value shared by every
    caller: read-only. ``where`` only names errors, and errors
    are never remembered: a box refused is ruled again with its ``where``.
    """
    key = box
    if box.id is not None or box.note is not None or box.dealer is not None:
        key = dataclasses.replace(box, id=None, note=None, dealer=None)
    try:
        return _remembered(key, rules, tuple(players), dealer)
    except ScorekeeperError:
        return _rule_box(box, rules, players, dealer, where)
    except TypeError:  # a box built by hand with lists for tuples: not hashable
        return _rule_box(box, rules, players, dealer, where)


@functools.lru_cache(maxsize=MEMO_SIZE)
def _remembered(box: BoxEntry, rules: Rules, players: tuple[str, ...], dealer: str | None) -> Ruling:
    return _rule_box(box, rules, players, dealer, "")


def _lines(steps: Iterable[Step]) -> tuple[Line, ...]:
    return tuple(Line(step.rule, step.text, step.player) for step in steps)


def _rule_box(
    entry: BoxEntry, rules: Rules, players: Sequence[str], dealer: str | None, where: str
) -> Ruling:
    box = check_box(entry, rules, players, dealer, where)
    if box.ending in ("draw", "misdeal"):
        return _void(box)
    limit, limit_steps = knock_limit(box)
    showdown = Showdown(box, limit)
    plays, outcome = showdown.play()
    _check_typed_counts(box, plays)
    multiplier, multiplier_steps = _multiplier(box, outcome.points)
    points = outcome.points * multiplier
    counts = {play.player: play.count for play in plays}
    explanation = [
        *limit_steps,
        *showdown.layoff_steps(plays),
        *blocked_steps(showdown, plays),
        *showdown.notes,
        *outcome.steps,
        *multiplier_steps,
    ]
    extra: dict[str, Any] = {}
    if box.double_refused:
        extra["double_refused"] = box.double_refused
    if box.after_break and box.breaker:
        extra["breaker"] = box.breaker
    return Ruling(
        result=outcome.result,
        winner=outcome.winner,
        points=points,
        credits={p: points if p == outcome.winner else 0 for p in box.players},
        penalties={p: v * multiplier for p, v in outcome.penalties.items()},
        counts={p: counts[p] for p in box.players},
        hands={play.player: play.laid_out() for play in plays if play.form != "count"},
        explanation=_lines(explanation),
        advice=_lines(showdown.advice(plays)),
        showdown=_lines(showdown.describe(plays)),
        ending=box.ending,
        by=box.by,
        after_break=box.after_break,
        multiplier=multiplier,
        knock_limit=limit,
        payments=tuple(
            Payment(payer, outcome.winner or "", paid * multiplier) for payer, paid in outcome.payments
        ),
        extra=extra,
    )


def _void(box: Box) -> Ruling:
    """A draw or a misdeal: nobody scores (C11, G7, P7, K4)."""
    if box.ending == "misdeal":
        step = Step("C11", "misdeal: the same dealer deals again, no score, no penalty")
    else:
        cite = {"parlett": "P7", "knock-rummy": "K4"}.get(box.rules.family, "G7")
        who = "the same dealer" if box.rules.redeal_after_draw == "same" else "the next dealer"
        step = Step(cite, f"the stock ran out with nobody out: no score; {who} deals")
    return Ruling(
        result=box.ending,
        winner=None,
        points=0,
        credits={p: 0 for p in box.players},
        explanation=_lines([step]),
        ending=box.ending,
        multiplier=box.multiplier,
        knock_limit=box.rules.knock_limit,
    )


def knock_limit(box: Box) -> tuple[int | None, list[Step]]:
    """The knock limit of this box: fixed, or Oklahoma's upcard (V2)."""
    if box.rules.knock_limit_from != "fixed" and box.upcard is None:
        raise MalformedError(
            "give the first upcard: in Oklahoma it sets the knock limit (V2)",
            f"{box.where}.upcard" if box.where else "upcard",
        )
    return knock_limit_for(box.rules, box.upcard)


def knock_limit_for(rules: Rules, upcard: Card | None) -> tuple[int | None, list[Step]]:
    """The knock limit under these rules (C6), or from this first upcard (V2).

    The upcard's plain value counts (court cards 10, an ace 1 whatever ``ace_value``
    says); an ace means gin only, or a knock with 1 (``ace_upcard``). With no upcard
    where one is needed the limit is unknown (``None`` with a step saying why).

    >>> from .rules import find_rules
    >>> knock_limit_for(find_rules("oklahoma"), Card.parse("QH"))[0]
    10
    >>> knock_limit_for(find_rules("oklahoma"), Card.parse("AS"))[0]
    0
    """
    if rules.knock_limit_from == "fixed":
        return rules.knock_limit, []
    if upcard is None:
        return None, [Step("V2", f"in {rules.title} the first upcard sets the knock limit")]
    if upcard.rank == 1:
        limit = 0 if rules.ace_upcard == "gin-only" else 1
        what = "gin only" if limit == 0 else "a knock with 1"
        return limit, [Step("V2", f"the upcard {upcard} is an ace: {what}")]
    limit = upcard.value()
    return limit, [Step("V2", f"the upcard {upcard} sets the knock limit at {limit}")]


def _multiplier(box: Box, points: int) -> tuple[int, list[Step]]:
    """Doubling (V5) and Oklahoma's spade upcard (V2) multiply the box's score; the
    explanation shows the score before and after, so the table can check both."""
    steps = []
    deal = vocabulary_for(box.rules).deal
    if box.double_refused is not None:
        steps.append(
            Step(
                "V5",
                f"{box.double_refused}'s double was refused: it did not take "
                f"effect, and {box.double_refused} had to knock at once",
            )
        )
    multiplier = box.multiplier
    if multiplier > 1:
        times = {2: "doubled", 4: "redoubled"}.get(multiplier, f"doubled to {multiplier}x")
        steps.append(
            Step(
                "V5",
                f"the {deal} was {times}: {points} before doubling, "
                f"{points} x {multiplier} = {points * multiplier}",
            )
        )
    if box.rules.spade_doubles and box.upcard is not None and box.upcard.suit.value == "S":
        steps.append(
            Step(
                "V2",
                f"the upcard {box.upcard} is a spade: the {deal} counts double, "
                f"{points * multiplier} x 2 = {points * multiplier * 2}",
            )
        )
        multiplier *= 2
    return multiplier, steps


def _check_typed_counts(box: Box, plays: Sequence[Played]) -> None:
    """A hand given both as cards and as a typed count: the two must agree (C4), or
    the scorer is told both numbers; the engine never silently picks one of them."""
    counts = {play.player: play.count for play in plays}
    for player, hand in box.hands.items():
        if hand.form != "cards" or hand.count is None or counts.get(player) == hand.count:
            continue
        raise DeadwoodMismatchError(
            f"{player}'s count was entered as {hand.count}, but {player}'s cards count "
            f"{counts[player]} (C4): correct the count or the cards",
            f"{hand.where}.count",
        )
