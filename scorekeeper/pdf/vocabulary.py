"""What the sheets call each way a box can end, from the engine's vocabulary.

The phone, the PDF and the explanations say the same thing ("gin after the
break"): the words and letters are the engine's (``engine/vocabulary.py``);
this module only shapes them for the printed page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine.vocabulary import ENDING_VERBS, RESULT_LETTERS, RESULT_NAMES, VOID_RESULTS


@dataclass(frozen=True)
class Result:
    """One way a box ends: its letter in the narrow "how" column and its name in words."""

    letter: str
    name: str
    scores: bool = True
    """False for a draw or misdeal, which no one wins."""


RESULTS: Mapping[str, Result] = {
    key: Result(RESULT_LETTERS[key], name, key not in VOID_RESULTS) for key, name in RESULT_NAMES.items()
}

KNOCKER_MARK = "ᵏ"
"""After a count: the knocker's (or breaker's) count, the one the others were measured by."""
NOTE_MARK = "*"
"""After a box number: the box has a note, printed under the table."""


def result(key: str) -> Result:
    """The :class:`Result` of a scored box's ``result`` (an unknown one is named as the
    engine wrote it).

    >>> result("break-gin").name, result("odd-one").letter
    ('gin after the break', '?')
    """
    return RESULTS.get(key) or Result("?", key.replace("-", " "))


def legend(*, three_hand: bool, knocker: bool = True, has_break: bool = True) -> str:
    """The key to the letters, printed on every page that uses them (the break's letters
    only in a game that has the break, J10).

    >>> legend(three_hand=True)
    'K knock · U underknock · G gin · B break · BG gin after the break · 4ᵏ knocker’s count'
    >>> legend(three_hand=False, has_break=False)
    'K knock · U undercut · G gin · 4ᵏ knocker’s count'
    """
    under = "underknock" if three_hand else "undercut"
    keys = ("knock", under, "gin", *(("break", "break-gin") if has_break else ()))
    parts = [f"{RESULT_LETTERS[key]} {RESULT_NAMES[key]}" for key in keys]
    if knocker:
        parts.append(f"4{KNOCKER_MARK} knocker’s count")
    return " · ".join(parts)


def headline(key: str, winner: str | None, by: str | None = None) -> str:
    """Who won the box and how (its ``result``, ``winner`` and the player who knocked or
    broke), in words, never naming the loser as its subject.

    >>> headline("underknock", "Sal", "Marge")
    'Sal won by an underknock (Marge knocked)'
    >>> headline("gin", "Ann", "Ann"), headline("misdeal", None)
    ('Ann won by gin', 'misdeal')
    """
    found = result(key)
    if not found.scores or winner is None:
        return found.name
    article = (
        "an "
        if found.name[0] in "aeiou" and found.name != "gin"
        else ("a " if found.name in ("knock", "break") else "")
    )
    line = f"{winner} won by {article}{found.name}"
    if by is not None and by != winner:
        verb = ENDING_VERBS["break" if key in ("break", "break-gin") else "knock"]
        line += f" ({by} {verb})"
    return line
