"""Who wins a box and what he is credited, from the final counts (J6-J13, P3-P6, G4-G6, K3).

The four families of rules share one shape: the box winner is credited the
difference between each opponent's count and his own, plus a bonus that depends
on how he won. What differs is who wins ties, the size of the bonuses, and the
rule ids cited, so one function serves them all.

>>> from .rules import find_rules
>>> jersey = find_rules("jersey-scarne")
>>> outcome = knock_outcome(jersey, ("A", "B", "C"), {"A": 5, "B": 15, "C": 13})
>>> outcome.result, outcome.winner, outcome.points
('knock', 'A', 18)
>>> outcome.steps[-1].text
'A knocked with 5; B 15, C 13: (15-5)+(13-5) = 18'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .rules import Rules
from .vocabulary import vocabulary_for

_CITES = {
    # family: the rule ids cited for a knock, an underknock and gin
    "jersey": ("J6", "J7", "J9"),
    "parlett": ("P3", "P3", "P6"),
    "gin": ("G4", "G5", "G6"),
    "knock-rummy": ("K3", "K3", "K3"),
}


@dataclass(frozen=True)
class Step:
    """One step of an explanation: the rule applied and what it did, in words."""

    rule: str
    text: str
    player: str | None = None

    def to_json(self) -> dict[str, str]:
        body = {"rule": self.rule, "text": self.text}
        if self.player is not None:
            body["player"] = self.player
        return body


@dataclass(frozen=True)
class Outcome:
    """The result of a box before the multiplier is applied."""

    result: str
    winner: str | None
    points: int
    penalties: Mapping[str, int] = field(default_factory=dict)
    steps: tuple[Step, ...] = ()
    payments: tuple[tuple[str, int], ...] = ()
    """What each other player pays the winner, where the box is paid as it falls (K3):
    ``(payer, points)``; empty where only the winner's credit is kept."""

    def credits(self, players: Sequence[str]) -> dict[str, int]:
        """Every player's credit: the winner's points, 0 for the others (J8)."""
        return {p: self.points if p == self.winner else 0 for p in players}


def _differences(winner: str, order: Sequence[str], counts: Mapping[str, int]) -> tuple[int, str]:
    """Sum of (opponent's count - winner's count), with the arithmetic written out."""
    others = [p for p in order if p != winner]
    total = sum(counts[p] - counts[winner] for p in others)
    terms = "+".join(f"({counts[p]}-{counts[winner]})" for p in others)
    return total, terms


def _opponents(winner: str, order: Sequence[str], counts: Mapping[str, int]) -> str:
    return ", ".join(f"{p} {counts[p]}" for p in order if p != winner)


def knock_outcome(rules: Rules, order: Sequence[str], counts: Mapping[str, int]) -> Outcome:
    """A knock (J6/J7, P3/P4, G4/G5, K3); ``order`` starts with the knocker."""
    knocker, defenders = order[0], order[1:]
    k = counts[knocker]
    knock_id, under_id, _ = _CITES[rules.family]
    under = [d for d in defenders if counts[d] < k or (rules.tie_goes_to_defender and counts[d] == k)]
    if rules.family == "knock-rummy":
        winner = min(under, key=lambda p: (counts[p], order.index(p))) if under else knocker
        return knock_rummy_outcome(rules, order, counts, winner)
    if not under:
        points, terms = _differences(knocker, order, counts)
        text = f"{knocker} knocked with {k}; {_opponents(knocker, order, counts)}: "
        text += f"{terms} = {points}" if len(defenders) > 1 else f"{terms.strip('()')} = {points}"
        return Outcome("knock", knocker, points, {}, (Step(knock_id, text),))
    winner = min(under, key=lambda p: (counts[p], order.index(p)))
    return _underknock(rules, order, counts, winner, under_id)


def _underknock(
    rules: Rules, order: Sequence[str], counts: Mapping[str, int], winner: str, rule: str
) -> Outcome:
    """The knocker was beaten: the lowest defender wins and takes the bonus (J7, P4, G5, K3)."""
    knocker = order[0]
    k, w = counts[knocker], counts[winner]
    result = "undercut" if len(order) == 2 else "underknock"
    steps = []
    under = [p for p in order[1:] if counts[p] < k or (rules.tie_goes_to_defender and counts[p] == k)]
    if len(under) > 1:
        other = next(p for p in under if p != winner)
        why = (
            f"{winner} sits nearer {knocker}'s left"
            if counts[other] == w
            else f"{winner} has the lower count"
        )
        steps.append(
            Step(
                rule,
                f"{winner} ({w}) and {other} ({counts[other]}) both beat or "
                f"tied {knocker}'s {k}: {why} and wins the "
                f"{vocabulary_for(rules).deal}",
            )
        )
    elif w == k:
        steps.append(
            Step(
                rule,
                f"{winner} tied {knocker}'s count of {k}: a tie goes to the defender (tie_goes_to_defender)",
            )
        )
    points, terms = _differences(winner, order, counts)
    bonus = rules.underknock_bonus
    name = "undercut" if result == "undercut" else "underknocked"
    text = (
        f"{winner} {name} {knocker}: {w} against {k}; {_opponents(winner, order, counts)}: "
        f"{terms}{f'+{bonus}' if bonus else ''} = {points + bonus}"
    )
    steps.append(Step(rule, text))
    penalties = {}
    if rules.knocker_penalty:
        penalties[knocker] = rules.knocker_penalty
        steps.append(
            Step("P4", f"{knocker} was {vocabulary_for(rules).beaten_verb} and loses {rules.knocker_penalty}")
        )
    if w == 0:
        steps.append(
            Step(
                "C13",
                f"{winner} held gin but did not declare it: scored as an "
                f"ordinary {result}, without the gin bonus",
            )
        )
    return Outcome(result, winner, points + bonus, penalties, tuple(steps))


def knock_rummy_outcome(
    rules: Rules, order: Sequence[str], counts: Mapping[str, int], winner: str
) -> Outcome:
    """Knock Rummy's payment (K3), paid by each other player to the winner: the
    difference of their counts, 25 more from each for all cards melded, 10 more from the
    knocker to a player lower than him. One line per part so each can be checked, then
    what each player pays; the box's credit is the sum of those payments."""
    knocker = order[0]
    points, terms = _differences(winner, order, counts)
    payers = [p for p in order if p != winner]
    steps = [
        Step(
            "K3",
            f"{winner} has the lowest count, {counts[winner]}; "
            f"{_opponents(winner, order, counts)}: the difference {terms} = {points}",
        )
    ]
    melded = counts[winner] == 0
    if melded:
        each = rules.gin_bonus
        steps.append(
            Step(
                "K3",
                f"{winner} melded every card: {each} more from each other "
                f"player" + (f", {each} x {len(payers)} = {each * len(payers)}" if len(payers) > 1 else ""),
            )
        )
    lower = winner != knocker
    if lower:
        steps.append(
            Step(
                "K3",
                f"{winner} is lower than the knocker {knocker} "
                f"({counts[winner]} against {counts[knocker]}): "
                f"{rules.underknock_bonus} more from {knocker}",
            )
        )
    payments: list[tuple[str, int]] = []
    said: list[str] = []
    for payer in payers:
        parts = [counts[payer] - counts[winner]]
        if melded:
            parts.append(rules.gin_bonus)
        if lower and payer == knocker:
            parts.append(rules.underknock_bonus)
        paid = sum(parts)
        payments.append((payer, paid))
        sum_text = " + ".join(map(str, parts)) + (f" = {paid}" if len(parts) > 1 else "")
        said.append(f"{payer} pays {winner} {sum_text}")
    total = sum(paid for _, paid in payments)
    steps.append(Step("K3", "; ".join(said) + f": {winner} is paid {total}"))
    result = "knock" if not lower else ("undercut" if len(order) == 2 else "underknock")
    if melded and not lower:
        result = "gin"
    return Outcome(result, winner, total, {}, tuple(steps), tuple(payments))


def gin_outcome(
    rules: Rules, order: Sequence[str], counts: Mapping[str, int], after_break: bool = False
) -> Outcome:
    """Gin (J9, P6, G6, K3) or gin after the break (J13): opponents' counts plus the bonus."""
    winner = order[0]
    if rules.family == "knock-rummy":
        return knock_rummy_outcome(rules, order, counts, winner)
    _, _, gin_id = _CITES[rules.family]
    total = sum(counts[p] for p in order[1:])
    terms = "+".join(str(counts[p]) for p in order[1:])
    if after_break:
        bonus, rule, result = rules.break_gin_bonus, "J13", "break-gin"
        what = "went gin after the break"
    else:
        bonus, rule, result = rules.gin_bonus, gin_id, "gin"
        what = "went gin"
    bonus_text = f"+{bonus}" if bonus else ""
    text = f"{winner} {what}; {_opponents(winner, order, counts)}: {terms}{bonus_text} = "
    text += str(total + bonus)
    steps = [Step(rule, text)]
    if after_break and not bonus:
        steps.append(Step("J13", "no gin bonus after the break (break_gin_bonus 0)"))
    return Outcome(result, winner, total + bonus, {}, tuple(steps))


def break_outcome(order: Sequence[str], counts: Mapping[str, int]) -> Outcome:
    """After the break the lowest count wins (J12); ``order`` starts with the breaker."""
    winner = min(order, key=lambda p: (counts[p], order.index(p)))
    steps = []
    low = counts[winner]
    tied = [p for p in order if counts[p] == low]
    if len(tied) > 1:
        why = "the breaker wins a tie" if tied[0] == order[0] else f"{winner} sits at the breaker's left"
        steps.append(Step("J12", f"{' and '.join(tied)} tie at {low}: {why}"))
    points, terms = _differences(winner, order, counts)
    steps.append(
        Step(
            "J12",
            f"lowest count after the break: {winner} with {low}; "
            f"{_opponents(winner, order, counts)}: {terms} = {points}",
        )
    )
    return Outcome("break", winner, points, {}, tuple(steps))
