"""The ruling on one box: CONTRACT.md's "A box" in, "A ruling" out.

Reads and checks the box (boxes.py), fixes the knock limit (C6, V2), lets the
showdown play out in table order (showdown.py), scores it (credits.py) and
writes the ruling with its explanation, each step citing a RULES.md id.

>>> ruling = adjudicate({"rules": "jersey-scarne", "players": ["A", "B", "C"],
...     "ending": "knock", "by": "A",
...     "hands": {"A": {"count": 5}, "B": {"count": 15}, "C": {"count": 13}}})
>>> ruling["result"], ruling["points"], ruling["credits"]
('knock', 18, {'A': 18, 'B': 0, 'C': 0})
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .blocking import blocked_steps
from .boxes import Box, read_box, read_player, read_players
from .cards import Card
from .credits import Step
from .errors import DeadwoodMismatchError, MalformedError, ScorekeeperError
from .rules import Rules, default_rules_for, find_rules
from .showdown import Played, Showdown
from .vocabulary import vocabulary_for


def adjudicate(data: Any) -> dict[str, Any]:
    """Rule on one box given as CONTRACT.md "A box" (rules, players and dealer included)."""
    if not isinstance(data, Mapping):
        raise MalformedError("a box must be a JSON object")
    players_data = data.get("players")
    if "rules" in data:
        rules = find_rules(data["rules"])
    elif isinstance(players_data, list):
        rules = default_rules_for(len(players_data))
    else:
        raise MalformedError("say which rules are played ('rules')", "rules")
    rules = rules.with_settings(data.get("settings"))
    players = read_players(players_data, rules)
    dealer = None
    if data.get("dealer") is not None:
        dealer = read_player(data["dealer"], players, "dealer", "dealer")
    return rule_box(data, rules, players, dealer)


MEMO_SIZE = 20_000
"""Rulings remembered (a club evening of 100 tables re-rules every box of every game)."""


def rule_box(
    data: Any, rules: Rules, players: Sequence[str], dealer: str | None, where: str = ""
) -> dict[str, Any]:
    """Rule on a box body under rules already read (a game's boxes come through here).

    A game is rescored box by box on every change, yet a box's ruling depends only
    on its body, the rules, the seats and the dealer: rulings are remembered
    (:func:`functools.lru_cache`, as JSON, so every caller gets its own copy). ``where``
    only names errors, and errors are never remembered: a box refused is ruled again
    with its ``where``.
    """
    try:
        body = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError):
        return _rule_box(data, rules, players, dealer, where)  # not JSON: let it fail
    try:
        return dict(json.loads(_remembered(body, rules, tuple(players), dealer)))
    except ScorekeeperError:
        return _rule_box(data, rules, players, dealer, where)


@functools.lru_cache(maxsize=MEMO_SIZE)
def _remembered(body: str, rules: Rules, players: tuple[str, ...], dealer: str | None) -> str:
    return json.dumps(_rule_box(json.loads(body), rules, players, dealer, ""))


def _rule_box(
    data: Any, rules: Rules, players: Sequence[str], dealer: str | None, where: str
) -> dict[str, Any]:
    box = read_box(data, rules, players, dealer, where)
    if box.ending in ("draw", "misdeal"):
        return _void(box)
    limit, limit_steps = knock_limit(box)
    showdown = Showdown(box, limit)
    plays, outcome = showdown.play()
    _check_typed_counts(box, plays)
    multiplier, multiplier_steps = _multiplier(box, outcome.points)
    points = outcome.points * multiplier
    penalties = {p: v * multiplier for p, v in outcome.penalties.items()}
    counts = {play.player: play.count for play in plays}
    explanation = [
        *limit_steps,
        *showdown.layoff_steps(plays),
        *blocked_steps(showdown, plays),
        *showdown.notes,
        *outcome.steps,
        *multiplier_steps,
    ]
    return {
        "result": outcome.result,
        "winner": outcome.winner,
        "points": points,
        "credits": {p: points if p == outcome.winner else 0 for p in box.players},
        "penalties": penalties,
        "counts": {p: counts[p] for p in box.players},
        "hands": {play.player: play.to_json() for play in plays if play.form != "count"},
        "explanation": [step.to_json() for step in explanation],
        "advice": [step.to_json() for step in showdown.advice(plays)],
        "showdown": [step.to_json() for step in showdown.describe(plays)],
        "ending": box.ending,
        "by": box.by,
        "after_break": box.after_break,
        "multiplier": multiplier,
        "knock_limit": limit,
        **(
            {
                "payments": [
                    {"from": payer, "to": outcome.winner, "points": paid * multiplier}
                    for payer, paid in outcome.payments
                ]
            }
            if outcome.payments
            else {}
        ),
        **({"double_refused": box.double_refused} if box.double_refused else {}),
        **({"breaker": box.breaker} if box.after_break and box.breaker else {}),
    }


def _void(box: Box) -> dict[str, Any]:
    """A draw or a misdeal: nobody scores (C11, G7, P7, K4)."""
    if box.ending == "misdeal":
        step = Step("C11", "misdeal: the same dealer deals again, no score, no penalty")
    else:
        rule = {"parlett": "P7", "knock-rummy": "K4"}.get(box.rules.family, "G7")
        who = "the same dealer" if box.rules.redeal_after_draw == "same" else "the next dealer"
        step = Step(rule, f"the stock ran out with nobody out: no score; {who} deals")
    zero = {p: 0 for p in box.players}
    return {
        "result": box.ending,
        "winner": None,
        "points": 0,
        "credits": zero,
        "penalties": {},
        "counts": {},
        "hands": {},
        "explanation": [step.to_json()],
        "advice": [],
        "showdown": [],
        "ending": box.ending,
        "by": None,
        "after_break": False,
        "multiplier": box.multiplier,
        "knock_limit": box.rules.knock_limit,
    }


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
