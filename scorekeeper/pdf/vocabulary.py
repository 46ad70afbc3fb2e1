"""What the sheets call each way a box can end: one place for the words and the letters.

The phone, the PDF and the explanations should say the same thing ("gin after
the break"); when the engine gets its own vocabulary module, :data:`RESULTS`
is the one table to point at it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Result:
    """One way a box ends: its letter in the narrow "how" column and its name in words."""

    letter: str
    name: str
    scores: bool = True
    """False for a draw or misdeal, which no one wins."""


RESULTS: Mapping[str, Result] = {
    "knock": Result("K", "knock"),
    "underknock": Result("U", "underknock"),
    "undercut": Result("U", "undercut"),
    "gin": Result("G", "gin"),
    "break": Result("B", "break"),
    "break-gin": Result("BG", "gin after the break"),
    "draw": Result("–", "draw", scores=False),
    "misdeal": Result("–", "misdeal", scores=False),
}

KNOCKER_MARK = "ᵏ"
"""After a count: the knocker's (or breaker's) count, the one the others were measured by."""
NOTE_MARK = "*"
"""After a box number: the box has a note, printed under the table."""


def result(box: Mapping[str, Any]) -> Result:
    """The :class:`Result` of a scored box (an unknown one is named as the engine wrote it).

    >>> result({"result": "break-gin"}).name, result({"result": "odd-one"}).letter
    ('gin after the break', '?')
    """
    key = str(box.get("result", ""))
    return RESULTS.get(key) or Result("?", key.replace("-", " "))


def legend(*, three_hand: bool, knocker: bool = True) -> str:
    """The key to the letters, printed on every page that uses them.

    >>> legend(three_hand=False)
    'K knock · U undercut · G gin · B break · BG gin after the break · 4ᵏ knocker’s count'
    """
    under = "underknock" if three_hand else "undercut"
    parts = ["K knock", f"U {under}", "G gin", "B break", "BG gin after the break"]
    if knocker:
        parts.append(f"4{KNOCKER_MARK} knocker’s count")
    return " · ".join(parts)


def headline(box: Mapping[str, Any]) -> str:
    """Who won the box and how, in words, never naming the loser as its subject.

    >>> headline({"result": "underknock", "winner": "Sal", "by": "Marge"})
    'Sal won by an underknock (Marge knocked)'
    >>> headline({"result": "gin", "winner": "Ann", "by": "Ann"})
    'Ann won by gin'
    >>> headline({"result": "misdeal", "winner": None})
    'misdeal'
    """
    found = result(box)
    winner, by = box.get("winner"), box.get("by")
    if not found.scores or winner is None:
        return found.name
    article = "an " if found.name[0] in "aeiou" and found.name != "gin" else (
        "a " if found.name in ("knock", "break") else "")
    line = f"{winner} won by {article}{found.name}"
    if by is not None and by != winner:
        verb = "broke" if box.get("result") in ("break", "break-gin") else "knocked"
        line += f" ({by} {verb})"
    return line
